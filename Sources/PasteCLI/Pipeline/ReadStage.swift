import Clipboard
import PasteCore
import SecretGuard
import Stores
import Upload
import SystemInterop

/// Read, the pipeline's first stage: the inputs of an upload (a selection, stdin or `-f` files),
/// what each holds (text, an image, another binary file) and so where it goes, and the clipboard
/// write its URL will be copied through.
///
/// Where the URL is copied from is settled here, because it depends on how the text is read:
/// reading the X11 clipboard keeps the reader's connection for the copy (the owner is forked
/// from it once the URL is known); otherwise the owner is a second process, ready by the time
/// the URL is: started before the config was read (`earlyOwner`), or else now, so its start-up
/// overlaps reading the input and the upload. Released unused, either leaves without touching
/// the clipboard.
///
/// A selection is read as text or an image (`Clipboard.read(_:)` of a `ReadRequest`): for an
/// owner with text it asks exactly what a text read asks (UTF8_STRING, one conversion), so the
/// hotkey's text path costs no more than before images existed. Each input's type
/// (`PasteInput.type`) then chooses its service (`ServiceChoice`): a service that does not take
/// it refuses here, before anything is built or sent.
///
/// A selection is read up to `max-clipboard`, and unless `--force` the text of a large one (INCR)
/// is fed to the secret guard's scanner while it arrives (`SecretGuard.clipboardObserver`, see
/// `TextObserver`); `GuardStage` takes that scan's findings.
enum ReadStage {
    /// What was read, where each input goes, and where the URL will be copied through.
    struct Reading {
        /// One per paste, in the order given.
        var inputs: [PasteInput]
        /// The copy of the URL, begun; nil when the run does not copy (or cannot).
        var copy: (any PreparedClipboardWrite)?
        /// Where text and other files go: the plan's route.
        var route: RunPlan.Route
        /// Where images go, resolved once the first image was read; nil when none was.
        var imageRoute: RunPlan.Route?

        /// Where `input` goes.
        func route(of input: PasteInput) -> RunPlan.Route {
            input.type.category == .image ? imageRoute ?? route : route
        }

        /// The routes the inputs use, each once, in the order first used (for their warnings).
        var routesUsed: [RunPlan.Route] {
            var used: [RunPlan.Route] = []
            for input in inputs {
                let route = route(of: input)
                if !used.contains(where: { $0.service.name == route.service.name }) { used.append(route) }
            }
            return used
        }
    }

    /// Reads the inputs `plan` names, and chooses each one's service.
    ///
    /// - Parameters:
    ///   - clipboard: the session's clipboard, made once for the run.
    ///   - earlyOwner: the clipboard's owner, started before the config was read (stdin and
    ///     file runs).
    ///   - context: the clock (a clipboard image's name) and the environment (how the image
    ///     service connects).
    /// - Throws: `InputError`, `ClipboardError`, `ContentRefusal` (a service that does not
    ///   take what was read: exit 65), `StreamTooLarge`, or a `ConfigError` of the image
    ///   service's connection keys.
    static func read(
        _ plan: RunPlan, clipboard: SessionClipboard, earlyOwner: (any PreparedClipboardWrite)?, context: Context
    ) throws -> Reading {
        var reading: Reading
        if let target = plan.copy, earlyOwner == nil, case .selection(let selection, _) = plan.input,
            case .available(let clipboard) = clipboard
        {
            var write: (any PreparedClipboardWrite)?
            let input = try readSelection(selection, plan: plan, context: context) { () throws(ClipboardError) in
                let read = try clipboard.read(request(selection, plan, copyTarget: target))
                write = read.write
                return read
            }
            reading = Reading(inputs: [input], copy: write, route: plan.route)
        } else {
            let copy = plan.copy.flatMap { target in earlyOwner ?? (try? clipboard.get().prepareWrite(to: target)) }
            reading = Reading(
                inputs: try readInputs(plan, clipboard: clipboard, context: context), copy: copy, route: plan.route)
        }
        do {
            try choose(&reading, plan: plan, context: context)
        } catch {
            // Refused before anything is sent: stdin's entry (a stream's holds its start) goes.
            for case .success(let claim)? in reading.inputs.map(\.journal) where !claim.isRemoved {
                try? claim.discard()
            }
            throw error
        }
        return reading
    }

