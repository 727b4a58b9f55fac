/// Why a ShareX custom uploader (`.sxcu`) cannot be used or printed as a config section.
///
/// Every case names the file; the message is one line. A file that is not a usable definition
/// is a config error (78); a definition that cannot send text, or uses what a config section
/// cannot say (`--import-sxcu`), is bad input for paste (65).
public enum ShareXError: PasteError, Equatable {
    /// The file could not be read.
    case unreadable(file: String, reason: String)
    /// The file is not JSON.
    case notJSON(file: String, problem: OrderedJSON.SyntaxError)
    /// The JSON is not an object.
    case notAnObject(file: String)
    /// `Version` is missing or older than ShareX 12.4 (ShareX itself refuses those).
    case unsupportedVersion(file: String, version: String?)
    /// A key's value is not what ShareX accepts there (`Body: "Yaml"`).
    case badValue(file: String, key: String, value: String, expected: String)
    /// A `{function}` ShareX does not have, or one paste does not run (`{outputbox:…}`).
    case unknownFunction(file: String, key: String, name: String)
    /// A template that cannot be read: an unclosed `{`, a JSONPath or XPath outside the
    /// supported subset, a function in the wrong place.
    case badSyntax(file: String, key: String, reason: String)
    /// A regular expression that does not compile (or uses lookbehind where paste cannot).
    case badRegex(file: String, key: String, pattern: String, reason: String)
    /// The definition cannot send text (an image uploader or URL shortener, or nothing in it
    /// carries `{input}`).
    case cannotSendText(file: String, reason: String)
    /// `--import-sxcu`: a feature a `[service]` section cannot express.
    case inexpressible(file: String, feature: String)
    /// The file holds a literal credential and others can read it.
    case readableByOthers(file: String, credential: String, mode: UInt32)

    public var message: String {
        switch self {
        case .unreadable(let file, let reason): "cannot read ShareX uploader '\(file)': \(reason)"
        case .notJSON(let file, let problem): "'\(file)' is not a ShareX uploader: not JSON (\(problem))"
        case .notAnObject(let file): "'\(file)' is not a ShareX uploader: not a JSON object"
        case .unsupportedVersion(let file, let version):
            "'\(file)': " + (version.map { "ShareX \($0) definitions" } ?? "definitions without a Version")
                + " are not supported (ShareX 12.4 or later)"
        case .badValue(let file, let key, let value, let expected):
            "'\(file)': bad \(key) '\(value)': expected \(expected)"
        case .unknownFunction(let file, let key, let name): "'\(file)': \(key) uses unknown function '\(name)'"
        case .badSyntax(let file, let key, let reason): "'\(file)': \(key): \(reason)"
        case .badRegex(let file, let key, let pattern, let reason):
            "'\(file)': \(key): regular expression '\(pattern)' cannot be used: \(reason)"
        case .cannotSendText(let file, let reason): "'\(file)' cannot send text: \(reason)"
        case .inexpressible(let file, let feature):
            "'\(file)' cannot be written as a [service] section: it uses \(feature); use it with 'sxcu = \(file)'"
        case .readableByOthers(let file, let credential, let mode):
            "'\(file)' holds a literal credential (\(credential)) but others can read it (mode \(String(mode & 0o777, radix: 8)))"
        }
    }

    public var hint: String? {
        switch self {
        case .unknownFunction: "paste-config(5), SHAREX UPLOADERS, lists what is supported"
        case .readableByOthers(let file, _, _): "run 'chmod 600 \(file)'"
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotSendText, .inexpressible: .badInput
        default: .config
        }
    }
}
