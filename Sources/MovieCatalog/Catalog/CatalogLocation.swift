#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the catalog file lives: `--db`, else `$MOVIECAT_DB`, else `$XDG_DATA_HOME/moviecat/catalog.sqlite`.
public enum CatalogLocation {
    /// Resolves the catalog path from the flag and the environment.
    public static func resolve(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let env = environment["MOVIECAT_DB"], !env.isEmpty { return env }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? ".") + "/.local/share"
        return dataHome + "/moviecat/catalog.sqlite"
    }

    /// Creates the parent directories of `path` (like `mkdir -p`).
    static func createParentDirectories(of path: String) throws {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        guard !components.isEmpty else { return }
        var current = path.hasPrefix("/") ? "" : "."
        if path.hasPrefix("/") { components = components.dropFirst() }
        for component in components where !component.isEmpty {
            current += "/" + component
            var info = stat()
            if stat(current, &info) == 0 {
                if (info.st_mode & S_IFMT) != S_IFDIR {
                    throw CatalogError(.cannotUseCatalog, "cannot create the catalog \(path): \(current) is not a directory")
                }
                continue
            }
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw CatalogError(.cannotUseCatalog, "cannot create directory \(current) for the catalog: \(reason)")
            }
        }
    }
}
