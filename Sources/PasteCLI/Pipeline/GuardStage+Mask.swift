import PasteCore
import SecretGuard
import Stores

/// Mask instead of refuse (issue 42, item 3): `--redact`, a `redact` key, or the answer "Upload
/// with secrets masked" at a hotkey.
///
/// The text is decided here, right after the guard's scan and before anything is built, sent
/// or journaled: from here on the input *is* the masked text, so the request, the outbox entry
/// of a failure (`SendStage.prepare`, `RecordStage.keep`), a living paste's entry, the digest
/// and the history's preview see only it. Stdin is not journaled as it is read when the plan
/// masks (`ReadStage`), so the raw text never reaches the disk: its masked text is journaled at
/// send instead (`SendStage.prepare`); an entry that was journaled anyway (stdin at a hotkey,
/// answered "masked") is removed here.
extension GuardStage {
    /// `input` with its `findings` masked.
    ///
    /// - Throws: `RedactionError.cannotMask` for text not held in memory (a stream, a file past
    ///   `PasteInput.inMemoryLimit`), `RedactionError.stillFound` when the masked text still
    ///   holds something the guard finds: either way nothing is sent (77).
    static func mask(_ input: PasteInput, findings: [SecretFinding]) throws(RedactionError) -> PasteInput {
        guard let bytes = input.bytes else { throw .cannotMask(source: input.label, limit: PasteInput.inMemoryLimit) }
        let masking = SecretMasking(masking: bytes, findings: findings)
        guard masking.remaining.isEmpty else { throw .stillFound(masking.remaining, source: input.label) }
        var masked = input
        masked.content = .bytes(masking.text)
        masked.bytes = masking.text
        masked.secretScan = nil
        masked.masked = masking.masked
        if case .success(let claim)? = input.journal, !claim.isRemoved {
            // It holds the text as read: removed, and the masked text is kept on failure as a
            // selection's is (`SendStage.prepare` with no journal).
            try? claim.discard()
        }
        masked.journal = nil
        return masked
    }

    /// A stream is sent as it is read: it cannot be masked (a secret past its start would be
    /// seen only once the bytes before it are on their way). Refused before the guard looks.
    static func refuseUnmaskable(_ input: PasteInput) throws(RedactionError) {
        if input.type.category == .text, case .stream = input.content {
            throw .cannotMask(source: input.label, limit: PasteInput.inMemoryLimit)
        }
    }

    /// The line stderr says of a masked input (nothing under `-q` or `--json`, whose object
    /// lists them): `masked 2 secrets in stdin: github-token at line 2, column 13, …`.
    static func maskedLine(_ input: PasteInput) -> String? {
        guard !input.masked.isEmpty else { return nil }
        let count = input.masked.count
        let shown = input.masked.prefix(Self.maskedListed).map(\.description)
        let more = count > Self.maskedListed ? ", and \(count - Self.maskedListed) more" : ""
        return "masked \(count == 1 ? "1 secret" : "\(count) secrets") in \(input.label): "
            + shown.joined(separator: ", ") + more
    }

    /// How many masked secrets stderr names before counting the rest.
    static let maskedListed = 5
}

/// Why `--redact` sent nothing.
enum RedactionError: PasteError {
    /// Text that is not held whole in memory: piped stdin or a `-f` file past `limit` bytes.
    case cannotMask(source: String, limit: Int)
    /// The masked text still holds what the guard finds (a secret the mask did not cover).
    case stillFound([SecretFinding], source: String)

    var message: String {
        switch self {
        case .cannotMask(let source, let limit):
            return "refusing to upload \(source): --redact masks only text held in memory "
                + "(at most \(limit >> 20) MiB), and this is larger; nothing was sent"
        case .stillFound(let findings, let source):
            let first = findings.first.map {
                " (\($0.pattern.nameWithArticle) at line \($0.line), column \($0.column))"
            }
            return "refusing to upload \(source): after masking, it still looks like it holds a secret"
                + (first ?? "") + "; nothing was sent"
        }
    }

    var hint: String? { nil }

    var exitStatus: ExitStatus { .refused }
}
