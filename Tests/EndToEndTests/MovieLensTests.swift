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
        // Alone, links.csv says how to import it, and imports nothing.
        let alone = try Sandbox()
        try alone.write("links.csv", links)
        let run = try alone.moviecat("import", "links.csv")
        #expect(run.status == 0 && run.errorLines.contains("links.csv: MovieLens links.csv layout: 2 IMDb ids, read first for the films of the MovieLens movies.csv imported with it (none was: import them together)"), "\(run)")
        #expect(try alone.sql("SELECT count(*) FROM movies") == ["0"])
    }
}
