import Foundation
import Testing

/// Exports of trackers and services that mix films with shows, episodes, trailers, games and
/// books, and hold their owner's own ratings: each imported unedited keeps the films, with the
/// public values only (headers and values as the services write them; SPEC section 7).
@Suite struct TrackerExportTests {
    @Test("a list of no layout with a type column leaves out shows, episodes, games and books; other kinds and empty ones stay")
    func kindColumn() throws {
        let box = try Sandbox()
        let favorites = """
            title,year,type,tmdb_id,imdb_id
            Alita: Battle Angel,2019,movie,399579,tt0437086
            Star Trek: Deep Space Nine,1993,show,580,tt0106145
            Heat,1995,DVD,949,tt0113277
            Alien,1979,,348,tt0078748
            Friends S1E1,1994,TV Episode,1668,tt0583459

            """
        try box.write("favorites.csv", favorites)
        let run = try box.moviecat("import", "favorites.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "favorites.csv", read: 5, inserted: 3, filtered: 2)], "\(run)")
        #expect(run.errorLines.contains("favorites.csv: 2 rows left out by their type: shows, episodes, games or books (--where type=* keeps them)"), "\(run)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY title") == ["Alien", "Alita: Battle Angel", "Heat"])
        // JSON too, by a `media_type` key first met in a later record; a null or listed kind stays.
        try box.write("mixed.jsonl", """
            {"title": "Akira", "year": 1988}
            {"title": "Perfect Blue", "year": 1997, "media_type": "movie"}
            {"title": "Berserk", "year": 1989, "media_type": "manga"}
            {"title": "Paprika", "year": 2006, "media_type": null}
            {"title": "Tokyo Godfathers", "year": 2003, "media_type": ["movie"]}
            {"title": "Cowboy Bebop", "year": 1998, "media_type": "tv"}

            """)
        let json = try box.moviecat("import", "mixed.jsonl")
        #expect(json.reports == [ReportLine(file: "mixed.jsonl", read: 6, inserted: 4, filtered: 2)], "\(json)")
        #expect(json.errorLines.contains("mixed.jsonl: 2 rows left out by their media_type: shows, episodes, games or books (--where media_type=* keeps them)"), "\(json)")
        // A plain Type of TV may be where a film was watched; nothing left out, nothing said.
        try box.write("seen.csv", "Title,Year,Type\nThe Thing,1982,Cinema\nThem!,1954,TV\nUp,2009,DVD\n")
        let seen = try box.moviecat("import", "seen.csv")
        #expect(seen.reports == [ReportLine(file: "seen.csv", read: 3, inserted: 3)] && !seen.stderr.contains("left out"), "\(seen)")
        // A column name with a space is quoted for the shell; a kind with spaces around is one.
        try box.write("types.csv", "Title,Year,Title Type\nLost,2004, TV Series \nHeat,1995,Movie\n")
        let types = try box.moviecat("import", "types.csv")
        #expect(types.errorLines.contains("types.csv: 1 row left out by its Title Type: shows, episodes, games or books (--where 'Title Type=*' keeps them)"), "\(types)")
        // --where type=* keeps every row; --layout none reads the cells as they are.
        for arguments in [["--where", "type=*"], ["--layout", "none"]] {
            let all = try Sandbox()
            try all.write("favorites.csv", favorites)
            let kept = try all.moviecat(["import", "favorites.csv"] + arguments)
            #expect(kept.reports == [ReportLine(file: "favorites.csv", read: 5, inserted: 5)], "\(arguments) \(kept)")
        }
    }

    @Test("services' exports: TMDB's account, movielens.org's ratings, Yamtrack, TV Time, Watcharr and Prime Video keep their films, not their owner's ratings")
    func serviceExports() throws {
        let box = try Sandbox()
        try box.write("tmdb.csv", """
            TMDb ID,IMDb ID,Type,Name,Release Date,Season Number,Episode Number,Rating,Your Rating,Date Rated
            85987,tt0583459,tv,Friends S1E1,1994-09-22T00:00:00Z,1,1,6.976,8,2023-01-07T16:35:52Z
            396535,tt5700672,movie,부산행,2016-07-20T00:00:00Z,,,7.757,7,2023-05-02T09:29:50Z
            1396,tt0903747,tv,Breaking Bad,2008-01-20T00:00:00Z,,,8.886,,2023-05-02T13:22:44Z
            999999,,movie,Unreleased Thing,,,,0.0,,2023-05-02T13:22:44Z

            """)
        try box.write("movielens-ratings.csv", """
            movie_id,imdb_id,tmdb_id,rating,average_rating,title
            2959,0137523,550,5.0,4.22,Fight Club (1999)
            4973,0211915,194,2.5,4.09,"Amelie (Fabuleux destin d'Amélie Poulain, Le) (2001)"

            """)
        try box.write("yamtrack.csv", """
            "media_id","source","media_type","title","image","season_number","episode_number","score","progress","status","start_date","end_date","notes","progress_changed"
            "1668","tmdb","tv","Friends","","","","","24","In progress","2024-02-09","2024-02-09","","2024-02-09T12:00:00Z"
            "10494","tmdb","movie","Perfect Blue","","","","9.0","1","Completed","","2024-02-09","","2024-02-09T15:30:00Z"
            "22","mal","manga","Berserk","","","","","","In progress","","","",""

            """)
        try box.write("tracking-prod-records.csv", """
            type-uuid-n,watch_count,watches,user_id,entity_type,movie_name,uuid,rewatch_count,follow_date_range_key,release_date,created_at,alpha_range_key,updated_at,release_date_range_key,type,total_movies_runtime,runtime,watch_date_range_key,country
            follow-0a1b-0,,,109813159,movie,Encanto,0a1b,,follow-date-1678,2021-11-24 00:00:00,2023-03-01 10:00:00,,2023-03-01 10:00:00,,follow,,6180,,IT
            watch-0a1b-0,,,109813159,movie,Encanto,0a1b,,,2021-11-24 00:00:00,2023-05-10 09:25:35,watch-alpha-encanto,2023-05-10 09:25:35,watch-release-date-x,watch,,6180,watch-date-1683710735,IT
            towatch-77ff,,,109813159,movie,Fury,77ff,,,2014-10-22 00:00:00,2023-03-17 14:10:43,,2023-03-17 14:10:43,,towatch,,8100,,IT

            """)
        try box.write("watcharr.json", """
            [{"id": 1, "status": "FINISHED", "rating": 10, "content": {"id": 5, "tmdbId": 515001, "title": "Jojo Rabbit", "type": "movie",
              "release_date": "2019-10-18T00:00:00Z", "vote_average": 8, "vote_count": 9948, "imdb_id": "tt2584384", "runtime": 108}},
             {"id": 11, "status": "FINISHED", "rating": 10, "content": {"id": 11, "tmdbId": 97546, "title": "Ted Lasso", "type": "tv",
              "release_date": "2020-08-14T00:00:00Z", "vote_average": 8.4, "vote_count": 2034, "imdb_id": "", "runtime": 0},
              "watchedEpisodes": [{"id": 1, "seasonNumber": 1, "episodeNumber": 1, "rating": 0}]}]
            """)
        try box.write("prime.csv", """
            "Date Watched","Type","Title","Episode Title","Global Title Identifier","Episode Global Title Identifier","Path","Episode Path","Image URL"
            "1736456347817","Series","Beast Games - Season 1","Episode 5: Fight to Win a Private Island","amzn1.dv.gti.1","amzn1.dv.gti.2","/p","/e","https://i"
            "1662745840083","Movie","A Quiet Place Part II","","amzn1.dv.gti.3","","/p","","https://i"

            """)
        let files = ["tmdb.csv", "movielens-ratings.csv", "yamtrack.csv", "tracking-prod-records.csv", "watcharr.json", "prime.csv"]
        let run = try box.moviecat(["import"] + files)
        #expect(run.status == 0, "\(run)")
        for line in ["tmdb.csv: TMDB account export layout; where Type=movie", "movielens-ratings.csv: MovieLens ratings export layout",
                     "yamtrack.csv: Yamtrack export layout; where media_type=movie", "tracking-prod-records.csv: TV Time data export layout; where entity_type=movie",
                     "watcharr.json: Watcharr export layout; where content.type=movie", "prime.csv: Prime Video watch history layout; where Type=Movie"] {
            #expect(run.errorLines.contains(line), "\(run)")
        }
        #expect(run.reports.contains(ReportLine(file: "tracking-prod-records.csv", read: 3, inserted: 2, repeated: 1)), "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["A Quiet Place Part II", "", "", "", "", "", ""],
            ["Amelie (Le Fabuleux destin d'Amélie Poulain)", "2001", "", "", "", "tt0211915", ""],
            ["Encanto", "2021", "", "", "103", "", ""], ["Fight Club", "1999", "", "", "", "tt0137523", ""],
            ["Fury", "2014", "", "", "135", "", ""], ["Jojo Rabbit", "2019", "8.0", "9948", "108", "tt2584384", ""],
            ["Perfect Blue", "", "", "", "", "", ""], ["Unreleased Thing", "", "", "", "", "", ""],
            ["부산행", "2016", "7.757", "", "", "tt5700672", ""],
        ])
    }

    @Test("Netflix's viewing activity: films once, trailers, previews and episodes left out, the watched duration not read")
    func netflixActivity() throws {
        let box = try Sandbox()
        try box.write("ViewingActivity.csv", """
            Profile Name,Start Time,Duration,Attributes,Title,Supplemental Video Type,Device Type,Bookmark,Latest Bookmark,Country
            User1,7/28/2022 4:22,0:00:25,Autoplayed: user action: None; ,Season 1 Trailer: Heartstopper,TRAILER,Worlds Best TV,0:00:25,0:00:25,US (United States)
            User1,7/28/2022 4:20,0:00:13,Autoplayed: user action: None; ,Stranger Things 4,HOOK,Worlds Best TV,0:00:13,0:00:13,US (United States)
            User1,7/27/2022 21:02,0:49:10,,The Da Vinci Code,,Worlds Best TV,0:49:10,0:49:10,US (United States)
            User1,7/26/2022 20:00,1:39:00,,The Da Vinci Code,,Worlds Best TV,2:28:00,2:28:00,US (United States)
            User1,7/25/2022 20:00,0:58:00,,The Queen's Gambit: Limited Series: End Game (Episode 7),,Worlds Best TV,0:58:00,0:58:00,US (United States)

            """)
        let run = try box.moviecat("import", "ViewingActivity.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "ViewingActivity.csv", read: 5, inserted: 1, repeated: 1, filtered: 3)], "\(run)")
        #expect(run.errorLines.contains("ViewingActivity.csv: Netflix viewing activity layout (trailers, previews and series' episodes left out); where Supplemental Video Type=(empty)"), "\(run)")
        #expect(try LayoutTests.catalog(box) == [["The Da Vinci Code", "", "", "", "", "", ""]])
        // The request's other files are said and skipped: the whole folder imports in one command.
        try box.write("Ratings.csv", "Profile Name,Title Name,Rating Type,Star Value,Thumbs Value,Device Model,Event Utc Ts,Region View Date\nUser1,Slow Horses,Thumbs,0,2,Web,2026-09-14T12:00:00Z,9/14/26\n")
        try box.write("SearchHistory.csv", "Profile Name,Query Typed,Utc Timestamp\nUser1,heat,2026-01-01\n")
        let folder = try box.moviecat("import", "Ratings.csv", "SearchHistory.csv", "ViewingActivity.csv")
        #expect(folder.status == 0 && folder.errorLines.filter { $0.contains("Netflix data request layout: shows and films alike") }.count == 2, "\(folder)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["1"])
    }

    @Test("files in Letterboxd's import format without an IMDb id (FilmAffinity's and MUBI's converters) are known by Rating10 or WatchedDate; their Rating is the owner's")
    func letterboxdImportFormat() throws {
        let box = try Sandbox()
        try box.write("filmaffinity.csv", "Title,Year,Directors,WatchedDate,Rating,Rating10\nEl rey león,1994,Roger Allers,2020-01-02,3.5,7\n")
        try box.write("mubi.csv", "Title,Year,Directors,Rating,WatchedDate\nPapicha,2019,Mounia Meddour,4.5,2021-05-06\n")
        let run = try box.moviecat("import", "filmaffinity.csv", "mubi.csv")
        #expect(run.errorLines.filter { $0.hasSuffix(": Letterboxd import format layout") }.count == 2, "\(run)")
        #expect(try LayoutTests.catalog(box) == [["El rey león", "1994", "", "", "", "", ""], ["Papicha", "2019", "", "", "", "", ""]])
        // A sheet of one's own with a WatchedDate beside public values is no such file; nor a
        // diary with a Content and a Comment, Letterboxd's comments file.
        try box.write("mine.csv", "Title,Year,Rating,Genre,Runtime,WatchedDate\nHeat,1995,8.3,Crime,170,2024-01-02\n")
        try box.write("diary.csv", "Date,Movie,Year,Content,Comment\n2024-01-01,Alien,1979,blu-ray,great\n")
        let mine = try box.moviecat("import", "mine.csv", "diary.csv")
        #expect(mine.status == 0 && !mine.stderr.contains("layout"), "\(mine)")
        #expect(try box.rows("SELECT title, ifnull(rating, ''), ifnull(duration_minutes, '') FROM movies WHERE title IN ('Heat', 'Alien') ORDER BY title") == [
            ["Alien", "", ""], ["Heat", "8.3", "170"],
        ])
    }

    @Test("IMDb's exports in other languages keep their films (Film); an input all of whose rows are left out says so")
    func localizedIMDb() throws {
        let box = try Sandbox()
        try box.write("it.csv", """
            Position,Const,Created,Modified,Description,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors,Your Rating,Date Rated
            1,tt0120611,2020-01-26,2020-01-26,,"Blade","Blade",https://www.imdb.com/title/tt0120611/,Film,7.1,120,1998,"Action, Horror, Sci-Fi",303301,1998-08-21,"Stephen Norrington",10,2024-04-01
            2,tt0903747,2020-01-27,2020-01-27,,Breaking Bad,Breaking Bad,https://www.imdb.com/title/tt0903747/,Serie TV,9.5,49,2008,"Crime, Drama, Thriller",2100000,2008-01-20,,,

            """)
        try box.write("shows.csv", "Const,Title,Title Type\ntt0903747,Breaking Bad,Serie TV\n")
        let run = try box.moviecat("import", "it.csv", "shows.csv")
        #expect(run.reports == [ReportLine(file: "it.csv", read: 2, inserted: 1, filtered: 1), ReportLine(file: "shows.csv", read: 1, filtered: 1), ReportLine(file: "total", read: 3, inserted: 1, filtered: 2)], "\(run)")
        #expect(run.errorLines.contains { $0.hasPrefix("shows.csv: IMDb list export layout; where Title Type=") && $0.hasSuffix("; every row left out by these conditions (--where COLUMN=* keeps a column's every row)") }, "\(run)")
        #expect(!run.errorLines.contains { $0.hasPrefix("it.csv") && $0.contains("every row") }, "\(run)")
        // Rows left out as episodes, or as a sheet's totals, are no condition's: nothing to lift.
        try box.write("ViewingHistory.csv", "Title,Date\n\"Breaking Bad: Season 1: Pilot\",1/15/23\n")
        try box.write("totals.csv", "Title,Year\nTotal,\n")
        let episodes = try box.moviecat("import", "ViewingHistory.csv", "totals.csv")
        #expect(episodes.status == 0 && !episodes.stderr.contains("every row"), "\(episodes)")
        #expect(try LayoutTests.catalog(box) == [["Blade", "1998", "7.1", "303301", "120", "tt0120611", "action|horror|sci-fi"]])
    }

    @Test("a whole Letterboxd export imports in one command: its profile and comments are said and skipped")
    func letterboxdWholeExport() throws {
        let box = try Sandbox()
        try box.write("profile.csv", "Date Joined,Username,Given Name,Family Name,Email Address,Location,Website,Bio,Pronoun,Favorite Films\n2020-03-13,filmfan,Alex,,,Barcelona,,,She / her,\"https://boxd.it/251c\"\n")
        try box.write("comments.csv", "Date,Content,Comment\n2025-02-10,https://boxd.it/63bVcl,\"Nice \"\"list\"\"\"\n")
        try box.write("watched.csv", "Date,Name,Year,Letterboxd URI\n2021-01-01,Heat,1995,https://boxd.it/1\n")
        let run = try box.moviecat("import", "comments.csv", "profile.csv", "watched.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.errorLines.contains("comments.csv: Letterboxd comments layout: comments, not movies; skipped (--layout none reads its columns)"), "\(run)")
        #expect(run.errorLines.contains("profile.csv: Letterboxd profile layout: the account's profile, not movies; skipped (--layout none reads its columns)"), "\(run)")
        #expect(try box.sql("SELECT title FROM movies") == ["Heat"])
    }
}
