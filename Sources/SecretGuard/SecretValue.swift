import PasteCore

/// Whether a value assigned to a secret-sounding key is a real secret rather than code, a
/// name or a placeholder. The heuristics that keep the guard's false positives rare
/// (`scripts/secret-guard-fp`).
enum SecretValue {
    /// The longest value an assignment is checked for (longer ones are blobs, not passwords).
    static let maximumLength = 256
    /// The shortest literal taken for a password or secret: shorter ones are flags and numbers.
    static let minimumLength = 6
    /// The longest value read as one token (an AWS session token, a 1Password service-account
    /// token, a JWT: 600 bytes and more), when it has no blank and only token characters.
    static let maximumTokenLength = 4096
    /// Token characters: base64, base64url and the punctuation of JWTs and macaroons.
    static let tokenCharacters = SecretAlphabet("A-Za-z0-9+/=_.~%:-")

    /// Whether an assigned value looks like a real secret.
    ///
    /// Quoted: at least `minimumLength` characters, no spaces or template syntax, and either
    /// two character classes (lower, upper, digit, symbol) or twelve characters; names such as
    /// `api_key_header` or `SECRET_KEY` are not secrets. Unquoted (config files, `.env`): the
    /// same, but must hold a digit or a symbol and nothing that makes it an expression (calls,
    /// indexing, `$VAR`).
    static func isPlausible(_ value: [UInt8], isQuoted: Bool, allowsBrackets: Bool = false) -> Bool {
        // PERF(guard-text source code): the shape first, the placeholder test (the costliest,
        // and the same verdict whichever comes first) only for a value that has it.
        hasPlausibleShape(value, isQuoted: isQuoted, allowsBrackets: allowsBrackets) && !isPlaceholder(value)
    }

    /// `isPlausible` but for the placeholder test.
    /// - Parameter allowsBrackets: the value is a string literal between its own quotes (not a
    ///   field judged as if quoted): brackets and commas may be a password's.
    static func hasPlausibleShape(_ value: [UInt8], isQuoted: Bool, allowsBrackets: Bool = false) -> Bool {
        guard value.count >= minimumLength else { return false }
        // Longer than a password: one token (an AWS session token), or a blob that is none.
        if value.count > maximumLength {
            return value.count <= maximumTokenLength && value.allSatisfy(tokenCharacters.contains)
                && hasRandomShape(value)
        }
        var hasLower = false
        var hasUpper = false
        var hasDigit = false
        var hasSymbol = false
        var hasBracket = false
        for byte in value {
            if SecretText.isLower(byte) {
                hasLower = true
            } else if SecretText.isUpper(byte) {
                hasUpper = true
            } else if SecretText.isDigit(byte) {
                hasDigit = true
            } else if byte == 0x5f || byte == 0x2d || byte == 0x2e {
                continue
            } else if allowsBrackets && "(){}[]<>,".utf8.contains(byte) {
                // Brackets and commas in a quoted literal: Django's generated keys draw from
                // `a-z0-9!@#$%^&*(-_=+)`, password managers' from all of ASCII's symbols. Not
                // around a name (`"hash(pw)"`, `"{password}"`, `"[REDACTED]"`: code and
                // templates kept in a string), and random-looking or of three classes.
                hasBracket = true
                hasSymbol = true
            } else if SecretText.isSpace(byte) || byte < 0x20 || "(){}[]<>\\\"'`,".utf8.contains(byte) {
                return false
            } else {
                hasSymbol = true
            }
        }
        let classes = [hasLower, hasUpper, hasDigit, hasSymbol].filter { $0 }.count
        if hasBracket
            && (hasTemplateSlot(value) || SecretText.contains(value, "://")
                || !(classes >= 3 && value.count >= 10 || hasRandomShape(value)))
        {
            return false
        }
        // snake_case, kebab-case, SCREAMING_CASE and dotted names: identifiers, not secrets.
        if !hasDigit && !hasSymbol && !(hasLower && hasUpper) {
            if value.contains(0x5f) || value.contains(0x2d) || value.contains(0x2e) { return false }
        }
        if isQuoted { return classes >= 2 || value.count >= 12 }
        // Unquoted in code is mostly a reference (`config.api_key`, `String?`); in a config file
        // a real password has a digit somewhere, or mixes both cases and two symbols or more over
        // ten characters or more (`A?#sL^VyAHy%j`: no name, type or expression looks so).
        if isReference(value) { return false }
        if !hasDigit {
            // (Two symbols, one of them inside: a type's `Substring?` or `NSString!` is no password.)
            guard hasLower && hasUpper && hasSymbol && value.count >= 10 else { return false }
            let isSymbol = { (byte: UInt8) in !SecretText.isAlphanumeric(byte) && !"_-.".utf8.contains(byte) }
            return value.dropLast().contains(where: isSymbol) && value.filter(isSymbol).count >= 2
        }
        return classes >= 2
    }

