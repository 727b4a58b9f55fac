/// A configuration text with holes, parsed once when the configuration is loaded.
///
/// Holes are filled when a request is built (`{content}`, `{title}`, `${env:TOKEN}`) or when
/// the answer is read (`{json:/key}`, `{header:Location}`). Every hole is known when the file is
/// read, so a typo (`{contents}`, `${evn:X}`) is a config error naming the line, never text
/// sent as written. ShareX definitions are parsed into the same parts (`ShareXSyntax`), so one
/// engine runs both, and a definition prints as a config section when every part it uses has a
/// config spelling.
///
/// The config spelling (paste-config(5), TEMPLATES):
///
///     {name} {name:fallback}     a placeholder: content, filename, title, lang, expiry, private;
///                                the fallback is itself a template ({title:{filename}})
///     ${env:NAME} ${file:PATH} ${cmd:COMMAND}    a secret (request side only)
///     {json:/pointer} {regex:RE} {regex-group:GROUP:RE} {xml:/path} {header:NAME} {body}
///     {location} {url}           a value from the answer (result side only)
///     {random:a|b} {select:a|b} {prompt:title|default} {base64:text}
///                                ShareX's functions; arguments are templates, `\` escapes
///     {{                         a literal "{"
///
/// Anything else is literal text: a `{` that does not start a name followed by `}` or `:` (so
/// JSON's own braces need no escaping), and a `}` outside a hole.
public struct Template: Sendable, Equatable {
    /// The pieces, in order.
    public var parts: [Part]

    /// One piece of a template.
    public indirect enum Part: Sendable, Equatable {
        /// Text as it is.
        case literal(String)
        /// A value of the paste, or the fallback when the paste has none.
        case placeholder(Placeholder, fallback: Template?)
        /// A secret from the environment, a file or a command.
        case reference(Reference)
        /// A value from the server's answer.
        case answer(AnswerValue)
        /// One of the choices, at random (ShareX `{random:a|b}`).
        case random([Template])
        /// One of the choices, picked by the person in a window (ShareX `{select:a|b}`).
        case select([Template])
        /// Text the person types in a window (ShareX `{prompt:title|default}`).
        case prompt(title: Template, initial: Template)
        /// The base64 encoding of the text's UTF-8 (ShareX `{base64:user:password}`).
        case base64(Template)
    }

    /// Makes a template of parts; adjacent text is joined and empty text dropped, so equal
    /// templates have equal parts.
    public init(_ parts: [Part]) {
        var joined: [Part] = []
        for part in parts {
            if case .literal(let text) = part {
                if text.isEmpty { continue }
                if case .literal(let previous)? = joined.last {
                    joined[joined.count - 1] = .literal(previous + text)
                    continue
                }
            }
            joined.append(part)
        }
        self.parts = joined
    }

    /// A template that is just `text`.
    public init(literal text: String) { parts = text.isEmpty ? [] : [.literal(text)] }

    /// The text, when the template has no holes at all.
    public var literalText: String? {
        var text = ""
        for part in parts {
            guard case .literal(let piece) = part else { return nil }
            text += piece
        }
        return text
    }

    /// Every part, depth first, nested templates included.
    public var allParts: [Part] {
        parts.flatMap { part -> [Part] in
            switch part {
            case .literal, .reference: return [part]
            case .placeholder(_, let fallback): return [part] + (fallback?.allParts ?? [])
            case .answer(let value):
                switch value {
                case .json(_, let input?), .xml(_, let input?), .regex(_, _, let input?): return [part] + input.allParts
                default: return [part]
                }
            case .random(let choices), .select(let choices): return [part] + choices.flatMap(\.allParts)
            case .prompt(let title, let initial): return [part] + title.allParts + initial.allParts
            case .base64(let inner): return [part] + inner.allParts
            }
        }
    }

    /// Whether the template uses the placeholder anywhere (fallbacks included).
    public func uses(_ placeholder: Placeholder) -> Bool {
        allParts.contains { if case .placeholder(placeholder, _) = $0 { true } else { false } }
    }

    /// Whether the template reads a secret (`${env:…}`, `${file:…}`, `${cmd:…}`).
    public var hasReference: Bool {
        allParts.contains { if case .reference = $0 { true } else { false } }
    }

    /// Whether the template reads the answer's `Location` without following redirects.
    public var usesLocation: Bool {
        allParts.contains { $0 == .answer(.location) }
    }

    /// Whether the template reads anything from the answer.
    public var readsAnswer: Bool {
        allParts.contains { if case .answer = $0 { true } else { false } }
    }

    /// Whether the template is exactly `{content}` (a form field that carries the content).
    public var isContentAlone: Bool { parts == [.placeholder(.content, fallback: nil)] }
}
