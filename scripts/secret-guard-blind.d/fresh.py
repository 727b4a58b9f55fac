"""Fresh hold-out corpus for a secret detector (session 18, issue 42).

Built from vendor documentation / public format descriptions only, without
looking at the detector under test (a helper that read none of paste's
sources wrote it; fresh-sources.md names where each format comes from).
Standard library only.

Two seeds of the same templates: "fresh" was measured first and only by
counts ("sealed"), "twin" is what the rules may be tuned on.

    positives(half, per_template) -> (name, context, kind, value, text)
    cleans(half, per_family)      -> (name, family, text)

Every value is generated with random.Random seeded from half + template name,
so output is identical on every run.  All credentials are synthetic: they have
real formats (prefixes, lengths, alphabets, checksums) but were never issued.
"""
import base64
import hashlib
import json
import random
import string
import struct
import urllib.parse
import zlib

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIG = string.digits
B62 = DIG + UPPER + LOWER            # GitHub/npm base62 alphabet order
ALNUM = UPPER + LOWER + DIG
HEX = "0123456789abcdef"
B64 = UPPER + LOWER + DIG + "+/"
B64URL = UPPER + LOWER + DIG + "-_"
B32 = UPPER + "234567"


# ----------------------------------------------------------------------------
# low level helpers
# ----------------------------------------------------------------------------
def rs(r, n, alpha=ALNUM):
    return "".join(r.choice(alpha) for _ in range(n))


def rbytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def b62(n, width):
    out = ""
    while n:
        n, d = divmod(n, 62)
        out = B62[d] + out
    return out.rjust(width, "0")


def crc_b62(s):
    return b62(zlib.crc32(s.encode()) & 0xFFFFFFFF, 6)


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def b64(b):
    return base64.b64encode(b).decode()


def wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


FIRST = ["alice", "bob", "carlos", "dana", "elif", "farah", "george", "hana", "ivan", "jun",
         "kemal", "lena", "mateo", "nadia", "oscar", "priya", "quinn", "rosa", "sven", "tomas",
         "uma", "victor", "wei", "ximena", "yusuf", "zoe"]
LAST = ["anders", "baker", "chen", "dubois", "evans", "fischer", "garcia", "haddad", "ito",
        "jensen", "kowalski", "larsen", "moreau", "nakamura", "okafor", "petrov", "rossi",
        "schmidt", "tanaka", "umarov", "vargas", "weber", "yilmaz", "zhou"]
ORGS = ["acme", "northwind", "globex", "initech", "umbrella-labs", "hooli", "vandelay",
        "stark-ind", "wayne-ent", "cyberdyne", "tyrell", "soylent", "oscorp", "pied-piper",
        "blue-harbor", "redwood-ai", "lumen-health", "kitepay", "orbit-logistics", "fernway"]
SERVICES = ["billing", "checkout", "inventory", "auth", "search", "notifier", "reports",
            "gateway", "scheduler", "ledger", "catalog", "ingest", "webhooks", "analytics",
            "payments", "profile", "media", "export"]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2", "ap-northeast-1"]
TLDS = ["io", "com", "dev", "net", "co", "app"]
WORDS = ["Summer", "Winter", "Kayak", "Falcon", "Maple", "Harbor", "Tiger", "Orchid", "Copper",
         "Nebula", "Pepper", "Rocket", "Sunset", "Marble", "Coffee", "Dragon", "Willow", "Cobalt",
         "Granite", "Lemon", "Panda", "Thunder", "Velvet", "Zephyr", "Bison", "Cactus"]


def person(r):
    return r.choice(FIRST), r.choice(LAST)


def org(r):
    return r.choice(ORGS)


def domain(r):
    return "%s.%s" % (org(r), r.choice(TLDS))


def host(r):
    return "%s-%s-%02d.%s" % (r.choice(SERVICES), r.choice(["db", "pg", "mysql", "app", "api", "cache"]),
                              r.randint(1, 30), r.choice(["internal", "prod.local", "svc.cluster.local", domain(r)]))


def username(r):
    f, l = person(r)
    return r.choice(["%s.%s" % (f, l), f + l[0], f[0] + l, "%s_%s" % (f, r.randint(1, 99)), "svc_" + r.choice(SERVICES)])


def email(r):
    f, l = person(r)
    return "%s.%s@%s" % (f, l, domain(r))


def ts(r, year=2025):
    return "%d-%02d-%02dT%02d:%02d:%02d" % (year, r.randint(1, 12), r.randint(1, 28), r.randint(0, 23),
                                            r.randint(0, 59), r.randint(0, 59))


def ip(r):
    return "%d.%d.%d.%d" % (r.choice([10, 172, 192, 34, 52, 18]), r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def uuid4(r):
    h = rs(r, 32, HEX)
    return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], r.choice("89ab"), h[17:20], h[20:32])


# ----------------------------------------------------------------------------
# passwords (generic credentials)
# ----------------------------------------------------------------------------
SYM_DEFAULT = "!#%*-_.+=~^@"


def pw_random(r, symbols=SYM_DEFAULT):
    n = r.randint(14, 24)
    while True:
        alpha = LOWER + UPPER + DIG + symbols
        p = [r.choice(LOWER), r.choice(UPPER), r.choice(DIG)] + ([r.choice(symbols)] if symbols else [])
        p += [r.choice(alpha) for _ in range(n - len(p))]
        r.shuffle(p)
        s = "".join(p)
        if s[0] not in "-=#~^":
            return s


def pw_memorable(r, symbols="!#%*.-_+@"):
    sym = r.choice(symbols) if symbols else ""
    w1, w2 = r.sample(WORDS, 2)
    yr = str(r.choice([r.randint(1975, 2026), r.randint(10, 99), r.randint(100, 9999)]))
    pat = r.randint(0, 5)
    if pat == 0:
        return w1 + yr + sym + w2
    if pat == 1:
        return w1.lower() + sym + w2 + yr
    if pat == 2:
        return "%s%s%s%s%s" % (w1, sym, w2.lower(), sym, yr)
    if pat == 3:
        return w1 + w2 + yr + sym
    if pat == 4:
        leet = w1.replace("o", "0").replace("e", "3").replace("a", "@" if "@" in symbols else "4")
        return leet + yr + sym + w2[:4]
    return "%s-%s-%s-%s" % (w1.lower(), w2.lower(), r.choice(WORDS).lower(), yr)


def password(r, symbols=SYM_DEFAULT):
    if r.random() < 0.6:
        return pw_random(r, symbols)
    return pw_memorable(r, symbols.replace("=", "") or "")


def secret_hex(r, n=None):
    return rs(r, n or r.choice([32, 40, 48, 64]), HEX)


def secret_b64(r, nbytes=None):
    return b64(rbytes(r, nbytes or r.choice([24, 32, 48])))


def secret_alnum(r, n=None):
    return rs(r, n or r.randint(28, 48), ALNUM)


# ----------------------------------------------------------------------------
# vendor credential generators (source of each format in the comment)
# ----------------------------------------------------------------------------
def gh_token(r, prefix):
    # https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/
    # prefix + 30 base62 chars + 6-char base62 CRC32 of the 30 chars (alphabet 0-9A-Za-z)
    body = rs(r, 30, B62)
    return prefix + body + crc_b62(body)


def gh_fine_grained(r):
    # https://github.blog/changelog/2022-10-18-introducing-fine-grained-personal-access-tokens/
    # github_pat_ + 22 base62 + "_" + 59 base62 (total 93 chars). The last 6 chars are
    # modelled as a base62 CRC32 over the preceding payload (unsure, see SOURCES.md).
    a = rs(r, 22, B62)
    b = rs(r, 53, B62)
    return "github_pat_%s_%s%s" % (a, b, crc_b62(a + "_" + b))


def npm_token(r):
    # https://github.blog/changelog/2021-09-23-npm-has-a-new-access-token-format/
    # npm_ + 30 base62 + 6-char base62 CRC32 checksum
    return gh_token(r, "npm_")


def gitlab_pat(r):
    # https://docs.gitlab.com/ee/security/token_overview.html (glpat- + 20 chars [0-9A-Za-z_-])
    return "glpat-" + rs(r, 20, B64URL)


def gitlab_deploy(r):
    # https://docs.gitlab.com/ee/security/token_overview.html#token-prefixes (gldt-)
    return "gldt-" + rs(r, 20, B64URL)


def gitlab_runner(r):
    # https://docs.gitlab.com/ee/security/token_overview.html#token-prefixes (glrt-)
    return "glrt-" + rs(r, 20, B64URL)


def gitlab_trigger(r):
    # https://docs.gitlab.com/ee/security/token_overview.html#token-prefixes (glptt- + 40 hex)
    return "glptt-" + rs(r, 40, HEX)


def aws_key_id(r, prefix="AKIA"):
    # https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids
    # AKIA (long-term) / ASIA (STS temporary) + 16 chars base32 [A-Z2-7]
    return prefix + rs(r, 16, B32)


def aws_secret(r):
    # https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html  (40 chars base64 alphabet)
    return rs(r, 40, UPPER + LOWER + DIG + "+/")


def aws_session_token(r):
    # STS session tokens: long base64 blob, modern ones start "IQoJb3JpZ2luX2Vj" (= "!\n\torigin_ec")
    # https://docs.aws.amazon.com/STS/latest/APIReference/API_Credentials.html
    raw = b"!\n\torigin_ec" + rbytes(r, 3 * r.randint(170, 260))
    return b64(raw)


def google_api_key(r):
    # https://cloud.google.com/docs/authentication/api-keys  (AIza + 35 chars [0-9A-Za-z_-], 39 total)
    return "AIza" + rs(r, 35, B64URL)


def slack_bot(r):
    # https://api.slack.com/authentication/token-types  (xoxb-<team>-<bot>-<24 alnum>)
    return "xoxb-%d-%d-%s" % (r.randint(10 ** 10, 10 ** 13 - 1), r.randint(10 ** 12, 10 ** 13 - 1), rs(r, 24))


def slack_user(r):
    # https://api.slack.com/authentication/token-types  (xoxp-<team>-<user>-<id>-<32 hex>)
    return "xoxp-%d-%d-%d-%s" % (r.randint(10 ** 10, 10 ** 12), r.randint(10 ** 10, 10 ** 12),
                                 r.randint(10 ** 12, 10 ** 13 - 1), rs(r, 32, HEX))


def slack_webhook(r):
    # https://api.slack.com/messaging/webhooks  (hooks.slack.com/services/T.../B.../<24 alnum>)
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(r, r.choice([8, 10]), UPPER + DIG),
                                                            rs(r, r.choice([9, 10, 11]), UPPER + DIG), rs(r, 24))


def stripe_secret(r, prefix="sk_live_"):
    # https://docs.stripe.com/keys  (sk_live_ / rk_live_; current keys "51" + ~97 chars, legacy 24 chars)
    if r.random() < 0.7:
        return prefix + "51" + rs(r, 97)
    return prefix + rs(r, 24)


def twilio_auth_token(r):
    # https://www.twilio.com/docs/iam/api/account  (auth token: 32 hex; account SID AC + 32 hex)
    return rs(r, 32, HEX)


def sendgrid_key(r):
    # https://docs.sendgrid.com/ui/account-and-settings/api-keys  (SG.<22>.<43>, 69 chars)
    return "SG.%s.%s" % (rs(r, 22, B64URL), rs(r, 43, B64URL))


def mailgun_key(r):
    # https://documentation.mailgun.com/docs/mailgun/user-manual/get-started/ (key-<32 hex> legacy;
    # newer private keys <32 hex>-<8 hex>-<8 hex>)
    if r.random() < 0.5:
        return "key-" + rs(r, 32, HEX)
    return "%s-%s-%s" % (rs(r, 32, HEX), rs(r, 8, HEX), rs(r, 8, HEX))


def openai_key(r):
    # https://platform.openai.com/docs/api-reference/authentication  (sk-proj-..., sk-svcacct-...;
    # the base64 of "OpenAI" - T3BlbkFJ - sits in the middle of the key)
    pre = r.choice(["sk-proj-", "sk-proj-", "sk-svcacct-", "sk-admin-"])
    return pre + rs(r, 74, B64URL) + "T3BlbkFJ" + rs(r, 74, B64URL)


def anthropic_key(r):
    # https://docs.anthropic.com/en/api/getting-started  (sk-ant-api03- + 93 chars + "AA", 108 total)
    return "sk-ant-api03-" + rs(r, 93, B64URL) + "AA"


def hf_token(r):
    # https://huggingface.co/docs/hub/security-tokens  (hf_ + 34 letters)
    return "hf_" + rs(r, 34, UPPER + LOWER)


def pypi_token(r):
    # https://pypi.org/help/#apitoken  (pypi- + base64url macaroon v2, location "pypi.org")
    ident = uuid4(r).encode()
    caveat = json.dumps({"version": 1, "permissions": r.choice(["user", {"projects": [r.choice(SERVICES)]}])},
                        separators=(",", ":")).encode()
    raw = (b"\x02\x01\x08pypi.org\x02" + bytes([len(ident)]) + ident + b"\x00\x02" + bytes([len(caveat)]) +
           caveat + b"\x00\x00\x06\x20" + rbytes(r, 32))
    return "pypi-" + b64u(raw)


def dockerhub_pat(r):
    # https://docs.docker.com/security/for-developers/access-tokens/  (dckr_pat_ + 27 chars)
    return "dckr_pat_" + rs(r, 27, B64URL)


def shopify_token(r):
    # https://shopify.dev/docs/apps/auth/access-token-types  (shpat_/shpca_/shppa_ + 32 hex)
    return r.choice(["shpat_", "shpat_", "shpca_", "shppa_"]) + rs(r, 32, HEX)


def atlassian_token(r):
    # https://support.atlassian.com/atlassian-account/docs/manage-api-tokens-for-your-atlassian-account/
    # ATATT3xFfGF0 + base64url body + "=" + 8 upper-hex (CRC32 assumed), 192 chars total
    body = "ATATT3xFfGF0" + rs(r, 171, B64URL)
    return body + "=" + ("%08X" % (zlib.crc32(body.encode()) & 0xFFFFFFFF))


