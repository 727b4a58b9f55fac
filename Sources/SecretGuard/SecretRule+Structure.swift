import PasteCore

// MARK: - The structural layer (issue 42)
//
// The key/value shapes the plain `key = value` rows do not see: a name and its value in separate
// fields (HAR, Postman, Kubernetes `env`, Terraform state, XML `<add key= value=>`), a password
// given to a command on its command line, and session cookies. Each is a row of the table with
// trigger literals like any other (the value field's name, the client's name, `Cookie:`), so it
// costs nothing where they are absent; where one is, the check reads a bounded stretch around
// it (at most `SecretScanner.lookbehind` before and a line or an object after), once.

extension SecretRule {
    /// How far back a value field looks for the name that goes with it.
    static let namedPairReach = 512
    /// How many line breaks may stand between a name field and its value field.
    static let namedPairLines = 3
    /// The longest command line read after a client's name (with `\` continuations).
    static let commandLineReach = 2048

    // MARK: Name/value pairs

    /// A value field (`"value":`, `value:`, `value =`, `value="`) whose object names a secret:
    /// a sibling `name`/`key` field before it (`{"name": "X-Api-Key", "value": "…"}`,
    /// `- name: DB_PASSWORD` / `value: …`, `<add key="DbPassword" value="…"/>`), or the key the
    /// object is the value of (`"db_password": {"sensitive": true, "value": "…"}`).
    static func namedPair(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        // The field name must stand alone: not `default_value:` or `valueFrom:`.
        guard SecretText.startsName(text, at: start) else { return nil }
        let wordStart = SecretText.isQuote(text[start]) || SecretText.isBlank(text[start]) ? start + 1 : start
        guard let value = fieldValue(text, after: wordStart + 5) else { return nil }
        let literal = SecretText.bytes(text, value.start, value.end)
        // PERF(guard-text source code): the value first, the name (a walk back) only for one
        // that can be a secret: `value = self._value` is everywhere in code. A value with a
        // blank can only be an `Authorization` scheme and its credential, or cookie pairs.
        if literal.contains(0x20) {
            guard literal.contains(SecretText.ascii("=")) || literal.count >= 16 else { return nil }
        } else {
            guard SecretValue.isCredential(literal) else { return nil }
        }
        guard let name = pairName(text, before: start) else { return nil }
        let verdict = SecretName.verdict(name.bytes)
        let holds: Bool
        switch verdict {
        case .none:
            // A Postman variable its author marked secret (`"type": "secret"`), whatever its name.
            guard isMarkedSecret(text, after: value.end) else { return nil }
            holds = SecretValue.isCredential(literal)
        case .secret: holds = SecretValue.isCredential(literal)
        case .authorization: holds = SecretValue.isAuthorization(literal)
        case .cookie:
            holds = cookiePairs(literal).contains {
                SecretValue.isRandom($0.value) && SecretName.isSessionCookie($0.name)
            }
        }
        guard holds else { return nil }
        return (name.start, value.end, String(decoding: name.bytes, as: UTF8.self) + " = …")
    }

    /// Whether the object of a value that ends at `index` says its type is `secret` before it
    /// closes (Postman's environments and collections' variables), within 120 bytes.
    static func isMarkedSecret(_ text: Span<UInt8>, after index: Int) -> Bool {
        let highest = min(text.count, index + 120)
        var position = index
        while position < highest && text[position] != SecretText.ascii("}") {
            if SecretText.has(text, at: position, "\"type\"") {
                var next = position + 6
                while next < highest && (SecretText.isBlank(text[next]) || text[next] == SecretText.ascii(":")) {
                    next += 1
                }
                return SecretText.has(text, at: next, "\"secret\"")
            }
            position += 1
        }
        return false
    }

    /// The value after a value field's name ending at `index`: a quoted string (JSON escapes
    /// skipped), or a bare YAML scalar to the line's end; and where its `:` or `=` is.
    static func fieldValue(_ text: Span<UInt8>, after end: Int) -> (start: Int, end: Int, separator: Int)? {
        var index = end
        guard index < text.count, !SecretText.isKey(text[index]) else { return nil }
        if SecretText.isQuote(text[index]) { index += 1 }
        while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
        guard index < text.count, text[index] == SecretText.ascii(":") || text[index] == SecretText.ascii("=") else {
            return nil
        }
        let separator = index
        index += 1
        // `==`, `::` and `=>` are no fields.
        guard index < text.count, text[index] != SecretText.ascii("="), text[index] != SecretText.ascii(":") else {
            return nil
        }
        while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
        guard index < text.count else { return nil }
        if SecretText.isQuote(text[index]) {
            let quote = text[index]
            let valueStart = index + 1
            var valueEnd = valueStart
            while valueEnd < text.count && text[valueEnd] != quote && text[valueEnd] != 0x0a
                && valueEnd - valueStart <= SecretValue.maximumTokenLength
            {
                valueEnd += text[valueEnd] == SecretText.ascii("\\") ? 2 : 1
            }
            guard valueEnd < text.count, text[valueEnd] == quote else { return nil }
            return (valueStart, valueEnd, separator)
        }
        // A bare scalar: YAML, HCL without quotes; up to a comment, a comma or the line's end.
        let valueStart = index
        var valueEnd = valueStart
        while valueEnd < text.count && text[valueEnd] != 0x0a && text[valueEnd] != 0x0d
            && text[valueEnd] != SecretText.ascii(",") && text[valueEnd] != SecretText.ascii("}")
            && !(text[valueEnd] == SecretText.ascii("#") && valueEnd > valueStart
                && SecretText.isBlank(text[valueEnd - 1]))
            && valueEnd - valueStart <= SecretValue.maximumTokenLength
        {
            valueEnd += 1
        }
        while valueEnd > valueStart && SecretText.isBlank(text[valueEnd - 1]) { valueEnd -= 1 }
        guard valueEnd > valueStart else { return nil }
        return (valueStart, valueEnd, separator)
    }

