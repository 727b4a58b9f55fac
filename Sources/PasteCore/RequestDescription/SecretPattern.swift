/// A kind of secret the secret guard recognises.
///
/// How each kind is recognised (its trigger literals, format and context) is one row of
/// `SecretRule.table` (SecretPattern+Table.swift); the scanner's prefilter is derived from that
/// table. The raw values name the kinds in fixtures and scripts (`github-token`); they are stable.
public enum SecretPattern: String, Sendable, CaseIterable, Codable {
    // MARK: Private keys
    /// `-----BEGIN … PRIVATE KEY-----` (PKCS#1 RSA, SEC1 EC, DSA, PKCS#8, encrypted, OpenSSH,
    /// ssh.com's `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`, OpenVPN static keys).
    case privateKey = "private-key"
    /// `-----BEGIN PGP PRIVATE KEY BLOCK-----`.
    case pgpPrivateKey = "pgp-private-key"
    /// A PuTTY key file: `PuTTY-User-Key-File-2:` or `-3:` and an algorithm name.
    case puttyPrivateKey = "putty-private-key"
    /// An age identity: `AGE-SECRET-KEY-1` and 58 bech32 characters.
    case ageSecretKey = "age-secret-key"

    // MARK: Cloud providers
    /// An AWS access key id: `AKIA`, `ASIA`, `ABIA`, `ACCA` or `A3T…` and sixteen upper-case
    /// letters or digits.
    case awsAccessKeyID = "aws-access-key-id"
    /// An AWS secret access key: forty base64 characters assigned to `aws_secret_access_key`.
    case awsSecretAccessKey = "aws-secret-access-key"
    /// A Google API key: `AIza` and thirty-five characters.
    case googleAPIKey = "google-api-key"
    /// A Google OAuth access token: `ya29.` and a long base64url run.
    case googleOAuthToken = "google-oauth-token"
    /// A Google OAuth client secret: `GOCSPX-` and twenty-eight characters.
    case googleOAuthClientSecret = "google-oauth-client-secret"
    /// An Azure storage account or Service Bus key: `AccountKey=` or `SharedAccessKey=` and base64.
    case azureStorageKey = "azure-storage-key"
    /// An Azure shared access signature: `sig=` in a query that also names `sv=` (the version).
    case azureSASToken = "azure-sas-token"
    /// An Azure AD (Entra) client secret: three characters, a digit, `Q~` and 31 to 34 more.
    case azureClientSecret = "azure-client-secret"
    /// A DigitalOcean token: `dop_v1_`, `doo_v1_` or `dor_v1_` and 64 hex digits.
    case digitalOceanToken = "digitalocean-token"
    /// A HashiCorp Vault token: `hvs.`, `hvb.` or `hvr.` and ninety or more characters.
    case vaultToken = "vault-token"
    /// A Terraform Cloud token: fourteen characters, `.atlasv1.` and sixty or more.
    case terraformToken = "terraform-token"
    /// A Doppler token: `dp.pt.`, `dp.st.`, `dp.ct.`, `dp.sa.` and forty-odd characters.
    case dopplerToken = "doppler-token"
    /// A Databricks personal access token: `dapi` and 32 hex digits.
    case databricksToken = "databricks-token"
    /// A HashiCorp Vault unseal key (a Shamir share of the root key): the base64 or hex after
    /// `vault operator unseal` or `Unseal Key 1:`, or assigned to `…UNSEAL_KEY`.
    case vaultUnsealKey = "vault-unseal-key"
    /// An Okta API token: `SSWS` and `00` and forty characters, in an `Authorization` header.
    case oktaToken = "okta-token"