def digitalocean_token(r):
    # https://docs.digitalocean.com/reference/api/create-personal-access-token/ (dop_v1_ + 64 hex)
    return r.choice(["dop_v1_", "dop_v1_", "doo_v1_"]) + rs(r, 64, HEX)


def heroku_key(r):
    # https://devcenter.heroku.com/articles/authentication  (API key is a UUID)
    return uuid4(r)


def datadog_api(r):
    # https://docs.datadoghq.com/account_management/api-app-keys/  (API key 32 hex)
    return rs(r, 32, HEX)


def datadog_app(r):
    # https://docs.datadoghq.com/account_management/api-app-keys/  (application key 40 hex)
    return rs(r, 40, HEX)


def sentry_user_token(r):
    # https://docs.sentry.io/account/auth-tokens/  (user auth tokens sntryu_ + 64 hex)
    return "sntryu_" + rs(r, 64, HEX)


def discord_bot(r):
    # https://discord.com/developers/docs/reference#authentication  (base64(user id).6.38)
    uid = str(r.randint(10 ** 17, 10 ** 19 - 1))
    return "%s.%s.%s" % (b64u(uid.encode()), rs(r, 6, B64URL), rs(r, 38, B64URL))


def discord_webhook(r):
    # https://discord.com/developers/docs/resources/webhook  (/api/webhooks/<id>/<68-char token>)
    return "https://discord.com/api/webhooks/%d/%s" % (r.randint(10 ** 17, 10 ** 19 - 1), rs(r, 68, B64URL))


def telegram_bot(r):
    # https://core.telegram.org/bots/api#authorizing-your-bot  (<bot id>:AA + 33 chars)
    return "%d:AA%s" % (r.randint(10 ** 8, 8 * 10 ** 9), rs(r, 33, B64URL))


def linear_key(r):
    # https://developers.linear.app/docs/graphql/working-with-the-graphql-api  (lin_api_ + 40 alnum)
    return "lin_api_" + rs(r, 40)


def notion_token(r):
    # https://developers.notion.com/docs/authorization  (secret_ + 43 alnum; newer ntn_ + 46)
    if r.random() < 0.5:
        return "secret_" + rs(r, 43)
    return "ntn_" + rs(r, 11, DIG) + rs(r, 35)


def postman_key(r):
    # https://learning.postman.com/docs/developer/postman-api/authentication/ (PMAK-<24 hex>-<34 hex>)
    return "PMAK-%s-%s" % (rs(r, 24, HEX), rs(r, 34, HEX))


def vault_token(r):
    # https://developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes
    # hvs. + base64url protobuf (starts CAESI...), ~95 chars
    raw = b"\x08\x01\x12\x20" + rbytes(r, 32) + b"\x1a\x1e\x0a\x1chvs." + rs(r, 24).encode()
    return "hvs." + b64u(raw)


def doppler_token(r):
    # https://docs.doppler.com/docs/service-tokens  (dp.st.<config>.<40-44 alnum>); personal dp.pt.
    if r.random() < 0.6:
        return "dp.st.%s.%s" % (r.choice(["prd", "stg", "dev", "prd_eu"]), rs(r, 43))
    return "dp.pt." + rs(r, 43)


def tfc_token(r):
    # https://developer.hashicorp.com/terraform/cloud-docs/users-teams-organizations/api-tokens
    # <14 alnum>.atlasv1.<67 alnum>
    return "%s.atlasv1.%s" % (rs(r, 14), rs(r, 67))


def grafana_sa(r):
    # https://grafana.com/docs/grafana/latest/administration/service-accounts/
    # glsa_ + 32 alnum + _ + 8 hex (CRC32 of prefix+secret, per Grafana satokengen)
    s = rs(r, 32)
    return "glsa_%s_%08x" % (s, zlib.crc32(("glsa_" + s).encode()) & 0xFFFFFFFF)


def newrelic_key(r):
    # https://docs.newrelic.com/docs/apis/intro-apis/new-relic-api-keys/ (user key NRAK- + 27 upper alnum)
    return "NRAK-" + rs(r, 27, UPPER + DIG)


def pagerduty_key(r):
    # https://support.pagerduty.com/main/docs/api-access-keys  (20-char keys, user tokens start "u+")
    return "u+" + rs(r, 18, B64URL)


def azure_storage_key(r):
    # https://learn.microsoft.com/azure/storage/common/storage-account-keys-manage (base64 of 64 bytes, 88 chars)
    return b64(rbytes(r, 64))


def flyio_token(r):
    # https://fly.io/docs/security/tokens/  (FlyV1 fm2_ + base64 macaroon)
    return "FlyV1 fm2_" + b64(rbytes(r, 3 * r.randint(60, 90)))


