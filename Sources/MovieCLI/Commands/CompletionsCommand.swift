import MovieCatalog

import MovieDomain

/// `completions bash|zsh|fish` and the hidden `_complete` that feeds them catalog values.
enum CompletionsCommand {
    enum Shell: String, CaseIterable { case bash, zsh, fish }

    static let spec = CommandSpec(
        name: "completions", abstract: "Print a shell completion script.",
        arguments: [ArgumentSpec("<shell>", "bash, zsh or fish.", completion: .choices(Shell.allCases.map(\.rawValue)))],
        examples: ["source <(moviecat completions bash)", "moviecat completions fish > ~/.config/fish/completions/moviecat.fish"])

    static let command = Command(spec: spec) { parsed, context in
        guard parsed.positionals.count == 1 else { throw spec.usageError("expected one shell: bash, zsh or fish") }
        guard let shell = Shell(rawValue: parsed.positionals[0]) else {
            throw spec.usageError("unknown shell \(parsed.positionals[0].quotedForMessage): expected bash, zsh or fish")
        }
        let specs = Commands.all.map(\.spec)
        switch shell {
        case .bash: context.stdout.write(CompletionScript.bash(specs, global: Commands.global))
        case .zsh: context.stdout.write(CompletionScript.zsh(specs, global: Commands.global))
        case .fish:
            let defaults = Dictionary(uniqueKeysWithValues: Commands.all.compactMap { command in command.defaultSubcommand.map { (command.spec.name, $0) } })
            context.stdout.write(CompletionScript.fish(specs, global: Commands.global, defaults: defaults))
        }
    }

    /// Not listed in help: prints genre codes or preset names, one a line, for the scripts.
    static let values = Command(spec: CommandSpec(name: "_complete", abstract: "", usage: "moviecat _complete genres|presets")) { parsed, context in
        // Completing must never create a catalog (a mistyped --db would otherwise appear on TAB),
        // upgrade one or wait on a lock; without a catalog read so, the genres are those a new
        // catalog has.
        let names = context.hasPath ? Catalog.namesForCompletion(at: context.catalogPath) : nil
        switch parsed.positionals.first {
        case "genres":
            for code in names?.genres ?? (try? Catalog.standardGenres())?.codes ?? [] { context.stdout.write(code + "\n") }
        case "presets":
            // One a line: a name a sqlite3 user stored with a line break or an escape is left out.
            for name in names?.presets ?? [] where !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                context.stdout.write(name + "\n")
            }
        default: throw CatalogError(.usage, "expected genres or presets")
        }
    }
}
