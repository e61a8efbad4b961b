import MovieDomain

/// An input opened for import, with its format.
public struct ImportInput {
    let reader: ByteReader
    let format: ImportFormat
    /// The name messages use (`-` for standard input).
    public var name: String { reader.name }
    /// Whether `path` names the file this input is read from.
    public func reads(_ path: String) -> Bool { reader.reads(path) }
}

extension Importer {
    /// Opens the inputs (`-` is stdin) and tells their formats, before any catalog is opened: a
    /// missing file (66) or an unknown format (64) then creates nothing.
    public static func open(_ paths: [String], format: ImportFormat?) throws -> [ImportInput] {
        try paths.map { path in
            // A missing file says so (66) before anything is said about its format.
            let input = path == "-" && format == nil ? nil : try ByteReader(path: path)
            let text = format == nil && ImportFormat.isPlainText(path: path)
            guard let input, var format = format ?? ImportFormat.from(path: path) ?? (text ? .csv : nil) else {
                if let input { try refuseForeign(input) }
                let what = path == "-" ? "standard input" : "\(path.quotedForMessage)"
                // MovieLens 1M and 10M: `1::Toy Story (1995)::Animation|Children's|Comedy`, no header.
                if let input, try input.peek(1 << 12).prefix(while: { $0 != 0x0A }).split(separator: 0x3A, omittingEmptySubsequences: false).count >= 5 {
                    throw CatalogError(.usage, "cannot tell the format of \(what): its fields are separated by '::', as MovieLens's .dat files are; import MovieLens's movies.csv (ml-latest), or make this one TSV with a header first: (printf 'movieId\\ttitle\\tgenres\\n'; sed 's/::/\\t/g' \(path.quotedForMessage)) > movies.tsv")
                }
                throw CatalogError(.usage, "cannot tell the format of \(what); use --format csv|tsv|json|jsonl")
            }
            // Excel's CSV on Windows is Windows-1252, its "Unicode Text" UTF-16: told from UTF-8 by
            // their first bytes.
            input.encodingSniffed = false
            input.maySingleByte = format == .csv || format == .tsv
            if text { format = ImportFormat.delimited(firstLine: try input.peek(1 << 16)) }
            return ImportInput(reader: input, format: format)
        }
    }

    /// The first bytes of a zip archive (Letterboxd's and MovieLens's downloads are zip archives).
    static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// The first bytes of an OLE2 compound file: Excel's workbooks before 2007 (`.xls`), Word's too.
    static let compoundFileMagic: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    static func zipArchive(_ name: String, head: [UInt8] = []) -> CatalogError {
        if let kind = officeKind(name, head: head) { return office(name, kind) }
        return CatalogError(.dataError, "\(name): a zip archive, not a list: unzip it and import the lists inside (Letterboxd's watched.csv or ratings.csv, MovieLens's movies.csv)")
    }

    static func office(_ name: String, _ kind: String) -> CatalogError {
        CatalogError(.dataError, "\(name): \(kind), not a list: save its sheet as CSV (File > Save As, or Download as CSV) and import that")
    }

    /// What a zip archive is when it is an office file: a workbook (Excel's `.xlsx`, LibreOffice's
    /// `.ods`, Numbers') by its name or its first entry (`xl/...`, an `.ods`'s `mimetype`), else
    /// another Office document (its first entry `[Content_Types].xml` or `docProps/`), else nil.
    static func officeKind(_ name: String, head: [UInt8]) -> String? {
        let lower = name.lowercased()
        if [".xlsx", ".xlsm", ".ods", ".numbers"].contains(where: lower.hasSuffix) { return "a spreadsheet workbook" }
        guard head.count > 30 else { return nil }
        let length = Int(head[26]) | Int(head[27]) << 8
        let entry = String(decoding: head.dropFirst(30).prefix(length), as: UTF8.self)
        if entry.hasPrefix("xl/") { return "a spreadsheet workbook" }
        if entry == "mimetype" {
            return String(decoding: head.dropFirst(30 + length), as: UTF8.self).contains("opendocument.spreadsheet") ? "a spreadsheet workbook" : nil
        }
        return entry == "[Content_Types].xml" || entry.hasPrefix("docProps/") ? "an Office document" : nil
    }

    /// Refuses what is no list of any format moviecat reads, named for what it is: a workbook, a
    /// zip archive, an XML or HTML document (MyAnimeList's export, a saved web page).
    static func refuseForeign(_ input: ByteReader) throws {
        let head = try input.peek(256)
        if head.starts(with: zipMagic) { throw zipArchive(input.name, head: head) }
        if head.starts(with: compoundFileMagic) {
            throw office(input.name, input.name.lowercased().hasSuffix(".xls") ? "a spreadsheet workbook" : "an Office document")
        }
        let text = head.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let start = String(decoding: text.prefix(9), as: UTF8.self).lowercased()
        if ["<?xml", "<!doctype", "<html"].contains(where: start.hasPrefix) {
            let kind = start.hasPrefix("<?xml") ? "an XML document" : "an HTML page"
            throw CatalogError(.dataError, "\(input.name): \(kind), not a list: moviecat reads CSV, TSV, JSON and JSON Lines; export the list as one of those")
        }
    }
}
