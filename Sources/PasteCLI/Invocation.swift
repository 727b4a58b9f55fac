import PasteCore
import Stores

/// What the person asked for, after parsing: the neutral model between argv and running.
public struct Invocation: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case upload
        case help
        case version
        case listServices
        case initConfig
        case history
        case retry
        case outbox(OutboxCommand)
        case pick
        case delete(url: String)
        case deleteLast
        case importShareX(path: String)
        /// `--bind-key [KEY]` (nil: the default key).
        case bindKey(String?)
        case unbindKey
    }

    public var action: Action = .upload
    public var input: InputChoice = .automatic
    /// `--image`: the selection's image rather than its text, when it holds both.
    public var prefersImage = false
    public var service: String?
    public var url: String?
    public var configPath: String?
    public var options = PasteOptions()
    public var isNew = false
    /// `--update NAME`: the living paste this run makes or replaces.
    public var living: String?
    /// `-0`: the names `-f -` reads from stdin end with NUL, not newline.
    public var namesEndWithNUL = false
    public var copies = true
    public var isJSON = false
    public var isQuiet = false
    public var isVerbose = false
    public var isDryRun = false
    public var isForced = false
    /// `--redact`: secrets the guard finds are masked, not refused.
    public var redacts = false
    public var timeout: Duration?
    public var isInsecure = false
    /// `--notify` (true), `--no-notify` (false), or neither (nil: the config's `notify`).
    public var notify: Bool?
    public var prompts = false
    /// `--qr`: the URL as a QR code too (stderr when a terminal, the notification's image).
    public var showsQR = false

    public init() {}
}

