import Foundation
import Testing

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

/// The package root (for Migrations/ and seed.sql).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs a program with arguments, optional stdin and extra environment; waits for it.
func runProcess(_ executable: URL, _ arguments: [String], stdin: Data? = nil,
                environment: [String: String] = [:], directory: URL? = nil) throws -> Run {
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
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-batch", path ?? db, query])
        guard run.status == 0 else { throw SQLiteShellError(message: run.stderr) }
        return run.lines
    }
}

struct SQLiteShellError: Error { let message: String }
