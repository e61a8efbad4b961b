import MovieCatalog
import MovieDomain
/// Shell completion scripts, generated from the command specs so they never drift from the parser.
///
/// Genre codes and preset names come from the catalog at completion time, through the hidden
/// `moviecat _complete genres|presets` command (which honours `--db` on the line being completed).
public enum CompletionScript {
    /// Fixed value choices of options, by command ("*" for every command).
    static func choices(command: String, option: String) -> [String]? {
        switch option {
        case "--format":
            switch command {
            case "import": return ImportFormat.allCases.map(\.rawValue)
            case "filter": return OutputFormat.allCases.map(\.rawValue)
            default: return ["table", "json"]
            }
        case "--sort": return SortKey.allCases.map(\.rawValue)
        case "--on-duplicate": return DuplicatePolicy.allCases.map(\.rawValue)
        case "--certification": return ["G", "PG", "PG-13", "R", "NC-17"]
        case "--map": return MovieField.allCases.map { $0.name + "=" }
        case "--layout": return ImportLayout.all.map(\.name) + ["none"]
        default: return nil
        }
    }

    static let facetPrefixes = Facet.allCases.map { $0.rawValue + ":" }
    static let fileOptions: Set<String> = ["--db", "--rejects"]

    /// A bash script; `complete -p moviecat` shows it loaded.
    public static func bash(_ commands: [CommandSpec]) -> String {
        var flagCases = ""
        var valueCases = ""
        for command in commands {
            let flags = (command.options.map(\.name) + ["--help"]).joined(separator: " ")
            flagCases += "        \(command.name)) flags=\"\(flags)\" ;;\n"
            for option in command.options {
                if let values = choices(command: command.name, option: option.name) {
                    valueCases += "        \(command.name):\(option.name)) COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                }
            }
        }
        let names = commands.map(\.name).joined(separator: " ")
        return """
        # bash completion for moviecat; load with: source <(moviecat completions bash)
        # Catalog values (genre codes, preset names) are data: matched by prefix and quoted,
        # never passed through compgen -W, which would expand $(...) inside them.
        _moviecat_values() {
            local value
            COMPREPLY=()
            while IFS= read -r value; do
                [[ "$value" == "$2"* ]] && COMPREPLY+=("$(printf '%q' "$value")")
            done < <(moviecat "${db[@]}" _complete "$1" 2>/dev/null)
        }
        _moviecat() {
            local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
            local cmd="" i db=() flags=""
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
                case "$prev" in --db) COMPREPLY=($(compgen -f -- "$cur")); return ;; esac
                COMPREPLY=($(compgen -W "\(names) --db --version --help" -- "$cur"))
                return
            fi
            # "--opt=value" arrives as --opt, =, value ('=' is in COMP_WORDBREAKS).
            if [[ "$cur" == "=" ]]; then
                cur=""
            elif [[ "$prev" == "=" && $COMP_CWORD -ge 2 ]]; then
                prev="${COMP_WORDS[COMP_CWORD-2]}"
            fi
            case "$prev" in
                --db|--rejects) COMPREPLY=($(compgen -f -- "$cur")); return ;;
                --genre|--exclude-genre) _moviecat_values genres "$cur"; return ;;
                --preset) _moviecat_values presets "$cur"; return ;;
            esac
            case "$cmd:$prev" in
        \(valueCases)    esac
            case "$cmd" in
        \(flagCases)    esac
            if [[ "$cur" == -* ]]; then
                COMPREPLY=($(compgen -W "$flags" -- "$cur"))
                return
            fi
            case "$cmd" in
                filter|facets|save-preset)
                    # With ':' in COMP_WORDBREAKS (bash's default) "genre:co" arrives as
                    # genre, :, co; rejoin it, and reply with what replaces the last piece.
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
                    compopt -o nospace 2>/dev/null ;;
                presets)
                    if [[ "$prev" == presets ]]; then
                        COMPREPLY=($(compgen -W "list show delete rename" -- "$cur"))
                    else
                        _moviecat_values presets "$cur"
                    fi ;;
                import) COMPREPLY=($(compgen -f -- "$cur")) ;;
                completions) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
                help) COMPREPLY=($(compgen -W "\(names)" -- "$cur")) ;;
            esac
        }
        complete -F _moviecat moviecat

        """
    }

    /// A zsh script: zsh runs the bash completion through bashcompinit.
    public static func zsh(_ commands: [CommandSpec]) -> String {
        """
        #compdef moviecat
        # zsh completion for moviecat; load with: source <(moviecat completions zsh)
        autoload -U +X compinit && compinit
        autoload -U +X bashcompinit && bashcompinit

        """ + bash(commands)
    }

    /// A fish script.
    public static func fish(_ commands: [CommandSpec]) -> String {
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
        complete -c moviecat -f
        complete -c moviecat -n __fish_use_subcommand -l db -r -d 'The catalog file'
        complete -c moviecat -n __fish_use_subcommand -l version -d 'Show the version'

        """
        for command in commands {
            text += "complete -c moviecat -n __fish_use_subcommand -a \(command.name) -d \(quoteFish(command.abstract))\n"
            let seen = "'__fish_seen_subcommand_from \(command.name)'"
            for option in command.options {
                var line = "complete -c moviecat -n \(seen) -l \(option.name.dropFirst(2))"
                if option.name == "--genre" || option.name == "--exclude-genre" {
                    line += " -x -a '(__moviecat_values genres)'"
                } else if option.name == "--preset" {
                    line += " -x -a '(__moviecat_values presets)'"
                } else if let values = choices(command: command.name, option: option.name) {
                    line += " -x -a \(quoteFish(values.joined(separator: " ")))"
                } else if fileOptions.contains(option.name) {
                    line += " -r -F"
                } else if option.valueName != nil {
                    line += " -x"
                }
                text += line + " -d \(quoteFish(option.help))\n"
            }
            if ["filter", "facets", "save-preset"].contains(command.name) {
                text += "complete -c moviecat -n \(seen) -a \(quoteFish(facetPrefixes.joined(separator: " ")))\n"
                text += "complete -c moviecat -n \(seen) -a '(__moviecat_values genres | sed s/^/genre:/)'\n"
            }
        }
        text += "complete -c moviecat -n '__fish_seen_subcommand_from import' -F\n"
        text += "complete -c moviecat -n '__fish_seen_subcommand_from presets' -a 'list show delete rename (__moviecat_values presets)'\n"
        text += "complete -c moviecat -n '__fish_seen_subcommand_from completions' -a 'bash zsh fish'\n"
        return text
    }

    static func quoteFish(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