VENDORS = {
    # kind: (generator, env var names)
    "github-classic-pat": (lambda r: gh_token(r, "ghp_"), ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT"]),
    "github-oauth-token": (lambda r: gh_token(r, "gho_"), ["GITHUB_OAUTH_TOKEN", "GH_OAUTH"]),
    "github-app-installation-token": (lambda r: gh_token(r, "ghs_"), ["GITHUB_APP_TOKEN", "GH_INSTALLATION_TOKEN"]),
    "github-user-to-server-token": (lambda r: gh_token(r, "ghu_"), ["GITHUB_USER_TOKEN"]),
    "github-refresh-token": (lambda r: gh_token(r, "ghr_"), ["GITHUB_REFRESH_TOKEN"]),
    "github-fine-grained-pat": (gh_fine_grained, ["GITHUB_TOKEN", "GH_PAT", "RENOVATE_TOKEN"]),
    "gitlab-pat": (gitlab_pat, ["GITLAB_TOKEN", "GL_TOKEN", "CI_PUSH_TOKEN"]),
    "gitlab-deploy-token": (gitlab_deploy, ["GITLAB_DEPLOY_TOKEN"]),
    "gitlab-runner-token": (gitlab_runner, ["RUNNER_TOKEN", "CI_SERVER_TOKEN"]),
    "gitlab-pipeline-trigger-token": (gitlab_trigger, ["GITLAB_TRIGGER_TOKEN"]),
    "aws-secret-access-key": (aws_secret, ["AWS_SECRET_ACCESS_KEY"]),
    "google-api-key": (google_api_key, ["GOOGLE_API_KEY", "MAPS_API_KEY", "GEMINI_API_KEY"]),
    "slack-bot-token": (slack_bot, ["SLACK_BOT_TOKEN", "SLACK_TOKEN"]),
    "slack-user-token": (slack_user, ["SLACK_USER_TOKEN"]),
    "slack-webhook-url": (slack_webhook, ["SLACK_WEBHOOK_URL", "ALERT_WEBHOOK"]),
    "stripe-secret-key": (stripe_secret, ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"]),
    "stripe-restricted-key": (lambda r: stripe_secret(r, "rk_live_"), ["STRIPE_RESTRICTED_KEY"]),
    "twilio-auth-token": (twilio_auth_token, ["TWILIO_AUTH_TOKEN"]),
    "sendgrid-api-key": (sendgrid_key, ["SENDGRID_API_KEY"]),
    "mailgun-api-key": (mailgun_key, ["MAILGUN_API_KEY"]),
    "openai-api-key": (openai_key, ["OPENAI_API_KEY"]),
    "anthropic-api-key": (anthropic_key, ["ANTHROPIC_API_KEY"]),
    "huggingface-token": (hf_token, ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"]),
    "npm-token": (npm_token, ["NPM_TOKEN", "NODE_AUTH_TOKEN"]),
    "pypi-token": (pypi_token, ["TWINE_PASSWORD", "PYPI_API_TOKEN"]),
    "dockerhub-pat": (dockerhub_pat, ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"]),
    "shopify-access-token": (shopify_token, ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN"]),
    "atlassian-api-token": (atlassian_token, ["JIRA_API_TOKEN", "CONFLUENCE_TOKEN", "ATLASSIAN_API_TOKEN"]),
    "digitalocean-token": (digitalocean_token, ["DIGITALOCEAN_ACCESS_TOKEN", "DO_TOKEN"]),
    "heroku-api-key": (heroku_key, ["HEROKU_API_KEY"]),
    "datadog-api-key": (datadog_api, ["DD_API_KEY", "DATADOG_API_KEY"]),
    "datadog-app-key": (datadog_app, ["DD_APP_KEY", "DATADOG_APP_KEY"]),
    "sentry-auth-token": (sentry_user_token, ["SENTRY_AUTH_TOKEN"]),
    "discord-bot-token": (discord_bot, ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN"]),
    "discord-webhook-url": (discord_webhook, ["DISCORD_WEBHOOK_URL"]),
    "telegram-bot-token": (telegram_bot, ["TELEGRAM_BOT_TOKEN", "TG_TOKEN"]),
    "linear-api-key": (linear_key, ["LINEAR_API_KEY"]),
    "notion-token": (notion_token, ["NOTION_TOKEN", "NOTION_API_KEY"]),
    "postman-api-key": (postman_key, ["POSTMAN_API_KEY"]),
    "vault-token": (vault_token, ["VAULT_TOKEN"]),
    "doppler-token": (doppler_token, ["DOPPLER_TOKEN"]),
    "terraform-cloud-token": (tfc_token, ["TFE_TOKEN", "TF_TOKEN_app_terraform_io"]),
    "grafana-service-account-token": (grafana_sa, ["GRAFANA_TOKEN", "GRAFANA_SA_TOKEN"]),
    "newrelic-user-api-key": (newrelic_key, ["NEW_RELIC_API_KEY", "NEW_RELIC_USER_KEY"]),
    "pagerduty-api-key": (pagerduty_key, ["PAGERDUTY_TOKEN", "PD_API_KEY"]),
    "azure-storage-account-key": (azure_storage_key, ["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY"]),
    "flyio-token": (flyio_token, ["FLY_API_TOKEN"]),
}
VENDOR_KINDS = sorted(VENDORS)


_USED = {}


def balanced(r, options):
    """Pick among the least-used options so far (usage reset per positives() call) -> broad kind coverage."""
    m = min(_USED.get(o, 0) for o in options)
    o = r.choice([o for o in options if _USED.get(o, 0) == m])
    _USED[o] = _USED.get(o, 0) + 1
    return o


def vendor(r, kinds=None):
    kind = balanced(r, kinds or VENDOR_KINDS)
    gen, names = VENDORS[kind]
    return kind, gen(r), r.choice(names)


# ----------------------------------------------------------------------------
# structured secrets: PEM keys, JWTs, GCP service accounts
# ----------------------------------------------------------------------------
def der_len(n):
    if n < 128:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag, body):
    return bytes([tag]) + der_len(len(body)) + body


def der_int_bytes(raw):
    if raw[0] & 0x80:
        raw = b"\x00" + raw
    return der(0x02, raw)


def rand_big(r, nbytes, odd=False):
    b = bytearray(rbytes(r, nbytes))
    b[0] |= 0xC0
    if odd:
        b[-1] |= 1
    return bytes(b)


def rsa_pkcs1_der(r, bits=2048):
    # RFC 8017 A.1.2 RSAPrivateKey layout with random integers of the right sizes
    n = bits // 8
    h = n // 2
    parts = [b"\x02\x01\x00", der_int_bytes(rand_big(r, n, True)), der(0x02, b"\x01\x00\x01"),
             der_int_bytes(rand_big(r, n)), der_int_bytes(rand_big(r, h, True)), der_int_bytes(rand_big(r, h, True)),
             der_int_bytes(rand_big(r, h)), der_int_bytes(rand_big(r, h)), der_int_bytes(rand_big(r, h))]
    return der(0x30, b"".join(parts))


RSA_OID = bytes.fromhex("06092a864886f70d0101010500")


def rsa_pem(r, pkcs8=None):
    bits = r.choice([2048, 2048, 3072, 4096])
    pk1 = rsa_pkcs1_der(r, bits)
    if pkcs8 is None:
        pkcs8 = r.random() < 0.5
    if pkcs8:
        body = der(0x30, b"\x02\x01\x00" + der(0x30, RSA_OID[:-2] + b"\x05\x00") + der(0x04, pk1))
        label = "PRIVATE KEY"
    else:
        body, label = pk1, "RSA PRIVATE KEY"
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, wrap(b64(body)), label)


def ec_pem(r):
    # RFC 5915 ECPrivateKey, prime256v1
    oid = bytes.fromhex("06082a8648ce3d030107")
    body = der(0x30, b"\x02\x01\x01" + der(0x04, rbytes(r, 32)) + der(0xA0, oid) +
               der(0xA1, der(0x03, b"\x00\x04" + rbytes(r, 64))))
    return "-----BEGIN EC PRIVATE KEY-----\n%s\n-----END EC PRIVATE KEY-----" % wrap(b64(body))


def ssh_str(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def openssh_pem(r, comment):
    # https://github.com/openssh/openssh-portable/blob/master/PROTOCOL.key (unencrypted ed25519)
    pub = rbytes(r, 32)
    pubblob = ssh_str("ssh-ed25519") + ssh_str(pub)
    chk = rbytes(r, 4)
    priv = chk + chk + ssh_str("ssh-ed25519") + ssh_str(pub) + ssh_str(rbytes(r, 32) + pub) + ssh_str(comment)
    i = 1
    while len(priv) % 8:
        priv += bytes([i])
        i += 1
    blob = (b"openssh-key-v1\x00" + ssh_str("none") + ssh_str("none") + ssh_str(b"") + struct.pack(">I", 1) +
            ssh_str(pubblob) + ssh_str(priv))
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----" % wrap(b64(blob), 70)


def private_key(r, comment="user@host"):
    k = balanced(r, ["rsa", "rsa8", "ec", "openssh"])
    if k.startswith("rsa"):
        return "private-key-rsa", rsa_pem(r, pkcs8=(k == "rsa8"))
    if k == "ec":
        return "private-key-ec", ec_pem(r)
    return "private-key-openssh", openssh_pem(r, comment)


def jwt(r, iss=None, sub=None, extra=None, alg=None):
    # RFC 7519; a realistic signed session/access token (not the jwt.io sample)
    alg = alg or r.choice(["RS256", "RS256", "ES256", "HS256"])
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        hdr["kid"] = rs(r, r.choice([16, 27, 40]), B64URL)
    now = r.randint(1735689600, 1767225600)
    pl = {"iss": iss or "https://auth.%s/" % domain(r), "sub": sub or uuid4(r), "aud": r.choice(["api", "https://api.%s" % domain(r)]),
          "iat": now, "exp": now + r.choice([900, 3600, 86400]), "jti": uuid4(r)}
    if r.random() < 0.6:
        pl["scope"] = " ".join(r.sample(["openid", "profile", "email", "read:orders", "write:orders", "admin", "offline_access"], 3))
    if r.random() < 0.5:
        pl["sid"] = rs(r, 32, B64URL)
    if extra:
        pl.update(extra)
    siglen = {"RS256": 256, "ES256": 64, "HS256": 32}[alg]
    return ".".join([b64u(json.dumps(hdr, separators=(",", ":")).encode()),
                     b64u(json.dumps(pl, separators=(",", ":")).encode()), b64u(rbytes(r, siglen))])


def k8s_sa_jwt(r, ns, sa):
    return jwt(r, iss="https://kubernetes.default.svc.cluster.local", sub="system:serviceaccount:%s:%s" % (ns, sa),
               alg="RS256", extra={"kubernetes.io": {"namespace": ns, "serviceaccount": {"name": sa, "uid": uuid4(r)}}})


# ----------------------------------------------------------------------------
# positive templates: each returns (ext, kind, value, text)
# ----------------------------------------------------------------------------
def noise_env(r, n):
    pool = [("NODE_ENV", "production"), ("LOG_LEVEL", r.choice(["info", "debug", "warn"])), ("PORT", str(r.choice([3000, 8080, 8000, 5000]))),
            ("APP_NAME", r.choice(SERVICES)), ("TZ", "UTC"), ("REDIS_HOST", host(r)), ("FEATURE_NEW_CHECKOUT", r.choice(["true", "false"])),
            ("SENTRY_ENVIRONMENT", r.choice(["prod", "staging"])), ("AWS_REGION", r.choice(REGIONS)), ("WORKERS", str(r.randint(2, 16))),
            ("CACHE_TTL", str(r.choice([60, 300, 3600]))), ("DB_HOST", host(r)), ("DB_PORT", "5432"), ("DB_NAME", r.choice(SERVICES)),
            ("PUBLIC_URL", "https://%s" % domain(r)), ("MAX_UPLOAD_MB", str(r.randint(5, 100)))]
    r.shuffle(pool)
    return pool[:n]


def t_dotenv(r):
    kind, val, var = vendor(r)
    lines = ["%s=%s" % kv for kv in noise_env(r, r.randint(4, 10))]
    lines.insert(r.randint(0, len(lines)), "%s=%s" % (var, r.choice([val, '"%s"' % val])))
    if r.random() < 0.5:
        lines.insert(0, "# %s %s env - do not commit" % (r.choice(SERVICES), r.choice(["prod", "staging", "local"])))
    return "env", kind, val, "\n".join(lines) + "\n"


def t_shell_history(r):
    kind, val, var = vendor(r)
    cmds = ["cd ~/src/%s" % r.choice(SERVICES), "git status", "git pull --rebase", "ls -la", "make test",
            "docker ps", "kubectl get pods -n %s" % r.choice(SERVICES), "vim .env", "npm ci", "history | tail",
            "terraform plan", "go test ./...", "python -m pytest -x", "gh pr list", "clear"]
    r.shuffle(cmds)
    cmds = cmds[:r.randint(5, 12)]
    line = r.choice(["export %s=%s" % (var, val), "export %s='%s'" % (var, val),
                     "%s=%s ./scripts/deploy.sh" % (var, val), "echo %s > ~/.%s" % (val, var.lower())])
    cmds.insert(r.randint(1, len(cmds)), line)
    num = r.randint(200, 1900)
    text = "\n".join("%5d  %s" % (num + i, c) for i, c in enumerate(cmds)) if r.random() < 0.5 else "\n".join(cmds)
    return "txt", kind, val, text + "\n"


def t_github_actions_log(r):
    kinds = ["github-app-installation-token", "github-classic-pat", "github-fine-grained-pat", "npm-token",
             "dockerhub-pat", "pypi-token", "vault-token", "terraform-cloud-token"]
    kind, val, var = vendor(r, kinds)
    o, repo = org(r), r.choice(SERVICES)
    t = ts(r)
    lines = ["%s.%07dZ ##[group]Run actions/checkout@v4" % (t, r.randint(0, 9999999)),
             "%s.%07dZ with:" % (t, r.randint(0, 9999999)),
             "%s.%07dZ   repository: %s/%s" % (t, r.randint(0, 9999999), o, repo),
             "%s.%07dZ ##[endgroup]" % (t, r.randint(0, 9999999))]
    if kind.startswith("github"):
        leak = "[command]/usr/bin/git remote add origin https://x-access-token:%s@github.com/%s/%s" % (val, o, repo)
    else:
        leak = "+ echo \"%s=%s\" >> $GITHUB_ENV" % (var, val)
    lines.append("%s.%07dZ ##[group]Run ./ci/setup.sh" % (t, r.randint(0, 9999999)))
    lines.append("%s.%07dZ %s" % (t, r.randint(0, 9999999), leak))
    for _ in range(r.randint(2, 6)):
        lines.append("%s.%07dZ %s" % (t, r.randint(0, 9999999), r.choice(
            ["added %d packages in %ds" % (r.randint(100, 900), r.randint(2, 40)), "Run npm test", "PASS src/app.test.ts",
             "Cache restored from key: node-cache-Linux-x64-npm-%s" % rs(r, 64, HEX), "##[endgroup]", "Post job cleanup."])))
    return "log", kind, val, "\n".join(lines) + "\n"


def t_gitlab_ci_log(r):
    kind, val, var = vendor(r, ["gitlab-pat", "gitlab-deploy-token", "gitlab-runner-token", "gitlab-pipeline-trigger-token"])
    proj = "%s/%s" % (org(r), r.choice(SERVICES))
    lines = ["Running with gitlab-runner 17.%d.%d (%s)" % (r.randint(0, 6), r.randint(0, 3), rs(r, 8, HEX)),
             "  on %s-runner-%d %s, system ID: s_%s" % (org(r), r.randint(1, 9), rs(r, 8, ALNUM), rs(r, 12, HEX)),
             "Preparing the \"docker\" executor", "Using docker image sha256:%s for alpine:3.20 ..." % rs(r, 64, HEX),
             "Getting source from Git repository", "Fetching changes with git depth set to 20...",
             "Created fresh repository.", "$ apk add --no-cache curl git"]
    if kind == "gitlab-pipeline-trigger-token":
        leak = "$ curl -X POST --fail -F token=%s -F ref=main https://gitlab.com/api/v4/projects/%d/trigger/pipeline" % (val, r.randint(1000, 99999999))
    elif kind == "gitlab-deploy-token":
        leak = "$ docker login -u gitlab+deploy-token-%d -p %s registry.gitlab.com" % (r.randint(100, 99999), val)
    elif kind == "gitlab-runner-token":
        leak = "$ gitlab-runner register --non-interactive --url https://gitlab.com --token %s --executor docker" % val
    else:
        leak = "$ git push https://oauth2:%s@gitlab.com/%s.git HEAD:refs/heads/release" % (val, proj)
    lines.append(leak)
    lines += ["WARNING! Using --password via the CLI is insecure." if "docker login" in leak else "Job succeeded",
              "Cleaning up project directory and file based variables"]
    return "log", kind, val, "\n".join(lines) + "\n"


def t_aws_credentials(r):
    val, kid = aws_secret(r), aws_key_id(r)
    prof = r.choice(["default", "prod", "%s-admin" % org(r), "deploy"])
    lines = ["[%s]" % prof, "aws_access_key_id = %s" % kid, "aws_secret_access_key = %s" % val]
    if r.random() < 0.5:
        lines.append("region = %s" % r.choice(REGIONS))
    return "ini", "aws-secret-access-key", val, "\n".join(lines) + "\n"


def t_aws_session_export(r):
    tok = aws_session_token(r)
    kid, sec = aws_key_id(r, "ASIA"), aws_secret(r)
    role = "arn:aws:iam::%d:role/%s" % (r.randint(10 ** 11, 10 ** 12 - 1), r.choice(["Admin", "Deployer", "ReadOnly", "CI"]))
    text = ("$ aws sts assume-role --role-arn %s --role-session-name %s\n" % (role, username(r)) +
            json.dumps({"Credentials": {"AccessKeyId": kid, "SecretAccessKey": sec, "SessionToken": tok,
                                        "Expiration": ts(r) + "+00:00"},
                        "AssumedRoleUser": {"AssumedRoleId": "AROA%s:%s" % (rs(r, 17, B32), username(r)), "Arn": role}}, indent=4) + "\n")
    return "txt", "aws-session-token", tok, text


def t_terraform_provider(r):
    kind = r.choice(["aws", "digitalocean", "datadog", "generic"])
    if kind == "aws":
        val = aws_secret(r)
        body = 'provider "aws" {\n  region     = "%s"\n  access_key = "%s"\n  secret_key = "%s"\n}\n' % (r.choice(REGIONS), aws_key_id(r), val)
        k = "aws-secret-access-key"
    elif kind == "digitalocean":
        val = digitalocean_token(r)
        body = 'provider "digitalocean" {\n  token = "%s"\n}\n' % val
        k = "digitalocean-token"
    elif kind == "datadog":
        val = datadog_app(r)
        body = 'provider "datadog" {\n  api_key = var.datadog_api_key\n  app_key = "%s"\n  api_url = "https://api.datadoghq.eu/"\n}\n' % val
        k = "datadog-app-key"
    else:
        val = password(r, "!#%*-_.+=~^")
        body = ('resource "aws_db_instance" "%s" {\n  identifier        = "%s-db"\n  engine            = "postgres"\n  engine_version    = "16.3"\n'
                '  instance_class    = "db.t4g.medium"\n  username          = "%s"\n  password          = "%s"\n  skip_final_snapshot = true\n}\n'
                % (r.choice(SERVICES), r.choice(SERVICES), r.choice(["postgres", "dbadmin", "app"]), val))
        k = "generic-password"
    head = 'terraform {\n  required_version = ">= 1.%d"\n}\n\n' % r.randint(3, 9)
    tail = '\nresource "aws_s3_bucket" "logs" {\n  bucket = "%s-logs-%d"\n}\n' % (org(r), r.randint(1, 999)) if r.random() < 0.6 else ""
    return "tf", k, val, head + body + tail


def t_tfstate(r):
    pwd = password(r, "!#%*-_.+=~^")
    choice = r.choice(["random_password", "iam_key", "db"])
    if choice == "iam_key":
        val = aws_secret(r)
        res = {"mode": "managed", "type": "aws_iam_access_key", "name": "ci", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
               "instances": [{"schema_version": 0, "attributes": {"id": aws_key_id(r), "secret": val, "status": "Active",
                                                                  "user": "ci-%s" % r.choice(SERVICES), "ses_smtp_password_v4": None},
                              "sensitive_attributes": []}]}
        kind = "aws-secret-access-key"
    elif choice == "random_password":
        val = pw_random(r, "!#%*-_.+=")
        res = {"mode": "managed", "type": "random_password", "name": "db", "provider": "provider[\"registry.terraform.io/hashicorp/random\"]",
               "instances": [{"schema_version": 3, "attributes": {"id": "none", "length": len(val), "special": True, "result": val,
                                                                  "bcrypt_hash": "$2a$10$" + rs(r, 53, ALNUM + "./")}}]}
        kind = "generic-password"
    else:
        val = pwd
        res = {"mode": "managed", "type": "aws_db_instance", "name": "main", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
               "instances": [{"schema_version": 2, "attributes": {"address": "%s.%s.%s.rds.amazonaws.com" % (r.choice(SERVICES), rs(r, 12, LOWER + DIG), r.choice(REGIONS)),
                                                                  "username": "dbadmin", "password": val, "port": 5432, "engine": "postgres"}}]}
        kind = "generic-password"
    state = {"version": 4, "terraform_version": "1.%d.%d" % (r.randint(5, 9), r.randint(0, 5)), "serial": r.randint(1, 400),
             "lineage": uuid4(r), "outputs": {}, "resources": [res], "check_results": None}
    return "tfstate", kind, val, json.dumps(state, indent=2) + "\n"


def t_k8s_secret_yaml(r):
    pw = password(r)
    enc = b64(pw.encode())
    ns, name = r.choice(SERVICES), "%s-%s" % (r.choice(SERVICES), r.choice(["db", "credentials", "secrets"]))
    data = [("username", b64(r.choice(["postgres", "app", "admin", "svc"]).encode())), ("password", enc),
            ("host", b64(host(r).encode()))]
    r.shuffle(data)
    text = ("$ kubectl get secret %s -n %s -o yaml\napiVersion: v1\ndata:\n%s\nkind: Secret\nmetadata:\n  creationTimestamp: \"%sZ\"\n"
            "  name: %s\n  namespace: %s\n  resourceVersion: \"%d\"\n  uid: %s\ntype: Opaque\n"
            % (name, ns, "\n".join("  %s: %s" % kv for kv in data), ts(r), name, ns, r.randint(10000, 9999999), uuid4(r)))
    return "yaml", "k8s-secret-base64-password", enc, text


def t_k8s_deployment_env(r):
    if r.random() < 0.75:
        kind, val, var = vendor(r)
    else:
        kind, val, var = "generic-password", password(r), r.choice(["DB_PASSWORD", "POSTGRES_PASSWORD", "RABBITMQ_PASS", "SMTP_PASSWORD", "ADMIN_PASSWORD"])
    svc = r.choice(SERVICES)
    envs = [("LOG_LEVEL", "info"), ("PORT", "8080"), ("DB_HOST", host(r)), ("REGION", r.choice(REGIONS))]
    envs.insert(r.randint(0, 4), (var, val))
    env_yaml = "\n".join("            - name: %s\n              value: \"%s\"" % kv for kv in envs)
    text = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\n  labels:\n    app: %s\nspec:\n  replicas: %d\n"
            "  selector:\n    matchLabels:\n      app: %s\n  template:\n    metadata:\n      labels:\n        app: %s\n    spec:\n"
            "      containers:\n        - name: %s\n          image: ghcr.io/%s/%s:%d.%d.%d\n          env:\n%s\n"
            % (svc, svc, r.randint(1, 6), svc, svc, svc, org(r), svc, r.randint(0, 4), r.randint(0, 30), r.randint(0, 9), env_yaml))
    return "yaml", kind, val, text


def t_helm_values(r):
    kind, val, var = vendor(r, ["slack-webhook-url", "sendgrid-api-key", "datadog-api-key", "newrelic-user-api-key",
                                "pagerduty-api-key", "grafana-service-account-token", "sentry-auth-token", "mailgun-api-key",
                                "discord-webhook-url", "twilio-auth-token"])
    keyname = var.lower().replace("_", "")[:1] + "".join(w.capitalize() for w in var.lower().split("_"))[1:]
    text = ("# values-%s.yaml\nreplicaCount: %d\nimage:\n  repository: %s/%s\n  tag: \"%d.%d.%d\"\n  pullPolicy: IfNotPresent\n"
            "resources:\n  limits:\n    cpu: %dm\n    memory: %dMi\nalerting:\n  enabled: true\n  %s: \"%s\"\n"
            "ingress:\n  enabled: true\n  hosts:\n    - host: %s\n"
            % (r.choice(["prod", "staging"]), r.randint(1, 5), org(r), r.choice(SERVICES), r.randint(0, 3), r.randint(0, 20), r.randint(0, 9),
               r.choice([250, 500, 1000]), r.choice([256, 512, 1024]), keyname, val, domain(r)))
    return "yaml", kind, val, text


def t_docker_compose(r):
    pw = password(r, "!#%*-_.+~^")
    db = r.choice(["postgres", "mysql", "mariadb", "rabbitmq", "mongo"])
    var = {"postgres": "POSTGRES_PASSWORD", "mysql": "MYSQL_ROOT_PASSWORD", "mariadb": "MARIADB_PASSWORD",
           "rabbitmq": "RABBITMQ_DEFAULT_PASS", "mongo": "MONGO_INITDB_ROOT_PASSWORD"}[db]
    svc = r.choice(SERVICES)
    style = r.random() < 0.5
    env = ("      - %s=%s" % (var, pw)) if style else ("      %s: \"%s\"" % (var, pw))
    text = ("services:\n  %s:\n    image: %s:%s\n    restart: unless-stopped\n    environment:\n%s\n    volumes:\n      - %s-data:/var/lib/%s\n"
            "  %s:\n    build: .\n    ports:\n      - \"%d:8080\"\n    depends_on:\n      - %s\nvolumes:\n  %s-data:\n"
            % (db, db, r.choice(["16", "8.0", "11", "3.13-management", "7"]), env, db, db, svc, r.choice([8080, 3000, 8000]), db, db))
    return "yml", "generic-password", pw, text


def t_python_source(r):
    kind, val, var = vendor(r, ["openai-api-key", "anthropic-api-key", "huggingface-token", "stripe-secret-key", "sendgrid-api-key",
                                "google-api-key", "slack-bot-token", "notion-token", "linear-api-key", "telegram-bot-token"])
    body = {
        "openai-api-key": "from openai import OpenAI\n\nclient = OpenAI(api_key=\"%s\")\n",
        "anthropic-api-key": "import anthropic\n\nclient = anthropic.Anthropic(api_key=\"%s\")\n",
        "huggingface-token": "from huggingface_hub import login\n\nlogin(token=\"%s\")\n",
        "stripe-secret-key": "import stripe\n\nstripe.api_key = \"%s\"\n",
        "sendgrid-api-key": "from sendgrid import SendGridAPIClient\n\nsg = SendGridAPIClient(\"%s\")\n",
        "google-api-key": "import googlemaps\n\ngmaps = googlemaps.Client(key='%s')\n",
        "slack-bot-token": "from slack_sdk import WebClient\n\nclient = WebClient(token=\"%s\")\n",
        "notion-token": "from notion_client import Client\n\nnotion = Client(auth=\"%s\")\n",
        "linear-api-key": "import requests\n\nHEADERS = {\"Authorization\": \"%s\", \"Content-Type\": \"application/json\"}\n",
        "telegram-bot-token": "from telegram.ext import ApplicationBuilder\n\napp = ApplicationBuilder().token(\"%s\").build()\n",
    }[kind] % val
    fn = r.choice(["summarize", "notify", "sync_orders", "fetch_items", "main"])
    text = ("#!/usr/bin/env python3\n\"\"\"%s helper - quick script\"\"\"\nimport os\nimport sys\n%s\n\ndef %s(argv):\n"
            "    print(\"running\", argv)\n    return 0\n\n\nif __name__ == \"__main__\":\n    sys.exit(%s(sys.argv[1:]))\n"
            % (r.choice(SERVICES), body, fn, fn))
    return "py", kind, val, text


def t_js_source(r):
    kind, val, var = vendor(r, ["stripe-secret-key", "stripe-restricted-key", "sendgrid-api-key", "twilio-auth-token", "mailgun-api-key",
                                "openai-api-key", "discord-bot-token", "shopify-access-token", "postman-api-key", "datadog-api-key"])
    const = r.choice(["const", "let", "var"])
    text = ("'use strict';\n\nconst express = require('express');\nconst app = express();\n\n%s %s = '%s';\n\n"
            "app.post('/%s', async (req, res) => {\n  // TODO move to env before release\n  res.json({ ok: true });\n});\n\n"
            "app.listen(%d, () => console.log('listening'));\n"
            % (const, "".join(w.capitalize() if i else w.lower() for i, w in enumerate(var.split("_"))), val, r.choice(SERVICES), r.choice([3000, 8080])))
    return "js", kind, val, text


def t_wp_config(r):
    pw = password(r, "!#%*-_.+=~^@$")
    salts = "define( 'WP_CACHE', %s );\n" % r.choice(["true", "false"])
    text = ("<?php\n/** The name of the database for WordPress */\ndefine( 'DB_NAME', '%s' );\n\n/** Database username */\n"
            "define( 'DB_USER', '%s' );\n\n/** Database password */\ndefine( 'DB_PASSWORD', '%s' );\n\ndefine( 'DB_HOST', '%s' );\n"
            "define( 'DB_CHARSET', 'utf8mb4' );\n\n$table_prefix = 'wp_';\n\ndefine( 'WP_DEBUG', false );\n%s"
            % (r.choice(["wordpress", "wp_blog", "site_" + org(r).replace("-", "_")]), r.choice(["wp_user", "wordpress", "admin"]), pw,
               r.choice(["localhost", host(r)]), salts))
    return "php", "generic-password", pw, text


def t_spring_properties(r):
    pw = password(r, "!#%*-_.+~^@")
    kind = "generic-password"
    key = r.choice(["spring.datasource.password", "spring.rabbitmq.password", "spring.mail.password", "spring.data.redis.password"])
    lines = ["spring.application.name=%s" % r.choice(SERVICES), "server.port=%d" % r.choice([8080, 8081, 9000]),
             "spring.datasource.url=jdbc:postgresql://%s:5432/%s" % (host(r), r.choice(SERVICES)),
             "spring.datasource.username=%s" % r.choice(["app", "svc_user", "postgres"]),
             "spring.jpa.hibernate.ddl-auto=validate", "management.endpoints.web.exposure.include=health,info",
             "logging.level.org.springframework=%s" % r.choice(["INFO", "WARN"])]
    if r.random() < 0.35:
        kind, pw, var = vendor(r, ["stripe-secret-key", "sendgrid-api-key", "twilio-auth-token", "mailgun-api-key", "slack-bot-token",
                                   "atlassian-api-token", "shopify-access-token", "newrelic-user-api-key"])
        key = "app.integrations." + var.lower().replace("_", "-")
    lines.insert(r.randint(3, len(lines)), "%s=%s" % (key, pw))
    return "properties", kind, pw, "\n".join(lines) + "\n"


def t_maven_settings(r):
    pw = password(r, "!#%*-_.+~^")
    text = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<settings xmlns=\"http://maven.apache.org/SETTINGS/1.0.0\">\n  <servers>\n"
            "    <server>\n      <id>%s-releases</id>\n      <username>%s</username>\n      <password>%s</password>\n    </server>\n"
            "  </servers>\n  <mirrors>\n    <mirror>\n      <id>nexus</id>\n      <url>https://nexus.%s/repository/maven-public/</url>\n"
            "      <mirrorOf>*</mirrorOf>\n    </mirror>\n  </mirrors>\n</settings>\n" % (org(r), username(r), pw, domain(r)))
    return "xml", "generic-password", pw, text


def t_pypirc(r):
    if r.random() < 0.6:
        val, kind, user = pypi_token(r), "pypi-token", "__token__"
    else:
        val, kind, user = password(r, "!#%*-_.+~^"), "generic-password", username(r)
    text = ("[distutils]\nindex-servers =\n    pypi\n    %s\n\n[pypi]\nusername = %s\npassword = %s\n\n[%s]\nrepository = https://pypi.%s/simple/\n"
            "username = %s\n" % (org(r), user, val, org(r), domain(r), username(r)))
    return "pypirc", kind, val, text


def t_npmrc(r):
    if r.random() < 0.7:
        val, kind = npm_token(r), "npm-token"
        line = "//registry.npmjs.org/:_authToken=%s" % val
    else:
        val, kind = gh_token(r, "ghp_"), "github-classic-pat"
        line = "//npm.pkg.github.com/:_authToken=%s" % val
    lines = ["@%s:registry=https://npm.pkg.github.com" % org(r), line, "save-exact=true", "fund=false"]
    r.shuffle(lines)
    return "npmrc", kind, val, "\n".join(lines) + "\n"


def t_ansible_vars(r):
    pw = password(r, "!#%*-_.+~^@")
    key = r.choice(["ansible_become_password", "mysql_root_password", "db_password", "postgresql_admin_password", "keycloak_admin_password"])
    kind = "generic-password"
    if r.random() < 0.35:
        kind, pw, var = vendor(r, ["datadog-api-key", "newrelic-user-api-key", "grafana-service-account-token", "vault-token",
                                   "digitalocean-token", "pagerduty-api-key", "gitlab-runner-token", "dockerhub-pat"])
        key = var.lower()
    text = ("---\n# group_vars/%s.yml\nansible_user: %s\n%s: \"%s\"\nnginx_worker_processes: %d\napp_version: \"%d.%d.%d\"\nntp_servers:\n"
            "  - 0.pool.ntp.org\n  - 1.pool.ntp.org\n" % (r.choice(["webservers", "db", "all", "prod"]), r.choice(["ubuntu", "deploy", "ansible"]),
                                                       key, pw, r.randint(1, 8), r.randint(1, 5), r.randint(0, 30), r.randint(0, 9)))
    return "yml", kind, pw, text


def t_har(r):
    tok = jwt(r)
    h = domain(r)
    entry = {"startedDateTime": ts(r) + ".%03dZ" % r.randint(0, 999), "time": round(r.uniform(20, 900), 3),
             "request": {"method": r.choice(["GET", "POST"]), "url": "https://api.%s/v2/%s" % (h, r.choice(SERVICES)), "httpVersion": "HTTP/2",
                         "headers": [{"name": ":authority", "value": "api." + h}, {"name": "accept", "value": "application/json"},
                                     {"name": "authorization", "value": "Bearer " + tok},
                                     {"name": "user-agent", "value": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36"}],
                         "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "", "httpVersion": "HTTP/2", "headers": [{"name": "content-type", "value": "application/json"}],
                          "content": {"size": r.randint(100, 9000), "mimeType": "application/json"}, "redirectURL": "", "headersSize": -1, "bodySize": -1},
             "cache": {}, "timings": {"send": 0.1, "wait": round(r.uniform(10, 500), 2), "receive": 0.5}}
    har = {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [], "entries": [entry]}}
    return "har", "jwt-bearer-token", tok, json.dumps(har, indent=2) + "\n"


def t_postman_collection(r):
    if r.random() < 0.5:
        kind, val = "postman-api-key", postman_key(r)
        auth = {"type": "apikey", "apikey": [{"key": "value", "value": val, "type": "string"}, {"key": "key", "value": "X-Api-Key", "type": "string"}]}
    else:
        kind, val = "generic-api-key", secret_alnum(r, r.choice([32, 40, 48]))
        auth = {"type": "bearer", "bearer": [{"key": "token", "value": val, "type": "string"}]}
    coll = {"info": {"_postman_id": uuid4(r), "name": "%s API" % r.choice(SERVICES).title(),
                     "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
            "auth": auth,
            "item": [{"name": "List %s" % s, "request": {"method": "GET", "header": [], "url": {"raw": "{{baseUrl}}/%s" % s, "host": ["{{baseUrl}}"], "path": [s]}}}
                     for s in r.sample(SERVICES, r.randint(1, 4))],
            "variable": [{"key": "baseUrl", "value": "https://api.%s" % domain(r)}]}
    return "postman_collection.json", kind, val, json.dumps(coll, indent="\t") + "\n"


def t_jupyter(r):
    kind, val, var = vendor(r, ["openai-api-key", "anthropic-api-key", "huggingface-token", "google-api-key", "aws-secret-access-key"])
    src = ["import os\n", "os.environ[\"%s\"] = \"%s\"\n" % (var, val), "\n", "import pandas as pd\n", "df = pd.read_csv(\"%s.csv\")" % r.choice(SERVICES)]
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# %s exploration\n" % r.choice(SERVICES).title()]},
                    {"cell_type": "code", "execution_count": r.randint(1, 30), "metadata": {}, "outputs": [], "source": src},
                    {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ["df.head()"]}],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                       "language_info": {"name": "python", "version": "3.%d.%d" % (r.randint(9, 12), r.randint(0, 9))}},
          "nbformat": 4, "nbformat_minor": 5}
    return "ipynb", kind, val, json.dumps(nb, indent=1) + "\n"


def t_docker_json_log(r):
    pw = password(r, "!#%*-_.+~^@")
    user = username(r)
    msg = r.choice(['connecting with config {"user": "%s", "password": "%s", "host": "%s"}' % (user, pw, host(r)),
                    'DEBUG settings loaded: DATABASE_PASSWORD="%s"' % pw,
                    'auth retry for user=%s password="%s" failed: timeout' % (user, pw)])
    lines = []
    for i in range(r.randint(3, 8)):
        m = r.choice(["INFO server started on :8080", "INFO GET /healthz 200 %dms" % r.randint(1, 40), "WARN slow query %dms" % r.randint(500, 4000)])
        lines.append(json.dumps({"log": "%sZ %s\n" % (ts(r), m), "stream": "stdout", "time": ts(r) + ".%09dZ" % r.randint(0, 999999999)}))
    lines.insert(r.randint(0, len(lines)), json.dumps({"log": "%sZ %s\n" % (ts(r), msg), "stream": "stderr", "time": ts(r) + ".%09dZ" % r.randint(0, 999999999)}))
    return "log", "generic-password", pw, "\n".join(lines) + "\n"


def t_cli_box_table(r):
    if r.random() < 0.75:
        kind, val, var = vendor(r, ["doppler-token", "stripe-secret-key", "sendgrid-api-key", "heroku-api-key", "datadog-api-key", "linear-api-key"])
    else:
        kind, val, var = "generic-password", password(r, "!#%*-_.+~^@"), r.choice(["DB_PASSWORD", "REDIS_PASSWORD", "ADMIN_PASS", "SMTP_PASS"])
    rows = [("APP_ENV", r.choice(["production", "staging"])), ("LOG_LEVEL", "info"), (var, val), ("PORT", "8080")]
    r.shuffle(rows)
    w1 = max(len(k) for k, _ in rows) + 2
    w2 = max(len(v) for _, v in rows) + 2
    top = "┌" + "─" * w1 + "┬" + "─" * w2 + "┐"
    mid = "├" + "─" * w1 + "┼" + "─" * w2 + "┤"
    bot = "└" + "─" * w1 + "┴" + "─" * w2 + "┘"
    out = ["$ doppler secrets --project %s --config %s" % (r.choice(SERVICES), r.choice(["prd", "stg"])), top,
           "│ %s │ %s │" % ("NAME".ljust(w1 - 2), "VALUE".ljust(w2 - 2)), mid]
    for i, (k, v) in enumerate(rows):
        out.append("│ %s │ %s │" % (k.ljust(w1 - 2), v.ljust(w2 - 2)))
        if i < len(rows) - 1:
            out.append(mid)
    out.append(bot)
    return "txt", kind, val, "\n".join(out) + "\n"


def t_curl_basic(r):
    user = r.choice([email(r), username(r), "admin"])
    pw = password(r, "!#%*-_.+~^")
    enc = b64(("%s:%s" % (user, pw)).encode())
    h = domain(r)
    path = r.choice(SERVICES)
    text = ("$ curl -v https://%s/api/v1/%s\n*   Trying %s:443...\n* Connected to %s (%s) port 443\n> GET /api/v1/%s HTTP/1.1\n> Host: %s\n"
            "> Authorization: Basic %s\n> User-Agent: curl/8.%d.0\n> Accept: */*\n>\n< HTTP/1.1 %d\n< content-type: application/json\n"
            % (h, path, ip(r), h, ip(r), path, h, enc, r.randint(1, 11), r.choice([200, 401, 403, 500])))
    return "txt", "basic-auth-header", enc, text


def t_curl_user_flag(r):
    pw = password(r, "!#%*-_.+~^@")
    user = username(r)
    h = domain(r)
    cmd = r.choice(["curl -u %s:'%s' https://jenkins.%s/job/%s/build -X POST" % (user, pw, h, r.choice(SERVICES)),
                    "curl --user \"%s:%s\" https://artifactory.%s/artifactory/api/repositories" % (user, pw, h),
                    "wget --user=%s --password='%s' https://files.%s/backup.tar.gz" % (user, pw, h)])
    lines = ["$ " + cmd, r.choice(["{\"errors\": []}", "Connecting to files.%s... connected." % h, "HTTP/1.1 201 Created"])]
    return "sh", "generic-password", pw, "\n".join(lines) + "\n"


def t_jenkins_log(r):
    pw = password(r, "!#%*-_.+~^@")
    db = r.choice(SERVICES)
    cmd = r.choice(["+ mysql -h %s -u root -p'%s' %s < migrations/%03d.sql" % (host(r), pw, db, r.randint(1, 200)),
                    "+ PGPASSWORD='%s' psql -h %s -U %s -d %s -f schema.sql" % (pw, host(r), r.choice(["postgres", "app"]), db),
                    "+ mysqldump -u backup --password=%s --single-transaction %s" % (pw, db)])
    lines = ["Started by user %s" % " ".join(x.title() for x in person(r)), "Running as SYSTEM",
             "Building in workspace /var/lib/jenkins/workspace/%s-deploy" % db,
             "[%s-deploy] $ /bin/sh -xe /tmp/jenkins%d.sh" % (db, r.randint(10 ** 15, 10 ** 18)), cmd,
             r.choice(["mysql: [Warning] Using a password on the command line interface can be insecure.", "CREATE TABLE", "SET"]),
             "Finished: %s" % r.choice(["SUCCESS", "FAILURE"])]
    return "log", "generic-password", pw, "\n".join(lines) + "\n"


def t_netrc(r):
    if r.random() < 0.4:
        val, kind, mach = heroku_key(r), "heroku-api-key", "api.heroku.com"
    else:
        val, kind, mach = password(r, "!#%*-_.+~^@"), "generic-password", r.choice(["ftp.%s" % domain(r), "git.%s" % domain(r), "nexus.%s" % domain(r)])
    text = "machine %s\n  login %s\n  password %s\n" % (mach, r.choice([email(r), username(r)]), val)
    if r.random() < 0.5:
        text = "machine urs.earthdata.nasa.gov login %s password %s\n" % (username(r), val) if kind == "generic-password" else text
    return "netrc", kind, val, text


def t_pgpass(r):
    pw = pw_random(r, "!#%*-_.+~^@")
    lines = ["%s:5432:%s:%s:%s" % (host(r), r.choice(SERVICES), r.choice(["postgres", "app", "readonly"]), pw)]
    if r.random() < 0.5:
        lines.insert(0, "# hostname:port:database:username:password")
    return "pgpass", "generic-password", pw, "\n".join(lines) + "\n"


def t_git_credentials(r):
    kind, val, _ = vendor(r, ["github-classic-pat", "github-fine-grained-pat", "gitlab-pat", "github-oauth-token"])
    h = "github.com" if kind.startswith("github") else r.choice(["gitlab.com", "gitlab.%s" % domain(r)])
    lines = ["https://%s:%s@%s" % (r.choice([username(r), "oauth2", "x-access-token"]), val, h)]
    if r.random() < 0.5:
        lines.append("https://%s@bitbucket.org" % username(r))
    return "git-credentials", kind, val, "\n".join(lines) + "\n"


def t_docker_config(r):
    user = username(r)
    if r.random() < 0.5:
        secret, reg = dockerhub_pat(r), "https://index.docker.io/v1/"
    else:
        secret, reg = password(r, "!#%*-_.+~^@"), r.choice(["registry.%s" % domain(r), "harbor.%s" % domain(r)])
    enc = b64(("%s:%s" % (user, secret)).encode())
    cfg = {"auths": {reg: {"auth": enc}}, "HttpHeaders": {"User-Agent": "Docker-Client/27.%d.%d (linux)" % (r.randint(0, 5), r.randint(0, 3))}}
    return "json", "docker-config-auth-base64", enc, json.dumps(cfg, indent="\t") + "\n"


def t_kubeconfig(r):
    ns, sa = r.choice(SERVICES), r.choice(["deployer", "ci", "admin", "argocd"])
    tok = k8s_sa_jwt(r, ns, sa)
    cl = "%s-%s" % (org(r), r.choice(["prod", "staging"]))
    text = ("apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority-data: %s\n    server: https://%s:6443\n  name: %s\n"
            "contexts:\n- context:\n    cluster: %s\n    namespace: %s\n    user: %s\n  name: %s\ncurrent-context: %s\nusers:\n- name: %s\n  user:\n    token: %s\n"
            % (b64(b"-----BEGIN CERTIFICATE-----\n" + wrap(b64(rbytes(r, 540))).encode() + b"\n-----END CERTIFICATE-----\n"),
               ip(r), cl, cl, ns, sa, cl, cl, sa, tok))
    return "yaml", "kubernetes-service-account-token", tok, text


def t_gcp_sa_json(r):
    proj = "%s-%s-%d" % (org(r), r.choice(["prod", "data", "ml"]), r.randint(100000, 999999))
    name = r.choice(["terraform", "ci-deployer", "bq-reader", "gcs-uploader"])
    pem = rsa_pem(r, pkcs8=True) + "\n"
    d = {"type": "service_account", "project_id": proj, "private_key_id": rs(r, 40, HEX), "private_key": pem,
         "client_email": "%s@%s.iam.gserviceaccount.com" % (name, proj), "client_id": str(r.randint(10 ** 20, 10 ** 21 - 1)),
         "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
         "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
         "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/%s%%40%s.iam.gserviceaccount.com" % (name, proj),
         "universe_domain": "googleapis.com"}
    text = json.dumps(d, indent=2) + "\n"
    val = json.dumps(pem)[1:-1]
    return "json", "gcp-service-account-private-key", val, text


def t_private_key_paste(r):
    u = username(r)
    kind, pem = private_key(r, "%s@%s" % (u, r.choice(["laptop", "bastion", "ci-runner", "macbook"])))
    pre = r.choice(["", "$ cat ~/.ssh/id_%s\n" % ("ed25519" if "openssh" in kind else "rsa"), "here is the deploy key, add it to the server:\n\n",
                    "$ cat /etc/ssl/private/%s.key\n" % r.choice(SERVICES)])
    return "pem" if not pre else "txt", kind, pem, pre + pem + "\n"


def t_azure_appsettings(r):
    acct = (org(r).replace("-", "") + rs(r, 4, LOWER + DIG))[:24]
    key = azure_storage_key(r)
    if r.random() < 0.6:
        val = key
        cs = "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net" % (acct, key)
        kind = "azure-storage-connection-string"
    else:
        se = "%d-%02d-%02dT00:00:00Z" % (r.randint(2026, 2028), r.randint(1, 12), r.randint(1, 28))
        sig = urllib.parse.quote(b64(rbytes(r, 32)), safe="")
        # https://learn.microsoft.com/rest/api/storageservices/create-account-sas
        val = "sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=%s&st=%s&spr=https&sig=%s" % (se, ts(r) + "Z", sig)
        cs = "BlobEndpoint=https://%s.blob.core.windows.net/;SharedAccessSignature=%s" % (acct, val)
        kind = "azure-sas-token"
    d = {"Logging": {"LogLevel": {"Default": "Information", "Microsoft.AspNetCore": "Warning"}}, "AllowedHosts": "*",
         "ConnectionStrings": {"Storage": cs}, "FeatureManagement": {"NewDashboard": r.choice([True, False])}}
    return "json", kind, val, json.dumps(d, indent=2) + "\n"


def t_chat_paste(r):
    kind, val, var = vendor(r)
    a, b = person(r), person(r)
    msgs = ["%s: is the %s integration still broken?" % (a[0].title(), r.choice(SERVICES)),
            "%s: works for me locally" % b[0].title(),
            "%s: %s" % (b[0].title(), r.choice(["try with mine: %s", "here's the key I used %s", "use this one for now → %s (will rotate later)", "%s"]) % val),
            "%s: thanks, that worked 🙏" % a[0].title()]
    if r.random() < 0.5:
        msgs = ["[%02d:%02d] %s" % (r.randint(8, 18), r.randint(0, 59), m) for m in msgs]
    return "txt", kind, val, "\n".join(msgs) + "\n"


def t_issue_comment(r):
    kind, val, var = vendor(r)
    text = ("### Steps to reproduce\n\n1. Set `%s` in the environment\n2. Run `%s sync --verbose`\n\n### Logs\n\n```\n"
            "DEBUG config: %s=%s\nERROR request failed: 401 Unauthorized\n```\n\nVersion: %d.%d.%d, OS: %s\n"
            % (var, r.choice(SERVICES), var, val, r.randint(0, 4), r.randint(0, 20), r.randint(0, 9), r.choice(["macOS 14.5", "Ubuntu 24.04", "Windows 11"])))
    return "md", kind, val, text


def t_stack_trace(r):
    pw = password(r, "!#%*-_.+~^@")
    h = host(r)
    text = ("Traceback (most recent call last):\n  File \"/srv/app/%s/db.py\", line %d, in connect\n    conn = psycopg2.connect(**settings)\n"
            "  File \"/usr/lib/python3/dist-packages/psycopg2/__init__.py\", line 122, in connect\n"
            "    conn = _connect(dsn, connection_factory=connection_factory, **kwasync)\n"
            "psycopg2.OperationalError: could not connect to server: Connection timed out\n\nLocal variables:\n"
            "  settings = {'host': '%s', 'port': 5432, 'dbname': '%s', 'user': '%s', 'password': '%s', 'connect_timeout': %d}\n"
            % (r.choice(SERVICES), r.randint(10, 300), h, r.choice(SERVICES), r.choice(["app", "postgres"]), pw, r.randint(3, 30)))
    return "txt", "generic-password", pw, text


def t_db_url(r):
    pw = password(r, "!*-_.~")
    scheme = r.choice(["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp"])
    user = r.choice(["app", "admin", "svc_" + r.choice(SERVICES), "root"])
    if scheme == "redis":
        url = "redis://default:%s@%s:6379/0" % (pw, host(r))
    else:
        url = "%s://%s:%s@%s/%s" % (scheme, user, pw, host(r), r.choice(SERVICES))
    ctx = r.choice(["DATABASE_URL=%s\n", "export DATABASE_URL=\"%s\"\n", "sqlalchemy.url = %s\n", "[database]\nurl = \"%s\"\npool_size = 10\n",
                    "$ psql %s\npsql: error: connection to server failed: FATAL: no pg_hba.conf entry\n"])
    return "txt", "database-url-password", pw, ctx % url


def t_http_cookie(r):
    if r.random() < 0.5:
        val, kind, cname = rs(r, 32, LOWER + DIG), "session-cookie", r.choice(["sessionid", "_session_id"])
    else:
        val, kind, cname = jwt(r), "jwt-session-cookie", r.choice(["access_token", "auth_token", "id_token"])
    h = domain(r)
    text = ("GET /dashboard HTTP/1.1\nHost: app.%s\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\n"
            "Accept: text/html,application/xhtml+xml\nCookie: csrftoken=%s; %s=%s; theme=dark\nConnection: keep-alive\n"
            % (h, rs(r, 32, ALNUM), cname, val))
    return "http", kind, val, text


def t_url_query_token(r):
    tok = rs(r, r.choice([40, 48, 64]), ALNUM) if r.random() < 0.5 else jwt(r)
    h = domain(r)
    lines = []
    for _ in range(r.randint(3, 7)):
        lines.append('%s - - [%02d/Mar/2025:%02d:%02d:%02d +0000] "GET /%s HTTP/1.1" 200 %d "-" "curl/8.5.0"'
                     % (ip(r), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59), r.choice(["healthz", "static/app.css", "api/v1/items?page=2"]), r.randint(100, 9000)))
    lines.insert(r.randint(0, len(lines)), '%s - - [%02d/Mar/2025:%02d:%02d:%02d +0000] "GET /api/v1/export?format=csv&access_token=%s HTTP/1.1" 200 %d "-" "python-requests/2.32"'
                 % (ip(r), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59), tok, r.randint(1000, 90000)))
    return "log", "url-access-token", tok, "\n".join(lines) + "\n"


