import MovieCatalog

extension FuzzEntry {
    /// Arguments (NUL-separated) parsed as every command's, and as global options: a usage
    /// error or typed values, never a crash.
    public static func arguments(_ data: [UInt8]) {
        let arguments = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        _ = try? Commands.global.parse(arguments, stopAtCommand: true)
        for command in Commands.all + Commands.all.flatMap(\.subcommands) {
            _ = try? command.spec.parse(arguments)
            _ = try? command.resolve(arguments)
        }
    }
}
