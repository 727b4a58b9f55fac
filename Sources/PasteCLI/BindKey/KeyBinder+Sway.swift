import SystemInterop

/// sway and i3: a `bindsym` line in an include file of paste's own
/// (`$XDG_CONFIG_HOME/sway/paste-bind-key.conf`, or i3's), an `include` line for it at the
/// end of the person's config (made from the system's when there is none), then
/// `swaymsg reload` / `i3-msg reload`.
extension KeyBinder {
    static let swayInclude = "paste-bind-key.conf"

    /// The name of the compositor's folder in `$XDG_CONFIG_HOME` and its message tool.
    private var swayNames: (folder: String, message: String, systemConfigs: [String]) {
        desktop == .i3
            ? ("i3", "i3-msg", ["/etc/xdg/i3/config", "/etc/i3/config"])
            : ("sway", "swaymsg", ["/etc/sway/config"])
    }

    /// The config the compositor reads, in its search order (sway(5), i3's user guide), and
    /// whether it exists; the last place looked when none does.
    private func swayUserConfig() -> (path: String, exists: Bool) {
        let names = swayNames
        let home = context.home
        let candidates =
            desktop == .i3
            ? [context.configHome + "/i3/config", home + "/.i3/config"]
            : [
                home + "/.sway/config", context.configHome + "/sway/config", home + "/.i3/config",
                context.configHome + "/i3/config",
            ]
        if let found = candidates.first(where: { (try? FileSystem.status(ofPath: $0))?.kind == .regular }) {
            return (found, true)
        }
        return (context.configHome + "/\(names.folder)/config", false)
    }

    mutating func bindSway(_ key: HotKey, command: String) throws(BindKeyError) {
        let names = swayNames
        let (configPath, exists) = swayUserConfig()
        var config: [UInt8]
        if exists {
            config = try read(configPath) ?? []
        } else {
            // No config of the person's: the system's is what runs; it becomes theirs.
            guard let system = names.systemConfigs.first(where: { FileSystem.isAccessible($0, for: .read) }),
                let bytes = try read(system)
            else {
                throw .unreadable(what: "a config (\(configPath) or the system's)", desktop: desktop)
            }
            config = bytes
        }
        let includePath = context.configHome + "/\(names.folder)/" + Self.swayInclude
        var visited: Set<String> = []
        if let holder = holderInSwayConfig(key, text: config, path: configPath, variables: [:], visited: &visited) {
            throw .taken(key: key, desktop: desktop, holder: holder)
        }
        let includeLine = "include " + Self.shellQuoted(includePath)
        let line = "bindsym \(key.bindsymKey) exec \(Self.shellQuoted(command))"
        try write(
            Array("# Written by 'paste --bind-key'; 'paste --unbind-key' removes it.\n\(line)\n".utf8), to: includePath,
            summary: line)
        let hasInclude = String(decoding: config, as: UTF8.self).split(separator: "\n").contains {
            $0.trimmed == Substring(includeLine)
        }
        if !hasInclude || !exists {
            try write(
                Self.appending(includeLine, to: config), to: configPath,
                summary: exists ? includeLine : "the system's config, and \(includeLine)")
        }
        // A compositor of this session reads it now; otherwise the next start does.
        let reload = desktop == .i3 ? ["i3-msg", "reload"] : ["swaymsg", "reload"]
        if has(names.message), (try? run(reload)) != nil {
            said.append("ran " + Self.shown(reload))
        } else {
            said.append("\(names.message) reload did not run: \(desktop.name) reads it when it starts")
        }
        reloadOnUndo(reload)
    }

