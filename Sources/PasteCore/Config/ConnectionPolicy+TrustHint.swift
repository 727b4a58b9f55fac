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
            let unset = "no ca-file, CURL_CA_BUNDLE, SSL_CERT_FILE or SSL_CERT_DIR is set"
            guard case .system(let store?) = trust else {
                return "trusted: nothing: no system CA bundle or hashed certificate folder was found "
                    + "in the places paste(1) lists (\(unset)); install the system's CA certificates "
                    + "(ca-certificates), or trust \(whose) CA with 'ca-file = /path/to/ca.pem' in \(place) "
                    + "(paste-config(5)) or with SSL_CERT_FILE"
            }
            let (what, why) = systemStore(store)
            return "trusted: \(what) (\(why); \(unset)); "
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

    /// The system's store in words, and why it was the one: (`the system bundle
    /// '/etc/ssl/cert.pem'`, `Alpine layout`).
    static func systemStore(_ store: SystemTrustStore) -> (what: String, why: String) {
        switch store.kind {
        case .bundle:
            let why = store.origin == SystemTrustStore.nixVariable ? "from \(store.origin)" : store.origin
            return ("the system bundle '\(shownPath: store.path)'", why)
        case .folder:
            return ("the system's hashed certificate folder '\(shownPath: store.path)'", "no bundle found")
        }
    }

    /// Which CAs verify servers and why, for `-v`'s `trust:` line: the bundle or folder used
    /// and the key, variable or layout that chose it.
    public var trustSummary: String {
        let named = [trust.file, trust.folder].compactMap { $0.map { "\(shownPath: $0)" } }
        let paths = named.joined(separator: " and ")
        switch trustSource {
        case .system:
            guard case .system(let store?) = trust else {
                return "nothing (no system CA bundle or hashed certificate folder found; "
                    + "no ca-file, CURL_CA_BUNDLE, SSL_CERT_FILE or SSL_CERT_DIR is set)"
            }
            let why = Self.systemStore(store).why
            return
                "\(paths) (\(store.kind == .bundle ? "the system bundle" : "the system's hashed certificate folder"), \(why))"
        case .config(_, let path, let line):
            let keys = [trust.file.map { _ in "ca-file" }, trust.folder.map { _ in "ca-path" }].compactMap { $0 }
            return "\(paths) (\(keys.joined(separator: " and ")), \(shownPath: path):\(line))"
        case .environment(let used, let overridden):
            let override = overridden.map { ", which overrides \($0)" } ?? ""
            return "\(paths) (\(used.joined(separator: " and "))\(override))"
        }
    }
}
