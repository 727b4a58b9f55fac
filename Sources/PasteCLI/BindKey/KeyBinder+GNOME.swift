/// GNOME: a custom keybinding of gnome-settings-daemon's media-keys plugin, set with
/// `gsettings` (whatever backend it writes to: dconf on a desktop).
extension KeyBinder {
    static let mediaKeys = "org.gnome.settings-daemon.plugins.media-keys"
    static let customList = "custom-keybindings"
    /// The relocatable schema of one custom keybinding (name, command, binding).
    static let customSchema = "org.gnome.settings-daemon.plugins.media-keys.custom-keybinding"
    /// paste's own entry: a path of its own, beside GNOME Settings' `customN`.
    static let gnomePath = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/paste/"
    /// The schemas whose keys hold GNOME's built-in shortcuts (those installed are read).
    static let gnomeBuiltInSchemas = [
        "org.gnome.desktop.wm.keybindings", "org.gnome.shell.keybindings", "org.gnome.mutter.keybindings",
        "org.gnome.mutter.wayland.keybindings", mediaKeys,
    ]

    mutating func bindGNOME(_ key: HotKey, command: String) throws(BindKeyError) {
        _ = try first(of: ["gsettings"])
        let listText = try run(["gsettings", "get", Self.mediaKeys, Self.customList]).trimmed
        guard let list = Self.gvariantStrings(listText) else {
            throw .unreadable(what: "\(Self.mediaKeys) \(Self.customList)", desktop: desktop)
        }
        // Taken: a custom keybinding, or a built-in one in any installed schema.
        for path in list {
            let binding = try run(["gsettings", "get", Self.customSchema + ":" + path, "binding"])
            if Self.gvariantStrings(binding.trimmed)?.contains(where: { HotKey(gtkAccelerator: $0) == key }) == true {
                let name = Self.gvariantStrings(try run(["gsettings", "get", Self.customSchema + ":" + path, "name"]))
                throw .taken(
                    key: key, desktop: desktop,
                    holder: "the custom shortcut '\(name?.first ?? path)' (\(path))")
            }
        }
        for schema in Self.gnomeBuiltInSchemas {
            // A schema that is not installed makes gsettings fail: nothing of it can be taken.
            guard let listing = try? run(["gsettings", "list-recursively", schema]) else { continue }
            for line in listing.split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 2)
                guard fields.count == 3, fields[1] != Substring(Self.customList),
                    let values = Self.gvariantStrings(fields[2])
                else { continue }
                if values.contains(where: { HotKey(gtkAccelerator: $0) == key }) {
                    throw .taken(key: key, desktop: desktop, holder: "\(fields[0]) \(fields[1])")
                }
            }
        }
        let entry = Self.customSchema + ":" + Self.gnomePath
        for (name, value) in [("name", "paste"), ("command", command), ("binding", key.gtkAccelerator)] {
            try change(
                ["gsettings", "set", entry, name, Self.gvariantString(value)],
                undo: ["gsettings", "reset", entry, name])
        }
        let newList = "[" + (list + [Self.gnomePath]).map(Self.gvariantString).joined(separator: ", ") + "]"
        // Set back as gsettings printed it, or reset when it held only the default (none).
        let undo =
            list.isEmpty
            ? ["gsettings", "reset", Self.mediaKeys, Self.customList]
            : ["gsettings", "set", Self.mediaKeys, Self.customList, String(listText)]
        try change(["gsettings", "set", Self.mediaKeys, Self.customList, newList], undo: undo)
    }

    /// A string in GVariant text (`'it\'s'`).
    static func gvariantString(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    /// The strings of a GVariant string or string array in text form (`'<Super>p'`,
    /// `['a', 'b']`, `@as []`), or nil for a value of another kind.
    static func gvariantStrings(_ text: some StringProtocol) -> [String]? {
        var rest = Substring(text.trimmed)
        if rest.hasPrefix("@as ") { rest = rest.dropFirst(4) }
        let isArray = rest.hasPrefix("[")
        if isArray {
            guard rest.hasSuffix("]") else { return nil }
            rest = rest.dropFirst().dropLast()
        }
        var strings: [String] = []
        var iterator = rest.makeIterator()
        var current: String?
        var quote: Character = "'"
        while let character = iterator.next() {
            if var text = current {
                if character == "\\" {
                    if let next = iterator.next() { text.append(next) }
                    current = text
                } else if character == quote {
                    strings.append(text)
                    current = nil
                } else {
                    text.append(character)
                    current = text
                }
            } else if character == "'" || character == "\"" {
                quote = character
                current = ""
            } else if character != "," && character != " " {
                return nil
            }
        }
        guard current == nil, isArray || strings.count == 1 else { return nil }
        return strings
    }
}
