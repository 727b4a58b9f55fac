import PasteCore
import SecretGuard

/// Guard, after read: nothing that looks like a key or token leaves without consent
/// (`--force`, or at a hotkey the person's answer in a window).
///
/// Only text is scanned: an image or another binary file (`PasteInput.type`) goes byte-exact to
/// a file host, and the patterns of keys and tokens say nothing about its bytes.
///
/// The text is scanned whole before anything is sent: in memory, a large `-f` file from disk in
/// chunks (and so is stdin a masking plan held whole in the outbox: `ReadStage`), a stream by
/// the start held in memory; a large selection was scanned while it was read
/// (`ReadStage`), and its findings are taken as they are. The rest of a stream is scanned as it
/// is sent (`streamChecks`: the request's `ContentChecks.scansSecrets`, run by the upload's
/// inspection before libcurl has each chunk): a secret there stops the request before it is
/// complete, and the text is held in the outbox (`RecordStage`).
enum GuardStage {
    /// Checks every text input; a "private" answer makes `options` private, a "masked" answer
    /// (or a plan that masks: `RunPlan.redacts(on:)`) replaces the input with its masked text
    /// (`mask`).
    ///
    /// - Parameters:
    ///   - reading: the inputs, and where each is going (named in the question; whether it can
    ///     be private).
    ///   - windows: the hotkey's windows, for the question.
    ///   - plan: whether the findings are masked, on which service.
    /// - Returns: the indices of the inputs the person chose to send despite a finding (their
    ///   streams are not scanned again).
    /// - Throws: `GuardError.secretsFound` (77) without a window, `Cancelled` (130) when the
    ///   person said no, `RedactionError` (77) when a text cannot be masked.
    @discardableResult
    static func check(
        _ reading: inout ReadStage.Reading, windows: DesktopWindows, options: inout PasteOptions, plan: RunPlan,
        context: Context
    ) throws -> Set<Int> {
        var consented: Set<Int> = []
        for (index, input) in reading.inputs.enumerated() where input.type.category == .text {
            let service = reading.route(of: input).service
            let redacts = plan.redacts(on: service)
            let findings =
                if let scanned = input.secretScan, let text = input.bytes {
                    SecretGuard().findings(of: scanned, in: text.span)
                } else if input.bytes == nil, case .file(let path, _) = input.content {
                    SecretGuard().scan(filePath: path) ?? []
                } else {
                    SecretGuard().scan(input.inspectable)
                }
            guard !findings.isEmpty else {
                // (A dry run's held stdin is dropped as it ends: it never becomes an entry.)
                if !plan.isDryRun { try release(input) }
                continue
            }
            if redacts {
                reading.inputs[index] = try mask(input, findings: findings, context: context)
                continue
            }
            if windows.isShown,
                let choice = try windows.confirmSecretUpload(findings, service: service, canMask: input.isMaskable)
            {
                if choice == .uploadMasked {
                    reading.inputs[index] = try mask(input, findings: findings, context: context)
                    reading.inputs[index].isMaskingChosen = true
                    continue
                }
                if choice == .uploadPrivately { options.isPrivate = true }
                consented.insert(index)
                continue
            }
            throw GuardError.secretsFound(findings, source: input.fileName)
        }
        return consented
    }

    /// Checks the words that go with the text as the text is checked: the title (`-t`, or the
    /// one asked for), the language, and each service's literal `field` values (those not
    /// named like a credential: a credential field is meant to hold one). The error names the
    /// value, never what it holds.
    ///
    /// - Throws: `GuardError.secretInValue` (77).
    static func checkValues(_ options: PasteOptions, services: [ServiceProfile]) throws(GuardError) {
        var values: [(name: String, value: String)] = []
        if let title = options.title { values.append(("the title", title)) }
        if let language = options.language { values.append(("the language", language)) }
        for service in services {
            for field in service.fields where !field.value.hasReference && !Redaction.isSensitiveField(field.name) {
                values.append(("the field '\(shown: field.name)' of service '\(shown: service.name)'", field.value.raw))
            }
        }
        for (name, value) in values {
            let findings = SecretGuard().scan(Array(value.utf8))
            if !findings.isEmpty { throw GuardError.secretInValue(findings, value: name) }
        }
    }

    /// Turns the secret guard on for the rest of a streamed text (piped stdin past what is held
    /// in memory): `request` then scans every chunk as it is sent, skipping what `check` already
    /// scanned of its start. Nothing for text in memory or a file (scanned whole by `check`), or
    /// for an image or a binary file.
    static func streamChecks(_ request: inout UploadRequest, for input: PasteInput) {
        guard input.type.category == .text, case .stream(_, let prefix, _, _) = input.content else { return }
        request.contentChecks.scansSecrets = true
        request.contentChecks.secretsScannedUpFront = Int64(prefix.count)
    }

    /// Scans a stream read whole into memory for a service that cannot stream it
    /// (`BuildStage.spooledIfNeeded`): `check` saw only its start.
    ///
    /// - Throws: `GuardError.secretsFound` (77).
    static func checkSpooled(_ input: PasteInput, wasStreamed: Bool) throws(GuardError) {
        guard wasStreamed, input.type.category == .text, let bytes = input.bytes else { return }
        try SecretGuard().check(bytes)
    }
}
