import MovieDomain
/// MovieLens's links.csv (`movieId,imdbId,tmdbId`) imported with its movies.csv: read before the
/// other inputs, it gives each film of movies.csv its IMDb id, so that the films are the ones
/// other lists and IMDb's datasets name (title.ratings.tsv then updates them).
enum MovieLensLinks {
    /// The layout links.csv is recognised by (alone, it is skipped and says how to import it).
    static let layout = "movielens-links"

    /// What one links file gave: its rows, and the films it linked.
    struct Read {
        var rows = 0, linked = 0
    }

    /// Reads every links.csv among `inputs` (CSV or TSV files whose header is that layout's)
    /// whole: movieId -> IMDb id (`0114709` read as tt0114709), and what each input read gave.
    /// A row whose IMDb id is none is an invalid row, given to `reject` (the input's index, the
    /// problem, the header and the row as read).
    static func read(_ inputs: [(ByteReader, ImportFormat)],
                     reject: (Int, ImportProblem, [String], [[UInt8]]) throws -> Void) throws -> (links: [String: String], read: [Int: Read]) {
        var links: [String: String] = [:]
        var read: [Int: Read] = [:]
        for (index, (input, format)) in inputs.enumerated() where format == .csv || format == .tsv {
            let dialect: DelimitedReader.Dialect = format == .tsv ? .tsv : .csv
            guard ImportLayout.recognise(header(try input.peek(1 << 12), dialect))?.name == layout else { continue }
            let reader = DelimitedReader(input: input, dialect: dialect)
            guard try reader.next() else { continue }
            let header = reader.strings()
            let names = header.map { $0.trimmingWhitespace().lowercased() }
            guard let movieID = names.firstIndex(of: "movieid"), let imdbID = names.firstIndex(of: "imdbid") else { continue }
            var result = Read()
            while try reader.next() {
                result.rows += 1
                guard let movie = reader.string(movieID)?.trimmingWhitespace(), let imdb = reader.string(imdbID)?.trimmingWhitespace(),
                      !movie.isEmpty, !imdb.isEmpty else { continue }
                switch MovieRules.value(.imdbID, from: imdb) {
                case .success(.text(let id)):
                    if links.updateValue(id, forKey: movie) == nil { result.linked += 1 }
                case .success:
                    continue
                case .failure(let violation):
                    try reject(index, ImportProblem(file: input.name, line: reader.recordLine, field: header[imdbID].trimmingWhitespace(), reason: violation.reason),
                               header, reader.fieldBytes())
                }
            }
            read[index] = result
        }
        return (links, read)
    }

    /// The names on the first line of `bytes` (a CSV's start), read as the import reads a header
    /// (none when it is cut short: another file's long first line).
    static func header(_ bytes: [UInt8], _ dialect: DelimitedReader.Dialect) -> [String] {
        let reader = DelimitedReader(input: ByteReader(streaming: bytes, name: "header"), dialect: dialect)
        return (try? reader.next()) == true ? reader.strings().map { $0.trimmingWhitespace() } : []
    }
}
