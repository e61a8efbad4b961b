import CSQLite

/// The process exit codes of SPEC section 5 (sysexits.h values).
public enum ExitStatus: Int32, Sendable {
    case success = 0
    case notFound = 1            // a named thing is missing or already exists
    case usage = 64
    case dataError = 65
    case noInput = 66
    case internalError = 70
    case cannotUseCatalog = 73
    case ioError = 74
    case locked = 75
}

/// An error the user sees: one message line, optional detail lines before it, and an exit status.
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    /// The process exit status.
    public let status: ExitStatus
    /// The error line shown to the user.
    public let message: String
    /// Lines printed before the error line (an import's list of problems).
    public var details: [String]
    /// A usage line and help hint printed after the error (argument errors).
    public var usageHint: String?

    /// Creates an error with an exit status, message and optional details and usage hint.
    public init(_ status: ExitStatus, _ message: String, details: [String] = [], usageHint: String? = nil) {
        self.status = status
        self.message = message
        self.details = details
        self.usageHint = usageHint
    }

    /// The message line.
    public var description: String { message }

    /// Maps any error to what the user should see; SQLite codes become exit codes.
    public static func from(_ error: Error, catalogPath: String? = nil) -> CatalogError {
        if let error = error as? CatalogError { return error }
        if let error = error as? DatabaseError {
            let place = catalogPath.map { "\($0): " } ?? ""
            switch error.code {
            case SQLITE_BUSY, SQLITE_LOCKED:
                return CatalogError(.locked, "\(place)the catalog stayed locked by another process for over \(Database.busyTimeoutMilliseconds / 1000) s")
            case SQLITE_NOTADB:
                return CatalogError(.cannotUseCatalog, "\(place)not a SQLite database")
            case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_FULL, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_AUTH:
                return CatalogError(.cannotUseCatalog, "\(place)cannot use the catalog: \(error.message)")
            default:
                // The SQL stays out of the message: users get SQLite's own words and code.
                return CatalogError(.internalError, "internal error: SQLite error \(error.extendedCode): \(error.message)")
            }
        }
        return CatalogError(.internalError, "internal error: \(error)")
    }
}
