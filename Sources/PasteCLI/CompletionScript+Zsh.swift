extension CompletionScript {
    /// completions/_paste_pastebin: an autoloaded function for `#compdef`, one `_arguments` spec
    /// per option of the table. Its own file name, not `_paste`, which is zsh's completion of
    /// coreutils paste: a file of that name would hide zsh's own wherever it came first.
    var zshText: String {
        let specs = optionTable.map { "  " + Self.zshSpec($0) + " \\" }
        return """
            #compdef paste
            # zsh completion for paste(1), the pastebin client.
            \(Self.generatedNotice)
            #
            # scripts/install puts this file in share/zsh/site-functions/_NAME_pastebin and renames the
            # command on the #compdef line when installing under another name (--name); its file name is
            # its own, so zsh's _paste (for coreutils paste) stays. compinit keeps the first #compdef for
            # a command it meets in $fpath, and this folder comes before zsh's own (/usr/local and the
            # packages' folders do; for another prefix, scripts/install prints the fpath line to add).
            # After a positional operand or a coreutils option (-d, -s, -z and long forms), which hand
            # the command line to coreutils paste(1), it completes files.

            # The names from `paste --list-services`: lines of "M NAME  URL  summary", M a marker.
            _paste_pastebin_services() {
              local -a names config
              local index=${words[(I)--config]}
              (( index )) && config=(--config ${(Q)words[index+1]})
              names=(${${(f)"$(command ${words[1]} $config --list-services </dev/null 2>/dev/null)"}[@]#??})
              names=(${names%%[[:space:]]*})
              _wanted services expl 'service' compadd -a names
            }

            # The ids from `paste --outbox`: the first word of each line.
            _paste_pastebin_outbox_ids() {
              local -a ids
              ids=(${${(f)"$(command ${words[1]} --outbox </dev/null 2>/dev/null)"}%% *})
              _wanted ids expl 'outbox entry' compadd -a ids
            }

            # The words after --outbox are its own: a command, then an entry's id.
            local outbox=${words[(I)--outbox]}
            if (( outbox && CURRENT == outbox + 1 )) && [[ $PREFIX != -* ]]; then
              _wanted commands expl 'outbox command' compadd \(Self.outboxCommands.joined(separator: " "))
              return
            elif (( outbox && CURRENT == outbox + 2 )); then
              case ${words[outbox+1]} in
                (show|send) _paste_pastebin_outbox_ids; return ;;
                (drop) _alternative 'ids:outbox entry:_paste_pastebin_outbox_ids' 'all:all:(--all)'; return ;;
              esac
            fi

            local word
            for word in ${words[2,CURRENT-1]}; do
              case $word in
                (-d*|-s*|-z*|--delimiters*|--serial|--zero-terminated|--)
                  _files
                  return ;;
              esac
            done

            _arguments -s -S \\
            \(specs.joined(separator: "\n"))
              '*:file (coreutils paste):_files'

            """
    }

    /// One option's `_arguments` spec: `'(exclusions)'{-S+,--service=}'[help]:label:action'`,
    /// or `'(exclusions)--url=[help]:label:action'` for an option with no short letter.
    static func zshSpec(_ spec: OptionSpec) -> String {
        let id = spec.id
        let takesValue = id.completionValue != .none
        var exclusions = ""
        if id.repeats {
            exclusions = "*"
        } else if let excluded = id.excludes {
            if !excluded.isEmpty {
                exclusions = "(" + excluded.map(Self.spec).flatMap(spellings).joined(separator: " ") + ")"
            }
        } else {
            exclusions = "(- *)"
        }
        let description =
            "[" + spec.help.replacing("[", with: #"\["#).replacing("]", with: #"\]"#) + "]"
            + zshAction(id.completionValue)
        if let short = spec.short {
            let names = takesValue ? "{-\(short)+,--\(spec.long)=}" : "{-\(short),--\(spec.long)}"
            return (exclusions.isEmpty ? "" : singleQuoted(exclusions)) + names + singleQuoted(description)
        }
        return singleQuoted(exclusions + "--" + spec.long + (takesValue ? "=" : "") + description)
    }

    /// What follows an option's description in its `_arguments` spec: `:label:action`.
    static func zshAction(_ value: OptionID.CompletionValue) -> String {
        switch value {
        case .none: ""
        case .file(let label): ":\(label):_files"
        case .shareXFile: #":ShareX uploader:_files -g "*.(sxcu|SXCU)""#
        case .service: ":service:_paste_pastebin_services"
        case .url: ":URL:_urls"
        case .words(let label, let words): ":\(label):(\(words.joined(separator: " ")))"
        case .text(let label): ":\(label)"
        }
    }
}
