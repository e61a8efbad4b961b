import Foundation
import Testing

/// Lists in the encodings Windows tools write: Windows-1252 (Excel's "CSV"), UTF-16 (Excel's
/// "Unicode Text", Windows PowerShell's files); each read as UTF-8, and the report says so.
@Suite struct EncodingTests {
    @Test("Windows-1252 from a pipe whose first bytes are ASCII and the rest come later is still told (gzipped too)", arguments: [false, true])
    func windows1252FromSlowPipe(_ gzipped: Bool) throws {
        let box = try Sandbox()
        let script = gzipped
            ? "printf 'title,year\\nCaf\\351,2000\\n' | gzip | (head -c 20; sleep 0.4; cat) | moviecat --db catalog.sqlite import - --format csv"
            : "(printf 'title,year\\n'; sleep 0.4; printf 'Caf\\351,2000\\n') | moviecat --db catalog.sqlite import - --format csv"
        let run = try ResourceLimitTests.shell(script, in: box)
        #expect(run.status == 0 && run.errorLines.contains("-: read as Windows-1252 (its bytes are not UTF-8)"), "\(run)")
        #expect(try box.sql("SELECT hex(title) FROM movies") == ["436166C3A9"])
    }

    @Test("a long list whose first accent comes after its first 64 KiB is still told: Windows-1252 read so, UTF-8 kept", arguments: [false, true])
    func lateAccent(_ gzipped: Bool) throws {
        let box = try Sandbox()
        let plain = "title,year\n" + (0..<4000).map { "Film number \($0),\(1900 + $0 % 100)\n" }.joined()
        let late = plain + "Am\u{E9}lie,2001\n"
        var bytes = [UInt8](late.data(using: .windowsCP1252)!)
        if gzipped { bytes = try LayoutTests.gzipped(Data(bytes)) }
        let file = try box.write(gzipped ? "long.csv.gz" : "long.csv", bytes: bytes)
        let run = try box.moviecat("import", file)
        #expect(run.status == 0 && run.reports == [ReportLine(file: file, read: 4001, inserted: 4001)], "\(run)")
        #expect(run.errorLines.contains("\(file): read as Windows-1252 (its bytes are not UTF-8)"), "\(run)")
        #expect(try box.sql("SELECT hex(title) FROM movies WHERE year = 2001") == [ImportRoundTripTests.hex("Am\u{E9}lie")])
        let utf8 = try box.write("utf8.csv", bytes: Array((plain + "Caf\u{E9},2002\n").utf8))
        let kept = try box.moviecat("import", utf8)
        #expect(kept.status == 0 && !kept.stderr.contains("Windows-1252"), "\(kept)")
        #expect(try box.sql("SELECT hex(title) FROM movies WHERE year = 2002") == [ImportRoundTripTests.hex("Caf\u{E9}")])
    }

    @Test("a Windows-1252 file (Excel's CSV on Windows) is read as such, gzipped too; a UTF-8 file with a broken byte stays UTF-8", arguments: [false, true])
    func windows1252(_ gzipped: Bool) throws {
        let box = try Sandbox()
        let text = "title,year,genres\r\nAm\u{E9}lie,2001,Com\u{E9}die\r\nThe \u{201C}Quote\u{201D} \u{20AC},1999,\r\n"
        var bytes = [UInt8](text.data(using: .windowsCP1252)!)
        if gzipped { bytes = try LayoutTests.gzipped(Data(bytes)) }
        let file = try box.write(gzipped ? "excel.csv.gz" : "excel.csv", bytes: bytes)
        let run = try box.moviecat("import", file)
        #expect(run.status == 0 && run.reports == [ReportLine(file: file, read: 2, inserted: 2)], "\(run)")
        #expect(run.errorLines.contains("\(file): read as Windows-1252 (its bytes are not UTF-8)"), "\(run)")
        #expect(try box.rows("SELECT hex(title) FROM movies ORDER BY id") == [[ImportRoundTripTests.hex("Am\u{E9}lie")], [ImportRoundTripTests.hex("The \u{201C}Quote\u{201D} \u{20AC}")]])
        #expect(try box.sql("SELECT name FROM genres WHERE code = 'com\u{E9}die'") == ["Com\u{E9}die"])
        // UTF-8 with one byte that is not: its row alone is refused, the rest read as UTF-8.
        let broken = try box.write("broken.csv", bytes: Array("title,year\nCaf\u{E9},2001\nBad ".utf8) + [0xE9] + Array(",2002\n".utf8))
        let utf8 = try box.moviecat("import", broken, "--skip-invalid")
        #expect(utf8.reports == [ReportLine(file: broken, read: 2, inserted: 1, rejected: 1)], "\(utf8)")
        #expect(!utf8.stderr.contains("Windows-1252"), "\(utf8)")
    }