    // MARK: Code hosting and package registries
    /// A GitHub token: `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` with a valid CRC32 tail, or
    /// `github_pat_` (fine-grained).
    case gitHubToken = "github-token"
    /// A GitLab token: `glpat-`, `gldt-`, `glrt-`, `glptt-` and the other `gl…-` prefixes, or a
    /// runner registration token `GR1348941…`.
    case gitLabToken = "gitlab-token"
    /// An npm access token: `npm_` and thirty-six characters.
    case npmToken = "npm-token"
    /// A PyPI API token: `pypi-AgEI…` (a macaroon for pypi.org or test.pypi.org).
    case pyPIToken = "pypi-token"
    /// A RubyGems API key: `rubygems_` and 48 hex digits.
    case rubyGemsToken = "rubygems-token"
    /// A Docker Hub personal access token: `dckr_pat_` and twenty-seven characters.
    case dockerHubToken = "docker-hub-token"
    /// A Hugging Face token: `hf_` and thirty-four letters.
    case huggingFaceToken = "huggingface-token"
    /// npm's `_auth` (in `.npmrc`): the base64 of `user:password`.
    case npmAuth = "npm-auth"

    // MARK: Payments, messaging and other services
    /// A Stripe live secret or restricted key: `sk_live_`, `rk_live_`.
    case stripeKey = "stripe-key"
    /// A Square token: `sq0atp-`, `sq0csp-` or `EAAA…`.
    case squareToken = "square-token"
    /// A Shopify token: `shpat_`, `shpca_`, `shppa_`, `shpss_` and 32 hex digits.
    case shopifyToken = "shopify-token"
    /// A Slack token: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxo-`, `xoxe-`, `xapp-`.
    case slackToken = "slack-token"
    /// A Slack incoming webhook: `https://hooks.slack.com/services/…`.
    case slackWebhook = "slack-webhook"
    /// A Discord bot token: a base64 user id, a timestamp and an HMAC, dot-separated.
    case discordBotToken = "discord-bot-token"
    /// A Discord webhook: `https://discord.com/api/webhooks/<id>/<token>`.
    case discordWebhook = "discord-webhook"
    /// A Telegram bot token: eight to ten digits, `:` and thirty-five characters from `AA`.
    case telegramBotToken = "telegram-bot-token"
    /// A Twilio API key: `SK` and 32 hex digits.
    case twilioAPIKey = "twilio-api-key"
    /// A SendGrid API key: `SG.`, 22 characters, `.`, 43 characters.
    case sendGridKey = "sendgrid-key"
    /// A Mailgun API key: `key-` and 32 hex digits.
    case mailgunKey = "mailgun-key"
    /// A Mailchimp API key: 32 hex digits, `-us` and the data centre number.
    case mailchimpKey = "mailchimp-key"
    /// A Postman API key: `PMAK-`, 24 hex digits, `-`, 34 hex digits.
    case postmanKey = "postman-key"
    /// An OpenAI-style key: `sk-` (also `sk-proj-`, `sk-svcacct-`) and a long mixed-case run.
    case openAIKey = "openai-key"
    /// An Anthropic key: `sk-ant-api03-` or `sk-ant-admin01-` and ninety-odd characters.
    case anthropicKey = "anthropic-key"
    /// A Linear API key: `lin_api_` and forty characters (sent bare in `Authorization`).
    case linearAPIKey = "linear-key"
    /// An Atlassian (Jira, Confluence) API token: `ATATT3`, 180-odd characters, `=` and an
    /// eight-digit hex checksum.
    case atlassianToken = "atlassian-token"
    /// A Notion integration token: `ntn_`, eleven digits and thirty-five characters.
    case notionToken = "notion-token"
    /// A Figma personal access token: `figd_` and forty-odd base64url characters.
    case figmaToken = "figma-token"
    /// A New Relic key: `NRAK-` (user), `NRAA-` (admin), `NRII-` (insert), `NRJS-` (browser)
    /// and their characters, or a license key (36 hex digits and `NRAL`).
    case newRelicKey = "new-relic-key"
    /// An Amazon Bedrock API key: `ABSK` and the base64 of `BedrockAPIKey-…` (long-term), or
    /// `bedrock-api-key-` and the base64 of a presigned `bedrock.amazonaws.com` URL (short-term).
    case awsBedrockKey = "aws-bedrock-key"
    /// A 1Password service-account token: `ops_eyJ` and the base64 of its JSON (600 bytes or more).
    case onePasswordToken = "onepassword-token"
    /// A 1Password account secret key: `A3-` and six groups of upper-case letters and digits.
    case onePasswordSecretKey = "onepassword-secret-key"
    /// A Tailscale key: `tskey-auth-`, `tskey-api-`, `tskey-client-` (and `-scim-`, `-webhook-`),
    /// an id, `-` and the secret.
    case tailscaleKey = "tailscale-key"
    /// A Fly.io token: `fo1_…`, or a macaroon `fm1a_`, `fm1r_`, `fm2_…` (after `FlyV1 `).
    case flyToken = "flyio-token"
    /// A Grafana token: a service-account token `glsa_…_<crc>`, a Cloud token `glc_…`, or a
    /// legacy API key (`eyJrIjoi…`, base64 JSON).
    case grafanaToken = "grafana-token"
    /// An Azure DevOps personal access token (2024 format): 84 characters with Microsoft's
    /// `JQQJ99` mark at 52 and `AZDO` at 76.
    case azureDevOpsToken = "azure-devops-token"
    /// An Alibaba Cloud AccessKey ID: `LTAI` and twelve to twenty letters and digits.
    case alibabaAccessKeyID = "alibaba-access-key-id"
    /// A Sentry auth token: `sntryu_` and 64 hex digits (user), or `sntrys_` and the base64 of
    /// its JSON claims, `_` and the secret (organization).
    case sentryToken = "sentry-token"
    /// A Render API key: `rnd_` and a run of letters and digits.
    case renderAPIKey = "render-key"
    /// A Groq API key: `gsk_` and 52 letters and digits.
    case groqKey = "groq-key"
    /// A Replicate API token: `r8_` and 37 letters and digits.
    case replicateToken = "replicate-token"
    /// A SonarQube or SonarCloud token: `squ_` (user), `sqp_` (project), `sqa_` (global
    /// analysis) and 40 hex digits.
    case sonarQubeToken = "sonarqube-token"
    /// A Firebase Cloud Messaging legacy server key: eleven characters, `:APA91b` and a long
    /// base64url run.
    case firebaseServerKey = "fcm-server-key"

