import PasteCore

extension SecretRule {
    /// Every kind the guard knows, once: its triggers, its format and its context.
    ///
    /// The formats follow the issuers' published shapes, as collected by detect-secrets'
    /// plugins and gitleaks' rules (checked against both; the code is our own). A token must
    /// start a word, but `_` and `-` may glue it to one (`my_ghp_…`), and a terminal escape
    /// (`\e[32m`), a JSON escape (`\n`) or a URL escape (`%3D`) right before it counts as a
    /// word break. Key-and-value kinds skip placeholders (`xxx`, `changeme`, `${VAR}`).
    static let table: [SecretRule] = [
        // MARK: Private keys
        SecretRule(.privateKey, ["-----BEGIN ", "---- BEGIN SSH2 "], .privateKeyBlock),
        SecretRule(.pgpPrivateKey, ["-----BEGIN PGP PRIVATE KEY BLOCK-----"], .pgpBlock),
        SecretRule(.puttyPrivateKey, ["PuTTY-User-Key-File-"], .puttyKeyFile),
        SecretRule(
            .ageSecretKey, ["AGE-SECRET-KEY-1"],
            .token(.run(SecretAlphabet("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"), 58...58))),

        // MARK: Cloud providers
        SecretRule(
            .awsAccessKeyID, ["AKIA", "ASIA", "ABIA", "ACCA"],
            .token(.run(.upperAlphanumeric, 16...16, .notAWSExample))),
        SecretRule(.awsAccessKeyID, ["A3T"], .token(.run(.upperAlphanumeric, 17...17, .notAWSExample))),
        .assignment(
            .awsSecretAccessKey, keys: ["aws_secret_access_key", "secret_access_key", "aws_secret_key"],
            value: .base64(count: 40), rank: .context),
        // (A Firebase app's key in its config is public by design: `SecretRule.isPublicByDesign`.)
        SecretRule(.googleAPIKey, ["AIza"], .token(.run(.base64URL, 35...35))),
        SecretRule(.googleOAuthToken, ["ya29."], .token(.run(.base64URL, 20...4096, .letterAndDigit))),
        SecretRule(.googleOAuthClientSecret, ["GOCSPX-"], .token(.run(.base64URL, 28...28))),
        SecretRule(
            .azureStorageKey, ["AccountKey=", "SharedAccessKey="],
            .token(TokenFormat([.run(.base64, 40...100)], .mixedCaseAndDigit, startsWord: false))),
        SecretRule(.azureSASToken, ["sig="], .azureSignature, rank: .context),
        SecretRule(
            .azureClientSecret, ["Q~"],
            .token(
                TokenFormat(
                    leading: .run(SecretAlphabet("a-zA-Z0-9_~."), 4...4),
                    [.run(SecretAlphabet("a-zA-Z0-9_~.-"), 31...34)],
                    .digitBeforeLiteral))),
        SecretRule(.digitalOceanToken, ["dop_v1_", "doo_v1_", "dor_v1_"], .token(.run(.lowerHex, 64...64))),
        SecretRule(.vaultToken, ["hvs.", "hvb.", "hvr."], .token(.run(.base64URL, 24...300))),
        SecretRule(
            .terraformToken, [".atlasv1."],
            .token(
                TokenFormat(leading: .run(.alphanumeric, 14...14), [.run(SecretAlphabet("a-zA-Z0-9_=-"), 60...70)]))),
        SecretRule(
            .dopplerToken, ["dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."],
            .token(.run(.alphanumeric, 40...44))),
        // A service token names its environment (Doppler's "Auth Token Formats": `dp.st.dev.…`).
        SecretRule(
            .dopplerToken, ["dp.st."],
            .token(
                TokenFormat([.run(SecretAlphabet("a-z0-9_-"), 2...35), .literal("."), .run(.alphanumeric, 40...44)]))),
        SecretRule(.databricksToken, ["dapi"], .token(.run(.lowerHex, 32...32, .letterAndDigit))),
        SecretRule(.vaultUnsealKey, ["Unseal Key", "operator unseal"], .vaultUnseal, rank: .context),
        // (Its own trigger: `key` is everywhere, and the secret row already looks at it.)
        .assignment(
            .vaultUnsealKey, keys: ["unseal_key"], triggers: ["unseal_key", "unsealkey", "unseal-key"],
            value: .plausible(minimumLength: 40), rank: .context),
        // Okta's API tokens: `00` and forty characters, sent as `Authorization: SSWS <token>`.
        SecretRule(
            .oktaToken, ["SSWS "],
            .token(TokenFormat([.literal("00"), .run(.base64URL, 40...40)], .mixedCaseAndDigit))),

        // MARK: Code hosting and package registries
        SecretRule(
            .gitHubToken, ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
            .token(.run(.alphanumeric, 36...36, .gitHubChecksum))
        ),
        SecretRule(
            .gitHubToken, ["github_pat_"],
            .token(TokenFormat([.run(.alphanumeric, 22...22), .literal("_"), .run(.alphanumeric, 59...59)]))),
        SecretRule(
            .gitLabToken,
            [
                "glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-", "glimt-", "glcbt-", "gloas-", "glagent-",
                "glffct-",
            ],
            .token(.run(.base64URL, 20...1024, .letterAndDigitOrMixedCase))),
        SecretRule(.gitLabToken, ["GR1348941"], .token(.run(.base64URL, 20...64, .letterAndDigitOrMixedCase))),
        SecretRule(.npmToken, ["npm_"], .token(.run(.alphanumeric, 36...36, .letterAndDigit))),
        SecretRule(
            .pyPIToken, ["pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw"], .token(.run(.base64URL, 50...4096))),
        SecretRule(.rubyGemsToken, ["rubygems_"], .token(.run(.lowerHex, 48...48))),
        SecretRule(.dockerHubToken, ["dckr_pat_"], .token(.run(.base64URL, 24...40, .letterAndDigit))),
        SecretRule(.huggingFaceToken, ["hf_"], .token(.run(.letters, 34...34, .mixedCase))),
        // `_auth` starts its line or follows a registry (`//host/:_auth=`): `self._auth` is code.
        SecretRule(.npmAuth, ["\n_auth", ":_auth", "\"_auth", "'_auth", " _auth="], .npmAuth, rank: .context),

        // MARK: Payments, messaging and other services
        SecretRule(.stripeKey, ["sk_live_", "rk_live_"], .token(.run(.alphanumeric, 20...255, .letterAndDigit))),
        SecretRule(.squareToken, ["sq0atp-"], .token(.run(.base64URL, 22...60))),
        SecretRule(.squareToken, ["sq0csp-"], .token(.run(.base64URL, 40...50))),
        SecretRule(.squareToken, ["EAAA"], .token(.run(.base64URL, 40...100, .mixedCaseAndDigit))),
        SecretRule(.shopifyToken, ["shpat_", "shpca_", "shppa_", "shpss_"], .token(.run(.hex, 32...32))),
        SecretRule(
            .slackToken, ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe-", "xoxe.", "xapp-"],
            .token(.run(SecretAlphabet("a-zA-Z0-9-"), 10...255, .letterAndDigit))),
        SecretRule(
            .slackWebhook, ["hooks.slack.com/"],
            .token(TokenFormat([.run(SecretAlphabet("a-zA-Z0-9_/+"), 30...255)], .letterAndDigit, startsWord: false))),
        SecretRule(
            .discordBotToken, ["MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"],
            .token(
                TokenFormat(
                    [
                        .run(.base64URL, 22...24), .literal("."), .run(.base64URL, 6...6), .literal("."),
                        .run(.base64URL, 27...38),
                    ], .discordUserID))),
        SecretRule(
            .discordWebhook, ["/api/webhooks/"],
            .token(
                TokenFormat(
                    [.run(.digits, 17...20), .literal("/"), .run(.base64URL, 60...80)],
                    .afterHost(["discord.com", "discordapp.com"]), startsWord: false))),
        SecretRule(
            .telegramBotToken, [":AA"],
            .token(TokenFormat(leading: .run(.digits, 8...10), [.run(.base64URL, 33...33)], glue: ["bot"]))),
        SecretRule(.twilioAPIKey, ["SK"], .token(.run(.hex, 32...32, .letterAndDigit))),
        SecretRule(
            .sendGridKey, ["SG."],
            .token(TokenFormat([.run(.base64URL, 22...22), .literal("."), .run(.base64URL, 43...43)]))),
        SecretRule(.mailgunKey, ["key-"], .token(.run(.lowerHex, 32...32, .letterAndDigit))),
        SecretRule(
            .mailchimpKey, ["-us"],
            .token(TokenFormat(leading: .run(.lowerHex, 32...32), [.run(.digits, 1...2)]))),
        SecretRule(
            .postmanKey, ["PMAK-"],
            .token(TokenFormat([.run(.hex, 24...24), .literal("-"), .run(.hex, 34...34)]))),
        SecretRule(
            .openAIKey, ["sk-"], .token(TokenFormat([.run(.base64URL, 32...255)], .notFollowedBy(["ant-"])))),
        SecretRule(.anthropicKey, ["sk-ant-"], .token(.run(.base64URL, 80...255, .letterAndDigit))),
        SecretRule(.linearAPIKey, ["lin_api_"], .token(.run(.alphanumeric, 40...40, .mixedCaseAndDigit))),
        // Atlassian API tokens (2023 on): `ATATT3`, a long base64url run, `=` and eight hex digits.
        SecretRule(
            .atlassianToken, ["ATATT3"],
            .token(
                TokenFormat(
                    [.run(.base64URL, 150...250), .literal("="), .run(SecretAlphabet("A-F0-9"), 8...8)],
                    .mixedCaseAndDigit))),
        // Notion integration tokens: `ntn_`, eleven digits and thirty-five characters.
        SecretRule(.notionToken, ["ntn_"], .token(.run(.alphanumeric, 46...46, .mixedCaseAndDigit))),
        // Figma personal access tokens (2023 on): `figd_` and a base64url run (Figma's developer
        // docs, "Access tokens"; gitleaks and CredSweeper read forty-odd characters).
        SecretRule(.figmaToken, ["figd_"], .token(.run(.base64URL, 38...48, .letterAndDigit))),
        // New Relic (docs.newrelic.com, "API keys"): user keys `NRAK-` and 27 upper-case
        // characters, admin `NRAA-`, insert `NRII-` (32), browser `NRJS-` (19 hex), and license
        // keys that end in `NRAL` after 36 hex digits.
        SecretRule(.newRelicKey, ["NRAK-", "NRAA-"], .token(.run(.upperAlphanumeric, 27...27, .letterAndDigit))),
        SecretRule(.newRelicKey, ["NRII-"], .token(.run(SecretAlphabet("a-zA-Z0-9_-"), 32...32, .letterAndDigit))),
        SecretRule(.newRelicKey, ["NRJS-"], .token(.run(.lowerHex, 19...19, .letterAndDigit))),
        SecretRule(
            .newRelicKey, ["NRAL"],
            .token(TokenFormat(leading: .run(.lowerHex, 36...36), []))),
        // Amazon Bedrock API keys (AWS docs, "Generate Amazon Bedrock API keys", 2025): the
        // long-term key is `ABSK` and the base64 of `BedrockAPIKey-<id>:<secret>`; the short-term
        // one `bedrock-api-key-` and the base64 of a presigned URL for bedrock.amazonaws.com.
        SecretRule(
            .awsBedrockKey, ["ABSKQmVkcm9ja0FQSUtle"],
            .token(.run(SecretAlphabet("A-Za-z0-9+/="), 90...400, .mixedCaseAndDigit))),
        SecretRule(
            .awsBedrockKey, ["bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t"],
            .token(.run(SecretAlphabet("A-Za-z0-9+/="), 40...8000))),
        // 1Password (developer.1password.com, "Service accounts"; "About your Secret Key"): a
        // service-account token is `ops_` and the base64 of a JSON object (`eyJ…`), 600 to 900
        // characters; a Secret Key `A3-`, six characters, and five or six more groups.
        SecretRule(.onePasswordToken, ["ops_eyJ"], .token(.run(SecretAlphabet("A-Za-z0-9+/=_-"), 250...8000))),
        SecretRule(
            .onePasswordSecretKey, ["A3-"],
            .token(
                TokenFormat(
                    [
                        .run(.upperAlphanumeric, 6...6), .literal("-"), .run(.upperAlphanumeric, 6...6),
                        .literal("-"), .run(.upperAlphanumeric, 5...5), .literal("-"),
                        .run(.upperAlphanumeric, 5...5), .literal("-"), .run(.upperAlphanumeric, 5...5),
                        .literal("-"), .run(.upperAlphanumeric, 5...5),
                    ], .letterAndDigit))),
        SecretRule(
            .onePasswordSecretKey, ["A3-"],
            .token(
                TokenFormat(
                    [
                        .run(.upperAlphanumeric, 6...6), .literal("-"), .run(.upperAlphanumeric, 11...11),
                        .literal("-"), .run(.upperAlphanumeric, 5...5), .literal("-"),
                        .run(.upperAlphanumeric, 5...5), .literal("-"), .run(.upperAlphanumeric, 5...5),
                    ], .letterAndDigit))),
        // Tailscale (tailscale.com/kb/1085, "Auth keys"; 1101, "API"): `tskey-<kind>-`, the
        // key's id (ending `CNTRL` for most), `-` and the secret.
        SecretRule(
            .tailscaleKey, ["tskey-auth-", "tskey-api-", "tskey-client-", "tskey-scim-", "tskey-webhook-"],
            .token(
                TokenFormat(
                    [.run(.alphanumeric, 6...40), .literal("-"), .run(.alphanumeric, 16...80)], .letterAndDigit))),
        // Fly.io (fly.io/docs, "Access tokens"): org tokens `fo1_` and 43 base64url characters;
        // macaroons `fm1a_`, `fm1r_`, `fm2_` and long base64 (sent as `FlyV1 fm2_…,fm2_…`).
        SecretRule(.flyToken, ["fo1_"], .token(.run(.base64URL, 43...43, .letterAndDigit))),
        SecretRule(
            .flyToken, ["fm1a_", "fm1r_", "fm2_"],
            .token(.run(SecretAlphabet("A-Za-z0-9+/="), 100...8000, .mixedCaseAndDigit))),
        // Grafana (grafana.com/docs, "Service accounts"; "Cloud access policies"): service-account
        // tokens `glsa_`, 32 characters, `_` and an eight-hex checksum; Cloud tokens `glc_` and
        // base64; legacy API keys the base64 of `{"k":"…`.
        SecretRule(
            .grafanaToken, ["glsa_"],
            .token(TokenFormat([.run(.alphanumeric, 32...32), .literal("_"), .run(.hex, 8...8)], .letterAndDigit))),
        SecretRule(
            .grafanaToken, ["glc_"], .token(.run(SecretAlphabet("A-Za-z0-9+/="), 32...400, .mixedCaseAndDigit))),
        SecretRule(.grafanaToken, ["eyJrIjoi"], .token(.run(SecretAlphabet("A-Za-z0-9="), 50...400, .letterAndDigit))),
        // Azure DevOps personal access tokens since 2024 (Microsoft's "common annotated security
        // key" format, 84 characters): 52 random, `JQQJ99`, 18 more, `AZDO` and four.
        SecretRule(
            .azureDevOpsToken, ["JQQJ99"],
            .token(
                TokenFormat(
                    leading: .run(.alphanumeric, 52...52), [.run(.alphanumeric, 26...26)],
                    .marker(at: 18, "AZDO")))),
        // Alibaba Cloud (alibabacloud.com help, "Create an AccessKey pair"): AccessKey IDs are
        // `LTAI` and twelve to twenty characters (24 in all today), reported as AWS key ids are.
        SecretRule(.alibabaAccessKeyID, ["LTAI"], .token(.run(.alphanumeric, 12...20, .mixedCaseAndDigit))),
        // Sentry (docs.sentry.io, "Auth Tokens", 2023 on): user tokens `sntryu_` and 64 hex
        // digits; organization tokens `sntrys_`, the base64 of their JSON claims (`eyJ…`), `_`
        // and the secret.
        SecretRule(.sentryToken, ["sntryu_"], .token(.run(.lowerHex, 64...64, .letterAndDigit))),
        SecretRule(
            .sentryToken, ["sntrys_eyJ"], .token(.run(SecretAlphabet("A-Za-z0-9+/=_"), 60...1024, .mixedCaseAndDigit))),
        // Render (render.com/docs/api, "API keys"): `rnd_` and a run of letters and digits.
        SecretRule(.renderAPIKey, ["rnd_"], .token(.run(.alphanumeric, 24...48, .mixedCaseAndDigit))),
        SecretRule(.groqKey, ["gsk_"], .token(.run(.alphanumeric, 52...52, .mixedCaseAndDigit))),
        SecretRule(.replicateToken, ["r8_"], .token(.run(.alphanumeric, 37...37, .mixedCaseAndDigit))),
        // SonarQube 9.5 on and SonarCloud (docs.sonarsource.com, "Managing your tokens"): `squ_`
        // user, `sqp_` project and `sqa_` global analysis tokens, each with 40 hex digits.
        SecretRule(.sonarQubeToken, ["squ_", "sqp_", "sqa_"], .token(.run(.lowerHex, 40...40, .letterAndDigit))),
        // Firebase Cloud Messaging's legacy server keys (firebase.google.com, "Migrate from legacy
        // FCM APIs"): an eleven-character id (`AAAA…`), `:APA91b` and a base64url run.
        SecretRule(
            .firebaseServerKey, [":APA91b"],
            .token(TokenFormat(leading: .run(.base64URL, 11...11), [.run(.base64URL, 100...200)]))),

        // MARK: Recognised by their shape or their context
        SecretRule(.jsonWebToken, ["eyJ"], .jsonWebToken),
        SecretRule(.basicAuthHeader, ["authorization"], ignoringCase: true, .basicAuthorization, rank: .context),
        SecretRule(.bearerToken, ["authorization"], ignoringCase: true, .bearerAuthorization, rank: .context),
        SecretRule(.urlCredentials, ["://"], .urlCredentials, rank: .context),
        SecretRule(.dockerAuth, ["\"auth\""], .dockerAuth, rank: .context),
        SecretRule(.netrcPassword, ["password"], .netrc, rank: .context),
        SecretRule(
            .pgpassPassword, [":*", ":0", ":1", ":2", ":3", ":4", ":5", ":6", ":7", ":8", ":9"], .pgpass,
            rank: .context),
        SecretRule(.connectionString, ["password", "pwd"], ignoringCase: true, .connectionString, rank: .context),
        // `pass` only as the last part of a key (`DB_PASS`): Python's `pass` is everywhere.
        // `authtok` is sssd's (`ldap_default_authtok`), `bindpw` nslcd's and ldap.conf's.
        .assignment(
            .passwordAssignment, keys: ["password", "passwd", "pwd", "passphrase", "pass", "authtok", "bindpw", "psk"],
            // (`pass` alone only starting a line: as a trigger of its own, in any case, it cost
            // the prefilter a pair in every `path=` of a log line; PERF(guard-text log lines).)
            triggers: [
                "password", "passwd", "pwd", "passphrase", "_pass", "-pass", "\npass", "authtok", "bindpw",
                "psk",
            ],
            value: .plausible(minimumLength: SecretValue.minimumLength)),
        // nslcd.conf and ldap.conf write `bindpw <password>`, with no `=`.
        SecretRule(.passwordAssignment, ["bindpw", "rootpwmodpw"], .lineKeyword),
        // postfix's sasl_passwd: `[smtp.example.com]:587 user:password`.
        // (The port's first digit is in the trigger: `]:` alone is every Python slice.)
        SecretRule(.passwordAssignment, ["]:25", "]:46", "]:58"], .saslPassword, rank: .context),
        .assignment(
            .secretAssignment,
            keys: [
                "secret", "secret_key", "api_key", "api_secret", "access_token", "auth_token", "api_token",
                "secret_token", "bearer_token", "refresh_token", "private_key", "client_secret", "token",
                // Issue 42: names that hold a secret as surely (`X-Auth-Key`, `DD-APPLICATION-KEY`,
                // `"AccountKey":`, Rails' `secret_key_base`, Laravel's `APP_KEY`, `credentials`).
                "auth_key", "application_key", "app_key", "account_key", "master_key", "signing_key",
                "encryption_key", "secret_key_base", "credentials", "credential", "creds",
            ],
            // (One row for all, so a `key` is looked at once: `key_base` ends Rails' name.)
            triggers: ["secret", "key", "token", "key_base", "credentials", "credential", "creds"],
            // API keys and tokens are long; short values are flags, versions and grammar.
            value: .plausible(minimumLength: 8)),

        // MARK: The structural layer (issue 42: SecretRule+Structure.swift, SecretName.swift)
        // A value field whose object names a secret: HAR, Postman, Kubernetes `env`, Terraform
        // state, HCL `{ name = …, value = … }`, XML `<add key="…" value="…"/>`.
        SecretRule(
            // (No `value=` spelling without a blank before it: its pair would be the `e=` of every
            // `key=value` log line; PERF(guard-text log lines).)
            .namedSecret, ["\"value\"", "\"Value\"", "value:", "Value:", "value =", " value=\"", " Value=\""],
            .namedPair, rank: .context),
        // A Terraform `random_password`'s result in a state file.
        SecretRule(.namedSecret, ["\"random_password\""], .terraformRandomPassword, rank: .context),
        // The password options of common clients (`curl -u user:pw`, `mysql -pPW`, …).
        SecretRule(.commandLinePassword, SecretRule.commandTriggers.map(\.0), .commandLine, rank: .context),
        // Session cookies in `Cookie:` and `Set-Cookie:` headers (and `document.cookie =`), and
        // curl's `-b '…'` and `--cookie "…"` ("Copy as cURL" in Chrome and Firefox).
        // (Spelled out, not in any case: PERF(guard-text), as for `pass`.)
        SecretRule(
            .sessionCookie,
            ["Cookie:", "cookie:", "COOKIE:", "Cookie\"", "cookie\"", "-b '", "-b \"", "--cookie '", "--cookie \""],
            .cookie, rank: .context),
        // Names that hold a key as often as an identifier: the value must look random. Every
        // qualifier of `SecretName` (`routing`, `storage`, `primary`, …) with `_key` after it.
        .assignment(
            .secretAssignment, keys: SecretName.keyQualifiers.sorted().map { $0 + "_key" },
            triggers: ["key"], value: .random(minimumLength: SecretValue.minimumRandomLength)),
        // msmtprc, fetchmailrc and the like: `password <value>` on a line of its own.
        SecretRule(.passwordAssignment, ["password", "passwd"], .lineKeyword, rank: .generic),
        // SQL: `CREATE ROLE … PASSWORD '…'`, `IDENTIFIED BY '…'`.
        SecretRule(
            // (In SQL's upper case, as pg_dump and mysqldump write it.)
            // (And SQL Server's `CREATE LOGIN … WITH PASSWORD = N'…'`.)
            .passwordAssignment, ["PASSWORD '", "IDENTIFIED BY '", "PASSWORD = N'", "PASSWORD = '"],
            .sqlPassword, rank: .context),
        // A credential's constructor: `NetworkCredential("u", "pw")`, `HTTPBasicAuth("u", "pw")`.
        SecretRule(.passwordAssignment, SecretRule.credentialCalls.map(\.call), .credentialCall, rank: .context),
        // OpenWrt's UCI: `option key '…'` (Wi-Fi), `option password '…'`; `uci show`'s
        // `wireless.default_radio0.key='…'`.
        SecretRule(.passwordAssignment, ["option key ", "option password ", ".key="], .uciOption, rank: .context),
        // A request header set by a web server or proxy: `proxy_set_header X-Api-Key "…";`.
        SecretRule(.namedSecret, SecretRule.headerDirectives, .headerDirective, rank: .context),
        // Any environment variable's `…_KEY` with a long random value (`INGEST_KEY`, `UPSTREAM_API_KEY`).
        .assignment(
            .secretAssignment, keys: ["key"], triggers: ["key"], value: .randomUnderEnvironmentKey(minimumLength: 32)),
        // A secret's value in a field of its own, beside its name's: Proxmox's `token_name:` and
        // `token_value:`, a form's `secretValue`; the value must look random.
        .assignment(
            .secretAssignment, keys: ["token_value", "secret_value", "tokenvalue", "secretvalue"],
            triggers: ["token_value", "secret_value", "tokenValue", "secretValue"], ignoringCase: false,
            value: .random(minimumLength: SecretValue.minimumRandomLength)),
        // A secret named with its encoding after it: `WEBHOOK_SECRET_B64`, `SIGNING_KEY_HEX`,
        // `api_token_base64`; the value must look random.
        .assignment(
            .secretAssignment,
            keys: ["_b64", "_hex", "_base64"].flatMap { encoding in
                (["secret", "token", "password"] + SecretName.keyQualifiers.sorted().map { $0 + "_key" }).map {
                    $0 + encoding
                }
            },
            // (Spelled as constants and environment variables are, not in any case: `_hex` in any
            // case put the prefilter's narrow plan over the bench's prose, PERF(guard-text).)
            triggers: ["_B64", "_HEX", "_BASE64"], ignoringCase: false,
            value: .random(minimumLength: SecretValue.minimumRandomLength)),
        // Consul's gossip key: `"encrypt": "<base64 of 32 bytes>"` (`consul keygen`).
        .assignment(.secretAssignment, keys: ["encrypt"], triggers: ["encrypt"], value: .base64(count: 44)),
        // A property list's `<key>APIKey</key>` `<string>…</string>` (Info.plist).
        SecretRule(.namedSecret, ["</key>"], .plistPair, rank: .context),
        // A secret's environment variable with a literal default: `os.getenv("API_KEY", "…")`.
        SecretRule(.namedSecret, SecretRule.environmentLookups, .environmentDefault, rank: .context),
        // A session cookie made in code: `System.Net.Cookie("sessionid", "…")` (Copy as PowerShell).
        SecretRule(.sessionCookie, ["System.Net.Cookie("], .cookieCall, rank: .context),
        // A chat line: "user is admin, password is …", "pw: `…`", "log in as qa with password …",
        // "pw for the router is …", a mail's "the password below" and the line under it;
        // a Cisco IOS configuration's clear-text (type 0) password, `username ops privilege 15
        // password 0 …`, and a TACACS+ or RADIUS server's shared key, `key 0 …`; EdgeOS's and
        // VyOS's `authentication plaintext-password …`.
        SecretRule(
            .passwordAssignment,
            [
                "password is ", "Password is ", "pw is ", "pw: ", "password 0 ", "secret 0 ", "key 0 ",
                "with password ",
                "with the password ", "plaintext-password ", "pw for ", "password for ", "password below",
            ],
            .proseKeyword, rank: .generic),
        // Windows' answer file (`<AdministratorPassword><Value>…</Value>`), FileZilla's site
        // manager (`<Pass encoding="base64">…</Pass>`).
        SecretRule(.passwordAssignment, ["<Value>", "<Pass"], .xmlPassword, rank: .context),
        // A Netscape cookie file (curl's cookie jar, a browser extension's `cookies.txt`), by its
        // first line. (Not by its `\tTRUE\t` fields: their literals cost the candidate search 5 %
        // more over the bench's log lines, PERF(guard-text).)
        SecretRule(.sessionCookie, ["HTTP Cookie File"], .cookieFile, rank: .context),
        // A password manager's or a browser's CSV export: the column its header names.
        SecretRule(.passwordAssignment, SecretRule.csvPasswordTriggers, .csvPassword, rank: .context),
        // Go's MySQL data source name: `user:password@tcp(host:3306)/db`.
        SecretRule(.connectionString, ["@tcp("], .goDataSource, rank: .context),
        // And "login is zoe / …", "account is admin / …".
        SecretRule(.passwordAssignment, ["login is ", "Login is ", "account is "], .proseLogin, rank: .generic),

        // MARK: Encodings undone around their triggers (SecretDecoding)
        .decoding(.jsonEscapes),
        .decoding(.percentEncoding),
        .decoding(.base64Values),
        .decoding(.controlSequences),
        .decoding(.yamlBlockScalar),
        .decoding(.boxTable),
    ]

    /// A row that decodes the region around its triggers and scans what it decodes with the
    /// whole table; what it reports is the kind found there (the row's own `pattern` is not
    /// used).
    static func decoding(_ decoding: SecretDecoding) -> SecretRule {
        SecretRule(.privateKey, decoding.triggers, .decoded(decoding))
    }
}
