import Foundation
import Testing

/// What spreadsheets and data tools write, read as their users mean it: the words for no value,
/// counts with their thousands grouped, two columns for one field, rows without their empty last fields.
@Suite struct SpreadsheetValuesTests {
    @Test("N/A, NA, null, None and #N/A are empty cells: no genre, certification or id named so; a title keeps them")
    func nullWords() throws {
        let box = try Sandbox()
        try box.write("r.csv", "title,year,genres,rating,votes,certification,imdb_id\nNA,N/A,N/A,NA,None,#N/A,N/A\nB,2001,\"Drama, null\",7.5,1,<NA>,tt0000001\n")
        let run = try box.moviecat("import", "r.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "r.csv", read: 2, inserted: 2)], "\(run)")
        #expect(try box.rows("SELECT title, ifnull(year, '-'), ifnull(rating, '-'), ifnull(votes, '-'), ifnull(certification, '-'), ifnull(imdb_id, '-') FROM movies ORDER BY id")
                == [["NA", "-", "-", "-", "-", "-"], ["B", "2001", "7.5", "1", "-", "tt0000001"]])
        #expect(try box.sql("SELECT code FROM genres WHERE code IN ('n-a', 'null', 'na')").isEmpty)
        #expect(try box.sql("SELECT g.code FROM movie_genres JOIN genres g ON g.id = genre_id") == ["drama"])
        // Updating, a null word clears the stored value as an empty cell does.
        try box.write("u.csv", "title,year,rating\nB,2001,N/A\n")
        #expect(try box.moviecat("import", "u.csv").status == 0)
        #expect(try box.sql("SELECT ifnull(rating, 'none') FROM movies WHERE title = 'B'") == ["none"])
    }

    @Test("votes with their thousands grouped (1,700,000, German Excel's 720.000) are whole counts, in a ; file too")
    func groupedVotes() throws {
        let box = try Sandbox()
        try box.write("en.csv", "title,votes\nA,\"1,700,000\"\nB,720.000\nC,2.0\nD,1 234\n")
        try box.write("de.csv", "Titel;title;votes;rating\nx;E;1.700.000;7,5\ny;F;720.000;8\n")
        let run = try box.moviecat("import", "en.csv", "de.csv")
        #expect(run.status == 0, "\(run)")
        #expect(try box.rows("SELECT title, votes FROM movies ORDER BY id") == [["A", "1700000"], ["B", "720000"], ["C", "2"], ["D", "1234"], ["E", "1700000"], ["F", "720000"]])
        try box.write("bad.csv", "title,votes\nG,\"1,5\"\n")
        let bad = try box.moviecat("import", "bad.csv")
        #expect(bad.status == 65 && bad.stderr.contains("bad.csv:2: votes: '1,5' is not a whole number"), "\(bad)")
    }

    @Test("a field's own name wins over an alias, in either order, CSV and JSON (Genre and Genres, Runtime and duration)")
    func ownNameOverAlias() throws {
        let box = try Sandbox()
        try box.write("a.csv", "Title,Genre,Genres,runtime,duration\nA,Drama,Comedy|Horror,90,100\n")
        try box.write("b.jsonl", #"{"title": "B", "genres": ["War"], "genre": "Drama", "duration": 80, "runtime": 70}"# + "\n")
        let run = try box.moviecat("import", "a.csv", "b.jsonl")
        #expect(run.status == 0 && run.errorLines.contains("a.csv: ignored columns: Genre (column 2; column 3 is read), runtime (column 4; column 5 is read)"), "\(run)")
        #expect(try box.rows("SELECT m.title, m.duration_minutes, group_concat(g.code, '|') FROM movies m JOIN movie_genres mg ON mg.movie_id = m.id JOIN genres g ON g.id = mg.genre_id GROUP BY m.id ORDER BY m.id")
                == [["A", "100", "comedy|horror"], ["B", "80", "war"]])
    }

