/// JSON and JSON Lines input for the importer.
extension Importer {
    func importJSON(_ input: ByteReader, mode: JSONRecordReader.Mode) throws {
        throw CatalogError(.internalError, "JSON import is not built yet")
    }
}

/// Placeholder until the JSON reader lands.
public final class JSONRecordReader {
    public enum Mode: Sendable { case array, lines }
}
