import FoundationEssentials
import SystemInterop

/// The `[paste]` section: settings that are not about one service.
public struct Settings: Sendable, Equatable {
    /// The service used when no flag or `PASTE_SERVICE` names one.
    public var service: String?
    /// The line of the config file that set `service` (for an unknown-service error).
    public var serviceLine: Int?
    /// When windows are shown.
    public var notify: NotifyMode = .auto
    /// Whether they are paste's own windows or desktop notifications (`notify-style`).
    public var notifyStyle: NotifyStyle = .auto
    /// The dmenu-style program `--pick` and `--prompt` use without an X display (`picker`):
    /// a command line, split on spaces; nil to look for one on PATH.
    public var picker: String?
    /// How long a transfer may take: `connect-timeout`, `timeout`, `stall-timeout` and
    /// `response-timeout`.
    public var timeouts = TransferTimeouts()
    /// How many times a request that never reached the server is tried again.
    public var retries: Int = 3
    /// How many failed attempts an outbox entry may have before `paste --retry` holds it.
    public var retryMaximumAttempts: Int = OutboxPolicy.defaultMaximumAttempts
    /// The longest Retry-After paste honours (`max-retry-after`).
    public var maximumRetryAfter: Duration = .seconds(30)
    /// How long the same content to the same service reuses the earlier URL (zero: never).
    public var repeatWindow: Duration = .seconds(300)
    /// `guess-language`: whether a service with a language field gets one guessed from the
    /// text when neither `-l` nor a file name gives one (`LanguageGuess`).
    public var guessesLanguage = true
    /// How long to wait for a clipboard owner to answer.
    public var clipboardTimeout: Duration = .seconds(2)
    /// Which clipboard backend is used (`clipboard`).
    public var clipboard = ClipboardSetting.auto
    /// The most bytes read from a selection, text or image (`max-clipboard`): an owner that
    /// keeps sending is stopped there.
    public var maximumClipboardBytes: Int = Settings.defaultMaximumClipboardBytes
    /// The default `max-clipboard`: far more than anyone copies, little enough that an owner
    /// sending without end is stopped before memory runs short.
    public static let defaultMaximumClipboardBytes = 1 << 30
    /// How long a notification stays on screen.
    public var notifyTimeout: Duration = .seconds(4)
    /// Whether the file sets `notify-timeout` itself: then every notification goes after it, a
    /// desktop notification with actions too (without it, one with actions stays longer: long
    /// enough to use them).
    public var isNotifyTimeoutExplicit = false
    /// Whether the URL is copied to the clipboard.
    public var copy = true
    /// `redact`: whether a text the secret guard flags goes up with its secrets masked
    /// (`--redact`) instead of being refused; a service's own `redact` decides for it.
    public var redacts = false
    /// Whether the file says `copy = true` itself: then a run with no display says that the URL
    /// was not copied (without it, a pipeline or cron job is not told so each time).
    public var isCopyExplicit = false
    /// Where an image goes (`image-service`): none by default, so no image reaches a public
    /// host unless the person named one. Checked at load: a service that takes images.
    public var imageService: String?
    /// The line of the config file that set `imageService`.
    public var imageServiceLine: Int?
    /// Trust and proxy keys for every service (`ca-file`, `ca-path`, `proxy`, `no-proxy`).
    public var connection = ConnectionSettings()

    public init() {}

    /// The largest `retry-max-attempts`: with backoff capped at six hours, months of tries.
    public static let retryMaximumAttemptsLimit = 1000
}
