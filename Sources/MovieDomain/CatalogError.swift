/// An error the user sees: what kind of failure, one message line, optional detail lines.
///
/// The kinds are SPEC section 5's categories; the executable turns them into exit codes.
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as SPEC section 5 sorts failures.
    public enum Kind: Sendable, Equatable {
        /// A named thing is missing (a preset, a movie id).
        case notFound
        /// A named thing already exists (a preset name, a movie).
        case alreadyExists
        /// Usage: an unknown command or flag, a bad filter value, an unknown genre.
        case usage
        /// Input data is invalid: bad rows, malformed CSV or JSON, bad encoding.
        case dataError
        /// An input file does not exist or cannot be read.
        case noInput
        /// A bug.
        case internalError
        /// The catalog cannot be created, written or used.
        case cannotUseCatalog
        /// Any other I/O error.
        case ioError
        /// The catalog stayed locked past the busy timeout.
        case locked
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The error line shown to the user.
    public let message: String
    /// Lines printed before the error line (an import's list of problems).
    public var details: [String]
    /// A usage line and help hint printed after the error (argument errors).
    public var usageHint: String?

    /// Creates an error of a kind, with its message and optional details and usage hint.
    public init(_ kind: Kind, _ message: String, details: [String] = [], usageHint: String? = nil) {
        self.kind = kind
        self.message = message
        self.details = details
        self.usageHint = usageHint
    }

    /// The message line.
    public var description: String { message }
}
