import MovieDomain
/// MovieLens's links.csv (`movieId,imdbId,tmdbId`) imported with its movies.csv: read before the
/// other inputs, it gives each film of movies.csv its IMDb id, so that the films are the ones
/// other lists and IMDb's datasets name (title.ratings.tsv then updates them).
enum MovieLensLinks {
    /// The layout links.csv is recognised by (alone, it is skipped and says how to import it).
    static let layout = "movielens-links"

    /// Reads every links.csv among `inputs` (CSV files whose header is that layout's) whole:
    /// movieId -> imdbId as written (`0114709`), and for each input read, how many links it had.
    static func read(_ inputs: [(ByteReader, ImportFormat)]) throws -> (links: [String: String], read: [Int: Int]) {
        var links: [String: String] = [:]
        var read: [Int: Int] = [:]
        for (index, (input, format)) in inputs.enumerated() where format == .csv {
            guard ImportLayout.recognise(header(try input.peek(1 << 12)))?.name == layout else { continue }
            let reader = DelimitedReader(input: input, dialect: .csv)
            guard try reader.next() else { continue }
            let names = reader.strings().map { $0.trimmingWhitespace().lowercased() }
            guard let movieID = names.firstIndex(of: "movieid"), let imdbID = names.firstIndex(of: "imdbid") else { continue }
            var count = 0
            while try reader.next() {
                guard let movie = reader.string(movieID)?.trimmingWhitespace(), let imdb = reader.string(imdbID)?.trimmingWhitespace(),
                      !movie.isEmpty, !imdb.isEmpty else { continue }
                links[movie] = imdb
                count += 1
            }
            read[index] = count
        }
        return (links, read)
    }

    /// The names on the first line of `bytes` (a CSV's start), read as the import reads a header
    /// (none when it is cut short: another file's long first line).
    static func header(_ bytes: [UInt8]) -> [String] {
        let reader = DelimitedReader(input: ByteReader(streaming: bytes, name: "header"), dialect: .csv)
        return (try? reader.next()) == true ? reader.strings().map { $0.trimmingWhitespace() } : []
    }
}