    /// Gives each input its service, and refuses a stream whose start is past its service's
    /// limit already.
    private static func choose(_ reading: inout Reading, plan: RunPlan, context: Context) throws {
        // Every input's service, before anything is built: one that cannot go refuses the run.
        for input in reading.inputs {
            let service = try ServiceChoice.service(
                for: input.type, from: input.label, named: plan.isServiceNamed ? plan.route.service : nil,
                usual: plan.route.service, imageService: plan.imageService)
            if input.type.category == .image && reading.imageRoute == nil {
                reading.imageRoute = try PlanResolver.imageRoute(plan, service: service, context: context)
            }
        }
        // A stream's size is unknown until its end, but a start already past the limit is enough
        // to refuse before anything is sent. (RequestBuilder checks every known size.)
        for input in reading.inputs {
            let service = reading.route(of: input).service
            if case .stream(_, let prefix, _, _) = input.content, let limit = service.maximumBytes, prefix.count > limit
            {
                throw StreamTooLarge(service: service.name, bytesRead: prefix.count, limit: limit)
            }
        }
    }

    /// The read of `selection`: with the plan's preferences and the secret guard's observer,
    /// keeping what the read used for a copy to `copyTarget` (the hotkey path).
    private static func request(
        _ selection: Selection, _ plan: RunPlan, copyTarget: Selection?
    ) -> ReadRequest<SecretScanner> {
        var request = ReadRequest(
            selection, timeout: plan.clipboardTimeout, preferences: preferences(plan), observer: secretObserver(plan),
            copyTarget: copyTarget)
        // libcurl's and OpenSSL's set-up (`Uploader.init`), while the owner answers.
        request.whileOwnerAnswers = {
            Uploader.prepare()
            LanguageGuess.prepare()
        }
        return request
    }

    /// How a selection is read: its image first with `--image` (or for a service that takes no
    /// text), an image up to the image service's `max-size`, anything up to `max-clipboard`
    /// (whichever limit is lower stops an image, with its own message).
    private static func preferences(_ plan: RunPlan) -> ContentPreferences {
        ContentPreferences(
            prefersImage: plan.prefersImage, imageLimit: plan.imageLimit, readLimit: plan.maximumClipboardBytes)
    }

    /// The secret guard's scanner, fed while a large selection's text is read; none under
    /// `--force`.
    private static func secretObserver(_ plan: RunPlan) -> TextObserver<SecretScanner>? {
        plan.isForced ? nil : SecretGuard().clipboardObserver
    }

    /// The inputs when no copy rides on the read.
    private static func readInputs(
        _ plan: RunPlan, clipboard: SessionClipboard, context: Context
    ) throws -> [PasteInput] {
        switch plan.input {
        case .files(let paths):
            // Check every file before uploading any: a typo must not leave half a batch sent.
            var inputs: [PasteInput] = []
            for path in try namesFromStandardInput(
                paths, endingWithNUL: plan.namesEndWithNUL, from: context.streams.input)
            {
                inputs.append(try PasteInput.file(path))
            }
            return inputs
        case .selection(let selection, _):
            return [
                try readSelection(selection, plan: plan, context: context) { () throws(ClipboardError) in
                    try clipboard.get().read(request(selection, plan, copyTarget: nil))
                }
            ]
        case .standardInput:
            // The journal: stdin's text is nowhere else, so it goes into an outbox entry as it
            // is read, made before the read (not for a dry run, which keeps nothing; nor when
            // the plan masks secrets: the outbox then keeps only the masked text, made at send
            // from the input `GuardStage.mask` decided).
            let redacts = plan.redacts(on: plan.route.service)
            var journal: Result<OutboxClaim, StoreError>?
            if !plan.isDryRun && !redacts {
                let unread = PasteInput.unreadStandardInput(context.streams.input)
                let text = PasteJob.FreshText(
                    input: unread,
                    metadata: SendStage.metadata(
                        of: unread, service: plan.route.service, plan: plan, options: plan.options, context: context))
                journal = Result { () throws(StoreError) in try text.journal(in: Outbox(context: context)) }
            }
            let input = try PasteInput.standardInput(journal: journal, from: context.streams.input)
            guard redacts, input.type.category == .text, case .stream = input.content else { return [input] }
            return [try held(input, plan: plan, context: context)]
        }
    }

