import Foundation
import Testing

/// Another process holding a catalog's write lock: the sqlite3 shell in `BEGIN IMMEDIATE`, its
/// standard input left open, until `commit()` or the end of the test.
final class LockHolder {
    private let process = Process()
    private let input = Pipe()

    /// Starts the shell on `db`, runs `BEGIN IMMEDIATE` and `sql`, and returns once another
    /// connection finds the catalog locked.
    init(db: String, sql: String = "") throws {
        process.executableURL = sqlite3Binary
        process.arguments = ["-batch", db]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(".timeout 10000\nBEGIN IMMEDIATE;\n\(sql)\n".utf8))
        var isLocked = false
        for _ in 0..<50 where !isLocked {
            usleep(100_000)
            let probe = try runProcess(sqlite3Binary, ["-batch", db, "BEGIN IMMEDIATE;"])
            isLocked = probe.status != 0 && probe.stderr.contains("locked")
        }
        try #require(isLocked, "the background sqlite3 did not take the write lock")
    }

    /// Commits the held transaction and lets the shell end.
    func commit() throws {
        try input.fileHandleForWriting.write(contentsOf: Data("COMMIT;\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Ends the shell without committing (its transaction rolls back).
    func stop() {
        if process.isRunning { process.terminate() }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// Starts `executable` with `arguments` in `directory`, its standard streams on /dev/null
/// (`errors`: standard error into that pipe), without waiting for it.
func launch(_ executable: URL, _ arguments: [String], in directory: URL, errors: Pipe? = nil) throws -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors ?? FileHandle.nullDevice
    try process.run()
    return process
}
