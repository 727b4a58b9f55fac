/// Why a template cannot be used: a config error at its line.
public enum TemplateProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// `{contents}`: no placeholder (or, in a result, answer value) of that name.
    case unknownName(String, use: Template.Use)
    /// `${evn:X}`: no reference of that kind.
    case unknownReference(String)
    /// A hole without its closing brace.
    case unclosed(String)
    /// A hole that has no meaning where it is written (`{json:/a}` in a request, `{content}`
    /// in a header, `${env:X}` in a result).
    case notAllowed(String, place: String)
    /// A hole whose argument is not of the right form.
    case badArgument(String, expected: String)
    /// A `{regex:…}` that does not compile.
    case badPattern(String, reason: String)
    /// A `${cmd:…}` whose words cannot be split.
    case badCommand(String, reason: String)

    public var description: String {
        switch self {
        case .unknownName(let name, let use):
            let known =
                switch use {
                case .request: Placeholder.allCases.map { "{\($0.rawValue)}" }
                case .result:
                    ["{json:/…}", "{regex:…}", "{xml:…}", "{header:…}", "{body}", "{location}", "{url}"]
                        + Placeholder.allCases.filter { $0 != .content }.map { "{\($0.rawValue)}" }
                }
            return "unknown placeholder {\(name)}; known: " + known.joined(separator: " ")
        case .unknownReference(let kind):
            return "unknown reference ${\(kind):…}; expected ${env:…}, ${file:…} or ${cmd:…}"
        case .unclosed(let start): return "'\(start)' is never closed with '}'"
        case .notAllowed(let hole, let place): return "\(hole) cannot be used \(place)"
        case .badArgument(let hole, let expected): return "\(hole) needs \(expected)"
        case .badPattern(let pattern, let reason): return "regular expression '\(pattern)' does not compile: \(reason)"
        case .badCommand(let command, let reason): return "command '\(command)' cannot be split into words: \(reason)"
        }
    }
}
