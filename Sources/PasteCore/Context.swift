import FoundationEssentials

/// Everything a run of `paste` learns from its surroundings, passed in rather than read globally.
///
/// Libraries never read `ProcessInfo` or the clock directly: `main` builds one `Context` and hands
/// it down, and tests build their own with a fake environment and clock.
public struct Context: Sendable {
    /// The environment variables of the run.
    public var environment: [String: String]
    /// The current time; tests pin it.
    public var now: @Sendable () -> Date
    /// The process's real and effective user id (for config permission checks).
    public var userID: UInt32
    /// Runs the commands of `${cmd:…}` references (nil: such a reference fails).
    public var commandRunner: (any CommandRunning)?
    /// Asks the person for `{prompt:…}` and `{select:…}` (nil: no one can be asked).
    public var asker: (any Asking)?
    /// Where the run's output goes and its stdin comes from, and whether they are terminals:
    /// the process's own (`ProcessStreams`), or a test's recording.
    public var streams: any StandardStreams
    /// What this run has already resolved once: command output, the person's answers.
    public let cache = RunCache()
    /// The values this run must never show or store (`${env:…}` values, credentials), shared
    /// by everything that prints or keeps text: the output funnel, the history, the outbox.
    public let redactor = Redactor()
    /// The system's certificate authorities, looked up once for the whole run (`ConnectionPolicy`
    /// resolves each service's trust from it).
    public let systemTrust = SystemTrustStore.Lookup()

    /// Makes a context.
    public init(
        environment: [String: String], now: @escaping @Sendable () -> Date = { Date() },
        userID: UInt32 = 0, commandRunner: (any CommandRunning)? = nil, asker: (any Asking)? = nil,
        streams: any StandardStreams = ProcessStreams()
    ) {
        self.environment = environment
        self.streams = streams
        self.now = now
        self.userID = userID
        self.commandRunner = commandRunner
        self.asker = asker
    }

    /// The home folder (`$HOME`, or `/` when unset, as a last resort).
    public var home: String { nonEmpty("HOME") ?? "/" }

    /// `$XDG_CONFIG_HOME`, or `~/.config` (XDG Base Directory Specification).
    public var configHome: String { nonEmpty("XDG_CONFIG_HOME") ?? home + "/.config" }

    /// `$XDG_STATE_HOME`, or `~/.local/state`.
    public var stateHome: String { nonEmpty("XDG_STATE_HOME") ?? home + "/.local/state" }

    /// `$XDG_CACHE_HOME`, or `~/.cache`.
    public var cacheHome: String { nonEmpty("XDG_CACHE_HOME") ?? home + "/.cache" }

    /// `$XDG_RUNTIME_DIR` when set (per-user, 0700), for locks that must not outlive a login.
    public var runtimeDirectory: String? { nonEmpty("XDG_RUNTIME_DIR") }

    /// The folder under which the system's certificate authorities are looked up
    /// (`SystemTrustStore`): `/`, unless `PASTE_TEST_SYSTEM_ROOT` names another. That variable
    /// is for tests only, which lay out one distribution's store in a temporary folder; it
    /// trusts nothing that `SSL_CERT_FILE` could not.
    public var systemRoot: String { nonEmpty("PASTE_TEST_SYSTEM_ROOT") ?? "/" }

    /// The folder of paste's own state: history and outbox.
    public var pasteStateDirectory: String { stateHome + "/paste" }

    /// The outbox folder, where failed uploads wait for `paste --retry`.
    public var outboxDirectory: String { pasteStateDirectory + "/outbox" }

    /// The history file.
    public var historyPath: String { pasteStateDirectory + "/history" }

    /// The default config file: `$PASTE_CONFIG`, else `$XDG_CONFIG_HOME/paste/config`.
    public var defaultConfigPath: String { nonEmpty("PASTE_CONFIG") ?? configHome + "/paste/config" }

    /// An environment variable, treating an empty value as unset (as the XDG spec asks).
    public func nonEmpty(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }
}
