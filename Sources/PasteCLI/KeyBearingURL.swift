import PasteCore

/// A paste URL that carries its own key (PrivateBin's fragment holds the decryption key): it
/// goes onto the clipboard with the password manager's mark (`x-kde-passwordManagerHint` =
/// `secret`), so clipboard managers keep it out of their history, and windows, notifications
/// and stderr show it shortened; stdout, `--json` and the clipboard get it whole (issue 26,
/// item 2).
enum KeyBearingURL {
    /// Whether the URL of a paste made on `service` (private or not) carries its key: what the
    /// service's profile declares (`ServiceProfile.resultsCarryKey(isPrivate:)`: 0x0's `-p`
    /// URLs do, its public ones do not).
    static func isKeyBearing(service: ServiceProfile, isPrivate: Bool) -> Bool {
        service.resultsCarryKey(isPrivate: isPrivate)
    }

    /// Whether the URL a job gives carries its key: its service's results do (made as private
    /// as the job's text is: the run's `-p`, or the outbox entry's), or its request keeps a key
    /// for the link (PrivateBin's `linkFragment`).
    static func isKeyBearing(_ job: PasteJob) -> Bool {
        let isPrivate =
            switch job.source {
            case .input(let fresh): fresh.metadata.isPrivate
            case .outbox: job.claim?.entry.metadata.isPrivate ?? false
            }
        return job.request.linkFragment != nil || isKeyBearing(service: job.service, isPrivate: isPrivate)
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

    /// `line` with every http(s) URL in it shortened (`shortened`): a `-v` trace line of a run
    /// whose service gives key-bearing URLs (`< Location: …`, libcurl's "Issue another request
    /// to this URL"), since stderr never shows such a URL whole. A URL ends at white space or
    /// at a quote or angle bracket.
    /// A `GET` or `HEAD` request line (`> GET /s/KEY/id HTTP/1.1`, the redirect followed to
    /// the paste itself) keeps only "/…" of its target; the `POST` to the service stays whole,
    /// unless `everyTarget` (a deletion, which posts to the paste's own URL).
    static func shortenedURLs(in line: String, everyTarget: Bool = false) -> String {
        let methods = everyTarget ? ["> GET ", "> HEAD ", "> POST ", "> PUT ", "> DELETE "] : ["> GET ", "> HEAD "]
        for method in methods where line.hasPrefix(method) {
            let target = line.dropFirst(method.count).prefix { $0 != " " }
            return method + (target.hasPrefix("/") ? "/…" : shortened(String(target)))
                + line.dropFirst(method.count + target.count)
        }
        guard line.contains("http://") || line.contains("https://") else { return line }
        var shown = ""
        var rest = Substring(line)
        while let start = [rest.firstRange(of: "http://"), rest.firstRange(of: "https://")].compactMap({ $0 })
            .min(by: { $0.lowerBound < $1.lowerBound })
        {
            shown += rest[..<start.lowerBound]
            let url = rest[start.lowerBound...].prefix { !$0.isWhitespace && !"'\"<>".contains($0) }
            shown += shortened(String(url))
            rest = rest[url.endIndex...]
        }
        return shown + rest
    }
}
