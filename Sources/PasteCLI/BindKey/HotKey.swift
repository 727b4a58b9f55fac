/// A key combination as `--bind-key` takes it (`Super+Shift+V`, `Ctrl+Alt+P`), and as each
/// desktop spells it: GTK accelerators for GNOME and Xfce (`<Super><Shift>v`), Qt key sequences
/// for KDE (`Meta+Shift+V`), sway/i3 `bindsym` (`Mod4+Shift+v`), Hyprland (`SUPER SHIFT`, `V`).
///
/// Two spellings of one combination compare equal: the modifiers are a set and the key is
/// compared without case, so a taken key is found however its holder wrote it.
struct HotKey: Sendable, Hashable, CustomStringConvertible {
    /// A modifier, in the order the common form lists them.
    enum Modifier: Int, Sendable, Hashable, CaseIterable, Comparable {
        case `super`, control, alt, shift

        static func < (left: Modifier, right: Modifier) -> Bool { left.rawValue < right.rawValue }

        /// The modifier a word names, in any desktop's spelling (`Meta`, `Mod4`, `<Primary>`'s
        /// `Primary`, `Ctrl`, `Mod1`...), or nil.
        init?(word: some StringProtocol) {
            switch word.lowercased() {
            case "super", "meta", "mod4", "logo", "win", "windows", "hyper": self = .super
            case "ctrl", "control", "primary", "ctl": self = .control
            case "alt", "mod1": self = .alt
            case "shift": self = .shift
            default: return nil
            }
        }
    }

    /// The modifiers held.
    var modifiers: Set<Modifier>
    /// The key: a letter or digit in lower case (`v`), or a key name as X keysyms spell it
    /// (`F5`, `Print`, `space`).
    var key: String

    /// The key the common form names, the right case for keysyms: letters lower case, named
    /// keys as X spells them.
    static let namedKeys = [
        "print", "space", "insert", "delete", "home", "end", "pause", "return", "tab", "escape", "backspace",
        "page_up", "page_down", "up", "down", "left", "right", "menu",
    ]

    /// The X keysym spelling of a named key (`Print`, `space`, `Page_Up`).
    static func keysymName(_ lower: String) -> String {
        switch lower {
        case "space": "space"
        case "page_up": "Page_Up"
        case "page_down": "Page_Down"
        case "backspace": "BackSpace"
        default: lower.prefix(1).uppercased() + lower.dropFirst()
        }
    }

