import FoundationEssentials
import Synchronization

/// The values paste must never show or store, and the masking of them: one per run, shared by
/// everything that prints or keeps text (PasteCLI's `Output`, `History`, `Outbox`).
///
/// Values are registered as they become known, once, early: a `${env:…}`, `${file:…}` or
/// `${cmd:…}` value when `ValueExpansion` resolves it (the plan resolves a proxy, the build
/// stage a request), a header's value, URL user information, a query parameter or form field
/// named like a credential, and proxy credentials (`Redactor+Request.swift`). A value
/// registered by one stage is masked in whatever any other prints or stores afterwards.
///
/// What is matched:
/// - every registered value at least `shortestValue` characters long (shorter ones are not
///   searched for: masking `a` or `1` would garble every line and hide nothing worth hiding;
///   the header or field that carries one is still masked by name);
/// - its percent-encoded, form-encoded and JSON-escaped spellings, where they differ (a value
///   in a URL's query, a form body, a server's JSON error);
/// - the start of one that a message cut short (`…` right after at least `shortestValue` of
///   its first characters: a server's excerpt of 160 characters may end inside a token).
///
/// Until something registers a value, `redact` returns its text unchanged after one atomic
/// load: no lock, so no system call (a first lock costs a `gettid`) on the hotkey path.
public final class Redactor: Sendable {
    /// What stands in for a masked value.
    public static let mask = Redaction.mask
    /// Values shorter than this (in characters) are not masked by search.
    public static let shortestValue = 4
    /// How a message marks where it was cut (`Sanitizer`).
    static let cutMark: Character = "…"

    // Written and read on the main thread, read from libcurl's (the `-v` trace); the Mutex
    // makes that a checked fact.
    private let values = Mutex<[String]>([])
    /// Whether `values` holds anything: read without the lock.
    private let hasValues = Atomic<Bool>(false)

    public init() {}

    /// Masks `value` from now on wherever it appears, as written and in its encoded spellings.
    public func register(_ value: String) {
        guard value.count >= Self.shortestValue else { return }
        let spellings = Self.spellings(of: value)
        values.withLock { values in
            for spelling in spellings where !values.contains(spelling) { values.append(spelling) }
            // Longest first, so a value that contains another is masked whole.
            values.sort { $0.count > $1.count }
        }
        hasValues.store(true, ordering: .releasing)
    }

    /// Whether any value is registered.
    public var isEmpty: Bool { !hasValues.load(ordering: .acquiring) }

    /// `text` with every registered value replaced by `mask`.
    public func redact(_ text: String) -> String {
        guard hasValues.load(ordering: .acquiring) else { return text }
        let values = self.values.withLock { $0 }
        var result = text
        for value in values where result.contains(value) {
            result = result.replacing(value, with: Self.mask)
        }
        if result.contains(Self.cutMark) { result = Self.maskingCutValues(result, values: values) }
        return result
    }

    /// A closure that redacts, for code that takes one (`History`, `Outbox`).
    public var redaction: @Sendable (String) -> String { { [self] in redact($0) } }

    // MARK: - Spellings

    /// The value and its encoded spellings that differ from it.
    static func spellings(of value: String) -> [String] {
        var spellings = [value]
        for spelling in [
            percentEncoded(value), formEncoded(value), jsonEscaped(value, slash: false),
            jsonEscaped(value, slash: true),
        ]
        where !spellings.contains(spelling) {
            spellings.append(spelling)
        }
        return spellings
    }

    /// RFC 3986's unreserved characters stay; every other byte is `%XX` (upper-case hex).
    static func percentEncoded(_ value: String, spaceAsPlus: Bool = false) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " ") where spaceAsPlus:
                result += "+"
            default:
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// As an HTML form encodes it (`application/x-www-form-urlencoded`: a space is `+`).
    static func formEncoded(_ value: String) -> String { percentEncoded(value, spaceAsPlus: true) }

    /// As a JSON string holds it (without the quotes); `slash`: with `/` written `\/`, as
    /// some servers (and Foundation) write it.
    static func jsonEscaped(_ value: String, slash: Bool) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "/" where slash: result += "\\/"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: - Values cut short

    /// Masks what comes right before each `…` when it is the start of a value (at least
    /// `shortestValue` characters of it): a message cut inside a secret shows none of it.
    static func maskingCutValues(_ text: String, values: [String]) -> String {
        var result = ""
        var rest = Substring(text)
        while let cut = rest.firstIndex(of: cutMark) {
            var before = rest[..<cut]
            if let length = longestCutValue(endingAt: before, values: values) {
                before = before.dropLast(length)
                result += before + mask
            } else {
                result += before
            }
            result.append(cutMark)
            rest = rest[rest.index(after: cut)...]
        }
        return result + rest
    }

    /// The length of the longest start of a value (shorter than the value, at least
    /// `shortestValue`) that `text` ends with.
    private static func longestCutValue(endingAt text: Substring, values: [String]) -> Int? {
        var longest: Int?
        for value in values {
            var length = min(value.count - 1, text.count)
            while length >= shortestValue {
                if text.hasSuffix(value.prefix(length)) {
                    longest = max(longest ?? 0, length)
                    break
                }
                length -= 1
            }
        }
        return longest
    }
}
