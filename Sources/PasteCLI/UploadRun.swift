import Clipboard
import PasteCore
import SystemInterop
import Upload

/// One run of `paste` for an invocation that is ours.
struct Runner {
    var invocation: Invocation
    var context: Context
    var output: Output
    /// The binary to re-exec as the selection owner.
    var executablePath = "/proc/self/exe"
    /// The clipboard owner forked at start-up for this run's URL, if any.
    var earlyOwner: (any PreparedClipboardWrite)?

    init(invocation: Invocation, context: Context, output: Output) {
        self.invocation = invocation
        self.context = context
        self.output = output
        self.output.isQuiet = invocation.isQuiet
        self.output.isJSON = invocation.isJSON
    }

    mutating func run() throws -> ExitStatus {
        switch invocation.action {
        case .help:
            StandardStream.output.write(helpText())
            return .success
        case .version:
            StandardStream.output.write(versionText())
            return .success
        case .listServices:
            try listServices()
            return .success
        case .history:
            try printHistory()
            return .success
        case .retry:
            return try retryOutbox()
        case .pick:
            return try pick()
        case .delete(let url):
            return try delete(url: url)
        case .deleteLast:
            return try deleteLast()
        case .upload:
            return try upload()
        }
    }

    // MARK: - Configuration

    func loadConfiguration() throws(ConfigError) -> Configuration {
        try Configuration.load(explicitPath: invocation.configPath, context: context)
    }

    func chooseService(_ configuration: Configuration) throws(ConfigError) -> ServiceProfile {
        if let url = invocation.url { return ServiceProfile.adHoc(url: url) }
        return try configuration.resolveService(flag: invocation.service, context: context)
    }

    func transportOptions(_ settings: Settings, progressBar: ProgressBar.Driver? = nil) -> TransportOptions {
        var options = TransportOptions()
        options.connectTimeout = .seconds(settings.connectTimeout)
        options.totalTimeout = (invocation.timeout ?? settings.timeout).map { .seconds($0) }
        options.stallTimeout = .seconds(settings.stallTimeout)
        options.insecure = invocation.isInsecure
        if invocation.isInsecure {
            // Not a note: -q does not silence it, a security downgrade is always said.
            StandardStream.error.write("paste: warning: --insecure: TLS certificates and host names are not verified\n")
        }
        options.userAgent = "paste/\(pasteVersion)"
        if let progressBar {
            options.progress = { sent, total in progressBar.update(sent: sent, total: total) }
        }
        if invocation.isVerbose {
            options.verbose = { line in
                StandardStream.error.write("paste: " + Sanitizer.printable(line, limit: 400) + "\n")
            }
        }
        return options
    }

    /// How uploads to `profile` connect (trust, client certificate, proxy), resolved from its
    /// section, `[paste]` and the environment; warns when the service turns TLS checks off.
    func connectionPolicy(for profile: ServiceProfile, _ configuration: Configuration) throws -> ConnectionPolicy {
        let policy = try ConnectionPolicy.resolve(
            service: profile.connection, paste: configuration.settings.connection, context: context)
        if policy.isInsecure && !invocation.isInsecure {
            // Not a note: -q does not silence it, a security downgrade is always said.
            StandardStream.error.write(
                "paste: warning: service '\(profile.name)' sets insecure = true: "
                    + "TLS certificates and host names are not verified\n")
        }
        return policy
    }

    /// The progress bar for this run's uploads, when one may be drawn (stderr a terminal, no
    /// `-q`, no `--json`); colourless under `NO_COLOR`.
    func makeProgressBar() -> ProgressBar.Driver? {
        guard
            ProgressBar.isWanted(
                stderrIsTerminal: StandardStream.error.isTerminal, isQuiet: invocation.isQuiet,
                isJSON: invocation.isJSON)
        else { return nil }
        return ProgressBar.Driver(colored: output.usesColor)
    }

    // MARK: - Input

    /// Whether the clipboard is read (as opposed to stdin or files).
    var readsSelection: Bool {
        switch invocation.input {
        case .clipboard, .primary: true
        case .files: false
        case .automatic: StandardInputKind.current() == .none
        }
    }

    func gatherInputs(settings: Settings) throws -> [PasteInput] {
        switch invocation.input {
        case .files(let paths):
            // Check every file before uploading any: a typo must not leave half a batch sent.
            var inputs: [PasteInput] = []
            for path in paths { inputs.append(try PasteInput.file(path)) }
            return inputs
        case .clipboard: return [try readSelection(.clipboard, settings: settings)]
        case .primary: return [try readSelection(.primary, settings: settings)]
        case .automatic:
            if StandardInputKind.current() == .none {
                return [try readSelection(.clipboard, settings: settings)]
            }
            return [try PasteInput.standardInput()]
        }
    }

    func readSelection(_ selection: Selection, settings: Settings) throws -> PasteInput {
        try selectionInput(selection) { () throws(ClipboardError) in
            try makeClipboard().read(
                selection, timeout: clipboardTimeout(settings), limit: settings.maximumClipboardBytes,
                observer: secretObserver)
        }
    }

    /// Reads the selection this run reads and begins the URL's copy with what the read used
    /// (`Clipboard.readKeepingConnection`). Nil when there is no clipboard to make.
    func readSelectionKeepingConnection(settings: Settings) throws -> (
        input: PasteInput, write: any PreparedClipboardWrite
    )? {
        guard let clipboard = try? makeClipboard() else { return nil }
        let selection: Selection = invocation.input == .primary ? .primary : .clipboard
        var write: (any PreparedClipboardWrite)?
        let input = try selectionInput(selection) { () throws(ClipboardError) in
            let read = try clipboard.readKeepingConnection(
                selection, timeout: clipboardTimeout(settings), limit: settings.maximumClipboardBytes,
                observer: secretObserver, ownerOf: .clipboard)
            write = read.write
            return read.text
        }
        return write.map { (input, $0) }
    }

    /// The text `read` gets from `selection`, as an input; its failures as the CLI reports them
    /// (no display at all, when the run only fell back to the clipboard: nothing to read).
    private func selectionInput(
        _ selection: Selection, read: () throws(ClipboardError) -> ObservedText<SecretScanner>
    ) throws -> PasteInput {
        let observed: ObservedText<SecretScanner>
        do {
            observed = try read()
        } catch .noDisplay where invocation.input == .automatic {
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
    private var secretObserver: TextObserver<SecretScanner>? {
        invocation.isForced ? nil : SecretGuard().clipboardObserver
    }

    private func clipboardTimeout(_ settings: Settings) -> Duration {
        .milliseconds(Int(settings.clipboardTimeout * 1000))
    }

    func makeClipboard() throws(ClipboardError) -> any Clipboard {
        try ClipboardBackend.detect(environment: context.environment)
            .makeClipboard(helperExecutable: executablePath, environment: context.environment)
    }
}