    @Test("UTF-16 with a byte order mark is read as such, either byte order, gzipped too: Excel's Unicode Text (.txt, tabs), PowerShell's JSON", arguments: [false, true])
    func utf16(_ gzipped: Bool) throws {
        let box = try Sandbox()
        let tsv = "\u{FEFF}Title\tYear\tGenres\r\nAm\u{E9}lie\t2001\tComedy\r\n\u{1F3AC} \u{4E03}\u{4EBA}\u{306E}\u{4F8D}\t1954\tAction\r\n"
        let json = "\u{FEFF}[{\"title\": \"Caf\u{E9} \u{1F3AC}\", \"year\": 1999}]"
        for (name, text, encoding, order) in [("unicode.txt", tsv, String.Encoding.utf16LittleEndian, "little"),
                                              ("powershell.json", json, .utf16BigEndian, "big")] {
            var bytes = [UInt8](text.data(using: encoding)!)
            if gzipped { bytes = try LayoutTests.gzipped(Data(bytes)) }
            let file = try box.write(gzipped ? name + ".gz" : name, bytes: bytes)
            let run = try box.moviecat("import", file)
            #expect(run.status == 0 && run.errorLines.contains("\(file): read as UTF-16 (\(order)-endian)"), "\(run)")
        }
        #expect(try box.rows("SELECT hex(title), year FROM movies ORDER BY id") == [
            [ImportRoundTripTests.hex("Am\u{E9}lie"), "2001"], [ImportRoundTripTests.hex("\u{1F3AC} \u{4E03}\u{4EBA}\u{306E}\u{4F8D}"), "1954"],
            [ImportRoundTripTests.hex("Caf\u{E9} \u{1F3AC}"), "1999"]])
        #expect(try box.sql("SELECT g.code FROM movie_genres JOIN genres g ON g.id = genre_id ORDER BY movie_id") == ["comedy", "action"])
    }

    @Test("UTF-16 without a byte order mark is told by its NUL bytes, from a pipe too; its rows' lines and rejects are right")
    func utf16WithoutMark() throws {
        let box = try Sandbox()
        let text = "title,year\nGood,2001\nBad,99999\nAlso \u{E9},2002\n"
        let file = try box.write("nomark.csv", bytes: [UInt8](text.data(using: .utf16LittleEndian)!))
        let run = try box.moviecat("import", file, "--skip-invalid", "--rejects", "rejects.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: file, read: 3, inserted: 2, rejected: 1)], "\(run)")
        #expect(run.stderr.contains("\(file):3: year: '99999' is outside 1870..2100"), "\(run)")
        // The rejects file is UTF-8, as every file moviecat writes.
        #expect(try String(contentsOfFile: box.path("rejects.csv"), encoding: .utf8) == "title,year,error\nBad,99999,\(file):3: year: '99999' is outside 1870..2100\n")
        let piped = try ResourceLimitTests.shell("cat \(file) | moviecat --db other.sqlite import - --format csv --skip-invalid", in: box)
        #expect(piped.status == 0 && piped.errorLines.contains("-: read as UTF-16 (little-endian)"), "\(piped)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY id") == ["Good", "Also \u{E9}"])
    }

    @Test("a lone surrogate in UTF-16 spoils its row alone (UTF-32 is refused: ImportCorpusTests)")
    func brokenUTF16() throws {
        let box = try Sandbox()
        let units: [UInt16] = Array("title\nA\n".utf16) + [0x42, 0xD800, 0x0A] + Array("C\n".utf16)
        let file = try box.write("broken.csv", bytes: [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let run = try box.moviecat("import", file, "--skip-invalid")
        #expect(run.status == 0 && run.reports == [ReportLine(file: file, read: 3, inserted: 2, rejected: 1)], "\(run)")
        #expect(run.stderr.contains("\(file):3: title: invalid UTF-8"), "\(run)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY id") == ["A", "C"])
    }

    @Test("a .txt file (Excel's Text and Unicode Text) is TSV when its first line holds a tab, else CSV; other names still need --format")
    func textFiles() throws {
        let box = try Sandbox()
        try box.write("tabs.txt", "Title\tYear\nHeat, The Movie\t1995\n")
        try box.write("commas.txt", "title,year\nAlien,1979\n")
        try box.write("semicolons.TXT", "Titel;Jahr;title\nx;1;Brazil\n")
        // PowerShell's #TYPE line first: the line after it tells.
        try box.write("typed.txt", "#TYPE System.Management.Automation.PSCustomObject\nTitle\tYear\nUp, Again\t2009\n")
        let run = try box.moviecat("import", "tabs.txt", "commas.txt", "semicolons.TXT", "typed.txt")
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY id") == ["Heat, The Movie", "Alien", "Brazil", "Up, Again"])
        try box.write("list.dat", "title\nX\n")
        let unknown = try box.moviecat("import", "list.dat")
        #expect(unknown.status == 64 && unknown.errorLines.last == "moviecat: error: cannot tell the format of 'list.dat'; use --format csv|tsv|json|jsonl", "\(unknown)")
    }

    @Test("Excel for Mac's CSV (Mac Roman, lines ending in CR) is read as Mac Roman, not as Windows-1252's mojibake and C1 controls")
    func macRoman() throws {
        let box = try Sandbox()
        // "title,year\rAmélie,2001\rCrème brûlée “Story”,1999\r" in Mac Roman.
        let bytes: [UInt8] = Array("title,year\rAm".utf8) + [0x8E] + Array("lie,2001\rCr".utf8) + [0x8F] + Array("me br".utf8) + [0x9E]
            + Array("l".utf8) + [0x8E] + Array("e ".utf8) + [0xD2] + Array("Story".utf8) + [0xD3] + Array(",1999\r".utf8)
        let file = try box.write("mac.csv", bytes: bytes)
        let run = try box.moviecat("import", file)
        #expect(run.status == 0 && run.errorLines.contains("\(file): read as Mac Roman (its bytes are not UTF-8, and are Excel for Mac's)"), "\(run)")
        #expect(try box.rows("SELECT hex(title) FROM movies ORDER BY id") == [[ImportRoundTripTests.hex("Am\u{E9}lie")], [ImportRoundTripTests.hex("Cr\u{E8}me br\u{FB}l\u{E9}e \u{201C}Story\u{201D}")]])
    }
}