/// Reads argv (without argv[0]) into an `Invocation`.
///
/// Any positional operand, `-` or `--` followed by operands, or a coreutils option (-d, -s, -z and
/// their long forms, or an unambiguous prefix of one) means the whole command line belongs to
/// coreutils paste(1): a script that meets our `paste` first keeps working.
///
/// - Parameter rawArguments: the same arguments as the kernel gave them
///   (`CurrentProcess.argumentBytes()`, without argv[0]), when there are any: a `-f` name is
///   taken from them byte for byte, so a name that is not UTF-8 still opens its file.
public func parseCommandLine(_ arguments: [String], rawArguments: [[UInt8]] = []) throws(UsageError)
    -> ParsedCommandLine
{
    var invocation = Invocation()
    var files: [FileName] = []
    var actions: [Invocation.Action] = []
    var index = 0

    func take(_ spec: OptionSpec, inline: String?) throws(UsageError) -> String {
        if let inline { return inline }
        index += 1
        guard index < arguments.count else {
            throw UsageError(detail: "option '--\(spec.long)' needs \(spec.argument!)")
        }
        return arguments[index]
    }

    /// The raw bytes of the current argument after its first `offset` bytes (an option's
    /// ASCII letters), when the raw arguments are known.
    func rawValue(after offset: Int) -> [UInt8]? {
        rawArguments.count == arguments.count ? Array(rawArguments[index].dropFirst(offset)) : nil
    }

    /// The words after `--outbox`: nothing (or `list`), `show ID`, `send ID`, `drop ID` or
    /// `drop --all`. Only these words are taken; an option after them is read as usual.
    func takeOutboxCommand() throws(UsageError) -> OutboxCommand {
        func word(at position: Int) -> String? {
            position < arguments.count ? arguments[position] : nil
        }
        guard let verb = word(at: index + 1), !verb.hasPrefix("-") else { return .list }
        index += 1
        func id() throws(UsageError) -> String {
            guard let id = word(at: index + 1), !id.hasPrefix("-") || (verb == "drop" && id == "--all"), !id.isEmpty
            else {
                throw UsageError(detail: "'--outbox \(verb)' needs an entry id (see 'paste --outbox')")
            }
            index += 1
            return id
        }
        switch verb {
        case "list": return .list
        case "show": return .show(id: try id())
        case "send": return .send(id: try id())
        case "drop":
            let target = try id()
            return target == "--all" ? .dropAll : .drop(id: target)
        default:
            throw UsageError(
                detail: "unknown outbox command '\(Sanitizer.printable(verb, limit: 40))': use list, show, send or drop"
            )
        }
    }

    while index < arguments.count {
        let argument = arguments[index]
        if argument == "--" {
            // Everything after `--` is an operand: coreutils' if there is any.
            return index + 1 < arguments.count ? .coreutils : .paste(try finish())
        }
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            // A search of the table, not `OptionID(rawValue:)`: that builds a hash table of every
            // name on first use, several times the cost of the comparisons for one lookup.
            guard let spec = optionTable.first(where: { $0.long == name }) else {
                if coreutilsLongOptions.contains(where: { $0.hasPrefix(name) }) && !name.isEmpty {
                    return .coreutils
                }
                let meant = Spelling.suggestion(for: name, among: optionTable.map(\.long))
                throw UsageError(
                    detail: "unknown option '--\(shown: name)'" + (meant.map { "; did you mean '--\($0)'?" } ?? ""))
            }
            if spec.argument == nil && inline != nil && spec.id != .bindKey {
                throw UsageError(detail: "option '--\(shown: name)' takes no value")
            }
            if spec.id == .bindKey {
                // Its key is an optional word of its own: `--bind-key=KEY` or the next word.
                if let inline {
                    actions.append(.bindKey(inline))
                } else if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") {
                    index += 1
                    actions.append(.bindKey(arguments[index]))
                } else {
                    actions.append(.bindKey(nil))
                }
                index += 1
                continue
            }
            if spec.id == .outbox {
                // Its words are its own: `paste --outbox show ID` is ours, not coreutils'.
                actions.append(.outbox(try takeOutboxCommand()))
                index += 1
                continue
            }
            let value = spec.argument == nil ? nil : try take(spec, inline: inline)
            // `--file=NAME` holds its name after `--file=`; `--file NAME` in the next argument.
            let raw = spec.id == .file ? rawValue(after: inline == nil ? 0 : 3 + name.utf8.count) : nil
            try apply(spec, value, raw, &invocation, &files, &actions)
        } else if argument.hasPrefix("-") && argument.count > 1 {
            var letters = Substring(argument.dropFirst())
            while let letter = letters.first {
                letters.removeFirst()
                if coreutilsShortOptions.contains(letter) { return .coreutils }
                guard let spec = optionTable.first(where: { $0.short == letter }) else {
                    throw UsageError(detail: "unknown option '-\(shown: String(letter))'")
                }
                if spec.argument != nil {
                    let inline = letters.isEmpty ? nil : String(letters)
                    // `-qfNAME`: the letters before the name are ASCII, one byte each.
                    let consumed = argument.utf8.count - letters.utf8.count
                    let value = try take(spec, inline: inline)
                    let raw = spec.id == .file ? rawValue(after: inline == nil ? 0 : consumed) : nil
                    try apply(spec, value, raw, &invocation, &files, &actions)
                    break
                }
                try apply(spec, nil, nil, &invocation, &files, &actions)
            }
        } else {
            if actions.contains(where: { if case .outbox = $0 { true } else { false } }) {
                // A command line with --outbox is ours, whatever follows.
                throw UsageError(detail: "unexpected '\(Sanitizer.printable(argument, limit: 40))' after --outbox")
            }
            // A positional operand (including `-`): coreutils paste(1) territory.
            return .coreutils
        }
        index += 1
    }
    return .paste(try finish())

    func finish() throws(UsageError) -> Invocation {
        var result = invocation
        if actions.count > 1 {
            throw UsageError(
                detail:
                    "choose one of --help, --version, --list-services, --init-config, --history, --retry, --outbox, --pick, --delete, --delete-last, --import-sxcu, --bind-key, --unbind-key"
            )
        }
        if let action = actions.first { result.action = action }
        if !files.isEmpty {
            if result.input != .automatic { throw UsageError(detail: "-f cannot be combined with -c or -P") }
            result.input = .files(files)
        }
        if result.namesEndWithNUL && !files.contains(.standardInput) {
            throw UsageError(detail: "-0 goes with '-f -' (the names of the files read from stdin)")
        }
        if result.prefersImage, case .files = result.input {
            throw UsageError(detail: "--image reads the clipboard; it cannot be combined with -f")
        }
        if result.service != nil && result.url != nil {
            throw UsageError(detail: "--service and --url name two different places; choose one")
        }
        if result.isJSON && result.isVerbose {
            throw UsageError(detail: "--json and --verbose cannot be combined")
        }
        if result.redacts && result.isForced {
            throw UsageError(detail: "--redact masks what --force would send as it is; choose one")
        }
        return result
    }
}

