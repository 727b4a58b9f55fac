import Clipboard
import FoundationEssentials
import PasteCore
import SystemInterop
import Testing

@testable import PasteCLI

/// Every decision of a run's plan, taken in process from values: argv, the config, the
/// environment (DISPLAY, WAYLAND_DISPLAY, PATH), stdin's kind and whether stderr is a terminal.
/// No display, no network, no child process: a table of rows, one plan each, in the way
/// swift-argument-parser tests parsing in process (the binary tests keep the end-to-end truth).
@Suite("Plan resolver")
struct PlanResolverTests {
    /// The session a row runs in.
    enum Session: String, CustomStringConvertible, Sendable {
        /// Neither DISPLAY nor WAYLAND_DISPLAY.
        case headless
        /// DISPLAY=:7.
        case x11
        /// WAYLAND_DISPLAY=wayland-1, with `wl-copy` on PATH.
        case wayland
        /// WAYLAND_DISPLAY=wayland-1, no `wl-copy` on PATH.
        case waylandWithoutTools
        /// Both DISPLAY=:7 and WAYLAND_DISPLAY (XWayland): X11 wins.
        case xwayland
        /// DISPLAY set but empty.
        case emptyDisplay

        var description: String { rawValue }
    }

    /// What a row expects of the plan.
    struct Expected: Sendable {
        var input: RunPlan.Input
        var backend: ClipboardBackend?
        var windows = false
        var copy: Selection? = nil
        var progress = false
        var repeatWindow: Duration? = .seconds(300)
        var clipboardTimeout: Duration = .seconds(2)
        var notifyTimeout: Duration = .seconds(4)
    }

    /// One row: the facts of a run and the plan they make.
    struct Row: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var standardInput: StandardInputKind
        var isTerminal: Bool
        var session: Session
        var config = ""
        var expected: Expected

