#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about file paths that several layers need alike.
public enum FilePaths {
    /// The folder of `path`: `.` for a bare name, `/` for a file at the root.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Where SQLite puts its temporary files, in its order of preference: `SQLITE_TMPDIR`,
    /// `TMPDIR`, /var/tmp, /usr/tmp, /tmp (the first writable one is used).
    public static var temporaryDirectories: [String] {
        let variables: [String] = ["SQLITE_TMPDIR", "TMPDIR"]
        return variables.compactMap { name in getenv(name).map { String(cString: $0) } } + ["/var/tmp", "/usr/tmp", "/tmp"]
    }

    /// The temporary directory SQLite uses: the first writable of `temporaryDirectories`.
    public static var temporaryDirectory: String {
        temporaryDirectories.first { access($0, W_OK | X_OK) == 0 } ?? "/tmp"
    }
}