    /// The name that goes with a value field starting at `index`: the nearest `name`/`key`
    /// field before it in the same object, or the key of the object it is in.
    static func pairName(_ text: Span<UInt8>, before index: Int) -> (start: Int, bytes: [UInt8])? {
        let lowest = max(0, index - namedPairReach)
        var position = index - 1
        var lines = 0
        var depth = 0
        while position >= lowest {
            let byte = text[position]
            if byte == 0x0a {
                lines += 1
                if lines > namedPairLines && depth == 0 { break }
            } else if byte == SecretText.ascii("}") || byte == SecretText.ascii("]") {
                depth += 1
            } else if byte == SecretText.ascii("{") || byte == SecretText.ascii("[") {
                if depth == 0 {
                    // The object's own key: `"db_password": {`, `db_password = {`.
                    return enclosingKey(text, before: position)
                }
                depth -= 1
            } else if depth == 0, let name = nameField(text, at: position) {
                return name
            }
            position -= 1
        }
        return nil
    }

    /// A `name` or `key` field starting at `index` (any case, quoted or bare, then `:` or `=`)
    /// and the string it holds.
    static func nameField(_ text: Span<UInt8>, at index: Int) -> (start: Int, bytes: [UInt8])? {
        let lowered = SecretText.lowercased(text[index])
        guard lowered == SecretText.ascii("n") || lowered == SecretText.ascii("k") else { return nil }
        let word = lowered == SecretText.ascii("n") ? "name" : "key"
        guard SecretText.has(text, at: index, word, ignoringCase: true) else { return nil }
        guard SecretText.startsName(text, at: index) else { return nil }
        var position = index + word.utf8.count
        guard position < text.count, !SecretText.isKey(text[position]) else { return nil }
        if SecretText.isQuote(text[position]) { position += 1 }
        while position < text.count && SecretText.isBlank(text[position]) { position += 1 }
        guard position < text.count, text[position] == SecretText.ascii(":") || text[position] == SecretText.ascii("=")
        else { return nil }
        position += 1
        while position < text.count && SecretText.isBlank(text[position]) { position += 1 }
        guard position < text.count else { return nil }
        var quote: UInt8?
        if SecretText.isQuote(text[position]) {
            quote = text[position]
            position += 1
        }
        let nameStart = position
        while position < text.count && position - nameStart <= maximumKeyLength {
            let byte = text[position]
            if let quote, byte == quote { break }
            if quote == nil && !(SecretText.isKey(byte) || byte == SecretText.ascii("/")) { break }
            if byte == 0x0a { return nil }
            position += 1
        }
        guard position > nameStart, position - nameStart <= maximumKeyLength else { return nil }
        return (nameStart, SecretText.bytes(text, nameStart, position))
    }

    /// The key before an object's `{` at `brace`: `"key": {`, `key = {`, `key: {`.
    static func enclosingKey(_ text: Span<UInt8>, before brace: Int) -> (start: Int, bytes: [UInt8])? {
        var position = brace - 1
        while position >= 0 && SecretText.isSpace(text[position]) { position -= 1 }
        guard position >= 0, text[position] == SecretText.ascii(":") || text[position] == SecretText.ascii("=") else {
            return nil
        }
        position -= 1
        while position >= 0 && SecretText.isBlank(text[position]) { position -= 1 }
        guard position >= 0 else { return nil }
        if SecretText.isQuote(text[position]) { position -= 1 }
        let keyEnd = position + 1
        while position >= 0 && SecretText.isKey(text[position]) && keyEnd - position <= maximumKeyLength {
            position -= 1
        }
        guard keyEnd > position + 1 else { return nil }
        return (position + 1, SecretText.bytes(text, position + 1, keyEnd))
    }

    // MARK: Terraform state

    /// How far after `"random_password"` a state file's `"result"` is looked for.
    static let terraformResultReach = 4096

    /// The password a Terraform `random_password` made, in a state file: its type (`"type":
    /// "random_password"`) and, further in the same resource, `"result": "…"` (the provider
    /// marks it sensitive, but the state holds it in the clear). Up to the next resource's
    /// `"type"`, at most `terraformResultReach` bytes on.
    static func terraformRandomPassword(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        // `"type": "random_password"`: the literal is the value of a `type` field.
        var before = start - 1
        while before >= 0 && SecretText.isBlank(text[before]) { before -= 1 }
        guard before >= 0, text[before] == SecretText.ascii(":") else { return nil }
        let limit = min(text.count, end + terraformResultReach)
        var index = end
        while index < limit {
            if SecretText.has(text, at: index, "\"type\"") { return nil }
            if SecretText.has(text, at: index, "\"result\"") {
                guard let value = fieldValue(text, after: index + 7), value.end < text.count,
                    SecretText.isQuote(text[value.end])
                else { return nil }
                // Any printable characters (its `special` set has `$`, `@`, `-`), six or more.
                let literal = SecretText.bytes(text, value.start, value.end)
                guard literal.count >= 6, literal.count <= SecretValue.maximumLength,
                    literal.allSatisfy({ $0 > 0x20 && $0 < 0x7f }), !SecretValue.isPlaceholder(literal)
                else { return nil }
                return (index + 1, value.end, "random_password result = …")
            }
            index += 1
        }
        return nil
    }

    // MARK: Command lines

    /// The clients whose password options the command-line row knows, by trigger.
    enum Client {
        case curl, mysql, sshpass, redis, htpasswd, registryLogin, openssl, secureString, nmcli, lftp, redisAuth
        // rabbitmqadmin (`-p`), keytool's store and key passwords, `openssl passwd PW`, Windows'
        // `net user NAME PW`, Oracle's `sqlplus user/pw@db`, and `echo 'user:pw' | chpasswd`.
        case rabbitmqadmin, keytool, opensslPasswd, netUser, sqlplus, chpasswd
    }

