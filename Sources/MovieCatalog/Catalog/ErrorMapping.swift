import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CatalogError {
    /// What the user should see for any error: SQLite and migration failures become a kind and
    /// one line naming the catalog (never the SQL); other unknown errors are bugs.
    public static func from(_ error: Error, catalogPath: String? = nil) -> CatalogError {
        if let error = error as? CatalogError { return error }
        let place = catalogPath.map { "\($0): " } ?? ""
        if let error = error as? MigrationError {
            switch error {
            case .newerVersion(let found, let known):
                return CatalogError(.cannotUseCatalog,
                    "\(catalogPath ?? "the catalog") has schema version \(found), newer than this moviecat's \(known); upgrade moviecat")
            case .foreignDatabase:
                return CatalogError(.cannotUseCatalog,
                    "\(catalogPath ?? "the catalog") is a SQLite database of another program (it has tables but no moviecat schema version)")
            case .danglingReferences(let migration):
                return CatalogError(.cannotUseCatalog,
                    "\(place)migration \(migration) would leave rows pointing at missing ones; nothing was changed")
            case .invalidVersion(let found):
                return CatalogError(.cannotUseCatalog,
                    "\(catalogPath ?? "the catalog") has schema version \(found), which is no moviecat's (PRAGMA user_version was set by hand?); nothing was changed")
            case .failed(let migration, let version, let message):
                return CatalogError(.cannotUseCatalog,
                    "\(place)the tables do not match schema version \(version): \(migration) failed (\(message)) and was rolled back")
            case .badNumbering(let problem):
                return CatalogError(.internalError, "internal error: the compiled-in migrations are misnumbered: \(problem)")
            }
        }
        if let error = error as? DatabaseError {
            // A file size limit (ulimit -f): SIGXFSZ is ignored, so SQLite sees EFBIG instead; or,
            // after a short write, an error whose errno is gone, with a file of the catalog at the limit.
            if error.code == .ioError && (error.systemErrno == EFBIG || atFileSizeLimit(catalogPath)) {
                return CatalogError(.ioError, "\(place)the file size limit (ulimit -f) was reached; nothing was written")
            }
            // Most often reported as a disk I/O error: the same words for every form, so users see the cause.
            if error.isDiskFull {
                // The sorts of an import and its index builds spill into the temporary directory:
                // when that is what filled up, the catalog's disk is not to blame.
                if let temporary = fullTemporaryDirectory(besides: catalogPath) {
                    return CatalogError(.ioError, "\(place)the temporary directory \(temporary.quotedForMessage) is full (set SQLITE_TMPDIR or TMPDIR to one with room); nothing was written")
                }
                return CatalogError(.cannotUseCatalog, "\(place)the disk is full; nothing was written")
            }
            switch error.code {
            case .busy, .locked:
                return CatalogError(.locked, "\(place)the catalog stayed locked by another process for over \(Database.busyTimeoutMilliseconds / 1000) s")
            case .notADatabase:
                return CatalogError(.cannotUseCatalog, "\(place)not a SQLite database")
            case .readOnly, .cannotOpen, .permission, .ioError, .corrupt, .auth:
                return CatalogError(.cannotUseCatalog, "\(place)cannot use the catalog: \(error.message)")
            case .constraint:
                // moviecat's own constraints are checked before writing: this one is a sqlite3
                // user's (a unique index, a trigger's RAISE, a table referring to movies).
                return CatalogError(.dataError, "\(place)the catalog refused the change: \(error.message) (a constraint or trigger added to the catalog's tables, not moviecat's); nothing was changed")
            case .error where error.message.hasPrefix("no such column") || error.message.hasPrefix("no such table")
                || error.message.contains("has no column named"):
                return CatalogError(.cannotUseCatalog, "\(place)the catalog's tables are not as moviecat makes them (\(error.message)): a column renamed or dropped by hand?")
            default:
                // The SQL stays out of the message: users get SQLite's own words and code.
                return CatalogError(.internalError, "internal error: SQLite error \(error.extendedCode.rawValue): \(error.message)")
            }
        }
        return CatalogError(.internalError, "internal error: \(error)")
    }

    /// Whether a file size limit is set and the catalog or its WAL has reached it (within a page).
    private static func atFileSizeLimit(_ catalogPath: String?) -> Bool {
        var limit = rlimit()
        guard let catalogPath, getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return false }
        return [catalogPath, catalogPath + "-wal"].contains { path in
            var info = stat()
            return stat(path, &info) == 0 && UInt64(info.st_size) + 65_536 >= UInt64(limit.rlim_cur)
        }
    }

    /// The directory SQLite puts its temporary files in (`FilePaths.temporaryDirectory`), when
    /// it has under 64 MB free and the catalog's own file system has more; nil otherwise.
    private static func fullTemporaryDirectory(besides catalogPath: String?) -> String? {
        func free(_ path: String) -> UInt64? {
            var info = statvfs()
            guard statvfs(path, &info) == 0 else { return nil }
            return UInt64(info.f_bavail) * UInt64(info.f_frsize)
        }
        let temporary = FilePaths.temporaryDirectory
        guard let room = free(temporary) else { return nil }
        let limit: UInt64 = 64 << 20
        guard room < limit, let catalogRoom = free(FilePaths.folder(of: catalogPath ?? ".")), catalogRoom >= limit else { return nil }
        return temporary
    }
}