def t_gradle_properties(r):
    pw = password(r, "!#%*-_.+~^@")
    key = r.choice(["ossrhPassword", "signing.password", "nexusPassword", "artifactoryPassword", "mavenCentralPassword"])
    lines = ["org.gradle.jvmargs=-Xmx%dm" % r.choice([2048, 4096]), "org.gradle.parallel=true", "android.useAndroidX=true",
             "%s=%s" % (key.replace("Password", "Username") if "Password" in key else "signing.keyId", username(r) if "Password" in key else rs(r, 8, HEX).upper()),
             "%s=%s" % (key, pw)]
    return "properties", "generic-password", pw, "\n".join(lines) + "\n"


def t_systemd_unit(r):
    if r.random() < 0.75:
        kind, val, var = vendor(r)
    else:
        kind, val, var = "generic-secret", secret_hex(r, 64) if r.random() < 0.5 else secret_b64(r), r.choice(["SECRET_KEY", "JWT_SECRET", "SESSION_SECRET", "APP_KEY", "ENCRYPTION_KEY"])
    svc = r.choice(SERVICES)
    text = ("[Unit]\nDescription=%s worker\nAfter=network-online.target\n\n[Service]\nUser=%s\nWorkingDirectory=/opt/%s\n"
            "Environment=\"%s=%s\"\nEnvironment=\"PORT=%d\"\nExecStart=/opt/%s/bin/%s serve\nRestart=on-failure\n\n[Install]\nWantedBy=multi-user.target\n"
            % (svc, svc, svc, var, val, r.choice([8080, 9000]), svc, svc))
    return "service", kind, val, text


