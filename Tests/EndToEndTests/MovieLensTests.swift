import Foundation
import Testing

/// MovieLens's files as its downloads and movielens.org hand them out: movies.csv's titles, and
/// links.csv giving its films their IMDb ids when imported with it.
@Suite struct MovieLensTests {
    @Test("MovieLens movies.csv: the year leaves the title, articles move to the front, no genres means none")
    func movielens() throws {
        let box = try Sandbox()
        try LayoutTests.fixture(box, "movies.csv")
        let run = try box.moviecat("import", "movies.csv")
        #expect(run.reports == [ReportLine(file: "movies.csv", read: 8, inserted: 8)], "\(run)")
        #expect(run.errorLines.contains("movies.csv: MovieLens movies.csv layout"), "\(run)")
        #expect(try box.rows("SELECT title, ifnull(year, ''), (SELECT count(*) FROM movie_genres WHERE movie_id = m.id) FROM movies m ORDER BY id") == [
            ["Toy Story", "1995", "5"], ["The American President", "1995", "3"],
            ["The City of Lost Children (La Cité des enfants perdus)", "1995", "5"],
            ["Seven (a.k.a. Se7en)", "1995", "2"], ["A Man Who Knew Too Much", "1934", "2"], ["An Apartment", "1960", "1"],
            ["Black Mirror", "", "0"], ["A Christmas Story Live!", "2017", "0"],
        ])
        #expect(try box.sql("SELECT count(*) FROM genres WHERE name LIKE '%no genres%'") == ["0"])
    }

    @Test("MovieLens titles with a foreign article are the films another list names")
    func movielensForeignArticles() throws {
        let box = try Sandbox()
        try box.write("watched.csv", "Name,Year,Letterboxd URI\nLa Haine,1995,https://boxd.it/1\nLes Misérables,1995,https://boxd.it/2\n")
        try box.write("movies.csv", "movieId,title,genres\n1,\"Haine, La (1995)\",Crime|Drama\n2,\"Misérables, Les (1995)\",Drama|War\n")
        #expect(try box.moviecat("import", "watched.csv").status == 0)
        let run = try box.moviecat("import", "movies.csv")
        #expect(run.reports == [ReportLine(file: "movies.csv", read: 2, updated: 2)], "\(run)")
        #expect(try box.rows("SELECT title, year, (SELECT count(*) FROM movie_genres WHERE movie_id = m.id) FROM movies m ORDER BY id") == [
            ["La Haine", "1995", "2"], ["Les Misérables", "1995", "2"],
        ])
    }

    @Test("links.csv imported with movies.csv, in either order, gives each film its IMDb id; IMDb's ratings then update them")
    func links() throws {
        let movies = "movieId,title,genres\n1,Toy Story (1995),Adventure|Animation\n2,Jumanji (1995),Adventure\n3,\"Haine, La (1995)\",Drama\n"
        let links = "movieId,imdbId,tmdbId\n1,0114709,862\n2,0113497,8844\n"
        for order in [["movies.csv", "links.csv"], ["links.csv", "movies.csv"]] {
            let box = try Sandbox()
            try box.write("movies.csv", movies)
            try box.write("links.csv", links)
            let run = try box.moviecat(["import"] + order)
            #expect(run.status == 0 && run.reports.contains(ReportLine(file: "movies.csv", read: 3, inserted: 3)), "\(order) \(run)")
            #expect(run.errorLines.contains("links.csv: MovieLens links.csv layout: 2 IMDb ids, read first for the films of the MovieLens movies.csv imported with it"), "\(run)")
            #expect(run.errorLines.contains("movies.csv: MovieLens movies.csv layout (IMDb ids from links.csv)"), "\(run)")
            #expect(try box.rows("SELECT title, ifnull(imdb_id, '') FROM movies ORDER BY title") == [
                ["Jumanji", "tt0113497"], ["La Haine", ""], ["Toy Story", "tt0114709"],
            ])
            // Identity by IMDb id: IMDb's ratings reach them.
            try box.write("title.ratings.tsv", "tconst\taverageRating\tnumVotes\ntt0114709\t8.3\t1100000\n")
            #expect(try box.moviecat("import", "title.ratings.tsv").status == 0)
            #expect(try box.sql("SELECT rating FROM movies WHERE title = 'Toy Story'") == ["8.3"])
        }
        // A whole MovieLens folder in one command: its users' ratings and tags are said and skipped.
        let folder = try Sandbox()
        try folder.write("movies.csv", movies)
        try folder.write("links.csv", links)
        try folder.write("ratings.csv", "userId,movieId,rating,timestamp\n1,1,4.0,964982703\n")
        try folder.write("tags.csv", "userId,movieId,tag,timestamp\n2,1,pixar,1445714994\n")
        try folder.write("genome-tags.csv", "tagId,tag\n1,007\n")
        let all = try folder.moviecat("import", "genome-tags.csv", "links.csv", "movies.csv", "ratings.csv", "tags.csv")
        #expect(all.status == 0 && all.reports.contains(ReportLine(file: "movies.csv", read: 3, inserted: 3)), "\(all)")
        for line in ["ratings.csv: MovieLens ratings.csv layout: its users' ratings, not movies; skipped (--layout none reads its columns)",
                     "tags.csv: MovieLens tags.csv layout: its users' tags, not movies; skipped (--layout none reads its columns)",
                     "genome-tags.csv: MovieLens genome-tags.csv layout: the tag genome's tags, not movies; skipped (--layout none reads its columns)"] {
            #expect(all.errorLines.contains(line), "\(all)")
        }
        #expect(try folder.sql("SELECT count(*) FROM movies WHERE imdb_id IS NOT NULL") == ["2"])
        // Alone, links.csv says how to import it, and imports nothing.
        let alone = try Sandbox()
        try alone.write("links.csv", links)
        let run = try alone.moviecat("import", "links.csv")
        #expect(run.status == 0 && run.errorLines.contains("links.csv: MovieLens links.csv layout: 2 IMDb ids, read first for the films of the MovieLens movies.csv imported with it (none was: import them together)"), "\(run)")
        #expect(try alone.sql("SELECT count(*) FROM movies") == ["0"])
    }

    @Test("links.csv: a row cut short links nothing, an IMDb id that is none names its line (or is left out with --skip-invalid), TSV too; a movies file with ids of its own keeps them")
    func linksEdges() throws {
        let movies = "movieId,title,genres\n1,Toy Story (1995),Adventure\n2,Jumanji (1995),Adventure\n4,Heat (1995),Action\n"
        let box = try Sandbox()
        try box.write("movies.csv", movies)
        // Cut short: `4` alone links Heat to nothing (earlier builds read another row's id, or crashed).
        try box.write("links.csv", "movieId,imdbId,tmdbId\n123456789012345\n1,0114709,862\n2,0113497,8844\n4\n")
        let cut = try box.moviecat("import", "movies.csv", "links.csv")
        #expect(cut.status == 0 && cut.errorLines.contains { $0.hasPrefix("links.csv: MovieLens links.csv layout: 2 IMDb ids,") }, "\(cut)")
        #expect(try box.rows("SELECT title, ifnull(imdb_id, '') FROM movies ORDER BY title") == [["Heat", ""], ["Jumanji", "tt0113497"], ["Toy Story", "tt0114709"]])
        // An IMDb id that is none: an invalid row as any, named with links.csv's line; nothing is imported.
        let bad = try Sandbox()
        try bad.write("movies.csv", movies)
        try bad.write("links.tsv", "movieId\timdbId\ttmdbId\n1\t0114709\t862\n4\ttt12x\t949\n")
        let refused = try bad.moviecat("import", "movies.csv", "links.tsv")
        #expect(refused.status == 65 && refused.errorLines.contains("links.tsv:3: imdbId: 'tt12x' is not an IMDb id (tt0111161, its digits, or an imdb.com/title/ URL)"), "\(refused)")
        #expect(refused.errorLines.last == "moviecat: error: 1 invalid row (1 problem); nothing was imported. Fix them, or import the valid rows with --skip-invalid", "\(refused)")
        #expect(try bad.sql("SELECT count(*) FROM movies") == ["0"])
        // With --skip-invalid the row is rejected as any invalid row: counted, named, and written to --rejects.
        let skipped = try bad.moviecat("import", "movies.csv", "links.tsv", "--skip-invalid", "--rejects", "rejects.csv")
        #expect(skipped.status == 0 && skipped.errorLines.contains("links.tsv: MovieLens links.csv layout: 1 IMDb id, read first for the films of the MovieLens movies.csv imported with it"), "\(skipped)")
        #expect(skipped.errorLines.contains { $0.hasPrefix("links.tsv: 2 rows read, 0 inserted, 0 updated, 0 skipped, 1 rejected in ") }, "\(skipped)")
        #expect(skipped.errorLines.contains("links.tsv:3: imdbId: 'tt12x' is not an IMDb id (tt0111161, its digits, or an imdb.com/title/ URL)"), "\(skipped)")
        #expect(try String(contentsOfFile: bad.path("rejects.csv"), encoding: .utf8) == "movieId,imdbId,tmdbId,error\n4,tt12x,949,\"links.tsv:3: imdbId: 'tt12x' is not an IMDb id (tt0111161, its digits, or an imdb.com/title/ URL)\"\n")
        #expect(try bad.rows("SELECT title, ifnull(imdb_id, '') FROM movies ORDER BY title") == [["Heat", ""], ["Jumanji", ""], ["Toy Story", "tt0114709"]])
        // Every bad link is listed, with the movies file's invalid rows, before the import stops.
        let many = try Sandbox()
        try many.write("movies.csv", movies + "5,Blank year (1066),Drama\n")
        try many.write("links.csv", "movieId,imdbId,tmdbId\n1,x1,862\n2,0113497,8844\n4,y2,949\n")
        let listed = try many.moviecat("import", "links.csv", "movies.csv")
        #expect(listed.status == 65 && listed.errorLines.filter { $0.hasPrefix("links.csv:") }.count == 2, "\(listed)")
        #expect(listed.errorLines.last?.hasPrefix("moviecat: error: 3 invalid rows (3 problems); nothing was imported") == true, "\(listed)")
        // A movies file that carries its own ids keeps them; links.csv gives none.
        let own = try Sandbox()
        try own.write("movies.csv", "movieId,title,genres,imdbId\n1,Toy Story (1995),Adventure,tt0114709\n")
        try own.write("links.csv", "movieId,imdbId,tmdbId\n1,0113497,8844\n")
        let kept = try own.moviecat("import", "movies.csv", "links.csv")
        #expect(kept.status == 0 && kept.errorLines.contains("movies.csv: MovieLens movies.csv layout; its own IMDb ids read, not links.csv's"), "\(kept)")
        #expect(!kept.stderr.contains("none was"), "\(kept)")
        #expect(try own.sql("SELECT imdb_id FROM movies") == ["tt0114709"])
    }
}
