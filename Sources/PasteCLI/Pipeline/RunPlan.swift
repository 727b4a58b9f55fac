import Clipboard
import PasteCore
import Upload

/// Everything one upload decided before doing anything: built once by `PlanResolver` from argv,
/// the config and the environment, then read by the stages and never changed.
///
/// The stages (read -> guard -> build -> send -> extract -> record -> deliver, run by
/// `UploadPipeline`) see this value and nothing of `Invocation`, `Configuration` or `Settings`:
/// each decision below is taken exactly once, in `PlanResolver`.
struct RunPlan: Sendable {
    /// Where the text comes from.
    enum Input: Sendable, Equatable {
        /// A selection: `-c`, `-P`, or, when `isFallback`, because stdin holds no text (a
        /// terminal, /dev/null or closed, as under a launcher).
        case selection(Selection, isFallback: Bool)
        /// stdin: a pipe, a socket or a regular file.
        case standardInput
        /// `-f FILE`, one paste per file.
        case files([FileName])
    }

    /// How the run talks to a person at a hotkey, where no terminal shows stderr.
    struct Windows: Sendable {
        /// Whether failures, the secret guard's question, `--prompt` and success are windows.
        var isShown: Bool
        /// The display they open on (`$DISPLAY`).
        var displayName: String?
        /// How long a notification stays (`notify-timeout`).
        var notifyTimeout: Duration
        /// Whether paste's own windows or desktop notifications say it (`notify-style`).
        var style = NotifyStyle.auto
        /// The session bus (`$DBUS_SESSION_BUS_ADDRESS`), where desktop notifications go.
        var busAddress: String?
        /// The config file the run read (`--config`), for a `paste` the notifier starts for an
        /// action (`delete`, `retry`) to read the same one.
        var configPath: String?
        /// The environment the notifier that serves a notification's actions runs in (the
        /// run's own).
        var environment: [String: String] = [:]
        /// The dmenu-style program for `--pick` and `--prompt` without an X display (`picker`).
        var picker: String?
        /// `--qr`: the URL as a QR code on a terminal's stderr, and as the desktop
        /// notification's image.
        var showsQR = false
        /// Whether the config set `notify-timeout`: then a desktop notification with actions goes
        /// after it too (`DesktopNotice.expiry`).
        var isNotifyTimeoutExplicit = false
        /// Whether the run is in a Wayland session (`WAYLAND_DISPLAY`, or `XDG_SESSION_TYPE` =
        /// `wayland`): its notifications are the desktop's, `DISPLAY` or not.
        var isWaylandSession = false

        /// No windows at all (`--retry`, which runs from cron).
        static let none = Windows(isShown: false, displayName: nil, notifyTimeout: .zero)

        /// Whether notifications go to the desktop's notification server first: `desktop`,
        /// or `auto` in a Wayland session or where no X display is there (and a session bus
        /// is). On Wayland paste's own X window would come through XWayland as an ordinary
        /// window (sway floats it, titled, in the middle of the screen): the desktop's toast is
        /// the one that looks like one. Where no server answers, the window still shows it.
        var usesDesktopNotifications: Bool {
            guard busAddress != nil else { return false }
            switch style {
            case .desktop: return true
            case .auto: return displayName == nil || isWaylandSession
            case .window: return false
            }
        }
    }

    /// How transfers run: the transport's options, retries and what is reported while they do.
    struct Transfer: Sendable {
        /// Timeouts (`connect-timeout`, `--timeout` else `timeout`, `stall-timeout`,
        /// `response-timeout`: a service's own, carried by its requests, wins), `--insecure` and
        /// the User-Agent; `SendStage` adds what reports and stops a transfer.
        var transport: TransportOptions
        /// `--insecure`: TLS checks off for every service (warned on stderr when the uploader
        /// is made, each run).
        var isInsecure: Bool { transport.insecure }
        /// `-v`: the request and answer headers on stderr.
        var isVerbose: Bool
        /// Whether a progress bar may be drawn (stderr a terminal, no `-q`, no `--json`).
        var showsProgress: Bool
        /// When a failed request goes again (`retries`, `max-retry-after`).
        var retryPolicy: RetryPolicy
    }

    /// Where a paste goes, and how its requests connect.
    struct Route: Sendable {
        /// The service.
        var service: ServiceProfile
        /// How its requests connect (trust, client certificate, proxy).
        var connection: ConnectionPolicy
        /// Said on stderr once, before the first paste to it is sent (a service that turns TLS
        /// checks off).
        var warning: String?
    }

    /// The question asked before the first upload to a public service that nobody chose
    /// (no `service =`, `-S`, `--url` or `PASTE_SERVICE`): nothing is read or sent before it is
    /// answered (`Runner.askConsent`).
    struct ConsentQuestion: Sendable {
        /// The built-in default the text would go to.
        var service: String
        /// Its host, as the question names it.
        var host: String
        /// The hosts of its fallback chain, in order (the built-in dpaste's bpa.st): the text
        /// goes there when the first is down, and the question says so.
        var fallbackHosts: [String] = []
        /// The config file an answer of "always" (or another service) is written to.
        var configPath: String
        /// Every service the config knows, built-ins first: "choose another" offers those that
        /// take text, and the one chosen falls back along its own chain among them.
        var services: [ServiceProfile]

