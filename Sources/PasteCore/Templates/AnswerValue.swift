/// A value read from the server's answer.
public enum AnswerValue: Sendable, Equatable {
    /// The body, surrounding white space trimmed.
    case body
    /// The URL of the last answer, after redirects.
    case url
    /// The `Location` header of the first answer; redirects are then not followed.
    case location
    /// A header of the last answer, by name (any case).
    case header(String)
    /// The value at an RFC 6901 pointer in a JSON body (or in `input`); numbers and booleans as
    /// written.
    case json(pointer: String, input: Template?)
    /// The value an XPath subset selects in an XML body (or in `input`).
    case xml(XMLPath, input: Template?)
    /// A group of the first match of a regular expression in the body (or in `input`).
    case regex(pattern: String, group: RegexGroup, input: Template?)
}
