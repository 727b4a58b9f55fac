import FoundationEssentials

/// One key of a config section, as curl's tool keys its options (`tool_getparam.c`'s table of
/// name, kind and handler): its name, the section it belongs to, a line of doc, and how its
/// value is read into the section's value.
///
/// `Settings.keys` and `ServiceProfile.keys` are the two tables; `apply` finds a key there,
/// and "did you mean" (`Spelling`, through `configKeys`) reads the same names. Adding a key is
/// one row.
public struct ConfigKey<Target>: Sendable {
    /// The section a key is written in.
    public enum Section: String, Sendable {
        /// `[paste]`.
        case paste
        /// `[service "NAME"]`.
        case service
    }

    /// Reads one value into the target; throws the config error of a bad value.
    public typealias Reader = @Sendable (inout Target, ConfigKeyValue) throws(ConfigError) -> Void

    /// The key as written (`timeout`, `content-field`).
    public let name: String
    /// The section it belongs to.
    public let section: Section
    /// What it sets, in a line (paste-config(5) says the rest).
    public let doc: String
    /// How its value is read.
    let read: Reader

    init(_ name: String, _ section: Section, _ doc: String, _ read: @escaping Reader) {
        self.name = name
        self.section = section
        self.doc = doc
        self.read = read
    }
}

/// The value of one `key = value` line, with the readers the key table shares: each makes the
/// config error that names the file, the line and what was expected.
public struct ConfigKeyValue: Sendable {
    /// The line.
    public let entry: ConfigFile.Entry
    /// The file it is in.
    public let path: String

    /// The value as written.
    public var text: String { entry.value }

    /// Where the value was written, for templates.
    var origin: (path: String, line: Int) { (path, entry.line) }

    /// A bad value: what was expected instead.
    public func bad(_ expected: String) -> ConfigError {
        .badValue(path: path, line: entry.line, key: entry.key, value: entry.value, expected: expected)
    }

    /// The value, refused when empty.
    func nonEmpty(_ expected: String) throws(ConfigError) -> String {
        guard !entry.value.isEmpty else { throw bad(expected) }
        return entry.value
    }

    /// `true` or `false`.
    func bool() throws(ConfigError) -> Bool {
        guard let flag = Bool(configText: entry.value) else { throw bad("true or false") }
        return flag
    }

    /// One of a closed set of names, in any case.
    func choice<Choice: RawRepresentable<String>>(_ type: Choice.Type, _ expected: String) throws(ConfigError)
        -> Choice
    {
        guard let choice = Choice(rawValue: entry.value.lowercased()) else { throw bad(expected) }
        return choice
    }

    /// A duration within `range` (`10`, `2.5s`, `1m`).
    func duration(_ range: SettingRange.Seconds) throws(ConfigError) -> Duration {
        guard let seconds = range.parse(entry.value) else { throw bad("\(range) (such as 10, 2.5s, 1m)") }
        return .seconds(seconds)
    }

    /// `NAME=VALUE`, split at the first `=` (the name not empty).
    func pair() throws(ConfigError) -> (String, String) {
        guard let equals = entry.value.firstIndex(of: "="), equals != entry.value.startIndex else {
            throw bad("NAME=VALUE")
        }
        return (String(entry.value[..<equals]), String(entry.value[entry.value.index(after: equals)...]))
    }

    /// `text` parsed as a template, a config error at this line when it cannot be.
    func template(_ text: String, use: Template.Use = .request, allowsContent: Bool = false) throws(ConfigError)
        -> ConfigValue
    {
        var value: ConfigValue
        do {
            value = try ConfigValue(parsing: text, use: use, origin: origin)
        } catch {
            throw .badTemplate(path: path, line: entry.line, key: entry.key, problem: error)
        }
        value.key = entry.key
        if !allowsContent && value.template.uses(.content) {
            throw .badTemplate(
                path: path, line: entry.line, key: entry.key,
                problem: .notAllowed(
                    "{content}", place: "in '\(entry.key)' (only in a body template, or alone as a field)"))
        }
        return value
    }
}

/// A section value that holds TLS and proxy settings, which `ConnectionSettings` reads.
protocol HasConnectionSettings: SendableMetatype {
    var connection: ConnectionSettings { get set }
}

extension Settings: HasConnectionSettings {}
extension ServiceProfile: HasConnectionSettings {}

extension ConfigKey where Target: HasConnectionSettings {
    /// A key `ConnectionSettings` reads (`ca-file`, `proxy`, …).
    static func connection(_ name: String, _ section: Section, _ doc: String) -> Self {
        .init(name, section, doc) { target, value throws(ConfigError) in
            try target.connection.apply(value.entry, path: value.path)
        }
    }
}

extension Sequence {
    /// The table's rows by name, for `apply`.
    func keyedByName<Target>() -> [String: ConfigKey<Target>] where Element == ConfigKey<Target> {
        Dictionary(map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