def t_crontab(r):
    pw = password(r, "!#%*-_.+~^@")
    db = r.choice(SERVICES)
    line = r.choice(["%d %d * * * mysqldump -u backup -p'%s' %s | gzip > /backup/%s-$(date +\\%%F).sql.gz" % (r.randint(0, 59), r.randint(0, 6), pw, db, db),
                     "%d */%d * * * PGPASSWORD='%s' pg_dump -h %s -U postgres %s > /var/backups/%s.sql" % (r.randint(0, 59), r.randint(2, 6), pw, host(r), db, db)])
    text = "# m h dom mon dow command\nMAILTO=ops@%s\n*/5 * * * * /usr/local/bin/healthcheck.sh >/dev/null 2>&1\n%s\n" % (domain(r), line)
    return "crontab", "generic-password", pw, text


def t_vault_login(r):
    tok = vault_token(r)
    text = ("$ vault login -method=userpass username=%s\nPassword (will be hidden):\nSuccess! You are now authenticated. The token information displayed below\n"
            "is already stored in the token helper. You do NOT need to run \"vault login\"\nagain. Future Vault requests will automatically use this token.\n\n"
            "Key                    Value\n---                    -----\ntoken                  %s\ntoken_accessor         %s\ntoken_duration         768h\n"
            "token_renewable        true\ntoken_policies         [\"default\" \"%s\"]\nidentity_policies      []\npolicies               [\"default\" \"%s\"]\n"
            % (username(r), tok, rs(r, 24, ALNUM), r.choice(SERVICES), r.choice(SERVICES)))
    return "txt", "vault-token", tok, text


