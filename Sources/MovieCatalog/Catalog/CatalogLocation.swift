import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the catalog file lives: `--db`, else `$MOVIECAT_DB`, else `$XDG_DATA_HOME/moviecat/catalog.sqlite`.
public enum CatalogLocation {
    /// Resolves the catalog path from the flag and the environment; nil when neither is given
    /// and there is no home directory for the default.
    public static func resolve(flag: String?, environment: [String: String]) -> String? {
        if let flag, !flag.isEmpty { return flag }
        if let env = environment["MOVIECAT_DB"], !env.isEmpty { return env }
        // The XDG base directory rules: a relative (or empty) XDG_DATA_HOME is ignored.
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/moviecat/catalog.sqlite"
        }
        return homeDirectory(environment).map { $0 + "/.local/share/moviecat/catalog.sqlite" }
    }

    /// Why `resolve` found no path.
    public static let noPathMessage = "no catalog path: HOME is not set and the user has no home directory (give --db PATH or set MOVIECAT_DB)"

    /// `$HOME` when absolute, else the user's entry in the password database (as a login shell
    /// would set it); never a relative path, which would put the catalog wherever one stands.
    static func homeDirectory(_ environment: [String: String]) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.hasPrefix("/") ? home : nil
    }

    /// Whether a file exists at `path`.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether two paths name the same file (same device and inode, or the same resolved path).
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        if stat(a, &x) == 0 && stat(b, &y) == 0 { return x.st_dev == y.st_dev && x.st_ino == y.st_ino }
        return resolved(a) == resolved(b)
    }

    /// A path with its folder resolved, absolute (the file itself need not exist).
    public static func resolved(_ path: String) -> String {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        guard let real = realpath(FilePaths.folder(of: path), nil) else { return path }
        defer { free(real) }
        return String(cString: real) + "/" + name
    }

    /// Creates the parent directories of `path` (like `mkdir -p`); returns those it made, outermost first.
    @discardableResult
    static func createParentDirectories(of path: String) throws -> [String] {
        var made: [String] = []
        var components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        guard !components.isEmpty else { return made }
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
            if mkdir(current, 0o755) != 0 {
                if errno == EEXIST { continue }
                let reason = String(cString: strerror(errno))
                removeUnused(nil, directories: made)
                throw CatalogError(.cannotUseCatalog, "cannot create directory \(current) for the catalog: \(reason)")
            }
            made.append(current)
        }
        return made
    }

    /// Removes a catalog a failed command was making, when it holds nothing (an empty file and no
    /// WAL with frames: another process making it at once would have written some), then the
    /// directories made for it, innermost first, where empty.
    static func removeUnused(_ path: String?, directories: [String]) {
        if let path {
            var info = stat(), wal = stat()
            let empty = stat(path, &info) == 0 && info.st_size == 0
            let walEmpty = stat(path + "-wal", &wal) != 0 || wal.st_size == 0
            if empty && walEmpty {
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            }
        }
        for directory in directories.reversed() { rmdir(directory) }
    }
}
