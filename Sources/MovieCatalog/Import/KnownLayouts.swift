import MovieDomain
/// The layouts moviecat knows (SPEC section 7), and the tables of names their rules use.
extension ImportLayout {
    /// Every known layout.
    public static let all: [ImportLayout] = [
        ImportLayout(
            name: "imdb-basics", title: "IMDb title.basics layout",
            keyColumns: ["tconst", "titleType", "primaryTitle"], absentColumns: [],
            mapping: [("tconst", .imdbID), ("primaryTitle", .title), ("startYear", .year),
                      ("runtimeMinutes", .duration), ("genres", .genres)],
            defaultWhere: [("titleType", ["movie", "tvMovie"]), ("isAdult", ["0"])], rules: [.zeroIsUnknown(.duration)]),
        ImportLayout(
            name: "imdb-ratings", title: "IMDb title.ratings layout",
            keyColumns: ["tconst", "averageRating", "numVotes"], absentColumns: ["primaryTitle", "title"],
            mapping: [("tconst", .imdbID), ("averageRating", .rating), ("numVotes", .votes)],
            defaultWhere: [], rules: []),
        ImportLayout(
            name: "imdb-list", title: "IMDb list export layout",
            keyColumns: ["Const", "Title", "Title Type"], absentColumns: [],
            mapping: [("Const", .imdbID), ("Title", .title), ("Year", .year), ("Genres", .genres),
                      ("IMDb Rating", .rating), ("Runtime (mins)", .duration), ("Num Votes", .votes), ("Num. Votes", .votes)],
            // Exports have written both spellings of a TV movie; before 2017 a documentary was a type of its own.
            // IMDb's site in Italian writes `Film` (and `Serie TV`, left out).
            defaultWhere: [("Title Type", ["movie", "tvMovie", "TV Movie", "Feature Film", "Documentary", "Film"])], rules: [.zeroIsUnknown(.duration)]),
        ImportLayout(
            name: "letterboxd", title: "Letterboxd export layout",
            keyColumns: ["Name", "Year", "Letterboxd URI"], absentColumns: [],
            mapping: [("Name", .title), ("Year", .year)],
            defaultWhere: [], rules: []),
        ImportLayout(
            name: "letterboxd-list", title: "Letterboxd list export layout",
            keyColumns: ["Position", "Name", "Year", "URL"], absentColumns: [],
            mapping: [("Name", .title), ("Year", .year)],
            defaultWhere: [], rules: []),
    ] + ["movie", "show", "episode", "season", "person"].map { first in
        // History, watchlist and list exports mix in shows and episodes (left out by their
        // `type`), and may begin with one.
        ImportLayout(
            name: "trakt", title: "Trakt export layout",
            keyColumns: first == "movie" ? ["movie.title", "movie.ids.trakt"] : ["type", "\(first).ids.trakt"], absentColumns: [],
            // `extended=full` adds Trakt's public rating and the film's facts; a top-level `rating` is the user's own.
            mapping: [("movie.title", .title), ("movie.year", .year), ("movie.ids.imdb", .imdbID), ("movie.rating", .rating),
                      ("movie.votes", .votes), ("movie.runtime", .duration), ("movie.genres", .genres),
                      ("movie.certification", .certification)],
            defaultWhere: [("type", ["movie"])], rules: [.zeroIsUnknown(.rating), .zeroIsUnknown(.duration)])
    } + [
        // Trakt's collection and watched exports of shows: records without a type.
        ImportLayout(name: "trakt-shows", title: "Trakt export layout", keyColumns: ["show.ids.trakt"],
                     absentColumns: ["movie.ids.trakt", "type"], mapping: [], defaultWhere: [], rules: [],
                     notMovies: "shows, not movies"),
        ImportLayout(
            name: "movielens", title: "MovieLens movies.csv layout",
            keyColumns: ["movieId", "title", "genres"], absentColumns: ["year"],
            mapping: [("title", .title), ("genres", .genres), ("imdbId", .imdbID)],
            defaultWhere: [], rules: [.yearInTitle, .noGenres("(no genres listed)")]),
        // Netflix's viewing history: films and, far more, episodes, told by their titles.
        ImportLayout(
            name: "netflix", title: "Netflix viewing history layout (series' episodes left out)",
            keyColumns: ["Title", "Date"], absentColumns: ["Year", "Rating", "Genres", "Genre", "Const", "Name"],
            mapping: [("Title", .title)],
            defaultWhere: [], rules: [], leavesOutEpisodes: true),
        // Kaggle's netflix_titles.csv (and amazon_prime_titles.csv, disney_plus_titles.csv): films
        // and shows, `rating` a certification, `listed_in` the service's own categories.
        ImportLayout(
            name: "netflix-titles", title: "Netflix/Prime/Disney+ titles dataset layout",
            keyColumns: ["show_id", "type", "title", "listed_in", "duration"], absentColumns: [],
            mapping: [("title", .title), ("release_year", .year), ("rating", .certification), ("duration", .duration), ("listed_in", .genres)],
            defaultWhere: [("type", ["Movie"])], rules: [.minutesInCertification, .genreNames(streamingCategories)]),
        // Netflix's full data request (`CONTENT_INTERACTION/ViewingActivity.csv`): every session,
        // trailers and previews among them; `Duration` is how long it was watched.
        ImportLayout(
            name: "netflix-activity", title: "Netflix viewing activity layout (trailers, previews and series' episodes left out)",
            keyColumns: ["Profile Name", "Start Time", "Title", "Supplemental Video Type"], absentColumns: [],
            mapping: [("Title", .title)],
            defaultWhere: [("Supplemental Video Type", [""])], rules: [], leavesOutEpisodes: true),
        // Lists whose `Rating` or `Score` is their owner's own (Simkl; Letterboxd's import format,
        // which converters from FilmAffinity, MUBI or Kinopoisk write; Criticker; the sites below):
        // the catalog's rating stays the public one.
        ImportLayout(
            name: "simkl", title: "Simkl export layout",
            keyColumns: ["SIMKL_ID", "Title", "Type"], absentColumns: [],
            mapping: [("Title", .title), ("Year", .year), ("IMDB_ID", .imdbID)],
            defaultWhere: [("Type", ["movie"])], rules: []),
    ] + [["Title", "Rating10"], ["Title", "Directors", "WatchedDate"], ["Title", "LetterboxdURI"]].map { keys in
        // Not a sheet of one's own that has a column of the format's beside public values.
        ImportLayout(
            name: "letterboxd-import", title: "Letterboxd import format layout",
            keyColumns: keys, absentColumns: ["imdbRating", "IMDb Rating", "Type", "Genre", "Genres", "Runtime", "Votes"],
            mapping: [("Title", .title), ("Year", .year), ("imdbID", .imdbID)],
            defaultWhere: [], rules: [])
    } + [
        // TMDB's own export of an account's ratings or watchlist: `Rating` is TMDB's average.
        ImportLayout(
            name: "tmdb-account", title: "TMDB account export layout",
            keyColumns: ["TMDb ID", "IMDb ID", "Type", "Name"], absentColumns: [],
            mapping: [("Name", .title), ("Release Date", .year), ("Rating", .rating), ("IMDb ID", .imdbID)],
            defaultWhere: [("Type", ["movie"])], rules: [.zeroIsUnknown(.rating)]),
        // movielens.org's export of one's ratings: `rating` is one's own stars, `average_rating`
        // the site's, out of 5.
        ImportLayout(
            name: "movielens-ratings", title: "MovieLens ratings export layout",
            keyColumns: ["movie_id", "imdb_id", "average_rating", "title"], absentColumns: [],
            mapping: [("title", .title), ("imdb_id", .imdbID)],
            defaultWhere: [], rules: [.yearInTitle]),
        // Trackers of several media: films beside shows, anime, books and games.
        ImportLayout(
            name: "yamtrack", title: "Yamtrack export layout",
            keyColumns: ["media_id", "source", "media_type", "title"], absentColumns: [],
            mapping: [("title", .title)],
            defaultWhere: [("media_type", ["movie"])], rules: []),
        ImportLayout(
            name: "tvtime", title: "TV Time data export layout",
            keyColumns: ["movie_name", "entity_type", "uuid"], absentColumns: [],
            mapping: [("movie_name", .title), ("release_date", .year), ("runtime", .duration)],
            defaultWhere: [("entity_type", ["movie"])], rules: [.durationUnits(perMinute: 60), .zeroIsUnknown(.duration)]),
        ImportLayout(
            name: "watcharr", title: "Watcharr export layout",
            keyColumns: ["content.tmdbId", "content.title", "content.type"], absentColumns: [],
            mapping: [("content.title", .title), ("content.release_date", .year), ("content.vote_average", .rating),
                      ("content.vote_count", .votes), ("content.runtime", .duration), ("content.imdb_id", .imdbID)],
            defaultWhere: [("content.type", ["movie"])], rules: [.zeroIsUnknown(.rating), .zeroIsUnknown(.duration)]),
        // Amazon Prime Video's watch history, as its data request writes it.
        ImportLayout(
            name: "prime-video", title: "Prime Video watch history layout",
            keyColumns: ["Date Watched", "Type", "Title", "Episode Title"], absentColumns: [],
            mapping: [("Title", .title)],
            defaultWhere: [("Type", ["Movie"])], rules: []),
        ImportLayout(
            name: "criticker", title: "Criticker export layout",
            keyColumns: ["Film Name", "Score"], absentColumns: [],
            mapping: [("Film Name", .title), ("Year", .year), ("IMDB ID", .imdbID)],
            defaultWhere: [], rules: []),
        // OMDb's API records (`imdbRating`, `imdbVotes`; series and episodes left out by `Type`).
        ImportLayout(
            name: "omdb", title: "OMDb layout",
            keyColumns: ["Title", "imdbID", "imdbRating"], absentColumns: [],
            mapping: [("Title", .title), ("Year", .year), ("Rated", .certification), ("Runtime", .duration), ("Genre", .genres),
                      ("imdbRating", .rating), ("imdbVotes", .votes), ("imdbID", .imdbID)],
            defaultWhere: [("Type", ["movie"])], rules: []),
        // Media servers' libraries (JSON-RPC and API results): their durations in other units.
        ImportLayout(
            name: "kodi", title: "Kodi library layout",
            keyColumns: ["movieid", "label", "runtime"], absentColumns: [],
            mapping: [("title", .title), ("year", .year), ("rating", .rating), ("votes", .votes), ("runtime", .duration),
                      ("genre", .genres), ("uniqueid.imdb", .imdbID), ("imdbnumber", .imdbID), ("mpaa", .certification)],
            // Kodi writes 0 for what it does not know.
            defaultWhere: [], rules: [.durationUnits(perMinute: 60), .certificationAfter("Rated "), .imdbIDsOnly,
                                      .zeroIsUnknown(.year), .zeroIsUnknown(.duration), .zeroIsUnknown(.rating)]),
        ImportLayout(
            name: "plex", title: "Plex library layout",
            keyColumns: ["ratingKey", "guid", "type", "title"], absentColumns: [],
            // The API's `Guid` list (with `includeGuids=1`), or Tautulli's export of it: `imdb://tt...`.
            mapping: [("title", .title), ("year", .year), ("duration", .duration), ("Genre", .genres), ("genres.tag", .genres),
                      ("contentRating", .certification), ("guids.id", .imdbID), ("Guid", .imdbID)],
            defaultWhere: [("type", ["movie"])],
            rules: [.durationUnits(perMinute: 60_000), .zeroIsUnknown(.year), .zeroIsUnknown(.duration), .imdbIDFromGuids]),
        // Radarr's `/api/v3/movie` (Sonarr's series share its keys but `tvdbId`); 0 is none known.
        ImportLayout(
            name: "radarr", title: "Radarr library layout",
            keyColumns: ["tmdbId", "titleSlug", "qualityProfileId"], absentColumns: ["tvdbId", "seriesType"],
            mapping: [("title", .title), ("year", .year), ("runtime", .duration), ("genres", .genres), ("certification", .certification),
                      ("imdbId", .imdbID), ("ratings.imdb.value", .rating), ("ratings.imdb.votes", .votes)],
            defaultWhere: [], rules: [.zeroIsUnknown(.year), .zeroIsUnknown(.duration), .zeroIsUnknown(.rating)]),
        // Jellyfin's and Emby's `/Items` (`{"Items": [...]}`): durations in ticks of 100 ns.
        ImportLayout(
            name: "jellyfin", title: "Jellyfin/Emby library layout",
            keyColumns: ["Name", "ServerId", "Type"], absentColumns: [],
            mapping: [("Name", .title), ("ProductionYear", .year), ("PremiereDate", .year), ("RunTimeTicks", .duration),
                      ("Genres", .genres), ("CommunityRating", .rating), ("OfficialRating", .certification),
                      ("ProviderIds.Imdb", .imdbID)],
            defaultWhere: [("Type", ["Movie"])], rules: [.durationUnits(perMinute: 600_000_000), .imdbIDsOnly]),
        ImportLayout(
            name: "tmdb", title: "TMDB layout",
            keyColumns: ["title", "original_title", "release_date", "vote_average"], absentColumns: [],
            mapping: [("title", .title), ("release_date", .year), ("vote_average", .rating), ("vote_count", .votes),
                      ("runtime", .duration), ("imdb_id", .imdbID), ("genres", .genres), ("genre_ids", .genres)],
            // A film nobody rated has the average 0, one nobody timed the runtime 0; a search of
            // several kinds marks films `movie`; The Movies Dataset's CSV writes `0` for no IMDb id.
            defaultWhere: [("media_type", ["movie"])],
            rules: [.genreIDs(tmdbGenres), .zeroIsUnknown(.rating), .zeroIsUnknown(.duration), .zeroIsUnknown(.imdbID)]),
    ] + ([
        // IMDb's other datasets: `import title.*.tsv.gz` reads them beside basics and ratings.
        ("imdb-akas", "title.akas", ["titleId", "ordering", "title", "isOriginalTitle"], "alternative titles of IMDb's titles"),
        ("imdb-crew", "title.crew", ["tconst", "directors", "writers"], "directors and writers"),
        ("imdb-principals", "title.principals", ["tconst", "ordering", "nconst", "category"], "cast and crew"),
        ("imdb-episode", "title.episode", ["tconst", "parentTconst", "seasonNumber"], "episodes of series"),
        ("imdb-names", "name.basics", ["nconst", "primaryName"], "people"),
    ] as [(String, String, [String], String)]).map { name, file, keys, holds in
        ImportLayout(name: name, title: "IMDb \(file) layout", keyColumns: keys, absentColumns: [],
                     mapping: [], defaultWhere: [], rules: [], notMovies: "\(holds), not movies")
    } + ([
        // MovieLens's other files, beside movies.csv and links.csv: `import *.csv` reads its films.
        ("movielens-user-ratings", "ratings.csv", ["userId", "movieId", "rating", "timestamp"], "its users' ratings"),
        ("movielens-tags", "tags.csv", ["userId", "movieId", "tag", "timestamp"], "its users' tags"),
        ("movielens-genome-scores", "genome-scores.csv", ["movieId", "tagId", "relevance"], "the tag genome's scores"),
        ("movielens-genome-tags", "genome-tags.csv", ["tagId", "tag"], "the tag genome's tags"),
    ] as [(String, String, [String], String)]).map { name, file, keys, holds in
        ImportLayout(name: name, title: "MovieLens \(file) layout", keyColumns: keys, absentColumns: ["title"],
                     mapping: [], defaultWhere: [], rules: [], notMovies: "\(holds), not movies")
    } + [
        // The other files of Netflix's data request (Ratings.csv, MyList.csv: `Title Name`, shows
        // and films alike with nothing to tell them apart; SearchHistory.csv...).
        ImportLayout(name: "netflix-account", title: "Netflix data request layout", keyColumns: ["Profile Name"],
                     absentColumns: ["Start Time", "Title", "Name", "Movie", "Film", "Year"], mapping: [], defaultWhere: [], rules: [],
                     notMovies: "shows and films alike with nothing to tell them apart, or none (ViewingActivity.csv holds the films watched)"),
        // The other files of Letterboxd's export, beside its films: `import *.csv` reads them all.
        ImportLayout(name: "letterboxd-profile", title: "Letterboxd profile layout", keyColumns: ["Date Joined", "Username"],
                     absentColumns: [], mapping: [], defaultWhere: [], rules: [], notMovies: "the account's profile, not movies"),
        ImportLayout(name: "letterboxd-comments", title: "Letterboxd comments layout", keyColumns: ["Date", "Content", "Comment"],
                     absentColumns: ["Name", "Title", "Movie", "Film", "Year"], mapping: [], defaultWhere: [], rules: [], notMovies: "comments, not movies"),
        // MovieLens's links.csv: read ahead of its movies.csv when imported with it (MovieLensLinks).
        ImportLayout(name: MovieLensLinks.layout, title: "MovieLens links.csv layout", keyColumns: ["movieId", "imdbId", "tmdbId"],
                     absentColumns: ["title"], mapping: [], defaultWhere: [], rules: [],
                     notMovies: "the IMDb ids of a movies.csv's films, not movies: import it with its movies.csv (moviecat import movies.csv links.csv)"),
        ImportLayout(name: "sonarr", title: "Sonarr library layout", keyColumns: ["tvdbId", "seriesType", "titleSlug"],
                     absentColumns: [], mapping: [], defaultWhere: [], rules: [], notMovies: "series, not movies"),
        // The TMDB 5000 dataset's second file, beside its movies: each film's cast and crew.
        ImportLayout(name: "tmdb-credits", title: "TMDB 5000 credits layout", keyColumns: ["movie_id", "title", "cast", "crew"],
                     absentColumns: [], mapping: [], defaultWhere: [], rules: [], notMovies: "cast and crew, not movies"),
        // The Movies Dataset's (Kaggle) files beside movies_metadata.csv: cast and crew, keywords.
        ImportLayout(name: "tmdb-dataset-credits", title: "The Movies Dataset credits layout", keyColumns: ["cast", "crew", "id"],
                     absentColumns: ["title"], mapping: [], defaultWhere: [], rules: [], notMovies: "cast and crew, not movies"),
        ImportLayout(name: "tmdb-dataset-keywords", title: "The Movies Dataset keywords layout", keyColumns: ["id", "keywords"],
                     absentColumns: ["title"], mapping: [], defaultWhere: [], rules: [], notMovies: "keywords, not movies"),
    ]

