import PasteCore

// MARK: - Where the secret value begins (issue 42, item 3: mask instead of refuse)
//
// A check reports the whole stretch it judged (`password = "…"`, `https://user:pw@`,
// `Authorization: Bearer …`); `--redact` replaces only the value in it, so the masked paste
// still says what was there (`password = "[redacted: password-assignment]"`). The value's start
// is found here, once a check has matched, from the check's own shape: nothing is added to the
// checks. A check this file does not know masks its whole match (never less than the value);
// and whatever a mask leaves is scanned again before anything is sent (`SecretMasking`).

extension SecretRule {
    /// Where the secret value of `found` (a match of `check` in `text`) begins: `found.start`
    /// for a token or a key block, past the name and separator for a key and its value.
    ///
    /// Always within `found.start...found.end`: when in doubt, `found.start`.
    static func valueStart(of check: Check, in text: Span<UInt8>, _ found: Found) -> Int {
        let start = found.start
        let end = found.end
        let value: Int?
        switch check {
        case .token, .jsonWebToken, .privateKeyBlock, .pgpBlock, .puttyKeyFile, .decoded, .csvPassword, .goDataSource,
            .xmlPassword,
            .cookieFile:
            value = nil
        case .namedPair, .terraformRandomPassword:
            // A quoted value field: inside its quotes; a bare YAML scalar: the whole match.
            value =
                end < text.count && SecretText.isQuote(text[end])
                ? quotedOrWordStart(text, before: end, from: start) : nil
        case .assignment:
            var keyEnd = start
            while keyEnd < end && SecretText.isKey(text[keyEnd]) { keyEnd += 1 }
            value = assignedOrDefault(text, key: (start, keyEnd))?.start
        case .netrc, .lineKeyword:
            value = wordStart(text, before: end, from: start)
        case .saslPassword:
            // `user:password`: the password after the user's colon.
            let word = wordStart(text, before: end, from: start)
            value = SecretText.find(text, ":", from: word, to: end).map { $0 + 1 }
        case .pgpass:
            // The fifth field: after the last colon that is not escaped.
            var index = end
            while index > start && !(text[index - 1] == SecretText.ascii(":") && (index < 2 || text[index - 2] != 0x5c))
            {
                index -= 1
            }
            value = index > start ? index : nil
        case .connectionString:
            value = SecretText.find(text, "=", from: start, to: end).map { equals in
                var index = equals + 1
                while index < end && (SecretText.isBlank(text[index]) || text[index] == SecretText.ascii("{")) {
                    index += 1
                }
                return index
            }
        case .urlCredentials:
            value = SecretText.find(text, "://", from: start, to: end).flatMap { scheme in
                SecretText.find(text, ":", from: scheme + 3, to: end).map { $0 + 1 }
            }
        case .azureSignature:
            value = SecretText.find(text, "=", from: start, to: end).map { $0 + 1 }
        case .basicAuthorization, .dockerAuth, .npmAuth, .vaultUnseal:
            value = base64Start(text, before: end, from: start)
        case .bearerAuthorization:
            var index = end
            while index > start && text[index - 1] == SecretText.ascii("=") { index -= 1 }
            while index > start && bearerCharacters.contains(text[index - 1]) && text[index - 1] != 0x3d { index -= 1 }
            value = index
        case .plistPair:
            value = SecretText.find(text, "<string>", from: start, to: end).map { $0 + 8 }
        case .commandLine, .proseKeyword, .proseLogin, .sqlPassword, .credentialCall, .headerDirective, .uciOption,
            .environmentDefault, .cookieCall:
            value =
                SecretText.find(text, "pass:", from: start, to: end).map { $0 + 5 }
                ?? quotedOrWordStart(text, before: end, from: start)
        case .cookie:
            if isCurlCookieOption(text, start) {
                // curl's `-b '…'`: after the quote that ends the trigger.
                var index = start
                while index < end && !SecretText.isQuote(text[index]) { index += 1 }
                value = index + 1
            } else {
                value = cookieValueStart(text, start, start)
            }
        }
        guard let value, value >= start, value < end else { return start }
        return value
    }

    /// The start of the blank-free word that ends at `end` (not before `start`).
    static func wordStart(_ text: Span<UInt8>, before end: Int, from start: Int) -> Int {
        var index = end
        while index > start && !SecretText.isSpace(text[index - 1]) { index -= 1 }
        return index
    }

    /// The start of a base64 run (its `=` padding too) that ends at `end`.
    static func base64Start(_ text: Span<UInt8>, before end: Int, from start: Int) -> Int {
        var index = end
        while index > start && text[index - 1] == SecretText.ascii("=") { index -= 1 }
        while index > start && SecretAlphabet.base64.contains(text[index - 1]) && text[index - 1] != 0x3d { index -= 1 }
        return index
    }

    /// The start of a command-line argument ending at `end`: inside its quotes when it is quoted
    /// (a password may hold blanks there), else the blank-free word.
    static func quotedOrWordStart(_ text: Span<UInt8>, before end: Int, from start: Int) -> Int {
        let quote: UInt8? =
            end < text.count && SecretText.isQuote(text[end])
            ? text[end] : (end - 1 > start && SecretText.isQuote(text[end - 1]) ? text[end - 1] : nil)
        guard let quote else { return wordStart(text, before: end, from: start) }
        var index = text[end - 1] == quote ? end - 1 : end
        // (A quote escaped inside the value, `\"`, does not open it.)
        while index > start && !(text[index - 1] == quote && (index < 2 || text[index - 2] != 0x5c)) { index -= 1 }
        return index > start ? index : start
    }
}
