import PasteCore

/// A paste URL that carries its own key (PrivateBin's fragment holds the decryption key): it
/// goes onto the clipboard with the password manager's mark (`x-kde-passwordManagerHint` =
/// `secret`), so clipboard managers keep it out of their history, and windows, notifications
/// and stderr show it shortened; stdout, `--json` and the clipboard get it whole (issue 26,
/// item 2).
enum KeyBearingURL {
    /// Whether results of `service` carry their key: what the service's profile declares
    /// (`ServiceProfile.resultsCarryKey`).
    static func isKeyBearing(service: ServiceProfile) -> Bool {
        service.resultsCarryKey
    }

    /// The URL as a window shows it: scheme, host and the paste's id, then "…", with the key
    /// (the fragment) left out. A URL with no fragment keeps its scheme and host only.
    static func shortened(_ url: String) -> String {
        if let hash = url.firstIndex(of: "#") { return String(url[..<hash]) + "…" }
        guard let scheme = url.firstRange(of: "://") else { return "…" }
        let rest = url[scheme.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != "?" }
        return String(url[..<scheme.upperBound]) + host + "/…"
    }
}
