/// KDE Plasma: a launcher (`paste-bind-key.desktop` in `$XDG_DATA_HOME/applications`) and its
/// global shortcut in `kglobalshortcutsrc`, written with `kwriteconfig5`/`kwriteconfig6`:
/// Plasma 6 keeps a launcher's shortcut in the group `[services][NAME.desktop]` (`_launch`),
/// Plasma 5 in `[NAME.desktop]` (`_launch=KEY,none,NAME` beside `_k_friendly_name`).
/// kglobalaccel reads the file when it starts: the next login (or its restart) takes it up.
extension KeyBinder {
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
        said.append(
            "wrote \(shortcuts): "
                + (isPlasma6 ? "[services][\(Self.kdeLauncher)]" : "[\(Self.kdeLauncher)]")
                + " _launch=\(entries.last!.1) (written by \(tool); Plasma reads it at the next login)")
        steps.append(.file(path: shortcuts, before: before, after: after))
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