    // MARK: Tokens and credentials recognised by their shape or context
    /// A JSON Web Token: base64url segments whose header decodes to JSON with `"alg"`.
    case jsonWebToken = "jwt"
    /// `Authorization: Basic …` with base64 that decodes to `user:password`.
    case basicAuthHeader = "basic-auth"
    /// `Authorization: Bearer …` with a literal token.
    case bearerToken = "bearer-token"
    /// A URL with a password inline: `https://user:pass@host`.
    case urlCredentials = "url-credentials"
    /// A `.netrc` entry: `machine … login … password …`.
    case netrcPassword = "netrc-password"
    /// A `.pgpass` line: `host:port:database:user:password`.
    case pgpassPassword = "pgpass-password"
    /// A Docker config entry: `"auth": "<base64 of user:password>"`.
    case dockerAuth = "docker-auth"
    /// A `key=value;` connection string (ADO.NET, ODBC, JDBC) with `Password=` or `Pwd=`.
    case connectionString = "connection-string"
    /// `password = "…"`, `passwd: …` and the like, with a literal, non-placeholder value.
    case passwordAssignment = "password"
    /// `secret = …`, `api_key: …`, `access_token = …` with a literal, non-placeholder value.
    case secretAssignment = "secret"
    /// A password given to a command on its command line: `curl -u user:pw`, `mysql -pPW`,
    /// `sshpass -p`, `redis-cli -a`, `htpasswd -b`, `docker login -p`, `openssl … pass:`.
    case commandLinePassword = "command-line-password"
    /// A secret-bearing name and its value in separate fields (`{"name": "X-Api-Key",
    /// "value": …}` in HAR, Postman, Kubernetes `env`, Terraform state, XML `<add key= value=>`).
    case namedSecret = "named-secret"
    /// A session or authentication cookie (`Cookie: session=…`, `Set-Cookie: sid=…`).
    case sessionCookie = "session-cookie"