        var testDescription: String {
            let stdin =
                switch standardInput {
                case .stream: "pipe"
                case .file: "file"
                case .none: "no stdin"
                }
            let config = config.isEmpty ? "" : " [\(config.split(separator: "\n").joined(separator: "; "))]"
            return "paste \(arguments.joined(separator: " ")) | \(stdin), \(isTerminal ? "tty" : "no tty"), "
                + "\(session)\(config)"
        }
    }

    static let clipboard = RunPlan.Input.selection(.clipboard, isFallback: false)
    static let fallback = RunPlan.Input.selection(.clipboard, isFallback: true)
    static let primary = RunPlan.Input.selection(.primary, isFallback: false)
    static let x11 = ClipboardBackend.x11(displayName: ":7")
    static let pipe = StandardInputKind.stream
    static let file = StandardInputKind.file(size: 12)

    static let rows: [Row] = [
        // Where the text comes from: stdin's kind decides when no flag does.
        Row(
            arguments: [], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(input: .standardInput, backend: x11, copy: .clipboard, progress: true)),
        Row(
            arguments: [], standardInput: file, isTerminal: true, session: .x11,
            expected: Expected(input: .standardInput, backend: x11, copy: .clipboard, progress: true)),
        Row(
            arguments: [], standardInput: .none, isTerminal: true, session: .x11,
            expected: Expected(input: fallback, backend: x11, copy: .clipboard, progress: true)),
        Row(
            arguments: [], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: fallback, backend: x11, windows: true, copy: .clipboard)),
        Row(
            arguments: [], standardInput: pipe, isTerminal: false, session: .x11,
            expected: Expected(input: .standardInput, backend: x11, copy: .clipboard)),
        Row(
            arguments: [], standardInput: file, isTerminal: false, session: .headless,
            expected: Expected(input: .standardInput, backend: ClipboardBackend.none, copy: .clipboard)),
        Row(
            arguments: [], standardInput: .none, isTerminal: false, session: .headless,
            expected: Expected(input: fallback, backend: ClipboardBackend.none, copy: .clipboard)),
        Row(
            arguments: [], standardInput: pipe, isTerminal: true, session: .headless,
            expected: Expected(input: .standardInput, backend: ClipboardBackend.none, copy: .clipboard, progress: true)),
        // A flag chooses, whatever stdin is.
        Row(
            arguments: ["-c"], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(input: clipboard, backend: x11, copy: .clipboard, progress: true)),
        Row(
            arguments: ["-c"], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: clipboard, backend: x11, windows: true, copy: .clipboard)),
        Row(
            arguments: ["-P"], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: primary, backend: x11, windows: true, copy: .clipboard)),
        Row(
            arguments: ["-P"], standardInput: pipe, isTerminal: true, session: .headless,
            expected: Expected(input: primary, backend: ClipboardBackend.none, copy: .clipboard, progress: true)),
        Row(
            arguments: ["-f", "a.txt"], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(input: .files(["a.txt"]), backend: x11, copy: .clipboard, progress: true)),
        Row(
            arguments: ["-f", "a.txt", "-f", "b.txt"], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: .files(["a.txt", "b.txt"]), backend: x11, copy: .clipboard)),
        Row(
            arguments: ["--image"], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(input: clipboard, backend: x11, copy: .clipboard, progress: true)),
        Row(
            arguments: ["--image"], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: clipboard, backend: x11, windows: true, copy: .clipboard)),
        // No copy: no clipboard at all unless the text comes from one.
        Row(
            arguments: ["--no-copy"], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(input: .standardInput, backend: nil, progress: true)),
        Row(
            arguments: ["--no-copy", "-f", "a.txt"], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: .files(["a.txt"]), backend: nil)),
        Row(
            arguments: ["--no-copy"], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: fallback, backend: x11, windows: true)),
        Row(
            arguments: ["-n"], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(input: .standardInput, backend: nil, progress: true)),
        Row(
            arguments: ["--dry-run", "-c"], standardInput: .none, isTerminal: true, session: .x11,
            expected: Expected(input: clipboard, backend: x11, progress: true)),
        Row(
            arguments: [], standardInput: pipe, isTerminal: true, session: .x11, config: "[paste]\ncopy = false",
            expected: Expected(input: .standardInput, backend: x11, progress: true)),
        // Windows: DISPLAY first, then --notify/--no-notify, then `notify`.
        Row(
            arguments: ["--notify"], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(input: .standardInput, backend: x11, windows: true, copy: .clipboard, progress: true)),
        Row(
            arguments: ["--notify"], standardInput: pipe, isTerminal: true, session: .headless,
            expected: Expected(input: .standardInput, backend: ClipboardBackend.none, copy: .clipboard, progress: true)),
        Row(
            arguments: ["--no-notify"], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: fallback, backend: x11, copy: .clipboard)),
        Row(
            arguments: [], standardInput: .none, isTerminal: false, session: .x11, config: "[paste]\nnotify = never",
            expected: Expected(input: fallback, backend: x11, copy: .clipboard)),
        Row(
            arguments: [], standardInput: pipe, isTerminal: true, session: .x11, config: "[paste]\nnotify = always",
            expected: Expected(input: .standardInput, backend: x11, windows: true, copy: .clipboard, progress: true)),
        Row(
            arguments: ["--no-notify"], standardInput: pipe, isTerminal: true, session: .x11,
            config: "[paste]\nnotify = always",
            expected: Expected(input: .standardInput, backend: x11, copy: .clipboard, progress: true)),
        Row(
            arguments: ["--notify"], standardInput: pipe, isTerminal: true, session: .x11,
            config: "[paste]\nnotify = never",
            expected: Expected(input: .standardInput, backend: x11, windows: true, copy: .clipboard, progress: true)),
        Row(
            arguments: ["--json"], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: fallback, backend: x11, copy: .clipboard)),
        Row(
            arguments: [], standardInput: .none, isTerminal: false, session: .emptyDisplay,
            expected: Expected(input: fallback, backend: ClipboardBackend.none, copy: .clipboard)),
        Row(
            arguments: ["-c"], standardInput: .none, isTerminal: false, session: .wayland,
            expected: Expected(input: clipboard, backend: .wayland, copy: .clipboard)),
        // Wayland: wl-copy on PATH makes the backend; XWayland's DISPLAY wins.
        Row(
            arguments: [], standardInput: pipe, isTerminal: true, session: .wayland,
            expected: Expected(input: .standardInput, backend: .wayland, copy: .clipboard, progress: true)),
        Row(
            arguments: [], standardInput: pipe, isTerminal: true, session: .waylandWithoutTools,
            expected: Expected(input: .standardInput, backend: ClipboardBackend.none, copy: .clipboard, progress: true)),
        Row(
            arguments: [], standardInput: .none, isTerminal: false, session: .xwayland,
            expected: Expected(input: fallback, backend: x11, windows: true, copy: .clipboard)),
        Row(
            arguments: ["--no-copy"], standardInput: pipe, isTerminal: false, session: .wayland,
            expected: Expected(input: .standardInput, backend: nil)),
        // The progress bar: a terminal, and neither -q nor --json.
        Row(
            arguments: ["-q"], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(input: .standardInput, backend: x11, copy: .clipboard)),
        Row(
            arguments: ["--json"], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(input: .standardInput, backend: x11, copy: .clipboard)),
        Row(
            arguments: ["-q"], standardInput: .none, isTerminal: false, session: .x11,
            expected: Expected(input: fallback, backend: x11, windows: true, copy: .clipboard)),
        // The repeat window and the clipboard's and the window's timeouts.
        Row(
            arguments: ["--new"], standardInput: pipe, isTerminal: true, session: .x11,
            expected: Expected(
                input: .standardInput, backend: x11, copy: .clipboard, progress: true, repeatWindow: nil)),
        Row(
            arguments: [], standardInput: pipe, isTerminal: true, session: .x11, config: "[paste]\nrepeat-window = 0",
            expected: Expected(
                input: .standardInput, backend: x11, copy: .clipboard, progress: true, repeatWindow: nil)),
        Row(
            arguments: [], standardInput: pipe, isTerminal: false, session: .x11, config: "[paste]\nrepeat-window = 1m",
            expected: Expected(input: .standardInput, backend: x11, copy: .clipboard, repeatWindow: .seconds(60))),
        Row(
            arguments: ["-c"], standardInput: .none, isTerminal: false, session: .x11,
            config: "[paste]\nclipboard-timeout = 0.25\nnotify-timeout = 1.5s",
            expected: Expected(
                input: clipboard, backend: x11, windows: true, copy: .clipboard, clipboardTimeout: .milliseconds(250),
                notifyTimeout: .milliseconds(1500))),
        Row(
            arguments: ["-c", "--no-copy"], standardInput: .none, isTerminal: false, session: .headless,
            config: "[paste]\nclipboard-timeout = 0.001",
            expected: Expected(input: clipboard, backend: ClipboardBackend.none, clipboardTimeout: .milliseconds(1))),
    ]

    /// A folder with an executable `wl-copy` in it (found on PATH, never run).
    static let toolFolder: String = {
        let folder = FileManager.default.temporaryDirectory.path + "/plan-resolver-tools-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let tool = folder + "/wl-copy"
        _ = FileManager.default.createFile(atPath: tool, contents: Data("#!/bin/sh\nexit 1\n".utf8))
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
        return folder
    }()

    static func environment(_ session: Session) -> [String: String] {
        var environment = ["HOME": "/nonexistent", "PATH": "/nonexistent"]
        switch session {
        case .headless: break
        case .x11: environment["DISPLAY"] = ":7"
        case .wayland:
            environment["WAYLAND_DISPLAY"] = "wayland-1"
            environment["PATH"] = toolFolder
        case .waylandWithoutTools: environment["WAYLAND_DISPLAY"] = "wayland-1"
        case .xwayland:
            environment["DISPLAY"] = ":7"
            environment["WAYLAND_DISPLAY"] = "wayland-1"
            environment["PATH"] = toolFolder
        case .emptyDisplay: environment["DISPLAY"] = ""
        }
        return environment
    }

    @Test("the plan's decisions", arguments: rows)
    func plan(_ row: Row) throws {
        guard case .paste(let invocation) = try parseCommandLine(row.arguments) else {
            Issue.record("not paste's command line: \(row.arguments)")
            return
        }
        let context = Context(environment: Self.environment(row.session))
        let resolver = PlanResolver(
            invocation: invocation, context: context,
            facts: PlanResolver.Facts(standardInput: row.standardInput, isErrorTerminal: row.isTerminal))
        let configuration = try Configuration(file: ConfigFile(parsing: row.config, path: "/config"))
        let windows = resolver.windows(for: configuration.settings)
        let plan = try resolver.resolve(configuration, windows: windows)
        let expected = row.expected
        #expect(plan.input == expected.input)
        #expect(plan.clipboardBackend == expected.backend)
        #expect(plan.windows.isShown == expected.windows)
        #expect(plan.windows.displayName == context.nonEmpty("DISPLAY"))
        #expect(plan.windows.notifyTimeout == expected.notifyTimeout)
        #expect(plan.copy == expected.copy)
        #expect(plan.transfer.showsProgress == expected.progress)
        #expect(plan.repeatWindow == expected.repeatWindow)
        #expect(plan.clipboardTimeout == expected.clipboardTimeout)
        #expect(plan.isDryRun == invocation.isDryRun)
    }

    @Test("the table has at least 40 rows")
    func tableSize() {
        #expect(Self.rows.count >= 40)
    }

    @Test("stdin is looked at only when no flag chose where the text comes from")
    func standardInputLookedAtOnlyWhenNeeded() throws {
        for arguments in [["-c"], ["-P"], ["-f", "x"], ["--image"]] {
            guard case .paste(let invocation) = try parseCommandLine(arguments) else { continue }
            #expect(
                PlanResolver.Facts.current(for: invocation, streams: ProcessStreams()).standardInput == .none,
                "\(arguments)")
        }
    }

    @Test("the transfer's timeouts come from the config and --timeout, as Durations")
    func transferTimeouts() throws {
        let configuration = try Configuration(
            file: ConfigFile(
                parsing: "[paste]\nconnect-timeout = 3\nstall-timeout = 7\nresponse-timeout = 9\ntimeout = 11",
                path: "/config"))
        guard case .paste(let timed) = try parseCommandLine(["--timeout", "2.5"]),
            case .paste(let plain) = try parseCommandLine([])
        else { return }
        let transfer = PlanResolver.transfer(plain, configuration.settings, showsProgress: false)
        #expect(transfer.transport.timeouts.connect == .seconds(3))
        #expect(transfer.transport.timeouts.stall == .seconds(7))
        #expect(transfer.transport.timeouts.response == .seconds(9))
        #expect(transfer.transport.timeouts.total == .seconds(11))
        #expect(
            PlanResolver.transfer(timed, configuration.settings, showsProgress: false).transport.timeouts.total
                == .milliseconds(2500))
    }

    @Test(
        "the built-in default's chain: dpaste then bpa.st as it ships, in the question too; a section that moves or bases on it has none"
    )
    func builtInChain() throws {
        func plan(_ config: String, _ arguments: [String] = []) throws -> RunPlan {
            guard case .paste(let invocation) = try parseCommandLine(arguments) else { throw CancellationError() }
            let resolver = PlanResolver(
                invocation: invocation, context: Context(environment: Self.environment(.headless)),
                facts: PlanResolver.Facts(standardInput: .stream, isErrorTerminal: false))
            let configuration = try Configuration(file: ConfigFile(parsing: config, path: "/config"))
            return try resolver.resolve(configuration, windows: resolver.windows(for: configuration.settings))
        }
        let shipped = try plan("")
        #expect(shipped.fallbacks.map(\.name) == ["bpa.st"])
        let question = try #require(shipped.consent)
        #expect(question.destination == "dpaste.com (or bpa.st when it is down)")
        #expect(
            DesktopWindows.consentMessage(question)
                == "No service is chosen yet, so this would go to dpaste.com (or bpa.st when it is down), a public "
                + "pastebin: anyone with the link can read it. Upload it there?")
        #expect(try plan("", ["-S", "dpaste"]).fallbacks.map(\.name) == ["bpa.st"])
        #expect(try plan("[paste]\nservice = dpaste\n").fallbacks.map(\.name) == ["bpa.st"])
        let moved = try plan("[service \"dpaste\"]\nurl = http://127.0.0.1:9/api/v2/\n")
        #expect(moved.fallbacks.isEmpty)
        #expect(moved.consent?.destination == "127.0.0.1")
        #expect(try plan("[service \"dpaste\"]\nfield = poster=me\n").fallbacks.isEmpty)
        #expect(
            try plan("[paste]\nservice = m\n[service \"m\"]\nbase = dpaste\nurl = http://127.0.0.1:9/\n").fallbacks
                .isEmpty)
        // A section's own fallback stands.
        #expect(
            try plan("[service \"dpaste\"]\nurl = http://127.0.0.1:9/api/v2/\nfallback = termbin\n").fallbacks.map(
                \.name) == ["termbin"])
    }

    @Test("\"choose another\" leaves out the services that need a token until a header gives it")
    func choicesNeedTheirToken() throws {
        func choices(_ config: String) throws -> [String] {
            guard case .paste(let invocation) = try parseCommandLine([]) else { throw CancellationError() }
            let resolver = PlanResolver(
                invocation: invocation, context: Context(environment: Self.environment(.headless)),
                facts: PlanResolver.Facts(standardInput: .stream, isErrorTerminal: false))
            let configuration = try Configuration(file: ConfigFile(parsing: config, path: "/config"))
            let plan = try resolver.resolve(configuration, windows: resolver.windows(for: configuration.settings))
            return try #require(plan.consent).choices
        }
        let shipped = try choices("")
        #expect(shipped.contains("termbin") && shipped.contains("bpa.st"))
        #expect(!shipped.contains("gist") && !shipped.contains("gitlab") && !shipped.contains("opengist"))
        #expect(!shipped.contains("dpaste"))
        let given = try choices(
            "[service \"gist\"]\nheader = authorization: Bearer ${env:GH_TOKEN}\n"
                + "[service \"gitlab\"]\nheader = X-Other: 1\n")
        #expect(given.contains("gist"))
        #expect(!given.contains("gitlab"))
    }
}
