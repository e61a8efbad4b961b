import MovieCatalog
import MovieCLI
import MovieDomain
#if canImport(Glibc)
import Glibc
#endif

/// Entry point (the commands live in MovieCLI): parse (global options, command, its arguments) -> check -> open the catalog ->
/// run. Every error becomes one line on stderr and an exit code; a usage error opens nothing.
let version = "moviecat 0.2.0"
let environment = ProcessEnvironment.current()
/// The command's context once made, so that every way out closes its catalog.
nonisolated(unsafe) var openContext: Context?

func fail(_ error: CatalogError, spec: CommandSpec? = nil) -> Never {
    openContext?.close()
    let errorOutput = TextOutput.standardError()
    // Messages quote input (headers, values, file names): escaped, they cannot drive the terminal.
    for line in error.details { errorOutput.write(TextEscaping.visible(line) + "\n") }
    // The error line comes last (SPEC section 5), after what leads to it: the problems, or
    // the command's usage.
    // An empty hint: the error is not the command line's (a stored preset that no longer reads).
    if error.kind == .usage, let hint = error.usageHint ?? spec?.usageHint, !hint.isEmpty { errorOutput.write(hint + "\n") }
    errorOutput.write("moviecat: error: \(TextEscaping.visible(error.message))\n")
    try? errorOutput.flush()
    exit(error.kind.exitCode)
}

func printAndExit(_ text: String) -> Never {
    let out = TextOutput.standardOutput()
    out.write(text)
    do { try out.flush() } catch { fail(CatalogError.from(error)) }
    exit(0)
}

// Past a file size limit (ulimit -f) the kernel would kill the process with SIGXFSZ; ignored,
// writes fail with EFBIG instead, which becomes one error line and exit 74.
signal(SIGXFSZ, SIG_IGN)

// Arguments and the catalog's variable are read as UTF-8: one that is not (a Latin-1 file name)
// would reach the file system changed, a `--db` creating another file than the one named.
// (`HOME` and `XDG_DATA_HOME` that are not UTF-8 are read as unset: a command may not need them.)
/// Exits 64 naming `what` when `raw` is not UTF-8.
func requireUTF8(_ raw: UnsafePointer<CChar>?, _ what: String, _ why: String) {
    guard let raw, String(validatingCString: raw) == nil else { return }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
    fail(CatalogError(.usage, "\(what), \(TextEscaping.visible(bytes: bytes).quotedForMessage), is not UTF-8: \(why)"))
}
for index in 1..<Int(CommandLine.argc) {
    requireUTF8(CommandLine.unsafeArgv[index], "argument \(index)", "moviecat reads names and values as UTF-8 (rename the file, e.g. with convmv)")
}
requireUTF8(getenv("MOVIECAT_DB"), "$MOVIECAT_DB", "moviecat reads paths as UTF-8")

var spec = Commands.global
do {
    let globals = try Commands.global.parse(Array(CommandLine.arguments.dropFirst()), stopAtCommand: true,
                                            unknownNote: " (command options go after the command)")
    if globals[GlobalOptions.version] { printAndExit(version + "\n") }
    guard let name = globals.positionals.first else { printAndExit(Commands.globalHelp) }
    // `moviecat --help presets` is the group's help, as `moviecat presets --help` is.
    let words = Array(globals.positionals.dropFirst()) + (globals.wantsHelp ? ["--help"] : [])
    let (command, arguments) = try Commands.named(name).resolve(words)
    if globals.wantsHelp { printAndExit(command.spec.help) }   // `moviecat --help filter`
    spec = command.spec
    let parsed = try command.spec.parse(arguments, globalOptions: Commands.global.options.map(\.name))
    if parsed.wantsHelp { printAndExit(command.spec.help) }
    let context = Context(catalogPath: CatalogLocation.resolve(flag: globals[GlobalOptions.db], environment: environment),
                          environment: environment)
    openContext = context
    do {
        try command.run(parsed, context)
        context.close()
        try context.stdout.flush()
        // What is left for stderr comes after the work is done (an import's report, after its
        // commit): a stderr that cannot take it (full, closed, a reader gone) undoes nothing, so
        // the command still succeeded; exit 74 or SIGPIPE would say the import failed.
        signal(SIGPIPE, SIG_IGN)
        try? context.stderr.flush()
    } catch {
        try? context.stdout.flush()
        try? context.stderr.flush()
        fail(CatalogError.from(error, catalogPath: context.catalogPath), spec: spec)
    }
} catch {
    fail(CatalogError.from(error), spec: spec)
}
