import Foundation
import Testing
import TestSupport

/// What one run of the binary did.
struct Run: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    /// Non-empty stdout lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// The built `moviecat` binary: `$MOVIECAT_BIN`, else next to the test bundle in the build folder.
let moviecatBinary: URL = {
    if let path = ProcessInfo.processInfo.environment["MOVIECAT_BIN"] { return URL(fileURLWithPath: path) }
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("moviecat")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    // swift test builds products into .build/debug; fall back to the package's build folder.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/moviecat")
}()

/// The newest schema version: the number of files in Migrations/ (numbered 1...n).
let latestSchemaVersion: String = {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Migrations")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return String(files.filter { $0.hasSuffix(".sql") }.count)
}()

/// The package root (for Migrations/ and seed.sql).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A child that exits before reading all its stdin (a usage error, say) must make the write
/// fail, not kill the whole test run with SIGPIPE.
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Runs a program with arguments, optional stdin and extra environment; waits for it.
func runProcess(_ executable: URL, _ arguments: [String], stdin: Data? = nil,
                environment: [String: String] = [:], directory: URL? = nil) throws -> Run {
    _ = ignoreBrokenPipes
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "MOVIECAT_DB")
    env["COLUMNS"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let directory { process.currentDirectoryURL = directory }
    let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = inPipe
    try process.run()
    // Read both pipes concurrently so a full pipe cannot deadlock the child.
    nonisolated(unsafe) var errData = Data()
    let errThread = Thread { errData = errPipe.fileHandleForReading.readDataToEndOfFile() }
    errThread.start()
    if let stdin { try? inPipe.fileHandleForWriting.write(contentsOf: stdin) }
    try? inPipe.fileHandleForWriting.close()
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while errThread.isExecuting || !errThread.isFinished { usleep(1000) }
    return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
               stderr: String(decoding: errData, as: UTF8.self))
}

/// A temporary folder with a catalog path in it, removed at deinit.
final class Sandbox {
    let dir: URL
    var db: String { dir.appendingPathComponent("catalog.sqlite").path }

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("moviecat-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    /// Runs moviecat with `--db` pointing at this sandbox's catalog.
    @discardableResult
    func moviecat(_ arguments: String..., stdin: String? = nil, environment: [String: String] = [:]) throws -> Run {
        try moviecat(arguments, stdin: stdin, environment: environment)
    }

    @discardableResult
    func moviecat(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Run {
        try runProcess(moviecatBinary, ["--db", db] + arguments, stdin: stdin.map { Data($0.utf8) },
                       environment: environment, directory: dir)
    }

    /// Writes a file into the sandbox and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Writes raw bytes into the sandbox and returns its path.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Runs SQL with the sqlite3 shell (not moviecat's code) and returns its output lines.
    func sql(_ query: String, db path: String? = nil) throws -> [String] {
        let run = try runProcess(sqlite3Binary, ["-batch", path ?? db, query])
        guard run.status == 0 else { throw SQLiteShellError(message: run.stderr) }
        return run.lines
    }

    /// Every movie's values and genre ids, by id, read with the sqlite3 shell: two catalogs that
    /// give the same lines hold the same movies.
    func movies(db path: String? = nil) throws -> [String] {
        try sql("SELECT id, title, year, rating, votes, duration_minutes, certification, imdb_id, (SELECT group_concat(genre_id) FROM (SELECT genre_id FROM movie_genres WHERE movie_id = m.id ORDER BY genre_id)) FROM movies m ORDER BY id", db: path)
    }
}

struct SQLiteShellError: Error { let message: String }

// MARK: - Helpers shared by the end-to-end suites

/// The sqlite3 shell on PATH, used to inspect catalogs independently of moviecat's code.
let sqlite3Binary = URL(fileURLWithPath: Tools.sqlite3)

extension Run {
    /// Non-empty stderr lines.
    var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

extension Sandbox {
    /// A path inside the sandbox.
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Creates the demo catalog with `moviecat init --seed`.
    func seed() throws {
        let run = try moviecat("init", "--seed")
        try #require(run.status == 0, "\(run)")
    }

    /// Runs a script through the sqlite3 shell on stdin (dot-commands allowed); throws when it fails.
    @discardableResult
    func sqlite3(_ script: String, db path: String? = nil) throws -> Run {
        let run = try runProcess(sqlite3Binary, ["-batch", path ?? db], stdin: Data(script.utf8), directory: dir)
        guard run.status == 0, !run.stderr.contains("Error") else { throw SQLiteShellError(message: run.stderr) }
        return run
    }

    /// The whole catalog as the sqlite3 shell sees it (`.dump` plus the pragmas the schema relies on),
    /// for comparing a catalog before and after a command.
    func dump(db path: String? = nil) throws -> String {
        try sqlite3(".dump\nPRAGMA user_version;\n", db: path).stdout
    }

    /// Every file in the sandbox with its contents (SQLite catalogs as dumps, WAL side files left out),
    /// for checking that a failing command changed nothing.
    func snapshot() throws -> [String: String] {
        var result: [String: String] = [:]
        let root = dir.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
        for case let relative as String in walker {
            let full = root + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue { result[relative + "/"] = "(directory)"; continue }
            if relative.hasSuffix("-wal") || relative.hasSuffix("-shm") { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: full))
            if data.starts(with: Array("SQLite format 3\0".utf8)), let text = try? dump(db: full) {
                result[relative] = text
            } else {
                result[relative] = data.base64EncodedString()
            }
        }
        return result
    }
}
