"""The blind hold-out's corpus: one real-format (synthetic, random) secret per positive file in the
places people paste from, and hard clean files that look like secrets but are not.

Written without reading the guard's rules. Formats come from the vendors' published token formats
(prefix, length, alphabet, checksum) as gitleaks and CredSweeper's rule files record them.

The templates are split into two disjoint halves, `dev` (the guard may be tuned on it) and `sealed`
(never looked at file by file), each with its own seed. Every value is random: nothing here is a
live credential.
"""

import base64
import binascii
import hashlib
import json
import random
import string
import uuid

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
LOWER_ALNUM = LOWER + DIGITS
UPPER_ALNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UPPER + "234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"

SEEDS = {"dev": 20261206, "sealed": 7331}


class R:
    """A deterministic source of random text."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def s(self, alphabet, n):
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def hex(self, n):
        return self.s(HEX, n)

    def int(self, a, b):
        return self.r.randint(a, b)

    def pick(self, items):
        return self.r.choice(items)

    def bytes(self, n):
        return bytes(self.r.getrandbits(8) for _ in range(n))

    def b64(self, nbytes):
        return base64.b64encode(self.bytes(nbytes)).decode()

    def uuid(self):
        return str(uuid.UUID(bytes=self.bytes(16), version=4))

    def word(self):
        return self.pick(WORDS)

    def ip(self):
        return f"10.{self.int(0, 255)}.{self.int(0, 255)}.{self.int(1, 254)}"

    def ts(self):
        return f"2026-{self.int(1, 11):02}-{self.int(1, 28):02}T{self.int(0, 23):02}:{self.int(0, 59):02}:{self.int(0, 59):02}"


WORDS = ("orbit maple falcon quartz harbor cedar lumen tundra nimbus copper delta ember fjord garnet "
         "hollow island jasper kestrel lagoon meadow nectar opal pepper quill raven sierra thistle umber "
         "violet willow yarrow zephyr amber birch cobalt dune").split()


def base62(n, width):
    out = ""
    while n:
        n, d = divmod(n, 62)
        out = (DIGITS + UPPER + LOWER)[d] + out
    return out.rjust(width, "0")


def b64u(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# --- secrets ---------------------------------------------------------------------------------------
# Each maker returns (value, env name, header) — header is (name, value) for HTTP contexts.

def github(prefix):
    def make(r):
        body = r.s(ALNUM, 30)
        return prefix + body + base62(binascii.crc32(body.encode()), 6)
    return make


def github_fine(r):
    return "github_pat_" + r.s(ALNUM, 22) + "_" + r.s(ALNUM, 59)


def jwt(r, claims):
    header = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64u(json.dumps(claims).encode())
    return f"{header}.{payload}.{b64u(r.bytes(32))}"


def slack_bot(r):
    return f"xoxb-{r.int(10**10, 10**12)}-{r.int(10**11, 10**13)}-{r.s(ALNUM, 24)}"


def slack_user(r):
    return f"xoxp-{r.int(10**10, 10**12)}-{r.int(10**10, 10**12)}-{r.int(10**11, 10**13)}-{r.hex(32)}"


def slack_webhook(r):
    return f"https://hooks.slack.com/services/T{r.s(UPPER_ALNUM, 10)}/B{r.s(UPPER_ALNUM, 10)}/{r.s(ALNUM, 24)}"


def discord_webhook(r):
    return f"https://discord.com/api/webhooks/{r.int(10**17, 10**18)}/{r.s(B64URL, 68)}"


def discord_bot(r):
    uid = base64.b64encode(str(r.int(10**17, 10**18)).encode()).decode().rstrip("=")
    return f"{uid}.{r.s(B64URL, 6)}.{r.s(B64URL, 38)}"


def aws_session_token(r):
    return "IQoJb3JpZ2luX2VjE" + r.s(B64, 420 - 17)


def bedrock_long(r):
    inner = f"BedrockAPIKey-{r.s(LOWER_ALNUM, 4)}-at-{r.int(10**11, 10**12 - 1)}:{r.s(B64, 44)}"
    return "ABSK" + base64.b64encode(inner.encode()).decode()


def bedrock_short(r):
    inner = (f"bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Algorithm=AWS4-HMAC-SHA256"
             f"&X-Amz-Credential=ASIA{r.s(B32, 16)}%2F20260101%2Fus-east-1%2Fbedrock%2Faws4_request"
             f"&X-Amz-Date=20260101T000000Z&X-Amz-Expires=43200&X-Amz-Security-Token={r.s(B64URL, 300)}"
             f"&X-Amz-Signature={r.hex(64)}&Version=1")
    return "bedrock-api-key-" + base64.b64encode(inner.encode()).decode()


def onepassword_sa(r):
    claims = {"signInAddress": f"{r.word()}.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
              "iterations": 650000, "salt": b64u(r.bytes(16))}, "email": f"{r.s(LOWER_ALNUM, 13)}@1passwordserviceaccounts.com",
              "srpX": r.hex(64), "muk": {"alg": "A256GCM", "ext": True, "k": b64u(r.bytes(32)), "key_ops": ["encrypt", "decrypt"],
              "kty": "oct", "kid": "mp"}, "secretKey": onepassword_secret(r), "throttleSecret": {"seed": r.hex(64), "uuid": r.s(UPPER_ALNUM, 26)},
              "deviceUuid": r.s(LOWER_ALNUM, 26)}
    return "ops_" + base64.b64encode(json.dumps(claims, separators=(",", ":")).encode()).decode().rstrip("=")


def onepassword_secret(r):
    return f"A3-{r.s(UPPER_ALNUM, 6)}-{r.s(UPPER_ALNUM, 6)}-{r.s(UPPER_ALNUM, 5)}-{r.s(UPPER_ALNUM, 5)}-{r.s(UPPER_ALNUM, 5)}-{r.s(UPPER_ALNUM, 5)}"


def atlassian(r):
    return "ATATT3xFfGF0" + r.s(B64URL, 170) + "=" + r.hex(8).upper()


def azure_devops(r):
    return r.s(ALNUM, 52) + "AAASAZDO" + r.s(ALNUM, 24) if r.int(0, 1) else r.s("abcdefghijklmnopqrstuvwxyz234567", 52)


def grafana_sa(r):
    body = r.s(ALNUM, 32)
    return f"glsa_{body}_{r.hex(8)}"


def grafana_cloud(r):
    return "glc_" + base64.b64encode(json.dumps({"o": str(r.int(100000, 999999)), "n": f"stack-{r.int(100000, 999999)}-hm-read-{r.word()}",
                                                  "k": r.s(ALNUM, 24), "m": {"r": "prod-us-east-0"}}).encode()).decode()


def tailscale(r):
    return f"tskey-auth-k{r.s(ALNUM, 10)}CNTRL-{r.s(ALNUM, 33)}"


def flyio(r):
    return "FlyV1 fm2_" + r.s(B64, 400) + "," + "fm2_" + r.s(B64, 200)


def fcm(r):
    return f"AAAA{r.s(B64URL, 7)}:APA91b{r.s(B64URL, 134)}"


def terraform_cloud(r):
    return f"{r.s(ALNUM, 14)}.atlasv1.{r.s(ALNUM, 67)}"


def pypi(r):
    return "pypi-AgEIcHlwaS5vcmc" + r.s(B64URL, 160)


def sendgrid(r):
    return f"SG.{r.s(B64URL, 22)}.{r.s(B64URL, 43)}"


def mailgun(r):
    return f"{r.hex(32)}-{r.hex(8)}-{r.hex(8)}" if r.int(0, 1) else "key-" + r.hex(32)


def anthropic(r):
    return "sk-ant-api03-" + r.s(B64URL, 93) + "AA"


def openai(r):
    return "sk-proj-" + r.s(B64URL, 74) + "T3BlbkFJ" + r.s(B64URL, 74) if r.int(0, 1) else "sk-" + r.s(ALNUM, 20) + "T3BlbkFJ" + r.s(ALNUM, 20)


def vault(r):
    return "hvs." + r.s(B64URL, 90) if r.int(0, 1) else "hvs." + r.s(ALNUM, 24)


def azure_client_secret(r):
    return r.s(ALNUM, 3) + "8Q~" + r.s(ALNUM + "_~.-", 34)


def azure_storage(r):
    return r.b64(64)


def braintree(r):
    return f"access_token$production${r.s(LOWER_ALNUM, 16)}${r.hex(32)}"


def password(r):
    kind = r.int(0, 3)
    if kind == 0:
        return r.s(ALNUM + "!@#%^&*-_=+.", r.int(14, 24))
    if kind == 1:
        return "-".join(r.word() for _ in range(4)) + str(r.int(10, 99))
    if kind == 2:
        return r.word().capitalize() + r.s(DIGITS, 4) + r.pick("!#$%?") + r.word()
    return r.s(ALNUM, r.int(16, 32))


def django_key(r):
    return r.s(LOWER + DIGITS + "!@#$%^&*(-_=+)", 50)


# kind -> (class, maker, env name, header kind)
# header kinds: bearer, token, basic, or a header name that carries the value as is.
TOKENS = {
    "github-pat": (github("ghp_"), "GITHUB_TOKEN", "bearer"),
    "github-oauth": (github("gho_"), "GH_TOKEN", "token"),
    "github-app": (github("ghs_"), "GITHUB_APP_TOKEN", "bearer"),
    "github-fine-grained": (github_fine, "GH_PAT", "bearer"),
    "gitlab-pat": (lambda r: "glpat-" + r.s(B64URL, 20), "GITLAB_TOKEN", "PRIVATE-TOKEN"),
    "gitlab-trigger": (lambda r: "glptt-" + r.hex(40), "CI_TRIGGER_TOKEN", "bearer"),
    "gitlab-runner": (lambda r: "glrt-" + r.s(B64URL, 20), "RUNNER_TOKEN", "bearer"),
    "aws-access-key": (lambda r: "AKIA" + r.s(B32, 16), "AWS_ACCESS_KEY_ID", "bearer"),
    "aws-secret-key": (lambda r: r.s(B64, 40), "AWS_SECRET_ACCESS_KEY", "bearer"),
    "aws-session-token": (aws_session_token, "AWS_SESSION_TOKEN", "X-Amz-Security-Token"),
    "aws-bedrock-long": (bedrock_long, "AWS_BEARER_TOKEN_BEDROCK", "bearer"),
    "aws-bedrock-short": (bedrock_short, "AWS_BEARER_TOKEN_BEDROCK", "bearer"),
    "slack-bot": (slack_bot, "SLACK_BOT_TOKEN", "bearer"),
    "slack-user": (slack_user, "SLACK_TOKEN", "bearer"),
    "slack-webhook": (slack_webhook, "SLACK_WEBHOOK_URL", None),
    "slack-app": (lambda r: f"xapp-1-A{r.s(UPPER_ALNUM, 10)}-{r.int(10**12, 10**13)}-{r.hex(64)}", "SLACK_APP_TOKEN", "bearer"),
    "discord-webhook": (discord_webhook, "DISCORD_WEBHOOK", None),
    "discord-bot": (discord_bot, "DISCORD_BOT_TOKEN", "Bot"),
    "telegram-bot": (lambda r: f"{r.int(10**8, 10**10)}:AA{r.s(B64URL, 33)}", "TELEGRAM_BOT_TOKEN", None),
    "stripe-secret": (lambda r: "sk_live_" + r.s(ALNUM, r.pick((24, 99))), "STRIPE_SECRET_KEY", "bearer"),
    "stripe-restricted": (lambda r: "rk_live_" + r.s(ALNUM, 99), "STRIPE_API_KEY", "bearer"),
    "stripe-webhook": (lambda r: "whsec_" + r.s(ALNUM, 32), "STRIPE_WEBHOOK_SECRET", None),
    "google-api-key": (lambda r: "AIza" + r.s(B64URL, 35), "GOOGLE_API_KEY", "X-Goog-Api-Key"),
    "google-oauth-secret": (lambda r: "GOCSPX-" + r.s(B64URL, 28), "GOOGLE_CLIENT_SECRET", None),
    "google-refresh-token": (lambda r: "1//0" + r.s(B64URL, 99), "GOOGLE_REFRESH_TOKEN", None),
    "google-access-token": (lambda r: "ya29.a0" + r.s(B64URL, 180), "GCP_ACCESS_TOKEN", "bearer"),
    "twilio-api-key": (lambda r: "SK" + r.hex(32), "TWILIO_API_KEY", None),
    "twilio-auth-token": (lambda r: r.hex(32), "TWILIO_AUTH_TOKEN", None),
    "sendgrid": (sendgrid, "SENDGRID_API_KEY", "bearer"),
    "mailgun": (mailgun, "MAILGUN_API_KEY", None),
    "mailchimp": (lambda r: r.hex(32) + "-us" + str(r.int(1, 21)), "MAILCHIMP_API_KEY", None),
    "brevo": (lambda r: "xkeysib-" + r.hex(64) + "-" + r.s(ALNUM, 16), "BREVO_API_KEY", "api-key"),
    "npm": (lambda r: "npm_" + r.s(ALNUM, 36), "NPM_TOKEN", "bearer"),
    "pypi": (pypi, "TWINE_PASSWORD", None),
    "rubygems": (lambda r: "rubygems_" + r.hex(48), "GEM_HOST_API_KEY", "Authorization"),
    "nuget": (lambda r: "oy2" + r.s(LOWER_ALNUM, 43), "NUGET_API_KEY", "X-NuGet-ApiKey"),
    "dockerhub": (lambda r: "dckr_pat_" + r.s(B64URL, 27), "DOCKERHUB_TOKEN", None),
    "openai": (openai, "OPENAI_API_KEY", "bearer"),
    "anthropic": (anthropic, "ANTHROPIC_API_KEY", "x-api-key"),
    "huggingface": (lambda r: "hf_" + r.s(UPPER + LOWER, 34), "HF_TOKEN", "bearer"),
    "groq": (lambda r: "gsk_" + r.s(ALNUM, 52), "GROQ_API_KEY", "bearer"),
    "xai": (lambda r: "xai-" + r.s(ALNUM, 80), "XAI_API_KEY", "bearer"),
    "replicate": (lambda r: "r8_" + r.s(ALNUM, 37), "REPLICATE_API_TOKEN", "bearer"),
    "perplexity": (lambda r: "pplx-" + r.s(ALNUM, 48), "PERPLEXITY_API_KEY", "bearer"),
    "langsmith": (lambda r: f"lsv2_pt_{r.hex(32)}_{r.hex(10)}", "LANGSMITH_API_KEY", "x-api-key"),
    "shopify": (lambda r: "shpat_" + r.hex(32), "SHOPIFY_ACCESS_TOKEN", "X-Shopify-Access-Token"),
    "atlassian": (atlassian, "JIRA_API_TOKEN", None),
    "digitalocean": (lambda r: "dop_v1_" + r.hex(64), "DIGITALOCEAN_TOKEN", "bearer"),
    "databricks": (lambda r: "dapi" + r.hex(32), "DATABRICKS_TOKEN", "bearer"),
    "doppler": (lambda r: "dp.st.prd." + r.s(ALNUM, 40), "DOPPLER_TOKEN", "bearer"),
    "linear": (lambda r: "lin_api_" + r.s(ALNUM, 40), "LINEAR_API_KEY", "Authorization"),
    "postman": (lambda r: f"PMAK-{r.hex(24)}-{r.hex(34)}", "POSTMAN_API_KEY", "X-Api-Key"),
    "pulumi": (lambda r: "pul-" + r.hex(40), "PULUMI_ACCESS_TOKEN", "token"),
    "terraform-cloud": (terraform_cloud, "TFE_TOKEN", "bearer"),
    "vault": (vault, "VAULT_TOKEN", "X-Vault-Token"),
    "grafana-sa": (grafana_sa, "GRAFANA_TOKEN", "bearer"),
    "grafana-cloud": (grafana_cloud, "GRAFANA_CLOUD_API_KEY", "bearer"),
    "newrelic-user": (lambda r: "NRAK-" + r.s(UPPER_ALNUM, 27), "NEW_RELIC_API_KEY", "Api-Key"),
    "newrelic-license": (lambda r: r.hex(36) + "NRAL", "NEW_RELIC_LICENSE_KEY", None),
    "figma": (lambda r: "figd_" + r.s(B64URL, 40), "FIGMA_TOKEN", "X-Figma-Token"),
    "tailscale": (tailscale, "TS_AUTHKEY", None),
    "flyio": (flyio, "FLY_API_TOKEN", "Authorization"),
    "onepassword-sa": (onepassword_sa, "OP_SERVICE_ACCOUNT_TOKEN", "bearer"),
    "onepassword-secret-key": (onepassword_secret, "OP_SECRET_KEY", None),
    "azure-devops": (azure_devops, "AZURE_DEVOPS_EXT_PAT", None),
    "azure-client-secret": (azure_client_secret, "AZURE_CLIENT_SECRET", None),
    "azure-storage-key": (azure_storage, "AZURE_STORAGE_KEY", None),
    "heroku": (lambda r: "HRKU-AA" + r.s(B64URL, 58), "HEROKU_API_KEY", "bearer"),
    "heroku-legacy": (lambda r: r.uuid(), "HEROKU_API_KEY", "bearer"),
    "sentry-org": (lambda r: "sntrys_" + base64.b64encode(json.dumps({"iat": r.int(1.7e9, 1.8e9), "url": "https://sentry.io",
                   "region_url": "https://us.sentry.io", "org": r.word()}).encode()).decode().rstrip("=") + "_" + r.s(B64, 43),
                   "SENTRY_AUTH_TOKEN", "bearer"),
    "sentry-user": (lambda r: "sntryu_" + r.hex(64), "SENTRY_AUTH_TOKEN", "bearer"),
    "datadog-api": (lambda r: r.hex(32), "DD_API_KEY", "DD-API-KEY"),
    "datadog-app": (lambda r: r.hex(40), "DD_APP_KEY", "DD-APPLICATION-KEY"),
    "pagerduty-routing": (lambda r: r.hex(32), "PAGERDUTY_ROUTING_KEY", None),
    "cloudflare-token": (lambda r: r.s(B64URL, 40), "CLOUDFLARE_API_TOKEN", "bearer"),
    "cloudflare-global": (lambda r: r.hex(37), "CF_API_KEY", "X-Auth-Key"),
    "okta": (lambda r: "00" + r.s(B64URL, 40), "OKTA_API_TOKEN", "SSWS"),
    "algolia-admin": (lambda r: r.hex(32), "ALGOLIA_ADMIN_KEY", "X-Algolia-API-Key"),
    "square": (lambda r: "EAAA" + r.s(B64URL, 60), "SQUARE_ACCESS_TOKEN", "bearer"),
    "braintree": (braintree, "BRAINTREE_ACCESS_TOKEN", None),
    "fcm-server-key": (fcm, "FCM_SERVER_KEY", "key="),
    "mapbox-secret": (lambda r: "sk.eyJ1Ijoi" + r.s(B64URL, 40) + "." + r.s(B64URL, 22), "MAPBOX_SECRET_TOKEN", None),
    "bitbucket-app-password": (lambda r: "ATBB" + r.s(ALNUM, 32) + r.hex(8).upper(), "BITBUCKET_APP_PASSWORD", None),
    "netlify": (lambda r: "nfp_" + r.s(ALNUM, 36), "NETLIFY_AUTH_TOKEN", "bearer"),
    "supabase": (lambda r: "sbp_" + r.hex(40), "SUPABASE_ACCESS_TOKEN", "bearer"),
    "supabase-service-role": (lambda r: jwt(r, {"iss": "supabase", "ref": r.s(LOWER, 20), "role": "service_role",
                              "iat": r.int(1.7e9, 1.75e9), "exp": r.int(2.0e9, 2.1e9)}), "SUPABASE_SERVICE_ROLE_KEY", "bearer"),
    "render": (lambda r: "rnd_" + r.s(ALNUM, 32), "RENDER_API_KEY", "bearer"),
    "contentful": (lambda r: "CFPAT-" + r.s(B64URL, 43), "CONTENTFUL_MANAGEMENT_TOKEN", "bearer"),
    "dynatrace": (lambda r: f"dt0c01.{r.s(UPPER_ALNUM, 24)}.{r.s(UPPER_ALNUM, 64)}", "DT_API_TOKEN", "Api-Token"),
    "airtable": (lambda r: f"pat{r.s(ALNUM, 14)}.{r.hex(64)}", "AIRTABLE_TOKEN", "bearer"),
    "notion": (lambda r: "ntn_" + str(r.int(10**10, 10**11)) + r.s(ALNUM, 35), "NOTION_TOKEN", "bearer"),
    "sonarqube": (lambda r: "squ_" + r.hex(40), "SONAR_TOKEN", "bearer"),
    "circleci": (lambda r: f"CCIPAT_{r.s(ALNUM, 22)}_{r.hex(40)}", "CIRCLECI_TOKEN", "Circle-Token"),
    "buildkite": (lambda r: "bkua_" + r.hex(40), "BUILDKITE_API_TOKEN", "bearer"),
    "planetscale": (lambda r: "pscale_tkn_" + r.s(B64URL, 43), "PLANETSCALE_SERVICE_TOKEN", None),
    "age": (lambda r: "AGE-SECRET-KEY-1" + r.s(BECH32, 58), "SOPS_AGE_KEY", None),
    "alibaba": (lambda r: "LTAI" + r.s(ALNUM, 20), "ALIBABA_CLOUD_ACCESS_KEY_ID", None),
    "jwt-session": (lambda r: jwt(r, {"sub": str(r.int(1000, 99999)), "email": f"{r.word()}@example.org", "scope": "admin",
                    "iat": r.int(1.7e9, 1.75e9), "exp": r.int(1.75e9, 1.8e9)}), "ACCESS_TOKEN", "bearer"),
    "rails-secret-key-base": (lambda r: r.hex(128), "SECRET_KEY_BASE", None),
    "django-secret": (django_key, "DJANGO_SECRET_KEY", None),
    "jwt-signing-secret": (lambda r: r.b64(48), "JWT_SECRET", None),
    "encryption-key": (lambda r: r.b64(32), "APP_ENCRYPTION_KEY", None),
    "generic-api-key": (lambda r: r.s(ALNUM, 32), "API_KEY", "X-API-Key"),
    "wireguard": (lambda r: r.b64(32), "WG_PRIVATE_KEY", None),
}

PASSWORD_ENVS = ["DB_PASSWORD", "POSTGRES_PASSWORD", "MYSQL_ROOT_PASSWORD", "REDIS_PASSWORD", "SMTP_PASSWORD",
                 "ADMIN_PASS", "RABBITMQ_DEFAULT_PASS", "LDAP_BIND_PASSWORD", "KEYSTORE_PASSWORD", "MONGO_INITDB_ROOT_PASSWORD"]


class Secret:
    def __init__(self, kind, cls, value, env, header=None, user=None):
        self.kind, self.cls, self.value, self.env, self.header_kind, self.user = kind, cls, value, env, header, user

    def header(self):
        """(name, value) for an HTTP header carrying this secret."""
        h = self.header_kind
        if self.cls == "password":
            return "Authorization", "Basic " + base64.b64encode(f"{self.user}:{self.value}".encode()).decode()
        if h in (None, "bearer"):
            return "Authorization", "Bearer " + self.value
        if h == "token":
            return "Authorization", "token " + self.value
        if h in ("Bot", "SSWS"):
            return "Authorization", f"{h} {self.value}"
        if h == "key=":
            return "Authorization", "key=" + self.value
        if h == "Authorization":
            return "Authorization", self.value
        return h, self.value


def make_token(r, kind):
    maker, env, header = TOKENS[kind]
    return Secret(kind, "token", maker(r), env, header)


def make_password(r):
    return Secret("password", "password", password(r), r.pick(PASSWORD_ENVS), user=r.pick(["app", "admin", "deploy", "svc_" + r.word(), r.word()]))


def make_url(r):
    pw = password(r).replace("@", "!").replace("/", "-").replace(":", "-").replace("#", "%23").replace("?", "!")
    user = r.pick(["app", "postgres", "admin", "svc_" + r.word(), r.word()])
    host = f"{r.word()}-db.{r.pick(['internal', 'prod.example.net', 'c8xk2.eu-west-1.rds.amazonaws.com'])}"
    scheme, port, db = r.pick([("postgresql", 5432, "/orders"), ("postgres", 5432, "/app"), ("mysql", 3306, "/shop"),
                               ("mongodb+srv", None, "/admin?retryWrites=true&w=majority"), ("redis", 6379, "/0"),
                               ("amqp", 5672, "/%2F"), ("mssql", 1433, "/billing")])
    hostport = f"{host}:{port}" if port else f"cluster0.{r.s(LOWER_ALNUM, 5)}.mongodb.net"
    s = Secret("connection-url", "url", f"{scheme}://{user}:{pw}@{hostport}{db}", "DATABASE_URL", user=user)
    s.password = pw
    return s


def pem_body(r, first, nbytes):
    body = first + base64.b64encode(r.bytes(nbytes)).decode()
    return "\n".join(body[i:i + 64] for i in range(0, len(body), 64))


def make_pem(r):
    kind = r.pick(["openssh", "rsa", "ec", "pkcs8", "pgp", "encrypted-pkcs8"])
    if kind == "openssh":
        v = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + pem_body(r, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", 300) + "\n-----END OPENSSH PRIVATE KEY-----"
    elif kind == "rsa":
        v = "-----BEGIN RSA PRIVATE KEY-----\n" + pem_body(r, "MIIEpAIBAAKCAQEA", 1180) + "\n-----END RSA PRIVATE KEY-----"
    elif kind == "ec":
        v = "-----BEGIN EC PRIVATE KEY-----\n" + pem_body(r, "MHcCAQEEI", 110) + "\n-----END EC PRIVATE KEY-----"
    elif kind == "pkcs8":
        v = "-----BEGIN PRIVATE KEY-----\n" + pem_body(r, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 1190) + "\n-----END PRIVATE KEY-----"
    elif kind == "encrypted-pkcs8":
        v = "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + pem_body(r, "MIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG9w0BBQwwDgQI", 1240) + "\n-----END ENCRYPTED PRIVATE KEY-----"
    else:
        body = pem_body(r, "lQVYBG", 1600)
        v = f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n={r.s(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----"
    return Secret("private-key-" + kind, "pem", v, "PRIVATE_KEY")


# --- positive contexts ----------------------------------------------------------------------------
# context(r, secret) -> text. Each names the secret classes it takes.

def q(v):
    return json.dumps(v)


def ctx_shell_history(r, s):
    lines = [f" {r.int(500, 1999)}  cd ~/src/{r.word()}", f" {r.int(2000, 2100)}  git pull --rebase",
             f" {r.int(2100, 2200)}  export {s.env}={s.value}" if r.int(0, 1) else f" {r.int(2100, 2200)}  export {s.env}=\"{s.value}\"",
             f" {r.int(2200, 2300)}  ./deploy.sh --env staging", f" {r.int(2300, 2400)}  history | tail"]
    return "\n".join(lines) + "\n"


def ctx_dotenv(r, s):
    return (f"# {r.word()} service\nNODE_ENV=production\nPORT={r.int(3000, 9000)}\nLOG_LEVEL=info\n"
            f"{s.env}={s.value}\nFEATURE_FLAGS=beta,{r.word()}\n")


def ctx_gha_log(r, s):
    t = r.ts()
    return (f"{t}.1234567Z ##[group]Run ./scripts/release.sh\n{t}.1235000Z ./scripts/release.sh\n"
            f"{t}.1235100Z shell: /usr/bin/bash -e {{0}}\n{t}.1235200Z env:\n{t}.1235300Z   NODE_VERSION: 20\n"
            f"{t}.1235400Z   {s.env}: {s.value}\n{t}.1235500Z ##[endgroup]\n{t}.2000000Z Publishing {r.word()}@1.{r.int(0, 9)}.{r.int(0, 20)}\n"
            f"{t}.3000000Z ##[error]Process completed with exit code 1.\n")


def ctx_compose(r, s):
    return (f"services:\n  {r.word()}:\n    image: ghcr.io/acme/{r.word()}:{r.int(1, 9)}.{r.int(0, 9)}\n    ports:\n      - \"8080:8080\"\n"
            f"    environment:\n      - TZ=UTC\n      - {s.env}={s.value}\n    restart: unless-stopped\n")


def ctx_k8s_stringdata(r, s):
    return (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {r.word()}-credentials\n  namespace: {r.word()}\ntype: Opaque\n"
            f"stringData:\n  {s.env.lower().replace('_', '-')}: {q(s.value) if r.int(0, 1) else s.value}\n")


def ctx_k8s_data(r, s):
    enc = base64.b64encode(s.value.encode()).decode()
    return (f"apiVersion: v1\ndata:\n  username: {base64.b64encode(b'app').decode()}\n  {s.env.lower()}: {enc}\nkind: Secret\n"
            f"metadata:\n  creationTimestamp: \"{r.ts()}Z\"\n  name: {r.word()}-secret\n  namespace: default\n"
            f"  resourceVersion: \"{r.int(10000, 99999)}\"\n  uid: {r.uuid()}\ntype: Opaque\n")


def ctx_k8s_env(r, s):
    return (f"    spec:\n      containers:\n      - name: {r.word()}\n        image: registry.internal/{r.word()}:v{r.int(1, 5)}\n"
            f"        env:\n        - name: LOG_FORMAT\n          value: json\n        - name: {s.env}\n          value: {q(s.value) if r.int(0, 1) else s.value}\n"
            f"        - name: POD_IP\n          valueFrom:\n            fieldRef:\n              fieldPath: status.podIP\n")


def ctx_tfstate(r, s):
    attr = s.env.lower()
    state = {"version": 4, "terraform_version": "1.9.5", "serial": r.int(1, 90), "lineage": r.uuid(), "outputs": {},
             "resources": [{"mode": "managed", "type": "kubernetes_secret", "name": r.word(), "provider": "provider[\"registry.terraform.io/hashicorp/kubernetes\"]",
                            "instances": [{"schema_version": 0, "attributes": {"id": f"default/{r.word()}", "data": {attr: s.value},
                                                                                "type": "Opaque"}, "sensitive_attributes": []}]}]}
    return json.dumps(state, indent=2) + "\n"


def ctx_har(r, s):
    name, value = s.header()
    entry = {"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "133.0"}, "entries": [{
        "startedDateTime": r.ts() + ".000Z", "time": r.int(20, 900),
        "request": {"method": "GET", "url": f"https://api.{r.word()}.io/v1/items?page=2", "httpVersion": "HTTP/2",
                    "headers": [{"name": "Accept", "value": "application/json"}, {"name": name, "value": value},
                                {"name": "User-Agent", "value": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"}],
                    "cookies": [], "queryString": [{"name": "page", "value": "2"}], "headersSize": -1, "bodySize": 0},
        "response": {"status": 200, "statusText": "OK", "headers": [{"name": "x-request-id", "value": r.uuid()}]}}]}}
    return json.dumps(entry, indent=2) + "\n"


def ctx_notebook(r, s):
    src = ["import os\n", f"os.environ[\"{s.env}\"] = \"{s.value}\"\n", f"client = {r.word().capitalize()}Client()\n"]
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["## Setup"]},
                    {"cell_type": "code", "execution_count": r.int(1, 30), "metadata": {}, "outputs": [], "source": src}],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1) + "\n"


def ctx_applog_headers(r, s):
    name, value = s.header()
    return (f"{r.ts()}Z DEBUG http.client send: GET /api/v2/orders HTTP/1.1\n{r.ts()}Z DEBUG http.client header: Host: api.{r.word()}.com\n"
            f"{r.ts()}Z DEBUG http.client header: {name}: {value}\n{r.ts()}Z DEBUG http.client header: Accept-Encoding: gzip\n"
            f"{r.ts()}Z INFO  http.client reply: 401 Unauthorized request_id={r.hex(16)}\n")


def ctx_curl_header(r, s):
    name, value = s.header()
    quote = r.pick(["'", '"'])
    return (f"$ curl -sS -X POST https://api.{r.word()}.com/v1/messages \\\n  -H {quote}{name}: {value}{quote} \\\n"
            f"  -H 'Content-Type: application/json' \\\n  -d '{{\"text\": \"hello\"}}'\n{{\"error\": \"rate_limited\"}}\n")


def ctx_py_traceback(r, s):
    return ("Traceback (most recent call last):\n  File \"/app/worker.py\", line 41, in <module>\n    engine = create_engine(settings.DB)\n"
            f"  File \"/usr/lib/python3/dist-packages/sqlalchemy/engine/create.py\", line 566, in create_engine\n"
            f"sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) could not connect to server: Connection refused\n"
            f"(Background on this error at: https://sqlalche.me/e/20/e3q8)\nDB={s.value}\n")


def ctx_netrc(r, s):
    return (f"machine github.com\n  login {r.word()}\n  password {s.value}\n\n" if r.int(0, 1) else
            f"machine api.{r.word()}.com login {s.user or r.word()} password {s.value}\n")


def ctx_pgpass(r, s):
    return f"# hostname:port:database:username:password\n{r.word()}-db.internal:5432:*:{s.user}:{s.value}\nlocalhost:5432:test:test:\n"


def ctx_docker_config(r, s):
    auth = base64.b64encode(f"{s.user}:{s.value}".encode()).decode()
    return json.dumps({"auths": {"registry.gitlab.com": {"auth": auth}, "https://index.docker.io/v1/": {}},
                       "credsStore": "" if r.int(0, 1) else None}, indent="\t") + "\n"


def ctx_npmrc(r, s):
    return f"registry=https://registry.npmjs.org/\n@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken={s.value}\nfund=false\n"


def ctx_ini(r, s):
    key = r.pick(["password", "passwd", "secret", "api_key", "token"]) if s.cls == "password" or r.int(0, 1) else s.env.lower()
    return f"[server]\nhost = 0.0.0.0\nport = {r.int(1000, 9000)}\n\n[{r.word()}]\nuser = {s.user or r.word()}\n{key} = {s.value}\ntimeout = 30\n"


def ctx_toml(r, s):
    return f"[app]\nname = \"{r.word()}\"\ndebug = false\n\n[app.credentials]\n{s.env.lower()} = \"{s.value}\"\nregion = \"eu-west-1\"\n"


def ctx_chat(r, s):
    return r.pick([f"hey, can you try with this one? {s.value}\nit should have write access to the {r.word()} repo\n",
                   f"ok the {s.env.lower().replace('_', ' ')} is {s.value} — don't share it around pls\n",
                   f"@{r.word()} here you go:\n\n{s.value}\n\nlet me know if it 401s again\n"])


def ctx_git_remote(r, s):
    host = r.pick(["github.com", "gitlab.com", "bitbucket.org", "git.internal.example.net"])
    user = r.pick(["x-access-token", "oauth2", r.word()])
    return (f"$ git remote -v\norigin\thttps://{user}:{s.value}@{host}/{r.word()}/{r.word()}.git (fetch)\n"
            f"origin\thttps://{user}:{s.value}@{host}/{r.word()}/{r.word()}.git (push)\n")


def ctx_pem_paste(r, s):
    return f"$ cat ~/.ssh/id_{r.word()}\n{s.value}\n$ chmod 600 ~/.ssh/id_{r.word()}\n"


def ctx_aws_credentials(r, s):
    ak = "AKIA" + r.s(B32, 16)
    if s.kind == "aws-access-key":
        return f"[default]\naws_access_key_id = {s.value}\nregion = us-east-1\n"
    return f"[profile-{r.word()}]\naws_access_key_id = {ak}\naws_secret_access_key = {s.value}\nregion = eu-central-1\n"


def ctx_cli_password(r, s):
    host = f"{r.word()}.internal"
    return r.pick([
        f"$ mysql -h {host} -u {s.user} -p{s.value} shop\nERROR 2003 (HY000): Can't connect to MySQL server on '{host}:3306' (111)\n",
        f"$ sshpass -p '{s.value}' ssh {s.user}@{host} uptime\n 10:02:11 up 41 days,  2:13,  1 user,  load average: 0.08, 0.03, 0.01\n",
        f"$ redis-cli -h {host} -a {s.value} ping\nWarning: Using a password with '-a' or '-u' option on the command line interface may not be safe.\nPONG\n",
        f"$ curl -u {s.user}:{s.value} https://{host}/api/health\n{{\"status\":\"ok\"}}\n",
        f"$ docker login -u {s.user} -p {s.value} registry.{host}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded\n",
        f"$ htpasswd -b -c /etc/nginx/.htpasswd {s.user} {s.value}\nAdding password for user {s.user}\n",
        f"$ openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{s.value}\n",
    ])


def ctx_box_table(r, s):
    rows = [("NAME", "VALUE"), ("APP_ENV", "production"), ("LOG_LEVEL", "warn"), (s.env, s.value), ("REGION", "eu-west-1")]
    width = 60
    out = ["┌" + "─" * 27 + "┬" + "─" * (width + 2) + "┐"]
    for i, (k, v) in enumerate(rows):
        chunks = [v[j:j + width] for j in range(0, len(v), width)] or [""]
        for c, chunk in enumerate(chunks):
            out.append(f"│ {(k if c == 0 else ''):<25} │ {chunk:<{width}} │")
        out.append(("├" + "─" * 27 + "┼" + "─" * (width + 2) + "┤") if i < len(rows) - 1 else ("└" + "─" * 27 + "┴" + "─" * (width + 2) + "┘"))
    return "\n".join(out) + "\n"


def ctx_docker_json_log(r, s):
    inner = json.dumps({"level": "info", "msg": "loaded config", "config": {s.env.lower(): s.value, "port": 8080}})
    return json.dumps({"log": inner + "\n", "stream": "stdout", "time": r.ts() + ".123456789Z"}) + "\n"


# sealed contexts --------------------------------------------------------------------------------

def ctx_gitlab_ci(r, s):
    return (f"Running with gitlab-runner 17.{r.int(0, 5)}.0 (abcdef12)\n  on docker-{r.word()} {r.s(B64URL, 8)}, system ID: s_{r.hex(12)}\n"
            f"Preparing the \"docker\" executor\nExecuting \"step_script\" stage of the job script\n$ echo \"deploying with {s.env}=$" + "{" + s.env + "}\"\n"
            f"deploying with {s.env}={s.value}\n$ helm upgrade --install app ./chart\nError: UPGRADE FAILED\nERROR: Job failed: exit code 1\n")


def ctx_jenkins(r, s):
    return (f"Started by user {r.word()}\n[Pipeline] Start of Pipeline\n[Pipeline] node\nRunning on agent-{r.int(1, 9)} in /var/lib/jenkins/workspace/{r.word()}\n"
            f"[Pipeline] sh\n+ ./gradlew publish -P{s.env.lower()}={s.value}\n> Task :publish FAILED\n[Pipeline] End of Pipeline\nFinished: FAILURE\n")


def ctx_helm_values(r, s):
    key = "".join(w.capitalize() if i else w for i, w in enumerate(s.env.lower().split("_")))
    return (f"$ helm get values {r.word()} -n {r.word()}\nUSER-SUPPLIED VALUES:\nimage:\n  tag: {r.int(1, 9)}.{r.int(0, 9)}.{r.int(0, 9)}\n"
            f"replicaCount: 2\nsecrets:\n  {key}: {s.value}\ningress:\n  enabled: true\n")


def ctx_kubectl_configmap(r, s):
    return (f"$ kubectl -n {r.word()} get configmap app-config -o yaml\napiVersion: v1\ndata:\n  application.properties: |\n"
            f"    server.port=8080\n    spring.profiles.active=prod\n    {s.env.lower().replace('_', '.')}={s.value}\nkind: ConfigMap\n"
            f"metadata:\n  name: app-config\n  uid: {r.uuid()}\n")


def ctx_kubectl_secret_json(r, s):
    obj = {"apiVersion": "v1", "data": {s.env: base64.b64encode(s.value.encode()).decode()}, "kind": "Secret",
           "metadata": {"name": f"{r.word()}-auth", "namespace": "prod", "uid": r.uuid()}, "type": "Opaque"}
    return "$ kubectl get secret -o json " + obj["metadata"]["name"] + "\n" + json.dumps(obj, indent=4) + "\n"


def ctx_tf_plan(r, s):
    return (f"Terraform will perform the following actions:\n\n  # aws_ssm_parameter.{r.word()} will be created\n"
            f"  + resource \"aws_ssm_parameter\" \"{r.word()}\" {{\n      + arn   = (known after apply)\n      + name  = \"/prod/{s.env.lower()}\"\n"
            f"      + type  = \"String\"\n      + value = \"{s.value}\"\n    }}\n\nPlan: 1 to add, 0 to change, 0 to destroy.\n")


def ctx_postman(r, s):
    name, value = s.header()
    coll = {"info": {"_postman_id": r.uuid(), "name": f"{r.word()} API", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
            "item": [{"name": "List users", "request": {"method": "GET", "header": [{"key": name, "value": value, "type": "text"}],
                                                         "url": {"raw": "{{baseUrl}}/users", "host": ["{{baseUrl}}"], "path": ["users"]}}}],
            "variable": [{"key": "baseUrl", "value": f"https://api.{r.word()}.com"}]}
    return json.dumps(coll, indent="\t") + "\n"


def ctx_spring_yaml(r, s):
    if s.cls == "url":
        return f"spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n    hikari:\n      maximum-pool-size: 10\n  data:\n    mongodb:\n      uri: {s.value}\n"
    return (f"spring:\n  application:\n    name: {r.word()}\n  mail:\n    host: smtp.{r.word()}.com\n    username: {s.user or 'noreply'}\n"
            f"    {'password' if s.cls == 'password' else s.env.lower().replace('_', '-')}: {s.value}\nmanagement:\n  endpoints:\n    web:\n      exposure:\n        include: health\n")


def ctx_appsettings(r, s):
    if s.cls == "url":
        cs = s.value
    else:
        cs = f"Server=tcp:{r.word()}.database.windows.net,1433;Database={r.word()};User ID={s.user or 'app'};Password={s.value};Encrypt=True;"
    obj = {"Logging": {"LogLevel": {"Default": "Information"}}, "AllowedHosts": "*", "ConnectionStrings": {"Default": cs}}
    if s.cls == "token":
        obj = {"Logging": {"LogLevel": {"Default": "Warning"}}, "Integrations": {s.env.title().replace("_", ""): s.value}}
    return json.dumps(obj, indent=2) + "\n"


def ctx_msmtprc(r, s):
    return (f"defaults\nauth           on\ntls            on\ntls_trust_file /etc/ssl/certs/ca-certificates.crt\n\naccount        {r.word()}\n"
            f"host           smtp.{r.word()}.com\nport           587\nfrom           {s.user}@example.org\nuser           {s.user}@example.org\n"
            f"password       {s.value}\n\naccount default : {r.word()}\n")


def ctx_pypirc(r, s):
    return f"[distutils]\nindex-servers =\n    pypi\n    internal\n\n[pypi]\nusername = __token__\npassword = {s.value}\n"


def ctx_gcloud_sa(r, s):
    obj = {"type": "service_account", "project_id": f"{r.word()}-{r.int(100000, 999999)}", "private_key_id": r.hex(40),
           "private_key": s.value.replace("OPENSSH ", "").replace("RSA ", "") + "\n", "client_email": f"{r.word()}@{r.word()}.iam.gserviceaccount.com",
           "client_id": str(r.int(10**20, 10**21)), "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token"}
    return json.dumps(obj, indent=2) + "\n"


def ctx_az_sp(r, s):
    return ("$ az ad sp create-for-rbac --name ci-deployer --role contributor --scopes /subscriptions/" + r.uuid() + "\n"
            "Creating 'contributor' role assignment under scope '/subscriptions/...'\n" +
            json.dumps({"appId": r.uuid(), "displayName": "ci-deployer", "password": s.value, "tenant": r.uuid()}, indent=2) + "\n")


def ctx_aws_sts(r, s):
    creds = {"AccessKeyId": "ASIA" + r.s(B32, 16), "SecretAccessKey": r.s(B64, 40), "SessionToken": "IQoJb3JpZ2luX2VjE" + r.s(B64, 380),
             "Expiration": r.ts() + "+00:00"}
    key = {"aws-secret-key": "SecretAccessKey", "aws-session-token": "SessionToken", "aws-access-key": "AccessKeyId"}.get(s.kind)
    if key:
        creds[key] = s.value
        creds.pop("AccessKeyId") if key == "SecretAccessKey" else None
        return "$ aws sts get-session-token --duration-seconds 3600\n" + json.dumps({"Credentials": {key: s.value, "Expiration": creds["Expiration"]}}, indent=4) + "\n"
    return "$ aws secretsmanager get-secret-value --secret-id prod/" + r.word() + "\n" + json.dumps(
        {"ARN": f"arn:aws:secretsmanager:us-east-1:{r.int(10**11, 10**12 - 1)}:secret:prod/{r.word()}-{r.s(ALNUM, 6)}",
         "Name": f"prod/{r.word()}", "VersionId": r.uuid(), "SecretString": json.dumps({s.env.lower(): s.value}),
         "VersionStages": ["AWSCURRENT"]}, indent=4) + "\n"


def ctx_sql_dump(r, s):
    col = "password_plain" if s.cls == "password" else "api_token"
    return (f"--\n-- Dumping data for table `integrations`\n--\n\nLOCK TABLES `integrations` WRITE;\n"
            f"INSERT INTO `integrations` (`id`, `name`, `{col}`, `created_at`) VALUES ({r.int(1, 99)},'{r.word()}','{s.value}','2025-0{r.int(1, 9)}-1{r.int(0, 9)} 10:00:00');\n"
            f"UNLOCK TABLES;\n")


def ctx_java_trace(r, s):
    if s.cls == "url":
        where = s.value
    else:
        where = f"jdbc:postgresql://{r.word()}-db:5432/app?user={s.user or 'app'}&password={s.value}&ssl=true"
    return (f"{r.ts()}.123 ERROR 1 --- [main] o.s.boot.SpringApplication : Application run failed\n"
            f"org.postgresql.util.PSQLException: Connection to {where} refused.\n"
            f"\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:346)\n"
            f"\tat org.postgresql.Driver.makeConnection(Driver.java:443)\n\tat com.zaxxer.hikari.pool.PoolBase.newConnection(PoolBase.java:364)\n")


def ctx_access_log(r, s):
    param = r.pick(["access_token", "api_key", "token", "key"])
    from urllib.parse import quote as urlquote
    return (f"{r.ip()} - - [06/Dec/2026:0{r.int(0, 9)}:1{r.int(0, 9)}:22 +0000] \"GET /healthz HTTP/1.1\" 200 2 \"-\" \"kube-probe/1.31\"\n"
            f"{r.ip()} - - [06/Dec/2026:0{r.int(0, 9)}:1{r.int(0, 9)}:23 +0000] \"GET /v1/export?{param}={urlquote(s.value, safe='')}&format=csv HTTP/1.1\" 403 153 \"-\" \"python-requests/2.32.3\"\n")


def ctx_markdown_issue(r, s):
    return (f"### Steps to reproduce\n\n1. Configure the client:\n\n```python\nclient = {r.word().capitalize()}(\n    {s.env.lower()}=\"{s.value}\",\n    timeout=30,\n)\n```\n\n"
            f"2. Call `client.sync()`\n\n### Expected\nIt works.\n")


def ctx_powershell(r, s):
    return f"PS C:\\Users\\{r.word()}> $env:{s.env} = \"{s.value}\"\nPS C:\\Users\\{r.word()}> .\\publish.ps1 -Verbose\nVERBOSE: Publishing module...\n"


def ctx_webconfig(r, s):
    return (f"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<configuration>\n  <appSettings>\n    <add key=\"Environment\" value=\"Production\" />\n"
            f"    <add key=\"{s.env.title().replace('_', '')}\" value=\"{s.value}\" />\n  </appSettings>\n</configuration>\n")


def ctx_systemd(r, s):
    return (f"[Unit]\nDescription={r.word()} worker\nAfter=network-online.target\n\n[Service]\nUser={r.word()}\n"
            f"Environment=\"{s.env}={s.value}\"\nExecStart=/usr/local/bin/{r.word()} --serve\nRestart=always\n\n[Install]\nWantedBy=multi-user.target\n")


def ctx_source_code(r, s):
    name = "".join(w.capitalize() if i else w for i, w in enumerate(s.env.lower().split("_")))
    return r.pick([
        f"package main\n\nimport \"os\"\n\nconst {name} = \"{s.value}\"\n\nfunc main() {{\n\tos.Setenv(\"X\", {name})\n}}\n",
        f"// TODO move to vault before release\nconst {name} = '{s.value}';\nexport default {{ {name} }};\n",
        f"class Settings:\n    {s.env} = \"{s.value}\"\n    TIMEOUT = 30\n",
    ])


def ctx_docker_inspect(r, s):
    return ("$ docker inspect --format '{{json .Config.Env}}' " + r.word() + "\n" +
            json.dumps(["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", f"{s.env}={s.value}", "LANG=C.UTF-8"]) + "\n")


def ctx_pipe_table(r, s):
    return (f"| Name | Value | Updated |\n|------|-------|---------|\n| LOG_LEVEL | info | 2025-01-02 |\n| {s.env} | {s.value} | 2025-0{r.int(1, 9)}-11 |\n"
            f"| REGION | eu-west-1 | 2024-12-30 |\n")


def ctx_ansible_key(r, s):
    body = "\n".join("      " + line for line in s.value.splitlines())
    return (f"---\n{r.word()}_deploy_user: deploy\n{r.word()}_deploy_host: {r.ip()}\n{r.word()}_deploy_key: |\n{body}\n"
            f"{r.word()}_known_hosts: []\n")


def ctx_raw_http_cookie(r, s):
    name = r.pick(["session", "sessionid", "_app_session", "connect.sid", "auth_token"])
    val = s.value if s.cls != "password" else base64.b64encode(r.bytes(48)).decode()
    return (f"POST /account/settings HTTP/1.1\nHost: {r.word()}.example.com\nUser-Agent: Mozilla/5.0\nAccept: */*\n"
            f"Cookie: _ga=GA1.1.{r.int(10**8, 10**9)}.{r.int(10**9, 2 * 10**9)}; {name}={val}; theme=dark\nContent-Length: 0\n\n")


# Templates: (name, function, accepted classes). dev and sealed are disjoint.
DEV = [
    ("shell-history", ctx_shell_history, ("token", "password")),
    ("dotenv", ctx_dotenv, ("token", "password", "url")),
    ("github-actions-log", ctx_gha_log, ("token", "password")),
    ("compose-environment", ctx_compose, ("token", "password", "url")),
    ("k8s-secret-stringdata", ctx_k8s_stringdata, ("token", "password", "url")),
    ("k8s-secret-data-base64", ctx_k8s_data, ("token", "password", "url")),
    ("k8s-env-name-value", ctx_k8s_env, ("token", "password", "url")),
    ("terraform-state", ctx_tfstate, ("token", "password")),
    ("har-headers", ctx_har, ("token", "password")),
    ("jupyter-notebook", ctx_notebook, ("token", "password")),
    ("applog-headers", ctx_applog_headers, ("token", "password")),
    ("curl-header", ctx_curl_header, ("token",)),
    ("python-traceback", ctx_py_traceback, ("url",)),
    ("netrc", ctx_netrc, ("password", "token")),
    ("pgpass", ctx_pgpass, ("password",)),
    ("docker-config-auth", ctx_docker_config, ("password",)),
    ("npmrc", ctx_npmrc, ("token",)),
    ("ini-config", ctx_ini, ("token", "password")),
    ("toml-config", ctx_toml, ("token", "password")),
    ("chat-prose", ctx_chat, ("token",)),
    ("git-remote", ctx_git_remote, ("token",)),
    ("pem-paste", ctx_pem_paste, ("pem",)),
    ("aws-credentials-file", ctx_aws_credentials, ("aws",)),
    ("cli-password-option", ctx_cli_password, ("password",)),
    ("box-table", ctx_box_table, ("token", "password")),
    ("docker-json-log", ctx_docker_json_log, ("token", "password")),
]

SEALED = [
    ("gitlab-ci-log", ctx_gitlab_ci, ("token", "password")),
    ("jenkins-console", ctx_jenkins, ("token", "password")),
    ("helm-get-values", ctx_helm_values, ("token", "password")),
    ("kubectl-configmap", ctx_kubectl_configmap, ("token", "password", "url")),
    ("kubectl-secret-json", ctx_kubectl_secret_json, ("token", "password", "url")),
    ("terraform-plan", ctx_tf_plan, ("token", "password")),
    ("postman-collection", ctx_postman, ("token", "password")),
    ("spring-yaml", ctx_spring_yaml, ("token", "password", "url")),
    ("appsettings-json", ctx_appsettings, ("token", "password", "url")),
    ("msmtprc", ctx_msmtprc, ("password",)),
    ("pypirc", ctx_pypirc, ("pypi",)),
    ("ansible-vars-key", ctx_ansible_key, ("pem",)),
    ("gcloud-service-account", ctx_gcloud_sa, ("pem-pkcs",)),
    ("az-sp-output", ctx_az_sp, ("password", "azure")),
    ("aws-cli-output", ctx_aws_sts, ("aws", "token")),
    ("sql-dump", ctx_sql_dump, ("token", "password")),
    ("java-trace-jdbc", ctx_java_trace, ("password", "url")),
    ("access-log-query", ctx_access_log, ("token",)),
    ("markdown-issue", ctx_markdown_issue, ("token", "password")),
    ("powershell", ctx_powershell, ("token", "password")),
    ("web-config-xml", ctx_webconfig, ("token", "password")),
    ("systemd-unit", ctx_systemd, ("token", "password", "url")),
    ("source-code", ctx_source_code, ("token", "password")),
    ("docker-inspect-env", ctx_docker_inspect, ("token", "password", "url")),
    ("pipe-table", ctx_pipe_table, ("token", "password")),
    ("http-cookie", ctx_raw_http_cookie, ("token", "password")),
]


class SecretSource:
    """Hands out secrets of a class, cycling through the token kinds so every half covers them all."""

    def __init__(self, r):
        self.r = r
        self.kinds = sorted(TOKENS)
        r.r.shuffle(self.kinds)
        self.next = 0

    def token(self):
        kind = self.kinds[self.next % len(self.kinds)]
        self.next += 1
        return make_token(self.r, kind)

    def get(self, cls):
        r = self.r
        if cls == "token":
            return self.token()
        if cls == "password":
            return make_password(r)
        if cls == "url":
            return make_url(r)
        if cls == "pem":
            return make_pem(r)
        if cls == "pem-pkcs":
            s = make_pem(r)
            while "PGP" in s.value or "OPENSSH" in s.value or "ENCRYPTED" in s.value:
                s = make_pem(r)
            return s
        if cls == "aws":
            return make_token(r, r.pick(["aws-access-key", "aws-secret-key", "aws-secret-key", "aws-session-token"]))
        if cls == "azure":
            return make_token(r, "azure-client-secret")
        if cls == "pypi":
            return make_token(r, "pypi")
        raise ValueError(cls)


def positives(half, per_template):
    r = R(SEEDS[half])
    source = SecretSource(r)
    out = []
    for name, make, classes in (DEV if half == "dev" else SEALED):
        for i in range(per_template):
            if classes[0] == "token" and len(classes) > 1:
                cls = classes[1 + (i // 3) % (len(classes) - 1)] if i % 3 == 2 else "token"
            else:
                cls = classes[i % len(classes)]
            s = source.get(cls)
            if cls == "password" and s.user is None:
                s.user = "app"
            out.append((f"pos-{name}-{i:02}.txt", name, s.kind, s.value, make(r, s)))
    return out


# --- hard clean files -----------------------------------------------------------------------------

def sha256(r):
    return hashlib.sha256(r.bytes(32)).hexdigest()


def sri(r, bits=512):
    return f"sha{bits}-" + base64.b64encode(r.bytes(bits // 8)).decode()


def clean_package_lock(r):
    deps = {}
    for _ in range(r.int(4, 9)):
        name = r.word() + "-" + r.word()
        deps[f"node_modules/{name}"] = {"version": f"{r.int(0, 9)}.{r.int(0, 20)}.{r.int(0, 9)}",
                                        "resolved": f"https://registry.npmjs.org/{name}/-/{name}-1.0.0.tgz", "integrity": sri(r), "dev": True}
    return json.dumps({"name": r.word(), "version": "1.0.0", "lockfileVersion": 3, "requires": True, "packages": deps}, indent=2) + "\n"


def clean_helm_checksum(r):
    return (f"---\n# Source: {r.word()}/templates/deployment.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {r.word()}\nspec:\n"
            f"  template:\n    metadata:\n      annotations:\n        checksum/config: {sha256(r)}\n        checksum/secret: {sha256(r)}\n"
            f"    spec:\n      containers:\n        - name: app\n          image: \"ghcr.io/acme/app@sha256:{sha256(r)}\"\n"
            f"          envFrom:\n            - secretRef:\n                name: {r.word()}-secret\n")


def clean_git_log(r):
    out = []
    for _ in range(r.int(3, 6)):
        out.append(f"commit {r.hex(40)}\nAuthor: {r.word().capitalize()} <{r.word()}@example.org>\nDate:   Mon Nov {r.int(1, 28)} 10:{r.int(10, 59)}:00 2026 +0100\n\n"
                   f"    Fix token refresh race in {r.word()} (#{r.int(100, 9999)})\n")
    return "\n".join(out) + f"\n$ git rev-parse HEAD\n{r.hex(40)}\n"


def clean_docker_digests(r):
    return (f"$ docker pull ghcr.io/acme/{r.word()}:latest\nlatest: Pulling from acme/{r.word()}\n{r.hex(12)}: Pull complete\n{r.hex(12)}: Pull complete\n"
            f"Digest: sha256:{sha256(r)}\nStatus: Downloaded newer image for ghcr.io/acme/{r.word()}:latest\n\n$ docker images --digests\n"
            f"REPOSITORY   TAG   DIGEST   IMAGE ID   CREATED   SIZE\nghcr.io/acme/{r.word()}   latest   sha256:{sha256(r)}   {r.hex(12)}   2 days ago   87.1MB\n")


def clean_request_ids(r):
    lines = []
    for _ in range(r.int(5, 10)):
        lines.append(f"{r.ts()}Z INFO request completed method=GET path=/v1/items/{r.uuid()} status=200 duration_ms={r.int(1, 900)} "
                     f"request_id={r.uuid()} trace_id={r.hex(32)} span_id={r.hex(16)} session_id_hash={r.hex(16)}")
    return "\n".join(lines) + "\n"


def clean_env_example(r):
    return r.pick([
        "# Copy to .env and fill in\nGITHUB_TOKEN=<your-github-token>\nOPENAI_API_KEY=your-api-key-here\nDB_PASSWORD=changeme\nSTRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx\nSECRET_KEY_BASE=${SECRET_KEY_BASE}\n",
        "DATABASE_URL=postgres://user:password@localhost:5432/dbname\nREDIS_PASSWORD=\nAWS_SECRET_ACCESS_KEY=********\nAPI_KEY=$API_KEY\nSLACK_TOKEN=xoxb-your-token\n",
        "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nexport AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nexport AWS_DEFAULT_REGION=us-west-2\n",
        "password: \"{{ vault_db_password }}\"\napi_token: \"{{ lookup('env', 'API_TOKEN') }}\"\nsecret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  " + r.hex(64) + "\n  " + r.hex(64) + "\n",
        "GITLAB_TOKEN=glpat-xxxxxxxxxxxxxxxxxxxx\nNPM_TOKEN=npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\nPASSWORD=<password>\nTOKEN=\"\"\n",
    ])


def clean_docs_example(r):
    return r.pick([
        "## Authentication\n\nPass your token in the `Authorization` header:\n\n```sh\ncurl -H \"Authorization: Bearer $TOKEN\" https://api.example.com/v1/me\n```\n\nReplace `$TOKEN` with the value from **Settings → Tokens**.\n",
        "To configure the AWS CLI:\n\n```\n$ aws configure\nAWS Access Key ID [None]: AKIAIOSFODNN7EXAMPLE\nAWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nDefault region name [None]: us-west-2\n```\n",
        "Set `password` to the value of the `DB_PASSWORD` environment variable, e.g.\n\n    password = os.environ[\"DB_PASSWORD\"]\n    token = get_secret(\"prod/api-token\")\n",
        "```yaml\nenv:\n  - name: API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: api\n        key: token\n```\n",
    ])


def clean_ssh_pubkeys(r):
    lines = []
    for _ in range(r.int(2, 4)):
        kind = r.pick(["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + r.s(B64, 43),
                       "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + r.s(B64, 500),
                       "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB" + r.s(B64, 90) + "="])
        lines.append(f"{kind} {r.word()}@{r.word()}-laptop")
    return "\n".join(lines) + f"\n{r.word()}.example.org ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{r.s(B64, 43)}\n"


def clean_certificate(r):
    return ("-----BEGIN CERTIFICATE-----\n" + pem_body(r, "MIIDazCCAlOgAwIBAgIU", 860) + "\n-----END CERTIFICATE-----\n"
            "-----BEGIN PUBLIC KEY-----\n" + pem_body(r, "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 270) + "\n-----END PUBLIC KEY-----\n")


def clean_data_uri(r):
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + r.bytes(r.int(200, 600))).decode()
    return f"<img alt=\"logo\" width=\"32\" src=\"data:image/png;base64,{png}\">\n<p>{r.word()} dashboard</p>\n"


def clean_minified_js(r):
    parts = []
    for _ in range(r.int(20, 40)):
        a, b = r.s(LOWER, 1), r.s(LOWER, 2)
        parts.append(r.pick([f"function {a}({b}){{return {b}&&{b}.__esModule?{b}:{{default:{b}}}}}",
                             f"var {b}=\"{r.s(ALNUM, r.int(8, 30))}\"", f"{a}.exports={{key:\"{r.s(B64URL, 12)}\",v:{r.int(0, 999)}}}",
                             f"const {b}=new Map([[\"{r.word()}\",{r.int(0, 99)}]])", f"/*! {r.word()} v{r.int(1, 9)}.{r.int(0, 9)} */"]))
    return ";".join(parts) + "\n//# sourceMappingURL=main." + r.hex(20) + ".js.map\n"


def clean_k8s_refs(r):
    return (f"apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: {r.word()}\nspec:\n  secretStoreRef:\n    name: vault-backend\n"
            f"  data:\n  - secretKey: password\n    remoteRef:\n      key: secret/data/prod/{r.word()}\n      property: password\n---\n"
            f"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {r.word()}-db\n        key: password\n"
            f"  - name: API_TOKEN\n    value: vault:secret/data/{r.word()}#token\n  - name: SLACK_TOKEN\n    value: op://Private/{r.word()}/credential\n")


def clean_sealed_secret(r):
    return (f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {r.word()}\n  namespace: prod\nspec:\n  encryptedData:\n"
            f"    password: AgB{r.s(B64, 680)}==\n    api-token: AgC{r.s(B64, 680)}=\n  template:\n    metadata:\n      name: {r.word()}\n")


def clean_cargo_lock(r):
    out = ["# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 3\n"]
    for _ in range(r.int(4, 8)):
        out.append(f"[[package]]\nname = \"{r.word()}\"\nversion = \"{r.int(0, 2)}.{r.int(0, 30)}.{r.int(0, 9)}\"\n"
                   f"source = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"{sha256(r)}\"\n")
    return "\n".join(out)


def clean_test_fixture(r):
    return r.pick([
        f"def test_login_rejects_bad_password(client):\n    resp = client.post(\"/login\", data={{\"user\": \"alice\", \"password\": \"wrong-password\"}})\n    assert resp.status_code == 401\n",
        f"func TestToken(t *testing.T) {{\n\ttoken := \"test-token\"\n\tif got := Auth(token); got != nil {{\n\t\tt.Fatal(got)\n\t}}\n}}\n",
        f"describe('auth', () => {{\n  it('uses the api key', () => {{\n    const apiKey = 'dummy-api-key';\n    expect(sign(apiKey)).toBe('{r.hex(8)}');\n  }});\n}});\n",
        f"@Test\nvoid passwordIsHashed() {{\n    String password = \"password123\";\n    assertNotEquals(password, encoder.encode(password));\n}}\n",
    ])


def clean_poetry_lock(r):
    out = []
    for _ in range(r.int(3, 6)):
        name = r.word()
        out.append(f"[[package]]\nname = \"{name}\"\nversion = \"{r.int(1, 9)}.{r.int(0, 9)}.{r.int(0, 9)}\"\ndescription = \"\"\noptional = false\n"
                   f"python-versions = \">=3.8\"\nfiles = [\n    {{file = \"{name}-1.0-py3-none-any.whl\", hash = \"sha256:{sha256(r)}\"}},\n"
                   f"    {{file = \"{name}-1.0.tar.gz\", hash = \"sha256:{sha256(r)}\"}},\n]\n")
    return "\n".join(out) + f"\n[metadata]\nlock-version = \"2.0\"\npython-versions = \"^3.11\"\ncontent-hash = \"{sha256(r)}\"\n"


def clean_go_sum(r):
    out = []
    for _ in range(r.int(4, 10)):
        mod = f"github.com/{r.word()}/{r.word()} v{r.int(0, 2)}.{r.int(0, 20)}.{r.int(0, 9)}"
        out.append(f"{mod} h1:{base64.b64encode(r.bytes(32)).decode()}")
        out.append(f"{mod}/go.mod h1:{base64.b64encode(r.bytes(32)).decode()}")
    return "\n".join(out) + "\n"


def clean_yarn_lock(r):
    out = ["# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n"]
    for _ in range(r.int(3, 7)):
        n = r.word()
        out.append(f"{n}@^1.0.0:\n  version \"1.{r.int(0, 9)}.{r.int(0, 9)}\"\n  resolved \"https://registry.yarnpkg.com/{n}/-/{n}-1.0.0.tgz#{r.hex(40)}\"\n"
                   f"  integrity {sri(r)}\n")
    return "\n".join(out)


def clean_ci_checksums(r):
    return (f"Run actions/cache@v4\nCache restored from key: node-cache-Linux-x64-npm-{sha256(r)}\n"
            f"$ sha256sum dist/*.tar.gz\n{sha256(r)}  dist/{r.word()}-1.2.0.tar.gz\n{sha256(r)}  dist/{r.word()}-1.2.0-linux-amd64.tar.gz\n"
            f"$ md5sum build.zip\n{r.hex(32)}  build.zip\nUploading artifact {r.word()} (ID {r.int(10**9, 10**10)}) sha256:{sha256(r)}\n")


def clean_kubectl_pods(r):
    lines = ["NAME                                READY   STATUS    RESTARTS   AGE"]
    for _ in range(r.int(3, 8)):
        lines.append(f"{r.word()}-{r.s('bcdfghjklmnpqrstvwxz2456789', 10)}-{r.s('bcdfghjklmnpqrstvwxz2456789', 5)}   1/1     Running   0          {r.int(1, 59)}m")
    return "\n".join(lines) + f"\n\n$ kubectl get pod -o jsonpath='{{.status.containerStatuses[0].imageID}}'\ndocker.io/library/nginx@sha256:{sha256(r)}\n"


def clean_tf_plan(r):
    return (f"  # aws_db_instance.main will be updated in-place\n  ~ resource \"aws_db_instance\" \"main\" {{\n        id       = \"db-{r.s(UPPER_ALNUM, 26)}\"\n"
            f"      ~ password = (sensitive value)\n        username = \"app\"\n      + kms_key_id = \"arn:aws:kms:eu-west-1:{r.int(10**11, 10**12 - 1)}:key/{r.uuid()}\"\n    }}\n\n"
            f"  # data.aws_ssm_parameter.token will be read during apply\n  <= data \"aws_ssm_parameter\" \"token\" {{\n      + name  = \"/prod/api/token\"\n"
            f"      + value = (sensitive value)\n    }}\n\nvariable \"db_password\" {{ default = var.db_password_from_vault }}\n")


def clean_docs_placeholder(r):
    return r.pick([
        "### Configuration\n\n| Key | Example |\n|---|---|\n| `api_key` | `YOUR_API_KEY` |\n| `token` | `ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` |\n| `password` | `hunter2` (don't!) |\n",
        "The JWT looks like this (from jwt.io):\n\n    eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\n",
        "export OPENAI_API_KEY=\"sk-...\"\nexport ANTHROPIC_API_KEY=\"<paste key here>\"\nexport HF_TOKEN=hf_********************************\n",
        "Connection string: `Server=myServerAddress;Database=myDataBase;User Id=myUsername;Password=myPassword;`\n",
    ])


def clean_pgp_public(r):
    return ("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + pem_body(r, "mQINBG", 1100) + f"\n={r.s(B64, 4)}\n-----END PGP PUBLIC KEY BLOCK-----\n")


def clean_css_font(r):
    return (f".icon-{r.word()}{{background:url(data:image/svg+xml;base64,{base64.b64encode(r.bytes(300)).decode()}) no-repeat}}\n"
            f"@font-face{{font-family:\"{r.word()}\";src:url(data:font/woff2;base64,{base64.b64encode(r.bytes(900)).decode()}) format(\"woff2\")}}\n"
            f".btn-{r.word()}{{color:#{r.hex(6)};border:1px solid #{r.hex(6)}}}\n")


def clean_otel(r):
    spans = [{"traceId": r.hex(32), "spanId": r.hex(16), "parentSpanId": r.hex(16), "name": f"GET /{r.word()}",
              "attributes": [{"key": "http.request.header.x-request-id", "value": {"stringValue": r.uuid()}},
                             {"key": "session.id", "value": {"stringValue": r.hex(32)}}]} for _ in range(r.int(2, 5))]
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}, indent=2) + "\n"


def clean_html_sri(r):
    return "".join(f"<script src=\"https://cdn.jsdelivr.net/npm/{r.word()}@{r.int(1, 5)}.{r.int(0, 9)}/dist/{r.word()}.min.js\" integrity=\"{sri(r, 384)}\" crossorigin=\"anonymous\"></script>\n"
                   for _ in range(r.int(2, 5)))


def clean_build_output(r):
    lines = []
    for _ in range(r.int(6, 14)):
        addr = r.int(0x1000, 0xfffff)
        lines.append(f"  {addr:x}:\t{' '.join(r.hex(2) for _ in range(r.int(2, 7)))}\t{r.pick(['mov', 'lea', 'call', 'jmp', 'push'])} {r.pick(['%rax', '%rdi', '0x' + r.hex(6)])}")
    return (f"Build ID: {r.hex(40)}\nCompiling {r.word()} v0.{r.int(1, 9)}.0\n" + "\n".join(lines) +
            f"\n[{r.int(100, 999)}/{r.int(1000, 2000)}] Linking {r.word()}-{r.hex(16)}.o\n")


def clean_sops(r):
    return (f"db_password: ENC[AES256_GCM,data:{r.s(B64, 24)},iv:{r.b64(32)},tag:{r.b64(16)},type:str]\n"
            f"api_token: ENC[AES256_GCM,data:{r.s(B64, 56)},iv:{r.b64(32)},tag:{r.b64(16)},type:str]\nsops:\n"
            f"    age:\n        - recipient: age1{r.s(BECH32.lower(), 58)}\n          enc: |\n            -----BEGIN AGE ENCRYPTED FILE-----\n"
            f"            {r.s(B64, 64)}\n            {r.s(B64, 64)}\n            -----END AGE ENCRYPTED FILE-----\n"
            f"    lastmodified: \"{r.ts()}Z\"\n    mac: ENC[AES256_GCM,data:{r.b64(64)},iv:{r.b64(32)},tag:{r.b64(16)},type:str]\n    version: 3.9.1\n")


def clean_aws_describe(r):
    return ("$ aws sts get-caller-identity\n" + json.dumps({"UserId": "AIDA" + r.s(B32, 17), "Account": str(r.int(10**11, 10**12 - 1)),
                                                          "Arn": f"arn:aws:iam::{r.int(10**11, 10**12 - 1)}:user/{r.word()}"}, indent=4) +
            "\n$ aws ec2 describe-instances --query 'Reservations[].Instances[].[InstanceId,ImageId]'\n" +
            json.dumps([[f"i-{r.hex(17)}", f"ami-{r.hex(17)}"] for _ in range(r.int(2, 4))], indent=4) + "\n")


def clean_compose_refs(r):
    return (f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n      POSTGRES_USER: ${{DB_USER:-app}}\n"
            f"  app:\n    environment:\n      DATABASE_URL: postgres://app:${{DB_PASSWORD}}@db:5432/app\n      API_TOKEN: ${{API_TOKEN:?set API_TOKEN}}\n"
            f"      OP_TOKEN: op://vault/{r.word()}/password\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt\n")


CLEAN_DEV = [
    ("package-lock", clean_package_lock), ("helm-checksum", clean_helm_checksum), ("git-log", clean_git_log),
    ("docker-digests", clean_docker_digests), ("request-ids", clean_request_ids), ("env-example", clean_env_example),
    ("docs-example", clean_docs_example), ("ssh-public-keys", clean_ssh_pubkeys), ("certificate", clean_certificate),
    ("data-uri", clean_data_uri), ("minified-js", clean_minified_js), ("k8s-secret-refs", clean_k8s_refs),
    ("sealed-secret", clean_sealed_secret), ("cargo-lock", clean_cargo_lock), ("test-fixture", clean_test_fixture),
]

CLEAN_SEALED = [
    ("poetry-lock", clean_poetry_lock), ("go-sum", clean_go_sum), ("yarn-lock", clean_yarn_lock), ("ci-checksums", clean_ci_checksums),
    ("kubectl-pods", clean_kubectl_pods), ("terraform-plan-sensitive", clean_tf_plan), ("docs-placeholder", clean_docs_placeholder),
    ("pgp-public-key", clean_pgp_public), ("css-data", clean_css_font), ("otel-trace", clean_otel), ("html-sri", clean_html_sri),
    ("build-output", clean_build_output), ("sops-encrypted", clean_sops), ("aws-describe", clean_aws_describe),
    ("compose-references", clean_compose_refs),
]


def cleans(half, per_family):
    r = R(SEEDS[half] + 1)
    out = []
    for name, make in (CLEAN_DEV if half == "dev" else CLEAN_SEALED):
        for i in range(per_family):
            out.append((f"clean-{name}-{i:02}.txt", name, make(r)))
    return out