def t_toml_config(r):
    if r.random() < 0.5:
        kind, val, var = vendor(r, ["grafana-service-account-token", "newrelic-user-api-key", "datadog-api-key", "terraform-cloud-token",
                                    "telegram-bot-token", "discord-bot-token", "pagerduty-api-key", "heroku-api-key"])
        key = "api_token"
    else:
        kind, val, key = "generic-secret", secret_alnum(r), r.choice(["client_secret", "api_secret", "shared_secret"])
    text = ("[server]\nhost = \"0.0.0.0\"\nport = %d\n\n[%s]\nendpoint = \"https://api.%s\"\n%s = \"%s\"\ntimeout_secs = %d\n\n[log]\nlevel = \"info\"\n"
            % (r.choice([8080, 9090]), r.choice(["integration", "upstream", "notifier"]), domain(r), key, val, r.randint(5, 60)))
    return "toml", kind, val, text


def t_oauth_client_json(r):
    sec = r.choice([secret_alnum(r, 40), "GOCSPX-" + rs(r, 28, B64URL), rs(r, 34, ALNUM + "~._-")])
    d = {"client_id": uuid4(r) if r.random() < 0.5 else "%d-%s.apps.googleusercontent.com" % (r.randint(10 ** 11, 10 ** 12), rs(r, 32, LOWER + DIG)),
         "client_secret": sec, "redirect_uris": ["https://%s/oauth/callback" % domain(r)], "grant_types": ["authorization_code", "refresh_token"]}
    return "json", "oauth-client-secret", sec, json.dumps(d, indent=2) + "\n"


def t_env_name_value_json(r):
    # ECS task definition JSON with env name/value pairs
    pw = password(r, "!#%*-_.+~^@")
    name = r.choice(["DB_PASSWORD", "PASSWORD", "MQ_PASS", "LDAP_BIND_PASSWORD", "KEYSTORE_PASSWORD"])
    envs = [{"name": "ENV", "value": "prod"}, {"name": name, "value": pw}, {"name": "LOG_FORMAT", "value": "json"}]
    r.shuffle(envs)
    td = {"family": r.choice(SERVICES), "containerDefinitions": [{"name": r.choice(SERVICES), "image": "%d.dkr.ecr.%s.amazonaws.com/%s:latest"
          % (r.randint(10 ** 11, 10 ** 12 - 1), r.choice(REGIONS), r.choice(SERVICES)), "memory": 512, "environment": envs}]}
    return "json", "generic-password", pw, json.dumps(td, indent=2) + "\n"


def t_webhook_config(r):
    kind, val, var = vendor(r, ["slack-webhook-url", "discord-webhook-url"])
    text = ("# alertmanager.yml\nroute:\n  receiver: team-%s\nreceivers:\n  - name: team-%s\n    %s:\n      - %s: '%s'\n        send_resolved: true\n"
            % ((r.choice(SERVICES),) * 2 + (("slack_configs", "api_url") if "slack" in kind else ("discord_configs", "webhook_url")) + (val,)))
    return "yml", kind, val, text


TEMPLATES = [
    ("dotenv", t_dotenv), ("shell-history", t_shell_history), ("github-actions-log", t_github_actions_log),
    ("gitlab-ci-log", t_gitlab_ci_log), ("aws-credentials-file", t_aws_credentials), ("aws-sts-output", t_aws_session_export),
    ("terraform-hcl", t_terraform_provider), ("terraform-state", t_tfstate), ("kubectl-secret-yaml", t_k8s_secret_yaml),
    ("k8s-deployment-env", t_k8s_deployment_env), ("helm-values", t_helm_values), ("docker-compose", t_docker_compose),
    ("python-source", t_python_source), ("node-source", t_js_source), ("wp-config-php", t_wp_config),
    ("spring-properties", t_spring_properties), ("maven-settings-xml", t_maven_settings), ("pypirc", t_pypirc),
    ("npmrc", t_npmrc), ("ansible-vars", t_ansible_vars), ("har-export", t_har), ("postman-collection", t_postman_collection),
    ("jupyter-notebook", t_jupyter), ("docker-json-log", t_docker_json_log), ("cli-box-table", t_cli_box_table),
    ("curl-verbose-basic-auth", t_curl_basic), ("curl-user-flag", t_curl_user_flag), ("jenkins-console-log", t_jenkins_log),
    ("netrc", t_netrc), ("pgpass", t_pgpass), ("git-credentials", t_git_credentials), ("docker-config-json", t_docker_config),
    ("kubeconfig", t_kubeconfig), ("gcp-service-account-json", t_gcp_sa_json), ("private-key-paste", t_private_key_paste),
    ("azure-appsettings", t_azure_appsettings), ("chat-paste", t_chat_paste), ("issue-comment", t_issue_comment),
    ("python-traceback", t_stack_trace), ("database-url", t_db_url), ("http-cookie", t_http_cookie),
    ("access-log-query-token", t_url_query_token), ("gradle-properties", t_gradle_properties), ("systemd-unit", t_systemd_unit),
    ("crontab", t_crontab), ("vault-login-output", t_vault_login), ("toml-config", t_toml_config),
    ("oauth-client-json", t_oauth_client_json), ("ecs-task-env", t_env_name_value_json), ("alertmanager-webhook", t_webhook_config),
]


def _rng(half, name):
    if half not in ("fresh", "twin"):
        raise ValueError("unsupported half %r (only 'fresh')" % (half,))
    return random.Random("%s/%s" % (half, name))


def positives(half, per_template):
    """Yields (name, context, kind, value, text) tuples: one file each."""
    idx = 0
    _USED.clear()
    for ctx, fn in TEMPLATES:
        r = _rng(half, "pos/" + ctx)
        for _ in range(per_template):
            ext, kind, value, text = fn(r)
            idx += 1
            assert value in text, (ctx, kind)
            yield ("pos-%03d-%s.%s" % (idx, ctx, ext), ctx, kind, value, text)



# ============================================================================
# clean (hard negative) families: each returns (ext, text)
# ============================================================================
PKGS_NPM = ["react", "react-dom", "lodash", "express", "axios", "typescript", "webpack", "vite", "zod", "chalk", "debug",
            "semver", "uuid", "commander", "dotenv", "jsonwebtoken", "bcryptjs", "prettier", "eslint", "rollup", "esbuild"]
PKGS_GO = ["github.com/spf13/cobra", "github.com/stretchr/testify", "golang.org/x/crypto", "golang.org/x/net", "google.golang.org/grpc",
           "github.com/google/uuid", "go.uber.org/zap", "github.com/prometheus/client_golang", "gopkg.in/yaml.v3", "github.com/gorilla/mux"]
PKGS_RS = ["serde", "serde_json", "tokio", "rand", "regex", "anyhow", "thiserror", "clap", "hyper", "reqwest", "sha2", "base64", "bytes"]
PKGS_PY = ["requests", "urllib3", "certifi", "idna", "charset-normalizer", "pydantic", "fastapi", "starlette", "anyio", "sniffio", "click"]


def ver(r):
    return "%d.%d.%d" % (r.randint(0, 9), r.randint(0, 30), r.randint(0, 20))


def c_sha256sum(r):
    algo = r.choice([("sha256", 64), ("sha512", 128), ("sha1", 40)])
    names = ["%s-%s-%s.tar.gz" % (r.choice(SERVICES), ver(r), r.choice(["linux-amd64", "linux-arm64", "darwin-arm64", "windows-amd64"]))
             for _ in range(r.randint(3, 9))]
    lines = ["%s  %s" % (rs(r, algo[1], HEX), n) for n in names]
    head = r.choice(["", "$ %ssum -c SHA%sSUMS\n" % (algo[0], algo[0][3:].upper()), "# %s checksums for release v%s\n" % (algo[0].upper(), ver(r))])
    if r.random() < 0.3:
        lines.append("")
        lines.append("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d" % (rs(r, 64, HEX), r.randint(1000, 10 ** 9)))
    return "txt", head + "\n".join(lines) + "\n"


def c_git_log(r):
    out = []
    for _ in range(r.randint(3, 8)):
        f, l = person(r)
        out.append("commit %s%s\nAuthor: %s %s <%s.%s@%s>\nDate:   Mon Mar %d %02d:%02d:%02d 2025 +0000\n\n    %s\n"
                   % (rs(r, 40, HEX), r.choice(["", " (HEAD -> main, origin/main)", ""]), f.title(), l.title(), f, l, domain(r), r.randint(1, 28),
                      r.randint(0, 23), r.randint(0, 59), r.randint(0, 59),
                      r.choice(["Fix token refresh race", "Rotate secrets via vault, remove plaintext", "Bump deps", "Add password reset flow",
                                "Merge pull request #%d from %s/feature" % (r.randint(10, 9999), org(r))])))
    if r.random() < 0.5:
        out.append("$ git rev-parse HEAD\n%s\n$ git describe --always\nv%s-%d-g%s\n" % (rs(r, 40, HEX), ver(r), r.randint(1, 90), rs(r, 7, HEX)))
    return "txt", "\n".join(out)


