extension CompletionScript {
    /// completions/paste.bash: one function for `complete -F`, with the option lists and the
    /// value cases from the table.
    var bashText: String {
        let longs = optionTable.map { "--" + $0.long }
        let shorts = optionTable.compactMap { $0.short.map { "-\($0)" } }
        /// The `case $prev in` patterns of the options whose value is `value`.
        func pattern(_ matches: (OptionID.CompletionValue) -> Bool) -> String {
            optionTable.filter { matches($0.id.completionValue) }.flatMap(Self.spellings).joined(separator: " | ")
        }
        var valueCases: [String] = []
        let files = pattern { if case .file = $0 { true } else { false } }
        valueCases.append(
            """
                    \(files))
                        compopt -o filenames 2>/dev/null
                        COMPREPLY=($(compgen -f -- "$cur"))
                        return 0 ;;
            """)
        valueCases.append(
            """
                    \(pattern { $0 == .shareXFile }))
                        # ShareX custom uploaders, and folders to find them in.
                        compopt -o filenames 2>/dev/null
                        COMPREPLY=($(compgen -f -X '!*.[sS][xX][cC][uU]' -- "$cur") $(compgen -d -- "$cur"))
                        return 0 ;;
            """)
        valueCases.append(
            """
                    \(pattern { $0 == .service }))
                        COMPREPLY=($(compgen -W "$(_paste_pastebin_services "$command" "$config")" -- "$cur"))
                        return 0 ;;
            """)
        for spec in optionTable {
            guard case .words(_, let words) = spec.id.completionValue else { continue }
            valueCases.append(
                """
                        \(Self.spellings(spec).joined(separator: " | ")))
                            COMPREPLY=($(compgen -W "\(words.joined(separator: " "))" -- "$cur"))
                            return 0 ;;
                """)
        }
        let free = pattern {
            switch $0 {
            case .url, .text: true
            default: false
            }
        }
        valueCases.append(
            """
                    \(free))
                        return 0 ;;
            """)
        return """
            # bash completion for paste(1), the pastebin client.
            \(Self.generatedNotice)
            #
            # scripts/install puts this file in share/bash-completion/completions/NAME and renames the
            # command on the `complete` line at the end when installing under another name (--name).
            #
            # Any positional operand or coreutils option (-d, -s, -z and long forms) hands the command line
            # to coreutils paste(1), so after one of those only file names are completed.

            _paste_pastebin_services() {
                # The names from `paste --list-services`: lines of "M NAME  URL  summary", M a marker.
                local command=$1 config=$2
                local -a args=(--list-services)
                [[ -n $config ]] && args=(--config "$config" --list-services)
                local line
                while IFS= read -r line; do
                    line=${line:2}
                    printf '%s\\n' "${line%%[[:space:]]*}"
                done < <("$command" "${args[@]}" </dev/null 2>/dev/null)
            }

            _paste_pastebin_outbox_ids() {
                # The ids from `paste --outbox`: the first word of each line.
                local line
                while IFS= read -r line; do
                    printf '%s\\n' "${line%% *}"
                done < <("$1" --outbox </dev/null 2>/dev/null)
            }

            _paste_pastebin() {
                local cur=${COMP_WORDS[COMP_CWORD]}
                local prev=""
                ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
                # `--config=FI<tab>`: bash splits at '=' (COMP_WORDBREAKS), so the word before is '='.
                if [[ $cur == "=" ]]; then
                    prev=${COMP_WORDS[COMP_CWORD - 1]}
                    cur=""
                elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
                    prev=${COMP_WORDS[COMP_CWORD - 2]}
                fi

                local long_options="\(Self.wrapped(longs, indent: 8))"
                local short_options="\(shorts.joined(separator: " "))"

                local command=${COMP_WORDS[0]} config="" word i outbox=0
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    case $word in
                        --config) config=${COMP_WORDS[i + 1]} ;;
                        --config=*) config=${word#--config=} ;;
                        --outbox) outbox=$i ;;
                        -d* | -s* | -z* | --delimiters* | --serial | --zero-terminated | --)
                            # coreutils paste(1) takes over: complete files.
                            COMPREPLY=($(compgen -f -- "$cur"))
                            return 0 ;;
                    esac
                done

                # The words after --outbox are its own: a command, then an entry's id.
                if ((outbox > 0 && COMP_CWORD == outbox + 1)) && [[ $cur != -* ]]; then
                    COMPREPLY=($(compgen -W "\(Self.outboxCommands.joined(separator: " "))" -- "$cur"))
                    return 0
                elif ((outbox > 0 && COMP_CWORD == outbox + 2)); then
                    case $prev in
                        show | send | drop)
                            local ids
                            ids=$(_paste_pastebin_outbox_ids "$command")
                            [[ $prev == drop ]] && ids+=" --all"
                            COMPREPLY=($(compgen -W "$ids" -- "$cur"))
                            return 0 ;;
                    esac
                fi

                case $prev in
            \(valueCases.joined(separator: "\n"))
                esac

                case $cur in
                    --*=*) return 0 ;;
                    --*) COMPREPLY=($(compgen -W "$long_options" -- "$cur")) ;;
                    -*) COMPREPLY=($(compgen -W "$short_options $long_options" -- "$cur")) ;;
                    *)
                        # An operand: coreutils paste(1) territory (it merges the lines of files).
                        compopt -o filenames 2>/dev/null
                        COMPREPLY=($(compgen -f -- "$cur")) ;;
                esac
                return 0
            }

            complete -F _paste_pastebin paste

            """
    }

    /// `words` joined by spaces into lines of at most 100 columns, the lines after the first
    /// indented by `indent` spaces.
    static func wrapped(_ words: [String], indent: Int, width: Int = 100) -> String {
        var lines: [String] = []
        var line = ""
        for word in words {
            if !line.isEmpty, line.count + 1 + word.count > width - indent {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}
