import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C or a TERM during an import: the catalog is as it was (SQLite's rollback), and the
/// rejects file in the making is removed too (it stayed, one more temporary file a run).
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
        let process = try launch(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_UNBLOCK, {1, 2, 15}); os.execv(sys.argv[1], sys.argv[1:])",
            moviecatBinary.path, "--db", box.db, "import", file, "--skip-invalid", "--rejects", "rej.csv"], in: box.dir)
        let started = Date()
        while process.isRunning, try temporaryFiles().isEmpty, Date().timeIntervalSince(started) < 30 { usleep(2_000) }
        try #require(process.isRunning, "the import ended before it could be interrupted")
        try #require(try !temporaryFiles().isEmpty, "no rejects file in the making")
        #expect(kill(process.processIdentifier, signal) == 0)
        process.waitUntilExit()

        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal, "it dies of the signal")
        #expect(try temporaryFiles() == [])
        #expect(!FileManager.default.fileExists(atPath: box.path("rej.csv")))
        #expect(try box.dump() == before)
    }
}