    /// Whether a word said to be a password in prose is one (`SecretRule.proseKeyword`): a
    /// plausible password with a digit and three character classes, not a placeholder.
    static func isProsePassword(_ value: [UInt8]) -> Bool {
        var classes = 0
        if value.contains(where: SecretText.isLower) { classes += 1 }
        if value.contains(where: SecretText.isUpper) { classes += 1 }
        if value.contains(where: SecretText.isDigit) { classes += 1 } else { return false }
        if value.contains(where: { !SecretText.isAlphanumeric($0) }) { classes += 1 }
        return classes >= 3 && isPlausible(value, isQuoted: true)
    }

    /// Whether `value` counts up: hex whose bytes do (`000102…0f`, the key of FIPS-197's and
    /// most ciphers' test vectors) or whose digits do (`0123456789abcdef0123…`), sixteen
    /// characters or more. No key is made that way.
    static func isCountingSequence(_ value: [UInt8]) -> Bool {
        guard value.count >= 16, value.allSatisfy(SecretText.isHex) else { return false }
        func digit(_ byte: UInt8) -> Int { SecretText.isDigit(byte) ? Int(byte) - 0x30 : Int(byte | 0x20) - 0x61 + 10 }
        let digitsCount = (1..<value.count).allSatisfy { (digit(value[$0 - 1]) + 1) % 16 == digit(value[$0]) }
        if digitsCount { return true }
        guard value.count % 2 == 0 else { return false }
        var previous = -1
        for pair in stride(from: 0, to: value.count, by: 2) {
            let byte = digit(value[pair]) * 16 + digit(value[pair + 1])
            if previous >= 0 && byte != (previous + 1) % 256 { return false }
            previous = byte
        }
        return true
    }

    /// Whether `value` is a token its vendor makes to be public: Mapbox's `pk.eyJ…` (its secret
    /// ones are `sk.`), Stripe's publishable `pk_live_`/`pk_test_`, PostHog's project key `phc_`
    /// (its personal API keys are `phx_`).
    static func isPublicToken(_ value: [UInt8]) -> Bool {
        // (The first byte first: `isPlaceholder` asks every value, PERF(guard-text).)
        value.first == 0x70 && publicTokenPrefixes.contains { value.starts(with: $0) }
    }

    /// The prefixes of `isPublicToken`.
    static let publicTokenPrefixes: [[UInt8]] = ["pk.eyJ", "pk_live_", "pk_test_", "phc_"].map { Array($0.utf8) }

