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

    /// Which option this is.
    public var id: OptionID
    /// The long name without dashes (`service`): the id's raw value.
    public var long: String { id.rawValue }
    /// The short letter, if any (`S`).
    public var short: Character?
    /// The argument's name in help (`NAME`), or nil for a flag.
    public var argument: String?
    /// One line of help.
    public var help: String
    /// Where it is listed.
    public var group: Group
}

/// Every option of `paste`, named by its long form, in the order `--help` lists them.
///
/// Adding an option is adding a case: the compiler then asks what the parser does with it
/// (`apply` in Invocation.swift switches over every case, with no default), and a test asks
/// for its line in `optionTable` (every case listed once, in this order).
public enum OptionID: String, Sendable, CaseIterable {
    // Input
    case file
    case null
    case clipboard
    case primary
    case image
    // Where to paste
    case service
    case url
    case config
    case initConfig = "init-config"
    case listServices = "list-services"
    case importSxcu = "import-sxcu"
    // The paste
    case title
    case lang
    case `private`
    case expiry
    case burn
    case new
    case update
    // Output
    case noCopy = "no-copy"
    case json
    case quiet
    case verbose
    case dryRun = "dry-run"
    case qr
    // Safety and reliability
    case force
    case redact
    case timeout
    case insecure
    // At a hotkey
    case notify
    case noNotify = "no-notify"
    case prompt
    case pick
    case bindKey = "bind-key"
    case unbindKey = "unbind-key"
    // History and outbox
    case history
    case retry
    case outbox
    case delete
    case deleteLast = "delete-last"
    // Information
    case help
    case version
}

