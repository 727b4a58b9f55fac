/// Splits the text of `${cmd:COMMAND}` into argv words, the simple part of how a shell does.
///
/// No shell ever runs: the words are the program (looked up on `PATH`) and its arguments.
/// The rules (paste-config(5), SECRETS):
///
/// - Spaces and tabs separate words.
/// - `'…'` keeps everything inside as it is.
/// - `"…"` keeps everything inside, except that `\"` and `\\` stand for `"` and `\`.
/// - Outside quotes, `\` keeps the next character as it is (`\ ` is a space inside a word).
/// - Nothing else is special: no `$VAR`, globs, `~`, pipes, `;` or redirections.
public enum CommandWords {
    /// Why a command cannot be split.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case unclosedQuote(Character)
        case trailingBackslash
        case empty

        public var description: String {
            switch self {
            case .unclosedQuote(let quote): "a \(quote) quote is never closed"
            case .trailingBackslash: "it ends with a lone backslash"
            case .empty: "it has no words"
            }
        }
    }

    /// The words of `command`.
    public static func split(_ command: String) throws(Problem) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = command.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "'":
                inWord = true
                var closed = false
                while let inner = iterator.next() {
                    if inner == "'" {
                        closed = true
                        break
                    }
                    current.append(inner)
                }
                if !closed { throw .unclosedQuote("'") }
            case "\"":
                inWord = true
                var closed = false
                while let inner = iterator.next() {
                    if inner == "\"" {
                        closed = true
                        break
                    }
                    if inner == "\\" {
                        guard let escaped = iterator.next() else { break }
                        if escaped != "\"" && escaped != "\\" { current.append("\\") }
                        current.append(escaped)
                        continue
                    }
                    current.append(inner)
                }
                if !closed { throw .unclosedQuote("\"") }
            case "\\":
                guard let escaped = iterator.next() else { throw .trailingBackslash }
                inWord = true
                current.append(escaped)
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        guard !words.isEmpty else { throw .empty }
        return words
    }
}
