import MovieCatalog
import MovieCLI
import MovieDomain
#if canImport(Glibc)
import Glibc
#endif

/// Entry point: global options, then one command; every error becomes one line and an exit code.
let version = "moviecat 0.1.0"
var arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()
/// The command's context once made, so that every way out closes its catalog.
var openContext: Context?
@MainActor func fail(_ error: CatalogError, spec: CommandSpec? = nil) -> Never {
    openContext?.close()
    let errorOutput = TextOutput.standardError()
    for line in error.details { errorOutput.write(line + "\n") }
    errorOutput.write("moviecat: error: \(error.message)\n")
    if error.kind == .usage, let hint = error.usageHint ?? spec?.usageHint { errorOutput.write(hint + "\n") }
    try? errorOutput.flush()
    exit(error.kind.exitCode)
}

var dbFlag: String?
let globalSpec = Commands.globalSpec
while let first = arguments.first, first.hasPrefix("-") {
    arguments.removeFirst()
    switch first {
    case "--version":
        print(version)
        exit(0)
    case "--help", "-h":
        print(Commands.mainHelp, terminator: "")
        exit(0)
    case "--db":
        guard !arguments.isEmpty else { fail(globalSpec.usageError("missing value for '--db <path>'")) }
        dbFlag = arguments.removeFirst()
        if dbFlag!.isEmpty { fail(globalSpec.usageError("empty value for '--db <path>'")) }
    case _ where first.hasPrefix("--db="):
        dbFlag = String(first.dropFirst(5))
        if dbFlag!.isEmpty { fail(globalSpec.usageError("empty value for '--db <path>'")) }
    default:
        let hint = Suggestion.nearest(to: first, in: ["--db", "--version", "--help"]).map { ". Did you mean '\($0)'?" } ?? ""
        fail(globalSpec.usageError("unknown global option '\(first)'\(hint) (command options go after the command)"))
    }
}

guard let name = arguments.first else {
    print(Commands.mainHelp, terminator: "")
    exit(0)
}
arguments.removeFirst()

guard let command = (Commands.all + [CompletionsCommand.values]).first(where: { $0.spec.name == name }) else {
    let hint = Suggestion.nearest(to: name, in: Commands.all.map(\.spec.name)).map { ". Did you mean '\($0)'?" } ?? ""
    fail(globalSpec.usageError("unknown command '\(name)'\(hint)"))
}

let context = Context(catalogPath: CatalogLocation.resolve(flag: dbFlag, environment: environment),
                      environment: environment)
openContext = context
do {
    let parsed = try command.spec.parse(arguments)
    if parsed.wantsHelp {
        print(command.spec.help, terminator: "")
        exit(0)
    }
    try command.run(parsed, context)
    context.close()
    try context.stdout.flush()
    try context.stderr.flush()
} catch {
    try? context.stdout.flush()
    try? context.stderr.flush()
    fail(CatalogError.from(error, catalogPath: context.catalogPath), spec: command.spec)
}