    /// Whether a quoted value is a passphrase of words (`'camel nutmeg9025 ginger maple?'`): 8 to
    /// 63 printable characters (a WPA passphrase's bounds), three words or more, a digit or a
    /// symbol, not a placeholder.
    static func isPassphrase(_ value: [UInt8]) -> Bool {
        guard value.count >= 8, value.count <= 63, value.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }),
            value.first != 0x20, value.last != 0x20
        else { return false }
        let words = value.split(separator: 0x20)
        guard words.count >= 3, words.count * 2 <= value.count - words.count + 1 else { return false }
        let hasDigitOrSymbol = value.contains { SecretText.isDigit($0) || ($0 != 0x20 && !SecretText.isLetter($0)) }
        return hasDigitOrSymbol && !isPlaceholder(value)
    }

    /// Whether `value` is a password hash as a database server stores it: PostgreSQL's
    /// `md5<32 hex>` and `SCRAM-SHA-256$…`, MySQL's `*<40 hex>`.
    static func isStoredPasswordHash(_ value: [UInt8]) -> Bool {
        if value.starts(with: Array("SCRAM-SHA-256$".utf8)) { return true }
        if value.count == 35 && value.starts(with: Array("md5".utf8)) {
            return value.dropFirst(3).allSatisfy(SecretText.isHex)
        }
        if value.count == 41 && value.first == 0x2a { return value.dropFirst().allSatisfy(SecretText.isHex) }
        return false
    }

    /// Whether a value is a crypt(3) hash as a system stores passwords (`$2b$12$…`, `$6$salt$…`,
    /// `$argon2id$…`): a `$`, an identifier, and two `$` more. (A CSV export's column of them is
    /// a user table's, `SecretRule.csvPassword`.)
    static func isCryptHash(_ value: [UInt8]) -> Bool {
        value.first == 0x24 && value.filter { $0 == 0x24 }.count >= 3
    }

    /// Whether `value` is a passphrase of words joined by `_`, `-` or `.` and ending in digits, as
    /// password managers make them (`basil_ember_glacier_falcon20`, `cobalt-tundra-pixel-28`):
    /// three words or more, each of three lower-case letters or more, the last two digits or
    /// more (as a word of its own or after the last letters). Names in code end in a word or a
    /// short version (`create_user_table`, `cache_key_v2`).
    static func isJoinedPassphrase(_ value: [UInt8]) -> Bool {
        guard value.count >= 12, value.count <= 64, let last = value.last, SecretText.isDigit(last) else {
            return false
        }
        let separator = value.first { $0 == 0x5f || $0 == 0x2d || $0 == 0x2e }
        guard let separator else { return false }
        var words = value.split(separator: separator, omittingEmptySubsequences: false)
        let digits = words.last!.reversed().prefix { SecretText.isDigit($0) }.count
        if digits == words.last!.count {
            words.removeLast()
        } else {
            words[words.count - 1] = words.last!.dropLast(digits)
        }
        return digits >= 2 && words.count >= 3
            && words.allSatisfy { $0.count >= 3 && $0.allSatisfy(SecretText.isLower) }
    }

    /// Whether `value` is an app password as Google shows it: four groups of four lower-case
    /// letters, one blank between them (`abcd efgh ijkl mnop`; Google Account Help, "Sign in
    /// with app passwords"). Under a password's name it is a credential despite its blanks.
    static func isGroupedAppPassword(_ value: [UInt8]) -> Bool {
        guard value.count == 19 else { return false }
        for (index, byte) in value.enumerated() {
            if index % 5 == 4 {
                guard byte == 0x20 else { return false }
            } else {
                guard SecretText.isLower(byte) else { return false }
            }
        }
        return true
    }

    /// Whether `value` holds a bracket around a name, or empty round or curly brackets: a call
    /// (`hash(pw)`, `NOW()`), a template's slot (`{password}`, `{}`, `<token>`) or a mark
    /// (`[REDACTED]`).
    /// Four brackets or more are a random key's (Django's `7)3)e(i))(j-zd_m92v)83om9)…`), not code's.
    static func hasTemplateSlot(_ value: [UInt8]) -> Bool {
        let pairs: [(UInt8, UInt8)] = [(0x28, 0x29), (0x7b, 0x7d), (0x5b, 0x5d), (0x3c, 0x3e)]
        if value.filter({ "(){}[]<>".utf8.contains($0) }).count >= 4 { return false }
        for (index, byte) in value.enumerated() {
            guard let close = pairs.first(where: { $0.0 == byte })?.1 else { continue }
            var inner = index + 1
            while inner < value.count
                && (SecretText.isWord(value[inner]) || value[inner] == 0x2e || value[inner] == 0x2d)
            {
                inner += 1
            }
            // (Empty square brackets, and angle brackets around less than a name, `[]`, `<>`,
            // `<d>`, are symbols a password generator drew: Terraform's `random_password`
            // draws from `!@#$%&*()-_=+[]{}<>:?`.)
            let name = inner - index - 1
            let least = byte == 0x5b ? 1 : byte == 0x3c ? 2 : 0
            if inner < value.count && value[inner] == close && name >= least { return true }
        }
        return false
    }

    /// Whether an unquoted value is an identifier or dotted path with `_` or `.` in it
    /// (`api_key_v2`, `settings.key2`): a variable, not a literal. A long run that mixes upper
    /// and lower case and digits is random, not a name.
    static func isReference(_ value: [UInt8]) -> Bool {
        guard let first = value.first, SecretText.isLetter(first) || first == 0x5f else { return false }
        guard value.allSatisfy({ SecretText.isWord($0) || $0 == 0x2e }) else { return false }
        // A dotted path's parts are names: `a.b2`, not `abc.` or `v1.2`.
        let parts = value.split(separator: 0x2e, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && !SecretText.isDigit($0.first!) }) else { return false }
        if value.count >= randomLength && value.contains(where: SecretText.isLower)
            && value.contains(where: SecretText.isUpper) && value.contains(where: SecretText.isDigit)
        {
            return false
        }
        // A capital first, small letters and a digit, and each part after a dot a capital too
        // (`Wizard50_`, `Summer_Rain77`, `Farah.Tanaka38`): what people choose for a password; a
        // name in code is lower case or all capitals where it has `_` (`db_pass2`, `DB_PASS2`), a
        // path's later parts are lower case (`Settings.db_pass2`, `Config.password`).
        if SecretText.isUpper(first) && value.contains(where: SecretText.isLower)
            && value.contains(where: SecretText.isDigit)
            && parts.allSatisfy({ SecretText.isUpper($0.first!) })
        {
            return false
        }
        // Words joined by dots and ending in digits (`snowball.jaguar.cobalt94`): a passphrase.
        if isJoinedPassphrase(value) { return false }
        // A vendor's prefix and a random run (`squ_<40 hex>`, `dop_v1_<64 hex>`, lower case
        // only): a token, not a name; a name's parts are words (`api_key_v2`).
        if value.split(whereSeparator: { $0 == 0x5f || $0 == 0x2e }).contains(where: {
            $0.count >= randomLength && isRandom(Array($0))
        }) {
            return false
        }
        return value.contains(0x5f) || value.contains(0x2e)
    }

    /// The shortest kubeseal ciphertext: the two-byte length, an RSA-2048 session key (256
    /// bytes), the AES-GCM nonce and tag, in base64.
    static let minimumSealedLength = 384

    /// Whether a value is a Bitnami Sealed Secrets ciphertext (`encryptedData:` of a
    /// `SealedSecret`): standard base64 of a big-endian two-byte length of the RSA-OAEP session
    /// key (512 for RSA-4096, 256 for RSA-2048: `Ag…` or `AQ…`), that key and the AES-GCM
    /// ciphertext (bitnami-labs/sealed-secrets, pkg/crypto: `HybridEncrypt`). Only the
    /// cluster's private key opens it, so it is committed to git by design.
    static func isSealedCiphertext(_ value: [UInt8]) -> Bool {
        // (Padding is not required: a pasted manifest may be cut or re-wrapped.)
        guard value.count >= minimumSealedLength,
            value.starts(with: Array("Ag".utf8)) || value.starts(with: Array("AQ".utf8))
        else { return false }
        let body = value.prefix { $0 != 0x3d }
        guard value.count - body.count <= 2 else { return false }
        return body.allSatisfy { SecretText.isAlphanumeric($0) || $0 == 0x2b || $0 == 0x2f }
    }

    /// Whether a value is one character, of more than one byte, repeated: a password field
    /// shown masked (`••••••••`, `●●●●`).
    static func isOneCharacterRepeated(_ value: [UInt8]) -> Bool {
        guard let first = value.first, first >= 0xc0 else { return false }
        let width = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : 2
        guard value.count >= 2 * width, value.count % width == 0 else { return false }
        return value.indices.allSatisfy { value[$0] == value[$0 % width] }
    }

    /// Whether a value is shown elided: a few characters, `..` or `…`, a few more
    /// (`22JY..y2`, `sk-…AbCd` as dashboards and logs show a token), at most
    /// `elidedPartLength` on each side; or cut by `...` or `…` anywhere after its first
    /// character (`00QCjAl4MlV-WPXM...0HmjFx-vbGua`, `OAAABAAAAiL9…`, as documentation prints
    /// a token too long for its page).
    static func isElided(_ value: [UInt8]) -> Bool {
        let ellipsis: [UInt8] = [0xe2, 0x80, 0xa6]
        var index = 0
        while index < value.count {
            let dots =
                value[index] == 0x2e
                ? value[index...].prefix { $0 == 0x2e }.count
                : value[index...].starts(with: ellipsis) ? 3 : 0
            if dots >= 3 && index > 0 { return true }
            if dots >= (value[index] == 0x2e ? 2 : 3) {
                let after = value.count - index - dots
                return index > 0 && index <= elidedPartLength && after > 0 && after <= elidedPartLength
            }
            index += 1
        }
        return false
    }

    /// The most characters on either side of an elided value's dots.
    static let elidedPartLength = 8

    /// Credentials that vendors publish in their documentation for everyone to use, whole
    /// (each source in docs/secret-guard.md): Stripe's test-mode keys of its API reference and
    /// the Azure storage emulator's (Azurite's) fixed account key. AWS's are known by their
    /// `EXAMPLE` (`isPlaceholder`'s fragments). And the TOTP secret of Google Authenticator's
    /// key-URI documentation (`otpauth://totp/…?secret=JBSWY3DPEHPK3PXP`), in every 2FA tutorial;
    /// the private keys of the RFCs' test vectors, in every test of an implementation.
    static let publishedExamples: Set<[UInt8]> = [
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
        "JBSWY3DPEHPK3PXP",
        // GitHub's OAuth documentation's access token; Azurite's key above also stands in a
        // connection string.
        "gho_16C7e42F292c6912E7710c838347Ae178B4a",
        // RFC 8032's Ed25519 test vectors (TEST 1-3) and RFC 7748's X25519 ones (Alice, Bob).
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
        "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
        "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
        // Kubernetes' documentation's Secret ("Managing Secrets using Configuration File":
        // `password: MWYyZDFlMmU2N2Rm`, base64 of `1f2d1e2e67df`); the MongoDB manual's
        // connection string (`myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com`).
        "MWYyZDFlMmU2N2Rm", "1f2d1e2e67df", "D1fficultP%40ssw0rd", "D1fficultP@ssw0rd",
        // Doppler's "Auth Token Formats" page: one body for every kind of token.
        "dp.ct.bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi", "dp.pt.bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi",
        "dp.st.dev.bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi", "dp.sa.bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi",
        "dp.said.bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi", "dp.scim.bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi",
        "dp.audit.bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi", "bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi",
    ].reduce(into: Set(documentedExamples.map { Array($0.utf8) })) { $0.insert(Array($1.utf8)) }

    /// How long a mixed-case run with digits must be to be taken for random.
    static let randomLength = 20

    /// Values that only stand in for a secret: empty, one repeated character, a template or
    /// variable reference (`$VAR`, `${VAR}`, `%VAR%`, `<password>`, `@VAR@`), or a stock word.
    static func isPlaceholder(_ value: [UInt8]) -> Bool {
        guard let first = value.first, let last = value.last else { return true }
        if value.allSatisfy({ $0 == first }) || isOneCharacterRepeated(value) { return true }
        if isSealedCiphertext(value) || isElided(value) || isCountingSequence(value) { return true }
        if publishedExamples.contains(value) || isPublicToken(value) { return true }
        let inner = value.dropFirst()
        let isName = !inner.isEmpty && inner.allSatisfy { SecretText.isWord($0) || $0 == 0x2e }
        switch first {
        case 0x24:  // $VAR ${VAR} $(cmd) $config.key (not `$birch.Papaya4708`: a password)
            let isVariable =
                isName
                && (!inner.contains(0x2e) || inner.allSatisfy { !SecretText.isUpper($0) && !SecretText.isDigit($0) })
            if isVariable || inner.first == 0x7b || inner.first == 0x28 { return true }
        case 0x25, 0x40:  // %VAR% @VAR@ %(name)s %s
            if last == first && value.count > 2 && value.dropFirst().dropLast().allSatisfy(SecretText.isWord) {
                return true
            }
            if first == 0x25 && (inner.first == 0x28 || value.count <= 3) { return true }
        case 0x7b: return true  // {name}, {{ template }}
        case 0x3c: if last == 0x3e { return true }  // <password>
        case 0x5b:  // [MASKED] (GitLab's), [REDACTED], [FILTERED]: a mark, not a value
            if last == 0x5d && value.count > 2
                && value.dropFirst().dropLast().allSatisfy({ SecretText.isLetter($0) || $0 == 0x20 || $0 == 0x5f })
            {
                return true
            }
        default: break
        }
        if isConstantName(value) { return true }
        let lower = value.map(SecretText.lowercased)
        if placeholderWords.contains(where: { $0 == lower }) { return true }
        if startsWithReference(lower) || hasSubstitution(lower) { return true }
        return placeholderFragments.contains { fragment in
            lower.count >= fragment.count
                && (0...(lower.count - fragment.count)).contains {
                    lower[$0..<($0 + fragment.count)].elementsEqual(fragment)
                }
        }
    }

    /// Whether a value under a secret-bearing name (found by the structural layer: a name/value
    /// pair, a table row) is a credential: a literal, not a placeholder or a reference
    /// (`vault:…`, `${…}`, `<…>`, `arn:…`), six characters or more, and either random-looking or
    /// a password (two character classes, no blanks).
    static func isCredential(_ value: [UInt8]) -> Bool {
        guard value.count >= minimumLength, value.count <= maximumTokenLength else { return false }
        // The shapes first, the placeholder test once (PERF(guard-text source code): a value
        // field's `value = self._value` is everywhere in code).
        return (hasRandomShape(value) || hasPlausibleShape(value, isQuoted: true)) && !isPlaceholder(value)
    }

    /// Whether a value given to `Authorization` is a scheme and a credential (`Bearer …`,
    /// `Basic …`, `Token token=…`, a bare token).
    static func isAuthorization(_ value: [UInt8]) -> Bool {
        var credential = value[...]
        if let blank = value.firstIndex(of: 0x20) {
            credential = value[(blank + 1)...]
            if credential.starts(with: Array("token=".utf8)) { credential = credential.dropFirst(6) }
            credential = credential.drop { $0 == 0x22 || $0 == 0x27 }
            while let last = credential.last, last == 0x22 || last == 0x27 { credential = credential.dropLast() }
        }
        let token = Array(credential)
        return token.count >= 12 && !token.contains(0x20)
            && (hasRandomShape(token) || hasPlausibleShape(token, isQuoted: true)) && !isPlaceholder(token)
    }

    /// Whether a quoted value is an authorization scheme and its credential (`token = "Bearer
    /// …"` in a registry's config, `auth: 'Basic …'`): the scheme spelled as headers spell it.
    static func isSchemeCredential(_ value: [UInt8]) -> Bool {
        let schemes = ["Bearer ", "bearer ", "Basic ", "Token ", "token "]
        return schemes.contains { value.starts(with: $0.utf8) } && isAuthorization(value)
    }

    /// Whether a password given on a command line is a literal: three characters or more, not
    /// a placeholder, a variable (`$PW`, `%PW%`) or a command substitution (a `$` in single
    /// quotes is a literal `$`).
    static func isCommandPassword(_ value: [UInt8], isSingleQuoted: Bool = false) -> Bool {
        guard value.count >= 3, value.count <= maximumLength, !isPlaceholder(value) else { return false }
        // $VAR, -x, @file; in single quotes each is the character itself.
        if !isSingleQuoted && (value.contains(0x24) || value.first == 0x2d || value.first == 0x40) { return false }
        // Printable ASCII only: `pass:…` in documentation is an ellipsis, not a password.
        return value.allSatisfy { $0 > 0x20 && $0 < 0x7f }
    }

    /// The shortest value taken for random by its shape alone.
    static let minimumRandomLength = 16

    /// Whether a value looks random: sixteen characters or more, no blank, letters and digits
    /// mixed (or long hex), and about three bits of entropy a character or more; not a word,
    /// a path, a version or a date.
    static func isRandom(_ value: [UInt8]) -> Bool {
        // The shape first, the placeholder test only for a value that has it (the same verdict).
        hasRandomShape(value) && !isPlaceholder(value)
    }

    /// `isRandom` but for the placeholder test.
    static func hasRandomShape(_ value: [UInt8]) -> Bool {
        guard value.count >= minimumRandomLength, !value.contains(where: SecretText.isSpace) else { return false }
        var letters = 0
        var digits = 0
        var separators = 0
        for byte in value {
            if SecretText.isDigit(byte) { digits += 1 }
            if SecretText.isUpper(byte) || SecretText.isLower(byte) { letters += 1 }
            if byte == 0x2f || byte == 0x2e { separators += 1 }
        }
        guard digits >= 2, letters >= 2 || value.count >= 32 else { return false }
        // Paths, versions and host names: mostly letters between separators.
        if separators * 8 > value.count { return false }
        // The entropy, from each byte's count: on the stack (PERF(guard-text): a 2 KiB array for
        // every value asked, most of which the tests above turn away).
        var counts = InlineArray<256, UInt32>(repeating: 0)
        for byte in value { counts[Int(byte)] &+= 1 }
        var entropy = 0.0
        let total = Double(value.count)
        for byte in 0..<256 where counts[byte] > 0 {
            let share = Double(counts[byte]) / total
            entropy -= share * log2(share)
        }
        return entropy >= 3.0
    }

    /// `log2(x)` without Foundation: the exponent and a short series for the mantissa.
    static func log2(_ x: Double) -> Double {
        let exponent = Double(x.exponent)
        let mantissa = x.significand  // in [1, 2)
        // ln(m) by atanh's series: ln(m) = 2 * atanh((m - 1) / (m + 1)).
        let y = (mantissa - 1) / (mantissa + 1)
        let y2 = y * y
        var term = y
        var sum = 0.0
        for power in stride(from: 1.0, through: 15.0, by: 2.0) {
            sum += term / power
            term *= y2
        }
        return exponent + 2 * sum / 0.6931471805599453
    }

    /// Whether `lowercased` (a value or a word, already lower case) starts with one of
    /// `referencePrefixes`.
    static func startsWithReference(_ lowercased: [UInt8]) -> Bool {
        referencePrefixes.contains { lowercased.starts(with: $0) }
    }

    /// References that name where a secret is kept, never the secret: a value that starts with
    /// one is not looked at.
    static let referencePrefixes: [[UInt8]] = [
        "vault:", "ref+", "op://", "arn:", "secretsmanager:", "ssm:", "awssm:", "gcpsm:", "azkv:", "sops:", "env:",
        "file:", "secret:", "secretref:", "secret/", "kv/", "@microsoft.keyvault(", "projects/", "keyvault:", "bws:",
        "doppler:", "infisical:", "k8s:",
    ].map { Array($0.utf8) }

    /// Whole values that are stock placeholders.
    static let placeholderWords: [[UInt8]] = [
        "password", "passwd", "pass", "secret", "changeit", "example", "dummy", "test",
        "testing", "none", "null", "nil", "undefined", "true", "false", "hidden", "masked",
        "todo", "fixme", "username", "user", "pwd", "foo", "bar", "baz", "foobar", "token",
        "apikey", "api_key", "secretkey", "secret_key", "mypassword", "password123", "123456",
        "12345678", "qwerty",
    ].map { Array($0.utf8) }

    /// Whether a value is an environment variable's or a constant's name standing for the
    /// secret (`oauth2:ACCESS_TOKEN@`, `--password MY_DB_PASSWORD`): capitals, digits and
    /// `_`: two words or more joined by `_`, each capitals with any digits at its end (`S3`,
    /// `V2`), one of three letters or more. A random key of capitals and digits mixes them
    /// (`F2A1_91BC`), and a chosen secret of that shape has too little in it to be one.
    static func isConstantName(_ value: [UInt8]) -> Bool {
        guard value.count >= 5, value.contains(0x5f) else { return false }
        var longest = 0
        for word in value.split(separator: 0x5f, omittingEmptySubsequences: false) {
            let letters = word.prefix(while: SecretText.isUpper).count
            guard letters > 0, word.dropFirst(letters).allSatisfy(SecretText.isDigit) else { return false }
            longest = max(longest, letters)
        }
        return longest >= 3
    }

    /// Whether `value` holds a substitution: `$(command …)` or `%(name)s`, a name (or a
    /// command and its words) in parentheses after `$` or `%`. Not any `%(` or `$(`: Django's
    /// generated keys draw from `a-z0-9!@#$%^&*(-_=+)`, so `…py%(&8447(…` is random.
    static func hasSubstitution(_ value: [UInt8]) -> Bool {
        var index = 0
        while index + 3 < value.count {
            defer { index += 1 }
            guard value[index] == 0x24 || value[index] == 0x25, value[index + 1] == 0x28,
                SecretText.isLetter(value[index + 2]) || value[index + 2] == 0x5f
            else { continue }
            var inner = index + 3
            while inner < value.count,
                SecretText.isWord(value[inner]) || " .-/:".utf8.contains(value[inner])
            {
                inner += 1
            }
            if inner < value.count && value[inner] == 0x29 { return true }
        }
        return false
    }

    /// Fragments that mark a value as a placeholder wherever they appear.
    static let placeholderFragments: [[UInt8]] = [
        "${", "{{", "example", "placeholder", "changeme", "change_me", "change-me",
        "your", "xxxx", "***", "....", "redacted", "dummy", "sample", "fake", "insert", "replace",
    ].map { Array($0.utf8) }
}