    /// A client's trigger literals: its name and a blank (`curl `), or `pass:` for OpenSSL.
    /// (curl by its options, `curl` looked for before them on the line; OpenSSL by its option:
    /// `curl ` and `pass:` alone cost the prefilter pairs in ordinary text, PERF(guard-text).)
    static let commandTriggers: [(String, Client)] = [
        (" -u ", .curl), (" -u'", .curl), (" -u\"", .curl), (" --user ", .curl), (" --user=", .curl),
        ("mysql ", .mysql), ("mysqldump ", .mysql), ("mariadb ", .mysql), ("mysqladmin ", .mysql),
        ("sshpass ", .sshpass), ("redis-cli ", .redis), ("htpasswd ", .htpasswd), ("docker login ", .registryLogin),
        ("podman login ", .registryLogin), ("registry login ", .registryLogin), ("buildah login ", .registryLogin),
        ("skopeo login ", .registryLogin), ("oras login ", .registryLogin), ("nerdctl login ", .registryLogin),
        ("-passin pass:", .openssl), ("-passout pass:", .openssl), ("-pass pass:", .openssl),
        ("-password pass:", .openssl),
        // PowerShell's `ConvertTo-SecureString 'pw' -AsPlainText -Force`; NetworkManager's
        // `nmcli dev wifi connect SSID password pw` (and `wifi-sec.psk pw`).
        ("ConvertTo-SecureString ", .secureString),
        ("wifi connect ", .nmcli), ("lftp -u ", .lftp), ("> AUTH ", .redisAuth),
        // (Each literal may move the prefilter's plan: sqlcmd's, mosquitto_pub's, ldapsearch's,
        // smbclient's, xfreerdp's, plink's and mongosh's cost the candidate search 2-8 % more
        // over the bench's texts, in every combination tried; ` -P ` for ipmitool's, sqlcmd's and
        // Mosquitto's, 1-2 %, and source code then read slower than log lines, PERF(guard-text),
        // session 22.)
        ("rabbitmqadmin ", .rabbitmqadmin), ("keytool ", .keytool), ("openssl passwd ", .opensslPasswd),
        ("net user ", .netUser), ("sqlplus ", .sqlplus), ("chpasswd", .chpasswd),
    ]

    /// Where one of `names` is a word of its own earlier on the line of `start` (or the lines it
    /// continues with `\`), within 512 bytes: the start of the nearest.
    static func clientBefore(_ text: Span<UInt8>, _ start: Int, names: [String]) -> Int? {
        let lineFrom = max(0, start - 512)
        var position = start
        while position > lineFrom {
            position -= 1
            if text[position] == 0x0a && !(position > 0 && text[position - 1] == SecretText.ascii("\\")) { break }
            for name in names where SecretText.has(text, at: position, name + " ") {
                if SecretText.startsName(text, at: position, after: SecretText.ascii("/")) { return position }
            }
        }
        return nil
    }

    /// A password on the command line of the client named at `start..<end`.
    static func commandLine(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        guard let client = commandTriggers.first(where: { SecretText.has(text, at: start, $0.0) })?.1 else {
            return nil
        }
        if client == .openssl { return opensslPass(text, end - 5, end) }
        if client == .chpasswd { return chpasswdLine(text, start) }
        if client == .curl {
            // `curl` earlier on the line (or the lines it continues), then its words from there.
            guard let curl = clientBefore(text, start, names: ["curl"]) else { return nil }
            return commandLine(text, curl, curl + 5, client: .curl)
        }
        return commandLine(text, start, end, client: client)
    }

