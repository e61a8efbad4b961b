// swift-tools-version:6.0
import PackageDescription

// Layers, lowest first; each target sees only those below it, so a cycle fails to compile:
// MovieDomain (values and rules, no imports) and SQLiteStore (the SQLite wrapper)
// <- MovieCatalog (catalog, filters, import, output) <- MovieCLI (options, help, completions)
// <- moviecat (the commands).
// A release build leaves out the run-time exclusivity checks: the compiler still proves what it
// can, and debug builds (the tests) keep every check. An import spent some 6 % of its writer's
// instructions in them (a class's stored properties accessed a few dozen times a row). Unsafe
// flags keep the package from being another's versioned dependency: it is an application.
let releaseSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "moviecat",
    products: [
        .executable(name: "moviecat", targets: ["moviecat"]),
        .library(name: "MovieCatalog", targets: ["MovieCatalog"]),
        // What the libFuzzer targets in Fuzz/ link against (see `make fuzz`).
        .library(name: "MovieFuzzKit", type: .static, targets: ["MovieCLI"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // zlib, for gzipped inputs (title.basics.tsv.gz).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Turns Migrations/*.sql and seed.sql into Swift string constants at build time,
        // so the binary is self-contained and the .sql files stay the only copy.
        .executableTarget(name: "embed-sql"),
        .plugin(name: "EmbedSQL", capability: .buildTool(), dependencies: ["embed-sql"]),
        .target(name: "MovieDomain", swiftSettings: releaseSettings),
        .target(name: "SQLiteStore", dependencies: ["CSQLite"], swiftSettings: releaseSettings),
        .target(
            name: "MovieCatalog",
            dependencies: ["MovieDomain", "SQLiteStore", "CZlib"],
            swiftSettings: releaseSettings,
            plugins: ["EmbedSQL"]
        ),
        .target(name: "MovieCLI", dependencies: ["MovieCatalog"]),
        // Release binaries carry the Swift runtime: they run where Swift is not installed, and
        // start in about three quarters of the time (no shared runtime libraries to load and bind).
        .executableTarget(name: "moviecat", dependencies: ["MovieCLI"],
                          linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
        // What both test suites share: one seeded generator, one reference model of the filter
        // rules, a CSV reader for output, tools found on PATH.
        .target(name: "TestSupport", dependencies: ["MovieCatalog"], path: "Tests/TestSupport"),
        .testTarget(name: "MovieCatalogTests", dependencies: ["MovieCLI", "TestSupport"]),
        // Runs the built binary; depends on it so `swift test` builds it first.
        .testTarget(name: "EndToEndTests", dependencies: ["moviecat", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
