import Clipboard
import PasteCore

/// Read, the pipeline's first stage: the inputs of an upload (a selection, stdin or `-f` files),
/// and the clipboard write its URL will be copied through.
///
/// Where the URL is copied from is settled here, because it depends on how the text is read:
/// reading the X11 clipboard keeps the reader's connection for the copy (the owner is forked
/// from it once the URL is known); otherwise the owner is a second process, ready by the time
/// the URL is: started before the config was read (`earlyOwner`), or else now, so its start-up
/// overlaps reading the input and the upload. Released unused, either leaves without touching
/// the clipboard.
///
/// A selection is read up to `max-clipboard`, and unless `--force` a large one (INCR) is fed to
/// the secret guard's scanner while it arrives, on the read's second thread
/// (`SecretGuard.clipboardObserver`); `GuardStage` takes that scan's findings. Seam for what
/// comes next: an image on the clipboard, or a binary file, would be read here with its MIME type into the
/// `PasteInput`, which carries it through build (the part's content type), record and deliver.
enum ReadStage {
    /// What was read, and where the URL will be copied through.
    struct Reading {
        /// One per paste, in the order given.
        var inputs: [PasteInput]
        /// The copy of the URL, begun; nil when the run does not copy (or cannot).
        var copy: (any PreparedClipboardWrite)?
    }

    /// Reads the inputs `plan` names.
    ///
    /// - Parameters:
    ///   - clipboard: the session's clipboard, made once for the run.
    ///   - earlyOwner: the clipboard's owner, started before the config was read (stdin and
    ///     file runs).
    static func read(
        _ plan: RunPlan, clipboard: SessionClipboard, earlyOwner: (any PreparedClipboardWrite)?
    ) throws -> Reading {
        let reading: Reading
        if let target = plan.copy, earlyOwner == nil, case .selection(let selection, _) = plan.input,
            case .available(let clipboard) = clipboard
        {
            var write: (any PreparedClipboardWrite)?
            let input = try readSelection(selection, plan: plan) { () throws(ClipboardError) in
                let read = try clipboard.readKeepingConnection(
                    selection, timeout: plan.clipboardTimeout, limit: plan.maximumClipboardBytes,
                    observer: secretObserver(plan), ownerOf: target)
                write = read.write
                return read.text
            }
            reading = Reading(inputs: [input], copy: write)
        } else {
            let copy = plan.copy.flatMap { target in earlyOwner ?? (try? clipboard.get().prepareWrite(to: target)) }
            reading = Reading(inputs: try readInputs(plan, clipboard: clipboard), copy: copy)
        }
        // A stream's size is unknown until its end, but a start already past the limit is enough
        // to refuse before anything is sent. (RequestBuilder checks every known size.)
        for input in reading.inputs {
            if case .stream(_, let prefix, _) = input.content, let limit = plan.service.maximumBytes,
                prefix.count > limit
            {
                throw StreamTooLarge(service: plan.service.name, bytesRead: prefix.count, limit: limit)
            }
        }
        return reading
    }

    /// The inputs when no copy rides on the read.
    private static func readInputs(
        _ plan: RunPlan, clipboard: SessionClipboard
    ) throws -> [PasteInput] {
        switch plan.input {
        case .files(let paths):
            // Check every file before uploading any: a typo must not leave half a batch sent.
            var inputs: [PasteInput] = []
            for path in paths { inputs.append(try PasteInput.file(path)) }
            return inputs
        case .selection(let selection, _):
            return [
                try readSelection(selection, plan: plan) { () throws(ClipboardError) in
                    try clipboard.get().read(
                        selection, timeout: plan.clipboardTimeout, limit: plan.maximumClipboardBytes,
                        observer: secretObserver(plan))
                }
            ]
        case .standardInput:
            return [try PasteInput.standardInput()]
        }
    }

    /// The text `read` gets from `selection`, as an input; its failures as the CLI reports them
    /// (no display at all, when the run only fell back to the clipboard: nothing to read).
    private static func readSelection(
        _ selection: Selection, plan: RunPlan, read: () throws(ClipboardError) -> ObservedText<SecretScanner>
    ) throws -> PasteInput {
        let observed: ObservedText<SecretScanner>
        do {
            observed = try read()
        } catch .noDisplay where plan.input == .selection(selection, isFallback: true) {
            throw InputError.nothingToRead
        } catch {
            throw ClipboardFailure(error: error)
        }
        let label = selection == .primary ? "the primary selection" : "the clipboard"
        var input = try PasteInput(bytes: observed.text, label: label, isFromSelection: true)
        input.secretScan = observed.observation
        return input
    }

    /// The secret guard's scanner, fed while a large selection is read; none under `--force`.
    private static func secretObserver(_ plan: RunPlan) -> TextObserver<SecretScanner>? {
        plan.isForced ? nil : SecretGuard().clipboardObserver
    }
}
