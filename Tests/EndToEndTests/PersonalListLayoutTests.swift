import Foundation
import Testing

/// Lists whose own rating is their owner's (Letterboxd's import format, Simkl, Criticker) and
/// OMDb's records: each recognised, its public values read, the owner's rating left alone, so a
/// rating in the catalog stays the public one.
@Suite struct PersonalListLayoutTests {
    @Test("Letterboxd's import format, Simkl and Criticker: title, year and IMDb id read; the owner's stars and scores not; Simkl's shows left out")
    func personalRatings() throws {
        let box = try Sandbox()
        try box.write("letterboxd-import.csv", """
            Title,Year,imdbID,tmdbID,Directors,WatchedDate,Rating,Rating10,Rewatch,Tags,Review
            Inception,2010,tt1375666,27205,Christopher Nolan,2021-02-03,4.5,9,false,,

            """)
        try box.write("simkl.csv", """
            SIMKL_ID,Title,Type,Year,Watchlist,LastEpWatched,WatchedDate,Rating,Memo,TVDB,TMDB,IMDB_ID
            53536,Heat,movie,1995,completed,,2021-02-03 20:11:00,9,,,949,tt0113277
            17465,Breaking Bad,tv,2008,completed,s5e16,2020-01-01 00:00:00,10,,81189,1396,tt0903747

            """)
        try box.write("criticker.csv", """
             Score,Film Name,Year,Date Rated,Mini Review,URL,IMDB ID
            85,Alien,1979,2021-03-04,"Great",https://www.criticker.com/film/Alien/,tt0078748

            """)
        let run = try box.moviecat("import", "letterboxd-import.csv", "simkl.csv", "criticker.csv")
        #expect(run.status == 0, "\(run)")
        for line in ["letterboxd-import.csv: Letterboxd import format layout", "simkl.csv: Simkl export layout; where Type=movie",
                     "criticker.csv: Criticker export layout"] {
            #expect(run.errorLines.contains(line), "\(run)")
        }
        #expect(run.reports.contains(ReportLine(file: "simkl.csv", read: 2, inserted: 1, filtered: 1)), "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Alien", "1979", "", "", "", "tt0078748", ""], ["Heat", "1995", "", "", "", "tt0113277", ""], ["Inception", "2010", "", "", "", "tt1375666", ""],
        ])
    }

    @Test("OMDb's records: IMDb rating and votes (grouped), rating, runtime and genres read; N/A is none; series left out")
    func omdb() throws {
        let box = try Sandbox()
        try box.write("omdb.jsonl", """
            {"Title":"Heat","Year":"1995","Rated":"R","Released":"15 Dec 1995","Runtime":"170 min","Genre":"Action, Crime, Drama","imdbRating":"8.3","imdbVotes":"720,123","imdbID":"tt0113277","Type":"movie","Response":"True"}
            {"Title":"Breaking Bad","Year":"2008–2013","Rated":"TV-MA","Runtime":"49 min","Genre":"Crime, Drama","imdbRating":"9.5","imdbVotes":"2,100,000","imdbID":"tt0903747","Type":"series","Response":"True"}
            {"Title":"Obscure","Year":"2001","Rated":"N/A","Runtime":"N/A","Genre":"N/A","imdbRating":"N/A","imdbVotes":"N/A","imdbID":"tt0999999","Type":"movie","Response":"True"}

            """)
        let run = try box.moviecat("import", "omdb.jsonl")
        #expect(run.status == 0 && run.errorLines.contains("omdb.jsonl: OMDb layout; where Type=movie"), "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Heat", "1995", "8.3", "720123", "170", "tt0113277", "action|crime|drama"], ["Obscure", "2001", "", "", "", "tt0999999", ""],
        ])
        #expect(try box.sql("SELECT certification FROM movies WHERE title = 'Heat'") == ["R"])
    }

    @Test("Netflix's viewing history: films kept once, series' episodes left out as filtered, a film with one colon kept")
    func netflix() throws {
        let box = try Sandbox()
        try box.write("ViewingHistory.csv", "\u{FEFF}Title,Date\r\n" + [
            "\"Breaking Bad: Season 1: Pilot\",1/15/23", "\"The Irishman\",2/3/23",
            "\"Stranger Things: Stranger Things 4: Chapter One: The Hellfire Club\",5/27/22",
            "\"The Queen's Gambit: Limited Series: Openings\",1/2/21", "\"Dune: Part Two\",6/1/24",
            "\"Glass Onion: A Knives Out Mystery\",12/23/22", "\"Glass Onion: A Knives Out Mystery\",12/24/22",
        ].joined(separator: "\r\n") + "\r\n")
        let run = try box.moviecat("import", "ViewingHistory.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "ViewingHistory.csv", read: 7, inserted: 3, repeated: 1, filtered: 3)], "\(run)")
        #expect(run.errorLines.contains("ViewingHistory.csv: Netflix viewing history layout (series' episodes left out)"), "\(run)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY title") == ["Dune: Part Two", "Glass Onion: A Knives Out Mystery", "The Irishman"])
    }
}
