extension ConnectionPolicy {
    /// What a certificate that was not trusted is told: which CAs were trusted, from where
    /// (`ca-file`/`ca-path`, `CURL_CA_BUNDLE`, `SSL_CERT_FILE`, `SSL_CERT_DIR`, the system
    /// store), and what will work. A hint naming `SSL_CERT_FILE` while `CURL_CA_BUNDLE`
    /// overrides it would fail again, so the source in force is named, never a guess.
    ///
    /// - Parameters:
    ///   - trust: the CAs trusted.
    ///   - source: where they came from.
    ///   - isProxy: whether the certificate was an https:// proxy's (its CA goes in `[paste]`).
    public static func trustHint(_ trust: Trust, source: TrustSource, isProxy: Bool) -> String {
        let whose = isProxy ? "the proxy's" : "the server's"
        let place = isProxy ? "[paste]" : "the service's section"
        let file: String?
        let folder: String?
        if case .custom(let customFile, let customFolder) = trust {
            (file, folder) = (customFile, customFolder)
        } else {
            (file, folder) = (nil, nil)
        }
        switch source {
        case .system:
            return "trusted: the system store (no ca-file, CURL_CA_BUNDLE, SSL_CERT_FILE or SSL_CERT_DIR is set); "
                + "if \(whose) certificate comes from a private CA, trust it with 'ca-file = /path/to/ca.pem' "
                + "in \(place) (paste-config(5)) or with SSL_CERT_FILE"
        case .config(let key, let path, let line):
            let value = (key == "ca-file" ? file : folder) ?? ""
            return "trusted: only \(key) '\(shownPath: value)' (\(shownPath: path):\(line)), not the system store; "
                + "add \(whose) CA to it, or point \(key) at the one that holds it"
        case .environment(let used, let overridden):
            let named = used.map { name in
                "\(name) '\(shownPath: (name == "SSL_CERT_DIR" ? folder : file) ?? "")'"
            }.joined(separator: " and ")
            let override = overridden.map { ", which overrides \($0)" } ?? ""
            return "trusted: only \(named)\(override), not the system store; add \(whose) CA there, "
                + "or set 'ca-file = /path/to/ca.pem' in \(place) (paste-config(5)), which replaces it"
        }
    }
}