    /// A password on the command line of `client`, named at `start..<end`.
    static func commandLine(_ text: Span<UInt8>, _ start: Int, _ end: Int, client: Client) -> Found? {
        // The client's name is a word of its own (`/usr/bin/curl`, `$ curl`, `(curl`); redis-cli's
        // prompt ends its host and port.
        if client != .redisAuth {
            guard SecretText.startsName(text, at: start, after: SecretText.ascii("/")) else { return nil }
        }
        // (lftp's trigger holds its `-u`: the words from its first blank.)
        let arguments = shellWords(text, from: client == .lftp ? start + 5 : end)
        var password: (start: Int, end: Int)?
        // The word the password was taken from, and whether a quoted word is glued to its end
        // (`-p'pw'`, `-u user:'pw'`: `shellWords` keeps the quoted part as a word of its own).
        var taken = -1
        func gluedQuote(after index: Int) -> Bool {
            index + 1 < arguments.count && arguments[index + 1].start == arguments[index].end + 1
                && SecretText.isQuote(text[arguments[index].end])
        }
        func option(_ short: String?, _ long: [String], attached: Bool, separate: Bool = true) {
            var index = 0
            while index < arguments.count && password == nil {
                let word = arguments[index]
                let bytes = SecretText.bytes(text, word.start, word.end)
                let string = String(decoding: bytes, as: UTF8.self)
                if let short, attached, string == short, gluedQuote(after: index) {
                    password = (arguments[index + 1].start, arguments[index + 1].end)
                    taken = index + 1
                } else if let short, separate, string == short, index + 1 < arguments.count {
                    password = (arguments[index + 1].start, arguments[index + 1].end)
                    taken = index + 1
                } else if let short, attached, string.hasPrefix(short), string.count > short.count,
                    !string.hasPrefix("--")
                {
                    password = (word.start + short.utf8.count, word.end)
                } else {
                    for name in long {
                        if string == name, index + 1 < arguments.count {
                            password = (arguments[index + 1].start, arguments[index + 1].end)
                        } else if string.hasPrefix(name + "=") {
                            password = (word.start + name.utf8.count + 1, word.end)
                        }
                    }
                }
                index += 1
            }
        }
        switch client {
        case .curl:
            option("-u", ["--user", "--proxy-user"], attached: true)
            guard let found = password else { return nil }
            // `user:password`: the password after the first colon, or quoted after it.
            let value = SecretText.bytes(text, found.start, found.end)
            guard let colon = value.firstIndex(of: SecretText.ascii(":")), colon > 0 else { return nil }
            if colon == value.count - 1, taken >= 0, gluedQuote(after: taken) {
                password = (arguments[taken + 1].start, arguments[taken + 1].end)
            } else {
                password = (found.start + colon + 1, found.end)
            }
        case .mysql:
            // `-p` alone asks for the password; the word after it is the database.
            option("-p", ["--password"], attached: true, separate: false)
        case .sshpass:
            option("-p", [], attached: true)
        case .redis:
            option("-a", ["--pass", "--password"], attached: false)
        case .registryLogin:
            option("-p", ["--password"], attached: false)
        case .htpasswd:
            password = htpasswdPassword(text, arguments)
        case .secureString:
            password = secureStringPlainText(text, arguments)
        case .redisAuth:
            // redis-cli's prompt, `host:port> AUTH [user] password`: the last of one or two words.
            guard !arguments.isEmpty else { return nil }
            password = arguments.count >= 2 ? arguments[1] : arguments[0]
        case .lftp:
            // `-u user,password`: the password after the first comma.
            option("-u", ["--user"], attached: false)
            guard let found = password else { return nil }
            let value = SecretText.bytes(text, found.start, found.end)
            guard let comma = value.firstIndex(of: SecretText.ascii(",")), comma > 0 else { return nil }
            password = (found.start + comma + 1, found.end)
        case .nmcli:
            // `password` (and the Wi-Fi key's property names) take the next word.
            option(nil, ["password", "wifi-sec.psk", "802-11-wireless-security.psk"], attached: false)
        case .rabbitmqadmin:
            option("-p", ["--password"], attached: false)
        case .keytool:
            option(
                nil, ["-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass", "-destkeypass"],
                attached: false)
        case .opensslPasswd, .netUser, .sqlplus:
            password = positionalPassword(text, arguments, client: client)
        case .openssl, .chpasswd:
            return nil
        }
        guard let password else { return nil }
        let value = SecretText.bytes(text, password.start, password.end)
        // (In single quotes a `$` is itself, not a variable: `-p'Q$9…'`.)
        let isSingleQuoted =
            password.start > 0 && password.end < text.count && text[password.start - 1] == 0x27
            && text[password.end] == 0x27
        let isQuoted =
            password.start > 0 && password.end < text.count && SecretText.isQuote(text[password.start - 1])
            && text[password.end] == text[password.start - 1]
        guard
            SecretValue.isCommandPassword(value, isSingleQuoted: isSingleQuoted)
                || isQuoted && SecretValue.isPassphrase(value)
        else { return nil }
        return (start, password.end, SecretText.string(text, start, end - 1) + " … (password)")
    }