    /// What it is called in messages (`GitHub token`).
    public var name: String {
        switch self {
        case .privateKey: "private key (PEM)"
        case .pgpPrivateKey: "PGP private key"
        case .puttyPrivateKey: "PuTTY private key"
        case .ageSecretKey: "age secret key"
        case .awsAccessKeyID: "AWS access key id"
        case .awsSecretAccessKey: "AWS secret access key"
        case .googleAPIKey: "Google API key"
        case .googleOAuthToken: "Google OAuth access token"
        case .googleOAuthClientSecret: "Google OAuth client secret"
        case .azureStorageKey: "Azure storage key"
        case .azureSASToken: "Azure shared access signature"
        case .azureClientSecret: "Azure AD client secret"
        case .digitalOceanToken: "DigitalOcean token"
        case .vaultToken: "Vault token"
        case .terraformToken: "Terraform Cloud token"
        case .dopplerToken: "Doppler token"
        case .databricksToken: "Databricks token"
        case .vaultUnsealKey: "Vault unseal key"
        case .oktaToken: "Okta API token"
        case .gitHubToken: "GitHub token"
        case .gitLabToken: "GitLab token"
        case .npmToken: "npm token"
        case .pyPIToken: "PyPI token"
        case .rubyGemsToken: "RubyGems API key"
        case .dockerHubToken: "Docker Hub token"
        case .huggingFaceToken: "Hugging Face token"
        case .npmAuth: "npm registry login (_auth)"
        case .stripeKey: "Stripe live key"
        case .squareToken: "Square token"
        case .shopifyToken: "Shopify token"
        case .slackToken: "Slack token"
        case .slackWebhook: "Slack webhook URL"
        case .discordBotToken: "Discord bot token"
        case .discordWebhook: "Discord webhook URL"
        case .telegramBotToken: "Telegram bot token"
        case .twilioAPIKey: "Twilio API key"
        case .sendGridKey: "SendGrid API key"
        case .mailgunKey: "Mailgun API key"
        case .mailchimpKey: "Mailchimp API key"
        case .postmanKey: "Postman API key"
        case .openAIKey: "OpenAI-style API key"
        case .anthropicKey: "Anthropic API key"
        case .linearAPIKey: "Linear API key"
        case .atlassianToken: "Atlassian API token"
        case .notionToken: "Notion token"
        case .figmaToken: "Figma token"
        case .newRelicKey: "New Relic key"
        case .awsBedrockKey: "Amazon Bedrock API key"
        case .onePasswordToken: "1Password service-account token"
        case .onePasswordSecretKey: "1Password secret key"
        case .tailscaleKey: "Tailscale key"
        case .flyToken: "Fly.io token"
        case .grafanaToken: "Grafana token"
        case .azureDevOpsToken: "Azure DevOps token"
        case .alibabaAccessKeyID: "Alibaba Cloud AccessKey ID"
        case .sentryToken: "Sentry auth token"
        case .renderAPIKey: "Render API key"
        case .groqKey: "Groq API key"
        case .replicateToken: "Replicate API token"
        case .sonarQubeToken: "SonarQube token"
        case .firebaseServerKey: "Firebase Cloud Messaging server key"
        case .jsonWebToken: "JSON Web Token"
        case .basicAuthHeader: "HTTP Basic authorization header"
        case .bearerToken: "bearer token"
        case .urlCredentials: "URL with a password"
        case .netrcPassword: ".netrc password"
        case .pgpassPassword: ".pgpass password"
        case .dockerAuth: "Docker registry login"
        case .connectionString: "connection string with a password"
        case .passwordAssignment: "password"
        case .secretAssignment: "secret or API key"
        case .commandLinePassword: "password on a command line"
        case .namedSecret: "secret in a name/value pair"
        case .sessionCookie: "session cookie"
        }
    }

    /// The name with its indefinite article (`a GitHub token`, `an AWS access key id`).
    public var nameWithArticle: String {
        switch self {
        case .awsAccessKeyID, .awsSecretAccessKey, .npmToken, .openAIKey, .ageSecretKey, .anthropicKey,
            .azureStorageKey, .azureSASToken, .azureClientSecret, .huggingFaceToken, .basicAuthHeader, .npmAuth,
            .oktaToken, .atlassianToken, .awsBedrockKey, .azureDevOpsToken, .alibabaAccessKeyID:
            "an " + name
        default: "a " + name
        }
    }
}
