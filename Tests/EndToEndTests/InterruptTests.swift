import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C or a TERM during an import: the catalog is as it was (SQLite's rollback), it says so,
/// and the rejects file in the making is gone too (it stayed, one more temporary file a run): it has no
/// name yet, or the signal handler removes it.
@Suite(.serialized) struct InterruptTests {
    @Test("an interrupted import with --rejects leaves neither the catalog changed nor a temporary file",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func interruptedRejects(_ signal: Int32) throws {
        let box = try Sandbox()
        try box.seed()
        let file = try ImportAtomicityTests.writeBigCSV(box)
        let before = try box.dump()
        func temporaryFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: box.dir.path).filter { $0.contains(".moviecat-") }
        }

        // Started as a shell would start it: the test runner's threads block these signals, and
        // a child inherits the mask, so python unblocks them before it becomes moviecat.
        let errors = Pipe()
        let process = try launch(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_UNBLOCK, {1, 2, 15}); os.execv(sys.argv[1], sys.argv[1:])",
            moviecatBinary.path, "--db", box.db, "import", file, "--skip-invalid", "--rejects", "rej.csv"], in: box.dir, errors: errors)
        // Interrupted once it writes (its WAL grows): the rejects file is begun by then, unnamed
        // where the system allows (O_TMPFILE), else under a name of its own.
        func writing() -> Bool {
            ((try? FileManager.default.attributesOfItem(atPath: box.db + "-wal"))?[.size] as? Int ?? 0) > 0
        }
        let started = Date()
        while process.isRunning, !writing(), Date().timeIntervalSince(started) < 30 { usleep(2_000) }
        try #require(process.isRunning, "the import ended before it could be interrupted")
        #expect(kill(process.processIdentifier, signal) == 0)
        process.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal, "it dies of the signal")
        // It says so, where it said nothing (no progress line in a pipe: the line alone).
        #expect(said == "moviecat: interrupted: nothing was imported; the catalog is as it was\n", "\(said)")
        #expect(try temporaryFiles() == [])
        #expect(!FileManager.default.fileExists(atPath: box.path("rej.csv")))
        #expect(try box.dump() == before)
    }
}