    @Test("rows without their empty last fields (Excel after row 16) read them as empty, and the report counts them; a --where on a missing field sees it empty")
    func shortRows() throws {
        let box = try Sandbox()
        var lines = ["Title,Year,Rating,Notes"] + (1...16).map { "Film \($0),\(1990 + $0),7,note" }
        lines += ["Short One,2010,8", "Short Two,2011", "Trailing Commas,2012,6,,,"]
        try box.write("excel.csv", lines.joined(separator: "\r\n") + "\r\n")
        let run = try box.moviecat("import", "excel.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "excel.csv", read: 19, inserted: 19)], "\(run)")
        #expect(run.errorLines.contains("excel.csv: 2 rows with fewer fields than the header, the missing last ones read as empty"), "\(run)")
        #expect(try box.rows("SELECT title, ifnull(year, ''), ifnull(rating, '') FROM movies WHERE id > 16 ORDER BY id")
                == [["Short One", "2010", "8.0"], ["Short Two", "2011", ""], ["Trailing Commas", "2012", "6.0"]])
        try box.write("kinds.csv", "title,year,kind\nA,2001,movie\nB,2002\n")
        let kept = try box.moviecat("import", "kinds.csv", "--where", "kind=movie")
        #expect(kept.reports == [ReportLine(file: "kinds.csv", read: 2, inserted: 1, filtered: 1)], "\(kept)")
    }

