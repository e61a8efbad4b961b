import MovieCatalog

import MovieDomain

/// The global options, before the command.
public enum GlobalOptions {
    /// `--db PATH`.
    public static let db = Option<String>("--db", value: "path",
        help: "The catalog file (default: $MOVIECAT_DB, else $XDG_DATA_HOME/moviecat/catalog.sqlite).",
        completion: .file) { text in
        guard !text.isEmpty else { throw InvalidValue("the catalog path cannot be empty") }
        return text
    }
    /// `--version`.
    public static let version = Flag("--version", help: "Show the version.")
}

/// The command table: every command moviecat knows, in help order.
public enum Commands {
    /// Every command, in help order.
    public static let all: [Command] = [
        CatalogCommands.initCommand, ImportCommand.command, FilterCommand.command, FacetsCommand.command,
        PresetCommands.savePreset, PresetCommands.presets, MovieCommands.add, MovieCommands.edit,
        MovieCommands.remove, CatalogCommands.info, CompletionsCommand.command, HelpCommand.command,
    ]

    /// `moviecat [--db <path>] <command>`: the global options (the commands are listed by `help`
    /// alone: making every command's spec costs each run's start as much as its query).
    public static let global = CommandSpec(
        name: "", abstract: "A movie catalog on SQLite: import lists, filter them with facet sets, save presets.",
        usage: "moviecat [--db <path>] <command> [<options>]",
        arguments: [ArgumentSpec("<command>", "One of the subcommands below; see 'moviecat help <command>'.")],
        options: [GlobalOptions.db, GlobalOptions.version],
        examples: ["moviecat init --seed", "moviecat filter --genre drama --rating 5 --duration 3h",
                   "moviecat import title.basics.tsv.gz title.ratings.tsv.gz"])

    /// The top-level help: the global options and the commands.
    public static var globalHelp: String {
        var spec = global
        spec.subcommands = all.map(\.spec)
        return spec.help
    }

    /// The command named `name`, or a usage error suggesting the nearest. Only that command is
    /// made (`all` makes every one); a test holds the two to the same commands.
    public static func named(_ name: String) throws -> Command {
        switch name {
        case "init": return CatalogCommands.initCommand
        case "import": return ImportCommand.command
        case "filter": return FilterCommand.command
        case "facets": return FacetsCommand.command
        case "save-preset": return PresetCommands.savePreset
        case "presets": return PresetCommands.presets
        case "add": return MovieCommands.add
        case "edit": return MovieCommands.edit
        case "remove": return MovieCommands.remove
        case "info": return CatalogCommands.info
        case "completions": return CompletionsCommand.command
        case "help": return HelpCommand.command
        case "_complete": return CompletionsCommand.values
        default:
            let hint = Suggestion.nearest(to: name, in: all.map(\.spec.name)).map { ". Did you mean '\($0)'?" } ?? ""
            throw global.usageError("unknown command \(name.quotedForMessage)\(hint)")
        }
    }
}

/// `moviecat help [COMMAND [SUBCOMMAND]]`.
enum HelpCommand {
    static let command = Command(spec: CommandSpec(
        name: "help", abstract: "Show help for a command.",
        arguments: [ArgumentSpec("<command>", "The command to describe.", completion: .choices(["init", "import", "filter",
                    "facets", "save-preset", "presets", "add", "edit", "remove", "info", "completions", "help"]))],
        examples: ["moviecat help filter", "moviecat help presets show"])
    ) { parsed, context in
        guard let name = parsed.positionals.first else {
            context.stdout.write(Commands.globalHelp)
            return
        }
        let group = try Commands.named(name)
        let rest = Array(parsed.positionals.dropFirst())
        // `help presets` describes the group; `help presets show` the action.
        let (command, extra) = rest.isEmpty ? (group, []) : try group.resolve(rest)
        if let extra = extra.first { throw command.spec.usageError("unexpected argument \(extra.quotedForMessage)") }
        context.stdout.write(command.spec.help)
    }
}
