import Foundation
import Testing

/// `completions bash|zsh|fish`: scripts that load, and completion of flags, facet tokens, genres and presets.
@Suite struct CompletionTests {
    static let bash = URL(fileURLWithPath: "/bin/bash")
    /// PATH with the built binary's folder first, so scripts can call `moviecat _complete ...`.
    static var environment: [String: String] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return ["PATH": moviecatBinary.deletingLastPathComponent().path + ":" + path]
    }

    /// Loads the bash script, sets COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT as bash would for `line`
    /// split into `words` (the last is the word being completed), calls `_moviecat`, returns COMPREPLY.
    static func complete(_ words: [String], line: String? = nil) throws -> [String] {
        let script = """
            source <(moviecat completions bash) || exit 3
            COMP_WORDS=("$@")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE=\(shellQuote(line ?? words.joined(separator: " ")))
            COMP_POINT=${#COMP_LINE}
            _moviecat
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try runProcess(bash, ["-c", script, "bash"] + words, environment: environment)
        try #require(run.status == 0, "\(words): \(run)")
        return run.lines
    }

    static func shellQuote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The demo catalog with presets and a genre of its own.
    static func catalog() throws -> Sandbox {
        let box = try Sandbox()
        try box.seed()
        for args in [["save-preset", "classics", "--year", "..1980"], ["save-preset", "comfort", "--genre", "comedy"],
                     ["add", "--title", "Funny Ha Ha", "--genre", "mumblecore"]] {
            let run = try box.moviecat(args)
            try #require(run.status == 0, "\(run)")
        }
        return box
    }

    @Test("the bash script loads and registers _moviecat")
    func bashLoads() throws {
        let run = try runProcess(Self.bash, ["-c", "source <(moviecat completions bash) && complete -p moviecat"],
                                 environment: Self.environment)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("complete -F _moviecat moviecat"), "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        let syntax = try runProcess(Self.bash, ["-n", "-c", "$(moviecat completions bash)"], environment: Self.environment)
        #expect(syntax.status == 0, "\(syntax)")
    }

    struct Case: Sendable, CustomStringConvertible {
        /// The words on the line; `DB` stands for the sandbox catalog. The last word is being completed.
        let words: [String]
        /// What COMPREPLY must contain.
        let offers: [String]
        /// What it must not contain.
        var never: [String] = []
        var description: String { words.joined(separator: " ") + "<TAB>" }
    }

    static let cases: [Case] = [
        Case(words: ["moviecat", "filter", "--ge"], offers: ["--genre"]),
        Case(words: ["moviecat", "fil"], offers: ["filter"]),
        Case(words: ["moviecat", ""], offers: ["init", "import", "filter", "facets", "save-preset", "presets", "add",
                                               "remove", "info", "completions"]),
        Case(words: ["moviecat", "facets", "--"], offers: ["--genre", "--exclude-genre", "--preset", "--format"]),
        Case(words: ["moviecat", "--db", "DB", "filter", "--genre", "d"], offers: ["drama", "documentary"],
             never: ["action", "comedy"]),
        Case(words: ["moviecat", "--db", "DB", "facets", "--exclude-genre", "mu"], offers: ["mumblecore", "musical"]),
        Case(words: ["moviecat", "--db=DB", "filter", "--genre", "mum"], offers: ["mumblecore"]),
        Case(words: ["moviecat", "--db", "DB", "filter", "--preset", ""], offers: ["classics", "comfort"]),
        Case(words: ["moviecat", "--db", "DB", "filter", "--preset", "cl"], offers: ["classics"], never: ["comfort"]),
        Case(words: ["moviecat", "--db", "DB", "presets", "show", "com"], offers: ["comfort"]),
        Case(words: ["moviecat", "--db", "DB", "filter", "genre:co"], offers: ["genre:comedy"], never: ["genre:drama"]),
        Case(words: ["moviecat", "--db", "DB", "filter", "exclude-genre:dr"], offers: ["exclude-genre:drama"]),
        Case(words: ["moviecat", "--db", "DB", "filter", "ra"], offers: ["rating:"]),
        Case(words: ["moviecat", "filter", "--format", "js"], offers: ["json", "jsonl"]),
        Case(words: ["moviecat", "completions", ""], offers: ["bash", "zsh", "fish"]),
        Case(words: ["moviecat", "import", "x.tsv", "--layout", "imdb"], offers: ["imdb-basics", "imdb-ratings", "imdb-list"]),
        Case(words: ["moviecat", "filter", "--sort", "v"], offers: ["votes"]),
        Case(words: ["moviecat", "filter", "--vo"], offers: ["--votes"]),
        Case(words: ["moviecat", "--db", "DB", "filter", "im"], offers: ["imdb:"]),
        Case(words: ["moviecat", "--db", "DB", "filter", "--genre", "drama,co"], offers: ["drama,comedy"], never: ["comedy"]),
        Case(words: ["moviecat", "--db", "DB", "save-preset", "mine", "ge"], offers: ["genre:"]),
        Case(words: ["moviecat", "--db", "DB", "save-preset", "--genre", "drama", "ge"], offers: [], never: ["genre:"]),
        Case(words: ["moviecat", "--db", "DB", "save-preset", "--genre", "drama", "mine", "--rating", "7", "ra"], offers: ["rating:"]),
    ]

    @Test("bash completes commands, flags, facet tokens, genre codes and preset names", arguments: cases)
    func bashCompletes(_ c: Case) throws {
        let box = try Self.catalog()
        let words = c.words.map { $0.replacingOccurrences(of: "DB", with: box.db) }
        let offered = try Self.complete(words)
        for value in c.offers { #expect(offered.contains(value), "\(c) offered \(offered)") }
        for value in c.never { #expect(!offered.contains(value), "\(c) offered \(offered)") }
        let current = words.last!
        #expect(offered.allSatisfy { $0.hasPrefix(current) }, "\(c) offered \(offered)")
    }

    @Test("genre codes come from the catalog at completion time")
    func genresFromCatalog() throws {
        let box = try Self.catalog()
        let offered = try Self.complete(["moviecat", "--db", box.db, "filter", "--genre", ""])
        let codes = try box.sql("SELECT code FROM genres ORDER BY code")
        #expect(Set(offered) == Set(codes), "offered \(offered)")
    }

    /// In a real shell `:` is in COMP_WORDBREAKS, so `genre:co` reaches the function as `genre` `:` `co`;
    /// bash then replaces only `co`, so the reply must be `comedy` (as bash-completion's
    /// `__ltrim_colon_completions` arranges), not `genre:comedy`.
    @Test("genre:co completes when bash splits the word at the colon (default COMP_WORDBREAKS)")
    func colonWordBreak() throws {
        let box = try Self.catalog()
        let line = "moviecat --db \(box.db) filter genre:co"
        let offered = try Self.complete(["moviecat", "--db", box.db, "filter", "genre", ":", "co"], line: line)
        #expect(offered.contains("comedy"), "offered \(offered)")
        #expect(!offered.contains("genre:comedy"), "bash would insert genre:genre:comedy: \(offered)")
    }

    @Test("zsh and fish scripts are printed", arguments: ["zsh", "fish"])
    func otherShells(_ shell: String) throws {
        let box = try Sandbox()
        let run = try box.moviecat("completions", shell)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("moviecat") && run.lines.count > 5, "\(run)")
        // Genre codes and preset names are asked of the catalog when completing.
        #expect(run.stdout.contains("_complete") && run.stdout.contains("genres") && run.stdout.contains("presets"), "\(run)")
        if shell == "fish" {
            #expect(run.stdout.contains("complete -c moviecat"), "\(run)")
            #expect(run.stdout.contains("-l genre") && run.stdout.contains("-l preset"), "\(run)")
        } else {
            #expect(run.stdout.contains("compdef") || run.stdout.contains("compinit"), "\(run)")
            #expect(run.stdout.contains("--genre") && run.stdout.contains("--preset"), "\(run)")
        }
        // Loaded by the shell itself (.ci/run installs both).
        let shellPath = "/usr/bin/\(shell)"
        try #require(FileManager.default.isExecutableFile(atPath: shellPath), "\(shell) is not installed (.ci/run installs it)")
        let path = try box.write("moviecat.\(shell)", run.stdout)
        let loaded = try runProcess(URL(fileURLWithPath: shellPath), ["-c", "source \(path)"], environment: Self.environment)
        #expect(loaded.status == 0 && loaded.stderr.isEmpty, "\(loaded)")
    }

    @Test("an unknown or missing shell is a usage error", arguments: [["tcsh"], [], ["bash", "zsh"]])
    func unknownShell(_ args: [String]) throws {
        let box = try Sandbox()
        let run = try box.moviecat(["completions"] + args)
        #expect(run.status == 64, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.contains("moviecat: error:"), "\(run)")
        if let shell = args.first, args.count == 1 { #expect(run.stderr.contains(shell), "\(run)") }
    }
}

/// Catalog values are data: completing them must never run what they contain.
@Suite struct CompletionSafetyTests {
    @Test("a preset name holding $(...) is offered quoted and never executed")
    func hostilePresetName() throws {
        let box = try Sandbox()
        try box.seed()
        // Short enough for a preset name (64 characters).
        let marker = "/tmp/mc-pwned-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let name = "$(touch \(marker))"
        #expect(try box.moviecat("save-preset", name, "--genre", "drama").status == 0)
        #expect(try box.moviecat("save-preset", "great dramas", "--genre", "drama").status == 0)
        let offered = try CompletionTests.complete(["moviecat", "--db", box.db, "filter", "--preset", ""])
        #expect(!FileManager.default.fileExists(atPath: marker), "completion ran a preset name")
        #expect(offered.contains("great\\ dramas"), "\(offered)")
        #expect(offered.contains { $0.hasPrefix("\\$\\(touch") }, "\(offered)")
    }

    @Test("--db=PATH on the line is honoured, and completing never creates a catalog (offering a new one's genres)")
    func dbForms() throws {
        let box = try Sandbox()
        try box.seed()
        #expect(try box.moviecat("save-preset", "mine", "--genre", "drama").status == 0)
        // bash splits "--db=PATH" at '=' (COMP_WORDBREAKS).
        let offered = try CompletionTests.complete(["moviecat", "--db", "=", box.db, "filter", "--preset", "m"])
        #expect(offered == ["mine"], "\(offered)")
        let missing = box.dir.appendingPathComponent("typo.sqlite").path
        // Without a catalog, the genres a new one would have.
        let standard = try CompletionTests.complete(["moviecat", "--db", missing, "filter", "--genre", "d"])
        #expect(standard == ["documentary", "drama"], "\(standard)")
        #expect(try CompletionTests.complete(["moviecat", "--db", missing, "filter", "--preset", ""]).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("completing neither upgrades an older catalog nor waits out another process's lock")
    func neverWaitsOrUpgrades() throws {
        let box = try Sandbox()
        // A version-2 catalog, as the sqlite3 shell makes it: its names are read as they are.
        try box.sqlite3(try IdentityTests.versionTwoDemo() + "INSERT INTO presets (id, name) VALUES (1, 'Old one');\n")
        let old = try box.moviecat("_complete", "presets")
        #expect(old.status == 0 && old.stdout == "Old one\n" && old.stderr.isEmpty, "\(old)")
        #expect(try box.moviecat("_complete", "genres").lines.contains("drama"))
        #expect(try box.sql("PRAGMA user_version") == ["2"], "TAB upgraded the catalog")
        // Nor does it write anything: a rollback journal stays one, an empty file stays empty.
        try box.sqlite3("PRAGMA journal_mode = DELETE;\n")
        #expect(try box.moviecat("_complete", "presets").stdout == "Old one\n")
        #expect(try box.sql("PRAGMA journal_mode") == ["delete"])
        let empty = try box.write("empty.sqlite", bytes: [])
        #expect(try runProcess(moviecatBinary, ["--db", empty, "_complete", "genres"]).lines.contains("drama"))
        #expect((try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int) == 0)
        // Another process holds the catalog locked: the new catalog's genres, at once.
        let run = try ResourceLimitTests.shell("""
            python3 -c '
            import sqlite3, time, pathlib
            con = sqlite3.connect("catalog.sqlite", isolation_level=None)
            con.execute("PRAGMA locking_mode = EXCLUSIVE"); con.execute("BEGIN EXCLUSIVE"); con.execute("DELETE FROM presets")
            pathlib.Path("locked").touch(); time.sleep(60)' > /dev/null 2>&1 &
            holder=$!
            while [ ! -e locked ]; do sleep 0.05; done
            start=$(date +%s%N); moviecat --db catalog.sqlite _complete genres; status=$?; end=$(date +%s%N)
            kill -9 $holder; echo "ms $(( (end - start) / 1000000 ))"; exit $status
            """, in: box)
        let elapsed = run.lines.last.flatMap { Int($0.dropFirst(3)) } ?? Int.max
        #expect(run.status == 0 && run.lines.contains("drama") && elapsed < 5_000, "\(run)")
    }

    // fish offered preset names beside the actions, and the actions again after `presets show`.
    @Test("fish offers the presets actions until one is given, then that action's names and options")
    func fishPresets() throws {
        let box = try CompletionTests.catalog()
        let script = try box.moviecat("completions", "fish")
        let seen = "__fish_seen_subcommand_from presets"
        #expect(script.lines.contains("complete -c moviecat -n '\(seen); and not __fish_seen_subcommand_from list show delete rename' -a 'list show delete rename'"), "\(script)")
        #expect(script.lines.contains("complete -c moviecat -n '\(seen); and __fish_seen_subcommand_from show' -x -a '(__moviecat_values presets)'"), "\(script)")
        #expect(!script.lines.contains { $0.hasPrefix("complete -c moviecat -n '\(seen)' ") }, "nothing is offered on presets alone: \(script)")
        // `presets --format json` is `presets list --format json`: list's options before any action.
        #expect(script.lines.contains { $0.hasPrefix("complete -c moviecat -n '\(seen); and not __fish_seen_subcommand_from list show delete rename' -l format") }, "\(script)")
        // Asked of fish itself (.ci/run installs it).
        let offers = try Self.fishOffers(box)
        #expect(try offers("moviecat --db \(box.db) presets ") == ["delete", "list", "rename", "show"])
        #expect(try offers("moviecat --db \(box.db) presets --") == ["--format"])
        let names = try offers("moviecat --db \(box.db) presets show ")
        #expect(!names.isEmpty && !names.contains("list"), "\(names)")
    }

    /// What fish offers for a line, with the script loaded (fish's `complete -C`).
    static func fishOffers(_ box: Sandbox) throws -> (String) throws -> [String] {
        let fish = URL(fileURLWithPath: "/usr/bin/fish")
        try #require(FileManager.default.isExecutableFile(atPath: fish.path), "fish is not installed (.ci/run installs it)")
        let path = try box.write("moviecat.fish", box.moviecat("completions", "fish").stdout)
        return { line in
            let run = try runProcess(fish, ["--no-config", "-c", "source \(path); complete -C \(CompletionTests.shellQuote(line))"], environment: CompletionTests.environment)
            try #require(run.status == 0, "\(run)")
            return run.lines.map { String($0.split(separator: "\t").first ?? "") }
        }
    }

    @Test("fish: commands after --db PATH, and exclude-genre: values")
    func fishAfterDB() throws {
        let box = try CompletionTests.catalog()
        let offers = try Self.fishOffers(box)
        #expect(try offers("moviecat --db \(box.db) fil") == ["filter"])
        #expect(try offers("moviecat --db=\(box.db) fil") == ["filter"])
        #expect(try offers("moviecat --db \(box.db) filter exclude-genre:dr") == ["exclude-genre:drama"])
    }

    @Test("fish completes the last genre of a comma list, as bash and zsh do", arguments: ["--genre ", "--genre=", "--exclude-genre "])
    func fishGenreLists(_ option: String) throws {
        let box = try CompletionTests.catalog()
        let offers = try Self.fishOffers(box)
        let prefix = option.hasSuffix("=") ? option : ""
        #expect(try offers("moviecat --db \(box.db) filter \(option)drama,co") == [prefix + "drama,comedy"])
        #expect(try offers("moviecat --db \(box.db) filter \(option)dr") == [prefix + "drama"])
    }

    @Test("an option's own value is offered nothing, not filter tokens", arguments: ["--rating", "--year", "--title", "--limit"])
    func ownValues(_ option: String) throws {
        #expect(try CompletionTests.complete(["moviecat", "filter", option, ""]).isEmpty)
    }

    @Test("a preset name begun with a quote completes as that quote needs")
    func quotedNames() throws {
        let box = try CompletionTests.catalog()
        for name in ["great dramas", "it's mine"] { #expect(try box.moviecat("save-preset", name, "genre:drama").status == 0) }
        #expect(try CompletionTests.complete(["moviecat", "--db", box.db, "filter", "--preset", "\"gre"]) == ["great dramas"])
        #expect(try CompletionTests.complete(["moviecat", "--db", box.db, "presets", "show", "'it"]) == ["it'\\''s mine"])
        #expect(try CompletionTests.complete(["moviecat", "--db", box.db, "presets", "show", "it"]) == ["it\\'s\\ mine"])
        // A name a sqlite3 user stored with a line break would read as two: it is left out.
        _ = try box.sqlite3("INSERT INTO presets (name) VALUES ('two' || char(10) || 'lines');")
        let names = try box.moviecat("_complete", "presets").lines
        #expect(names.contains("great dramas") && !names.contains("two") && !names.contains("lines"), "\(names)")
    }

    /// Types `keys` into an interactive `shell` on a terminal (`script`), the script loaded first,
    /// and returns what the terminal showed.
    static func typed(_ shell: String, _ box: Sandbox, _ keys: String) throws -> String {
        let path = "/usr/bin/\(shell)"
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(shell) is not installed (.ci/run installs it)")
        let script = try box.write("moviecat.\(shell)", box.moviecat("completions", shell).stdout)
        let start = shell == "zsh" ? "zsh -f -i" : "bash --norc --noprofile -i"
        let input = "source \(script)\n" + keys.replacingOccurrences(of: "DB", with: box.db) + "exit\n"
        // A shell left waiting (say, inside an unclosed quote) would never read `exit`: a minute at most.
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"), ["60", "/usr/bin/script", "-q", "-c", start, "/dev/null"],
                                 stdin: Data(input.utf8),
                                 environment: CompletionTests.environment.merging(["TERM": "dumb"]) { $1 }, directory: box.dir)
        try #require(run.status == 0, "\(run)")
        return run.stdout.replacingOccurrences(of: "\r", with: "")
    }

    // zsh completed inside an open quote but left it open: Enter then asked for the rest of the line.
    @Test("in a real terminal, TAB closes the quote a preset name was begun with", arguments: ["bash", "zsh"])
    func quotesClosed(_ shell: String) throws {
        let box = try CompletionTests.catalog()
        for args in [["save-preset", "great dramas", "--genre", "drama"], ["save-preset", "it's comedy", "--genre", "comedy"]] {
            let run = try box.moviecat(args)
            try #require(run.status == 0, "\(run)")
        }
        let comedies = try box.moviecat("filter", "--count", "--genre", "comedy").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = try Self.typed(shell, box, "moviecat --db DB filter --count --preset \"great d\t\nmoviecat --db DB filter --count --preset 'it\t\n")
        let lines = shown.split(separator: "\n").map(String.init)
        #expect(lines.contains("8") && lines.contains(comedies), "\(shown)")
        #expect(!shown.contains("quote>") && !shown.contains("error"), "\(shown)")
    }

    // A file name with a space came back split in two (bash) or cut at the space (zsh), and a
    // directory took a space instead of its slash.
    @Test("in a real terminal, TAB completes file names with spaces, a directory with its slash", arguments: ["bash", "zsh"])
    func fileNames(_ shell: String) throws {
        let box = try CompletionTests.catalog()
        try FileManager.default.createDirectory(at: box.dir.appendingPathComponent("my lists"), withIntermediateDirectories: true)
        _ = try box.write("my lists/IMDb ratings.csv", "title,year\nSpaced Out,2001\n")
        try FileManager.default.copyItem(atPath: box.db, toPath: box.dir.appendingPathComponent("my lists/the catalog.sqlite").path)
        let shown = try Self.typed(shell, box, "moviecat --db DB import my\tIM\t\nmoviecat --db=my\tthe\t filter --count genre:drama\n"
                                   + "echo \"left:${valued-none}:${_moviecat_filenames-none}\"\n")
        #expect(try box.moviecat("filter", "title:spaced out", "--count").stdout == "1\n", "the file was found and imported")
        #expect(shown.split(separator: "\n").contains("8"), "--db=PATH completed: \(shown)")
        #expect(shown.split(separator: "\n").contains("left:none:none"), "completing leaves no variable set in the shell: \(shown)")
    }

    // zsh added a space after `genre:` (bashcompinit knows no compopt) and missed `--opt=value`.
    @Test("in a real terminal, TAB completes a facet prefix, a command and an --opt=value", arguments: ["bash", "zsh"])
    func realShells(_ shell: String) throws {
        let box = try CompletionTests.catalog()
        let shown = try Self.typed(shell, box, "moviecat --db DB filter --count gen\tdrama\nmoviecat --db DB fil\t--count --genre=dr\t\n")
        let counts = shown.split(separator: "\n").filter { $0 == "8" }
        #expect(counts.count == 2, "\(shown)")
        #expect(!shown.contains("error"), "\(shown)")
    }
}
