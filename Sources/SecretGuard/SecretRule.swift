import PasteCore

/// One row of the secret table: a kind of secret, the literals that make the scanner look
/// closer, and what the text around such a literal must be for the kind to be reported.
///
/// The rows live in `SecretRule.table` (SecretPattern+Table.swift). Nothing else lists
/// triggers: the scanner's prefilter (`SecretPrefilter`) is derived from the rows, so a row is
/// the only place a kind is declared.
///
/// A class, PERF(guard-text): the scanner calls a row's check at every candidate that reaches
/// it, and a struct row was copied there (its triggers, its check's payload: a retain and a
/// release each), however it was borrowed (`rules.span[row]`); a row held by reference costs
/// none of that.
final class SecretRule: Sendable {
    /// Which of two overlapping findings is reported: the more specific one.
    enum Rank: Int, Sendable, Comparable {
        /// A key name and a plausible value (`password = …`).
        case generic = 1
        /// A format that needs its context (a header, a URL, a config file's shape).
        case context = 2
        /// A token or key block recognised by its own format.
        case token = 3

        static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The kind reported.
    let pattern: SecretPattern
    /// The literals that start a closer look, each at least two bytes long.
    let triggers: [String]
    /// Whether the triggers match in any letter case (`PASSWORD`, `Password`).
    let ignoresCase: Bool
    /// What must hold around a trigger.
    let check: Check
    /// Which finding wins an overlap.
    let rank: Rank

    init(
        _ pattern: SecretPattern, _ triggers: [String], ignoringCase ignoresCase: Bool = false,
        _ check: Check, rank: Rank = .token
    ) {
        precondition(triggers.allSatisfy { $0.utf8.count >= 2 }, "a trigger needs two bytes for the prefilter")
        self.pattern = pattern
        self.triggers = triggers
        self.ignoresCase = ignoresCase
        self.check = check
        self.rank = rank
    }

    /// A row for a key-and-value kind: the triggers are the last words of the keys, so
    /// `aws_secret_access_key` is looked at wherever `key` occurs, unless `triggers` are given
    /// (in any case, unless `ignoringCase` is false).
    static func assignment(
        _ pattern: SecretPattern, keys: [String], triggers: [String]? = nil, ignoringCase: Bool = true,
        value: ValueRule, rank: Rank = .generic
    ) -> SecretRule {
        let words =
            triggers
            ?? keys.map { key in String(key.split(whereSeparator: { $0 == "_" }).last ?? Substring(key)) }
        var unique: [String] = []
        for word in words where !unique.contains(word) { unique.append(word) }
        let normalized = keys.map { Array($0.utf8.filter { $0 != UInt8(ascii: "_") }) }
        return SecretRule(
            pattern, unique, ignoringCase: ignoringCase, .assignment(keys: KeyList(normalized), value: value),
            rank: rank)
    }

    /// A key-and-value row's key names (lower case, no `_`), one after another in one array.
    ///
    /// PERF(guard-text): `matchingKey` goes through them at every key candidate (on source
    /// code, every `token =`, `password:`, `key,`); as an array of arrays each name was retained
    /// and released on the way, most of `matchingKey`'s time. A class: as a struct its four
    /// arrays were retained and released at every key candidate, where a row's check is bound
    /// (`match`), 2-3 % of `paste -n -f` over the bench's source code.
    final class KeyList: Sendable {
        /// Every name's bytes, in the order given.
        let bytes: [UInt8]
        /// Where each name ends in `bytes` (it starts where the one before ends, the first at 0).
        let ends: [Int]
        /// Each name's last eight bytes (all, when shorter), last first: byte `i` of the word
        /// is the `i + 1`-th from the end; `tailMasks` has 0xff for each byte there is. A key
        /// whose last letters and digits differ there is no match (`matchingKey` tests that
        /// first: most of the names after `key` end in `_key`).
        let tails: [UInt64]
        let tailMasks: [UInt64]

