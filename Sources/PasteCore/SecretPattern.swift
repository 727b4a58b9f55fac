/// A kind of secret the secret guard recognises.
///
/// Each case is one hand-written matcher in `SecretScanner` (SecretPattern+Scanner.swift). The
/// token formats follow the issuers' published shapes; the assignment and URL patterns are
/// heuristics that skip placeholders (`xxx`, `changeme`, `${VAR}`, `<password>`).
public enum SecretPattern: String, Sendable, CaseIterable, Codable {
    /// `-----BEGIN … PRIVATE KEY-----` (PKCS#1 RSA, SEC1 EC, DSA, PKCS#8, encrypted, OpenSSH).
    case privateKey = "private-key"
    /// `-----BEGIN PGP PRIVATE KEY BLOCK-----`.
    case pgpPrivateKey = "pgp-private-key"
    /// An AWS access key id: `AKIA` or `ASIA` and sixteen upper-case letters or digits.
    case awsAccessKeyID = "aws-access-key-id"
    /// An AWS secret access key: forty base64 characters assigned to `aws_secret_access_key`.
    case awsSecretAccessKey = "aws-secret-access-key"
    /// A GitHub token: `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` (classic) or `github_pat_`.
    case gitHubToken = "github-token"
    /// A GitLab personal access token: `glpat-`.
    case gitLabToken = "gitlab-token"
    /// A Slack token: `xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`, `xoxs-`.
    case slackToken = "slack-token"
    /// A Slack incoming webhook: `https://hooks.slack.com/services/…`.
    case slackWebhook = "slack-webhook"
    /// A Google API key: `AIza` and thirty-five characters.
    case googleAPIKey = "google-api-key"
    /// A Stripe live secret or restricted key: `sk_live_`, `rk_live_`.
    case stripeKey = "stripe-key"
    /// An OpenAI-style key: `sk-` (also `sk-proj-`, `sk-ant-`) and a long mixed-case run.
    case openAIKey = "openai-key"
    /// An npm access token: `npm_` and thirty-six characters.
    case npmToken = "npm-token"
    /// A PyPI API token: `pypi-AgEI…` (a macaroon for pypi.org).
    case pyPIToken = "pypi-token"
    /// A JSON Web Token: three base64url segments whose header decodes to JSON with `"alg"`.
    case jsonWebToken = "jwt"
    /// `password = "…"`, `passwd: …` and the like, with a literal, non-placeholder value.
    case passwordAssignment = "password"
    /// `secret = …`, `api_key: …`, `access_token = …` with a literal, non-placeholder value.
    case secretAssignment = "secret"
    /// A URL with a password inline: `https://user:pass@host`.
    case urlCredentials = "url-credentials"

    /// What it is called in messages (`GitHub token`).
    public var name: String {
        switch self {
        case .privateKey: "private key (PEM)"
        case .pgpPrivateKey: "PGP private key"
        case .awsAccessKeyID: "AWS access key id"
        case .awsSecretAccessKey: "AWS secret access key"
        case .gitHubToken: "GitHub token"
        case .gitLabToken: "GitLab token"
        case .slackToken: "Slack token"
        case .slackWebhook: "Slack webhook URL"
        case .googleAPIKey: "Google API key"
        case .stripeKey: "Stripe live key"
        case .openAIKey: "OpenAI-style API key"
        case .npmToken: "npm token"
        case .pyPIToken: "PyPI token"
        case .jsonWebToken: "JSON Web Token"
        case .passwordAssignment: "password"
        case .secretAssignment: "secret or API key"
        case .urlCredentials: "URL with a password"
        }
    }

    /// The name with its indefinite article (`a GitHub token`, `an AWS access key id`).
    public var nameWithArticle: String {
        switch self {
        case .awsAccessKeyID, .awsSecretAccessKey, .npmToken, .openAIKey: "an " + name
        default: "a " + name
        }
    }

    /// Whether this is a heuristic on an assignment: a more specific token found in the same
    /// place wins over it.
    var isAssignment: Bool {
        self == .passwordAssignment || self == .secretAssignment
    }
}
