import Foundation
import Testing

/// Self-hosted libraries' lists as their APIs and exporters write them (SPEC section 7): Radarr,
/// Jellyfin and Emby, Plex's ids, Trakt's full records; Sonarr's series and Trakt's shows skipped.
@Suite struct MediaLibraryLayoutTests {
    @Test("Radarr's movies: IMDb's rating and votes from ratings.imdb, an announced film's 0s none; Sonarr's series skipped, not films")
    func radarr() throws {
        let box = try Sandbox()
        try box.write("radarr.json", """
            [{"title": "Inception", "originalTitle": "Inception", "year": 2010, "runtime": 148, "imdbId": "tt1375666", "tmdbId": 27205,
              "titleSlug": "27205", "qualityProfileId": 4, "certification": "PG-13", "genres": ["Action", "Science Fiction"],
              "ratings": {"imdb": {"votes": 2612345, "value": 8.8, "type": "user"}, "tmdb": {"votes": 36123, "value": 8.369}},
              "movieFile": {"relativePath": "Inception (2010).mkv", "size": 123}},
             {"title": "Avengers: Secret Wars", "year": 2027, "runtime": 0, "imdbId": "tt21361444", "tmdbId": 533533,
              "titleSlug": "533533", "qualityProfileId": 4, "genres": [], "ratings": {"tmdb": {"votes": 0, "value": 0}}}]
            """)
        try box.write("sonarr.json", """
            [{"title": "Breaking Bad", "year": 2008, "tvdbId": 81189, "tmdbId": 1396, "seriesType": "standard",
              "titleSlug": "breaking-bad", "qualityProfileId": 4, "imdbId": "tt0903747", "runtime": 47}]
            """)
        let run = try box.moviecat("import", "radarr.json", "sonarr.json")
        #expect(run.status == 0 && run.reports.first == ReportLine(file: "radarr.json", read: 2, inserted: 2), "\(run)")
        #expect(run.errorLines.contains("radarr.json: Radarr library layout"), "\(run)")
        #expect(run.errorLines.contains("sonarr.json: Sonarr library layout: series, not movies; skipped (--layout none reads its keys)"), "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Avengers: Secret Wars", "2027", "", "", "", "tt21361444", ""],
            ["Inception", "2010", "8.8", "2612345", "148", "tt1375666", "action|sci-fi"],
        ])
        #expect(try box.sql("SELECT ifnull(certification, '-') FROM movies ORDER BY id") == ["PG-13", "-"])
    }

    @Test("Jellyfin's and Emby's items: ticks as minutes, the premiere's year where no production year, series left out by Type")
    func jellyfin() throws {
        let box = try Sandbox()
        try box.write("items.json", """
            {"Items": [
             {"Name": "Inception", "ServerId": "a1b2", "Id": "090c", "Type": "Movie", "ProductionYear": 2010, "RunTimeTicks": 88803210000,
              "Genres": ["Action", "Science Fiction"], "CommunityRating": 8.4, "OfficialRating": "PG-13",
              "ProviderIds": {"Tmdb": "27205", "Imdb": "tt1375666"}, "UserData": {"Played": true, "PlayCount": 1}},
             {"Name": "Breaking Bad", "ServerId": "a1b2", "Id": "1d2e", "Type": "Series", "ProductionYear": 2008, "RunTimeTicks": 28200000000},
             {"Name": "Heat", "ServerId": "a1b2", "Id": "7f7f", "Type": "Movie", "PremiereDate": "1995-12-15T00:00:00.0000000Z",
              "RunTimeTicks": 102000000000, "Genres": ["Crime"], "ProviderIds": {}}],
             "TotalRecordCount": 3, "StartIndex": 0}
            """)
        let run = try box.moviecat("import", "items.json")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "items.json", read: 3, inserted: 2, filtered: 1)], "\(run)")
        #expect(run.errorLines.contains("items.json: Jellyfin/Emby library layout; where Type=Movie"), "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Heat", "1995", "", "", "170", "", "crime"],
            ["Inception", "2010", "8.4", "", "148", "tt1375666", "action|sci-fi"],
        ])
    }

    @Test("Trakt: a whole export's files at once (shows skipped), extended records' public rating, votes, runtime, genres and certification")
    func traktWhole() throws {
        let box = try Sandbox()
        try box.write("collection-shows.json", #"[{"last_collected_at": "2021-01-10T12:00:00.000Z", "show": {"title": "Breaking Bad", "year": 2008, "ids": {"trakt": 1388, "imdb": "tt0903747"}}, "seasons": []}]"#)
        try box.write("list.json", """
            [{"rank": 1, "type": "movie", "notes": "rewatch", "movie": {"title": "Inception", "year": 2010, "ids": {"trakt": 16662, "imdb": "tt1375666"},
              "runtime": 148, "rating": 8.41, "votes": 91234, "genres": ["science-fiction", "action"], "certification": "PG-13"}},
             {"rank": 2, "type": "show", "show": {"title": "Severance", "year": 2022, "ids": {"trakt": 1}}},
             {"rank": 3, "type": "movie", "rating": 10, "movie": {"title": "Soon", "year": 2027, "ids": {"trakt": 5}, "runtime": 0, "rating": 0, "votes": 0}}]
            """)
        let run = try box.moviecat("import", "collection-shows.json", "list.json")
        #expect(run.status == 0, "\(run)")
        #expect(run.errorLines.contains("collection-shows.json: Trakt export layout: shows, not movies; skipped (--layout none reads its keys)"), "\(run)")
        #expect(run.reports.contains(ReportLine(file: "list.json", read: 3, inserted: 2, filtered: 1)), "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Inception", "2010", "8.41", "91234", "148", "tt1375666", "action|sci-fi"],
            ["Soon", "2027", "", "0", "", "", ""],
        ])
        #expect(try box.sql("SELECT certification FROM movies WHERE title = 'Inception'") == ["PG-13"])
    }

    @Test("Plex's ids: the API's Guid list, the older agents' guid and Tautulli's guids.id give the IMDb id; a plex:// guid alone gives none")
    func plexGuids() throws {
        let box = try Sandbox()
        try box.write("plex.json", """
            {"MediaContainer": {"Metadata": [
             {"ratingKey": "1001", "guid": "plex://movie/5d77", "type": "movie", "title": "Inception", "year": 2010, "duration": 8880000,
              "Guid": [{"id": "tmdb://27205"}, {"id": "imdb://tt1375666"}]},
             {"ratingKey": "1002", "guid": "plex://movie/5d78", "type": "movie", "title": "Heat", "year": 1995},
             {"ratingKey": "1004", "guid": "com.plexapp.agents.imdb://tt0078748?lang=en", "type": "movie", "title": "Alien", "year": 1979}]}}
            """)
        try box.write("tautulli.csv", "ratingKey,guid,guids.id,type,title,year,duration,genres.tag\n"
                      + "1003,plex://movie/5d79,imdb://tt0245429;tmdb://129,movie,Spirited Away,2001,7500000,Animation;Fantasy\n")
        let run = try box.moviecat("import", "plex.json", "tautulli.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.errorLines.contains("tautulli.csv: ignored columns: ratingKey, guid (column 2; column 3 is read)"), "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Alien", "1979", "", "", "", "tt0078748", ""],
            ["Heat", "1995", "", "", "", "", ""],
            ["Inception", "2010", "", "", "148", "tt1375666", ""],
            ["Spirited Away", "2001", "", "", "125", "tt0245429", "animation|fantasy"],
        ])
    }
}
