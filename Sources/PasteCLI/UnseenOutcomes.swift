import FoundationEssentials
import PasteCore
import Stores
import SystemInterop

/// Outcomes a hotkey run could show nobody: no notification server answered, no X display was
/// there, and stderr went nowhere a person reads (issue 41, item 4: KDE without a notification
/// server left only a line in the journal). Kept in `$XDG_STATE_HOME/paste/unseen` (0600), one
/// line each, and said by the next run whose stderr is a terminal, which then removes them.
///
/// Only what the card would have said: its title and first line (the URL shown as a card shows
/// it, shortened when it carries its key), never the text.
struct UnseenOutcomes {
    /// The file.
    var path: String

    /// The most outcomes kept: the newest.
    static let keptCount = 20
    /// The most bytes read back (a line is short: a title and a URL or a reason).
    static let maximumBytes = 64 << 10

    /// The store of the run's environment: `$XDG_STATE_HOME/paste/unseen`, or
    /// `~/.local/state/paste/unseen`; nil without either variable.
    init?(environment: [String: String]) {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            path = state + "/paste/unseen"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            path = home + "/.local/state/paste/unseen"
        } else {
            return nil
        }
    }

    /// Keeps `title` and the first line of `body`, stamped with `time`; failures are ignored
    /// (nobody would see them either).
    func add(title: String, body: String, at time: Date) {
        let firstLine = body.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        let line = JSONText.timestamp(time) + "\t" + Sanitizer.printable(title + ": " + firstLine)
        let lines = (read() + [line]).suffix(Self.keptCount)
        try? AtomicFile.write(Array(lines.map { $0 + "\n" }.joined().utf8), to: path, durable: false)
    }

    /// The outcomes kept, oldest first, each "time: title: line", and forgets them.
    func takeAll() -> [String] {
        let lines = read()
        guard !lines.isEmpty else { return [] }
        try? FileSystem.removeFile(path)
        return lines.map { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { return line }
            return "while nobody could see it (\(parts[0])): \(parts[1])"
        }
    }

    private func read() -> [String] {
        guard let bytes = try? AtomicFile.read(path, limit: Self.maximumBytes) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Says the outcomes nobody saw, one stderr line each, when stderr is a terminal.
    static func sayAll(environment: [String: String], output: Output) {
        guard StandardStream.error.isTerminal, let store = UnseenOutcomes(environment: environment) else { return }
        for line in store.takeAll() { output.note(line) }
    }
}
