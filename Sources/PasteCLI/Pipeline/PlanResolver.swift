import Clipboard
import PasteCore
import Requests
import SystemInterop
import Upload

/// Turns what the person asked for (`Invocation`), the config and the environment into the
/// run's plan: every decision of a run is taken here, once, and nothing after it reads argv,
/// the config or the settings.
///
/// It reads nothing itself: what it decides from comes in as values (the invocation, the config,
/// the `Context` with the environment and the clock, and `Facts`: stdin's kind and whether
/// stderr is a terminal), so every decision is tested in process (`PlanResolverTests`).
///
/// Two steps, because one decision cannot wait for the config: where the text comes from (and
/// with it stdin's kind, one `fstat`) and which clipboard the session has are known from argv
/// and the environment alone, in `init`, so the clipboard's owner can start before the config
/// is even read (`Runner.upload`). The rest, in `resolve`, needs the config.
struct PlanResolver {
    /// What the process is attached to, looked at once when the run starts.
    struct Facts: Sendable, Equatable {
        /// What stdin is (`.none` when the run does not look: `-c`, `-P`, `-f` or `--image`).
        var standardInput: StandardInputKind
        /// Whether stderr is a terminal (a person watching, not a launcher or a pipe).
        var isErrorTerminal: Bool

        /// The facts of this run's streams (`Context.streams`: the process's, or a test's):
        /// stdin's kind is looked at (`fstat`) only when neither `-c`, `-P`, `-f` nor `--image`
        /// chose where the text comes from.
        static func current(for invocation: Invocation, streams: any StandardStreams) -> Facts {
            let looksAtStandardInput = invocation.input == .automatic && !invocation.prefersImage
            return Facts(
                standardInput: looksAtStandardInput ? .current(streams.input) : .none,
                isErrorTerminal: streams.isTerminal(.error))
        }
    }

    /// What the person asked for.
    let invocation: Invocation
    /// The run's environment.
    let context: Context
    /// What the process is attached to.
    let facts: Facts
    /// Where the text comes from, decided in `init`.
    let input: RunPlan.Input
    /// Whether argv lets the run copy the URL (no `--no-copy`, and for an upload no
    /// `--dry-run`); the config may still say no (`copyTarget(for:)`).
    let mayCopy: Bool
    /// The clipboard of this session and why, chosen in `init` as `[paste] clipboard = auto`
    /// would (`ClipboardBackend.choose`: one registry round trip in a Wayland session); nil
    /// when the run neither reads a selection nor may copy. `resolve` chooses again only when
    /// the config asks for a backend.
    let clipboardChoice: ClipboardBackend.Choice?

    /// The backend of `clipboardChoice`.
    var clipboardBackend: ClipboardBackend? { clipboardChoice?.backend }

    /// The program that serves the selection once paste has returned (see `SelectionOwnerProcess`).
    static let helperExecutable = "/proc/self/exe"

    /// Decides where the text comes from and detects the clipboard.
    init(invocation: Invocation, context: Context, facts: Facts) {
        self.invocation = invocation
        self.context = context
        self.facts = facts
        switch invocation.input {
        case .clipboard: input = .selection(.clipboard, isFallback: false)
        case .primary: input = .selection(.primary, isFallback: false)
        case .files(let paths): input = .files(paths)
        case .automatic where invocation.prefersImage:
            // `--image` is about the clipboard: it reads it whatever stdin is.
            input = .selection(.clipboard, isFallback: false)
        case .automatic:
            input =
                facts.standardInput == .none ? .selection(.clipboard, isFallback: true) : .standardInput
        }
        mayCopy = invocation.copies && !(invocation.action == .upload && invocation.isDryRun)
        let readsSelection = if case .selection = input { true } else { false }
        clipboardChoice =
            readsSelection || mayCopy
            ? ClipboardBackend.choose(environment: context.environment, preference: .auto) : nil
    }

    /// Whether the text comes from a selection.
    var readsSelection: Bool {
        if case .selection = input { return true }
        return false
    }

    /// The session's clipboard, made once for the whole run (`.noDisplay` when there is none).
    func makeClipboard() -> SessionClipboard {
        Self.makeClipboard(clipboardBackend, context: context)
    }

