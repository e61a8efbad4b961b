import Foundation
import Testing

/// Services' JSON as their exports and APIs give it (SPEC section 7): Trakt's exports, TMDB's
/// results; genres as objects or ids; other services' genre names for the catalog's genres.
@Suite struct JSONLayoutTests {
    @Test("Trakt's JSON exports: the movie nested in each record, shows and episodes left out, its own ratings not the movie's")
    func trakt() throws {
        let box = try Sandbox()
        try LayoutTests.fixture(box, "trakt-history.json")
        // A history beginning with an episode: still Trakt's, and the episode left out by its type.
        let history = try box.moviecat("import", "trakt-history.json")
        #expect(history.status == 0, "\(history)")
        #expect(history.reports == [ReportLine(file: "trakt-history.json", read: 3, inserted: 2, filtered: 1)], "\(history)")
        #expect(history.errorLines.contains("trakt-history.json: Trakt export layout; where type=movie"), "\(history)")
        #expect(try box.rows("SELECT title, year, imdb_id FROM movies ORDER BY id") == [["Spirited Away", "2001", "tt0245429"], ["Amélie", "2001", "tt0211915"]])
        // watched-movies.json has no type; ratings-movies.json's rating is the user's own.
        try box.write("watched-movies.json", #"[{"plays": 2, "last_watched_at": "2023-03-04T20:11:00.000Z", "movie": {"title": "Heat", "year": 1995, "ids": {"trakt": 2, "slug": "heat-1995", "imdb": "tt0113277", "tmdb": 949}}}]"#)
        #expect(try box.moviecat("import", "watched-movies.json").reports == [ReportLine(file: "watched-movies.json", read: 1, inserted: 1)])
        try box.write("ratings-movies.json", #"[{"rated_at": "2023-03-05T10:00:00.000Z", "rating": 10, "type": "movie", "movie": {"title": "Spirited Away", "year": 2001, "ids": {"trakt": 612, "slug": "spirited-away-2001", "imdb": "tt0245429", "tmdb": 129}}}]"#)
        let ratings = try box.moviecat("import", "ratings-movies.json")
        #expect(ratings.reports == [ReportLine(file: "ratings-movies.json", read: 1, updated: 1)], "\(ratings)")
        #expect(ratings.errorLines.contains("ratings-movies.json: ignored columns: rated_at, rating, movie.ids.trakt, movie.ids.slug, movie.ids.tmdb"), "\(ratings)")
        #expect(try box.sql("SELECT count(*) FROM movies WHERE rating IS NOT NULL") == ["0"])
        // A list beginning with a person is Trakt's too; the person is left out by its type.
        try box.write("list.json", #"[{"rank": 1, "type": "person", "person": {"name": "Hayao Miyazaki", "ids": {"trakt": 9}}}, {"rank": 2, "type": "movie", "movie": {"title": "Ponyo", "year": 2008, "ids": {"trakt": 7, "imdb": "tt0876563"}}}]"#)
        let list = try box.moviecat("import", "list.json")
        #expect(list.reports == [ReportLine(file: "list.json", read: 2, inserted: 1, filtered: 1)], "\(list)")
        // Any nested key can be named: --map and --where read `a.b` too.
        try box.write("api.json", #"[{"result": {"name": "Past Lives", "released": 2023}, "kind": {"type": "film"}}]"#)
        let api = try box.moviecat("import", "api.json", "--map", "title=result.name", "--map", "year=result.released", "--where", "kind.type=film")
        #expect(api.reports == [ReportLine(file: "api.json", read: 1, inserted: 1)], "\(api)")
        #expect(try box.sql("SELECT year FROM movies WHERE title = 'Past Lives'") == ["2023"])
    }

    @Test("TMDB's results and details: release date as year, vote average as rating (0: none), genre ids and genre objects named")
    func tmdb() throws {
        let box = try Sandbox()
        try box.write("search.json", """
            {"page": 1, "results": [
             {"adult": false, "genre_ids": [27, 878], "id": 1091, "original_title": "The Thing", "release_date": "1982-06-25", "title": "The Thing", "vote_average": 8.1, "vote_count": 7000},
             {"adult": false, "genre_ids": [27, 878, 53, 123456], "id": 60935, "original_title": "The Thing", "release_date": "2011-10-12", "title": "The Thing", "vote_average": 6.2, "vote_count": 2800},
             {"adult": false, "genre_ids": [], "id": 99999, "original_title": "Future", "release_date": "", "title": "Future", "vote_average": 0.0, "vote_count": 0}
            ], "total_pages": 1, "total_results": 3}
            """)
        try box.write("movie.jsonl", #"{"genres": [{"id": 28, "name": "Action"}, {"id": 878, "name": "Science Fiction"}], "id": 603, "imdb_id": "tt0133093", "original_title": "The Matrix", "release_date": "1999-03-30", "runtime": 136, "title": "The Matrix", "vote_average": 8.2, "vote_count": 24000}"# + "\n")
        let run = try box.moviecat("import", "search.json", "movie.jsonl")
        #expect(run.status == 0 && run.reports.count == 3, "\(run)")
        #expect(run.errorLines.contains("search.json: TMDB layout; where media_type=movie"), "\(run)")
        // Two films of one title apart by their years; TMDB's Science Fiction is the catalog's Sci-Fi.
        #expect(try LayoutTests.catalog(box) == [
            ["Future", "", "", "0", "", "", ""],
            ["The Matrix", "1999", "8.2", "24000", "136", "tt0133093", "action|sci-fi"],
            ["The Thing", "1982", "8.1", "7000", "", "", "horror|sci-fi"],
            ["The Thing", "2011", "6.2", "2800", "", "", "horror|sci-fi|thriller"],
        ])
        #expect(try box.sql("SELECT count(*) FROM genres WHERE code = 'science-fiction'") == ["0"])
    }

    @Test("genres as objects with a name are read in any JSON; as numbers outside TMDB, or objects without a name, the record is refused")
    func genreObjects() throws {
        let box = try Sandbox()
        try box.write("objects.jsonl", """
            {"title": "A", "genres": [{"name": "Drama"}, {"Name": "Science-Fiction"}]}
            {"title": "B", "genres": [28]}
            {"title": "C", "genres": [{"id": 28}]}

            """)
        let run = try box.moviecat("import", "objects.jsonl", "--skip-invalid")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "objects.jsonl", read: 3, inserted: 1, rejected: 2)], "\(run)")
        #expect(run.stderr.contains("objects.jsonl:2: genres: expected genre names, found an array holding a number"), "\(run)")
        #expect(run.stderr.contains("objects.jsonl:3: genres: expected genre names, found an array holding an object without a name"), "\(run)")
        #expect(try LayoutTests.catalog(box) == [["A", "", "", "", "", "", "drama|sci-fi"]])
        // A filter finds the genre by the other name too.
        #expect(try box.moviecat("filter", "--genre", "science fiction", "--count").stdout == "1\n")
        // A catalog holding a genre of that slug already (an older moviecat added it) keeps using it, as filters do.
        try box.sqlite3("INSERT INTO genres (code, name) VALUES ('science-fiction', 'Science Fiction');")
        try box.write("more.jsonl", #"{"title": "B", "genres": ["Science Fiction"]}"# + "\n")
        #expect(try box.moviecat("import", "more.jsonl").status == 0)
        #expect(try box.sql("SELECT g.code FROM movie_genres JOIN genres g ON g.id = genre_id JOIN movies m ON m.id = movie_id WHERE m.title = 'B'") == ["science-fiction"])
        #expect(try box.moviecat("filter", "--genre", "science fiction", "--count").stdout == "1\n")
    }

    @Test("Kodi's and Plex's libraries as their APIs answer (records two objects deep): durations in seconds and milliseconds as minutes, Kodi's 'Rated' dropped, Plex's genre tags")
    func mediaServers() throws {
        let box = try Sandbox()
        try box.write("kodi.json", """
            {"id": 1, "jsonrpc": "2.0", "result": {"limits": {"end": 2, "start": 0, "total": 2}, "movies": [
             {"movieid": 1, "label": "Inception", "title": "Inception", "year": 2010, "rating": 8.1, "votes": "2001234", "runtime": 8880,
              "genre": ["Action", "Science Fiction"], "imdbnumber": "tt1375666", "mpaa": "Rated PG-13"},
             {"movieid": 2, "label": "Heat", "title": "Heat", "year": 1995, "rating": 8.3, "votes": "654321", "runtime": 10200,
              "genre": ["Crime"], "imdbnumber": "tt0113277", "mpaa": "Rated R"}]}}
            """)
        try box.write("plex.json", """
            {"MediaContainer": {"size": 2, "Metadata": [
             {"ratingKey": "101", "guid": "plex://movie/1", "type": "movie", "title": "Alien", "contentRating": "R", "year": 1979,
              "duration": 7020000, "Genre": [{"tag": "Horror"}, {"tag": "Science Fiction"}]},
             {"ratingKey": "102", "guid": "plex://show/2", "type": "show", "title": "Severance", "year": 2022}]}}
            """)
        let run = try box.moviecat("import", "kodi.json", "plex.json")
        #expect(run.status == 0, "\(run)")
        #expect(run.errorLines.contains("kodi.json: Kodi library layout") && run.errorLines.contains("plex.json: Plex library layout; where type=movie"), "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Alien", "1979", "", "", "117", "", "horror|sci-fi"],
            ["Heat", "1995", "8.3", "654321", "170", "tt0113277", "crime"],
            ["Inception", "2010", "8.1", "2001234", "148", "tt1375666", "action|sci-fi"],
        ])
        #expect(try box.sql("SELECT certification FROM movies ORDER BY title") == ["R", "R", "PG-13"])
    }

    @Test("Kodi's unknowns (0) are none, its imdbnumber a TMDB id since Kodi 19 (uniqueid.imdb read instead), a runtime near Int64's largest no crash")
    func kodiQuirks() throws {
        let box = try Sandbox()
        try box.write("kodi.json", """
            {"result": {"movies": [
             {"movieid": 1, "label": "A", "title": "A", "year": 0, "rating": 0.0, "runtime": 0, "imdbnumber": "105", "uniqueid": {"imdb": "tt0088763", "tmdb": "105"}},
             {"movieid": 2, "label": "B", "title": "B", "year": 2001, "runtime": 9223372036854775807, "imdbnumber": "603"},
             {"movieid": 3, "label": "C", "title": "C", "year": 2002, "runtime": "5400", "imdbnumber": "tt0000003"}]}}
            """)
        let run = try box.moviecat("import", "kodi.json")
        #expect(run.status == 0, "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["A", "", "", "", "", "tt0088763", ""], ["B", "2001", "", "", "153722867280912930", "", ""], ["C", "2002", "", "", "90", "tt0000003", ""],
        ])
    }

    @Test("one JSON object with a title is one record (an API's details saved as .json), its arrays of objects not taken for films; JSON number votes are numbers")
    func singleObject() throws {
        let box = try Sandbox()
        try box.write("details.json", """
            {"id": 603, "genres": [{"id": 28, "name": "Action"}], "production_companies": [{"title": "Not a film", "id": 1}],
             "title": "The Matrix", "original_title": "The Matrix", "release_date": "1999-03-30", "vote_average": 8.2, "vote_count": 2.000}
            """)
        let run = try box.moviecat("import", "details.json")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "details.json", read: 1, inserted: 1)], "\(run)")
        #expect(try LayoutTests.catalog(box) == [["The Matrix", "1999", "8.2", "2", "", "", "action"]])
        // Two objects in a .json are JSON Lines, or a mistake: nothing is imported.
        try box.write("two.json", #"{"title": "X", "year": 2000} {"title": "Y"}"#)
        let two = try box.moviecat("import", "two.json")
        #expect(two.status == 65 && two.errorLines.last == "moviecat: error: two.json:1: trailing data after the object", "\(two)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["1"])
    }
}
