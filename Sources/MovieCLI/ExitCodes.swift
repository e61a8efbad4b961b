import MovieDomain

/// SPEC section 5: the process exit code of each kind of failure (sysexits.h values).
extension CatalogError.Kind {
    /// The exit code of this kind of failure.
    public var exitCode: Int32 {
        switch self {
        case .notFound, .alreadyExists: return 1
        case .usage: return 64
        case .dataError: return 65
        case .noInput: return 66
        case .internalError: return 70
        case .cannotUseCatalog: return 73
        case .ioError: return 74
        case .locked: return 75
        }
    }
}
