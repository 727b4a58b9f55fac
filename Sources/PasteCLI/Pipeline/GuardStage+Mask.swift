import PasteCore
import SecretGuard
import Stores
import SystemInterop

/// Mask instead of refuse (issue 42, item 3): `--redact`, a `redact` key, or the answer "Upload
/// with secrets masked" at a hotkey.
///
/// The text is decided here, right after the guard's scan and before anything is built, sent
/// or journaled: from here on the input *is* the masked text, so the request, the outbox entry
/// of a failure (`SendStage.prepare`, `RecordStage.keep`), a living paste's entry, the digest
/// and the history's preview see only it. Stdin held in memory is not journaled as it is read
/// when the plan masks (`ReadStage`), so its raw text never reaches the disk: its masked text
/// is journaled at send instead (`SendStage.prepare`); an entry that was journaled anyway
/// (stdin at a hotkey, answered "masked") is removed here.
///
/// Text too large for memory is masked from a file a chunk at a time
/// (`SecretMasking.mask(filePath:findings:into:)`), memory bounded whatever its size: a `-f`
/// file from itself, piped stdin from the outbox entry it was held in whole before anything
/// was sent (`ReadStage`, `PasteJob.FreshText.hold`). The masked copy goes to a file of the
/// run's own with no name (`Outbox.makeScratchFile`), which the request reads; the held entry
/// with the raw text is removed, and the outbox keeps only the masked copy (journaled at send
/// for stdin, on failure for a file).
extension GuardStage {
    /// `input` with its `findings` masked.
    ///
    /// - Parameter context: where the masked copy of a text too large for memory is written
    ///   (the outbox folder).
    /// - Throws: `RedactionError.stillFound` when the masked text still holds something the
    ///   guard finds (77, nothing is sent); `RedactionError.cannotMask` for a stream that is
    ///   sent as it is read (never held: only a plan that masks holds one); for a text masked
    ///   from a file, `InputError.unreadable` or a `StoreError` (the copy cannot be written).
    static func mask(_ input: PasteInput, findings: [SecretFinding], context: Context) throws -> PasteInput {
        guard let bytes = input.bytes else { return try maskFile(input, findings: findings, context: context) }
        let masking = SecretMasking(masking: bytes, findings: findings)
        guard masking.remaining.isEmpty else { throw RedactionError.stillFound(masking.remaining, source: input.label) }
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

    /// Masks a text read from a file (a large `-f` file, or stdin held in its entry) into a
    /// file of the run's own, a chunk at a time, and scans the copy again before it is sent.
    private static func maskFile(_ input: PasteInput, findings: [SecretFinding], context: Context) throws -> PasteInput
    {
        guard case .file(let path, _) = input.content else {
            throw RedactionError.cannotMask(source: input.label)
        }
        let copy = try maskedCopy(ofFile: path, label: input.label, findings: findings, context: context)
        if let claim = input.heldClaim {
            // The raw text, held before the scan: the outbox keeps only the masked copy.
            try? claim.discard()
        }
        var result = PasteInput(
            content: .file(path: copy.path, size: copy.size), label: input.label, fileName: input.fileName)
        result.type = input.type
        result.isStandardInput = input.isStandardInput
        result.isFromSelection = input.isFromSelection
        result.masked = copy.masked
        return result
    }

    /// A masked copy of the text in the file at `path`: written a chunk at a time to a file of
    /// the run's own with no name (`Outbox.makeScratchFile`), then scanned again. For a text
    /// too large for memory (`maskFile`) and for an outbox entry sent with `--redact`
    /// (`RetryStage`), whose entry keeps its text as it was until the masked paste is made.
    ///
    /// - Parameter label: what messages call the text (`stdin`, a path, `outbox entry ID`).
    /// - Returns: the copy, read by its descriptor (`/proc/self/fd/N`, open for the rest of the
    ///   run, as a file whose name is not text is: `PasteInput.file`), its size, and what was
    ///   masked.
    /// - Throws: `RedactionError.stillFound` when the copy still holds what the guard finds;
    ///   `InputError.unreadable` or a `StoreError` (the copy cannot be written).
    static func maskedCopy(
        ofFile path: String, label: String, findings: [SecretFinding], context: Context
    ) throws -> (path: String, size: Int64, masked: [MaskedSecret]) {
        let scratch = try Outbox(context: context).makeScratchFile()
        let masked: [MaskedSecret]
        let size: Int64
        do {
            masked = try SecretMasking.mask(filePath: path, findings: findings) { chunk in
                do throws(Errno) {
                    try scratch.writeAll(chunk)
                } catch {
                    throw StoreError.cannotWrite(path: Outbox(context: context).folder, errno: error)
                }
            }
            size = try scratch.status().size
        } catch let error as StoreError {
            throw error
        } catch let error as Errno {
            throw InputError.unreadable(path: label, reason: error.message)
        }
        let copy = "/proc/self/fd/\(scratch.release())"
        guard let remaining = SecretGuard().scan(filePath: copy) else {
            throw InputError.unreadable(path: label, reason: Errno.ioError.message)
        }
        guard remaining.isEmpty else { throw RedactionError.stillFound(remaining, source: label) }
        return (copy, size, masked)
    }

    /// A text the guard found clean: stdin held whole in its entry before the scan
    /// (`ReadStage`) becomes an entry like any (`OutboxClaim.finishReading`), sent from there
    /// and removed once the paste is recorded. Nothing for any other input.
    ///
    /// - Throws: `StoreError` when the entry cannot be finished (it is removed; nothing is sent).
    static func release(_ input: PasteInput) throws(StoreError) {
        guard let claim = input.heldClaim, claim.state == .writing else { return }
        do {
            try claim.finishReading()
        } catch {
            try? claim.discard()
            throw error
        }
    }

    /// The line stderr says of a masked input (nothing under `-q` or `--json`, whose object
    /// lists them): `masked 2 secrets in stdin: github-token at line 2, column 13, …`.
    static func maskedLine(_ input: PasteInput) -> String? {
        maskedLine(input.masked, in: input.label)
    }

    /// The line stderr says of the secrets `masked` in the text called `label` (those in a
    /// value it carries are said by the values' own line); nil when none was.
    static func maskedLine(_ masked: [MaskedSecret], in label: String) -> String? {
        let text = masked.filter { $0.field == nil }
        guard !text.isEmpty else { return nil }
        let count = text.count
        let shown = text.prefix(Self.maskedListed).map(\.description)
        let more = count > Self.maskedListed ? ", and \(count - Self.maskedListed) more" : ""
        return "masked \(count == 1 ? "1 secret" : "\(count) secrets") in \(label): "
            + shown.joined(separator: ", ") + more
    }

    /// How many masked secrets stderr names before counting the rest.
    static let maskedListed = 5
}

/// Why `--redact` sent nothing.
enum RedactionError: PasteError {
    /// A stream that is being sent as it is read (not held whole first: only a plan that
    /// masks holds one), which cannot be masked.
    case cannotMask(source: String)
    /// The masked text still holds what the guard finds (a secret the mask did not cover).
    case stillFound([SecretFinding], source: String)

    var message: String {
        switch self {
        case .cannotMask(let source):
            return "refusing to upload \(source): it is sent as it is read, so its secrets cannot be masked; "
                + "nothing was sent"
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

    /// Held, as the guard's own refusals are (`GuardError.disposition`): an outbox entry whose
    /// values cannot be masked (`--retry`) waits for the person, never as a paste that may
    /// have been made.
    var disposition: Disposition { Disposition(.hold, exitStatus: exitStatus, reason: .heldByGuard) }
}