def c_package_lock(r):
    pk = {}
    for n in r.sample(PKGS_NPM, r.randint(3, 8)):
        v = ver(r)
        pk["node_modules/" + n] = {"version": v, "resolved": "https://registry.npmjs.org/%s/-/%s-%s.tgz" % (n, n, v),
                                   "integrity": "sha512-" + b64(rbytes(r, 64)), "license": "MIT"}
    d = {"name": r.choice(SERVICES), "version": ver(r), "lockfileVersion": 3, "requires": True,
         "packages": dict([("", {"name": r.choice(SERVICES), "version": ver(r)})] + list(pk.items()))}
    return "json", json.dumps(d, indent=2) + "\n"


def c_yarn_lock(r):
    out = ["# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n"]
    for n in sorted(r.sample(PKGS_NPM, r.randint(3, 8))):
        v = ver(r)
        out.append('%s@^%s:\n  version "%s"\n  resolved "https://registry.yarnpkg.com/%s/-/%s-%s.tgz#%s"\n  integrity sha512-%s\n'
                   % (n, v, v, n, n, v, rs(r, 40, HEX), b64(rbytes(r, 64))))
    return "lock", "\n".join(out)


def c_go_sum(r):
    lines = []
    for m in r.sample(PKGS_GO, r.randint(3, 8)):
        v = "v" + ver(r)
        lines.append("%s %s h1:%s" % (m, v, b64(rbytes(r, 32))))
        lines.append("%s %s/go.mod h1:%s" % (m, v, b64(rbytes(r, 32))))
    return "sum", "\n".join(lines) + "\n"


def c_cargo_poetry_lock(r):
    if r.random() < 0.5:
        out = ["# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n"]
        for n in r.sample(PKGS_RS, r.randint(3, 7)):
            out.append('[[package]]\nname = "%s"\nversion = "%s"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "%s"\n'
                       % (n, ver(r), rs(r, 64, HEX)))
        return "lock", "\n".join(out)
    out = ["# This file is automatically @generated by Poetry 1.8.3 and should not be changed by hand.\n"]
    for n in r.sample(PKGS_PY, r.randint(3, 6)):
        v = ver(r)
        out.append('[[package]]\nname = "%s"\nversion = "%s"\noptional = false\npython-versions = ">=3.8"\nfiles = [\n'
                   '    {file = "%s-%s-py3-none-any.whl", hash = "sha256:%s"},\n    {file = "%s-%s.tar.gz", hash = "sha256:%s"},\n]\n'
                   % (n, v, n.replace("-", "_"), v, rs(r, 64, HEX), n, v, rs(r, 64, HEX)))
    out.append('[metadata]\nlock-version = "2.0"\npython-versions = "^3.11"\ncontent-hash = "%s"\n' % rs(r, 64, HEX))
    return "lock", "\n".join(out)


def c_sri_html(r):
    tags = []
    for lib in r.sample(["jquery", "bootstrap", "htmx.org", "alpinejs", "chart.js", "d3", "lodash"], r.randint(2, 5)):
        algo, n = r.choice([("sha384", 48), ("sha512", 64), ("sha256", 32)])
        tags.append('    <script src="https://cdn.jsdelivr.net/npm/%s@%s/dist/%s.min.js" integrity="%s-%s" crossorigin="anonymous"></script>'
                    % (lib, ver(r), lib.split(".")[0], algo, b64(rbytes(r, n))))
    css = '    <link rel="stylesheet" href="/assets/app.%s.css" integrity="sha384-%s" crossorigin="anonymous">' % (rs(r, 8, HEX), b64(rbytes(r, 48)))
    nonce = '    <script nonce="%s">window.__BUILD__ = "%s";</script>' % (b64(rbytes(r, 16)), rs(r, 7, HEX))
    return "html", "<!doctype html>\n<html>\n  <head>\n    <meta charset=\"utf-8\">\n%s\n%s\n%s\n  </head>\n  <body></body>\n</html>\n" % (css, "\n".join(tags), nonce)


def c_k8s_digests(r):
    svc = r.choice(SERVICES)
    text = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\nspec:\n  template:\n    metadata:\n      annotations:\n"
            "        checksum/config: %s\n        checksum/secret: %s\n        kubectl.kubernetes.io/restartedAt: \"%sZ\"\n    spec:\n"
            "      containers:\n        - name: %s\n          image: ghcr.io/%s/%s@sha256:%s\n        - name: envoy\n"
            "          image: docker.io/envoyproxy/envoy:v1.%d.%d@sha256:%s\n      imagePullSecrets:\n        - name: ghcr-pull\n"
            % (svc, rs(r, 64, HEX), rs(r, 64, HEX), ts(r), svc, org(r), svc, rs(r, 64, HEX), r.randint(25, 32), r.randint(0, 5), rs(r, 64, HEX)))
    if r.random() < 0.5:
        text += ("---\n$ docker images --digests\nREPOSITORY            TAG       DIGEST                                                                    IMAGE ID       SIZE\n"
                 "%s/%s   latest    sha256:%s   %s   %dMB\n" % (org(r), svc, rs(r, 64, HEX), rs(r, 12, HEX), r.randint(20, 900)))
    return "yaml", text


def c_uuid_logs(r):
    lines = []
    for _ in range(r.randint(6, 14)):
        lines.append("%sZ %s request_id=%s user_id=%s tenant=%s path=/api/v1/%s/%s status=%d dur=%dms"
                     % (ts(r), r.choice(["INFO", "INFO", "WARN"]), uuid4(r), uuid4(r), uuid4(r).upper() if r.random() < 0.3 else uuid4(r),
                        r.choice(SERVICES), uuid4(r), r.choice([200, 201, 204, 404]), r.randint(1, 900)))
    return "log", "\n".join(lines) + "\n"


def fake_png_b64(r, n):
    return b64(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rbytes(r, n))


def c_base64_data(r):
    kind = r.choice(["html", "css", "json"])
    if kind == "html":
        return "html", "<p>Logo:</p>\n<img alt=\"logo\" width=\"%d\" src=\"data:image/png;base64,%s\">\n" % (r.randint(16, 64), fake_png_b64(r, r.randint(150, 600)))
    if kind == "css":
        return "css", (".icon-%s{background-image:url(data:image/png;base64,%s)}\n@font-face{font-family:\"Inter\";src:url(data:font/woff2;base64,%s) format(\"woff2\")}\n"
                       % (r.choice(SERVICES), fake_png_b64(r, r.randint(80, 300)), b64(b"wOF2" + rbytes(r, r.randint(300, 900)))))
    d = {"id": uuid4(r), "thumbnail": {"mime": "image/jpeg", "data": b64(b"\xff\xd8\xff\xe0\x00\x10JFIF" + rbytes(r, r.randint(200, 700)))},
         "grpc_payload_b64": b64(b"\x0a" + bytes([20]) + r.choice(SERVICES).encode().ljust(20, b"_") + rbytes(r, 30))}
    return "json", json.dumps(d, indent=2) + "\n"


def fake_cert_pem(r, label="CERTIFICATE"):
    body = der(0x30, der(0x30, b"\xa0\x03\x02\x01\x02" + der_int_bytes(rand_big(r, 16)) + rbytes(r, r.randint(700, 1100))) +
               der(0x30, bytes.fromhex("06092a864886f70d01010b0500")) + der(0x03, b"\x00" + rbytes(r, 256)))
    return "-----BEGIN %s-----\n%s\n-----END %s-----\n" % (label, wrap(b64(body)), label)


def fake_pubkey_pem(r):
    spki = der(0x30, der(0x30, RSA_OID) + der(0x03, b"\x00" + der(0x30, der_int_bytes(rand_big(r, 256, True)) + der(0x02, b"\x01\x00\x01"))))
    return "-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n" % wrap(b64(spki))


def c_pem_public(r):
    kind = r.choice(["chain", "pubkey", "openssl"])
    if kind == "chain":
        return "pem", "".join(fake_cert_pem(r) for _ in range(r.randint(1, 3)))
    if kind == "pubkey":
        return "pem", "# JWT verification key for %s\n%s" % (r.choice(SERVICES), fake_pubkey_pem(r))
    cn = "*.%s" % domain(r)
    return "txt", ("$ openssl s_client -connect %s:443 -showcerts </dev/null\nCONNECTED(00000003)\ndepth=0 CN = %s\nverify return:1\n---\n"
                   "Certificate chain\n 0 s:CN = %s\n   i:C = US, O = Let's Encrypt, CN = R11\n%s---\nServer certificate\nsubject=CN = %s\n"
                   "No client certificate CA names sent\nSSL handshake has read %d bytes\n"
                   % (cn[2:], cn, cn, fake_cert_pem(r), cn, r.randint(3000, 6000)))


def ssh_pub(r, comment):
    k = r.choice(["ed25519", "rsa", "ecdsa"])
    if k == "ed25519":
        blob = ssh_str("ssh-ed25519") + ssh_str(rbytes(r, 32))
        return "ssh-ed25519 %s %s" % (b64(blob), comment)
    if k == "rsa":
        blob = ssh_str("ssh-rsa") + ssh_str(b"\x01\x00\x01") + ssh_str(b"\x00" + rand_big(r, 256))
        return "ssh-rsa %s %s" % (b64(blob), comment)
    blob = ssh_str("ecdsa-sha2-nistp256") + ssh_str("nistp256") + ssh_str(b"\x04" + rbytes(r, 64))
    return "ecdsa-sha2-nistp256 %s %s" % (b64(blob), comment)


def c_ssh_public(r):
    if r.random() < 0.5:
        lines = [ssh_pub(r, "%s@%s" % (username(r), r.choice(["laptop", "workstation", "ci"]))) for _ in range(r.randint(1, 5))]
        return "pub", "\n".join(lines) + "\n"
    lines = []
    for _ in range(r.randint(2, 6)):
        hn = "|1|%s|%s" % (b64(rbytes(r, 20)), b64(rbytes(r, 20))) if r.random() < 0.5 else "%s,%s" % (host(r), ip(r))
        lines.append("%s %s" % (hn, " ".join(ssh_pub(r, "").split()[:2])))
    return "known_hosts", "\n".join(lines) + "\n"


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def c_gpg_public(r):
    data = b"\x99\x02\x0d\x04" + rbytes(r, r.randint(900, 1600))
    f, l = person(r)
    text = ("%s <%s.%s@%s>\n\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PUBLIC KEY BLOCK-----\n"
            % (f.title() + " " + l.title(), f, l, domain(r), wrap(b64(data)), b64(crc24(data).to_bytes(3, "big"))))
    if r.random() < 0.5:
        text = ("pub   ed25519 2024-%02d-%02d [SC]\n      %s\nuid           [ultimate] %s %s\n\n" % (r.randint(1, 12), r.randint(1, 28), rs(r, 40, HEX).upper(), f.title(), l.title())) + text
    return "asc", text


def c_placeholder_docs(r):
    kind, _, var = vendor(r)
    ph = r.choice(["<your-api-key>", "YOUR_API_KEY", "xxxxxxxxxxxxxxxxxxxxxxxx", "${%s}" % var, "{{ .Values.%s }}" % var.lower(), "changeme",
                   "<token>", "REPLACE_ME", "%s_HERE" % var, "****", "...", "$(cat /run/secrets/%s)" % var.lower(), "{{ secrets.%s }}" % var])
    pw_ph = r.choice(["changeme", "<password>", "${DB_PASSWORD}", "{{ .Values.postgresql.auth.password }}", "your_password_here", "********", "secret"])
    text = ("## Configuration\n\nCreate a `.env` file in the project root:\n\n```bash\n%s=%s\nDB_PASSWORD=%s\n```\n\n"
            "Then start the stack with `docker compose up`. The `%s` variable is required; get one from the %s dashboard.\n\n"
            "```yaml\npassword: %s\napi_key: %s\n```\n" % (var, ph, pw_ph, var, kind.split("-")[0].title(), pw_ph, ph))
    return "md", text