    /// The clipboard of `backend` (`.noDisplay` when there is none).
    static func makeClipboard(_ backend: ClipboardBackend?, context: Context) -> SessionClipboard {
        do {
            return .available(
                try (backend ?? .none).makeClipboard(
                    helperExecutable: helperExecutable, environment: context.environment))
        } catch {
            return .unavailable(error)
        }
    }

    /// The backend and why: `init`'s choice, unless `[paste] clipboard` names a backend.
    func clipboardChoice(for settings: Settings) -> ClipboardBackend.Choice? {
        guard let chosen = clipboardChoice, settings.clipboard != .auto else { return clipboardChoice }
        let preference: ClipboardBackend.Preference = settings.clipboard == .x11 ? .x11 : .wayland
        var choice = ClipboardBackend.choose(environment: context.environment, preference: preference)
        if choice.backend == chosen.backend { choice.reason = chosen.reason }
        choice.reason = "clipboard = \(settings.clipboard.rawValue): " + choice.reason
        return choice
    }

    // MARK: - Decisions

    /// Whether this run talks to a person through windows rather than a terminal.
    ///
    /// `--notify`/`--no-notify` decide; otherwise `notify = auto` means: the text came from the
    /// clipboard, stderr is no terminal, and a display is there (a launcher, not a pipeline or cron).
    /// Taken with the defaults when the config itself could not be read.
    func windows(for settings: Settings) -> RunPlan.Windows {
        RunPlan.Windows(
            isShown: showsWindows(settings), displayName: context.nonEmpty("DISPLAY"),
            notifyTimeout: settings.notifyTimeout, style: settings.notifyStyle,
            busAddress: context.nonEmpty("DBUS_SESSION_BUS_ADDRESS"), configPath: invocation.configPath,
            environment: context.environment, picker: settings.picker, showsQR: invocation.showsQR,
            isNotifyTimeoutExplicit: settings.isNotifyTimeoutExplicit,
            isWaylandSession: context.nonEmpty("WAYLAND_DISPLAY") != nil
                || context.nonEmpty("XDG_SESSION_TYPE") == "wayland")
    }

    /// Whether anything can be shown: an X display for the windows, or a session bus for
    /// desktop notifications (unless `notify-style = window`); then `--notify`/`--no-notify`
    /// and `notify` decide.
    private func showsWindows(_ settings: Settings) -> Bool {
        let canShow =
            context.nonEmpty("DISPLAY") != nil
            || (settings.notifyStyle != .window && context.nonEmpty("DBUS_SESSION_BUS_ADDRESS") != nil)
        guard canShow else { return false }
        if let forced = invocation.notify { return forced }
        switch settings.notify {
        case .never: return false
        case .always: return true
        case .auto:
            return readsSelection && !facts.isErrorTerminal && !invocation.isJSON
        }
    }

    /// Where the URL is copied: the clipboard, unless `--no-copy`, `copy = false` or (for an
    /// upload) `--dry-run` says not at all.
    func copyTarget(for settings: Settings) -> Selection? {
        mayCopy && settings.copy ? .clipboard : nil
    }

    /// Whether the person asked for the copy, so that one that cannot be made (no display) is
    /// said: the text was read from a selection they named (`-c`, `-P`, `--image`), or the config
    /// says `copy = true` itself.
    func isCopyExpected(_ settings: Settings) -> Bool {
        invocation.input == .clipboard || invocation.input == .primary || invocation.prefersImage
            || settings.isCopyExplicit
    }

    /// The question to ask before the text goes to the built-in public default because nothing
    /// chose a service: no `service =` in the config, no `-S`, `--url` or `PASTE_SERVICE`, and
    /// not a dry run (which sends nothing). A section that only moves a built-in to another host
    /// is not a choice. Nil when a service was chosen.
    func consentQuestion(_ configuration: Configuration, service: ServiceProfile) -> RunPlan.ConsentQuestion? {
        guard configuration.settings.service == nil, invocation.service == nil, invocation.url == nil,
            context.nonEmpty("PASTE_SERVICE") == nil, !invocation.isDryRun, service.name == BuiltInServices.defaultName
        else { return nil }
        let chain = (try? FallbackStage.chain(from: service, among: configuration.services)) ?? []
        return RunPlan.ConsentQuestion(
            service: service.name, host: ConnectionPolicy.host(of: service.url.raw),
            fallbackHosts: chain.map { ConnectionPolicy.host(of: $0.url.raw) },
            configPath: configuration.path ?? invocation.configPath ?? context.defaultConfigPath,
            services: configuration.services)
    }