    /// Reads the common form: modifiers and one key joined by `+` (`Super+Shift+V`); `-` joins
    /// too. At least one of Super, Ctrl and Alt, so a plain letter is never taken from typing.
    init?(_ text: String) {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "+" || $0 == "-" }).map(
            String.init)
        guard parts.count >= 2, let last = parts.last, let key = Self.keyName(last) else { return nil }
        var modifiers: Set<Modifier> = []
        for word in parts.dropLast() {
            guard let modifier = Modifier(word: word), !modifiers.contains(modifier) else { return nil }
            modifiers.insert(modifier)
        }
        guard !modifiers.subtracting([.shift]).isEmpty else { return nil }
        self.init(modifiers: modifiers, key: key)
    }

    init(modifiers: Set<Modifier>, key: String) {
        self.modifiers = modifiers
        self.key = key
    }

    /// A key's name as stored: a letter or digit lower case, `F1`...`F24`, or a named key in
    /// X's spelling; nil for anything else.
    static func keyName(_ word: some StringProtocol) -> String? {
        let lower = word.lowercased()
        if lower.count == 1, let character = lower.first, character.isASCII,
            character.isLetter || character.isNumber
        {
            return lower
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...24).contains(number) {
            return "F\(number)"
        }
        if namedKeys.contains(lower) { return keysymName(lower) }
        if lower == "esc" { return "Escape" }
        if lower == "pgup" || lower == "prior" { return "Page_Up" }
        if lower == "pgdown" || lower == "next" { return "Page_Down" }
        if lower == "del" { return "Delete" }
        if lower == "enter" { return "Return" }
        return nil
    }

    /// The key as this desktop's key name, compared without case.
    private var comparableKey: String { key.lowercased() }

    static func == (left: HotKey, right: HotKey) -> Bool {
        left.modifiers == right.modifiers && left.comparableKey == right.comparableKey
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(modifiers)
        hasher.combine(comparableKey)
    }

    private var sortedModifiers: [Modifier] { modifiers.sorted() }

    /// The common form: `Super+Shift+V`.
    var description: String {
        let names = sortedModifiers.map { modifier -> String in
            switch modifier {
            case .super: "Super"
            case .control: "Ctrl"
            case .alt: "Alt"
            case .shift: "Shift"
            }
        }
        return (names + [key.count == 1 ? key.uppercased() : key]).joined(separator: "+")
    }

    // MARK: - GTK accelerators (GNOME, Xfce)

    /// `<Super><Shift>v`, as GNOME's and Xfce's settings hold it (`<Primary>` for Ctrl, as
    /// both desktops write it).
    var gtkAccelerator: String {
        sortedModifiers.map { modifier -> String in
            switch modifier {
            case .super: "<Super>"
            case .control: "<Primary>"
            case .alt: "<Alt>"
            case .shift: "<Shift>"
            }
        }.joined() + key
    }

    /// Reads a GTK accelerator (`<Control><Alt>t`, `<Super>p`); nil for one with a modifier
    /// or key this type does not know (it then matches no key of ours).
    init?(gtkAccelerator text: some StringProtocol) {
        var rest = Substring(text)
        var modifiers: Set<Modifier> = []
        while rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            guard let modifier = Modifier(word: rest[rest.index(after: rest.startIndex)..<close]) else { return nil }
            modifiers.insert(modifier)
            rest = rest[rest.index(after: close)...]
        }
        guard let key = Self.keyName(rest) else { return nil }
        self.init(modifiers: modifiers, key: key)
    }

    // MARK: - Qt key sequences (KDE)

    /// `Meta+Shift+V`, Qt's order (Meta, Ctrl, Alt, Shift) and spelling.
    var qtSequence: String {
        let names = sortedModifiers.map { modifier -> String in
            switch modifier {
            case .super: "Meta"
            case .control: "Ctrl"
            case .alt: "Alt"
            case .shift: "Shift"
            }
        }
        return (names + [key.count == 1 ? key.uppercased() : key.replacing("_", with: "")]).joined(separator: "+")
    }

    /// Reads one Qt key sequence (`Meta+Shift+V`, `Ctrl+Alt+T`).
    init?(qtSequence text: some StringProtocol) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard let last = parts.last else { return nil }
        var modifiers: Set<Modifier> = []
        for word in parts.dropLast() {
            guard let modifier = Modifier(word: word) else { return nil }
            modifiers.insert(modifier)
        }
        let word = last == "PgUp" ? "page_up" : last == "PgDown" ? "page_down" : String(last)
        guard let key = Self.keyName(word) else { return nil }
        self.init(modifiers: modifiers, key: key)
    }

    // MARK: - sway and i3

    /// `Mod4+Shift+v`: sway's and i3's `bindsym` key, no variable assumed.
    var bindsymKey: String {
        (sortedModifiers.map { modifier -> String in
            switch modifier {
            case .super: "Mod4"
            case .control: "Ctrl"
            case .alt: "Mod1"
            case .shift: "Shift"
            }
        } + [key]).joined(separator: "+")
    }

    /// Reads a `bindsym` key with its variables already replaced (`Mod4+Shift+v`).
    init?(bindsym text: some StringProtocol) {
        let parts = text.split(separator: "+")
        guard let last = parts.last else { return nil }
        var modifiers: Set<Modifier> = []
        for word in parts.dropLast() {
            guard let modifier = Modifier(word: word) else { return nil }
            modifiers.insert(modifier)
        }
        guard let key = Self.keyName(last) else { return nil }
        self.init(modifiers: modifiers, key: key)
    }

    // MARK: - Hyprland

    /// Hyprland's modifier field (`SUPER SHIFT`).
    var hyprlandModifiers: String {
        sortedModifiers.map { modifier -> String in
            switch modifier {
            case .super: "SUPER"
            case .control: "CTRL"
            case .alt: "ALT"
            case .shift: "SHIFT"
            }
        }.joined(separator: " ")
    }

    /// Hyprland's key field (`V`).
    var hyprlandKey: String { key.count == 1 ? key.uppercased() : key }

    /// Reads Hyprland's two fields (`SUPER SHIFT`, `V`; `$mainMod` already replaced).
    init?(hyprlandModifiers: some StringProtocol, key: some StringProtocol) {
        var modifiers: Set<Modifier> = []
        for word in hyprlandModifiers.split(whereSeparator: { $0 == " " || $0 == "_" || $0 == "&" }) {
            guard let modifier = Modifier(word: word) else { return nil }
            modifiers.insert(modifier)
        }
        guard let name = Self.keyName(key.trimmed) else { return nil }
        self.init(modifiers: modifiers, key: name)
    }
}

extension StringProtocol {
    /// The text without spaces, tabs and line breaks at either end.
    var trimmed: Substring {
        let text = Substring(self)
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isBlank($0) }) else { return text[text.endIndex...] }
        let last = text.lastIndex(where: { !isBlank($0) })!
        return text[first...last]
    }
}
