import SystemInterop

/// KDE Plasma: a launcher (`paste-bind-key.desktop` in `$XDG_DATA_HOME/applications`) and its
/// global shortcut in `kglobalshortcutsrc`, written with `kwriteconfig5`/`kwriteconfig6`:
/// Plasma 6 keeps a launcher's shortcut in the group `[services][NAME.desktop]` (`_launch`),
/// Plasma 5 in `[NAME.desktop]` (`_launch=KEY,none,NAME` beside `_k_friendly_name`).
/// kglobalaccel reads the file when it starts. On Plasma 5, a running kglobalaccel5 is asked
/// over D-Bus to quit (`/MainApplication` `quit`, which writes nothing over paste's group) and is
/// started again by D-Bus activation (a call to `org.kde.KGlobalAccel.allComponents`), which
/// reads it; Plasma 6 serves kglobalaccel from inside kwin, which paste does not restart: the
/// next login takes the key up there.
extension KeyBinder {
    /// The reload step's name in the record: `reloadKGlobalAccel`'s D-Bus calls.
    static let kglobalaccelReload = "kglobalaccel"
    static let kglobalaccelName = "org.kde.kglobalaccel"
    /// How long kglobalaccel5 may take to let go of its name after `quit`.
    static let kglobalaccelQuitTimeout: Duration = .seconds(5)

    static let kdeLauncher = "paste-bind-key.desktop"

    /// `$XDG_CONFIG_HOME/kglobalshortcutsrc`.
    var kdeShortcutsPath: String { context.configHome + "/kglobalshortcutsrc" }

    /// `$XDG_DATA_HOME/applications/paste-bind-key.desktop`.
    var kdeLauncherPath: String {
        (context.nonEmpty("XDG_DATA_HOME") ?? context.home + "/.local/share") + "/applications/" + Self.kdeLauncher
    }

    mutating func bindKDE(_ key: HotKey, command: String) throws(BindKeyError) {
        let isPlasma6 = desktop == .kde6
        let tool = try first(of: isPlasma6 ? ["kwriteconfig6", "kwriteconfig5"] : ["kwriteconfig5", "kwriteconfig6"])
        let shortcuts = kdeShortcutsPath
        let before = try read(shortcuts)
        if let holder = Self.kdeHolder(of: key, in: before ?? []) {
            throw .taken(key: key, desktop: desktop, holder: holder)
        }
        if try read(kdeLauncherPath) != nil {
            throw .taken(key: key, desktop: desktop, holder: "a launcher paste did not record (\(kdeLauncherPath))")
        }
        let launcher = """
            [Desktop Entry]
            Type=Application
            Name=paste
            Comment=Upload the clipboard and copy the URL
            Exec=\(Self.desktopExec(command))
            NoDisplay=true
            X-KDE-Shortcuts=\(key.qtSequence)

            """
        try write(Array(launcher.utf8), to: kdeLauncherPath, summary: "Exec=\(Self.desktopExec(command))")
        let groups =
            isPlasma6 ? ["--group", "services", "--group", Self.kdeLauncher] : ["--group", Self.kdeLauncher]
        var entries = [("_launch", isPlasma6 ? key.qtSequence : "\(key.qtSequence),none,paste")]
        if !isPlasma6 { entries.insert(("_k_friendly_name", "paste"), at: 0) }
        for (name, value) in entries {
            try run([tool, "--file", shortcuts] + groups + ["--key", name, value])
        }
        let after = try read(shortcuts) ?? []
        let reloaded = !isPlasma6 && reloadKGlobalAccel()
        said.append(
            "wrote \(shortcuts): "
                + (isPlasma6 ? "[services][\(Self.kdeLauncher)]" : "[\(Self.kdeLauncher)]")
                + " _launch=\(entries.last!.1) (written by \(tool)"
                + (reloaded ? ")" : "; Plasma reads it at the next login)"))
        steps.append(.file(path: shortcuts, before: before, after: after))
        if reloaded { said.append("ran kglobalaccel5 again over D-Bus (quit, then started by activation)") }
        if !isPlasma6 { reloadOnUndo([Self.kglobalaccelReload]) }
    }

    /// Whether `name` has an owner on the session bus (`NameHasOwner`, with dbus-send).
    private func busHasOwner(_ name: String) -> Bool {
        let reply = try? run([
            "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameHasOwner", "string:" + name,
        ])
        return reply?.contains("boolean true") == true
    }

    /// Makes a running kglobalaccel5 read kglobalshortcutsrc again: asks it to quit, waits for
    /// its name to go, then calls it, which D-Bus activation answers with a new one. False when
    /// none runs (or dbus-send is missing): the next login reads the file.
    func reloadKGlobalAccel() -> Bool {
        guard has("dbus-send"), busHasOwner(Self.kglobalaccelName) else { return false }
        guard
            (try? run([
                "dbus-send", "--session", "--print-reply", "--dest=" + Self.kglobalaccelName, "/MainApplication",
                "org.qtproject.Qt.QCoreApplication.quit",
            ])) != nil
        else { return false }
        let deadline = ContinuousClock.now + Self.kglobalaccelQuitTimeout
        while busHasOwner(Self.kglobalaccelName) {
            guard ContinuousClock.now < deadline else { return false }
            CurrentProcess.sleep(for: .milliseconds(20))
        }
        return
            (try? run([
                "dbus-send", "--session", "--print-reply", "--dest=" + Self.kglobalaccelName, "/kglobalaccel",
                "org.kde.KGlobalAccel.allComponents",
            ])) != nil
    }

    /// Who holds `key` in a `kglobalshortcutsrc` (`[kwin] Window Close`), or nil.
    ///
    /// Each entry is `action=ACTIVE,DEFAULT,FRIENDLY NAME`, the active shortcuts split by a
    /// tab written `\t`, `none` for none; a launcher's (`[services][x.desktop]`) holds the
    /// active ones alone.
    static func kdeHolder(of key: HotKey, in file: [UInt8]) -> String? {
        var group = ""
        for line in String(decoding: file, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("[") {
                group = String(line)
                continue
            }
            guard let equals = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            let name = line[..<equals]
            guard name != "_k_friendly_name" else { continue }
            let value = line[line.index(after: equals)...]
            let active = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let sequences = active.replacing("\\t", with: "\t").split(separator: "\t")
            if sequences.contains(where: { HotKey(qtSequence: $0.trimmed) == key }) {
                let friendly = value.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
                return "\(group) \(name)" + (friendly.count == 3 ? " (\(friendly[2]))" : "")
            }
        }
        return nil
    }

    /// A desktop entry's `Exec` for one program path: quoted as the Desktop Entry
    /// Specification asks when it holds a reserved character, `%` doubled.
    static func desktopExec(_ command: String) -> String {
        let escaped = command.replacing("%", with: "%%")
        let reserved = " \t\n\"'\\><~|&;$*?#()`"
        guard escaped.contains(where: { reserved.contains($0) }) else { return escaped }
        var quoted = "\""
        for character in escaped {
            if "\"`$\\".contains(character) { quoted += "\\" }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