    /// The service: `--url`'s ad-hoc endpoint, else `-S` > `PASTE_SERVICE` > `[paste] service` >
    /// the built-in default.
    static func service(
        _ invocation: Invocation, _ configuration: Configuration, context: Context
    ) throws(ConfigError) -> ServiceProfile {
        if let url = invocation.url {
            // Its user information and credential query parameters are masked from here on.
            context.redactor.register(url: url)
            return ServiceProfile.adHoc(url: url)
        }
        return try configuration.resolveService(flag: invocation.service, context: context)
    }

    /// How transfers run.
    static func transfer(_ invocation: Invocation, _ settings: Settings, showsProgress: Bool) -> RunPlan.Transfer {
        var timeouts = settings.timeouts
        if let timeout = invocation.timeout { timeouts.total = timeout }
        return RunPlan.Transfer(
            transport: TransportOptions(
                timeouts: timeouts, insecure: invocation.isInsecure, userAgent: "paste/\(pasteVersion)"),
            isVerbose: invocation.isVerbose,
            showsProgress: showsProgress,
            retryPolicy: RetryPolicy(
                maximumAttempts: settings.retries + 1, maximumDelay: settings.maximumRetryAfter))
    }

    /// How uploads to `profile` connect (trust, client certificate, proxy), resolved from its
    /// section, `[paste]` and the environment, and the warning to give when the service turns
    /// TLS checks off (unless `--insecure` turned them off for every service, and said so).
    static func connection(
        for profile: ServiceProfile, paste: ConnectionSettings, context: Context, isInsecure: Bool
    ) throws(ConfigError) -> (policy: ConnectionPolicy, warning: String?) {
        let policy = try ConnectionPolicy.resolve(service: profile.connection, paste: paste, context: context)
        // Proxy credentials are masked from here on, whether written literally or not.
        context.redactor.register(policy)
        guard policy.isInsecure && !isInsecure else { return (policy, nil) }
        return (
            policy,
            "service '\(shown: profile.name)' sets insecure = true: TLS certificates and host names are not verified"
        )
    }

    // MARK: - Plans