        /// Where the text would go, as the question says it: "dpaste.com (or bpa.st when it is
        /// down)".
        var destination: String {
            guard !fallbackHosts.isEmpty else { return host }
            return "\(host) (or \(fallbackHosts.joined(separator: ", then ")) when it is down)"
        }

        /// The names "choose another" offers: the services that take text and can be used as
        /// they stand (a gist without its token cannot), but the default.
        var choices: [String] {
            services.filter { $0.accepts.takesText && $0.hasCredential && $0.name != service }.map(\.name)
        }
    }

    /// Where the text comes from, stdin's kind looked at once.
    var input: Input
    /// Where text and other files go: the service named for the run (`-S`, `--url`), else the
    /// usual one (`PASTE_SERVICE`, `[paste] service`, the built-in default).
    var route: Route
    /// Whether `route` was named for this run (`-S`, `--url`): then images go there too.
    var isServiceNamed: Bool
    /// Where an image goes: `route`'s service when one was named for the run, else
    /// `image-service`; nil when neither (an image is then refused, naming `image-service`).
    /// Its connection is resolved only when an image is read (`ReadStage`), so a text paste
    /// never depends on how the image service connects.
    var imageService: ServiceProfile?
    /// `[paste]`'s connection keys, for the image service's route.
    var pasteConnection: ConnectionSettings
    /// Whether a selection holding both text and an image gives its image: `--image`, or a
    /// service named for the run that takes no text (a ShareX image uploader).
    var prefersImage: Bool
    /// `--image`: a selection that holds no image is refused rather than its text sent.
    var requiresImage: Bool
    /// `--url URL`: the ad-hoc endpoint, kept with an outbox entry so `--retry` finds it again.
    var adHocURL: String?
    /// Title, language, private, expiry, burn: already checked against the service when it was
    /// certain before reading (`PlanResolver.resolve`); the request builder checks them always.
    var options: PasteOptions
    /// Where the URL is copied; nil when it is not (`--no-copy`, `copy = false`, `--dry-run`).
    var copy: Selection?
    /// Whether a copy that cannot be made (no display) is said on stderr: only when the person
    /// asked for the copy (`-c`, `-P`, `--image`, or `copy = true` in the config); a pipeline or
    /// cron job with no display is not told each time that there was nothing to copy to.
    var isCopyExpected: Bool
    /// Asked before anything is read when no service was chosen and the text would go to the
    /// built-in public default; nil otherwise.
    var consent: ConsentQuestion?
    /// The clipboard of this session and why it was chosen, decided once; nil when the run
    /// neither reads nor copies.
    var clipboardChoice: ClipboardBackend.Choice?
    /// The backend of `clipboardChoice`.
    var clipboardBackend: ClipboardBackend? { clipboardChoice?.backend }
    /// How long a selection's owner may take to answer (`clipboard-timeout`).
    var clipboardTimeout: Duration
    /// The most bytes read from a selection (`max-clipboard`).
    var maximumClipboardBytes: Int
    /// How the run talks to a person at a hotkey.
    var windows: Windows
    /// How transfers run.
    var transfer: Transfer
    /// How long an earlier paste of the same text to the same service answers a repeat; nil
    /// when every paste is new (`--new`, `--burn`, `repeat-window = 0`).
    var repeatWindow: Duration?
    /// `-n`: the requests are shown, nothing is sent.
    var isDryRun: Bool
    /// `--force`: the secret guard does not stop the upload.
    var isForced: Bool
    /// `--redact` (true), else the `redact` of `[paste]` (a service's own `redact` decides for
    /// it: `redacts(on:)`).
    var masking = Masking(isRequested: false, byDefault: false)
    /// `--prompt`: the title is asked for in a window first.
    var prompts: Bool
    /// `-0`: the names `-f -` reads from stdin end with NUL, not newline.
    var namesEndWithNUL = false
    /// Where the run's service's text goes when that service is down: its `fallback` chain
    /// (`FallbackStage.chain`), in order; empty when it has none.
    var fallbacks: [ServiceProfile] = []
    /// `--update NAME`: the living paste the run makes or replaces (`LivingStage`).
    var living: String?

    /// The most bytes of a clipboard image read: the image service's `max-size`, else the
    /// clipboard's default (`ContentPreferences.defaultImageLimit`).
    var imageLimit: Int {
        imageService?.maximumBytes.map { Int(clamping: $0) } ?? ContentPreferences.defaultImageLimit
    }

    /// Whether the text comes from a selection.
    var readsSelection: Bool {
        if case .selection = input { return true }
        return false
    }
}