VENDOR_EXAMPLES = [
    # values published in vendor documentation as non-working examples
    ("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"), ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("AWS_ACCESS_KEY_ID", "AKIAI44QH8DHBEXAMPLE"), ("AWS_SECRET_ACCESS_KEY", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
    ("JWT", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
    ("STRIPE_SECRET_KEY", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"),
    ("TWILIO_ACCOUNT_SID", "ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
    ("SLACK_BOT_TOKEN", "xoxb-not-a-real-token-this-will-not-work"),
    ("GITHUB_TOKEN", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ("AZURE_STORAGE_CONNECTION_STRING", "UseDevelopmentStorage=true"),
    ("AZURITE_KEY", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="),
]


def c_vendor_examples(r):
    picks = r.sample(VENDOR_EXAMPLES, r.randint(2, 4))
    style = r.choice(["md", "sh", "py"])
    if style == "md":
        body = "The examples below use the placeholder credentials from the vendor docs; they do not work.\n\n```\n%s\n```\n" % "\n".join("%s=%s" % p for p in picks)
        return "md", "# Quickstart\n\n" + body
    if style == "sh":
        return "sh", "#!/bin/sh\n# example values from the official docs - replace before use\n%s\n" % "\n".join('export %s="%s"' % p for p in picks)
    return "py", "# tests/test_config.py\nEXAMPLES = {\n%s\n}\n\n\ndef test_redaction():\n    for k, v in EXAMPLES.items():\n        assert redact(v) != v\n" % "\n".join("    %r: %r," % p for p in picks)


def c_secret_references(r):
    acct = r.randint(10 ** 11, 10 ** 12 - 1)
    svc = r.choice(SERVICES)
    refs = ["DB_PASSWORD=vault:secret/data/%s/db#password" % svc,
            "API_KEY=arn:aws:secretsmanager:%s:%d:secret:prod/%s/api-%s" % (r.choice(REGIONS), acct, svc, rs(r, 6)),
            "STRIPE_KEY=op://Production/%s-stripe/credential" % svc,
            "SMTP_PASSWORD=@Microsoft.KeyVault(SecretUri=https://%s-kv.vault.azure.net/secrets/smtp-password/)" % org(r).replace("-", ""),
            "GCP_SECRET=projects/%s-prod/secrets/%s-token/versions/latest" % (org(r), svc),
            "REDIS_PASSWORD=ssm:/%s/prod/redis/password" % svc,
            "SENTRY_DSN=${{ secrets.SENTRY_DSN }}"]
    r.shuffle(refs)
    k8s = ("        - name: DB_PASSWORD\n          valueFrom:\n            secretKeyRef:\n              name: %s-db\n              key: password\n"
           "        - name: API_TOKEN\n          valueFrom:\n            secretKeyRef:\n              name: %s-api\n              key: token\n" % (svc, svc))
    eso = ("apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: %s\nspec:\n  secretStoreRef:\n    name: vault-backend\n"
           "    kind: ClusterSecretStore\n  data:\n    - secretKey: password\n      remoteRef:\n        key: secret/%s/db\n        property: password\n" % (svc, svc))
    return "txt", "\n".join(refs[:r.randint(3, 7)]) + "\n\n" + r.choice([k8s, eso])


def c_encrypted_values(r):
    if r.random() < 0.5:
        payload = "".join(rs(r, 1, HEX) for _ in range(r.randint(300, 900) * 2))
        hexed = payload.encode().hex()
        body = "\n".join(hexed[i:i + 80] for i in range(0, len(hexed), 80))
        key = r.choice(["db_password", "vault_api_token", "smtp_password"])
        return "yml", "%s: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n%s\n" % (key, "\n".join("          " + ln for ln in body.split("\n")))
    def enc(n):
        return "ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]" % (b64(rbytes(r, n)), b64(rbytes(r, 32)), b64(rbytes(r, 16)))
    text = ("database:\n    user: %s\n    password: %s\napi:\n    token: %s\nsops:\n    kms:\n        - arn: arn:aws:kms:%s:%d:key/%s\n"
            "          created_at: \"%sZ\"\n          enc: %s\n          aws_profile: \"\"\n    lastmodified: \"%sZ\"\n    mac: %s\n    version: 3.9.%d\n"
            % (enc(r.randint(4, 10)), enc(r.randint(12, 24)), enc(r.randint(30, 60)), r.choice(REGIONS), r.randint(10 ** 11, 10 ** 12 - 1), uuid4(r), ts(r),
               b64(rbytes(r, 180)), ts(r), enc(64).replace("type:str", "type:str"), r.randint(0, 4)))
    if r.random() < 0.4:
        text = ("apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: %s\nspec:\n  encryptedData:\n    password: %s\n"
                % (r.choice(SERVICES), b64(rbytes(r, 3 * r.randint(200, 260)))))
    return "yaml", text


def c_masked(r):
    kind = r.choice(["aws", "json", "yaml", "log"])
    if kind == "aws":
        return "txt", ("$ aws configure list\n      Name                    Value             Type    Location\n      ----                    -----             ----    --------\n"
                       "   profile                <not set>             None    None\naccess_key     ****************%s shared-credentials-file\n"
                       "secret_key     ****************%s shared-credentials-file\n    region                %s      config-file    ~/.aws/config\n"
                       % (rs(r, 4, UPPER + DIG), rs(r, 4, ALNUM), r.choice(REGIONS)))
    if kind == "json":
        return "json", json.dumps({"username": username(r), "password": r.choice(["", "********", None, "[REDACTED]"]), "api_key": r.choice(["", "***", "<redacted>"]),
                                   "host": host(r), "token": r.choice([None, "", "[FILTERED]"])}, indent=2) + "\n"
    if kind == "yaml":
        return "yaml", "smtp:\n  host: %s\n  user: %s\n  password: \"%s\"\n  token: %s\n" % (host(r), email(r), r.choice(["", "********", "••••••••"]), r.choice(["~", "null", "\"\""]))
    return "log", "\n".join("%sZ INFO login user=%s password=%s token=%s..%s ok" % (ts(r), username(r), r.choice(["[REDACTED]", "***", "<hidden>"]),
                                                                              rs(r, 4, ALNUM), rs(r, 2, ALNUM)) for _ in range(r.randint(3, 8))) + "\n"


def c_code_reads_secrets(r):
    kind, _, var = vendor(r)
    snippets = [
        "import getpass\nimport os\n\npassword = getpass.getpass(\"DB password: \")\napi_key = os.environ[\"%s\"]\ntoken = os.getenv(\"%s\", \"\")\n" % (var, var),
        "const apiKey = process.env.%s;\nif (!apiKey) {\n  throw new Error('%s is not set');\n}\nconst password = await prompt({ type: 'password', name: 'password' });\n" % (var, var),
        "func loadConfig() Config {\n\treturn Config{\n\t\tPassword: os.Getenv(\"DB_PASSWORD\"),\n\t\tAPIKey:   os.Getenv(\"%s\"),\n\t}\n}\n" % var,
        "variable \"db_password\" {\n  type      = string\n  sensitive = true\n}\n\nresource \"aws_db_instance\" \"main\" {\n  password = var.db_password\n}\n",
        "      - name: Publish\n        run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n          %s: ${{ secrets.%s }}\n" % (var, var),
        "def check_password(user, password: str) -> bool:\n    return bcrypt.checkpw(password.encode(), user.password_hash)\n\n\nMIN_PASSWORD_LENGTH = 12\n",
        "spring.datasource.password=${DB_PASSWORD}\nspring.datasource.username=${DB_USER:app}\napp.api-key=${%s}\n" % var,
    ]
    picks = r.sample(snippets, r.randint(1, 3))
    return "txt", "\n\n".join(picks)


def c_public_identifiers(r):
    items = ["STRIPE_PUBLISHABLE_KEY=pk_live_51%s" % rs(r, 97),
             "GOOGLE_OAUTH_CLIENT_ID=%d-%s.apps.googleusercontent.com" % (r.randint(10 ** 11, 10 ** 12), rs(r, 32, LOWER + DIG)),
             "SENTRY_DSN=https://%s@o%d.ingest.sentry.io/%d" % (rs(r, 32, HEX), r.randint(10 ** 5, 10 ** 7), r.randint(10 ** 6, 10 ** 7)),
             "AZURE_TENANT_ID=%s" % uuid4(r), "AZURE_CLIENT_ID=%s" % uuid4(r), "AWS_ACCOUNT_ID=%d" % r.randint(10 ** 11, 10 ** 12 - 1),
             "GA_MEASUREMENT_ID=G-%s" % rs(r, 10, UPPER + DIG), "ALGOLIA_APP_ID=%s" % rs(r, 10, UPPER + DIG),
             "SEGMENT_WRITE_KEY_PUBLIC=false", "RECAPTCHA_SITE_KEY=6L%s" % rs(r, 38, B64URL),
             "NEXT_PUBLIC_POSTHOG_HOST=https://eu.i.posthog.com"]
    r.shuffle(items)
    return "env", "# public, client-side identifiers (safe to ship in the bundle)\n" + "\n".join(items[:r.randint(3, 7)]) + "\n"


def c_trace_ids(r):
    lines = []
    for _ in range(r.randint(4, 10)):
        if r.random() < 0.5:
            lines.append(json.dumps({"ts": ts(r) + "Z", "level": "info", "msg": "%s request" % r.choice(SERVICES), "trace_id": rs(r, 32, HEX),
                                     "span_id": rs(r, 16, HEX), "parent_span_id": rs(r, 16, HEX), "trace_flags": "01"}))
        else:
            lines.append("traceparent: 00-%s-%s-01  x-b3-traceid=%s x-amzn-trace-id=Root=1-%s-%s"
                         % (rs(r, 32, HEX), rs(r, 16, HEX), rs(r, 16, HEX), rs(r, 8, HEX), rs(r, 24, HEX)))
    return "log", "\n".join(lines) + "\n"


def c_minified_assets(r):
    if r.random() < 0.5:
        files = {"main.js": "/static/js/main.%s.js" % rs(r, 8, HEX), "main.css": "/static/css/main.%s.css" % rs(r, 8, HEX),
                 "runtime.js": "/static/js/runtime.%s.js" % rs(r, 20, HEX)}
        for i in range(r.randint(2, 6)):
            files["static/js/%d.%s.chunk.js" % (r.randint(100, 999), rs(r, 8, HEX))] = "/static/js/%d.chunk.js" % i
        return "json", json.dumps({"files": files, "entrypoints": list(files.values())[:3], "buildId": rs(r, 21, B64URL)}, indent=2) + "\n"
    names = [rs(r, 1, LOWER) + rs(r, r.randint(1, 2), ALNUM) for _ in range(6)]
    js = ("!function(%s,%s){\"use strict\";var %s=\"%s\",%s=function(e){return e.split(\"\").reverse().join(\"\")};%s.exports={v:%s,h:\"%s\"}}"
          "(this,window);\n/*# sourceMappingURL=app.%s.js.map */\n" % (names[0], names[1], names[2], rs(r, 24, B64URL), names[3], names[0], names[2], rs(r, 40, HEX), rs(r, 8, HEX)))
    css = ".%s_button__%s{color:#%s}.%s_card__%s{box-shadow:0 1px 2px #%s}\n" % ("Button", rs(r, 5, B64URL), rs(r, 6, HEX), "Card", rs(r, 5, B64URL), rs(r, 6, HEX))
    return "js", js + "/*\n" + css + "*/\n"


def c_cloud_resource_ids(r):
    acct = r.randint(10 ** 11, 10 ** 12 - 1)
    rows = []
    for _ in range(r.randint(3, 7)):
        rows.append("%s  i-0%s  %s  ami-0%s  vpc-0%s  subnet-0%s  sg-0%s  %s"
                    % (r.choice(SERVICES).ljust(10), rs(r, 16, HEX), r.choice(["t3.micro", "m6i.large", "c7g.xlarge"]), rs(r, 16, HEX), rs(r, 16, HEX),
                       rs(r, 16, HEX), rs(r, 16, HEX), r.choice(["running", "stopped"])))
    extra = ("\n$ docker ps\nCONTAINER ID   IMAGE                      STATUS          NAMES\n" +
             "\n".join("%s   %s/%s:%s   Up %d hours   %s-%d" % (rs(r, 12, HEX), org(r), s, ver(r), r.randint(1, 90), s, r.randint(1, 3))
                       for s in r.sample(SERVICES, 3)) +
             "\n\nrole: arn:aws:iam::%d:role/%s\nkms: arn:aws:kms:%s:%d:key/%s\n" % (acct, r.choice(["Admin", "CI"]), r.choice(REGIONS), acct, uuid4(r)))
    return "txt", "NAME        INSTANCE_ID          TYPE  AMI  VPC  SUBNET  SG  STATE\n" + "\n".join(rows) + "\n" + extra


def c_nonsecret_env(r):
    items = ["PASSWORD_MIN_LENGTH=%d" % r.choice([8, 10, 12, 14]), "PASSWORD_HASH_ALGORITHM=argon2id", "TOKEN_EXPIRY_SECONDS=%d" % r.choice([900, 3600, 86400]),
             "SECRET_ROTATION_DAYS=%d" % r.choice([30, 90]), "JWT_ALGORITHM=RS256", "JWT_ISSUER=https://auth.%s/" % domain(r),
             "SESSION_COOKIE_NAME=sessionid", "API_KEY_HEADER=X-Api-Key", "OAUTH_TOKEN_URL=https://auth.%s/oauth/token" % domain(r),
             "AUTH_PROVIDER=oidc", "REQUIRE_2FA=true", "SECRETS_BACKEND=vault", "VAULT_ADDR=https://vault.%s:8200" % domain(r),
             "KEY_ID=%s" % r.choice(["primary", "2025-01", "signing-key-v3"]), "CREDENTIALS_FILE=/run/secrets/app.json", "PASSWORD_RESET_URL=/account/reset",
             "TOKEN_LENGTH=%d" % r.choice([32, 64]), "DB_PASSWORD_FILE=/run/secrets/db_password", "GIT_COMMIT=%s" % rs(r, 40, HEX)]
    r.shuffle(items)
    return "env", "\n".join(items[:r.randint(5, 12)]) + "\n"


def c_kubeconfig_exec(r):
    cl = "arn:aws:eks:%s:%d:cluster/%s" % (r.choice(REGIONS), r.randint(10 ** 11, 10 ** 12 - 1), r.choice(SERVICES))
    ca = b64(fake_cert_pem(r).encode())
    return "yaml", ("apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: %s\n    server: https://%s.gr7.%s.eks.amazonaws.com\n  name: %s\n"
                    "contexts:\n- context:\n    cluster: %s\n    user: %s\n  name: %s\ncurrent-context: %s\nkind: Config\nusers:\n- name: %s\n  user:\n"
                    "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args:\n      - eks\n      - get-token\n"
                    "      - --cluster-name\n      - %s\n" % (ca, rs(r, 32, HEX).upper(), r.choice(REGIONS), cl, cl, cl, cl, cl, cl, cl.split("/")[-1]))


CLEAN_FAMILIES = [
    ("checksum-file", c_sha256sum), ("git-log", c_git_log), ("package-lock", c_package_lock), ("yarn-lock", c_yarn_lock),
    ("go-sum", c_go_sum), ("cargo-poetry-lock", c_cargo_poetry_lock), ("sri-html", c_sri_html), ("k8s-digests", c_k8s_digests),
    ("uuid-logs", c_uuid_logs), ("base64-data", c_base64_data), ("pem-public", c_pem_public), ("ssh-public", c_ssh_public),
    ("gpg-public", c_gpg_public), ("placeholder-docs", c_placeholder_docs), ("vendor-example-keys", c_vendor_examples),
    ("secret-references", c_secret_references), ("encrypted-values", c_encrypted_values), ("masked-passwords", c_masked),
    ("code-reads-secrets", c_code_reads_secrets), ("public-identifiers", c_public_identifiers), ("trace-ids", c_trace_ids),
    ("minified-assets", c_minified_assets), ("cloud-resource-ids", c_cloud_resource_ids), ("nonsecret-env", c_nonsecret_env),
    ("kubeconfig-exec", c_kubeconfig_exec),
]


def cleans(half, per_family):
    """Yields (name, family, text) tuples: one file each."""
    idx = 0
    for fam, fn in CLEAN_FAMILIES:
        r = _rng(half, "clean/" + fam)
        for _ in range(per_family):
            ext, text = fn(r)
            idx += 1
            yield ("clean-%03d-%s.%s" % (idx, fam, ext), fam, text)