    /// The plan of an upload.
    ///
    /// - Parameter windows: `windows(for: configuration.settings)`, decided by the caller first
    ///   so that a failure here is shown in a window too.
    /// - Throws: `ConfigError` (an unknown service, a connection key that cannot be resolved),
    ///   `RequestError` for an option the service cannot honour: all before anything is read.
    func resolve(_ configuration: Configuration, windows: RunPlan.Windows) throws -> RunPlan {
        let settings = configuration.settings
        var service = try Self.service(invocation, configuration, context: context)
        let isNamed = invocation.service != nil || invocation.url != nil
        if let name = invocation.living {
            service = try LivingStage.service(
                for: name, chosen: service, isNamed: isNamed, configuration: configuration, context: context)
        }
        let imageService = isNamed ? service : configuration.imageServiceProfile
        // A service named for the run that takes no text (a ShareX image uploader) is there for
        // an image: the clipboard's image is asked for first.
        let prefersImage = invocation.prefersImage || (isNamed && !service.accepts.takes(.text))
        var options = invocation.options
        options.guessesLanguage = settings.guessesLanguage
        // Refuse options the service cannot honour before reading anything, when the service
        // is already certain: one named for the run takes everything, and with no image
        // service (or `--image`) only one service can be used. Otherwise the service depends on
        // what is read, and the request builder checks them before anything is sent.
        let certain: ServiceProfile? =
            isNamed || imageService == nil
            ? service : prefersImage && readsSelection ? imageService : nil
        if let certain {
            try RequestBuilder(profile: certain, context: context).validate(options, size: nil)
        }
        let (connection, warning) = try Self.connection(
            for: service, paste: settings.connection, context: context, isInsecure: invocation.isInsecure)
        let isRepeatable = !invocation.isNew && !options.burnsAfterReading && settings.repeatWindow > .zero
        // Drawn only on a terminal, never under -q or --json.
        let showsProgress = ProgressBar.isWanted(
            stderrIsTerminal: facts.isErrorTerminal, isQuiet: invocation.isQuiet,
            isJSON: invocation.isJSON)
        var plan = RunPlan(
            input: input,
            route: RunPlan.Route(service: service, connection: connection, warning: warning),
            isServiceNamed: isNamed,
            imageService: imageService,
            pasteConnection: settings.connection,
            prefersImage: prefersImage,
            requiresImage: invocation.prefersImage,
            adHocURL: invocation.url,
            options: options,
            copy: copyTarget(for: settings),
            isCopyExpected: isCopyExpected(settings),
            consent: consentQuestion(configuration, service: service),
            clipboardChoice: clipboardChoice(for: settings),
            clipboardTimeout: settings.clipboardTimeout,
            maximumClipboardBytes: settings.maximumClipboardBytes,
            windows: windows,
            transfer: windows.isShown
                ? Self.transfer(invocation, settings, showsProgress: showsProgress).forHotkey(
                    hasProxy: connection.hasProxy)
                : Self.transfer(invocation, settings, showsProgress: showsProgress),
            // A paste that burns after reading may be gone already: never hand out its link twice.
            repeatWindow: isRepeatable ? settings.repeatWindow : nil,
            isDryRun: invocation.isDryRun,
            isForced: invocation.isForced,
            prompts: invocation.prompts)
        plan.namesEndWithNUL = invocation.namesEndWithNUL
        plan.masking = RunPlan.Masking(isRequested: invocation.redacts, byDefault: settings.redacts)
        plan.fallbacks = try FallbackStage.chain(from: service, among: configuration.services)
        // A living paste never falls back to another service: it waits in the outbox.
        if invocation.living != nil {
            plan.living = invocation.living
            plan.fallbacks = []
            plan.repeatWindow = nil
        }
        return plan
    }

    /// The route of an image going to `imageService` (not the run's named service, whose route
    /// is `plan.route`): how it connects, resolved from its section, `[paste]` and the
    /// environment when the first image is read.
    static func imageRoute(_ plan: RunPlan, service: ServiceProfile, context: Context) throws -> RunPlan.Route {
        if plan.isServiceNamed { return plan.route }
        let (connection, warning) = try connection(
            for: service, paste: plan.pasteConnection, context: context, isInsecure: plan.transfer.isInsecure)
        return RunPlan.Route(service: service, connection: connection, warning: warning)
    }

    /// The plan of `paste --retry` and `paste --outbox send` (which read no input, so need no
    /// `PlanResolver` of their own).
    ///
    /// - Parameter isAttended: whether a person runs it (stdin or stderr is a terminal): the
    ///   backoff is then not waited for.
    static func resolveRetry(
        _ invocation: Invocation, _ configuration: Configuration, isAttended: Bool = false
    ) -> RetryPlan {
        var plan = RetryPlan(
            services: configuration.services, connection: configuration.settings.connection,
            transfer: transfer(invocation, configuration.settings, showsProgress: false),
            outboxPolicy: OutboxPolicy(maximumAttempts: configuration.settings.retryMaximumAttempts),
            isDryRun: invocation.isDryRun, isForced: invocation.isForced, isAttended: isAttended)
        plan.guessesLanguage = configuration.settings.guessesLanguage
        plan.masksByDefault = configuration.settings.redacts
        plan.isMaskingRequested = invocation.redacts
        return plan
    }

    /// Whether the run has a person at a terminal (stdin or stderr is one): `--retry` then
    /// sends whatever is retryable now.
    static func isAttendedByTerminal(_ streams: any StandardStreams) -> Bool {
        streams.isTerminal(.input) || streams.isTerminal(.error)
    }
}