/// Every option of `paste`, in `--help`'s order (the order of `OptionID`'s cases, which a test
/// checks, with every case listed once). Short letters avoid d, s and z: those belong to
/// coreutils paste(1). A literal, so the compiler lays it out as constant data: building it at
/// run time cost a hotkey press 17,000 instructions.
public let optionTable: [OptionSpec] = [
    // Input
    OptionSpec(
        id: .file, short: "f", argument: "FILE", help: "upload FILE (repeat for several; one paste each)", group: .input
    ),
    OptionSpec(
        id: .null, short: "0", argument: nil, help: "with -f -: names on stdin end with NUL",
        group: .input),
    OptionSpec(
        id: .clipboard, short: "c", argument: nil, help: "read the CLIPBOARD selection even when stdin is a pipe",
        group: .input),
    OptionSpec(
        id: .primary, short: "P", argument: nil, help: "read the PRIMARY selection (the mouse selection)", group: .input
    ),
    OptionSpec(
        id: .image, short: nil, argument: nil, help: "send the clipboard image, not its text",
        group: .input),
    // Where to paste
    OptionSpec(
        id: .service, short: "S", argument: "NAME", help: "paste to service NAME (see --list-services)", group: .service
    ),
    OptionSpec(id: .url, short: nil, argument: "URL", help: "paste to a pastie-style endpoint at URL", group: .service),
    OptionSpec(
        id: .config, short: nil, argument: "FILE", help: "read FILE instead of ~/.config/paste/config", group: .service),
    OptionSpec(
        id: .initConfig, short: nil, argument: nil, help: "write a commented starter config",
        group: .service),
    OptionSpec(
        id: .listServices, short: nil, argument: nil, help: "list built-in and configured services", group: .service),
    OptionSpec(
        id: .importSxcu, short: nil, argument: "FILE", help: "print a ShareX custom uploader as a [service] section",
        group: .service),
    // The paste
    OptionSpec(id: .title, short: "t", argument: "TITLE", help: "give the paste a title", group: .paste),
    OptionSpec(id: .lang, short: "l", argument: "LANG", help: "highlight as LANG (e.g. python, diff)", group: .paste),
    OptionSpec(
        id: .private, short: "p", argument: nil, help: "make the paste unlisted; fails if the service cannot",
        group: .paste),
    OptionSpec(
        id: .expiry, short: "e", argument: "DURATION", help: "delete the paste after DURATION (10m, 1h, 7d)",
        group: .paste),
    OptionSpec(
        id: .burn, short: nil, argument: nil, help: "burn after reading; fails if the service cannot", group: .paste),
    OptionSpec(id: .new, short: nil, argument: nil, help: "always make a new paste, even for a repeat", group: .paste),
    OptionSpec(
        id: .update, short: nil, argument: "NAME", help: "a living paste: made once, then updated at one URL",
        group: .paste),
    // Output
    OptionSpec(id: .noCopy, short: nil, argument: nil, help: "do not put the URL on the clipboard", group: .output),
    OptionSpec(id: .json, short: nil, argument: nil, help: "print one JSON object per paste", group: .output),
    OptionSpec(id: .quiet, short: "q", argument: nil, help: "print nothing but the URL and errors", group: .output),
    OptionSpec(
        id: .verbose, short: "v", argument: nil, help: "show the request and answer headers (secrets masked)",
        group: .output),
    OptionSpec(
        id: .dryRun, short: "n", argument: nil, help: "show the request that would be sent; send nothing",
        group: .output),
    OptionSpec(
        id: .qr, short: nil, argument: nil, help: "also show the URL as a QR code",
        group: .output),
    // Safety and reliability
    OptionSpec(
        id: .force, short: nil, argument: nil, help: "upload even if the text looks like it holds a secret",
        group: .safety),
    OptionSpec(
        id: .redact, short: nil, argument: nil, help: "upload with each secret masked: [redacted: KIND]",
        group: .safety),
    OptionSpec(
        id: .timeout, short: nil, argument: "SECONDS", help: "give up on the upload after SECONDS", group: .safety),
    OptionSpec(
        id: .insecure, short: nil, argument: nil, help: "do not verify TLS certificates (warns)", group: .safety),
    // At a hotkey
    OptionSpec(id: .notify, short: nil, argument: nil, help: "show a window with the result", group: .desktop),
    OptionSpec(id: .noNotify, short: nil, argument: nil, help: "never show windows", group: .desktop),
    OptionSpec(id: .prompt, short: nil, argument: nil, help: "ask for the title in a window first", group: .desktop),
    OptionSpec(
        id: .pick, short: nil, argument: nil, help: "choose an earlier paste in a window; copy its URL", group: .desktop
    ),
    OptionSpec(
        id: .bindKey, short: nil, argument: nil, help: "[KEY] bind KEY (Super+Shift+V) to paste here",
        group: .desktop),
    OptionSpec(id: .unbindKey, short: nil, argument: nil, help: "remove the key --bind-key bound", group: .desktop),
    // History and outbox
    OptionSpec(
        id: .history, short: nil, argument: nil, help: "list earlier pastes (with --json: JSON Lines)", group: .stores),
    OptionSpec(
        id: .retry, short: nil, argument: nil, help: "send what waits in the outbox (with -n: list it)",
        group: .stores),
    OptionSpec(
        id: .outbox, short: nil, argument: nil, help: "list the outbox; then show|send|drop ID, drop --all",
        group: .stores),
    OptionSpec(
        id: .delete, short: nil, argument: "URL", help: "delete the paste at URL (services that allow it)",
        group: .stores),
    OptionSpec(id: .deleteLast, short: nil, argument: nil, help: "delete the newest paste", group: .stores),
    // Information
    OptionSpec(id: .help, short: "h", argument: nil, help: "show this help", group: .info),
    OptionSpec(id: .version, short: "V", argument: nil, help: "show the version and library versions", group: .info),
]

/// coreutils paste(1) options: any of them hands the invocation to coreutils.
let coreutilsShortOptions: Set<Character> = ["d", "s", "z"]
let coreutilsLongOptions: Set<String> = ["delimiters", "serial", "zero-terminated"]
