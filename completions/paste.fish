# fish completion for paste(1), the pastebin client.
#
# scripts/install puts this file in share/fish/vendor_completions.d/NAME.fish and renames the
# command in the `complete -c paste` lines when installing under another name (--name). The
# options mirror Sources/PasteCLI/OptionTable.swift; CompletionTests checks them.

# The names from `paste --list-services`: lines of "M NAME  URL  summary", M a marker.
function __paste_pastebin_services
    set -l tokens (commandline -opc)
    set -l config
    if set -l index (contains -i -- --config $tokens)
        set config --config $tokens[(math $index + 1)]
    end
    command $tokens[1] $config --list-services </dev/null 2>/dev/null | string sub -s 3 | string replace -r '\s.*$' ''
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

complete -c paste -n 'not __paste_pastebin_is_coreutils' -s f -l file -r -F -d 'upload FILE (repeat for several; one paste each)'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s 0 -l null -d 'with -f -: names on stdin end with NUL'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s c -l clipboard -d 'read the CLIPBOARD selection even when stdin is a pipe'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s P -l primary -d 'read the PRIMARY selection (the mouse selection)'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l image -d 'send the clipboard image, not its text'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s S -l service -x -a '(__paste_pastebin_services)' -d 'paste to service NAME'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l url -x -d 'paste to a pastie-style endpoint at URL'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l config -r -F -d 'read FILE instead of ~/.config/paste/config'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l init-config -d 'write a commented starter config'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l list-services -d 'list built-in and configured services'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l import-sxcu -r -k -a '(__fish_complete_suffix .sxcu)' -d 'print a ShareX custom uploader as a [service] section'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s t -l title -x -d 'give the paste a title'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s l -l lang -x -d 'highlight as LANG (e.g. python, diff)'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s p -l private -d 'make the paste unlisted; fails if the service cannot'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s e -l expiry -x -a '10m 1h 1d 7d 30d never' -d 'delete the paste after DURATION'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l burn -d 'burn after reading; fails if the service cannot'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l new -d 'always make a new paste, even for a repeat'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l no-copy -d 'do not put the URL on the clipboard'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l json -d 'print one JSON object per paste'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s q -l quiet -d 'print nothing but the URL and errors'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s v -l verbose -d 'show the request and answer headers (secrets masked)'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s n -l dry-run -d 'show the request that would be sent; send nothing'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l qr -d 'also show the URL as a QR code'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l force -d 'upload even if the text looks like it holds a secret'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l timeout -x -d 'give up on the upload after SECONDS'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l insecure -d 'do not verify TLS certificates (warns)'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l notify -d 'show a window with the result'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l no-notify -d 'never show windows'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l prompt -d 'ask for the title in a window first'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l pick -d 'choose an earlier paste in a window; copy its URL'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l history -d 'list earlier pastes (with --json: JSON Lines)'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l retry -d 'send what waits in the outbox (with -n: list it)'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l outbox -d 'list the outbox; then show|send|drop ID, drop --all'
# The words after --outbox are its own: a command, then an entry's id.
complete -c paste -n '__paste_pastebin_outbox_wants command' -f -a 'list show send drop' -d 'outbox command'
complete -c paste -n '__paste_pastebin_outbox_wants id' -f -a '(__paste_pastebin_outbox_ids)' -d 'outbox entry'
complete -c paste -n '__paste_pastebin_outbox_wants all' -f -a '--all' -d 'every entry'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l delete -x -d 'delete the paste at URL (services that allow it)'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -l delete-last -d 'delete the newest paste'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s h -l help -d 'show this help'
complete -c paste -n 'not __paste_pastebin_is_coreutils' -s V -l version -d 'show the version and library versions'
