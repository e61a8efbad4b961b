import Foundation
import Testing

/// Public movie datasets as people download them (Kaggle's): their underscored column names,
/// genres written as JSON or Python lists, zeros for unknowns, films beside shows.
@Suite struct DatasetLayoutTests {
    @Test("netflix_titles.csv (and Prime's, Disney+'s): films only, rating as certification, categories as genres, a shifted row's minutes")
    func netflixTitles() throws {
        let box = try Sandbox()
        try box.write("netflix_titles.csv", """
            show_id,type,title,director,cast,country,date_added,release_year,rating,duration,listed_in,description
            s1,Movie,Dick Johnson Is Dead,Kirsten Johnson,,United States,"September 25, 2021",2020,PG-13,90 min,Documentaries,"As her father nears the end of his life, ..."
            s2,TV Show,Blood & Water,,"Ama Qamata, Khosi Ngema",South Africa,"September 24, 2021",2021,TV-MA,2 Seasons,"International TV Shows, TV Dramas, TV Mysteries",...
            s7,Movie,My Little Pony: A New Generation,"Robert Cullen, José Luis Ucha",,,"September 24, 2021",2021,PG,91 min,"Children & Family Movies, Action & Adventure",...
            s5542,Movie,Louis C.K. 2017,Louis C.K.,Louis C.K.,United States,"April 4, 2017",2017,74 min,,Movies,...
            s9,Movie,The Starling,Theodore Melfi,Melissa McCarthy,United States,"September 24, 2021",2021,PG-13,104 min,"Comedies, Dramas, International Movies",...
            s10,Movie,Zerkalo,Andrei Tarkovsky,,,"March 30, 2021",1975,13+,107 min,"Arts, Entertainment, and Culture, Drama",...

            """)
        let run = try box.moviecat("import", "netflix_titles.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "netflix_titles.csv", read: 6, inserted: 5, filtered: 1)], "\(run)")
        #expect(run.errorLines.contains("netflix_titles.csv: Netflix/Prime/Disney+ titles dataset layout; where type=Movie"), "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Dick Johnson Is Dead", "2020", "", "", "90", "", "documentary"],
            ["Louis C.K. 2017", "2017", "", "", "74", "", ""],
            ["My Little Pony: A New Generation", "2021", "", "", "91", "", "action|adventure|family"],
            ["The Starling", "2021", "", "", "104", "", "comedy|drama"],
            ["Zerkalo", "1975", "", "", "107", "", "arts-entertainment-and-culture|drama"],
        ])
        #expect(try box.sql("SELECT ifnull(certification, '-') FROM movies ORDER BY id") == ["PG-13", "PG", "-", "PG-13", "13+"])
        #expect(try box.sql("SELECT count(*) FROM genres WHERE code LIKE '%movies%' OR code IN ('dramas', 'comedies')") == ["0"])
    }

    @Test("TMDB 5000 and The Movies Dataset as CSV: genres written as JSON or Python lists, 0 and 0.0 unknown, credits left out")
    func tmdbDatasets() throws {
        let box = try Sandbox()
        try box.write("tmdb_5000_movies.csv", """
            budget,genres,homepage,id,keywords,original_language,original_title,overview,popularity,production_companies,production_countries,release_date,revenue,runtime,spoken_languages,status,tagline,title,vote_average,vote_count
            237000000,"[{""id"": 28, ""name"": ""Action""}, {""id"": 878, ""name"": ""Science Fiction""}]",http://www.avatarmovie.com/,19995,[],en,Avatar,...,150.437577,[],[],2009-12-10,2787965087,162.0,[],Released,Enter the World of Pandora.,Avatar,7.2,11800
            0,[],,459488,[],en,To Be Frank,...,0.0,[],[],2016-01-01,0,0.0,[],Released,,To Be Frank,0.0,0

            """)
        try box.write("tmdb_5000_credits.csv", "movie_id,title,cast,crew\n19995,Avatar,[],[]\n")
        try box.write("movies_metadata.csv", """
            adult,belongs_to_collection,budget,genres,homepage,id,imdb_id,original_language,original_title,overview,popularity,poster_path,production_companies,production_countries,release_date,revenue,runtime,spoken_languages,status,tagline,title,video,vote_average,vote_count
            False,,30000000,"[{'id': 16, 'name': 'Animation'}, {'id': 35, 'name': 'Comedy'}, {'id': 10751, 'name': 'Family'}]",,862,tt0114709,en,Toy Story,...,21.946943,/x.jpg,[],[],1995-10-30,373554033,81.0,[],Released,,Toy Story,False,7.7,5415
            True,,0,"[{'id': 18, 'name': 'Drama'}]",,99,tt9999999,en,Adult Film,...,0.5,,[],[],1990-01-01,0,90.0,[],Released,,Adult Film,False,5.0,3
            False,,0,[],,100,0,en,Lost Reel,...,0.1,,[],[],1950-01-01,0,0.0,[],Released,,Lost Reel,False,0.0,0

            """)
        // The Movies Dataset's other files: cast and crew, keywords, and MovieLens's ratings.
        try box.write("credits.csv", "cast,crew,id\n[],[],862\n")
        try box.write("keywords.csv", "id,keywords\n862,\"[{'id': 931, 'name': 'jealousy'}]\"\n")
        try box.write("ratings_small.csv", "userId,movieId,rating,timestamp\n1,31,2.5,1260759144\n")
        let run = try box.moviecat("import", "tmdb_5000_movies.csv", "tmdb_5000_credits.csv", "movies_metadata.csv", "credits.csv", "keywords.csv", "ratings_small.csv")
        #expect(run.status == 0, "\(run)")
        for line in ["credits.csv: The Movies Dataset credits layout: cast and crew, not movies; skipped (--layout none reads its columns)",
                     "keywords.csv: The Movies Dataset keywords layout: keywords, not movies; skipped (--layout none reads its columns)",
                     "ratings_small.csv: MovieLens ratings.csv layout: its users' ratings, not movies; skipped (--layout none reads its columns)"] {
            #expect(run.errorLines.contains(line), "\(run)")
        }
        #expect(run.errorLines.contains("tmdb_5000_credits.csv: TMDB 5000 credits layout: cast and crew, not movies; skipped (--layout none reads its columns)"), "\(run)")
        #expect(run.reports.contains(ReportLine(file: "movies_metadata.csv", read: 3, inserted: 3)), "\(run)")
        // Adult films stay (`--where adult=False` leaves them out): a default would drop rows whose flag is empty.
        #expect(try LayoutTests.catalog(box) == [
            ["Adult Film", "1990", "5.0", "3", "90", "tt9999999", "drama"],
            ["Avatar", "2009", "7.2", "11800", "162", "", "action|sci-fi"],
            ["Lost Reel", "1950", "", "0", "", "", ""],
            ["To Be Frank", "2016", "", "0", "", "", ""],
            ["Toy Story", "1995", "7.7", "5415", "81", "tt0114709", "animation|comedy|family"],
        ])
        #expect(try box.sql("SELECT count(*) FROM genres WHERE code LIKE 'id-%' OR code LIKE 'name-%'") == ["0"])
    }

    @Test("datasets' underscored names read as the spaced aliases: IMDB Top 1000, IMDB 5000")
    func underscoredNames() throws {
        let box = try Sandbox()
        try box.write("imdb_top_1000.csv", """
            Poster_Link,Series_Title,Released_Year,Certificate,Runtime,Genre,IMDB_Rating,Overview,Meta_score,Director,Star1,Star2,Star3,Star4,No_of_Votes,Gross
            https://m.media-amazon.com/x.jpg,The Shawshank Redemption,1994,A,142 min,Drama,9.3,Two imprisoned men ...,80,Frank Darabont,Tim Robbins,Morgan Freeman,Bob Gunton,William Sadler,2343110,"28,341,469"

            """)
        try box.write("movie_metadata.csv", "color,director_name,duration,genres,movie_title,num_voted_users,content_rating,title_year,imdb_score,movie_imdb_link\n"
                      + "Color,James Cameron,178,Action|Adventure|Fantasy|Sci-Fi,Avatar\u{A0},886204,PG-13,2009,7.9,http://www.imdb.com/title/tt0499549/?ref_=fn_tt_tt_1\n")
        let run = try box.moviecat("import", "imdb_top_1000.csv", "movie_metadata.csv")
        #expect(run.status == 0, "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Avatar", "2009", "7.9", "886204", "178", "tt0499549", "action|adventure|fantasy|sci-fi"],
            ["The Shawshank Redemption", "1994", "9.3", "2343110", "142", "", "drama"],
        ])
        #expect(try box.sql("SELECT certification FROM movies ORDER BY id") == ["A", "PG-13"])
    }

    @Test("a wiki's table saved as CSV: footnote marks, no-break spaces, a date's note, TBA and dashes; a scrape's links within IMDb")
    func wikiTables() throws {
        let box = try Sandbox()
        try box.write("nolan.csv", "Title,Release date,Running time,Link\n"
                      + "Following,\"12 September 1998 (Toronto)\",69 minutes[1],/title/tt0154506/?ref_=fn_al_tt_1\n"
                      + "Memento,\"September\u{A0}5, 2000\",113\u{A0}minutes[2],\nOppenheimer[5],\"July 21, 2023\",180 minutes,\nUntitled,TBA,\u{2014},\n")
        let run = try box.moviecat("import", "nolan.csv", "--map", "imdb_id=Link")
        #expect(run.status == 0, "\(run)")
        #expect(try LayoutTests.catalog(box) == [
            ["Following", "1998", "", "", "69", "tt0154506", ""], ["Memento", "2000", "", "", "113", "", ""],
            ["Oppenheimer[5]", "2023", "", "", "180", "", ""], ["Untitled", "", "", "", "", "", ""],
        ])
    }

    @Test("rows wrong in one field alone say how --map reads it from none or another column; mixed problems do not")
    func oneFieldHint() throws {
        let box = try Sandbox()
        try box.write("cert.csv", "title,rating\nA,PG-13\nB,R\nC,TV-MA\nD,7\n")
        let run = try box.moviecat("import", "cert.csv")
        #expect(run.status == 65 && run.errorLines.last == "moviecat: error: 3 invalid rows (3 problems); nothing was imported. Fix them, or import the valid rows with --skip-invalid; every problem shown is in rating: --map rating= reads it from no column, --map rating=COLUMN from another", "\(run)")
        #expect(try box.moviecat("import", "cert.csv", "--map", "rating=", "--map", "certification=rating").status == 0)
        // A key every row needs, left blank, gets no hint (reading it from no column is no way out).
        try box.write("ids.csv", "imdb_id,rating\n,7\n,8\n,9\n")
        let ids = try box.moviecat("import", "ids.csv")
        #expect(ids.status == 65 && ids.errorLines.last?.hasSuffix("with --skip-invalid") == true, "\(ids)")
        try box.write("mixed.csv", "title,year,rating\nA,1700,5\nB,2000,11\nC,3000,5\n")
        let mixed = try box.moviecat("import", "mixed.csv")
        #expect(mixed.status == 65 && mixed.errorLines.last?.hasSuffix("with --skip-invalid") == true, "\(mixed)")
    }
}
