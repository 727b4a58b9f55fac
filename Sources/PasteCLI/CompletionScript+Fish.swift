extension CompletionScript {
    /// completions/paste.fish: helper functions, then one `complete` line per option of the table.
    var fishText: String {
        let lines = optionTable.map(Self.fishLine)
        return """
            # fish completion for paste(1), the pastebin client.
            \(Self.generatedNotice)
            #
            # scripts/install puts this file in share/fish/vendor_completions.d/NAME.fish and renames the
            # command in the `complete -c paste` lines when installing under another name (--name).

            # The names from `paste --list-services`: lines of "M NAME  URL  summary", M a marker.
            function __paste_pastebin_services
                set -l tokens (commandline -opc)
                set -l config
                if set -l index (contains -i -- --config $tokens)
                    set config --config $tokens[(math $index + 1)]
                end
                command $tokens[1] $config --list-services </dev/null 2>/dev/null | string sub -s 3 | string replace -r '\\s.*$' ''
            end

            # The ids from `paste --outbox`: the first word of each line.
            function __paste_pastebin_outbox_ids
                set -l tokens (commandline -opc)
                command $tokens[1] --outbox </dev/null 2>/dev/null | string replace -r ' .*$' ''
            end

            # Whether the word being completed is the outbox's command (`command`), an id after show, send
            # or drop (`id`), or --all after drop (`all`).
            function __paste_pastebin_outbox_wants
                set -l tokens (commandline -opc)
                set -l index (contains -i -- --outbox $tokens)
                or return 1
                set -l after (math (count $tokens) - $index)
                switch $argv[1]
                    case command
                        test $after -eq 0
                    case id
                        test $after -eq 1; and contains -- $tokens[-1] show send drop
                    case all
                        test $after -eq 1; and test $tokens[-1] = drop
                end
            end

            # A positional operand or coreutils option hands the command line to coreutils paste(1).
            function __paste_pastebin_is_coreutils
                for token in (commandline -opc)[2..-1]
                    switch $token
                        case '-d*' '-s*' '-z*' '--delimiters*' --serial --zero-terminated --
                            return 0
                    end
                end
                return 1
            end

            \(lines.joined(separator: "\n"))
            # The words after --outbox are its own: a command, then an entry's id.
            complete -c paste -n '__paste_pastebin_outbox_wants command' -f -a '\(Self.outboxCommands.joined(separator: " "))' -d 'outbox command'
            complete -c paste -n '__paste_pastebin_outbox_wants id' -f -a '(__paste_pastebin_outbox_ids)' -d 'outbox entry'
            complete -c paste -n '__paste_pastebin_outbox_wants all' -f -a '--all' -d 'every entry'

            """
    }

    /// One option's `complete` line: its names, what its value completes to, its help.
    static func fishLine(_ spec: OptionSpec) -> String {
        var words = ["complete -c paste -n 'not __paste_pastebin_is_coreutils'"]
        if let short = spec.short { words.append("-s \(short)") }
        words.append("-l \(spec.long)")
        switch spec.id.completionValue {
        case .none: break
        case .file: words.append("-r -F")
        case .shareXFile: words.append("-r -k -a '(__fish_complete_suffix .sxcu)'")
        case .service: words.append("-x -a '(__paste_pastebin_services)'")
        case .url, .text: words.append("-x")
        case .words(_, let values): words.append("-x -a " + fishQuoted(values.joined(separator: " ")))
        }
        words.append("-d " + fishQuoted(spec.help))
        return words.joined(separator: " ")
    }

    /// `text` inside single quotes in fish: `\` and `'` escaped with a backslash.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