    /// The password among a command's positional words: `openssl passwd [-6] [-salt S] PW` (the
    /// last; `-stdin` and `-in FILE` read it instead), `net user NAME PW [/add]` (the second, not
    /// `*`, which asks), `sqlplus [-s] user/PW[@db]` (after the first's `/`; `/ as sysdba` has
    /// none).
    static func positionalPassword(_ text: Span<UInt8>, _ arguments: [(start: Int, end: Int)], client: Client) -> (
        start: Int, end: Int
    )? {
        var positionals: [(start: Int, end: Int)] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            let string = SecretText.string(text, word.start, word.end)
            if client == .opensslPasswd && string.hasPrefix("-") {
                if ["-stdin", "-in"].contains(string) { return nil }
                // The options that take a value.
                if ["-salt", "-rand", "-writerand", "-propquery", "-provider", "-provider-path"].contains(string) {
                    index += 1
                }
            } else if client == .netUser && (string.hasPrefix("/") || string.hasPrefix("-")) {
                // `/add`, `/domain`, `/active:no`.
            } else if client == .sqlplus && string.hasPrefix("-") {
                // `-s`, `-L`.
            } else {
                positionals.append(word)
            }
            index += 1
        }
        switch client {
        case .opensslPasswd:
            return positionals.last
        case .netUser:
            // (A user's name, `DOMAIN\name` at most; a password no word is, `sqlplus` in a table.)
            guard positionals.count >= 2,
                (positionals[0].start..<positionals[0].end).allSatisfy({
                    SecretText.isKey(text[$0]) || text[$0] == SecretText.ascii("\\")
                }),
                SecretValue.isPlausible(
                    SecretText.bytes(text, positionals[1].start, positionals[1].end), isQuoted: true)
            else { return nil }
            return positionals[1]
        default:
            guard let first = positionals.first else { return nil }
            let value = SecretText.bytes(text, first.start, first.end)
            guard let slash = value.firstIndex(of: SecretText.ascii("/")), slash > 0 else { return nil }
            let at = value[slash...].firstIndex(of: SecretText.ascii("@")) ?? value.count
            guard at > slash + 1 else { return nil }
            return (first.start + slash + 1, first.start + at)
        }
    }

    /// `echo 'user:pw' | [sudo] chpasswd`: the password after the colon of the word `echo` (or
    /// `printf`) gives earlier on the line.
    static func chpasswdLine(_ text: Span<UInt8>, _ start: Int) -> Found? {
        guard SecretText.startsName(text, at: start, after: SecretText.ascii("/")),
            let lineStart = SecretText.lineStart(text, of: start, within: 256)
        else { return nil }
        var position = lineStart
        var echo: Int?
        while position + 5 < start {
            if SecretText.has(text, at: position, "echo ") || SecretText.has(text, at: position, "printf ") {
                if SecretText.startsName(text, at: position) { echo = position }
            }
            position += 1
        }
        guard let echo else { return nil }
        let arguments = shellWords(text, from: echo + (text[echo] == SecretText.ascii("e") ? 5 : 7))
        guard let word = arguments.first(where: { text[$0.start] != SecretText.ascii("-") }) else { return nil }
        let value = SecretText.bytes(text, word.start, word.end)
        guard let colon = value.firstIndex(of: SecretText.ascii(":")), colon > 0 else { return nil }
        var passwordEnd = value.count
        // (`printf 'user:pw\n'`.)
        if value.count >= 2 && value[value.count - 2] == SecretText.ascii("\\") && value.last == SecretText.ascii("n") {
            passwordEnd -= 2
        }
        let password = Array(value[(colon + 1)..<passwordEnd])
        let isSingleQuoted = word.start > 0 && text[word.start - 1] == 0x27
        guard SecretValue.isCommandPassword(password, isSingleQuoted: isSingleQuoted) else { return nil }
        return (echo, word.start + passwordEnd, "echo 'user:…' | chpasswd (password)")
    }

    /// `ConvertTo-SecureString [-String] 'pw' -AsPlainText`: the string, when `-AsPlainText`
    /// says it is plain text (without it the string is an encrypted standard string, which only
    /// its user's key opens). PowerShell's parameters are in any case and may be shortened.
    static func secureStringPlainText(_ text: Span<UInt8>, _ arguments: [(start: Int, end: Int)]) -> (
        start: Int, end: Int
    )? {
        var string: (start: Int, end: Int)?
        var isPlainText = false
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            let lowered = SecretText.bytes(text, word.start, word.end).map(SecretText.lowercased)
            if lowered.first == SecretText.ascii("-") {
                let name = String(decoding: lowered.dropFirst(), as: UTF8.self)
                if name.count >= 2 && "asplaintext".hasPrefix(name) { isPlainText = true }
                if name == "string", index + 1 < arguments.count {
                    string = string ?? arguments[index + 1]
                    index += 1
                }
            } else if string == nil, lowered.first != SecretText.ascii("["), lowered.first != SecretText.ascii("(") {
                // (Not a cast or an expression: `[string]$x`, `(Get-Content …)`.)
                string = word
            }
            index += 1
        }
        return isPlainText ? string : nil
    }

    /// `htpasswd -b[c…] file user password` (or `-nb user password`): the last positional.
    static func htpasswdPassword(_ text: Span<UInt8>, _ arguments: [(start: Int, end: Int)]) -> (start: Int, end: Int)?
    {
        var flags: [UInt8] = []
        var positionals: [(start: Int, end: Int)] = []
        for word in arguments {
            if text[word.start] == SecretText.ascii("-") && positionals.isEmpty {
                flags += SecretText.bytes(text, word.start + 1, word.end)
            } else {
                positionals.append(word)
            }
        }
        guard flags.contains(SecretText.ascii("b")) else { return nil }
        let needed = flags.contains(SecretText.ascii("n")) ? 2 : 3
        guard positionals.count >= needed else { return nil }
        return positionals[needed - 1]
    }

    /// OpenSSL's `-passin pass:…`, `-passout pass:…`, `-pass pass:…`, `-password pass:…`.
    static func opensslPass(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        var position = start - 1
        guard position > 0, SecretText.isBlank(text[position]) || text[position] == SecretText.ascii("=") else {
            return nil
        }
        while position > 0 && SecretText.isBlank(text[position]) { position -= 1 }
        if text[position] == SecretText.ascii("=") { position -= 1 }
        let optionEnd = position + 1
        while position >= 0 && SecretText.isKey(text[position]) { position -= 1 }
        let option = SecretText.string(text, position + 1, optionEnd)
        guard ["-passin", "-passout", "-pass", "-password", "-srppass", "--passin", "--password"].contains(option)
        else { return nil }
        var valueEnd = end
        let quoted = start > 0 && SecretText.isQuote(text[start - 1]) ? text[start - 1] : nil
        while valueEnd < text.count && !SecretText.isSpace(text[valueEnd])
            && valueEnd - end <= SecretValue.maximumLength
        {
            if let quoted, text[valueEnd] == quoted { break }
            if quoted == nil && SecretText.isQuote(text[valueEnd]) { break }
            valueEnd += 1
        }
        let value = SecretText.bytes(text, end, valueEnd)
        guard SecretValue.isCommandPassword(value) else { return nil }
        return (position + 1, valueEnd, option + " pass:…")
    }

    /// The words of a shell command from `index` to its end (a line break not after `\`, `|`,
    /// `;`, `&&`, `>`), each without its quotes, at most `commandLineReach` bytes.
    static func shellWords(_ text: Span<UInt8>, from index: Int) -> [(start: Int, end: Int)] {
        var words: [(start: Int, end: Int)] = []
        var position = index
        let highest = min(text.count, index + commandLineReach)
        while position < highest {
            let byte = text[position]
            if SecretText.isBlank(byte) {
                position += 1
                continue
            }
            if byte == SecretText.ascii("\\") && position + 1 < highest
                && (text[position + 1] == 0x0a || text[position + 1] == 0x0d)
            {
                position += 2
                if position < highest && text[position] == 0x0a { position += 1 }
                continue
            }
            if byte == 0x0a || byte == 0x0d || byte == SecretText.ascii("|") || byte == SecretText.ascii(";")
                || byte == SecretText.ascii("&") || byte == SecretText.ascii(">") || byte == SecretText.ascii("<")
                || byte == SecretText.ascii(")") || byte == SecretText.ascii("`")
            {
                break
            }
            if byte == 0x22 || byte == 0x27 {
                let quote = byte
                let wordStart = position + 1
                var wordEnd = wordStart
                while wordEnd < highest && text[wordEnd] != quote && text[wordEnd] != 0x0a { wordEnd += 1 }
                guard wordEnd < highest, text[wordEnd] == quote else { break }
                words.append((wordStart, wordEnd))
                position = wordEnd + 1
                continue
            }
            let wordStart = position
            while position < highest && !SecretText.isSpace(text[position]) && text[position] != SecretText.ascii(";")
                && text[position] != SecretText.ascii("|") && text[position] != 0x22 && text[position] != 0x27
                && text[position] != SecretText.ascii("`")
            {
                position += 1
            }
            // `-u'user:pw'`, `--password="pw"`: the quoted rest belongs to the word.
            if position < highest && (text[position] == 0x22 || text[position] == 0x27) {
                let quote = text[position]
                var quoteEnd = position + 1
                while quoteEnd < highest && text[quoteEnd] != quote && text[quoteEnd] != 0x0a { quoteEnd += 1 }
                if quoteEnd < highest && text[quoteEnd] == quote {
                    // Kept as two words: the option and its quoted value.
                    words.append((wordStart, position))
                    words.append((position + 1, quoteEnd))
                    position = quoteEnd + 1
                    continue
                }
            }
            words.append((wordStart, position))
        }
        return words
    }

    // MARK: Cookies

    /// `Cookie: a=b; session=…` or `Set-Cookie: sid=…; Path=/`: a session cookie with a random value.
    static func cookie(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        guard let index = cookieValueStart(text, start, end) else { return nil }
        var lineEnd = index
        while lineEnd < text.count && text[lineEnd] != 0x0a && text[lineEnd] != 0x0d
            && !SecretText.isQuote(text[lineEnd])
            && lineEnd - index <= 8192
        {
            lineEnd += 1
        }
        var pairs = cookiePairs(SecretText.bytes(text, index, lineEnd))
        // Set-Cookie: only the first pair is a cookie; the rest are its attributes.
        if start >= 4 && SecretText.has(text, at: start - 4, "set-", ignoringCase: true) {
            pairs = Array(pairs.prefix(1))
        }
        guard pairs.contains(where: { SecretValue.isRandom($0.value) && SecretName.isSessionCookie($0.name) }) else {
            return nil
        }
        if isCurlCookieOption(text, start) { return (start, lineEnd, SecretText.string(text, start, index) + "…") }
        return (start, lineEnd, SecretText.string(text, start, start + 6) + ": …")
    }

    /// Where the cookies after the trigger at `start..<end` begin: after `Cookie:`, `cookie"`
    /// or `cookie =` (and its blanks and quotes), or right after curl's `-b '` and `--cookie "`
    /// (Chrome's and Firefox's "Copy as cURL" give the cookies that way), whose trigger ends
    /// with the quote.
    static func cookieValueStart(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Int? {
        if isCurlCookieOption(text, start) { return start == 0 || SecretText.isSpace(text[start - 1]) ? end : nil }
        var index = start + 6
        if index < text.count && SecretText.isQuote(text[index]) { index += 1 }
        while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
        guard index < text.count, text[index] == SecretText.ascii(":") || text[index] == SecretText.ascii("=") else {
            return nil
        }
        index += 1
        while index < text.count && (SecretText.isBlank(text[index]) || SecretText.isQuote(text[index])) { index += 1 }
        return index
    }

    /// Whether the cookie row's trigger at `start` is curl's option (`-b '`, `--cookie "`), not a
    /// header's name.
    static func isCurlCookieOption(_ text: Span<UInt8>, _ start: Int) -> Bool {
        text[start] == SecretText.ascii("-")
    }

    /// The `name=value` pairs of a cookie header's value.
    static func cookiePairs(_ value: [UInt8]) -> [(name: [UInt8], value: [UInt8])] {
        value.split(separator: SecretText.ascii(";")).compactMap { part in
            let trimmed = part.drop(while: SecretText.isBlank)
            guard let equals = trimmed.firstIndex(of: SecretText.ascii("=")) else { return nil }
            var cookieValue = Array(trimmed[(equals + 1)...])
            while let last = cookieValue.last, SecretText.isBlank(last) { cookieValue.removeLast() }
            return (Array(trimmed[..<equals]), cookieValue)
        }
    }

    // MARK: SQL, calls and web server directives

    /// `PASSWORD '…'` (PostgreSQL's `CREATE`/`ALTER ROLE`, MySQL's `SET PASSWORD … =` and
    /// `IDENTIFIED BY '…'`): the quoted literal, when it is a plausible password and not a hash
    /// the server stores (`'md5…'`, `'SCRAM-SHA-256$…'`, MySQL's `'*<40 hex>'`: `IDENTIFIED BY
    /// PASSWORD '*…'`).
    static func sqlPassword(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        guard let index = SecretText.closingQuote(text, text[end - 1], from: end, limit: SecretValue.maximumLength + 1)
        else { return nil }
        let value = SecretText.bytes(text, end, index)
        guard SecretValue.isPlausible(value, isQuoted: true, allowsBrackets: true),
            !SecretValue.isStoredPasswordHash(value)
        else {
            return nil
        }
        return (start, index, SecretText.string(text, start, end - 1) + "…")
    }

    /// The calls that take a user and a password: which argument is the password (from 1), a
    /// string literal (those before it may be anything: literals, variables). (.NET's and requests'; each
    /// literal costs the prefilter on every text, PERF(guard-text source code).)
    static let credentialCalls: [(call: String, password: Int)] = [
        ("NetworkCredential(", 2), ("HTTPBasicAuth(", 2), ("HTTPDigestAuth(", 2),
        // A database's connection with a DSN, a user and a password: Perl's DBI, PHP's PDO and
        // mysqli, Java's JDBC. (Not MATLAB's `database(`: its literal put the prefilter's wide
        // plan over prose, PERF(guard-text).)
        ("DBI->connect(", 3), ("new PDO(", 3), ("mysqli_connect(", 3), ("getConnection(", 3),
        // Python's smtplib, imaplib, poplib and ftplib: `server.login("user@…", "pw")`.
        (".login(", 2),
    ]

    /// `NetworkCredential("user", "pw", …)`, `HTTPBasicAuth(user, "pw")`,
    /// `DBI->connect($dsn, 'user', 'pw', …)`.
    static func credentialCall(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        guard let position = credentialCalls.first(where: { SecretText.has(text, at: start, $0.call) })?.password else {
            return nil
        }
        // The call's name is a word of its own (`new NetworkCredential(`, `requests.auth.HTTPBasicAuth(`).
        if text[end - 1] == SecretText.ascii("(") && SecretText.isWord(text[start]) {
            guard SecretText.startsName(text, at: start, after: SecretText.ascii(".")) else { return nil }
        }
        let highest = min(text.count, end + 256)
        var index = end
        func skipBlanks() { while index < highest && SecretText.isBlank(text[index]) { index += 1 } }
        // The arguments before the password: literals, or anything up to a comma outside
        // parentheses.
        for _ in 1..<position {
            skipBlanks()
            guard index < highest else { return nil }
            if SecretText.isQuote(text[index]) {
                guard
                    let closing = SecretText.closingQuote(
                        text, text[index], from: index + 1, limit: highest - index - 1)
                else { return nil }
                index = closing + 1
            } else {
                var depth = 0
                while index < highest && text[index] != 0x0a && !(depth == 0 && text[index] == SecretText.ascii(",")) {
                    if text[index] == SecretText.ascii("(") { depth += 1 }
                    if text[index] == SecretText.ascii(")") {
                        guard depth > 0 else { return nil }
                        depth -= 1
                    }
                    index += 1
                }
            }
            skipBlanks()
            guard index < highest, text[index] == SecretText.ascii(",") else { return nil }
            index += 1
        }
        skipBlanks()
        if index + 1 < highest && isStringPrefix(text[index]) && SecretText.isQuote(text[index + 1]) { index += 1 }
        guard index < highest, SecretText.isQuote(text[index]),
            let valueEnd = SecretText.closingQuote(text, text[index], from: index + 1, limit: highest - index - 1)
        else { return nil }
        let value = SecretText.bytes(text, index + 1, valueEnd)
        guard SecretValue.isCredential(value) else { return nil }
        return (start, valueEnd, SecretText.string(text, start, end) + "…, …)")
    }

    /// The directives of web servers and proxies that set a request header (nginx's, Apache's).
    static let headerDirectives = [
        "proxy_set_header ", "RequestHeader set ",
    ]

    /// `proxy_set_header X-Api-Key "…";` (nginx), `RequestHeader set Authorization "Bearer …"`
    /// (Apache): the header's value, judged
    /// by the header's name as a name/value pair is.
    static func headerDirective(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        let words = shellWords(text, from: end)
        guard words.count >= 2 else { return nil }
        let name = SecretText.bytes(text, words[0].start, words[0].end)
        let value = SecretText.bytes(text, words[1].start, words[1].end)
        guard isNamedCredential(name, value) || isSharedSecretHeader(name, value) else { return nil }
        return (
            start, words[1].end,
            SecretText.string(text, start, end) + SecretText.string(text, words[0].start, words[0].end) + " …"
        )
    }

    /// Whether a header a proxy sets to a literal is a secret it shares with the origin whatever
    /// its name (`X-Origin-Verify`, CloudFront's custom origin header): a random value of 24
    /// characters or more, under a name no word of which says it is an ID, a trace, a version or
    /// a hash (`X-Request-Id`, `X-Build-Commit`: those are variables or fixed and known).
    static func isSharedSecretHeader(_ name: [UInt8], _ value: [UInt8]) -> Bool {
        guard value.count >= 24, SecretValue.isRandom(value) else { return false }
        let parts = SecretName.words(name)
        let harmless: Set<String> = [
            "request", "trace", "correlation", "span", "etag", "nonce", "build", "commit", "revision", "version",
            "cache", "session", "client", "device", "user", "tenant", "region", "host", "forwarded", "real",
        ]
        return !parts.contains(where: {
            harmless.contains($0) || SecretName.harmlessAnywhere.contains($0) || SecretName.harmlessLast.contains($0)
        })
    }

    /// Whether `name` holds a secret and `value` is one, as a name/value pair is judged (a
    /// header directive's, a property list's).
    static func isNamedCredential(_ name: [UInt8], _ value: [UInt8]) -> Bool {
        switch SecretName.verdict(name) {
        case .secret: SecretValue.isCredential(value)
        case .authorization: SecretValue.isAuthorization(value)
        case .none, .cookie: false
        }
    }

    /// A property list's pair (`Info.plist`, an app's settings): `<key>APIKey</key>`, then,
    /// after blanks or a line break, `<string>…</string>`, judged by the key's name as a
    /// name/value pair is. (The trigger is `</key>`.)
    static func plistPair(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        var nameStart = start
        while nameStart > 0 && start - nameStart < maximumKeyLength && text[nameStart - 1] != SecretText.ascii(">")
            && text[nameStart - 1] != 0x0a
        {
            nameStart -= 1
        }
        guard nameStart >= 5, SecretText.has(text, at: nameStart - 5, "<key>") else { return nil }
        var index = end
        while index < text.count && index - end < 64 && SecretText.isSpace(text[index]) { index += 1 }
        guard SecretText.has(text, at: index, "<string>") else { return nil }
        let valueStart = index + 8
        var valueEnd = valueStart
        while valueEnd < text.count && valueEnd - valueStart <= SecretValue.maximumLength
            && text[valueEnd] != SecretText.ascii("<") && text[valueEnd] != 0x0a
        {
            valueEnd += 1
        }
        guard SecretText.has(text, at: valueEnd, "</string>") else { return nil }
        let name = SecretText.bytes(text, nameStart, start)
        guard isNamedCredential(name, SecretText.bytes(text, valueStart, valueEnd)) else { return nil }
        return (nameStart - 5, valueEnd, "<key>" + SecretText.string(text, nameStart, start) + "</key> …")
    }

    /// The lookups of an environment variable that take a default (`os.getenv("X", "…")`,
    /// `os.environ.get("X", "…")`, Ruby's `ENV.fetch("X", "…")`): the default is a literal in
    /// the code. (Not Node's `process.env.X || "…"`: its literal cost the candidate search a
    /// tenth more over log lines, PERF(guard-text).)
    static let environmentLookups = ["getenv(", "environ.get(", "ENV.fetch("]

    /// A literal default for a secret's environment variable: `os.getenv("API_KEY", "…")`. The
    /// variable's name must hold a secret, and the default be one.
    static func environmentDefault(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        let highest = min(text.count, end + 512)
        var index = end
        func skipBlanks() { while index < highest && SecretText.isBlank(text[index]) { index += 1 } }
        guard index < highest, SecretText.isQuote(text[index]),
            let nameEnd = SecretText.closingQuote(text, text[index], from: index + 1, limit: maximumKeyLength)
        else { return nil }
        let nameStart = index + 1
        index = nameEnd + 1
        skipBlanks()
        guard index < highest, text[index] == SecretText.ascii(",") else { return nil }
        index += 1
        skipBlanks()
        guard nameEnd > nameStart, index < highest, SecretText.isQuote(text[index]),
            let valueEnd = SecretText.closingQuote(text, text[index], from: index + 1, limit: highest - index - 1),
            // (The value's length before the name's words: most defaults are empty or short,
            // `os.environ.get('TMPDIR', '')`, PERF(guard-text source code).)
            valueEnd - index - 1 >= SecretValue.minimumLength,
            SecretName.verdict(SecretText.bytes(text, nameStart, nameEnd)) == .secret,
            SecretValue.isCredential(SecretText.bytes(text, index + 1, valueEnd))
        else { return nil }
        return (start, valueEnd, SecretText.string(text, start, nameEnd) + " default …")
    }

    /// A cookie made in code, its name and value the call's first two literals: .NET's
    /// `System.Net.Cookie("sessionid", "…", "/", "host")` (Chrome's "Copy as PowerShell" writes
    /// every cookie of the request so). A session's cookie with a random value, as in a header.
    static func cookieCall(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        let highest = min(text.count, end + 512)
        var index = end
        while index < highest && SecretText.isBlank(text[index]) { index += 1 }
        guard index < highest, SecretText.isQuote(text[index]),
            let nameEnd = SecretText.closingQuote(text, text[index], from: index + 1, limit: maximumKeyLength)
        else { return nil }
        let name = SecretText.bytes(text, index + 1, nameEnd)
        index = nameEnd + 1
        while index < highest && SecretText.isBlank(text[index]) { index += 1 }
        guard index < highest, text[index] == SecretText.ascii(",") else { return nil }
        index += 1
        while index < highest && SecretText.isBlank(text[index]) { index += 1 }
        guard index < highest, SecretText.isQuote(text[index]),
            let valueEnd = SecretText.closingQuote(text, text[index], from: index + 1, limit: highest - index - 1),
            SecretName.isSessionCookie(name), SecretValue.isRandom(SecretText.bytes(text, index + 1, valueEnd))
        else { return nil }
        return (
            start, valueEnd,
            SecretText.string(text, start, end) + "\"" + String(decoding: name, as: UTF8.self) + "\", …)"
        )
    }

    /// OpenWrt's UCI: `option key '…'` (a Wi-Fi network's passphrase) and `option password '…'`,
    /// quoted or not: a plausible password, or a passphrase of words in quotes.
    static func uciOption(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        if text[start] == SecretText.ascii(".") {
            // `uci show`'s form, `wireless.<section>.key='…'`: the line starts with the section's
            // path. (`key` of any other config is a lookup's, a certificate's file, a name.)
            guard let lineStart = SecretText.lineStart(text, of: start, within: 80),
                SecretText.has(text, at: lineStart, "wireless."),
                (lineStart + 9..<start).allSatisfy({ SecretText.isWord(text[$0]) })
            else { return nil }
        } else {
            guard start == 0 || SecretText.isSpace(text[start - 1]) else { return nil }
        }
        let quote: UInt8? = end < text.count && SecretText.isQuote(text[end]) ? text[end] : nil
        let valueStart = quote == nil ? end : end + 1
        var index = valueStart
        if let quote {
            guard
                let closing = SecretText.closingQuote(
                    text, quote, from: valueStart, limit: SecretValue.maximumLength + 1)
            else { return nil }
            index = closing
        } else {
            while index < text.count && !SecretText.isSpace(text[index])
                && index - valueStart <= SecretValue.maximumLength
            {
                index += 1
            }
        }
        let value = SecretText.bytes(text, valueStart, index)
        guard
            SecretValue.isPlausible(value, isQuoted: true, allowsBrackets: quote != nil)
                || quote != nil && SecretValue.isPassphrase(value)
        else {
            return nil
        }
        return (start, index, SecretText.string(text, start, end - 1) + " …")
    }
}
