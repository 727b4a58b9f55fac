import PasteCore
import SystemInterop

extension Runner {
    /// The key `--bind-key` takes when none is given: free in the default shortcuts of GNOME
    /// 43 (Super+V shows the notification list there), KDE Plasma (Klipper holds Ctrl+Alt+V in
    /// 5, Meta+V in 6), Xfce 4.18 and sway's and i3's default configs (Super+V splits there).
    static let defaultHotKey = HotKey(modifiers: [.super, .shift], key: "v")

    /// `--bind-key [KEY]`: writes the desktop's own shortcut for this paste, unless the key is
    /// taken (69) or paste bound one already (64); says what it wrote and how to undo it.
    func bindKey(_ text: String?) throws -> ExitStatus {
        let key: HotKey
        if let text {
            guard let parsed = HotKey(text) else { throw BindKeyError.badKey(text) }
            key = parsed
        } else {
            key = Self.defaultHotKey
        }
        guard let desktop = KeyDesktop.detect(context.environment) else {
            throw BindKeyError.unknownDesktop(current: context.nonEmpty("XDG_CURRENT_DESKTOP"))
        }
        if let record = try KeyBindingRecord.load(context) {
            throw BindKeyError.alreadyBound(key: record.key, desktop: record.desktop.name)
        }
        guard let command = CurrentProcess.executablePath(), KeyBindingRecord.isStorable(command) else {
            throw BindKeyError.file(path: "/proc/self/exe", reason: "cannot tell where this paste is installed")
        }
        var binder = KeyBinder(context: context, desktop: desktop, runner: context.commandRunner ?? CommandRunner())
        var record = KeyBindingRecord(desktop: desktop, key: key.description, command: command)
        do {
            try binder.bind(key, command: command)
            record.steps = binder.steps
            try record.save(context)
        } catch {
            // What was written before a tool (or the record) failed is taken back: no shortcut
            // stays that --unbind-key would not know of.
            record.steps = binder.steps
            _ = try? binder.undo(record)
            throw error
        }
        let which = text == nil ? " (the default key; another: paste --bind-key KEY)" : ""
        var lines = ["bound \(key) to \(command) on \(desktop.name)\(which)"]
        lines += binder.said.map { "  " + $0 }
        if command.contains("/.build/") {
            lines.append("  note: \(command) is a build folder's; bind again after installing paste")
        }
        lines.append("undo: paste --unbind-key")
        output.text(lines.map { output.line($0) + "\n" }.joined())
        return .success
    }

    /// `--unbind-key`: takes back what `--bind-key` wrote, as its record says.
    func unbindKey() throws -> ExitStatus {
        guard let record = try KeyBindingRecord.load(context) else {
            output.text(output.line("no key bound by paste; nothing to undo") + "\n")
            return .success
        }
        let binder = KeyBinder(
            context: context, desktop: record.desktop, runner: context.commandRunner ?? CommandRunner())
        let undone = try binder.undo(record)
        try KeyBindingRecord.remove(context)
        var lines = ["unbound \(record.key) on \(record.desktop.name)"]
        lines += undone.said.map { "  " + $0 }
        lines += undone.leftAlone.map { "  left \($0) as it is: it changed since paste wrote it" }
        output.text(lines.map { output.line($0) + "\n" }.joined())
        return .success
    }
}
