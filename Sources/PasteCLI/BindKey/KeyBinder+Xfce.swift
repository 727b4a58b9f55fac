/// Xfce: a custom command shortcut in xfconf's `xfce4-keyboard-shortcuts` channel, set with
/// `xfconf-query` (xfsettingsd applies it at once).
extension KeyBinder {
    static let xfceChannel = "xfce4-keyboard-shortcuts"
    /// Where the commands' and the window manager's shortcuts are (the ones in force).
    static let xfceCustomFolders = ["/commands/custom/", "/xfwm4/custom/"]

    mutating func bindXfce(_ key: HotKey, command: String) throws(BindKeyError) {
        _ = try first(of: ["xfconf-query"])
        // An empty channel makes xfconf-query fail: then nothing is taken.
        let listing = (try? run(["xfconf-query", "-c", Self.xfceChannel, "-l", "-v"])) ?? ""
        for line in listing.split(separator: "\n") {
            guard let folder = Self.xfceCustomFolders.first(where: { line.hasPrefix($0) }) else { continue }
            let rest = line.dropFirst(folder.count)
            let name = rest.prefix { $0 != " " }
            guard let held = HotKey(gtkAccelerator: name), held == key else { continue }
            let value = rest.dropFirst(name.count).trimmed
            throw .taken(key: key, desktop: desktop, holder: "\(folder)\(name) ('\(value)')")
        }
        let property = "/commands/custom/" + key.gtkAccelerator
        try change(
            ["xfconf-query", "-c", Self.xfceChannel, "-p", property, "-n", "-t", "string", "-s", Self.shellQuoted(command)],
            undo: ["xfconf-query", "-c", Self.xfceChannel, "-p", property, "-r"])
    }
}
