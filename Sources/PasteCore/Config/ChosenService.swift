/// A service chosen at paste's question before the first public upload, written into the config
/// as the person would write it: `service = NAME` under `[paste]`, with a comment saying where
/// it came from, so the answer can be read and changed like any other setting.
public enum ChosenService {
    /// The comment above the line, saying where it came from and what else may go there.
    static let comment =
        "# chosen when paste asked before its first upload; any name from 'paste --list-services' works"

    /// `text` (a config file's content, empty for none) with `service = name` chosen: the line
    /// goes first under the first `[paste]` header, or a `[paste]` section is put at the top.
    ///
    /// The caller asks only when nothing chose a service, so no `service =` line is replaced.
    public static func choosing(_ name: String, in text: String) -> String {
        let entry = "    \(comment)\n    service = \(name)\n"
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let header = lines.firstIndex(where: { isPasteHeader($0) }) {
            lines.insert(String(entry.dropLast()), at: header + 1)
            return lines.joined(separator: "\n")
        }
        let rest = text.isEmpty ? "" : "\n" + text
        return "[paste]\n" + entry + rest
    }

    /// Whether `line` opens the `[paste]` section (section names are case-insensitive; a
    /// comment may follow).
    static func isPasteHeader(_ line: String) -> Bool {
        var trimmed = Substring(line).drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("[") else { return false }
        trimmed = trimmed.dropFirst()
        guard let close = trimmed.firstIndex(of: "]") else { return false }
        let name = trimmed[..<close].filter { $0 != " " && $0 != "\t" }
        let after = trimmed[trimmed.index(after: close)...].drop { $0 == " " || $0 == "\t" }
        return name.lowercased() == "paste" && (after.isEmpty || after.hasPrefix("#") || after.hasPrefix(";"))
    }
}