    @Test("TSV fields quoted as spreadsheets and CSV libraries write them are read unquoted; IMDb's quoted titles stay as they are")
    func quotedTSV() throws {
        let box = try Sandbox()
        // Quoted where a writer must (a doubled quote, a comma); a title in quotes alone stays so.
        try box.write("sheet.tsv", "title\tyear\tgenres\n\"The \"\"Great\"\" Escape\"\t1963\t\"Action, Drama\"\n\"Lock, Stock\"\t1998\t\n\"Crocodile\" Dundee II\t1988\t\n\"Quoted\"\t2000\t\n")
        // Every field quoted (R's write.table, QUOTE_ALL): the header says so.
        try box.write("all.tsv", "\"title\"\t\"year\"\n\"Heat\"\t\"1995\"\n")
        try box.write("title.basics.tsv", "tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres\ntt0000001\tmovie\t\"Nancy, Please\"\t\"Nancy, Please\"\t0\t1900\t\\N\t\\N\t\\N\n")
        let run = try box.moviecat("import", "sheet.tsv", "all.tsv", "title.basics.tsv")
        #expect(run.status == 0, "\(run)")
        #expect(try box.rows("SELECT title, ifnull(year, '') FROM movies ORDER BY id") == [
            ["The \"Great\" Escape", "1963"], ["Lock, Stock", "1998"], ["\"Crocodile\" Dundee II", "1988"], ["\"Quoted\"", "2000"],
            ["Heat", "1995"], ["\"Nancy, Please\"", "1900"]])
        #expect(try box.sql("SELECT g.code FROM movie_genres JOIN genres g ON g.id = genre_id WHERE movie_id = 1 ORDER BY g.code") == ["action", "drama"])
    }

    @Test("dates as spreadsheets and sites write them give their year; a rating with a decimal comma reads; PowerShell's #TYPE line is passed over")
    func datesAndOddLines() throws {
        let box = try Sandbox()
        try box.write("dates.csv", "title,year,rating\nA,3/1/2024,\"8,3\"\nB,01.03.2023,7\nC,\"March 1, 2022\",\nD,15 Dec 1995,\nE,2021/03/01,\nF,Sep 2020,\n")
        try box.write("ps.csv", "#TYPE System.Management.Automation.PSCustomObject\n\"Title\",\"Year\"\n\"Heat\",\"1995\"\n")
        let run = try box.moviecat("import", "dates.csv", "ps.csv")
        #expect(run.status == 0, "\(run)")
        #expect(try box.rows("SELECT title, year, ifnull(rating, '') FROM movies ORDER BY id") == [
            ["A", "2024", "8.3"], ["B", "2023", "7.0"], ["C", "2022", ""], ["D", "1995", ""], ["E", "2021", ""], ["F", "2020", ""], ["Heat", "1995", ""]])
        // Two-digit years and months past 12 either way say which century or month nothing.
        try box.write("bad.csv", "title,year\nG,1/15/23\nH,13/13/2020\n")
        let bad = try box.moviecat("import", "bad.csv", "--skip-invalid")
        #expect(bad.reports == [ReportLine(file: "bad.csv", read: 2, rejected: 2)], "\(bad)")
    }

    @Test("a zip archive, a workbook, an XML document or an HTML page is named as such, not read as a list")
    func zip() throws {
        let box = try Sandbox()
        for name in ["letterboxd.zip", "export.csv"] {
            let file = try box.write(name, bytes: [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00])
            let run = try box.moviecat("import", file)
            #expect(run.status == 65 && run.errorLines.last?.hasSuffix("\(name): a zip archive, not a list: unzip it and import the lists inside (Letterboxd's watched.csv or ratings.csv, MovieLens's movies.csv)") == true, "\(run)")
        }
        // A workbook (Excel's, LibreOffice's, Numbers') is a zip too: named by its name or its first entry.
        func zipEntry(_ name: String, _ content: String = "") -> [UInt8] {
            let nameBytes = Array(name.utf8)
            return [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 22) + [UInt8(nameBytes.count), 0, 0, 0] + nameBytes + Array(content.utf8)
        }
        let ole: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0]
        for (name, bytes, kind) in [("list.xlsx", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00], "a spreadsheet workbook"),
                                    ("data", zipEntry("xl/workbook.xml"), "a spreadsheet workbook"),
                                    ("list.zip.csv", zipEntry("mimetype", "application/vnd.oasis.opendocument.spreadsheet"), "a spreadsheet workbook"),
                                    ("old.xls", ole, "a spreadsheet workbook"), ("sheet.csv", zipEntry("[Content_Types].xml"), "an Office document"),
                                    ("notes.doc", ole, "an Office document")] as [(String, [UInt8], String)] {
            let file = try box.write(name, bytes: bytes)
            let run = try box.moviecat("import", file, "--format", "csv")
            #expect(run.status == 65 && run.errorLines.last?.hasSuffix("\(name): \(kind), not a list: save its sheet as CSV (File > Save As, or Download as CSV) and import that") == true, "\(run)")
        }
        let text = try box.write("texts.csv", bytes: zipEntry("mimetype", "application/vnd.oasis.opendocument.text"))
        #expect(try box.moviecat("import", text).errorLines.last?.hasSuffix("a zip archive, not a list: unzip it and import the lists inside (Letterboxd's watched.csv or ratings.csv, MovieLens's movies.csv)") == true)
        // MyAnimeList's export is XML; a list saved from a browser is HTML: named, whatever the extension says.
        for (name, text, kind) in [("animelist.xml", "\u{FEFF}<?xml version=\"1.0\"?>\n<myanimelist></myanimelist>\n", "an XML document"),
                                   ("list.csv", "\n<!DOCTYPE html><html><body>Title</body></html>\n", "an HTML page")] {
            try box.write(name, text)
            let run = try box.moviecat("import", name, "--format", "csv")
            #expect(run.status == 65 && run.errorLines.last == "moviecat: error: \(name): \(kind), not a list: moviecat reads CSV, TSV, JSON and JSON Lines; export the list as one of those", "\(run)")
        }
        let unknown = try box.moviecat("import", "animelist.xml")
        #expect(unknown.status == 65 && unknown.errorLines.last?.hasSuffix("an XML document, not a list: moviecat reads CSV, TSV, JSON and JSON Lines; export the list as one of those") == true, "\(unknown)")
    }

    @Test("a sheet's own lines above its header (a title, notes) are passed over, up to five; with none that names a title column, the first line is named")
    func linesAboveHeader() throws {
        let box = try Sandbox()
        try box.write("sheet.csv", "My movie list (updated Jan 2024),,,\n,,,\nTitle,Year,Genre,Rating\nHeat,1995,Crime,8.3\n")
        let run = try box.moviecat("import", "sheet.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "sheet.csv", read: 1, inserted: 1)], "\(run)")
        #expect(run.errorLines.contains("sheet.csv: the header on line 3, the lines above it passed over"), "\(run)")
        #expect(try box.rows("SELECT title, year, rating FROM movies") == [["Heat", "1995", "8.3"]])
        try box.write("none.csv", "Label,When\nHeat,1995\n")
        let none = try box.moviecat("import", "none.csv")
        #expect(none.status == 65 && none.errorLines.last == "moviecat: error: none.csv:1: no title column (title, primaryTitle, film or movie, or use --map title=COLUMN); the columns are 'Label', 'When'", "\(none)")
        // Notes above the header as wide as it (a date, `Legend: * = seen`) are passed over too.
        for notes in ["My watchlist,,updated 2024-05-01", "Exported by,Bob,2024-01-01", "Legend:,* = seen,+ = owned"] {
            try box.write("notes.csv", notes + "\nTitle,Year,Seen\nThe Thing,1982,*\n")
            let run = try box.moviecat("import", "notes.csv")
            #expect(run.status == 0 && run.errorLines.contains("notes.csv: the header on line 2, the lines above it passed over"), "\(notes): \(run)")
        }
        // A first line of names above a wider header is not passed over, but the error says where the header is.
        try box.write("owner.csv", "My list,Ann\nTitle,Year,Rating\nHeat,1995,8\n")
        let owner = try box.moviecat("import", "owner.csv")
        #expect(owner.status == 65 && owner.errorLines.last?.hasSuffix("the columns are 'My list', 'Ann'; line 2 names one: if the lines above it are notes, delete them") == true, "\(owner)")
        // A data row under a full header is no header, though a cell of it names a title column.
        try box.write("kinds.csv", "movie_title_x,type\nHeat,movie\nAlien,Film\n")
        let kinds = try box.moviecat("import", "kinds.csv")
        #expect(kinds.status == 65 && kinds.errorLines.last?.hasPrefix("moviecat: error: kinds.csv:1: no title column") == true, "\(kinds)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY id") == ["Heat", "The Thing"])
    }

    @Test("a sheet's totals, averages and notes under its list are left out and named; a film called so with a year, or in a known layout, is kept")
    func summaryRows() throws {
        let box = try Sandbox()
        try box.write("sheet.csv", "Title,Year,Rating,Runtime\nHeat,1995,8.3,170\nTotal Recall,1990,7.5,113\nAverage,2011,5.0,90\n,,,\nTOTAL,,,373\nAverage,,8.4,143.5\nCount: 3,,,\n\"Notes: ratings from IMDb, Jan 2024\",,,\n")
        let run = try box.moviecat("import", "sheet.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "sheet.csv", read: 7, inserted: 3, filtered: 4)], "\(run)")
        #expect(run.errorLines.contains("sheet.csv: a sheet's summary or note rows left out (line 6 and 3 more: no year, a title like TOTAL, Average or Notes:)"), "\(run)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY id") == ["Heat", "Total Recall", "Average"])
        // A list without years keeps what is no label; a known layout's rows are never read so.
        try box.write("titles.csv", "title,genre\nSum of All Fears,\nNotes on a Scandal,\nMean Streets,\nTotal,\nMax,\nCount,Horror\n")
        let titles = try box.moviecat("import", "titles.csv")
        #expect(titles.reports == [ReportLine(file: "titles.csv", read: 6, inserted: 5, filtered: 1)], "\(titles)")
        try box.write("ml.csv", "movieId,title,genres\n1,Total,Drama\n")
        #expect(try box.moviecat("import", "ml.csv").reports == [ReportLine(file: "ml.csv", read: 1, inserted: 1)])
        // --layout none reads every row as it is.
        let none = try box.moviecat("import", "sheet.csv", "--layout", "none", "--skip-invalid")
        #expect(none.reports.first.map { $0.read == 7 && $0.filtered == 0 } == true, "\(none)")
        #expect(try box.sql("SELECT count(*) FROM movies WHERE title = 'TOTAL'") == ["1"])
    }

    @Test("MovieLens's '::'-separated .dat says how to read it, and the way it says works")
    func movieLensDat() throws {
        let box = try Sandbox()
        try box.write("movies.dat", "1::Toy Story (1995)::Animation|Children's|Comedy\n2::Jumanji (1995)::Adventure|Children's|Fantasy\n")
        let run = try box.moviecat("import", "movies.dat")
        let hint = "(printf 'movieId\\ttitle\\tgenres\\n'; sed 's/::/\\t/g' 'movies.dat') > movies.tsv"
        #expect(run.status == 64 && run.errorLines.last == "moviecat: error: cannot tell the format of 'movies.dat': its fields are separated by '::', as MovieLens's .dat files are; import MovieLens's movies.csv (ml-latest), or make this one TSV with a header first: " + hint, "\(run)")
        let converted = try ResourceLimitTests.shell(hint + " && moviecat --db catalog.sqlite import movies.tsv", in: box)
        #expect(converted.status == 0, "\(converted)")
        #expect(try box.rows("SELECT title, year FROM movies ORDER BY id") == [["Toy Story", "1995"], ["Jumanji", "1995"]])
    }
}