    /// Who holds `key` in a sway/i3 config and the files it includes (`bindsym KEY COMMAND`,
    /// outside `mode` blocks, `$variables` replaced), or nil.
    private func holderInSwayConfig(
        _ key: HotKey, text: [UInt8], path: String, variables: [String: String], visited: inout Set<String>
    ) -> String? {
        visited.insert(path)
        var variables = variables
        var modeDepth = 0
        var inBindBlock = false
        func expand(_ word: some StringProtocol) -> String {
            var result = String(word)
            for (name, value) in variables.sorted(by: { $0.key.count > $1.key.count }) {
                result = result.replacing(name, with: value)
            }
            return result
        }
        for raw in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let line = raw.trimmed
            if line.isEmpty || line.hasPrefix("#") { continue }
            var words = line.split(separator: " ", omittingEmptySubsequences: true)
            if inBindBlock {
                if line == "}" {
                    inBindBlock = false
                } else if modeDepth == 0, let first = words.first, HotKey(bindsym: expand(first)) == key {
                    return "\(path): \(line)"
                }
                continue
            }
            if line == "}" {
                modeDepth = max(0, modeDepth - 1)
                continue
            }
            switch words.first {
            case "set" where words.count >= 3:
                variables[String(words[1])] = words.dropFirst(2).joined(separator: " ")
            case "mode" where line.hasSuffix("{"):
                modeDepth += 1
            case "bindsym":
                words.removeFirst()
                while let flag = words.first, flag.hasPrefix("--") { words.removeFirst() }
                if words.first == "{" {
                    inBindBlock = true
                } else if modeDepth == 0, let first = words.first, HotKey(bindsym: expand(first)) == key {
                    return "\(path): \(line)"
                }
            case "include" where words.count >= 2:
                for included in includedFiles(expand(words.dropFirst().joined(separator: " ")), from: path)
                where !visited.contains(included) {
                    guard let bytes = try? read(included) else { continue }
                    if let holder = holderInSwayConfig(
                        key, text: bytes, path: included, variables: variables, visited: &visited)
                    {
                        return holder
                    }
                }
            default: continue
            }
        }
        return nil
    }

    /// The files an `include` names: `~` and `$HOME`/`$XDG_CONFIG_HOME` expanded, quotes
    /// taken off, relative to the including file's folder, a `*` in the last part matched.
    private func includedFiles(_ pattern: String, from path: String) -> [String] {
        var name = pattern
        if (name.hasPrefix("'") && name.hasSuffix("'")) || (name.hasPrefix("\"") && name.hasSuffix("\"")) {
            name = String(name.dropFirst().dropLast())
        }
        if name.hasPrefix("~/") { name = context.home + name.dropFirst() }
        name = name.replacing("$XDG_CONFIG_HOME", with: context.configHome).replacing("$HOME", with: context.home)
        if !name.hasPrefix("/") {
            name = String(path.prefix(upTo: path.lastIndex(of: "/") ?? path.startIndex)) + "/" + name
        }
        guard name.contains("*") || name.contains("?") else { return [name] }
        let folder = String(name.prefix(upTo: name.lastIndex(of: "/")!))
        let glob = name[name.index(after: name.lastIndex(of: "/")!)...]
        let parts = glob.split(separator: "*", omittingEmptySubsequences: false)
        guard !folder.contains("*"), let entries = try? FileSystem.entries(ofDirectory: folder) else { return [] }
        return entries.sorted().filter { entry in
            guard parts.count == 2 else { return entry == glob }
            return entry.hasPrefix(parts[0]) && entry.hasSuffix(parts[1])
                && entry.count >= parts[0].count + parts[1].count
        }.map { folder + "/" + $0 }
    }

    // MARK: - Hyprland

    /// Hyprland: a `bind` line at the end of `$XDG_CONFIG_HOME/hypr/hyprland.conf` (Hyprland
    /// reads its config again when the file changes; `hyprctl reload` too).
    mutating func bindHyprland(_ key: HotKey, command: String) throws(BindKeyError) {
        let path = context.configHome + "/hypr/hyprland.conf"
        let config = try read(path) ?? []
        var variables: [String: String] = [:]
        for raw in String(decoding: config, as: UTF8.self).split(separator: "\n") {
            let line = raw.trimmed
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmed
            var value = String(line[line.index(after: equals)...].trimmed)
            if name.hasPrefix("$") {
                variables[String(name)] = value
                continue
            }
            guard name.hasPrefix("bind") else { continue }
            for (variable, replacement) in variables { value = value.replacing(variable, with: replacement) }
            let fields = value.split(separator: ",", omittingEmptySubsequences: false)
            if fields.count >= 2, HotKey(hyprlandModifiers: fields[0], key: fields[1]) == key {
                throw .taken(key: key, desktop: desktop, holder: "\(path): \(line)")
            }
        }
        let line = "bind = \(key.hyprlandModifiers), \(key.hyprlandKey), exec, \(Self.shellQuoted(command))"
        try write(Self.appending(line, to: config), to: path, summary: line)
        if has("hyprctl"), (try? run(["hyprctl", "reload"])) != nil { said.append("ran hyprctl reload") }
        reloadOnUndo(["hyprctl", "reload"])
    }
}
