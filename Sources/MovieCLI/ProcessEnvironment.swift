import MovieCatalog
import MovieDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process environment moviecat reads, as a dictionary (without Foundation).
public enum ProcessEnvironment {
    /// The variables any command reads.
    public static let names = ["MOVIECAT_DB", "XDG_DATA_HOME", "HOME", "COLUMNS", "MOVIECAT_TIMINGS"]

    /// The `names` this process has: read one by one, not the whole environment (a start-up
    /// cost); a value that is not UTF-8 is left out (a path made of it would name another file).
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        for name in names {
            if let value = getenv(name), let text = String(validatingCString: value) { result[name] = text }
        }
        return result
    }
}
