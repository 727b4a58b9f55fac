/// Why a configuration could not be used. Each case names the file and line it came from.
public enum ConfigError: PasteError, Equatable {
    /// The file could not be read (errno text in `reason`).
    case unreadable(path: String, reason: String)
    /// A line is not a section header, a `key = value` pair, a comment or blank.
    case syntax(path: String, line: Int, expected: String)
    /// A key that does not belong in its section.
    case unknownKey(path: String, line: Int, section: String, key: String)
    /// A section name we do not know.
    case unknownSection(path: String, line: Int, name: String)
    /// A key's value is not one of the accepted forms.
    case badValue(path: String, line: Int, key: String, value: String, expected: String)
    /// A `${env:NAME}` reference to an unset variable.
    case missingEnvironment(path: String, line: Int, name: String)
    /// A `${file:PATH}` reference that cannot be read.
    case unreadableSecretFile(path: String, line: Int, file: String, reason: String)
    /// The file holds a literal secret and others can read it.
    case secretReadableByOthers(path: String, line: Int, key: String, mode: UInt32)
    /// A service is missing a key it needs.
    case incompleteService(path: String, line: Int, service: String, missing: String)
    /// No service by that name is configured or built in; `path` and `line` are set when the
    /// name came from `[paste] service` in a config file.
    case unknownService(name: String, known: [String], path: String? = nil, line: Int? = nil)
    /// A file a key names (`ca-file`, `client-cert`, …) cannot be used; `path` and `line` are
    /// nil when it came from an environment variable, then named by `key`.
    case unusableFile(path: String?, line: Int?, key: String, file: String, reason: String)
    /// A private key file (`client-key`) that group or others may read.
    case keyReadableByOthers(path: String, line: Int, key: String, file: String, mode: UInt32)
    /// An environment variable paste reads holds something unusable (credentials masked).
    case badEnvironment(name: String, value: String, expected: String)

    public var message: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read config '\(shown: path)': \(reason)"
        case .syntax(let path, let line, let expected):
            "\(shown: path):\(line): syntax error: expected \(expected)"
        case .unknownKey(let path, let line, let section, let key):
            "\(shown: path):\(line): unknown key '\(shown: key)' in section [\(shown: section)]"
        case .unknownSection(let path, let line, let name):
            "\(shown: path):\(line): unknown section [\(shown: name)]; expected [paste] or [service \"NAME\"]"
        case .badValue(let path, let line, let key, let value, let expected):
            "\(shown: path):\(line): bad value '\(shown: value)' for '\(shown: key)': expected \(expected)"
        case .missingEnvironment(let path, let line, let name):
            "\(shown: path):\(line): environment variable \(shown: name) is not set"
        case .unreadableSecretFile(let path, let line, let file, let reason):
            "\(shown: path):\(line): cannot read secret file '\(shown: file)': \(reason)"
        case .secretReadableByOthers(let path, let line, let key, let mode):
            "\(shown: path):\(line): '\(shown: key)' holds a literal secret but the file is readable by others (mode \(String(mode & 0o777, radix: 8)))"
        case .incompleteService(let path, let line, let service, let missing):
            "\(shown: path):\(line): service '\(shown: service)' has no '\(missing)'"
        case .unknownService(let name, let known, let path, let line):
            (path.map { "\(shown: $0):\(line ?? 0): " } ?? "")
                + "unknown service '\(shown: name)'; known: \(shown: known.joined(separator: ", "), limit: 400)"
        case .unusableFile(let path?, let line, let key, let file, let reason):
            "\(shown: path):\(line ?? 0): cannot use '\(shown: file)' for '\(key)': \(reason)"
        case .unusableFile(nil, _, let key, let file, let reason):
            "cannot use '\(shown: file)' from \(key): \(reason)"
        case .keyReadableByOthers(let path, let line, let key, let file, let mode):
            "\(shown: path):\(line): the private key '\(shown: file)' ('\(key)') is readable by others (mode \(String(mode & 0o777, radix: 8)))"
        case .badEnvironment(let name, let value, let expected):
            "bad value '\(shown: value)' in the environment variable \(name): expected \(expected)"
        }
    }

    public var hint: String? {
        switch self {
        case .secretReadableByOthers(let path, _, _, _):
            "run 'chmod 600 \(shown: path)', or take the secret from ${env:NAME} or ${file:PATH}"
        case .unknownService: "'paste --list-services' shows them all"
        case .keyReadableByOthers(_, _, _, let file, _): "run 'chmod 600 \(shown: file)'"
        default: nil
        }
    }

    public var exitStatus: ExitStatus { .config }
}
