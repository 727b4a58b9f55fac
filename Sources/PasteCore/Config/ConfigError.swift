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
    /// A `${file:…}` secret's file is readable by group or others.
    case secretFileReadableByOthers(path: String, line: Int, key: String, file: String, mode: UInt32)
    /// A service is missing a key it needs.
    case incompleteService(path: String, line: Int, service: String, missing: String)
    /// No service by that name is configured or built in; `path` and `line` are set when the
    /// name came from `[paste] service` in a config file.
    case unknownService(name: String, known: [String], path: String? = nil, line: Int? = nil)
    /// A template with an unknown or misplaced hole (`{contents}`, `${evn:X}`, `{json:…}` in
    /// a request), or an argument that cannot be used.
    case badTemplate(path: String, line: Int, key: String, problem: TemplateProblem)
    /// A body template that never sends the paste: it has no `{content}`.
    case templateWithoutContent(path: String, line: Int, key: String)
    /// A `json` template that is not JSON once its placeholders are filled.
    case templateNotJSON(path: String, line: Int, problem: OrderedJSON.SyntaxError)
    /// A `${cmd:…}` command that gave no value (never its output: it may be a secret).
    case commandFailed(path: String, line: Int, command: String, failure: CommandFailure)
    /// A ShareX definition that cannot be used, from `sxcu = PATH` at `path`:`line`, or from
    /// `-S PATH.sxcu` (no config line).
    case shareX(ShareXError, path: String? = nil, line: Int? = nil)
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
            "cannot read config '\(shownPath: path)': \(reason)"
        case .syntax(let path, let line, let expected):
            "\(shownPath: path):\(line): syntax error: expected \(expected)"
        case .unknownKey(let path, let line, let section, let key):
            "\(shownPath: path):\(line): unknown key '\(shown: key)' in section [\(shown: section)]"
                + (Spelling.suggestion(
                    for: key, among: section == "paste" ? Settings.configKeys : ServiceProfile.configKeys
                )
                .map { "; did you mean '\($0)'?" } ?? "")
        case .unknownSection(let path, let line, let name):
            "\(shownPath: path):\(line): unknown section [\(shown: name)]; "
                + (Spelling.suggestion(for: name, among: ConfigSections.names).map {
                    "did you mean [\($0 == "paste" ? "paste" : "service \"NAME\"")]?"
                } ?? "expected [paste] or [service \"NAME\"]")
        case .badValue(let path, let line, let key, let value, let expected):
            "\(shownPath: path):\(line): bad value '\(shown: value)' for '\(shown: key)': expected \(expected)"
        case .missingEnvironment(let path, let line, let name):
            "\(shownPath: path):\(line): environment variable \(shown: name) is not set"
        case .unreadableSecretFile(let path, let line, let file, let reason):
            "\(shownPath: path):\(line): cannot read secret file '\(shownPath: file)': \(reason)"
        case .secretReadableByOthers(let path, let line, let key, let mode):
            "\(shownPath: path):\(line): '\(shown: key)' holds a literal secret but the file is readable by others (mode \(String(mode & 0o777, radix: 8)))"
        case .secretFileReadableByOthers(let path, let line, let key, let file, let mode):
            "\(shownPath: path):\(line): '\(shown: key)' reads a secret from '\(shownPath: file)', which others can read (mode \(String(mode & 0o777, radix: 8)))"
        case .incompleteService(let path, let line, let service, let missing):
            "\(shownPath: path):\(line): service '\(shown: service)' has no '\(missing)'"
        case .unknownService(let name, let known, let path, let line):
            (path.map { "\(shownPath: $0):\(line ?? 0): " } ?? "")
                + "unknown service '\(shown: name)'"
                + (Spelling.suggestion(for: name, among: known).map { " (did you mean '\(shown: $0)'?)" } ?? "")
                + "; known: \(shown: known.joined(separator: ", "), limit: 400)"
        case .badTemplate(let path, let line, let key, let problem):
            "\(shownPath: path):\(line): bad '\(shown: key)': \(shown: problem.description, limit: Sanitizer.excerptLength)"
        case .templateWithoutContent(let path, let line, let key):
            "\(shownPath: path):\(line): the '\(shown: key)' template has no {content}, so the paste would never be sent"
        case .templateNotJSON(let path, let line, let problem):
            "\(shownPath: path):\(line): the 'json' template is not valid JSON once filled (template \(shown: problem.description, limit: Sanitizer.excerptLength))"
        case .commandFailed(let path, let line, let command, let failure):
            "\(shownPath: path):\(line): command '\(shown: command)' \(failure)"
        case .shareX(let error, let path, let line):
            (path.map { "\(shownPath: $0):\(line ?? 0): " } ?? "") + error.message
        case .unusableFile(let path?, let line, let key, let file, let reason):
            "\(shownPath: path):\(line ?? 0): cannot use '\(shownPath: file)' for '\(key)': \(reason)"
        case .unusableFile(nil, _, let key, let file, let reason):
            "cannot use '\(shownPath: file)' from \(key): \(reason)"
        case .keyReadableByOthers(let path, let line, let key, let file, let mode):
            "\(shownPath: path):\(line): the private key '\(shownPath: file)' ('\(key)') is readable by others (mode \(String(mode & 0o777, radix: 8)))"
        case .badEnvironment(let name, let value, let expected):
            "bad value '\(shown: value)' in the environment variable \(name): expected \(expected)"
        }
    }

    public var hint: String? {
        switch self {
        case .secretReadableByOthers(let path, _, _, _):
            "run 'chmod 600 \(shownPath: path)', or take the secret from ${env:NAME} or ${file:PATH}"
        case .unknownService: "'paste --list-services' shows them all"
        case .commandFailed(_, _, _, .notFound):
            "the command runs without a shell, found on PATH; write its full path if it lives elsewhere"
        case .commandFailed: "its output is never shown (it may be a secret); run the command yourself to see why"
        case .shareX(let error, _, _): error.hint
        case .keyReadableByOthers(_, _, _, let file, _): "run 'chmod 600 \(shownPath: file)'"
        case .secretFileReadableByOthers(_, _, _, let file, _): "run 'chmod 600 \(shownPath: file)'"
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        if case .shareX(let error, _, _) = self { return error.exitStatus }
        return .config
    }
}
