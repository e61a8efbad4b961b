import MovieCatalog
import MovieCLI
import MovieDomain

/// The command table: every command moviecat knows, in help order.
enum Commands {
    static let all: [Command] = [
        CatalogCommands.initCommand, ImportCommand.command, FilterCommands.filter, FacetsCommand.command,
        FilterCommands.savePreset, FilterCommands.presets, MovieCommands.add, MovieCommands.remove,
        MovieCommands.info, CompletionsCommand.command, HelpCommand.command,
    ]

    /// The spec used for errors before a command is known.
    static let globalSpec = CommandSpec(name: "", abstract: "", usage: "moviecat [--db <path>] <command> [<options>]")

    /// `moviecat --help`.
    static var mainHelp: String {
        let width = (all.map(\.spec.name.count).max() ?? 0) + 2
        var text = """
            OVERVIEW: A movie catalog on SQLite: import lists, filter them with facet sets, save presets.

            USAGE: moviecat [--db <path>] <command> [<options>]

            ARGUMENTS:
              <command>     One of the subcommands below.

            OPTIONS:
              --db <path>   The catalog file (default: $MOVIECAT_DB, else $XDG_DATA_HOME/moviecat/catalog.sqlite).
              --version     Show the version.
              -h, --help    Show help information.

            SUBCOMMANDS:

            """
        for command in all {
            text += "  " + command.spec.name + String(repeating: " ", count: width - command.spec.name.count)
                + command.spec.abstract + "\n"
        }
        text += """

            EXAMPLES:
              moviecat init --seed
              moviecat filter --genre drama --rating 5 --duration 3h
              moviecat import movies.csv

            See 'moviecat help <command>' for detailed help.

            """
        return text
    }
}

/// `moviecat help [COMMAND]`.
enum HelpCommand {
    static let command = Command(spec: CommandSpec(
        name: "help", abstract: "Show help for a command.", usage: "moviecat help [<command>]",
        arguments: [("<command>", "The command to describe.")],
        examples: ["moviecat help filter"])
    ) { parsed, context in
        guard let name = parsed.positionals.first else {
            context.stdout.write(Commands.mainHelp)
            return
        }
        guard let command = Commands.all.first(where: { $0.spec.name == name }) else {
            let hint = Suggestion.nearest(to: name, in: Commands.all.map(\.spec.name)).map { ". Did you mean '\($0)'?" } ?? ""
            throw CatalogError(.usage, "unknown command '\(name)'\(hint)")
        }
        context.stdout.write(command.spec.help)
    }
}
