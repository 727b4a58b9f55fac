import PasteCore

/// A decoding the guard runs only where one of its trigger literals is: the engine's hook for
/// text that hides a secret behind an encoding (a JSON `\/`, a URL's `%2F`, a base64 value under
/// a secret-holding key, a token wrapped over lines).
///
/// A decoder declares its trigger literals as a row of `SecretRule.table` does; they enter the
/// prefilter's tables with the rows' (`SecretPrefilter`), so a decoder costs nothing where its
/// literals are absent and is never a second pass over the text. Where one is found, the
/// scanner hands the decoder the same window a row's check gets (`SecretScanner.lookbehind`
/// before the literal, `SecretScanner.lookahead` after it, or less at the ends of the input),
/// runs every row of the table (not the decoders again) over what `decode` returns, and reports
/// each finding at the place in the text its first byte came from. A finding in decoded text
/// competes with the others as any finding does (`SecretScanner.add`: the more specific kind
/// wins an overlap), so a token seen both plainly and decoded is reported once.
///
/// To add one: a new file with a `static let` of this type, and its name in `table`.
struct SecretDecoder: Sendable {
    /// What `decode` found: the decoded bytes, and for each the offset in the window of the
    /// first byte it was decoded from (so `origins.count == bytes.count`, in increasing order).
    struct Decoded: Sendable {
        var bytes: [UInt8]
        var origins: [Int]
    }

    /// For messages and tests: what the decoding is (`percent-encoding`).
    var name: String
    /// The literals that make the scanner call `decode`, each at least two bytes long.
    var triggers: [String]
    /// Whether the triggers match in any letter case (`%2f`, `%2F`).
    var ignoresCase: Bool
    /// Decodes around the trigger literal at `start..<end` of `window`; nil when nothing there
    /// decodes.
    var decode: @Sendable (_ window: Span<UInt8>, _ start: Int, _ end: Int) -> Decoded?

    /// Makes a decoder.
    init(
        _ name: String, triggers: [String], ignoringCase ignoresCase: Bool = false,
        decode: @escaping @Sendable (_ window: Span<UInt8>, _ start: Int, _ end: Int) -> Decoded?
    ) {
        precondition(triggers.allSatisfy { $0.utf8.count >= 2 }, "a trigger needs two bytes for the prefilter")
        self.name = name
        self.triggers = triggers
        self.ignoresCase = ignoresCase
        self.decode = decode
    }

    /// Every decoder the guard runs, in the order they are tried at one place.
    static let table: [SecretDecoder] = []
}
