import PasteCore

/// Looks for private keys and access tokens in text before it is uploaded.
///
/// A paste is public or at least out of the person's hands; a key pasted by mistake cannot be
/// taken back. The guard recognises the kinds listed in `SecretPattern`, each declared once in
/// `SecretRule.table`, and reports each finding with its offset, line and column and a redacted
/// excerpt, never the secret itself. `SecretScanner` does the work, on a whole text or chunk by
/// chunk. PasteCLI refuses the upload with `GuardError`
/// unless `--force` is given or the person confirms at a hotkey.
public struct SecretGuard: Sendable {
    /// The most findings reported; past that, more would not change the decision.
    public var maximumFindings: Int

    /// The default cap on findings.
    public static let defaultMaximumFindings = 100

    /// Makes a guard.
    public init(maximumFindings: Int = SecretGuard.defaultMaximumFindings) {
        self.maximumFindings = maximumFindings
    }

    /// The secrets in `text`, in order of position.
    public func scan(_ text: [UInt8]) -> [SecretFinding] {
        scan(text.span)
    }

    /// The secrets in `text`, in order of position.
    ///
    /// Terminal escapes inside a token (`ghp_abc\e[01;31m\e[Kdef…`) hide nothing: the
    /// scanner takes them out around each one (`SecretDecoding.controlSequences`), and the
    /// finding keeps the offset of the original text, and the line and column the terminal
    /// showed.
    public func scan(_ text: Span<UInt8>) -> [SecretFinding] {
        SecretScanner.scan(text, maximumFindings: maximumFindings)
    }

    /// A scanner for text that arrives in chunks (a stream, a clipboard read in increments),
    /// with this guard's cap on findings; with `countingLines: false`, for text still at hand
    /// at the end, lines are counted only from its first finding on, and the findings placed
    /// afterwards (`findings(of:in:)`, `SecretLinePlacer`).
    public func makeScanner(countingLines: Bool = true) -> SecretScanner {
        SecretScanner(maximumFindings: maximumFindings, countingLines: countingLines)
    }

    /// A scanner for a stream whose first `scannedBytes` this guard already scanned whole and
    /// found clean (`SecretScanner.init(maximumFindings:alreadyScanned:countingLines:)`); with
    /// `countingLines: false`, for a stream whose copy is at hand at the end (its outbox entry),
    /// lines are counted only from its first finding on; with `watchingNUL`, it also says where
    /// the first NUL byte is (`SecretScanner.firstNUL`).
    public func makeScanner(alreadyScanned scannedBytes: Int, countingLines: Bool = true, watchingNUL: Bool = false)
        -> SecretScanner
    {
        SecretScanner(
            maximumFindings: maximumFindings, alreadyScanned: scannedBytes, countingLines: countingLines,
            watchingNUL: watchingNUL)
    }

    /// The findings of a scanner that was fed a whole text as it arrived (a large clipboard,
    /// scanned while it was read: a Clipboard `read(_:)` whose `ReadRequest` carries an observer):
    /// what `scan` of that text gives, in order of position.
    public func findings(of scanner: SecretScanner) -> [SecretFinding] {
        var finished = scanner
        return finished.finish()
    }

    /// `findings(of:)` of a scanner that was fed `text`, on their lines and columns in it
    /// (counted over what the scanner did not count: see `SecretScanner.lineBase`).
    public func findings(of scanner: SecretScanner, in text: Span<UInt8>) -> [SecretFinding] {
        var finished = scanner
        let found = finished.finish()
        return SecretLinePlacer.place(found, countedFrom: finished.lineBase ?? 0, in: text)
    }

    /// Throws when `text` holds a secret.
    ///
    /// - Parameter source: What the text is, for the message (`-f` file name); nil for the
    ///   clipboard or stdin.
    /// - Throws: `GuardError.secretsFound` with every finding.
    public func check(_ text: [UInt8], source: String? = nil) throws(GuardError) {
        let findings = scan(text)
        if !findings.isEmpty { throw .secretsFound(findings, source: source) }
    }
}