/// Applies one option; `raw` is a `-f` name's bytes as argv held them, when known.
private func apply(
    _ spec: OptionSpec, _ value: String?, _ raw: [UInt8]?, _ invocation: inout Invocation,
    _ files: inout [FileName], _ actions: inout [Invocation.Action]
) throws(UsageError) {
    switch spec.id {
    case .file:
        guard let value, !value.isEmpty else { throw UsageError(detail: "option '-f' needs a file name") }
        let name = raw.map { FileName(bytes: $0) } ?? FileName(value)
        if name == .standardInput && files.contains(.standardInput) {
            throw UsageError(detail: "'-f -' reads the names from stdin once")
        }
        files.append(name)
    case .null: invocation.namesEndWithNUL = true
    case .clipboard:
        if invocation.input == .primary { throw UsageError(detail: "-c and -P cannot be combined") }
        invocation.input = .clipboard
    case .primary:
        if invocation.input == .clipboard { throw UsageError(detail: "-c and -P cannot be combined") }
        invocation.input = .primary
    case .image: invocation.prefersImage = true
    case .service: invocation.service = value
    case .url:
        let lower = value!.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw UsageError(
                detail: "--url needs an http:// or https:// URL, not '\(shown: value!)'")
        }
        invocation.url = value
    case .config: invocation.configPath = value
    case .title: invocation.options.title = value
    case .lang: invocation.options.language = value
    case .private: invocation.options.isPrivate = true
    case .expiry where value == "never":
        invocation.options.neverExpires = true
        invocation.options.expirySeconds = nil
    case .expiry:
        invocation.options.neverExpires = false
        guard let seconds = SettingRange.expiry.parse(value!) else {
            throw UsageError(
                detail: "bad expiry '\(shown: value!)': expected \(SettingRange.expiry), such as 10m, 1h, 7d, or never")
        }
        invocation.options.expirySeconds = Int(seconds)
    case .burn: invocation.options.burnsAfterReading = true
    case .new: invocation.isNew = true
    case .update:
        guard let value, LivingPastes.isValidName(value) else {
            throw UsageError(
                detail: "bad living paste name '\(shown: value ?? "")': expected 1 to 64 of A-Z a-z 0-9 . _ -, "
                    + "not starting with a dot")
        }
        invocation.living = value
    case .noCopy: invocation.copies = false
    case .json: invocation.isJSON = true
    case .quiet: invocation.isQuiet = true
    case .verbose: invocation.isVerbose = true
    case .dryRun: invocation.isDryRun = true
    case .qr: invocation.showsQR = true
    case .force: invocation.isForced = true
    case .redact: invocation.redacts = true
    case .timeout:
        guard let seconds = SettingRange.timeout.parse(value!) else {
            throw UsageError(
                detail: "bad timeout '\(shown: value!)': expected \(SettingRange.timeout), such as 30 or 2.5")
        }
        invocation.timeout = .seconds(seconds)
    case .insecure: invocation.isInsecure = true
    case .notify: invocation.notify = true
    case .noNotify: invocation.notify = false
    case .prompt: invocation.prompts = true
    case .pick: actions.append(.pick)
    case .history: actions.append(.history)
    case .retry: actions.append(.retry)
    case .outbox: preconditionFailure("--outbox is read with its words by parseCommandLine")
    case .bindKey: preconditionFailure("--bind-key is read with its key by parseCommandLine")
    case .unbindKey: actions.append(.unbindKey)
    case .delete: actions.append(.delete(url: value!))
    case .deleteLast: actions.append(.deleteLast)
    case .listServices: actions.append(.listServices)
    case .initConfig: actions.append(.initConfig)
    case .importSxcu:
        guard let value, !value.isEmpty else { throw UsageError(detail: "option '--import-sxcu' needs a file name") }
        actions.append(.importShareX(path: value))
    case .help: actions.append(.help)
    case .version: actions.append(.version)
    }
}
