/// One option of `paste`, as `--help`, the man page test and the completions see it.
///
/// The table is the single source: the parser reads it, `--help` prints it, and a test fails
/// when `man/paste.1` and the table disagree.
public struct OptionSpec: Sendable, Equatable {
    /// The task group the option is listed under in `--help`.
    public enum Group: String, Sendable, CaseIterable {
        case input = "Input"
        case service = "Where to paste"
        case paste = "The paste"
        case output = "Output"
        case safety = "Safety and reliability"
        case desktop = "At a hotkey"
        case stores = "History and outbox"
        case info = "Information"
    }

    /// The long name without dashes (`service`).
    public var long: String
    /// The short letter, if any (`S`).
    public var short: Character?
    /// The argument's name in help (`NAME`), or nil for a flag.
    public var argument: String?
    /// One line of help.
    public var help: String
    /// Where it is listed.
    public var group: Group
}

/// Every option of `paste`. Short letters avoid d, s and z: those belong to coreutils paste(1).
public let optionTable: [OptionSpec] = [
    // Input
    OptionSpec(
        long: "file", short: "f", argument: "FILE", help: "upload FILE (repeat for several; one paste each)",
        group: .input),
    OptionSpec(
        long: "clipboard", short: "c", argument: nil, help: "read the CLIPBOARD selection even when stdin is a pipe",
        group: .input),
    OptionSpec(
        long: "primary", short: "P", argument: nil, help: "read the PRIMARY selection (the mouse selection)",
        group: .input),
    // Service
    OptionSpec(
        long: "service", short: "S", argument: "NAME", help: "paste to service NAME (see --list-services)",
        group: .service),
    OptionSpec(
        long: "url", short: nil, argument: "URL", help: "paste to a pastie-style endpoint at URL", group: .service),
    OptionSpec(
        long: "config", short: nil, argument: "FILE", help: "read FILE instead of ~/.config/paste/config",
        group: .service),
    OptionSpec(
        long: "list-services", short: nil, argument: nil, help: "list built-in and configured services", group: .service
    ),
    OptionSpec(
        long: "import-sxcu", short: nil, argument: "FILE",
        help: "print a ShareX custom uploader as a [service] section",
        group: .service),
    // The paste
    OptionSpec(long: "title", short: "t", argument: "TITLE", help: "give the paste a title", group: .paste),
    OptionSpec(
        long: "lang", short: "l", argument: "LANG", help: "highlight as LANG (e.g. python, diff)", group: .paste),
    OptionSpec(
        long: "private", short: "p", argument: nil, help: "make the paste unlisted; fails if the service cannot",
        group: .paste),
    OptionSpec(
        long: "expiry", short: "e", argument: "DURATION", help: "delete the paste after DURATION (10m, 1h, 7d)",
        group: .paste),
    OptionSpec(
        long: "burn", short: nil, argument: nil, help: "burn after reading; fails if the service cannot",
        group: .paste),
    OptionSpec(
        long: "new", short: nil, argument: nil, help: "always make a new paste, even for a repeat", group: .paste),
    // Output
    OptionSpec(long: "no-copy", short: nil, argument: nil, help: "do not put the URL on the clipboard", group: .output),
    OptionSpec(long: "json", short: nil, argument: nil, help: "print one JSON object per paste", group: .output),
    OptionSpec(long: "quiet", short: "q", argument: nil, help: "print nothing but the URL and errors", group: .output),
    OptionSpec(
        long: "verbose", short: "v", argument: nil, help: "show the request and answer headers (secrets masked)",
        group: .output),
    OptionSpec(
        long: "dry-run", short: "n", argument: nil, help: "show the request that would be sent; send nothing",
        group: .output),
    // Safety
    OptionSpec(
        long: "force", short: nil, argument: nil, help: "upload even if the text looks like it holds a secret",
        group: .safety),
    OptionSpec(
        long: "timeout", short: nil, argument: "SECONDS", help: "give up on the upload after SECONDS", group: .safety),
    OptionSpec(
        long: "insecure", short: nil, argument: nil, help: "do not verify TLS certificates (warns)", group: .safety),
    // Desktop
    OptionSpec(long: "notify", short: nil, argument: nil, help: "show a window with the result", group: .desktop),
    OptionSpec(long: "no-notify", short: nil, argument: nil, help: "never show windows", group: .desktop),
    OptionSpec(long: "prompt", short: nil, argument: nil, help: "ask for the title in a window first", group: .desktop),
    OptionSpec(
        long: "pick", short: nil, argument: nil, help: "choose an earlier paste in a window; copy its URL",
        group: .desktop),
    // Stores
    OptionSpec(
        long: "history", short: nil, argument: nil, help: "list earlier pastes (with --json: JSON Lines)",
        group: .stores),
    OptionSpec(long: "retry", short: nil, argument: nil, help: "send what waits in the outbox", group: .stores),
    OptionSpec(
        long: "delete", short: nil, argument: "URL", help: "delete the paste at URL (services that allow it)",
        group: .stores),
    OptionSpec(long: "delete-last", short: nil, argument: nil, help: "delete the newest paste", group: .stores),
    // Info
    OptionSpec(long: "help", short: "h", argument: nil, help: "show this help", group: .info),
    OptionSpec(long: "version", short: "V", argument: nil, help: "show the version and library versions", group: .info),
]

/// coreutils paste(1) options: any of them hands the invocation to coreutils.
let coreutilsShortOptions: Set<Character> = ["d", "s", "z"]
let coreutilsLongOptions: Set<String> = ["delimiters", "serial", "zero-terminated"]
