import PasteCore

/// Guard, after read: nothing that looks like a key or token leaves without consent
/// (`--force`, or at a hotkey the person's answer in a window).
///
/// Only text is scanned: an image or another binary file (`PasteInput.type`) goes byte-exact to
/// a file host, and the patterns of keys and tokens say nothing about its bytes.
///
/// The text is scanned whole before anything is sent: in memory, a large `-f` file from disk in
/// chunks, a stream by the start held in memory; a large selection was scanned while it was read
/// (`ReadStage`), and its findings are taken as they are. Seam: the rest of a stream is scanned nowhere
/// yet; it goes out in `SendStage` (`streamObserver`), where an incremental scanner can see each
/// chunk as it is sent, beside the digest.
enum GuardStage {
    /// Checks every text input; a "private" answer makes `options` private.
    ///
    /// - Parameters:
    ///   - reading: the inputs, and where each is going (named in the question; whether it can
    ///     be private).
    ///   - windows: the hotkey's windows, for the question.
    /// - Throws: `GuardError.secretsFound` (77) without a window, `Cancelled` (130) when the
    ///   person said no.
    static func check(_ reading: ReadStage.Reading, windows: DesktopWindows, options: inout PasteOptions) throws {
        for input in reading.inputs where input.type.category == .text {
            let findings =
                if let scanned = input.secretScan {
                    SecretGuard().findings(of: scanned)
                } else if input.bytes == nil, case .file(let path, _) = input.content {
                    SecretGuard().scan(filePath: path) ?? []
                } else {
                    SecretGuard().scan(input.inspectable)
                }
            guard let first = findings.first else { continue }
            if windows.isShown,
                let choice = try windows.confirmSecretUpload(first, service: reading.route(of: input).service)
            {
                if choice == .uploadPrivately { options.isPrivate = true }
                continue
            }
            throw GuardError.secretsFound(findings, source: input.fileName)
        }
    }
}
