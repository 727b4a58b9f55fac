import PasteCore
import Stores
import SystemInterop

/// Writes (and removes) a desktop's own shortcut for paste: the tools of each desktop run as
/// argv (never through a shell), each file change kept in the record with its bytes before.
///
/// One desktop's way lives in `KeyBinder+<Desktop>.swift`; each checks that the key is free
/// before it writes anything, and returns the steps `--unbind-key` takes back.
struct KeyBinder {
    var context: Context
    var desktop: KeyDesktop
    /// Runs the desktop's tools (`CommandRunner`, or a test's).
    var runner: any CommandRunning
    /// What was written, one line each, for the person.
    var said: [String] = []
    /// The way back, in order.
    var steps: [KeyBindingRecord.Step] = []

    /// The most a desktop's tool may take: gsettings waits for dconf's write to be done.
    static let toolTimeout: Duration = .seconds(30)
    /// The mode of the files paste writes in a person's config (read by the desktop).
    static let configPermissions = FilePermissions(rawValue: 0o644)

    init(context: Context, desktop: KeyDesktop, runner: any CommandRunning) {
        self.context = context
        self.desktop = desktop
        self.runner = runner
    }

    // MARK: - Tools

    /// Whether `tool` is on `PATH`.
    func has(_ tool: String) -> Bool {
        CommandRunner.locate(tool, path: context.environment["PATH"]) != nil
    }

    /// The first of `tools` on `PATH`, or `toolMissing` naming the first.
    func first(of tools: [String]) throws(BindKeyError) -> String {
        guard let tool = tools.first(where: has) else { throw .toolMissing(tool: tools[0], desktop: desktop) }
        return tool
    }

    /// Runs a tool and returns its stdout.
    @discardableResult
    func run(_ arguments: [String]) throws(BindKeyError) -> String {
        switch runner.run(arguments, environment: context.environment, timeout: Self.toolTimeout) {
        case .success(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .failure(.notFound): throw .toolMissing(tool: arguments[0], desktop: desktop)
        case .failure(let failure):
            throw .toolFailed(command: arguments.joined(separator: " "), failure: failure)
        }
    }

    /// Runs a tool that changes a setting, says so, and records `undo` to set it back.
    mutating func change(_ arguments: [String], undo: [String]?) throws(BindKeyError) {
        try run(arguments)
        said.append("ran " + Self.shown(arguments))
        if let undo { steps.append(.run(undo)) }
    }

    /// Records a command that makes the desktop read its settings again on `--unbind-key`.
    mutating func reloadOnUndo(_ arguments: [String]) { steps.append(.reload(arguments)) }

    /// argv as a person could type it: each argument quoted for a POSIX shell when it needs it.
    static func shown(_ arguments: [String]) -> String {
        arguments.map(shellQuoted).joined(separator: " ")
    }

    /// `text` as one word of a POSIX shell (`sh`, sway's `exec`, Xfce's command line): as it
    /// is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+=:@%,".contains($0)) }
        if safe && !text.isEmpty { return text }
        return "'" + text.replacing("'", with: "'\\''") + "'"
    }

    // MARK: - Files

    /// A file's bytes, or nil when it does not exist. Read as it is (the desktop's file, not
    /// one of paste's stores: its mode is left alone).
    func read(_ path: String) throws(BindKeyError) -> [UInt8]? {
        try contents(path)?.bytes
    }

    /// A file's bytes and status, or nil when it does not exist.
    static func contents(_ path: String) throws(BindKeyError) -> FileSystem.Contents? {
        do {
            return try FileSystem.readFile(path, limit: maximumFileSize)
        } catch {
            if error == .noSuchFileOrDirectory { return nil }
            throw .file(path: path, reason: FileSystem.reason(readingFile: error))
        }
    }

    func contents(_ path: String) throws(BindKeyError) -> FileSystem.Contents? { try Self.contents(path) }

    /// The largest desktop file paste reads: far more than any shortcut or compositor config.
    static let maximumFileSize = 16 << 20

    /// Replaces `path` with `bytes` atomically, keeping the old file's mode (0644 for a new one).
    static func replace(_ path: String, with bytes: [UInt8], like old: FileSystem.Contents?) throws(BindKeyError) {
        do {
            try AtomicFile.write(bytes, to: path, permissions: old?.status.permissions ?? configPermissions)
        } catch {
            throw .file(path: path, reason: error.message)
        }
    }

    /// Replaces a file (atomically, its mode kept), says so with `summary` and records its old bytes.
    mutating func write(_ bytes: [UInt8], to path: String, summary: String) throws(BindKeyError) {
        let old = try contents(path)
        let before = old?.bytes
        try Self.replace(path, with: bytes, like: old)
        said.append("wrote \(path): \(summary)")
        steps.append(.file(path: path, before: before, after: bytes))
    }

    /// `text` with `line` after it, on a line of its own.
    static func appending(_ line: String, to text: [UInt8]) -> [UInt8] {
        var bytes = text
        if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        return bytes + Array((line + "\n").utf8)
    }

    // MARK: - Binding

    /// Checks the key is free on this desktop, then writes the shortcut.
    mutating func bind(_ key: HotKey, command: String) throws(BindKeyError) {
        switch desktop {
        case .gnome: try bindGNOME(key, command: command)
        case .kde5, .kde6: try bindKDE(key, command: command)
        case .xfce: try bindXfce(key, command: command)
        case .sway, .i3: try bindSway(key, command: command)
        case .hyprland: try bindHyprland(key, command: command)
        }
    }

    /// What `--unbind-key` did or could not do, a line each.
    struct Undone {
        var said: [String] = []
        var leftAlone: [String] = []
    }

    /// Takes the recorded steps back: files restored byte for byte when they still hold what
    /// paste wrote (else left, and said), settings set back, then the desktop reloaded.
    func undo(_ record: KeyBindingRecord) throws(BindKeyError) -> Undone {
        var undone = Undone()
        for step in record.steps.reversed() {
            switch step {
            case .run(let arguments):
                try run(arguments)
                undone.said.append("ran " + Self.shown(arguments))
            case .file(let path, let before, let after):
                let now = try contents(path)
                guard now?.bytes == after else {
                    undone.leftAlone.append(path)
                    continue
                }
                if let before {
                    try Self.replace(path, with: before, like: now)
                    undone.said.append("\(path): restored as it was")
                } else {
                    do { try FileSystem.removeFile(path) } catch { throw .file(path: path, reason: error.message) }
                    undone.said.append("\(path): removed (paste made it)")
                }
            case .reload: continue
            }
        }
        for case .reload(let arguments) in record.steps {
            // The desktop may be gone (another session): its files are right all the same.
            if arguments == [Self.kglobalaccelReload] {
                if reloadKGlobalAccel() { undone.said.append("ran kglobalaccel5 again over D-Bus") }
            } else if (try? run(arguments)) != nil {
                undone.said.append("ran " + Self.shown(arguments))
            }
        }
        return undone
    }
}
