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
    /// The long name without dashes (`service`).
    public var long: String { id.rawValue }
    /// The short letter, if any (`S`).
    public var short: Character?
    /// The argument's name in help (`NAME`), or nil for a flag.
    public var argument: String?
    /// One line of help.
    public var help: String
    /// Where it is listed.
    public var group: Group

    init(_ id: OptionID, short: Character?, argument: String?, help: String, group: Group) {
        self.id = id
        self.short = short
        self.argument = argument
        self.help = help
        self.group = group
    }
}

/// Every option of `paste`, named by its long form, in the order `--help` lists them.
///
/// Adding an option is adding a case: the compiler then asks for its line of the table
/// (`spec`) and for what the parser does with it (`apply` in Invocation.swift), both exhaustive
/// switches, so no option can be listed but not handled, or handled but not listed.
public enum OptionID: String, Sendable, CaseIterable {
    // Input
    case file
    case clipboard
    case primary
    // Where to paste
    case service
    case url
    case config
    case listServices = "list-services"
    // The paste
    case title
    case lang
    case `private`
    case expiry
    case burn
    case new
    // Output
    case noCopy = "no-copy"
    case json
    case quiet
    case verbose
    case dryRun = "dry-run"
    // Safety and reliability
    case force
    case timeout
    case insecure
    // At a hotkey
    case notify
    case noNotify = "no-notify"
    case prompt
    case pick
    // History and outbox
    case history
    case retry
    case delete
    case deleteLast = "delete-last"
    // Information
    case help
    case version
}

extension OptionID {
    /// The option's line of the table. Short letters avoid d, s and z: those belong to
    /// coreutils paste(1).
    public var spec: OptionSpec {
        switch self {
        case .file:
            OptionSpec(
                self, short: "f", argument: "FILE", help: "upload FILE (repeat for several; one paste each)",
                group: .input)
        case .clipboard:
            OptionSpec(
                self, short: "c", argument: nil, help: "read the CLIPBOARD selection even when stdin is a pipe",
                group: .input)
        case .primary:
            OptionSpec(
                self, short: "P", argument: nil, help: "read the PRIMARY selection (the mouse selection)", group: .input
            )
        case .service:
            OptionSpec(
                self, short: "S", argument: "NAME", help: "paste to service NAME (see --list-services)", group: .service
            )
        case .url:
            OptionSpec(
                self, short: nil, argument: "URL", help: "paste to a pastie-style endpoint at URL", group: .service)
        case .config:
            OptionSpec(
                self, short: nil, argument: "FILE", help: "read FILE instead of ~/.config/paste/config", group: .service
            )
        case .listServices:
            OptionSpec(self, short: nil, argument: nil, help: "list built-in and configured services", group: .service)
        case .title: OptionSpec(self, short: "t", argument: "TITLE", help: "give the paste a title", group: .paste)
        case .lang:
            OptionSpec(self, short: "l", argument: "LANG", help: "highlight as LANG (e.g. python, diff)", group: .paste)
        case .private:
            OptionSpec(
                self, short: "p", argument: nil, help: "make the paste unlisted; fails if the service cannot",
                group: .paste)
        case .expiry:
            OptionSpec(
                self, short: "e", argument: "DURATION", help: "delete the paste after DURATION (10m, 1h, 7d)",
                group: .paste)
        case .burn:
            OptionSpec(
                self, short: nil, argument: nil, help: "burn after reading; fails if the service cannot", group: .paste)
        case .new:
            OptionSpec(
                self, short: nil, argument: nil, help: "always make a new paste, even for a repeat", group: .paste)
        case .noCopy:
            OptionSpec(self, short: nil, argument: nil, help: "do not put the URL on the clipboard", group: .output)
        case .json: OptionSpec(self, short: nil, argument: nil, help: "print one JSON object per paste", group: .output)
        case .quiet:
            OptionSpec(self, short: "q", argument: nil, help: "print nothing but the URL and errors", group: .output)
        case .verbose:
            OptionSpec(
                self, short: "v", argument: nil, help: "show the request and answer headers (secrets masked)",
                group: .output)
        case .dryRun:
            OptionSpec(
                self, short: "n", argument: nil, help: "show the request that would be sent; send nothing",
                group: .output)
        case .force:
            OptionSpec(
                self, short: nil, argument: nil, help: "upload even if the text looks like it holds a secret",
                group: .safety)
        case .timeout:
            OptionSpec(
                self, short: nil, argument: "SECONDS", help: "give up on the upload after SECONDS", group: .safety)
        case .insecure:
            OptionSpec(self, short: nil, argument: nil, help: "do not verify TLS certificates (warns)", group: .safety)
        case .notify:
            OptionSpec(self, short: nil, argument: nil, help: "show a window with the result", group: .desktop)
        case .noNotify: OptionSpec(self, short: nil, argument: nil, help: "never show windows", group: .desktop)
        case .prompt:
            OptionSpec(self, short: nil, argument: nil, help: "ask for the title in a window first", group: .desktop)
        case .pick:
            OptionSpec(
                self, short: nil, argument: nil, help: "choose an earlier paste in a window; copy its URL",
                group: .desktop)
        case .history:
            OptionSpec(
                self, short: nil, argument: nil, help: "list earlier pastes (with --json: JSON Lines)", group: .stores)
        case .retry: OptionSpec(self, short: nil, argument: nil, help: "send what waits in the outbox", group: .stores)
        case .delete:
            OptionSpec(
                self, short: nil, argument: "URL", help: "delete the paste at URL (services that allow it)",
                group: .stores)
        case .deleteLast: OptionSpec(self, short: nil, argument: nil, help: "delete the newest paste", group: .stores)
        case .help: OptionSpec(self, short: "h", argument: nil, help: "show this help", group: .info)
        case .version:
            OptionSpec(self, short: "V", argument: nil, help: "show the version and library versions", group: .info)
        }
    }
}

/// Every option of `paste`, in `--help`'s order: the parser, `--help`, the man page test and the
/// completions all read this.
public let optionTable: [OptionSpec] = OptionID.allCases.map(\.spec)

/// coreutils paste(1) options: any of them hands the invocation to coreutils.
let coreutilsShortOptions: Set<Character> = ["d", "s", "z"]
let coreutilsLongOptions: Set<String> = ["delimiters", "serial", "zero-terminated"]