    /// Stdin too large for memory, for a plan that masks: held whole in an outbox entry
    /// (`PasteJob.FreshText.hold`) before anything is sent, and read from there on, so the
    /// guard scans all of it and its masked copy is made from it (`GuardStage.mask`), a chunk
    /// at a time. The non-masking stream is untouched: it is sent as it is read, and teed.
    /// A dry run holds it too (to scan it), and drops the entry as it ends.
    private static func held(_ stream: PasteInput, plan: RunPlan, context: Context) throws -> PasteInput {
        let text = PasteJob.FreshText(
            input: stream,
            metadata: SendStage.metadata(
                of: stream, service: plan.route.service, plan: plan, options: plan.options, context: context))
        let claim = try text.hold(in: Outbox(context: context), for: plan.route.service)
        let size: Int64
        do {
            size = try claim.contentSize()
        } catch {
            try? claim.discard()
            throw error
        }
        var input = PasteInput(
            content: .file(path: claim.contentDescriptorPath, size: size), label: stream.label,
            fileName: stream.fileName)
        input.type = stream.type
        input.isStandardInput = true
        input.journal = .success(claim)
        return input
    }

    /// The most bytes of names `-f -` reads from stdin: a million paths of 64 bytes, far past
    /// what argv could carry, and still bounded.
    static let maximumNameListBytes = 64 << 20

    /// `paths` with `-` replaced by the names stdin holds, one a line (or NUL-separated with
    /// `-0`); empty names are skipped, so a last newline or NUL ends a name and starts none.
    ///
    /// - Throws: `InputError.unreadable` when stdin cannot be read or holds more than
    ///   `maximumNameListBytes`; `.empty` when it names no file.
    static func namesFromStandardInput(
        _ paths: [FileName], endingWithNUL: Bool, from stdin: StandardStream = .input
    ) throws(InputError) -> [FileName] {
        guard paths.contains(.standardInput) else { return paths }
        let bytes: [UInt8]
        do {
            bytes = try stdin.withDescriptor { (input) throws(Errno) in
                try input.readAll(limit: maximumNameListBytes)
            }
        } catch {
            throw .unreadable(path: "stdin", reason: error.message)
        }
        if bytes.count > maximumNameListBytes {
            throw .unreadable(path: "stdin", reason: "more than \(maximumNameListBytes >> 20) MiB of file names")
        }
        let separator = endingWithNUL ? UInt8(0) : UInt8(ascii: "\n")
        // Each name as its bytes: a name that is not UTF-8 still opens its file.
        let names = bytes.split(separator: separator).map { FileName(bytes: Array($0)) }
        if names.isEmpty { throw .empty(source: "the list of files on stdin") }
        var result: [FileName] = []
        for path in paths {
            if path == .standardInput { result += names } else { result.append(path) }
        }
        return result
    }

    /// What `read` gets from `selection`, as an input; its failures as the CLI reports them
    /// (no display at all, when the run only fell back to the clipboard: nothing to read).
    private static func readSelection(
        _ selection: Selection, plan: RunPlan, context: Context,
        read: () throws(ClipboardError) -> ReadResult<SecretScanner>
    ) throws -> PasteInput {
        let observed: ReadResult<SecretScanner>
        do {
            observed = try read()
        } catch .noDisplay where plan.input == .selection(selection, isFallback: true) {
            throw InputError.nothingToRead
        } catch {
            throw error
        }
        let label = selection == .primary ? "the primary selection" : "the clipboard"
        // `--image` with text only: that text was not what the person meant to send.
        if plan.requiresImage, case .text = observed.content { throw InputError.noImage(source: label) }
        var input = try PasteInput.selection(observed.content, label: label, context: context)
        input.secretScan = observed.observation
        return input
    }
}
