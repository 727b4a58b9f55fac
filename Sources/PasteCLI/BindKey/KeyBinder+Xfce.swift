/// Xfce: a custom command shortcut in xfconf's `xfce4-keyboard-shortcuts` channel, set with
/// `xfconf-query` (xfsettingsd applies it at once).
///
/// The shortcuts in force are `/commands/custom` and `/xfwm4/custom` once their `override`
/// is true; before that (a session xfsettingsd never ran in) the `default` ones are, and
/// xfsettingsd copies them to `custom` on its first start, replacing whatever `custom` held.
/// So paste makes that copy itself first when `override` is not set, and `--unbind-key`
/// resets the whole `/commands/custom` it made.
extension KeyBinder {
    static let xfceChannel = "xfce4-keyboard-shortcuts"

    mutating func bindXfce(_ key: HotKey, command: String) throws(BindKeyError) {
        _ = try first(of: ["xfconf-query"])
        // An empty channel makes xfconf-query fail: then nothing is taken.
        let listing = (try? run(["xfconf-query", "-c", Self.xfceChannel, "-l", "-v"])) ?? ""
        var properties: [(name: Substring, value: Substring)] = []
        for line in listing.split(separator: "\n") {
            let name = line.prefix { $0 != " " }
            properties.append((name, line.dropFirst(name.count).trimmed))
        }
        func overrides(_ provider: String) -> Bool {
            properties.contains { $0.name == "/\(provider)/custom/override" && $0.value == "true" }
        }
        let commandsOverride = overrides("commands")
        for provider in ["commands", "xfwm4"] {
            let folder = "/\(provider)/" + (overrides(provider) ? "custom/" : "default/")
            for (name, value) in properties where name.hasPrefix(folder) {
                if let held = HotKey(gtkAccelerator: name.dropFirst(folder.count)), held == key {
                    throw .taken(key: key, desktop: desktop, holder: "\(name) ('\(value)')")
                }
            }
        }
        let property = "/commands/custom/" + key.gtkAccelerator
        if commandsOverride {
            try change(
                [
                    "xfconf-query", "-c", Self.xfceChannel, "-p", property, "-n", "-t", "string", "-s",
                    Self.shellQuoted(command),
                ],
                undo: ["xfconf-query", "-c", Self.xfceChannel, "-p", property, "-r"])
            return
        }
        // The copy xfsettingsd would make, then ours beside it.
        steps.append(.run(["xfconf-query", "-c", Self.xfceChannel, "-p", "/commands/custom", "-r", "-R"]))
        for (name, value) in properties where name.hasPrefix("/commands/default/") {
            let isFlag = name.hasSuffix("/startup-notify")
            try run(
                [
                    "xfconf-query", "-c", Self.xfceChannel, "-p", "/commands/custom/" + name.dropFirst(18), "-n", "-t",
                    isFlag ? "bool" : "string", "-s", String(value),
                ])
        }
        said.append("wrote /commands/custom: a copy of /commands/default (as xfsettingsd makes on its first start)")
        try change(
            [
                "xfconf-query", "-c", Self.xfceChannel, "-p", property, "-n", "-t", "string", "-s",
                Self.shellQuoted(command),
            ],
            undo: nil)
        try change(
            [
                "xfconf-query", "-c", Self.xfceChannel, "-p", "/commands/custom/override", "-n", "-t", "bool", "-s",
                "true",
            ],
            undo: nil)
    }
}
