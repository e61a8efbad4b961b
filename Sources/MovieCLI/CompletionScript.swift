import MovieCatalog
import MovieDomain

/// Shell completion scripts, generated from the command specs (each option's and argument's
/// declared completion), so they never drift from the parser.
///
/// Genre codes and preset names come from the catalog at completion time, through the hidden
/// `moviecat _complete genres|presets` command (which honours `--db` on the line being completed).
public enum CompletionScript {
    static let facetPrefixes = Facet.allCases.map { $0.rawValue + ":" }

    /// The bash code that offers values of a completion kind for the word in `$cur`.
    static func bashReply(_ completion: Completion) -> String? {
        switch completion {
        case .none: return nil
        case .file: return "_moviecat_files"
        case .genres: return "_moviecat_values genres \"$cur\""
        case .presets: return "_moviecat_values presets \"$cur\""
        case .choices(let words): return "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
        case .filterTokens: return "_moviecat_tokens"
        }
    }

    /// Every command and subcommand, keyed as the script finds them (`presets show`).
    static func flatten(_ commands: [CommandSpec]) -> [CommandSpec] {
        commands.flatMap { [$0] + $0.subcommands }
    }

    /// Bash helpers: catalog values (genre codes, preset names) are data, matched by prefix and
    /// quoted, never passed through compgen -W, which would expand $(...) inside them. A word
    /// begun with a quote (`"great d`) is matched without it and answered as the quote needs
    /// (bash closes it); in zsh, `_moviecat_zsh` unquotes the %q form and zsh quotes it again
    /// as the word needs, closing an open quote.
    static let bashHelpers = #"""
    # File names, one a line however they are spelled (a space splits none); bash quotes them and
    # ends a directory with / (-o filenames). zsh's wrapper, told by _moviecat_filenames, leaves
    # them to zsh's own _files (bashcompinit's compgen -f splits a name at an escaped space).
    _moviecat_files() {
        [[ -n "${ZSH_VERSION-}" ]] && { _moviecat_filenames=1; return; }
        local IFS=$'\n'
        COMPREPLY=($(compgen -f -- "$cur"))
        compopt -o filenames 2>/dev/null
    }
    _moviecat_values() {
        local value prefix="$2" quote="" list=""
        case "$prefix" in \"*|\'*) quote="${prefix:0:1}"; prefix="${prefix:1}" ;; esac
        # A comma list of genres (--genre drama,co): its last item is completed.
        if [[ "$1" == genres && "$prefix" == *,* ]]; then list="${prefix%,*},"; prefix="${prefix##*,}"; fi
        [[ -n "${ZSH_VERSION-}" ]] && quote=""
        COMPREPLY=()
        while IFS= read -r value; do
            [[ "$value" == "$prefix"* ]] || continue
            case "$quote" in
                "") COMPREPLY+=("$list$(printf '%q' "$value")") ;;
                "'") COMPREPLY+=("${value//\'/\'\\\'\'}") ;;
                *) value="${value//\\/\\\\}"; value="${value//\"/\\\"}"; value="${value//\$/\\\$}"; COMPREPLY+=("${value//\`/\\\`}") ;;
            esac
        done < <(moviecat "${db[@]}" _complete "$1" 2>/dev/null)
    }
    # The plain words after the command at $1 (its arguments so far): an option's value is not one.
    _moviecat_argc() {
        local j n=0
        for ((j = $1 + 1; j < COMP_CWORD; j++)); do
            case " $valued " in
                *" ${COMP_WORDS[j]} "*) ((j++)); [[ "${COMP_WORDS[j]}" == "=" ]] && ((j++)); continue ;;
            esac
            [[ "${COMP_WORDS[j]}" == -* ]] || ((n++))
        done
        echo "$n"
    }
    # zsh keeps "--opt=value" one word: the replies keep the "--opt=" before the value.
    _moviecat_keep() {
        [[ -n "$1" ]] && COMPREPLY=("${COMPREPLY[@]/#/$1}")
    }
    """#

    /// A bash script; `complete -p moviecat` shows it loaded.
    public static func bash(_ commands: [CommandSpec], global: CommandSpec) -> String {
        var flagCases = "", valueCases = "", positionalCases = ""
        for command in flatten(commands) {
            let flags = (command.options.map(\.name) + ["--help"]).joined(separator: " ")
            let valued = command.options.filter { $0.valueName != nil }.map(\.name).joined(separator: " ")
            flagCases += "        \"\(command.name)\") flags=\"\(flags)\" valued=\"\(valued)\" ;;\n"
            for option in command.options {
                if let reply = bashReply(option.completion) {
                    valueCases += "        \"\(command.name):\(option.name)\") \(reply); _moviecat_keep \"$eq\"; return ;;\n"
                } else if option.valueName != nil {
                    // A value of its own (`--rating 7..`): nothing to offer, not filter tokens.
                    valueCases += "        \"\(command.name):\(option.name)\") COMPREPLY=(); return ;;\n"
                }
            }
            // A first argument of its own (save-preset's NAME) before filter tokens: tokens
            // once it is given.
            let tokensAfterFirst = command.arguments.first?.completion == Completion.none
                && command.arguments.dropFirst().contains { $0.completion == .filterTokens }
            let positional = !command.subcommands.isEmpty
                ? bashReply(.choices(command.subcommands.map(\.word)))
                : tokensAfterFirst ? "(( $(_moviecat_argc \"$i\") >= 1 )) && _moviecat_tokens"
                : command.arguments.first.flatMap { bashReply($0.completion) }
            if let positional { positionalCases += "        \"\(command.name)\") \(positional) ;;\n" }
        }
        let withSubcommands = commands.filter { !$0.subcommands.isEmpty }.map(\.name).joined(separator: "|")
        let names = commands.map(\.name).joined(separator: " ")
        let globalFlags = (global.options.map(\.name) + ["--help"]).joined(separator: " ")
        return """
        # bash completion for moviecat; load with: source <(moviecat completions bash)
        \(bashHelpers)
        # Filter tokens: with ':' in COMP_WORDBREAKS (bash's default) "genre:co" arrives as
        # genre, :, co; rejoin it, and reply with what replaces the last piece.
        _moviecat_tokens() {
            local word="$cur" lead=""
            if [[ "$cur" == ":" ]]; then
                word="$prev:"   # readline replaces only the text after the colon
            elif [[ "$prev" == ":" && $COMP_CWORD -ge 2 ]]; then
                word="${COMP_WORDS[COMP_CWORD-2]}:$cur"
            else
                lead="${cur%%:*}:"
            fi
            case "$word" in
                genre:*|exclude-genre:*)
                    _moviecat_values genres "${word#*:}"
                    COMPREPLY=("${COMPREPLY[@]/#/$lead}") ;;
                *) COMPREPLY=($(compgen -W "\(facetPrefixes.joined(separator: " "))" -- "$cur")) ;;
            esac
            compopt -o nospace 2>/dev/null
        }
        _moviecat() {
            local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
            local cmd="" i db=() flags="" valued=""
            for ((i = 1; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                    --db)
                        # "--db=PATH" arrives as --db, =, PATH; a leading ~ is the home folder.
                        if [[ "${COMP_WORDS[i+1]}" == "=" ]]; then ((i++)); fi
                        db=(--db "${COMP_WORDS[i+1]/#\\~/$HOME}"); ((i++)) ;;
                    --db=*) db=("${COMP_WORDS[i]}") ;;
                    -*) ;;
                    *) cmd="${COMP_WORDS[i]}"; break ;;
                esac
            done
            if [[ -z "$cmd" ]]; then
                # --db PATH; --db=PATH (in bash three words: --db, =, PATH; in zsh one).
                if [[ "$prev" == --db || "$cur" == --db=* || ( "$prev" == "=" && "${COMP_WORDS[COMP_CWORD-2]}" == --db ) ]]; then
                    _moviecat_files
                    return
                fi
                COMPREPLY=($(compgen -W "\(names) \(globalFlags)" -- "$cur"))
                return
            fi
            # A command with subcommands: the next plain word names one (`presets show`).
            case "$cmd" in
                \(withSubcommands.isEmpty ? "__none__" : withSubcommands))
                    local j
                    for ((j = i + 1; j < COMP_CWORD; j++)); do
                        case "${COMP_WORDS[j]}" in -*) ;; *) cmd="$cmd ${COMP_WORDS[j]}"; break ;; esac
                    done ;;
            esac
            # "--opt=value" arrives as --opt, =, value ('=' is in COMP_WORDBREAKS); in zsh, whole.
            local eq=""
            if [[ "$cur" == --*=* ]]; then
                eq="${cur%%=*}="; prev="${cur%%=*}"; cur="${cur#*=}"
            elif [[ "$cur" == "=" ]]; then
                cur=""
            elif [[ "$prev" == "=" && $COMP_CWORD -ge 2 ]]; then
                prev="${COMP_WORDS[COMP_CWORD-2]}"
            fi
            case "$cmd:$prev" in
        \(valueCases)    esac
            case "$cmd" in
        \(flagCases)    esac
            if [[ "$cur" == -* ]]; then
                COMPREPLY=($(compgen -W "$flags" -- "$cur"))
                return
            fi
            case "$cmd" in
        \(positionalCases)        help) COMPREPLY=($(compgen -W "\(names)" -- "$cur")) ;;
            esac
        }
        complete -F _moviecat moviecat

        """
    }

    /// A zsh script: the bash completion function runs as bashcompinit runs one (sh emulation,
    /// bashcompinit's `compgen`), and zsh's own `compadd` adds its replies: a facet prefix
    /// (`genre:`) or an `--opt=` with no suffix, any other reply with the usual space, which inside
    /// an open quote zsh puts after closing it (bashcompinit's `complete` adds every reply alike:
    /// a space after `genre:`, or none anywhere); file names go to zsh's `_files`.
    public static func zsh(_ commands: [CommandSpec], global: CommandSpec) -> String {
        """
        #compdef moviecat
        # zsh completion for moviecat; load with: source <(moviecat completions zsh)
        autoload -U +X compinit && compinit
        autoload -U +X bashcompinit && bashcompinit

        """ + bash(commands, global: global) + #"""
        _moviecat_zsh() {
            # The words as bashcompinit hands them to a bash function (its _bash_complete).
            local -a COMP_WORDS COMPREPLY
            local -x COMP_POINT COMP_CWORD COMP_LINE="$words"
            local _moviecat_filenames=""
            (( COMP_POINT = 1 + ${#${(j. .)words[1,CURRENT-1]}} + $#QIPREFIX + $#IPREFIX + $#PREFIX ))
            (( COMP_CWORD = CURRENT - 1 ))
            COMP_WORDS=( "${words[@]}" )
            _moviecat_sh
            if [[ -n $_moviecat_filenames ]]; then
                [[ $PREFIX == --*=* ]] && compset -P '*='   # --db=PATH, --rejects=PATH
                _files
                return
            fi
            local -a matches=( "${(@Q)COMPREPLY}" )
            local ret=1
            compadd -S '' - ${(M)matches:#*[:=]} && ret=0
            compadd - ${matches:#*[:=]} && ret=0
            return ret
        }
        # Runs the bash function as bashcompinit's compgen -F does: in sh emulation (arrays from 0).
        _moviecat_sh() {
            emulate -L sh
            setopt kshglob noshglob braceexpand nokshautoload
            typeset -h words
            _moviecat
        }
        compdef _moviecat_zsh moviecat

        """#
    }

    /// The fish arguments that offer values of a completion kind.
    static func fishValues(_ completion: Completion) -> String? {
        switch completion {
        case .none: return nil
        case .file: return "-r -F"
        case .genres: return "-x -a '(__moviecat_genre_list)'"
        case .presets: return "-x -a '(__moviecat_values presets)'"
        case .choices(let words): return "-x -a \(quoteFish(words.joined(separator: " ")))"
        case .filterTokens:
            // The catalog is asked once: each code as genre: and as exclude-genre:.
            return "-a \(quoteFish(facetPrefixes.joined(separator: " ") + " (__moviecat_values genres | sed -n -e s/^/genre:/p -e s/^genre:/exclude-genre:/p)"))"
        }
    }

    /// A fish script; `defaults` names each command's default subcommand (`presets`: `list`),
    /// whose options apply before a subcommand is given.
    public static func fish(_ commands: [CommandSpec], global: CommandSpec, defaults: [String: String] = [:]) -> String {
        var text = """
        # fish completion for moviecat; save as ~/.config/fish/completions/moviecat.fish
        function __moviecat_values
            set -l db
            set -l tokens (commandline -opc)
            for i in (seq (count $tokens))
                if test "$tokens[$i]" = --db
                    set db --db $tokens[(math $i + 1)]
                else if string match -q -- '--db=*' $tokens[$i]
                    set db $tokens[$i]
                end
            end
            moviecat $db _complete $argv 2>/dev/null
        end
        # Genre codes after what the word already lists (`drama,co`: drama,comedy ...), as bash's.
        function __moviecat_genre_list
            set -l token (string replace -r -- '^--[^=]*=' '' (commandline -ct))
            set -l head (string replace -r -- '[^,]*$' '' "$token")
            set -q head[1]; or set head ''
            for code in (__moviecat_values genres)
                echo "$head$code"
            end
        end
        # No command on the line yet: only options (and --db's path) so far.
        function __moviecat_no_command
            set -l tokens (commandline -opc)
            set -e tokens[1]
            while set -q tokens[1]
                switch $tokens[1]
                    case --db
                        set -e tokens[1]
                    case '-*'
                    case '*'
                        return 1
                end
                set -e tokens[1]
            end
            return 0
        end
        complete -c moviecat -f

        """
        for option in global.options {
            text += "complete -c moviecat -n __moviecat_no_command -l \(option.name.dropFirst(2))"
                + (fishValues(option.completion).map { " " + $0 } ?? (option.valueName != nil ? " -x" : ""))
                + " -d \(quoteFish(option.help))\n"
        }
        for command in commands {
            text += "complete -c moviecat -n __moviecat_no_command -a \(command.name) -d \(quoteFish(command.abstract))\n"
            let seen = "__fish_seen_subcommand_from \(command.name)"
            text += fishLines(command, when: seen)
            guard !command.subcommands.isEmpty else { continue }
            // A subcommand's word until one is given; then its own options and arguments only.
            let words = command.subcommands.map(\.word).joined(separator: " ")
            let noneGiven = seen + "; and not __fish_seen_subcommand_from " + words
            text += "complete -c moviecat -n \(quoteFish(noneGiven)) -a \(quoteFish(words))\n"
            if let word = defaults[command.name], let standing = command.subcommand(word) {
                text += fishLines(standing, when: noneGiven, arguments: false)
            }
            for subcommand in command.subcommands {
                text += fishLines(subcommand, when: seen + "; and __fish_seen_subcommand_from \(subcommand.word)")
            }
        }
        return text
    }

    /// The fish lines offering `command`'s options (and argument values) when `condition` holds.
    static func fishLines(_ command: CommandSpec, when condition: String, arguments: Bool = true) -> String {
        var text = ""
        for option in command.options {
            text += "complete -c moviecat -n \(quoteFish(condition)) -l \(option.name.dropFirst(2))"
                + (fishValues(option.completion).map { " " + $0 } ?? (option.valueName != nil ? " -x" : ""))
                + " -d \(quoteFish(option.help))\n"
        }
        for argument in arguments ? command.arguments : [] {
            if let values = fishValues(argument.completion) { text += "complete -c moviecat -n \(quoteFish(condition)) \(values)\n" }
        }
        return text
    }

    static func quoteFish(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
