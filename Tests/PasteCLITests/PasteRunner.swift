import Foundation
import TestSupport

/// Runs the built `paste` in a temporary home, on an X server or with no display.
struct PasteRunner {
    let home: TemporaryHome
    var display: String?
    var extraEnvironment: [String: String?] = [:]

    /// A runner in `home`, on `display` (nil: no X server, and no Wayland either).
    init(home: TemporaryHome, display: String? = nil) {
        self.home = home
        self.display = display
    }

    var environment: [String: String] {
        var extra = extraEnvironment
        extra["DISPLAY"] = display
        extra["WAYLAND_DISPLAY"] = .some(nil)
        extra["NO_COLOR"] = "1"
        // No desktop notifications on the caller's session bus: a test that wants them starts
        // a private bus and names it (`SessionBus`).
        if extra["DBUS_SESSION_BUS_ADDRESS"] == nil { extra["DBUS_SESSION_BUS_ADDRESS"] = .some(nil) }
        return home.environment(extra)
    }

    /// `paste arguments…` with stdin as given.
    func run(_ arguments: [String], input: ProcessInput = .null, timeout: Double = 60) throws -> ProcessResult {
        try runProcess(
            BuiltProducts.path(of: "paste"), arguments, input: input, environment: environment, timeout: timeout)
    }

    /// `paste arguments…` with `text` piped in.
    func run(_ arguments: [String], stdin text: String) throws -> ProcessResult {
        try run(arguments, input: .bytes(Data(text.utf8)))
    }

    /// Runs the shell command `command` on a terminal of its own (`script -qec`, its output
    /// into /dev/null as a typescript): what paste does at a terminal (its lines end `\r\n`).
    func runOnTerminal(_ command: String, timeout: Double = 60) throws -> ProcessResult {
        try runProcess("/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment, timeout: timeout)
    }

    /// Runs `producer | paste ARGUMENTS` in a shell, paste under `/usr/bin/time -f %M`: the run,
    /// and the peak resident set (KiB) of paste itself, not of the pipeline; nil when `time`
    /// wrote no figure. (After a failed paste the figure follows `time`'s "Command exited with
    /// non-zero status N": it is the last line.)
    ///
    /// - Parameter arguments: paste's arguments as the shell reads them (quote what needs it).
    func runMeasuringPeak(
        _ producer: String, _ arguments: String, timeout: Double = 300
    ) throws -> (result: ProcessResult, peakKiB: Int?) {
        let peakFile = home.root.appendingPathComponent("peak").path
        let pipeline =
            producer + " | /usr/bin/time -f %M -o '\(peakFile)' '\(BuiltProducts.path(of: "paste"))' " + arguments
        let result = try runProcess("/bin/sh", ["-c", pipeline], environment: environment, timeout: timeout)
        let figures = (try? Data(contentsOf: URL(fileURLWithPath: peakFile))).map {
            String(decoding: $0, as: UTF8.self)
        }
        return (result, figures?.split(whereSeparator: \.isNewline).last.flatMap { Int($0) })
    }

    /// Writes the default config file (`$XDG_CONFIG_HOME/paste/config`) and returns its path.
    @discardableResult
    func writeConfig(_ text: String, mode: Int = 0o600) throws -> String {
        try home.write(text, to: "config/paste/config", mode: mode)
    }

    /// The default config file's path.
    var configPath: String { home.configHome.appendingPathComponent("paste/config").path }

    /// The files waiting in the outbox (content files only).
    func outboxContents() throws -> [Data] {
        let folder = home.stateHome.appendingPathComponent("paste/outbox")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return try names.sorted().filter { !$0.hasSuffix(".json") && !$0.hasPrefix(".") }.map {
            try Data(contentsOf: folder.appendingPathComponent($0))
        }
    }

    /// The outbox as `paste --outbox --json` lists it, oldest first.
    func outboxListing() throws -> [[String: Any]] {
        let result = try run(["--outbox", "--json"])
        guard result.status == 0,
            let items = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]
        else {
            throw ProcessTimedOut(command: ["paste --outbox --json: \(result.status) \(result.err)"], seconds: 0)
        }
        return items
    }

    /// The ids of the outbox's entries, oldest first.
    func outboxIDs() throws -> [String] {
        try outboxListing().compactMap { $0["id"] as? String }
    }

    /// The states of the outbox's entries, oldest first.
    func outboxStates() throws -> [String] {
        try outboxListing().compactMap { $0["state"] as? String }
    }

    /// The lines of the history file.
    func historyLines() throws -> [String] {
        let path = home.stateHome.appendingPathComponent("paste/history")
        guard let data = try? Data(contentsOf: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

extension ScopedSuite {
    /// `paste` in the test's home (`.temporaryHome`), on the test's X server when it has one
    /// (`.xvfb`), else with no display.
    ///
    /// A fresh runner each time: a test that changes its environment keeps a copy
    /// (`var paste = paste`).
    var paste: PasteRunner { PasteRunner(home: home, display: Xvfb.scoped?.display) }
}

/// What paste says of a failed upload's text in the outbox (entry `id`): retryable, or held.
func keptLine(id: String, isHeld: Bool) -> String {
    isHeld
        ? "paste: the text is held in the outbox (\(id)): the paste may have been made; "
            + "'paste --outbox send \(id)' sends it anyway, 'paste --outbox drop \(id)' drops it"
        : "paste: the text waits in the outbox (\(id)); 'paste --retry' sends it again"
}

/// A config with `[paste] retries = 0` (a failure is final within the run) and one service,
/// `name`, the mock's pastie form (with `isDefault`, `[paste] service = NAME` picks it); `extra`
/// follows it (more keys of that service, more sections).
func pastieConfig(_ mock: MockServer, name: String = "m", isDefault: Bool = false, extra: String = "") -> String {
    "[paste]\nretries = 0\n" + (isDefault ? "service = \(name)\n" : "") + "[service \"\(name)\"]\n"
        + "url = \(mock.url("/pastes/create"))\ncontent-field = paste[body]\nfield = paste[authorization]=burger\n"
        + extra
}

/// The paste id at the end of a mock URL (`http://127.0.0.1:P/pastes/12` → 12).
func pasteID(_ url: String) -> Int? {
    url.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/").last.flatMap { Int($0) }
}

/// The folder of this test target's fixtures.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
