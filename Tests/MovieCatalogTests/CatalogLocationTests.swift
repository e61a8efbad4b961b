import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain

/// Where the catalog is without `--db` (SPEC section 4): never a relative default, which would
/// put it wherever one stands (a relative XDG_DATA_HOME or HOME once did).
@Suite struct CatalogLocationTests {
    static let suffix = "/.local/share/moviecat/catalog.sqlite"
    /// The user's home in the password database, which stands in for a missing HOME.
    static var passwordHome: String? { getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } }

    @Test("the flag, then MOVIECAT_DB, then an absolute XDG_DATA_HOME, then an absolute HOME", arguments: [
        ("/f.sqlite", ["MOVIECAT_DB": "/e.sqlite"], "/f.sqlite"),
        (nil, ["MOVIECAT_DB": "/e.sqlite", "XDG_DATA_HOME": "/x"], "/e.sqlite"),
        (nil, ["MOVIECAT_DB": "", "XDG_DATA_HOME": "/x", "HOME": "/h"], "/x/moviecat/catalog.sqlite"),
        (nil, ["XDG_DATA_HOME": "relative/x", "HOME": "/h"], "/h" + suffix),
        (nil, ["XDG_DATA_HOME": "", "HOME": "/h"], "/h" + suffix),
    ] as [(String?, [String: String], String)])
    func order(_ flag: String?, _ environment: [String: String], _ expected: String) {
        #expect(CatalogLocation.resolve(flag: flag, environment: environment) == expected)
    }

    @Test("without a usable HOME, the password database's home", arguments: [[:], ["HOME": ""], ["HOME": "rel"], ["XDG_DATA_HOME": "x", "HOME": "."]])
    func passwordDatabase(_ environment: [String: String]) throws {
        let home = try #require(Self.passwordHome)
        #expect(CatalogLocation.resolve(flag: nil, environment: environment) == home + Self.suffix)
    }

    @Test("with no path at all, a command that opens the catalog fails with 73 saying what to give")
    func noPath() throws {
        let context = Context(catalogPath: nil, environment: [:])
        let error = try #require(throws: CatalogError.self) { try context.catalog() }
        #expect(error.kind == .cannotUseCatalog && error.message.contains("--db"))
        #expect(throws: CatalogError.self) { try context.existingCatalog() }
    }
}