/// One secret found in a text: what it looks like and where, never the secret itself.
public struct SecretFinding: Sendable, Equatable, CustomStringConvertible {
    /// The kind of secret.
    public var pattern: SecretPattern
    /// The byte offset of its first byte from the start of the text (or stream).
    public var offset: Int
    /// The line, counted from 1.
    public var line: Int
    /// The column in characters (Unicode scalars), counted from 1.
    public var column: Int
    /// A redacted excerpt: the public prefix of a token and its last two characters
    /// (`AKIA…XY`), a PEM header, or a key name (`password=…`).
    public var excerpt: String
    /// How many bytes the match spans from `offset` (0 when not known: a finding made by hand).
    public var length: Int
    /// Where the secret value itself begins, counted from `offset`: past a key name
    /// (`password=`), a URL's scheme and user, a header's scheme. What `--redact` masks is
    /// `offset + valueOffset ..< offset + length` (`SecretMasking`).
    public var valueOffset: Int
    /// Whether it was found in decoded text (a base64 block, escapes) and placed back on the
    /// bytes it came from: masking takes the whole encoded run around it.
    public var isDecoded: Bool

    /// Makes a finding.
    public init(
        pattern: SecretPattern, offset: Int = 0, line: Int, column: Int, excerpt: String, length: Int = 0,
        valueOffset: Int = 0, isDecoded: Bool = false
    ) {
        self.isDecoded = isDecoded
        self.pattern = pattern
        self.offset = offset
        self.line = line
        self.column = column
        self.excerpt = excerpt
        self.length = length
        self.valueOffset = valueOffset
    }

    /// One line: `private key (PEM) at line 3`.
    public var description: String { "\(pattern.name) at line \(line)" }

    /// Two findings are the same when they name the same kind at the same place with the same
    /// excerpt: `length` and `valueOffset` follow from the match, and only masking reads them.
    public static func == (lhs: SecretFinding, rhs: SecretFinding) -> Bool {
        lhs.pattern == rhs.pattern && lhs.offset == rhs.offset && lhs.line == rhs.line && lhs.column == rhs.column
            && lhs.excerpt == rhs.excerpt
    }
}

/// The secret guard refused an upload.
public enum GuardError: PasteError, Equatable {
    /// The text holds the findings (at least one). `source` names a file given with `-f`.
    case secretsFound([SecretFinding], source: String?)
    /// A value sent along with the text holds the findings (at least one): `value` names it
    /// (`the title`, `the field 'kind'`); the value itself is never shown.
    case secretInValue([SecretFinding], value: String)

    /// How many further findings the hint lists by name.
    static let listedInHint = 3

    public var message: String {
        switch self {
        case .secretsFound(let findings, let source):
            let subject = source.map { " '\(shownPath: $0)'" } ?? ""
            guard let first = findings.first else { return "refusing to upload\(subject)" }
            return "refusing to upload\(subject): it looks like it holds "
                + "\(first.pattern.nameWithArticle) (line \(first.line), column \(first.column)); "
                + "use --force to upload anyway"
        case .secretInValue(let findings, let value):
            guard let first = findings.first else { return "refusing to upload: \(value) looks like a secret" }
            return "refusing to upload: \(value) looks like it holds \(first.pattern.nameWithArticle); "
                + "use --force to upload anyway"
        }
    }

    public var hint: String? {
        switch self {
        case .secretInValue:
            return nil
        case .secretsFound(let findings, _):
            let others = findings.dropFirst()
            guard !others.isEmpty else { return nil }
            var listed = others.prefix(GuardError.listedInHint).map(\.description)
            if others.count > GuardError.listedInHint {
                listed.append("and \(others.count - GuardError.listedInHint) more")
            }
            return "also found: " + listed.joined(separator: ", ")
        }
    }

    public var exitStatus: ExitStatus { .refused }
}
