import FoundationEssentials
import SystemInterop

extension Settings {
    /// The keys of `[paste]`, in the order paste-config(5) lists them.
    public static let keys: [ConfigKey<Settings>] = [
        .init("service", .paste, "the service used without -S") { settings, value throws(ConfigError) in
            settings.service = try value.nonEmpty("a service name")
            settings.serviceLine = value.entry.line
        },
        .init("notify", .paste, "when the result is shown in a window or notification") {
            settings, value throws(ConfigError) in
            settings.notify = try value.choice(NotifyMode.self, "auto, always or never")
        },
        .init("notify-style", .paste, "a window or a desktop notification") { settings, value throws(ConfigError) in
            settings.notifyStyle = try value.choice(NotifyStyle.self, "auto, window or desktop")
        },
        .init("picker", .paste, "the menu command of --pick") { settings, value throws(ConfigError) in
            guard !value.text.allSatisfy(\.isWhitespace) else { throw value.bad("a command, such as 'fuzzel --dmenu'") }
            settings.picker = value.text
        },
        .init("timeout", .paste, "the whole upload's limit") { settings, value throws(ConfigError) in
            settings.timeouts.total = try value.duration(SettingRange.timeout)
        },
        .init("connect-timeout", .paste, "the connection's limit") { settings, value throws(ConfigError) in
            settings.timeouts.connect = try value.duration(SettingRange.connectTimeout)
        },
        .init("stall-timeout", .paste, "how long a transfer may make no progress") {
            settings, value throws(ConfigError) in
            settings.timeouts.stall = try value.duration(SettingRange.stallTimeout)
        },
        .init("response-timeout", .paste, "how long the answer may take once the text is sent") {
            settings, value throws(ConfigError) in
            settings.timeouts.response = try value.duration(SettingRange.responseTimeout)
        },
        .init("clipboard-timeout", .paste, "how long reading the clipboard may take") {
            settings, value throws(ConfigError) in
            settings.clipboardTimeout = try value.duration(SettingRange.clipboardTimeout)
        },
        .init("clipboard", .paste, "the clipboard used: X11 or Wayland") { settings, value throws(ConfigError) in
            settings.clipboard = try value.choice(ClipboardSetting.self, "auto, x11 or wayland")
        },
        .init("max-clipboard", .paste, "the largest clipboard read") { settings, value throws(ConfigError) in
            guard let bytes = SettingRange.maximumClipboard.parse(value.text) else {
                throw value.bad("\(SettingRange.maximumClipboard) (such as 1G, 256M)")
            }
            settings.maximumClipboardBytes = Int(bytes)
        },
        .init("notify-timeout", .paste, "how long a notification stays") { settings, value throws(ConfigError) in
            settings.notifyTimeout = try value.duration(SettingRange.notifyTimeout)
            settings.isNotifyTimeoutExplicit = true
        },
        .init("max-retry-after", .paste, "the longest Retry-After waited for") { settings, value throws(ConfigError) in
            settings.maximumRetryAfter = try value.duration(SettingRange.maximumRetryAfter)
        },
        .init("repeat-window", .paste, "how long the same text gets the same URL back") {
            settings, value throws(ConfigError) in
            guard let seconds = SettingRange.repeatWindow.parse(value.text) else {
                throw value.bad("\(SettingRange.repeatWindow) (such as 5m), or 0")
            }
            settings.repeatWindow = .seconds(seconds)
        },
        .init("guess-language", .paste, "whether a language is guessed from the text") {
            settings, value throws(ConfigError) in
            settings.guessesLanguage = try value.bool()
        },
        .init("retries", .paste, "the retries within a run") { settings, value throws(ConfigError) in
            guard let retries = SettingRange.retries.parse(value.text) else {
                throw value.bad("\(SettingRange.retries)")
            }
            settings.retries = retries
        },
        .init("retry-max-attempts", .paste, "the attempts an outbox entry gets") {
            settings, value throws(ConfigError) in
            guard let attempts = Int(value.text), (1...Settings.retryMaximumAttemptsLimit).contains(attempts) else {
                throw value.bad("a whole number from 1 to \(Settings.retryMaximumAttemptsLimit)")
            }
            settings.retryMaximumAttempts = attempts
        },
        .init("copy", .paste, "whether the URL is copied") { settings, value throws(ConfigError) in
            settings.copy = try value.bool()
            settings.isCopyExplicit = settings.copy
        },
        .init("redact", .paste, "whether secrets are masked instead of refused") {
            settings, value throws(ConfigError) in
            settings.redacts = try value.bool()
        },
        .init("image-service", .paste, "the service used for images") { settings, value throws(ConfigError) in
            settings.imageService = try value.nonEmpty("a service name")
            settings.imageServiceLine = value.entry.line
        },
        .connection("ca-file", .paste, "the CA certificates trusted"),
        .connection("ca-path", .paste, "a folder of CA certificates trusted"),
        .connection("proxy", .paste, "the proxy"),
        .connection("no-proxy", .paste, "the hosts reached without the proxy"),
    ]

    /// `keys` by name.
    static let keysByName: [String: ConfigKey<Settings>] = keys.keyedByName()

    mutating func apply(_ entry: ConfigFile.Entry, path: String) throws(ConfigError) {
        guard let key = Self.keysByName[entry.key] else {
            throw .unknownKey(path: path, line: entry.line, section: "paste", key: entry.key)
        }
        try key.read(&self, ConfigKeyValue(entry: entry, path: path))
    }
}
