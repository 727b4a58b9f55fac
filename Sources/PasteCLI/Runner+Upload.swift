import Clipboard
import PasteCore

extension Runner {
    /// The main job: the plan resolved once, then the pipeline (`UploadPipeline`).
    ///
    /// With a window for the person when paste runs at a hotkey: every failure that ends the
    /// run is shown there too, not only on a stderr nobody reads.
    func upload() throws -> ExitStatus {
        let resolver = PlanResolver(
            invocation: invocation, context: context, facts: .current(for: invocation, streams: context.streams))
        var clipboard = resolver.makeClipboard()
        // A run that reads a selection (known from argv and stdin's kind alone) begins the read
        // now: the server and the selection's owner answer its first requests while the
        // config is read and the run planned (`Clipboard.beginRead`).
        if case .selection(let selection, _) = resolver.input, case .available(let session) = clipboard {
            clipboard = .available(session.beginRead(selection))
        }
        // Begins the copy of the URL as early as can be (nothing has run yet but argv parsing
        // and the look at stdin), so the clipboard's owner is ready when the URL is; unused, it
        // leaves without touching the clipboard. A run that reads the clipboard copies through
        // what the read used instead (`ReadRequest.copyTarget`): no second process.
        let earlyOwner =
            resolver.mayCopy && !resolver.readsSelection
            ? try? clipboard.get().prepareWrite(to: .clipboard) : nil
        let configuration: Configuration
        do {
            configuration = try loadConfiguration()
        } catch {
            clipboard.release()  // The begun read ends: nothing will be read.
            let windows = DesktopWindows(plan: resolver.windows(for: Settings()), output: output)
            if windows.isShown { windows.notifyFailure(error) }
            throw error
        }
        let windows = DesktopWindows(plan: resolver.windows(for: configuration.settings), output: output)
        do {
            let plan = try resolver.resolve(configuration, windows: windows.plan)
            if plan.transfer.isVerbose, let choice = plan.clipboardChoice {
                output.trace("clipboard: \(choice.backend.summary) (\(choice.reason))")
            }
            // Which certificate authorities verify the service: said where TLS is spoken (the
            // policy knows: an https URL, or an https:// proxy), not where none is read.
            if plan.transfer.isVerbose, plan.route.connection.speaksTLS(to: plan.route.service.url.raw) {
                output.trace("trust: \(plan.route.connection.trustSummary)")
            }
            // `[paste] clipboard` named another backend than the environment suggested: the
            // early owner (if any) leaves unused, and the run uses that backend's clipboard.
            if plan.clipboardBackend != resolver.clipboardBackend {
                // The read begun on the environment's backend ends here (its connection closes).
                clipboard.release()
                return try UploadPipeline(context: context, output: output, seams: seams).upload(
                    plan, clipboard: PlanResolver.makeClipboard(plan.clipboardBackend, context: context),
                    earlyOwner: nil)
            }
            return try UploadPipeline(context: context, output: output, seams: seams).upload(
                plan, clipboard: clipboard, earlyOwner: earlyOwner)
        } catch let error as any PasteError {
            if !(error is Cancelled), windows.isShown { windows.notifyFailure(error) }
            throw error
        }
    }
}