        init(_ keys: [[UInt8]]) {
            var bytes: [UInt8] = []
            var ends: [Int] = []
            var tails: [UInt64] = []
            var tailMasks: [UInt64] = []
            for key in keys {
                bytes += key
                ends.append(bytes.count)
                var tail: UInt64 = 0
                var mask: UInt64 = 0
                for (place, byte) in key.reversed().prefix(8).enumerated() {
                    tail |= UInt64(byte) << (8 * UInt64(place))
                    mask |= 0xff << (8 * UInt64(place))
                }
                tails.append(tail)
                tailMasks.append(mask)
            }
            self.bytes = bytes
            self.ends = ends
            self.tails = tails
            self.tailMasks = tailMasks
        }
    }
}

extension SecretRule {
    /// What must hold around a trigger literal for a row's kind to be reported.
    enum Check: Sendable {
        /// A token: the literal, then the parts of `TokenFormat`.
        case token(TokenFormat)
        /// `-----BEGIN <label>PRIVATE KEY-----` followed by a line break and a key body.
        case privateKeyBlock
        /// `-----BEGIN PGP PRIVATE KEY BLOCK-----` followed by a line break.
        case pgpBlock
        /// `PuTTY-User-Key-File-<version>: <algorithm>`.
        case puttyKeyFile
        /// Base64url segments whose header decodes to JSON naming `"alg"`.
        case jsonWebToken
        /// A key whose normalized name (lower case, no `_`, `-`, `.`) ends in one of `keys`, a
        /// separator and a value.
        case assignment(keys: KeyList, value: ValueRule)
        /// `password <value>` in a `.netrc` entry (after `machine` or `default`, and `login`).
        case netrc
        /// `host:port:database:user:password` on a line of its own.
        case pgpass
        /// `Password=…;` inside a `key=value;` connection string that names a server or user.
        case connectionString
        /// `Authorization: Basic <base64 of user:password>`.
        case basicAuthorization
        /// `Authorization: Bearer <token>`.
        case bearerAuthorization
        /// `scheme://user:password@host`.
        case urlCredentials
        /// `"auth": "<base64 of user:password>"`.
        case dockerAuth
        /// `sig=<signature>` in a query string that also has `sv=`.
        case azureSignature
        /// `_auth = <base64 of user:password>`, as in `.npmrc`.
        case npmAuth
        /// A Vault unseal key after `Unseal Key N:` or `vault operator unseal`.
        case vaultUnseal
        /// A postfix `sasl_passwd` line: `[host]:port user:password` (or `host:port`).
        case saslPassword
        /// A keyword starting its line, a blank and the value to the line's end
        /// (`bindpw secret` in nslcd.conf).
        case lineKeyword
        /// OpenWrt's `option key '…'` and `option password '…'` (`SecretRule.uciOption`).
        case uciOption
        /// `PASSWORD '…'` and `IDENTIFIED BY '…'` in SQL (`SecretRule.sqlPassword`).
        case sqlPassword
        /// A credential's constructor with a user and a password (`NetworkCredential("u", "pw")`,
        /// `HTTPBasicAuth(…)`, `auth=("u", "pw")`: `SecretRule.credentialCall`).
        case credentialCall
        /// A web server's directive that sets a request header (`proxy_set_header X-Api-Key …;`,
        /// `RequestHeader set Api-Key "…"`: `SecretRule.headerDirective`).
        case headerDirective
        /// A property list's `<key>…</key>` and the `<string>` after it (`SecretRule.plistPair`).
        case plistPair
        /// A literal default of a secret's environment variable (`os.getenv("API_KEY", "…")`:
        /// `SecretRule.environmentDefault`).
        case environmentDefault
        /// A cookie made in code (`New-Object System.Net.Cookie("sessionid", "…", …)`:
        /// `SecretRule.cookieCall`).
        case cookieCall
        /// `password is <value>` in prose (a chat line), the value a word that no prose has
        /// (`SecretRule.proseKeyword`).
        case proseKeyword
        /// A user and its secret in a chat line, after `account is` and the like
        /// (`SecretRule.proseLogin`).
        case proseLogin
        /// A value field whose object names a secret (`SecretRule.namedPair`).
        case namedPair
        /// A client's password option on its command line (`SecretRule.commandLine`).
        case commandLine
        /// A session cookie in a `Cookie:` or `Set-Cookie:` header.
        case cookie
        /// A CSV export's password column, named in its header line (`SecretRule.csvPassword`).
        case csvPassword
        /// Go's MySQL data source name, `user:password@tcp(…)` (`SecretRule.goDataSource`).
        case goDataSource
        /// A password in an XML element of its own (`SecretRule.xmlPassword`).
        case xmlPassword
        /// A Netscape cookie file (`SecretRule.cookieFile`).
        case cookieFile
        /// The `result` of a Terraform `random_password` in a state file
        /// (`SecretRule.terraformRandomPassword`).
        case terraformRandomPassword
        /// Not a kind but an encoding: the region around the trigger decoded, then scanned
        /// with the whole table (`SecretDecoding`).
        case decoded(SecretDecoding)
    }