    /// Streaming services' categories (as slugs) as the catalog's genres (comma-separated codes),
    /// or none (``) for what is no genre (`International Movies`).
    static let streamingCategories: [String: String] = [
        "dramas": "drama", "comedies": "comedy", "documentaries": "documentary", "horror-movies": "horror",
        "thrillers": "thriller", "romantic-movies": "romance", "action-adventure": "action,adventure",
        "sci-fi-fantasy": "sci-fi,fantasy", "children-family-movies": "family", "kids": "family",
        "music-musicals": "music,musical", "anime-features": "animation", "sports-movies": "sport",
        "stand-up-comedy": "comedy", "independent-movies": "", "international-movies": "", "international": "",
        "classic-movies": "", "cult-movies": "", "movies": "", "sports": "sport", "biographical": "biography",
    ]

    /// TMDB's movie genres by id (its `genre/movie/list`).
    static let tmdbGenres: [String: String] = [
        "28": "Action", "12": "Adventure", "16": "Animation", "35": "Comedy", "80": "Crime", "99": "Documentary",
        "18": "Drama", "10751": "Family", "14": "Fantasy", "36": "History", "27": "Horror", "10402": "Music",
        "9648": "Mystery", "10749": "Romance", "878": "Science Fiction", "10770": "TV Movie", "53": "Thriller",
        "10752": "War", "37": "Western",
    ]
}
