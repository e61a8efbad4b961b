#if canImport(Glibc)
import Glibc
#endif

/// Programs the suites run, found on PATH as a user's shell would.
public enum Tools {
    /// The first executable named `name` on PATH, or nil.
    public static func find(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The sqlite3 shell (the tests read catalogs with it, not with the code under test).
    public static let sqlite3: String = find("sqlite3") ?? "/usr/bin/sqlite3"
}