    /// What an assigned value must look like.
    enum ValueRule: Sendable {
        /// A literal of at least `minimumLength` bytes that is not a placeholder, a name or an
        /// expression (see `SecretValue.isPlausible`).
        case plausible(minimumLength: Int)
        /// A random-looking literal of at least `minimumLength` bytes (`SecretValue.isRandom`):
        /// for names that hold a key as often as an identifier (`routing_key`, `app_key`).
        case random(minimumLength: Int)
        /// `random`, under an environment variable's name of two words or more ending in `_KEY`
        /// (`INGEST_KEY`, `UPSTREAM_API_KEY`) that names no lookup key (`CACHE_KEY`) or public
        /// key's fingerprint (`GPG_KEY`).
        case randomUnderEnvironmentKey(minimumLength: Int)
        /// Exactly `count` characters of standard base64 (`A–Z a–z 0–9 + /`, `=` padding at the
        /// end).
        case base64(count: Int)
    }

    /// The shape of a token after (and sometimes before) its trigger literal.
    ///
    /// A class, PERF(guard-text): the row's check (`match`) binds its payload at every candidate,
    /// and a struct's binding retained and released each of its arrays (the parts, the glue).
    final class TokenFormat: Sendable {
        /// One piece of a token.
        enum Part: Sendable {
            /// A run of bytes from an alphabet, its length within the range (greedy: a longer run
            /// does not match).
            case run(SecretAlphabet, ClosedRange<Int>)
            /// A fixed text.
            case literal(String)
        }

        /// An extra condition on the whole token.
        enum Requirement: Sendable {
            case none
            /// At least one lower-case letter, one upper-case letter and one digit after the literal.
            case mixedCaseAndDigit
            /// At least one lower-case and one upper-case letter after the literal.
            case mixedCase
            /// At least one letter and one digit after the literal.
            case letterAndDigit
            /// A letter and a digit, or both letter cases, after the literal: a random run of
            /// twenty base64url characters has no digit one time in thirty (GitLab's tokens).
            case letterAndDigitOrMixedCase
            /// GitHub's CRC32 tail: the last six characters are the base62 CRC32 of the thirty
            /// before them (github.blog, "Behind GitHub's new authentication token formats", 2021).
            case gitHubChecksum
            /// The first segment is the base64 of a Discord user id (seventeen to twenty digits).
            case discordUserID
            /// Not one of the placeholder ids AWS uses in its documentation (`…EXAMPLE`).
            case notAWSExample
            /// The last character before the literal is a digit (Azure AD client secrets).
            case digitBeforeLiteral
            /// The text right before the token ends with one of these host names.
            case afterHost([String])
            /// A fixed text at an offset after the literal (Azure DevOps' `AZDO` inside a run
            /// of letters and digits, where a greedy run would take it).
            case marker(at: Int, String)
            /// The text after the literal does not start with any of these (`sk-ant-` is not
            /// OpenAI's).
            case notFollowedBy([String])
        }

        /// Characters right before the literal that belong to the token (Telegram's bot id).
        let leading: Part?
        /// What follows the literal.
        let body: [Part]
        let requirement: Requirement
        /// Words that may be glued before the token although they end in a letter (`bot` in
        /// Telegram's `api.telegram.org/bot<token>`).
        let glue: [String]
        /// Whether the token must start a word (no letter or digit right before it).
        let startsWord: Bool

        init(
            leading: Part? = nil, _ body: [Part], _ requirement: Requirement = .none, glue: [String] = [],
            startsWord: Bool = true
        ) {
            self.leading = leading
            self.body = body
            self.requirement = requirement
            self.glue = glue
            self.startsWord = startsWord
        }

        /// A token that is the literal and one run.
        static func run(_ alphabet: SecretAlphabet, _ length: ClosedRange<Int>, _ requirement: Requirement = .none)
            -> TokenFormat
        {
            TokenFormat([.run(alphabet, length)], requirement)
        }
    }
}
