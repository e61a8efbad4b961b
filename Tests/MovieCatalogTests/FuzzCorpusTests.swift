import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieCLI

/// Replays every input of `Fuzz/Corpus/` (the seeds and what fuzzing found) through the same
/// entry points the libFuzzer targets call: a crash found once stays fixed.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    /// The targets of `make fuzz`, each with its entry point.
    static let targets: [String: @Sendable ([UInt8]) -> Void] = [
        "csv": { FuzzEntry.delimited($0, tsv: false) }, "tsv": { FuzzEntry.delimited($0, tsv: true) },
        "json": { FuzzEntry.json($0, lines: false) }, "jsonl": { FuzzEntry.json($0, lines: true) },
        "gzip": FuzzEntry.gzip, "filter-token": FuzzEntry.filterToken, "values": FuzzEntry.values,
        "arguments": FuzzEntry.arguments,
    ]

    @Test("every fuzz target has a corpus folder, and every folder a target")
    func folders() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
        #expect(Set(folders) == Set(Self.targets.keys))
    }

    @Test("the corpus replays without a crash", arguments: ["csv", "tsv", "json", "jsonl", "gzip", "filter-token", "values", "arguments"])
    func replay(_ target: String) throws {
        let folder = Self.corpus.appendingPathComponent(target)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.isEmpty, "\(target) has no corpus")
        let entry = try #require(Self.targets[target])
        for file in files {
            entry(Array(try Data(contentsOf: folder.appendingPathComponent(file))))
        }
    }
}
