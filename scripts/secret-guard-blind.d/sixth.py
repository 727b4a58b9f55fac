#!/usr/bin/env python3
"""Blind hold-out corpus #6 for a paste-time secret detector.

API
    positives(half, per_template) -> [(name, context, kind, value, text)]
    cleans(half, per_family)      -> [(name, family, text)]

`half` is "sixth" or "twin".  Every random choice comes from
random.Random(f"{half}:{template}:{i}"), so output is reproducible.
Standard library only.  All credential values are synthetic (random in the
published format); vendor documentation example keys appear only in cleans.
Encoded contexts (value is the raw secret, the text holds an encoding of it):
    k8s_secret_get_yaml   -> base64 of the password in `data:`
    docker_config_json    -> base64("user:password") in "auth"
"""
import base64
import hashlib
import hmac
import json
import random
import string
import struct
import zlib

# ---------------------------------------------------------------- alphabets
DIG = string.digits
UP = string.ascii_uppercase
LO = string.ascii_lowercase
ALNUM = DIG + UP + LO
B62 = DIG + UP + LO                      # GitHub/npm checksum alphabet order
HEXL = "0123456789abcdef"
B64URL = UP + LO + DIG + "-_"
B64STD = UP + LO + DIG + "+/"
PWSYM = "!@#%^*-_+=.~"


def rs(r, alpha, n):
    return "".join(r.choice(alpha) for _ in range(n))


def hx(r, n):
    return rs(r, HEXL, n)


def pick(r, seq):
    return seq[r.randrange(len(seq))]


def b64(data):
    return base64.b64encode(data).decode()


def b64u(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def rbytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def wrap(s, n):
    return [s[i:i + n] for i in range(0, len(s), n)]


def base62(n):
    if n == 0:
        return "0"
    out = ""
    while n:
        n, m = divmod(n, 62)
        out = B62[m] + out
    return out


def crc_token(r, prefix):
    """GitHub-style token: prefix + 30 base62 + 6-char base62 CRC32 checksum."""
    body = rs(r, B62, 30)
    return prefix + body + base62(zlib.crc32(body.encode())).rjust(6, "0")


# ---------------------------------------------------------------- bech32
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        b = chk >> 25
        chk = ((chk & 0x1FFFFFF) << 5) ^ v
        for i in range(5):
            if (b >> i) & 1:
                chk ^= gen[i]
    return chk


def _hrp_expand(h):
    return [ord(x) >> 5 for x in h] + [0] + [ord(x) & 31 for x in h]


def _convertbits(data, frm, to):
    acc = bits = 0
    out = []
    maxv = (1 << to) - 1
    for v in data:
        acc = (acc << frm) | v
        bits += frm
        while bits >= to:
            bits -= to
            out.append((acc >> bits) & maxv)
    if bits:
        out.append((acc << (to - bits)) & maxv)
    return out


def bech32_encode(hrp, data5):
    pm = _polymod(_hrp_expand(hrp) + data5 + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[d] for d in data5 + chk)


# ---------------------------------------------------------------- X25519 (RFC 7748)
_P = 2 ** 255 - 19


def x25519(k, u):
    k = bytearray(k)
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    k = int.from_bytes(k, "little")
    x1 = int.from_bytes(u, "little") & ((1 << 255) - 1)
    x2, z2, x3, z3, swap = 1, 0, x1, 1, 0
    for t in reversed(range(255)):
        kt = (k >> t) & 1
        swap ^= kt
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = kt
        a = (x2 + z2) % _P
        aa = a * a % _P
        b = (x2 - z2) % _P
        bb = b * b % _P
        e = (aa - bb) % _P
        c = (x3 + z3) % _P
        d = (x3 - z3) % _P
        da = d * a % _P
        cb = c * b % _P
        x3 = (da + cb) ** 2 % _P
        z3 = x1 * (da - cb) ** 2 % _P
        x2 = aa * bb % _P
        z2 = e * (aa + 121665 * e) % _P
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, _P - 2, _P) % _P).to_bytes(32, "little")


def age_keypair(r):
    sk = rbytes(r, 32)
    pub = x25519(sk, (9).to_bytes(32, "little"))
    secret = bech32_encode("age-secret-key-", _convertbits(sk, 8, 5)).upper()
    public = bech32_encode("age", _convertbits(pub, 8, 5))
    return secret, public


# ---------------------------------------------------------------- vendor token generators
def gen_github_classic(r):
    return crc_token(r, "ghp_")


def gen_github_fine(r):
    return "github_pat_11" + rs(r, UP + DIG, 20) + "_" + rs(r, ALNUM, 59)


def gen_gitlab_pat(r):
    return "glpat-" + rs(r, ALNUM + "-_", 20)


def gen_slack_bot(r):
    return "xoxb-%d-%d-%s" % (r.randint(10 ** 10, 10 ** 13 - 1), r.randint(10 ** 12, 10 ** 13 - 1), rs(r, ALNUM, 24))


def gen_stripe_secret(r):
    return pick(r, ["sk_live_", "sk_live_", "rk_live_"]) + "51" + rs(r, DIG, 1) + rs(r, ALNUM, 96)


def gen_aws_pair(r):
    return "AKIA" + rs(r, UP + "234567", 16), rs(r, ALNUM + "+/", 40)


def gen_openai(r):
    kind = pick(r, ["proj", "proj", "proj", "svcacct"])
    return "sk-%s-%sT3BlbkFJ%s" % (kind, rs(r, B64URL, 74), rs(r, B64URL, 74))


def gen_anthropic(r):
    return "sk-ant-api03-" + rs(r, B64URL, 93) + "AA"


def gen_google_api(r):
    return "AIza" + rs(r, ALNUM + "-_", 35)


def gen_hf(r):
    return "hf_" + rs(r, UP + LO, 34)


def gen_npm(r):
    return crc_token(r, "npm_")


def _varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def _field(t, data):
    return bytes([t]) + _varint(len(data)) + data


def gen_pypi(r, project=None):
    """Macaroon v2 binary serialisation, as PyPI (warehouse) issues it."""
    ident = "%s-%s-4%s-%s%s-%s" % (hx(r, 8), hx(r, 4), hx(r, 3), pick(r, "89ab"), hx(r, 3), hx(r, 12))
    blob = b"\x02" + _field(1, b"pypi.org") + _field(2, ident.encode()) + b"\x00"
    if project:
        cav = json.dumps({"permissions": {"projects": [project]}, "version": 1})
    else:
        cav = json.dumps({"permissions": "user", "version": 1})
    blob += _field(2, cav.encode()) + b"\x00"
    if r.random() < 0.5:
        blob += _field(2, json.dumps([3, "%s-%s-%s-%s-%s" % (hx(r, 8), hx(r, 4), hx(r, 4), hx(r, 4), hx(r, 12))]).encode()) + b"\x00"
    blob += b"\x00" + _field(6, rbytes(r, 32))
    return "pypi-" + b64u(blob)


def gen_sendgrid(r):
    return "SG." + rs(r, B64URL, 22) + "." + rs(r, B64URL, 43)


def gen_discord_bot(r):
    uid = str(r.randint(10 ** 17, 14 * 10 ** 17))
    return b64(uid.encode()).rstrip("=") + "." + rs(r, B64URL, 6) + "." + rs(r, B64URL, 38)


def gen_telegram(r):
    return "%d:AA%s" % (r.randint(10 ** 9, 8 * 10 ** 9), rs(r, B64URL, 33))


def gen_do(r):
    return "dop_v1_" + hx(r, 64)


def gen_shopify(r):
    return "shpat_" + hx(r, 32)


def gen_databricks(r):
    return "dapi" + hx(r, 32) + pick(r, ["", "", "", "-2", "-3"])


def gen_grafana_sa(r):
    return "glsa_" + rs(r, ALNUM, 32) + "_" + hx(r, 8)


def gen_sentry_user(r):
    return "sntryu_" + hx(r, 64)


def gen_azure_ad_secret(r):
    return rs(r, ALNUM, 3) + rs(r, DIG, 1) + "Q~" + rs(r, ALNUM + "_~.-", 34)


def gen_twilio_token(r):
    return hx(r, 32)


def gen_jwt(r, claims, alg="HS256"):
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        hdr["kid"] = rs(r, B64URL, 43)
    h = b64u(json.dumps(hdr, separators=(",", ":")).encode())
    p = b64u(json.dumps(claims, separators=(",", ":")).encode())
    if alg == "HS256":
        sig = hmac.new(rbytes(r, 32), (h + "." + p).encode(), hashlib.sha256).digest()
    else:
        sig = rbytes(r, 256)
    return h + "." + p + "." + b64u(sig)


def gen_openssh_ed25519(r, comment):
    def s(b):
        return struct.pack(">I", len(b)) + b
    pk = rbytes(r, 32)
    sk = rbytes(r, 32)
    pub = s(b"ssh-ed25519") + s(pk)
    chk = rbytes(r, 4)
    priv = chk + chk + s(b"ssh-ed25519") + s(pk) + s(sk + pk) + s(comment.encode())
    i = 1
    while len(priv) % 8:
        priv += bytes([i])
        i += 1
    blob = b"openssh-key-v1\x00" + s(b"none") + s(b"none") + s(b"") + struct.pack(">I", 1) + s(pub) + s(priv)
    body = "\n".join(wrap(b64(blob), 70))
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + body + "\n-----END OPENSSH PRIVATE KEY-----"


def gen_pkcs8_rsa_lines(r):
    head = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100")
    der = head + rbytes(r, 1217 - len(head))
    return ["-----BEGIN PRIVATE KEY-----"] + wrap(b64(der), 64) + ["-----END PRIVATE KEY-----"]


# ---------------------------------------------------------------- generic value generators
WORDS = ["falcon", "harbor", "copper", "meadow", "violet", "thunder", "maple", "orbit", "pepper", "glacier",
         "lantern", "cobalt", "saffron", "tundra", "willow", "ember", "quartz", "nimbus", "juniper", "raven",
         "biscuit", "canyon", "marble", "pickle", "rocket", "sparrow", "walnut", "zephyr", "mango", "otter"]


def gen_password(r, style=None, urlsafe=False):
    style = style if style is not None else r.randrange(5)
    sym = "-_.~" if urlsafe else PWSYM
    if style == 0:
        return pick(r, WORDS).capitalize() + str(r.randint(10, 9999)) + rs(r, sym, 1) + pick(r, WORDS)
    if style == 1:
        s = rs(r, ALNUM, r.randint(10, 20))
        k = r.randrange(len(s))
        return s[:k] + rs(r, sym, 2) + s[k:]
    if style == 2:
        return "-".join(pick(r, WORDS) for _ in range(3)) + "-" + str(r.randint(1, 99))
    if style == 3:
        return rs(r, ALNUM, r.randint(20, 32))
    return pick(r, WORDS)[:4].capitalize() + rs(r, sym, 1) + rs(r, ALNUM, 6) + rs(r, DIG, 3) + rs(r, sym, 1)


def gen_apikey(r, style=None):
    style = style if style is not None else r.randrange(5)
    if style == 0:
        return hx(r, pick(r, [32, 40, 64]))
    if style == 1:
        return rs(r, ALNUM, r.randint(32, 48))
    if style == 2:
        return b64(rbytes(r, pick(r, [24, 32, 33])))
    if style == 3:
        return "%s-%s-4%s-%s%s-%s" % (hx(r, 8), hx(r, 4), hx(r, 3), pick(r, "89ab"), hx(r, 3), hx(r, 12))
    return b64u(rbytes(r, 32))


# ---------------------------------------------------------------- context pools
FIRST = ["alex", "sam", "priya", "jordan", "mei", "tomasz", "lucia", "omar", "kenji", "fatima", "noah", "ines",
         "dmitri", "aisha", "liam", "sofia", "raj", "chloe", "mateo", "yuki", "ben", "olga", "kwame", "hana"]
ORGS = ["acme-labs", "northwind", "bluefin-io", "kestrel", "tinybird-co", "pinecrest", "riverbank", "zephyr-apps",
        "oakleaf", "quantix", "lumen-data", "harborview", "cobalt-dev", "redwood-analytics", "saltmarsh", "ferrous"]
PROJECTS = ["inventory-api", "billing-svc", "chat-bot", "order-worker", "analytics-etl", "portfolio-site",
            "discord-bot", "homelab", "mobile-backend", "scraper", "dashboard", "auth-service", "data-pipeline",
            "shop-frontend", "ml-trainer", "notes-app", "recipe-finder", "ticketing", "crm-sync", "weather-station"]
DOMAINS = ["acme-labs.io", "northwind.dev", "bluefin.app", "kestrel.systems", "pinecrest.co", "riverbank-fin.com",
           "zephyrapps.net", "oakleaf.cloud", "quantix.ai", "harborview.org", "lumendata.io", "saltmarsh.tech"]
TLD_INT = ["internal", "prod.local", "svc.cluster.local", "corp.lan", "eu-west-1.rds.amazonaws.com", "lan"]
DBNAMES = ["appdb", "orders", "inventory", "analytics", "wordpress", "shop", "users", "metrics", "crm", "notes"]


def person(r):
    return pick(r, FIRST)


def host(r, kind=None):
    kind = kind or pick(r, ["db", "pg", "mysql", "api", "cache", "mq", "app", "worker", "srv"])
    return "%s-%02d.%s" % (kind, r.randint(1, 12), pick(r, TLD_INT))


def ip(r, private=True):
    if private:
        return pick(r, ["10.%d.%d.%d" % (r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)),
                        "192.168.%d.%d" % (r.randint(0, 10), r.randint(2, 254)),
                        "172.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(2, 254))])
    return "%d.%d.%d.%d" % (r.randint(20, 220), r.randint(0, 255), r.randint(0, 255), r.randint(2, 254))


def ts(r, sep="T"):
    return "20%d-%02d-%02d%s%02d:%02d:%02d" % (r.choice([25, 26]), r.randint(1, 12), r.randint(1, 28), sep,
                                               r.randint(0, 23), r.randint(0, 59), r.randint(0, 59))


def uuid4(r):
    return "%s-%s-4%s-%s%s-%s" % (hx(r, 8), hx(r, 4), hx(r, 3), pick(r, "89ab"), hx(r, 3), hx(r, 12))


def ask(r):
    return pick(r, [
        "hey, can someone help me figure out why this isn't working?",
        "Posting my config below, been stuck on this for hours.",
        "Any idea what I'm doing wrong here? Full output:",
        "works locally but not on the server. here's what I have:",
        "Second day fighting this. Relevant bits:",
        "pasting for my teammate, please look at line ~20",
        "Q: why does this fail after the upgrade?",
        "sharing so you can reproduce",
    ])


def applog(r, n, svc=None):
    svc = svc or pick(r, PROJECTS)
    msgs = ["Starting %s v%d.%d.%d" % (svc, r.randint(0, 4), r.randint(0, 20), r.randint(0, 9)),
            "Listening on 0.0.0.0:%d" % r.choice([3000, 8000, 8080, 5000, 9000]),
            "GET /health 200 %dms" % r.randint(1, 40),
            "connected to broker at %s" % host(r, "mq"),
            "cache warmup finished in %.2fs" % (r.random() * 5),
            "retrying request (attempt %d/5)" % r.randint(1, 4),
            "worker pool size=%d" % r.choice([2, 4, 8, 16]),
            "scheduled job sync-%s completed" % pick(r, ["users", "orders", "events"]),
            "POST /api/v1/%s 201 %dms" % (pick(r, ["items", "orders", "login", "events"]), r.randint(5, 300)),
            "slow query took %dms" % r.randint(500, 4000)]
    lvl = ["INFO", "INFO", "DEBUG", "WARN", "INFO"]
    return ["%s %-5s [%s] %s" % (ts(r, " "), pick(r, lvl), svc, pick(r, msgs)) for _ in range(n)]


# ====================================================================== POSITIVE TEMPLATES
# Each returns (kind, value, text, file_extension)

def p_git_remote_github_pat(r):
    tok = gen_github_classic(r)
    user, org, proj = person(r), pick(r, ORGS), pick(r, PROJECTS)
    url = "https://%s:%s@github.com/%s/%s.git" % (user, tok, org, proj)
    v = r.randrange(3)
    if v == 0:
        lines = ["$ git remote -v",
                 "origin\t%s (fetch)" % url, "origin\t%s (push)" % url,
                 "$ git push origin %s" % pick(r, ["main", "feature/login", "fix/%d" % r.randint(10, 999)]),
                 "remote: Permission to %s/%s.git denied to %s." % (org, proj, user),
                 "fatal: unable to access 'https://github.com/%s/%s.git/': The requested URL returned error: 403" % (org, proj),
                 "", ask(r)]
    elif v == 1:
        lines = ["# ~/.git-credentials  (credential.helper=store)",
                 "https://%s:%s@github.com" % (user, tok),
                 "", "$ git config --global --list",
                 "user.name=%s" % user.capitalize(), "user.email=%s@%s" % (user, pick(r, DOMAINS)),
                 "credential.helper=store", "pull.rebase=%s" % pick(r, ["true", "false"]),
                 "init.defaultbranch=main"]
    else:
        lines = ["[core]", "\trepositoryformatversion = 0", "\tfilemode = true", "\tbare = false",
                 '[remote "origin"]', "\turl = %s" % url,
                 "\tfetch = +refs/heads/*:refs/remotes/origin/*",
                 '[branch "main"]', "\tremote = origin", "\tmerge = refs/heads/main",
                 "", "^ that's my .git/config, clone works but push says 403??"]
    return "github_pat_classic", tok, "\n".join(lines), pick(r, ["txt", "log", "ini"])


def p_curl_github_finegrained(r):
    tok = gen_github_fine(r)
    org, proj = pick(r, ORGS), pick(r, PROJECTS)
    hdr = pick(r, ['-H "Authorization: Bearer %s"', "-H 'Authorization: token %s'", '--header "Authorization: Bearer %s"']) % tok
    n = r.randint(1, 400)
    lines = ["$ curl -sS -L \\", '  -H "Accept: application/vnd.github+json" \\', "  %s \\" % hdr,
             '  -H "X-GitHub-Api-Version: 2022-11-28" \\',
             "  https://api.github.com/repos/%s/%s/%s" % (org, proj, pick(r, ["actions/runs?per_page=5", "issues/%d" % n, "pulls?state=open", "releases/latest"])),
             "{", '  "message": "%s",' % pick(r, ["Resource not accessible by personal access token", "Not Found", "Bad credentials"]),
             '  "documentation_url": "https://docs.github.com/rest",', '  "status": "%s"' % pick(r, ["403", "404", "401"]), "}",
             "", pick(r, ["the token has Contents: read-only, is that the issue?", "fine-grained token, repo access = selected repos", "same call works from the browser session"])]
    if r.random() < 0.5:
        lines = [ask(r), ""] + lines
    return "github_pat_fine_grained", tok, "\n".join(lines), "sh"


def p_gitlab_ci_pat(r):
    tok = gen_gitlab_pat(r)
    grp, proj = pick(r, ORGS), pick(r, PROJECTS)
    v = r.randrange(2)
    if v == 0:
        lines = ["stages:", "  - build", "  - deploy", "",
                 "variables:", "  DOCKER_DRIVER: overlay2", "  GIT_DEPTH: \"%d\"" % r.choice([1, 10, 50]), "",
                 "build:", "  stage: build", "  image: %s" % pick(r, ["node:20-alpine", "python:3.12-slim", "golang:1.23"]),
                 "  script:",
                 "    - git clone https://oauth2:%s@gitlab.com/%s/shared-libs.git libs" % (tok, grp),
                 "    - %s" % pick(r, ["npm ci && npm run build", "pip install -r requirements.txt", "go build ./..."]),
                 "", "deploy:", "  stage: deploy", "  script:", "    - ./scripts/deploy.sh %s" % proj,
                 "  only:", "    - main"]
    else:
        lines = ["# ~/.python-gitlab.cfg", "[global]", "default = %s" % grp, "ssl_verify = true", "timeout = %d" % r.choice([5, 10, 30]), "",
                 "[%s]" % grp, "url = https://gitlab.%s" % pick(r, DOMAINS),
                 "private_token = %s" % tok, "api_version = 4", "",
                 "$ gitlab project list --owned true",
                 "Error: 401: 401 Unauthorized"]
    return "gitlab_pat", tok, "\n".join(lines), pick(r, ["yml", "cfg"])


def p_slack_bolt_python(r):
    tok = gen_slack_bot(r)
    q = pick(r, ['"', "'"])
    lines = ["import os", "import logging", "from slack_bolt import App",
             "from slack_bolt.adapter.socket_mode import SocketModeHandler", "",
             "logging.basicConfig(level=logging.%s)" % pick(r, ["DEBUG", "INFO"]), "",
             "app = App(", "    token=%s%s%s," % (q, tok, q),
             '    signing_secret=os.environ.get("SLACK_SIGNING_SECRET"),', ")", "",
             '@app.message("%s")' % pick(r, ["hello", "deploy", "status", "standup"]),
             "def handle(message, say):",
             '    say(f"Hey there <@{message[\'user\']}>!")', "",
             '@app.command("/%s")' % pick(r, ["ticket", "oncall", "lunch"]),
             "def cmd(ack, respond, command):", "    ack()", '    respond("on it")', "",
             'if __name__ == "__main__":',
             '    SocketModeHandler(app, os.environ["SLACK_APP_TOKEN"]).start()', "",
             "# error: slack_bolt.App: missing_scope chat:write  <- why??"]
    return "slack_bot_token", tok, "\n".join(lines), "py"


def p_stripe_node(r):
    key = gen_stripe_secret(r)
    q = pick(r, ["'", '"', "`"])
    price = "price_" + rs(r, ALNUM, 24)
    dom = pick(r, DOMAINS)
    lines = ["const express = require('express');",
             "const stripe = require('stripe')(%s%s%s);" % (q, key, q),
             "const app = express();", "app.use(express.static('public'));", "",
             "const YOUR_DOMAIN = 'https://%s';" % dom, "",
             "app.post('/create-checkout-session', async (req, res) => {",
             "  const session = await stripe.checkout.sessions.create({",
             "    line_items: [{ price: '%s', quantity: %d }]," % (price, r.randint(1, 3)),
             "    mode: '%s'," % pick(r, ["payment", "subscription"]),
             "    success_url: `${YOUR_DOMAIN}/success.html`,",
             "    cancel_url: `${YOUR_DOMAIN}/cancel.html`,", "  });",
             "  res.redirect(303, session.url);", "});", "",
             "app.listen(%d, () => console.log('Running on port %d'));" % ((4242,) * 2), "",
             "// StripeInvalidRequestError: No such price: '%s'" % price]
    return "stripe_secret_key", key, "\n".join(lines), "js"


def p_aws_credentials_file(r):
    akid, secret = gen_aws_pair(r)
    prof = pick(r, ["default", "dev", "personal", "terraform", pick(r, ORGS)])
    reg = pick(r, ["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2"])
    v = r.randrange(2)
    if v == 0:
        lines = ["$ cat ~/.aws/credentials", "[%s]" % prof,
                 "aws_access_key_id = %s" % akid, "aws_secret_access_key = %s" % secret, "",
                 "[sso-%s]" % pick(r, ORGS), "sso_session = corp", "sso_account_id = %d" % r.randint(10 ** 11, 10 ** 12 - 1),
                 "sso_role_name = %s" % pick(r, ["ReadOnly", "PowerUser", "Developer"]), "region = %s" % reg, "",
                 "$ aws s3 ls --profile %s" % prof,
                 "An error occurred (%s) when calling the ListBuckets operation: %s" % pick(r, [
                     ("SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided."),
                     ("InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.")])]
    else:
        lines = ["import boto3", "",
                 "s3 = boto3.client(", "    's3',", "    region_name='%s'," % reg,
                 "    aws_access_key_id='%s'," % akid, "    aws_secret_access_key='%s'," % secret, ")", "",
                 "def upload(path, bucket='%s-%s'):" % (pick(r, ORGS), pick(r, ["uploads", "backups", "media"])),
                 "    s3.upload_file(path, bucket, path.split('/')[-1])", "",
                 "upload('/tmp/report-%d.csv')" % r.randint(1, 999),
                 "# botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the PutObject operation"]
    return "aws_secret_access_key", secret, "\n".join(lines), pick(r, ["txt", "py"])


def p_openai_notebook(r):
    key = gen_openai(r)
    model = pick(r, ["gpt-4o-mini", "gpt-4.1", "gpt-4o", "o4-mini", "gpt-5-mini"])
    src1 = ["from openai import OpenAI\n", "\n", 'client = OpenAI(api_key="%s")\n' % key]
    src2 = ["resp = client.chat.completions.create(\n", '    model="%s",\n' % model,
            '    messages=[{"role": "user", "content": "Summarize: " + text}],\n', ")\n", "print(resp.choices[0].message.content)"]
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# %s experiments" % pick(r, ["RAG", "summarizer", "classifier", "eval"])]},
        {"cell_type": "code", "execution_count": r.randint(1, 9), "metadata": {}, "outputs": [], "source": src1},
        {"cell_type": "code", "execution_count": r.randint(10, 30), "metadata": {}, "outputs": [
            {"name": "stdout", "output_type": "stream", "text": ["RateLimitError: Error code: 429 - You exceeded your current quota\n"]}],
         "source": src2}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python", "version": "3.%d.%d" % (r.randint(10, 13), r.randint(0, 9))}},
        "nbformat": 4, "nbformat_minor": 5}
    return "openai_api_key", key, json.dumps(nb, indent=1), "ipynb"


def p_anthropic_shell(r):
    key = gen_anthropic(r)
    user = person(r)
    model = pick(r, ["claude-sonnet-4-5", "claude-opus-4-1", "claude-3-5-haiku-latest", "claude-sonnet-4-0"])
    exp = pick(r, ["export ANTHROPIC_API_KEY=%s", "export ANTHROPIC_API_KEY='%s'", 'set -x ANTHROPIC_API_KEY "%s"', "$env:ANTHROPIC_API_KEY=\"%s\""]) % key
    lines = ["%s@%s:~/%s$ %s" % (user, pick(r, ["laptop", "devbox", "wsl", "mbp"]), pick(r, PROJECTS), exp),
             "%s@%s:~/%s$ python agent.py --model %s" % (user, "devbox", "proj", model),
             "Traceback (most recent call last):",
             '  File "/home/%s/proj/agent.py", line %d, in <module>' % (user, r.randint(20, 90)),
             "    msg = client.messages.create(",
             '  File "/home/%s/.venv/lib/python3.12/site-packages/anthropic/_base_client.py", line 1047, in _request' % user,
             "    raise self._make_status_error_from_response(err.response) from None",
             "anthropic.%s" % pick(r, ["BadRequestError: Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'max_tokens: Field required'}}",
                                      "RateLimitError: Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error'}}",
                                      "NotFoundError: Error code: 404 - {'type': 'error', 'error': {'type': 'not_found_error', 'message': 'model: %s'}}" % model]),
             "", "what does this mean, the key is fresh"]
    return "anthropic_api_key", key, "\n".join(lines), "txt"


def p_gemini_python(r):
    key = gen_google_api(r)
    v = r.randrange(2)
    if v == 0:
        lines = ["import streamlit as st", "from google import genai", "",
                 'client = genai.Client(api_key="%s")' % key, "",
                 'st.title("%s")' % pick(r, ["Study Buddy", "Recipe Bot", "PDF Q&A", "Trip Planner"]),
                 'q = st.text_input("Ask me anything")', "if q:",
                 "    resp = client.models.generate_content(",
                 '        model="%s", contents=q)' % pick(r, ["gemini-2.5-flash", "gemini-2.0-flash", "gemini-2.5-pro"]),
                 "    st.write(resp.text)", "",
                 "# deployed to streamlit cloud, getting 403 PERMISSION_DENIED"]
    else:
        lines = ["# .streamlit/secrets.toml", '[general]', 'app_name = "%s"' % pick(r, PROJECTS), "",
                 "GOOGLE_API_KEY = \"%s\"" % key, 'MODEL = "gemini-2.5-flash"', "",
                 "[theme]", 'primaryColor = "#%s"' % hx(r, 6)]
    return "google_api_key", key, "\n".join(lines), pick(r, ["py", "toml"])


def p_hf_colab(r):
    tok = gen_hf(r)
    repo = "%s/%s" % (pick(r, ["meta-llama", "mistralai", "google"]), pick(r, ["Llama-3.1-8B-Instruct", "Mistral-7B-Instruct-v0.3", "gemma-2-9b-it"]))
    v = r.randrange(2)
    head = pick(r, ["!huggingface-cli login --token %s" % tok, "from huggingface_hub import login\nlogin(token=\"%s\")" % tok,
                    "import os\nos.environ[\"HF_TOKEN\"] = \"%s\"" % tok])
    lines = ["# Colab cell 1", "!pip install -q transformers accelerate bitsandbytes", "", "# cell 2", head, "",
             "# cell 3", "from transformers import AutoTokenizer, AutoModelForCausalLM",
             'tok = AutoTokenizer.from_pretrained("%s")' % repo,
             "OSError: You are trying to access a gated repo.",
             "Make sure to have access to it at https://huggingface.co/%s." % repo,
             "401 Client Error. (Request ID: Root=1-%s-%s)" % (hx(r, 8), hx(r, 24))]
    if v:
        lines.append("\nI already accepted the license on the website, what else")
    return "huggingface_token", tok, "\n".join(lines), "txt"


def p_npmrc(r):
    tok = gen_npm(r)
    scope = "@" + pick(r, ORGS)
    lines = ["$ cat .npmrc",
             "%s:registry=https://registry.npmjs.org/" % scope,
             "//registry.npmjs.org/:_authToken=%s" % tok,
             "save-exact=true", "engine-strict=%s" % pick(r, ["true", "false"]), "",
             "$ npm publish --access public",
             "npm notice", "npm notice 📦  %s/%s@%d.%d.%d" % (scope, pick(r, ["ui-kit", "utils", "eslint-config", "sdk"]), r.randint(0, 3), r.randint(0, 20), r.randint(0, 9)),
             "npm notice Tarball Contents", "npm notice %dB README.md" % r.randint(300, 5000),
             "npm notice %d.%dkB dist/index.js" % (r.randint(1, 90), r.randint(0, 9)),
             "npm ERR! code E%s" % pick(r, ["403", "404", "OTP"]),
             "npm ERR! %s" % pick(r, ["403 Forbidden - PUT https://registry.npmjs.org/%s - You do not have permission to publish" % scope,
                                      "This operation requires a one-time password."]),
             "", "npm ERR! A complete log of this run can be found in: /home/runner/.npm/_logs/%s-debug-0.log" % ts(r).replace(":", "_")]
    return "npm_token", tok, "\n".join(lines), "txt"


def p_pypirc_twine(r):
    proj = pick(r, ["tinyparse", "fastgeo", "pyhelpers-%s" % person(r), "mkdocs-%s" % pick(r, WORDS), "django-%s" % pick(r, WORDS)])
    tok = gen_pypi(r, proj if r.random() < 0.5 else None)
    lines = ["# ~/.pypirc", "[distutils]", "index-servers =", "    pypi", "    testpypi", "",
             "[pypi]", "username = __token__", "password = %s" % tok, "",
             "[testpypi]", "repository = https://test.pypi.org/legacy/", "username = __token__", "",
             "$ twine upload dist/*", "Uploading distributions to https://upload.pypi.org/legacy/",
             "Uploading %s-%d.%d.%d-py3-none-any.whl" % (proj.replace("-", "_"), r.randint(0, 2), r.randint(0, 9), r.randint(0, 9)),
             "100%% ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ %d.%d/%d.%d kB" % ((r.randint(5, 90), r.randint(0, 9)) * 2),
             "WARNING  Error during upload. Retry with the --verbose option for more details.",
             "ERROR    HTTPError: 400 Bad Request from https://upload.pypi.org/legacy/",
             "         File already exists."]
    return "pypi_token", tok, "\n".join(lines), "txt"


def p_sendgrid_laravel_env(r):
    key = gen_sendgrid(r)
    app = pick(r, PROJECTS)
    lines = ["APP_NAME=%s" % app.replace("-", "_").title(), "APP_ENV=%s" % pick(r, ["production", "staging", "local"]),
             "APP_DEBUG=%s" % pick(r, ["false", "true"]), "APP_URL=https://%s" % pick(r, DOMAINS), "",
             "LOG_CHANNEL=stack", "LOG_LEVEL=%s" % pick(r, ["debug", "error"]), "",
             "DB_CONNECTION=mysql", "DB_HOST=127.0.0.1", "DB_PORT=3306", "DB_DATABASE=%s" % pick(r, DBNAMES),
             "DB_USERNAME=%s" % pick(r, ["forge", "laravel", "app"]), "DB_PASSWORD=", "",
             "MAIL_MAILER=smtp", "MAIL_HOST=smtp.sendgrid.net", "MAIL_PORT=%d" % pick(r, [587, 2525]),
             "MAIL_USERNAME=apikey", "MAIL_PASSWORD=%s" % pick(r, ["%s", '"%s"']) % key,
             "MAIL_ENCRYPTION=tls", "MAIL_FROM_ADDRESS=\"no-reply@%s\"" % pick(r, DOMAINS), 'MAIL_FROM_NAME="${APP_NAME}"', "",
             "QUEUE_CONNECTION=%s" % pick(r, ["database", "redis", "sync"])]
    if r.random() < 0.5:
        lines = ["Laravel mails not sending, Swift_TransportException: Expected response code 250 but got code \"550\"", "my .env:", "```"] + lines + ["```"]
    return "sendgrid_api_key", key, "\n".join(lines), "env"


def p_twilio_python(r):
    tokv = gen_twilio_token(r)
    sid = "AC" + hx(r, 32)
    lines = ["from twilio.rest import Client", "",
             "account_sid = '%s'" % sid, "auth_token = '%s'" % tokv, "client = Client(account_sid, auth_token)", "",
             "message = client.messages.create(",
             "    body='%s'," % pick(r, ["Your verification code is 482913", "Server %s is down!" % host(r), "Reminder: standup in 10 min"]),
             "    from_='+1%d'," % r.randint(2000000000, 9999999999), "    to='+%d'" % r.randint(10 ** 10, 10 ** 11), ")", "print(message.sid)", "",
             "# twilio.base.exceptions.TwilioRestException: HTTP 400 error: Unable to create record:",
             "# The 'To' number +%d is not a valid phone number." % r.randint(10 ** 10, 10 ** 11)]
    return "twilio_auth_token", tokv, "\n".join(lines), "py"


def p_discord_py_bot(r):
    tok = gen_discord_bot(r)
    pre = pick(r, ["!", "?", "$", "."])
    lines = ["import discord", "from discord.ext import commands", "",
             "intents = discord.Intents.default()", "intents.message_content = True",
             "bot = commands.Bot(command_prefix='%s', intents=intents)" % pre, "",
             "@bot.event", "async def on_ready():", "    print(f'Logged in as {bot.user}')", "",
             "@bot.command()", "async def %s(ctx, *, arg=None):" % pick(r, ["roll", "play", "rank", "meme", "quote"]),
             "    await ctx.send(f'%s {arg}')" % pick(r, ["You rolled", "Now playing", "Rank of", "Here you go"]), "",
             pick(r, ["bot.run('%s')", 'bot.run("%s")', "TOKEN = '%s'\nbot.run(TOKEN)"]) % tok, "",
             "# [%s] [ERROR   ] discord.client: Ignoring exception in on_message" % ts(r, " "),
             "# bot goes online but commands do nothing"]
    return "discord_bot_token", tok, "\n".join(lines), "py"


def p_telegram_bot(r):
    tok = gen_telegram(r)
    v = r.randrange(2)
    if v == 0:
        chat = -r.randint(10 ** 12, 10 ** 13)
        lines = ["$ curl -s https://api.telegram.org/bot%s/getUpdates | jq ." % tok,
                 "{", '  "ok": true,', '  "result": [', "    {", '      "update_id": %d,' % r.randint(10 ** 8, 10 ** 9),
                 '      "message": {', '        "message_id": %d,' % r.randint(1, 900),
                 '        "chat": { "id": %d, "title": "%s", "type": "supergroup" },' % (chat, pick(r, ["Homelab alerts", "Family", "Trading signals", "Dev team"])),
                 '        "date": %d,' % r.randint(1735689600, 1790000000), '        "text": "/start"', "      }", "    }", "  ]", "}",
                 "", "why does sendMessage to %d return chat not found" % chat]
    else:
        lines = ["from telegram import Update", "from telegram.ext import Application, CommandHandler, ContextTypes", "",
                 "async def start(update: Update, context: ContextTypes.DEFAULT_TYPE):",
                 "    await update.message.reply_text('%s')" % pick(r, ["Hi! Send me a link.", "Bot online", "Welcome!"]), "",
                 "def main():", '    app = Application.builder().token("%s").build()' % tok,
                 '    app.add_handler(CommandHandler("start", start))', "    app.run_polling()", "",
                 "if __name__ == '__main__':", "    main()", "",
                 "telegram.error.Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"]
    return "telegram_bot_token", tok, "\n".join(lines), pick(r, ["sh", "py"])


def p_digitalocean(r):
    tok = gen_do(r)
    v = r.randrange(2)
    if v == 0:
        lines = ['terraform {', '  required_providers {', '    digitalocean = {', '      source  = "digitalocean/digitalocean"',
                 '      version = "~> 2.%d"' % r.randint(30, 60), '    }', '  }', '}', '',
                 'provider "digitalocean" {', '  token = "%s"' % tok, '}', '',
                 'resource "digitalocean_droplet" "%s" {' % pick(r, ["web", "vpn", "minecraft", "runner"]),
                 '  image  = "ubuntu-24-04-x64"', '  name   = "%s-%d"' % (pick(r, PROJECTS), r.randint(1, 9)),
                 '  region = "%s"' % pick(r, ["fra1", "nyc3", "ams3", "sgp1"]), '  size   = "s-1vcpu-%dgb"' % r.choice([1, 2]), '}']
    else:
        lines = ["$ doctl auth init --context %s --access-token %s" % (pick(r, ORGS), tok),
                 "Validating token... ✔", "", "$ doctl compute droplet list --format Name,PublicIPv4,Status",
                 "Name                 Public IPv4        Status"]
        for _ in range(r.randint(2, 5)):
            lines.append("%-20s %-18s %s" % ("%s-%d" % (pick(r, PROJECTS), r.randint(1, 9)), ip(r, False), pick(r, ["active", "off"])))
    return "digitalocean_pat", tok, "\n".join(lines), pick(r, ["tf", "txt"])


def p_shopify_admin(r):
    tok = gen_shopify(r)
    shop = pick(r, ["cozy-candles", "trail-gear", "bean-roasters", "pixel-prints", "green-thumb"]) + "-%d" % r.randint(1, 99)
    ver = "20%d-%02d" % (r.choice([25, 26]), r.choice([1, 4, 7, 10]))
    lines = ["require 'net/http'", "require 'json'", "",
             "SHOP = '%s.myshopify.com'" % shop, "TOKEN = '%s'" % tok, "",
             "uri = URI(\"https://#{SHOP}/admin/api/%s/graphql.json\")" % ver,
             "req = Net::HTTP::Post.new(uri)", "req['Content-Type'] = 'application/json'",
             "req['X-Shopify-Access-Token'] = TOKEN",
             "req.body = { query: '{ products(first: %d) { edges { node { id title } } } }' }.to_json" % r.randint(5, 50),
             "res = Net::HTTP.start(uri.host, uri.port, use_ssl: true) { |h| h.request(req) }",
             "puts res.body", "",
             '# => {"errors":"[API] This action requires merchant approval for read_products scope."}']
    if r.random() < 0.5:
        lines = ["// node version", "const res = await fetch(`https://%s.myshopify.com/admin/api/%s/orders.json?status=any`, {" % (shop, ver),
                 "  headers: { 'X-Shopify-Access-Token': '%s' }" % tok, "});",
                 "console.log(res.status, await res.text());", "// 403 Forbidden"]
    return "shopify_access_token", tok, "\n".join(lines), pick(r, ["rb", "js"])


def p_databrickscfg(r):
    tok = gen_databricks(r)
    ws = "https://%s.cloud.databricks.com" % pick(r, ["dbc-%s-%s" % (hx(r, 8), hx(r, 4)), "%s-prod" % pick(r, ORGS)])
    if r.random() < 0.4:
        ws = "https://adb-%d.%d.azuredatabricks.net" % (r.randint(10 ** 15, 10 ** 16), r.randint(1, 20))
    lines = ["$ cat ~/.databrickscfg", "[DEFAULT]", "host  = %s" % ws, "token = %s" % tok, "",
             "[%s]" % pick(r, ["staging", "dev"]), "host = %s" % ws.replace("prod", "dev"), "auth_type = databricks-cli", "",
             "$ databricks clusters list",
             "Error: %s" % pick(r, ["default auth: cannot configure default credentials", "Invalid access token.", "PERMISSION_DENIED: User does not have permission"]),
             "", "databricks-connect %d.%d.%d, python 3.%d" % (r.randint(13, 16), r.randint(0, 4), r.randint(0, 9), r.randint(10, 12))]
    return "databricks_token", tok, "\n".join(lines), "txt"


def p_grafana_sa(r):
    tok = gen_grafana_sa(r)
    g = "https://%s.grafana.net" % pick(r, ORGS) if r.random() < 0.5 else "http://%s:3000" % ip(r)
    v = r.randrange(2)
    if v == 0:
        lines = ["$ curl -s -X POST %s/api/dashboards/db \\" % g,
                 '    -H "Authorization: Bearer %s" \\' % tok, '    -H "Content-Type: application/json" \\',
                 "    -d @dashboard.json", '{"message":"Dashboard not found","status":"not-found"}', "",
                 "dashboard.json has \"id\": null and \"uid\": \"%s\", what am i missing" % rs(r, ALNUM, 9)]
    else:
        lines = ['provider "grafana" {', '  url  = "%s"' % g, '  auth = "%s"' % tok, '}', "",
                 'resource "grafana_folder" "%s" {' % pick(r, ["infra", "apps", "k8s"]), '  title = "%s"' % pick(r, ["Infrastructure", "Applications", "Kubernetes"]), '}', "",
                 "│ Error: status: 403, body: {\"accessErrorId\":\"ACE%d\",\"message\":\"You'll need additional permissions\"}" % r.randint(10 ** 9, 10 ** 10)]
    return "grafana_service_account_token", tok, "\n".join(lines), pick(r, ["sh", "tf"])


def p_sops_age_key(r):
    sec, pub = age_keypair(r)
    lines = ["$ cat ~/.config/sops/age/keys.txt",
             "# created: %s%s" % (ts(r), pick(r, ["Z", "+01:00", "+02:00", "-05:00"])),
             "# public key: %s" % pub, sec, "",
             "$ cat .sops.yaml", "creation_rules:", "  - path_regex: %s" % pick(r, ["secrets/.*\\.yaml$", ".*\\.enc\\.env$", "k8s/.*secret.*"]),
             "    age: %s" % pub, "",
             "$ sops -d secrets/prod.yaml",
             "Failed to get the data key required to decrypt the SOPS file.", "",
             "Group 0: FAILED", "  %s: FAILED" % pub,
             "    - | failed to load age identities: failed to open file: open",
             "      | /root/.config/sops/age/keys.txt: no such file or directory"]
    return "age_secret_key", sec, "\n".join(lines), "txt"


def p_sentryclirc(r):
    tok = gen_sentry_user(r)
    org = pick(r, ORGS)
    lines = ["# .sentryclirc", "[defaults]", "url = https://sentry.io/", "org = %s" % org, "project = %s" % pick(r, PROJECTS), "",
             "[auth]", "token = %s" % tok, "",
             "$ npx @sentry/wizard@latest -i sourcemaps",
             "$ sentry-cli sourcemaps upload --release=%s ./dist" % hx(r, 12),
             "> Found %d files" % r.randint(10, 200), "> Analyzing %d sources" % r.randint(10, 200),
             "error: API request failed", "  caused by: sentry reported an error: You do not have permission to perform this action. (http status: 403)"]
    return "sentry_user_token", tok, "\n".join(lines), "txt"


def p_openssh_private_key(r):
    user = person(r)
    comment = "%s@%s" % (user, pick(r, ["laptop", "thinkpad", "macbook", "desktop", "rpi"]))
    key = gen_openssh_ed25519(r, comment)
    pre = pick(r, [
        ["I generated a key but github still says permission denied (publickey). here is what I have:", "", "$ ls -la ~/.ssh",
         "-rw-------  1 %s %s  %d Mar  3 10:12 id_ed25519" % (user, user, r.randint(399, 444)),
         "-rw-r--r--  1 %s %s  %d Mar  3 10:12 id_ed25519.pub" % (user, user, r.randint(90, 110)), "$ cat ~/.ssh/id_ed25519"],
        ["$ ssh -vT git@github.com 2>&1 | tail -3", "debug1: Offering public key: /home/%s/.ssh/id_ed25519 ED25519 SHA256:%s" % (user, b64(rbytes(r, 32)).rstrip("=")),
         "debug1: Authentications that can continue: publickey", "git@github.com: Permission denied (publickey).", "", "$ cat ~/.ssh/id_ed25519"],
        ["deploy key for the CI runner (%s):" % pick(r, PROJECTS)]])
    post = pick(r, [[], ["", "is the format wrong? ssh-keygen -y -f gives 'invalid format'"], ["", "$ chmod 600 ~/.ssh/id_ed25519  # did this already"]])
    return "openssh_private_key", key, "\n".join(pre + key.split("\n") + post), "txt"


def p_gcp_service_account(r):
    proj = "%s-%d" % (pick(r, PROJECTS), r.randint(100000, 999999))
    pem = "\n".join(gen_pkcs8_rsa_lines(r)) + "\n"
    esc = json.dumps(pem)[1:-1]
    sa = pick(r, ["terraform", "bq-loader", "ci-deployer", "firebase-adminsdk-%s" % rs(r, LO + DIG, 5)])
    d = {"type": "service_account", "project_id": proj, "private_key_id": hx(r, 40), "private_key": pem,
         "client_email": "%s@%s.iam.gserviceaccount.com" % (sa, proj), "client_id": str(r.randint(10 ** 20, 10 ** 21)),
         "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
         "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
         "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/%s%%40%s.iam.gserviceaccount.com" % (sa, proj),
         "universe_domain": "googleapis.com"}
    text = json.dumps(d, indent=2)
    if r.random() < 0.5:
        text = "google.auth.exceptions.RefreshError: ('invalid_grant: Invalid JWT Signature.', {...})\nkey file:\n" + text
    return "gcp_service_account_private_key", esc, text, "json"


def p_jwt_http_request(r):
    now = r.randint(1735689600, 1790000000)
    dom = pick(r, DOMAINS)
    claims = pick(r, [
        {"sub": uuid4(r), "email": "%s@%s" % (person(r), dom), "role": pick(r, ["admin", "user", "editor"]), "iat": now, "exp": now + 3600},
        {"iss": "https://auth.%s/" % dom, "sub": "auth0|%s" % hx(r, 24), "aud": ["https://api.%s" % dom], "iat": now, "exp": now + 86400, "scope": "openid profile email", "azp": rs(r, ALNUM, 32)},
        {"user_id": r.randint(1, 99999), "username": person(r), "is_staff": r.random() < 0.3, "iat": now, "exp": now + 900, "jti": hx(r, 32), "token_type": "access"}])
    tok = gen_jwt(r, claims, pick(r, ["HS256", "HS256", "RS256"]))
    path = pick(r, ["/api/v1/me", "/api/orders?page=2", "/graphql", "/api/v2/projects/%d/members" % r.randint(1, 999)])
    v = r.randrange(2)
    if v == 0:
        lines = ["curl '%s' \\" % ("https://api.%s%s" % (dom, path)),
                 "  -H 'accept: application/json, text/plain, */*' \\", "  -H 'accept-language: en-US,en;q=0.9' \\",
                 "  -H 'authorization: Bearer %s' \\" % tok,
                 "  -H 'origin: https://app.%s' \\" % dom,
                 "  -H 'user-agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/1%d.0.0.0 Safari/537.36'" % r.randint(30, 42),
                 "", "returns 401 {\"detail\":\"%s\"} even though the token isn't expired" % pick(r, ["Signature verification failed", "Invalid audience", "Token is invalid or expired"])]
    else:
        lines = ["%s GET %s HTTP/1.1" % (ts(r, " "), path), "Host: api.%s" % dom, "User-Agent: okhttp/4.%d.0" % r.randint(9, 12),
                 "Accept: application/json", "Authorization: Bearer %s" % tok, "X-Request-ID: %s" % uuid4(r), "",
                 "HTTP/1.1 %s" % pick(r, ["401 Unauthorized", "403 Forbidden", "500 Internal Server Error"]),
                 "Content-Type: application/json", "Content-Length: %d" % r.randint(20, 200)]
    return "jwt", tok, "\n".join(lines), "txt"


def p_alertmanager_slack_webhook(r):
    url = "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(r, UP + DIG, r.randint(8, 10)), rs(r, UP + DIG, r.randint(8, 10)), rs(r, ALNUM, 24))
    ch = pick(r, ["#alerts", "#ops", "#oncall", "#homelab", "#infra-warnings"])
    lines = ["global:", "  resolve_timeout: %dm" % r.choice([1, 5, 10]), pick(r, ["  slack_api_url: '%s'" % url, "  slack_api_url: %s" % url]), "",
             "route:", "  receiver: slack-notifications", "  group_by: ['alertname', '%s']" % pick(r, ["cluster", "instance", "job"]),
             "  group_wait: %ds" % r.choice([10, 30]), "  repeat_interval: %dh" % r.choice([1, 4, 12]), "",
             "receivers:", "  - name: slack-notifications", "    slack_configs:", "      - channel: '%s'" % ch,
             "        send_resolved: true",
             "        title: '{{ .CommonLabels.alertname }}'",
             "        text: '{{ range .Alerts }}{{ .Annotations.description }}\\n{{ end }}'"]
    if r.random() < 0.5:
        lines += ["", 'ts=%sZ caller=notify.go:%d level=error component=dispatcher msg="Notify for alerts failed" err="slack-notifications/slack[0]: notify retry canceled due to unrecoverable error after 1 attempts: channel \\"%s\\": unexpected status code 404: no_team"' % (ts(r), r.randint(100, 900), ch)]
    return "slack_webhook_url", url, "\n".join(lines), "yml"


def p_postgres_url_traceback(r):
    user = pick(r, ["postgres", "app", "django", "api_user", person(r)])
    pw = gen_password(r, urlsafe=True)
    h = pick(r, [host(r, "pg"), ip(r), "%s.%s.%s.rds.amazonaws.com" % (pick(r, PROJECTS), rs(r, LO + DIG, 12), pick(r, ["eu-west-1", "us-east-1"])),
                 "db.%s.supabase.co" % rs(r, LO, 20)])
    db = pick(r, DBNAMES)
    url = "postgresql%s://%s:%s@%s:%d/%s" % (pick(r, ["", "+psycopg2", "+asyncpg", "+psycopg"]), user, pw, h, pick(r, [5432, 5432, 6543]), db)
    lines = ["from sqlalchemy import create_engine, text", "",
             pick(r, ['engine = create_engine("%s")', "DATABASE_URL = '%s'\nengine = create_engine(DATABASE_URL, pool_pre_ping=True)"]) % url, "",
             "with engine.connect() as conn:", '    print(conn.execute(text("select 1")).scalar())', "",
             "Traceback (most recent call last):",
             '  File "/app/%s.py", line %d, in <module>' % (pick(r, ["db", "main", "check"]), r.randint(5, 40)),
             "    with engine.connect() as conn:",
             '  File "/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/base.py", line 3273, in connect',
             "sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at \"%s\", port 5432 failed: %s" % (h, pick(r, ["Connection refused", "timeout expired", "FATAL:  password authentication failed for user \"%s\"" % user])),
             "(Background on this error at: https://sqlalche.me/e/20/e3q8)"]
    return "postgres_connection_string", url, "\n".join(lines), "txt"


def p_mongodb_node_error(r):
    user = pick(r, ["admin", "dbUser", person(r), "app-%s" % pick(r, WORDS)])
    pw = gen_password(r, style=pick(r, [1, 3, 3, 0]), urlsafe=True)
    cl = "cluster%d.%s.mongodb.net" % (r.randint(0, 3), rs(r, LO + DIG, 5))
    url = "mongodb+srv://%s:%s@%s/%s?retryWrites=true&w=majority&appName=Cluster%d" % (user, pw, cl, pick(r, DBNAMES), r.randint(0, 3))
    lines = ["# .env", "PORT=%d" % r.choice([3000, 4000, 5000, 8080]), "MONGO_URI=%s" % url, "CLIENT_URL=http://localhost:5173", "",
             "$ npm run dev", "> %s@1.0.0 dev" % pick(r, PROJECTS), "> nodemon server.js", "",
             "[nodemon] 3.1.%d" % r.randint(0, 9), "[nodemon] watching extensions: js,mjs,cjs,json",
             "[nodemon] starting `node server.js`", "Server running on port %d" % r.randint(3000, 8080),
             pick(r, ["MongoServerError: bad auth : authentication failed",
                      "MongooseServerSelectionError: Could not connect to any servers in your MongoDB Atlas cluster. One common reason is that you're trying to access the database from an IP that isn't whitelisted."]),
             "    at Connection.onMessage (/app/node_modules/mongodb/lib/cmap/connection.js:%d:%d)" % (r.randint(200, 500), r.randint(10, 40)),
             "[nodemon] app crashed - waiting for file changes before starting..."]
    return "mongodb_connection_string", url, "\n".join(lines), "txt"


def p_azure_storage_connstr(r):
    acct = "%s%s" % (pick(r, ["st", "sa", ""]), rs(r, LO + DIG, r.randint(8, 16)))
    cs = "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net" % (acct, b64(rbytes(r, 64)))
    d = {"IsEncrypted": False, "Values": {"AzureWebJobsStorage": cs, "FUNCTIONS_WORKER_RUNTIME": pick(r, ["python", "node", "dotnet-isolated"]),
                                          "QueueName": pick(r, ["orders-in", "thumbnails", "events"]), "APPINSIGHTS_SAMPLING": str(r.randint(5, 100))}}
    text = json.dumps(d, indent=2)
    if r.random() < 0.5:
        text = "local.settings.json:\n" + text + "\n\n[%s] A host error has occurred during startup operation '%s'.\n" % (ts(r), uuid4(r)) + \
            "Microsoft.Azure.WebJobs.Extensions.Storage: Server failed to authenticate the request."
    return "azure_storage_connection_string", cs, text, "json"


def p_k8s_secret_get_yaml(r):
    pw = gen_password(r)
    name = "%s-%s" % (pick(r, PROJECTS), pick(r, ["db", "postgres", "redis", "credentials"]))
    ns = pick(r, ["default", "prod", "staging", pick(r, ORGS)])
    key = pick(r, ["password", "POSTGRES_PASSWORD", "db-password", "redis-password", "DB_PASS"])
    lines = ["$ kubectl get secret %s -n %s -o yaml" % (name, ns), "apiVersion: v1", "data:",
             "  %s: %s" % (key, b64(pw.encode())),
             "  username: %s" % b64(pick(r, ["app", "postgres", "admin", "svc"]).encode()), "kind: Secret", "metadata:",
             "  creationTimestamp: \"%sZ\"" % ts(r), "  name: %s" % name, "  namespace: %s" % ns,
             "  resourceVersion: \"%d\"" % r.randint(10 ** 5, 10 ** 8), "  uid: %s" % uuid4(r), "type: Opaque", "",
             "pod logs say auth failed, but the secret looks right?",
             "$ kubectl logs deploy/%s -n %s | tail -2" % (pick(r, PROJECTS), ns)] + applog(r, 2)
    return "kubernetes_secret_base64_password", pw, "\n".join(lines), "yaml"


def p_discord_webhook(r):
    url = "https://%s/api/webhooks/%d/%s" % (pick(r, ["discord.com", "discord.com", "discordapp.com"]), r.randint(10 ** 17, 14 * 10 ** 17), rs(r, B64URL, 68))
    v = r.randrange(2)
    if v == 0:
        lines = ["#!/bin/bash", "# notify when the minecraft server restarts",
                 "WEBHOOK=\"%s\"" % url, "SERVER=%s" % pick(r, ["survival", "creative", "modded-atm9", "skyblock"]), "",
                 "if ! pgrep -f \"java.*server.jar\" > /dev/null; then",
                 "  cd /opt/minecraft/$SERVER && screen -dmS mc java -Xmx%dG -jar server.jar nogui" % r.choice([4, 6, 8]),
                 "  curl -H \"Content-Type: application/json\" -X POST \\",
                 "    -d '{\"content\": \"Server '$SERVER' restarted at '\"$(date +%H:%M)\"'\"}' \"$WEBHOOK\"", "fi"]
    else:
        lines = ["import requests, psutil, time", "",
                 "WEBHOOK_URL = '%s'" % url, "", "while True:", "    cpu = psutil.cpu_percent(interval=%d)" % r.choice([1, 5]),
                 "    if cpu > %d:" % r.choice([80, 90, 95]),
                 "        requests.post(WEBHOOK_URL, json={'content': f'CPU at {cpu}%% on %s'})" % pick(r, ["nas", "pi", "gaming-pc", "vps"]),
                 "    time.sleep(%d)" % r.choice([30, 60, 300]), "", "# 429 Too Many Requests after a few minutes??"]
    return "discord_webhook_url", url, "\n".join(lines), pick(r, ["sh", "py"])


# ---------------------------------------------------------------- generic credentials
def p_dotenv_node(r):
    name = pick(r, ["JWT_SECRET", "SESSION_SECRET", "NEXTAUTH_SECRET", "AUTH_SECRET", "COOKIE_SECRET", "APP_KEY"])
    val = pick(r, [b64(rbytes(r, 32)), hx(r, 64), rs(r, ALNUM, 40)])
    if name == "APP_KEY":
        val = "base64:" + b64(rbytes(r, 32))
    dom = pick(r, DOMAINS)
    kv = [("NODE_ENV", pick(r, ["production", "development"])), ("PORT", str(r.choice([3000, 4000, 8080]))),
          ("NEXT_PUBLIC_API_URL", "https://api.%s" % dom), ("NEXTAUTH_URL", "https://%s" % dom),
          ("LOG_LEVEL", pick(r, ["info", "debug", "warn"])), ("REDIS_HOST", host(r, "cache")),
          ("UPLOAD_MAX_MB", str(r.choice([5, 10, 25]))), ("FEATURE_FLAGS", "beta,%s" % pick(r, WORDS)),
          ("TZ", pick(r, ["UTC", "Europe/Berlin", "America/New_York"])), ("SENTRY_ENVIRONMENT", pick(r, ["prod", "staging"]))]
    r.shuffle(kv)
    kv = kv[:r.randint(4, 9)]
    kv.insert(r.randint(0, len(kv)), (name, pick(r, ["%s", '"%s"', "'%s'"]) % val))
    lines = ["%s=%s" % x for x in kv]
    if r.random() < 0.3:
        lines = ["# .env.production"] + lines
    return "app_secret", val, "\n".join(lines), "env"


def p_docker_compose_db(r):
    pw = gen_password(r)
    img, var = pick(r, [("postgres:16", "POSTGRES_PASSWORD"), ("mysql:8.4", "MYSQL_ROOT_PASSWORD"), ("mariadb:11", "MARIADB_ROOT_PASSWORD"),
                        ("postgres:17-alpine", "POSTGRES_PASSWORD"), ("mongo:7", "MONGO_INITDB_ROOT_PASSWORD")])
    style = r.randrange(2)
    envline = ("      %s: %s" % (var, pick(r, ["%s", '"%s"', "'%s'"]) % pw)) if style == 0 else ("      - %s=%s" % (var, pw))
    app = pick(r, PROJECTS)
    lines = ["services:", "  %s:" % app, "    build: .", "    ports:", "      - \"%d:%d\"" % ((r.choice([3000, 8000, 8080]),) * 2),
             "    depends_on:", "      - db", "    environment:", ("      NODE_ENV: production" if style == 0 else "      - NODE_ENV=production"), "",
             "  db:", "    image: %s" % img, "    restart: unless-stopped", "    environment:", envline,
             "    volumes:", "      - db-data:/var/lib/%s" % ("postgresql/data" if "postgres" in img else ("mysql" if "my" in img or "maria" in img else "mongo")),
             "", "volumes:", "  db-data:"]
    if r.random() < 0.5:
        lines = [pick(r, ["docker compose up -> db container keeps restarting, compose file:", "compose file for my %s project" % app]), ""] + lines
    return "database_password", pw, "\n".join(lines), "yml"


def p_spring_properties(r):
    pw = gen_password(r)
    db = pick(r, DBNAMES)
    v = r.randrange(2)
    if v == 0:
        lines = ["server.port=%d" % r.choice([8080, 8081, 9090]), "spring.application.name=%s" % pick(r, PROJECTS),
                 "spring.datasource.url=jdbc:%s://%s:%s/%s" % pick(r, [("postgresql", host(r, "pg"), 5432, db), ("mysql", host(r, "mysql"), 3306, db)]),
                 "spring.datasource.username=%s" % pick(r, ["app", "root", "spring"]),
                 "spring.datasource.password=%s" % pw,
                 "spring.jpa.hibernate.ddl-auto=%s" % pick(r, ["update", "validate", "none"]), "spring.jpa.show-sql=true",
                 "logging.level.org.hibernate.SQL=DEBUG", "management.endpoints.web.exposure.include=health,info"]
    else:
        lines = ["server:", "  port: %d" % r.choice([8080, 8443]), "spring:", "  datasource:",
                 "    url: jdbc:postgresql://%s:5432/%s" % (host(r, "pg"), db), "    username: %s" % pick(r, ["app", "postgres"]),
                 "    password: %s" % pick(r, ["%s", '"%s"', "'%s'"]) % pw, "    hikari:", "      maximum-pool-size: %d" % r.choice([5, 10, 20]),
                 "  jpa:", "    open-in-view: false", "    hibernate:", "      ddl-auto: validate"]
    if "jdbc:mysql" in "\n".join(lines):
        lines += ["", "Caused by: java.sql.SQLException: Access denied for user 'app'@'%s' (using password: YES)" % ip(r),
                  "\tat com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:%d)" % r.randint(100, 130)]
    else:
        lines += ["", "Caused by: org.postgresql.util.PSQLException: FATAL: password authentication failed for user \"app\"",
                  "\tat org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:%d)" % r.randint(600, 800)]
    return "database_password", pw, "\n".join(lines), pick(r, ["properties", "yml"])


def p_python_requests_apikey(r):
    key = gen_apikey(r)
    hdr = pick(r, ["X-API-Key", "x-api-key", "Api-Key", "X-Auth-Token", "apikey"])
    var = pick(r, ["API_KEY", "api_key", "APIKEY", "key", "WEATHER_KEY", "apiKey"])
    base = "https://api.%s/v%d" % (pick(r, DOMAINS), r.randint(1, 3))
    lines = ["import requests", "import pandas as pd", "",
             '%s = "%s"' % (var, key), 'BASE = "%s"' % base, "",
             "def fetch(page=1):", "    r = requests.get(", '        f"{BASE}/%s",' % pick(r, ["records", "observations", "tickets", "listings"]),
             '        headers={"%s": %s},' % (hdr, var), '        params={"page": page, "limit": %d},' % r.choice([50, 100, 500]),
             "        timeout=%d," % r.choice([10, 30]), "    )", "    r.raise_for_status()", '    return r.json()["data"]', "",
             "df = pd.DataFrame(fetch())", "print(df.head())", "",
             "# requests.exceptions.HTTPError: %s" % pick(r, ["401 Client Error: Unauthorized", "429 Client Error: Too Many Requests", "500 Server Error"])]
    return "api_key", key, "\n".join(lines), "py"


def p_js_fetch_bearer(r):
    tok = pick(r, [b64u(rbytes(r, 32)), rs(r, ALNUM, 40), hx(r, 48)])
    var = pick(r, ["ACCESS_TOKEN", "token", "authToken", "API_TOKEN", "bearer"])
    lines = ["import { useEffect, useState } from 'react';", "",
             "const %s = '%s';" % (var, tok), "",
             "export default function %s() {" % pick(r, ["Dashboard", "OrderList", "Profile", "Leaderboard"]),
             "  const [data, setData] = useState([]);", "  useEffect(() => {",
             "    fetch('https://api.%s/%s', {" % (pick(r, DOMAINS), pick(r, ["orders", "me", "scores", "tasks"])),
             "      headers: { Authorization: `Bearer ${%s}` }," % var, "    })",
             "      .then(res => res.json())", "      .then(setData)", "      .catch(console.error);", "  }, []);",
             "  return <ul>{data.map(d => <li key={d.id}>{d.name}</li>)}</ul>;", "}", "",
             "// Access to fetch has been blocked by CORS policy: Response to preflight request doesn't pass access control check"]
    return "bearer_token", tok, "\n".join(lines), "jsx"


def p_mysql_cli_session(r):
    pw = gen_password(r, style=pick(r, [0, 1, 3, 4]))
    u = pick(r, ["root", "admin", "wp", person(r)])
    h = pick(r, [host(r, "mysql"), ip(r), "127.0.0.1"])
    q = pick(r, ["-p'%s'", "-p%s", "--password='%s'", '--password="%s"'])
    if "%s" in q and q == "-p%s":
        pw = pw.replace("!", "").replace("^", "") or "x9" + pw
    lines = ["$ mysql -u %s %s -h %s %s" % (u, q % pw, h, pick(r, DBNAMES)),
             "mysql: [Warning] Using a password on the command line interface can be insecure.",
             pick(r, ["ERROR 1045 (28000): Access denied for user '%s'@'%s' (using password: YES)" % (u, ip(r)),
                      "ERROR 2003 (HY000): Can't connect to MySQL server on '%s:3306' (110)" % h,
                      "Welcome to the MySQL monitor.  Commands end with ; or \\g.\nServer version: 8.0.%d MySQL Community Server - GPL\nmysql> SHOW TABLES;\nERROR 1046 (3D000): No database selected" % r.randint(30, 40)]),
             "", pick(r, ["grant was: GRANT ALL ON *.* TO '%s'@'%%';" % u, "bind-address is 0.0.0.0 already", "same creds work in DBeaver"])]
    return "database_password", pw, "\n".join(lines), "txt"


def p_curl_basic_auth(r):
    u = pick(r, ["admin", "jenkins", "elastic", "ci-bot", person(r)])
    pw = gen_password(r, style=pick(r, [1, 3, 4]))
    svc = pick(r, [("https://jenkins.%s/job/%s/buildWithParameters?BRANCH=main" % (pick(r, DOMAINS), pick(r, PROJECTS)), "-X POST"),
                   ("https://%s:9200/_cluster/health?pretty" % host(r, "es"), "-k"),
                   ("https://nexus.%s/service/rest/v1/repositories" % pick(r, DOMAINS), ""),
                   ("http://%s:15672/api/queues" % host(r, "mq"), "")])
    form = pick(r, ["-u %s:%s" % (u, pw), "-u '%s:%s'" % (u, pw), "--user \"%s:%s\"" % (u, pw)])
    lines = [pick(r, ["# trying to hit the API from the build agent", "$ whoami\n%s" % pick(r, ["ci", "runner", "ubuntu"]), "$ hostname\n%s" % host(r, "build")]),
             "$ curl --version | head -1", "curl 8.%d.%d (x86_64-pc-linux-gnu) libcurl/8.%d.%d OpenSSL/3.0.%d" % (r.randint(5, 12), r.randint(0, 3), r.randint(5, 12), r.randint(0, 3), r.randint(2, 15)),
             "$ curl -s %s %s %s" % (svc[1], form, svc[0]),
             pick(r, ['{"error":{"root_cause":[{"type":"security_exception","reason":"unable to authenticate user [%s]"}]},"status":401}' % u,
                      "<html><head><title>Error 403 No valid crumb was included in the request</title></head></html>",
                      '{"cluster_name":"%s","status":"yellow","number_of_nodes":%d}' % (pick(r, ORGS), r.randint(1, 5))]),
             "", pick(r, ["why 403 when the user is admin?", "works from my laptop, not from the runner", "(this is the staging box)"])]
    return "password", pw, "\n".join(lines), "sh"


def p_ansible_inventory(r):
    pw = gen_password(r)
    var = pick(r, ["ansible_become_password", "ansible_password", "ansible_become_pass", "ansible_ssh_pass"])
    grp = pick(r, ["webservers", "dbservers", "pis", "k3s_nodes", "proxmox"])
    v = r.randrange(2)
    if v == 0:
        lines = ["[%s]" % grp] + ["%s-%d ansible_host=%s" % (grp[:-1] if grp.endswith("s") else grp, i, ip(r)) for i in range(1, r.randint(3, 6))] + \
                ["", "[%s:vars]" % grp, "ansible_user=%s" % pick(r, ["ubuntu", "pi", "admin", "deploy"]), "%s=%s" % (var, pw),
                 "ansible_python_interpreter=/usr/bin/python3"]
    else:
        lines = ["# group_vars/%s.yml" % grp, "---", "ansible_user: %s" % pick(r, ["ubuntu", "debian", "root"]),
                 "%s: %s" % (var, pick(r, ['"%s"', "'%s'"]) % pw), "ntp_servers:", "  - 0.pool.ntp.org", "  - 1.pool.ntp.org",
                 "docker_version: \"%d.%d\"" % (r.randint(24, 28), r.randint(0, 5))]
    lines += ["", "fatal: [%s]: FAILED! => {\"msg\": \"Missing sudo password\"}" % ip(r)]
    return "password", pw, "\n".join(lines), pick(r, ["ini", "yml"])


def p_wp_config(r):
    pw = gen_password(r)
    lines = ["<?php", "/** The name of the database for WordPress */", "define( 'DB_NAME', '%s' );" % pick(r, ["wordpress", "wp_%s" % pick(r, WORDS)]),
             "/** Database username */", "define( 'DB_USER', '%s' );" % pick(r, ["wpuser", "wp_admin", "root"]),
             "/** Database password */", "define( 'DB_PASSWORD', '%s' );" % pw,
             "/** Database hostname */", "define( 'DB_HOST', '%s' );" % pick(r, ["localhost", "127.0.0.1:3306", host(r, "mysql")]),
             "define( 'DB_CHARSET', 'utf8mb4' );", "define( 'DB_COLLATE', '' );", "",
             "$table_prefix = '%s_';" % pick(r, ["wp", "wp%d" % r.randint(1, 9), rs(r, LO, 4)]), "",
             "define( 'WP_DEBUG', %s );" % pick(r, ["true", "false"]), "define( 'WP_MEMORY_LIMIT', '%dM' );" % r.choice([128, 256, 512]), "",
             "if ( ! defined( 'ABSPATH' ) ) {", "\tdefine( 'ABSPATH', __DIR__ . '/' );", "}", "require_once ABSPATH . 'wp-settings.php';"]
    if r.random() < 0.5:
        lines = ["Error establishing a database connection - wp-config below, migrated from shared hosting", ""] + lines
    return "database_password", pw, "\n".join(lines), "php"


def p_django_email_app_password(r):
    app_pw = " ".join(rs(r, LO, 4) for _ in range(4)) if r.random() < 0.6 else rs(r, LO, 16)
    me = "%s.%s@gmail.com" % (person(r), pick(r, WORDS))
    lines = ["# settings.py (excerpt)", "DEBUG = %s" % pick(r, ["True", "False"]),
             "ALLOWED_HOSTS = ['%s', 'localhost']" % pick(r, DOMAINS), "",
             "EMAIL_BACKEND = 'django.core.mail.backends.smtp.EmailBackend'", "EMAIL_HOST = 'smtp.gmail.com'",
             "EMAIL_PORT = 587", "EMAIL_USE_TLS = True", "EMAIL_HOST_USER = '%s'" % me,
             "EMAIL_HOST_PASSWORD = '%s'" % app_pw, "DEFAULT_FROM_EMAIL = EMAIL_HOST_USER", "",
             "smtplib.SMTPAuthenticationError: (535, b'5.7.8 Username and Password not accepted. For more information, go to\\n5.7.8  https://support.google.com/mail/?p=BadCredentials %s - gsmtp')" % rs(r, ALNUM, 20)]
    return "gmail_app_password", app_pw, "\n".join(lines), "py"


def p_notebook_spotify_secret(r):
    cid, sec = hx(r, 32), hx(r, 32)
    nb = {"cells": [
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
         "source": ["import spotipy\n", "from spotipy.oauth2 import SpotifyClientCredentials\n", "import pandas as pd"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [],
         "source": ["client_id = '%s'\n" % cid, "client_secret = '%s'\n" % sec,
                    "sp = spotipy.Spotify(auth_manager=SpotifyClientCredentials(client_id=client_id, client_secret=client_secret))"]},
        {"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [
            {"name": "stderr", "output_type": "stream", "text": ["HTTP Error for GET to https://api.spotify.com/v1/audio-features returned 403 due to None\n"]}],
         "source": ["tracks = sp.playlist_tracks('%s')\n" % rs(r, ALNUM, 22), "feats = sp.audio_features([t['track']['id'] for t in tracks['items']])"]}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}
    return "oauth_client_secret", sec, json.dumps(nb, indent=1), "ipynb"


def p_gha_hardcoded_token(r):
    tok = pick(r, [rs(r, ALNUM, 40), hx(r, 40), b64u(rbytes(r, 30))])
    var = pick(r, ["DEPLOY_TOKEN", "API_TOKEN", "NETLIFY_AUTH_TOKEN", "RENDER_API_KEY", "CODECOV_TOKEN", "VERCEL_TOKEN"])
    lines = ["name: deploy", "on:", "  push:", "    branches: [main]", "",
             "jobs:", "  deploy:", "    runs-on: ubuntu-latest", "    env:", "      %s: %s" % (var, tok),
             "      NODE_VERSION: %d" % r.choice([18, 20, 22]), "    steps:", "      - uses: actions/checkout@v4",
             "      - uses: actions/setup-node@v4", "        with:", "          node-version: ${{ env.NODE_VERSION }}",
             "      - run: npm ci && npm run build",
             "      - run: curl -fsS -X POST -H \"Authorization: Bearer $%s\" https://api.%s/deploy" % (var, pick(r, DOMAINS))]
    if r.random() < 0.5:
        lines = ["why does the last step fail with exit code 22?", "```yaml"] + lines + ["```"]
    return "api_token", tok, "\n".join(lines), "yml"


def p_terraform_tfvars(r):
    pw = gen_password(r)
    var = pick(r, ["db_password", "admin_password", "rds_master_password", "vm_admin_password"])
    lines = ["# terraform.tfvars", "region          = \"%s\"" % pick(r, ["eu-west-1", "us-east-1", "westeurope"]),
             "environment     = \"%s\"" % pick(r, ["prod", "staging", "dev"]), "instance_class  = \"db.t4g.%s\"" % pick(r, ["micro", "small", "medium"]),
             "allocated_storage = %d" % r.choice([20, 50, 100]), "%s = \"%s\"" % (var, pw),
             "tags = {", "  owner   = \"%s\"" % person(r), "  project = \"%s\"" % pick(r, PROJECTS), "}", "",
             "$ terraform apply", "│ Error: creating RDS DB Instance (%s-db): InvalidParameterValue: %s" % (pick(r, PROJECTS),
                pick(r, ["The parameter MasterUserPassword is not a valid password. Only printable ASCII characters besides '/', '@', '\"', ' ' may be used.",
                         "Invalid DB engine version"]))]
    return "password", pw, "\n".join(lines), "tfvars"


def p_minecraft_rcon(r):
    pw = gen_password(r, style=pick(r, [0, 2, 3]))
    lines = ["#Minecraft server properties", "#%s" % pick(r, ["Mon Mar 03 18:22:10 UTC 2025", "Sat Jan 10 09:01:44 CET 2026"]),
             "enable-jmx-monitoring=false", "rcon.port=%d" % r.choice([25575, 25576]), "level-seed=%d" % r.randint(-2 ** 62, 2 ** 62),
             "gamemode=%s" % pick(r, ["survival", "creative"]), "enable-command-block=%s" % pick(r, ["true", "false"]),
             "enable-query=false", "level-name=%s" % pick(r, ["world", "smp", "s%d" % r.randint(1, 9)]),
             "motd=%s" % pick(r, ["\\u00a7aWelcome to the SMP!", "A Minecraft Server", "friends only :)"]),
             "pvp=%s" % pick(r, ["true", "false"]), "difficulty=%s" % pick(r, ["easy", "normal", "hard"]),
             "enable-rcon=true", "rcon.password=%s" % pw, "max-players=%d" % r.choice([10, 20, 50]),
             "online-mode=true", "server-port=25565", "view-distance=%d" % r.choice([8, 10, 12]), "white-list=true"]
    lines += ["", "mcrcon says 'Authentication failed!' but password is right"]
    return "rcon_password", pw, "\n".join(lines), "properties"


def p_homeassistant_secrets(r):
    pw = gen_password(r)
    key = pick(r, ["mqtt_password", "zigbee2mqtt_password", "mosquitto_pass", "influxdb_password"])
    lines = ["# secrets.yaml", "latitude: %.4f" % (r.uniform(35, 60)), "longitude: %.4f" % (r.uniform(-10, 30)),
             "%s: %s" % (key, pick(r, ["%s", '"%s"']) % pw),
             "mqtt_user: %s" % pick(r, ["homeassistant", "ha", "mqtt"]), "", "# configuration.yaml",
             "mqtt:", "  broker: %s" % ip(r), "  username: !secret mqtt_user", "  password: !secret %s" % key, "",
             "Logger: homeassistant.components.mqtt.client", "Connection failed: Not authorized (code 5)"]
    return "password", pw, "\n".join(lines), "yaml"


def p_esp32_wifi(r):
    pw = gen_password(r, style=pick(r, [0, 2, 3, 4]))
    ssid = pick(r, ["FRITZ!Box 7590 %s" % rs(r, UP, 2), "Vodafone-%s" % rs(r, UP + DIG, 4), "TP-Link_%s" % hx(r, 4).upper(), "%s_home" % person(r), "NETGEAR%d" % r.randint(10, 99)])
    lines = ["#include <WiFi.h>", "#include <PubSubClient.h>", "", "const char* ssid = \"%s\";" % ssid,
             "const char* password = \"%s\";" % pw, "const char* mqtt_server = \"%s\";" % ip(r), "",
             "WiFiClient espClient;", "PubSubClient client(espClient);", "", "void setup() {",
             "  Serial.begin(115200);", "  WiFi.begin(ssid, password);", "  while (WiFi.status() != WL_CONNECTED) {",
             "    delay(500);", "    Serial.print(\".\");", "  }", "  client.setServer(mqtt_server, 1883);", "}", "",
             "void loop() {", "  float t = analogRead(%d) * 0.1;" % r.choice([32, 34, 35]), "  client.publish(\"sensors/%s\", String(t).c_str());" % pick(r, ["temp", "soil", "garage"]),
             "  delay(%d);" % r.choice([1000, 5000, 60000]), "}", "", "// serial monitor just prints dots forever"]
    return "wifi_password", pw, "\n".join(lines), "ino"


def p_docker_config_json(r):
    user = pick(r, [person(r), "%sci" % pick(r, ORGS).replace("-", ""), "robot$%s" % pick(r, PROJECTS)])
    pw = gen_password(r)
    reg = pick(r, ["https://index.docker.io/v1/", "registry.%s" % pick(r, DOMAINS), "ghcr.io", "harbor.%s" % pick(r, DOMAINS)])
    d = {"auths": {reg: {"auth": b64(("%s:%s" % (user, pw)).encode())}}, "currentContext": pick(r, ["default", "desktop-linux"])}
    if r.random() < 0.5:
        d["credsStore"] = ""
    lines = ["$ cat ~/.docker/config.json", json.dumps(d, indent=2), "",
             "$ docker push %s/%s:%s" % (reg.replace("https://", "").split("/")[0], pick(r, PROJECTS), pick(r, ["latest", "v1.%d" % r.randint(0, 9)])),
             "denied: requested access to the resource is denied"]
    return "registry_password_base64", pw, "\n".join(lines), "txt"


def p_chat_log_credentials(r):
    pw = gen_password(r)
    a, b = person(r), person(r)
    svc = pick(r, ["the staging admin panel", "grafana", "the NAS", "pfsense", "the shared gmail", "the router", "proxmox"])
    t = r.randint(8, 18)
    mins = iter(sorted(r.randint(0, 59) for _ in range(5)))
    lines = ["[%02d:%02d] %s: anyone have the login for %s?" % (t, next(mins), a, svc),
             "[%02d:%02d] %s: one sec" % (t, next(mins), b),
             "[%02d:%02d] %s: %s" % (t, next(mins), b, pick(r, ["user is admin, pw is %s", "admin / %s", "login: admin\npassword: %s", "it's %s (case sensitive)"]) % pw),
             "[%02d:%02d] %s: thx, in" % (t, next(mins), a),
             "[%02d:%02d] %s: pls don't post it in #general lol" % (t, next(mins), b)]
    pre = ["%s — %s" % (pick(r, ["#ops", "#homelab", "DM", "#dev-chat"]), ts(r, " ")[:10])] + \
          ["[%02d:%02d] %s: %s" % (t - 1, r.randint(0, 59), pick(r, [a, b]), pick(r, ["morning", "deploy done", "lunch?", "CI is red again"])) for _ in range(r.randint(1, 4))]
    return "password", pw, "\n".join(pre + lines), "txt"


def p_appsettings_azuread(r):
    sec = gen_azure_ad_secret(r)
    d = {"Logging": {"LogLevel": {"Default": "Information", "Microsoft.AspNetCore": "Warning"}},
         "AllowedHosts": "*",
         "AzureAd": {"Instance": "https://login.microsoftonline.com/", "Domain": "%s.onmicrosoft.com" % pick(r, ORGS).replace("-", ""),
                     "TenantId": uuid4(r), "ClientId": uuid4(r), "ClientSecret": sec, "CallbackPath": "/signin-oidc"},
         "DownstreamApi": {"BaseUrl": "https://graph.microsoft.com/v1.0", "Scopes": "User.Read"}}
    text = json.dumps(d, indent=2)
    if r.random() < 0.5:
        text += "\n\nMsalServiceException: AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID"
    return "azure_ad_client_secret", sec, text, "json"


def p_go_const_secret(r):
    val = pick(r, [hx(r, 64), rs(r, ALNUM, 32), b64(rbytes(r, 32))])
    name = pick(r, ["hmacSecret", "jwtKey", "signingKey", "apiSecret", "webhookSecret"])
    lines = ["package auth", "", "import (", '\t"crypto/hmac"', '\t"crypto/sha256"', '\t"encoding/hex"', '\t"net/http"', ")", "",
             "const %s = \"%s\"" % (name, val), "",
             "func Verify(r *http.Request, body []byte) bool {",
             "\tmac := hmac.New(sha256.New, []byte(%s))" % name, "\tmac.Write(body)",
             "\texpected := hex.EncodeToString(mac.Sum(nil))",
             '\treturn hmac.Equal([]byte(expected), []byte(r.Header.Get("%s")))' % pick(r, ["X-Signature", "X-Hub-Signature-256", "X-Webhook-Signature"]),
             "}", "", "// signature never matches, tried both hex and base64"]
    return "hmac_secret", val, "\n".join(lines), "go"


def p_redis_cli_session(r):
    pw = gen_password(r, style=pick(r, [1, 3]))
    h = pick(r, [host(r, "cache"), ip(r), "127.0.0.1"])
    v = r.randrange(2)
    if v == 0:
        lines = ["$ redis-cli -h %s -p 6379" % h, "%s:6379> AUTH %s" % (h, pw), "OK", "%s:6379> INFO keyspace" % h, "# Keyspace",
                 "db0:keys=%d,expires=%d,avg_ttl=%d" % (r.randint(100, 90000), r.randint(0, 500), r.randint(0, 10 ** 7)),
                 "%s:6379> CONFIG GET maxmemory-policy" % h, "1) \"maxmemory-policy\"", "2) \"noeviction\""]
    else:
        lines = ["$ redis-cli -h %s -a '%s' --no-auth-warning ping" % (h, pw), "PONG", "",
                 "but from celery:", "kombu.exceptions.OperationalError: Error 111 connecting to %s:6379. Connection refused." % h]
    return "redis_password", pw, "\n".join(lines), "txt"


def p_app_log_token_query(r):
    tok = pick(r, [rs(r, ALNUM, 40), hx(r, 40), b64u(rbytes(r, 24))])
    param = pick(r, ["access_token", "api_key", "token", "apikey", "key"])
    dom = pick(r, DOMAINS)
    lines = applog(r, r.randint(2, 6))
    lines.append("%s ERROR [%s] upstream call failed: GET https://api.%s/v2/%s?%s=%s&since=%d -> %d" % (
        ts(r, " "), pick(r, PROJECTS), dom, pick(r, ["export", "events", "feed"]), param, tok, r.randint(1735689600, 1790000000), pick(r, [401, 403, 500, 502])))
    lines += applog(r, r.randint(1, 5))
    return "api_token", tok, "\n".join(lines), "log"


def p_powershell_securestring(r):
    pw = gen_password(r)
    u = pick(r, ["svc_backup", "CORP\\%s" % person(r), "administrator", "%s@%s" % (person(r), pick(r, DOMAINS))])
    comp = pick(r, ["SRV-FILE01", "DC02", "SQL-%02d" % r.randint(1, 9), "HV-%02d" % r.randint(1, 9)])
    lines = ["$User = \"%s\"" % u, "$Pass = ConvertTo-SecureString \"%s\" -AsPlainText -Force" % pw,
             "$Cred = New-Object System.Management.Automation.PSCredential ($User, $Pass)", "",
             "Invoke-Command -ComputerName %s -Credential $Cred -ScriptBlock {" % comp,
             "    Get-Service | Where-Object Status -eq 'Stopped'", "}", "",
             "[%s] Connecting to remote server %s failed with the following error message : Access is denied." % (comp, comp),
             "    + CategoryInfo          : OpenError: (%s:String) [], PSRemotingTransportException" % comp,
             "    + FullyQualifiedErrorId : AccessDenied,PSSessionStateBroken"]
    return "password", pw, "\n".join(lines), "ps1"


def p_gradle_signing(r):
    pw = gen_password(r, style=pick(r, [0, 1, 3]))
    pre = pick(r, ["MYAPP_UPLOAD", "RELEASE", "APP"])
    lines = ["# gradle.properties", "org.gradle.jvmargs=-Xmx%dm -XX:MaxMetaspaceSize=512m" % r.choice([2048, 4096]),
             "android.useAndroidX=true", "newArchEnabled=%s" % pick(r, ["true", "false"]), "hermesEnabled=true", "",
             "%s_STORE_FILE=%s" % (pre, pick(r, ["my-upload-key.keystore", "release.jks", "upload.keystore"])),
             "%s_KEY_ALIAS=%s" % (pre, pick(r, ["my-key-alias", "upload", "release"])),
             "%s_STORE_PASSWORD=%s" % (pre, pw), "%s_KEY_PASSWORD=%s" % (pre, pw), "",
             "> Task :app:packageRelease FAILED", "Execution failed for task ':app:packageRelease'.",
             "> com.android.ide.common.signing.KeytoolException: Failed to read key %s from store" % pick(r, ["upload", "release"])]
    return "keystore_password", pw, "\n".join(lines), "properties"


POSITIVE_TEMPLATES = [
    # vendor formats (22)
    ("git_remote_github_pat", p_git_remote_github_pat), ("curl_github_finegrained", p_curl_github_finegrained),
    ("gitlab_ci_pat", p_gitlab_ci_pat), ("slack_bolt_python", p_slack_bolt_python), ("stripe_node", p_stripe_node),
    ("aws_credentials_file", p_aws_credentials_file), ("openai_notebook", p_openai_notebook), ("anthropic_shell", p_anthropic_shell),
    ("gemini_python", p_gemini_python), ("hf_colab", p_hf_colab), ("npmrc_publish", p_npmrc), ("pypirc_twine", p_pypirc_twine),
    ("sendgrid_laravel_env", p_sendgrid_laravel_env), ("twilio_python", p_twilio_python), ("discord_py_bot", p_discord_py_bot),
    ("telegram_bot", p_telegram_bot), ("digitalocean_tf_doctl", p_digitalocean), ("shopify_admin_api", p_shopify_admin),
    ("databrickscfg", p_databrickscfg), ("grafana_sa_token", p_grafana_sa), ("sops_age_keys", p_sops_age_key),
    ("sentryclirc", p_sentryclirc),
    # private keys / JWT / webhooks / connection strings (9)
    ("openssh_private_key", p_openssh_private_key), ("gcp_service_account_json", p_gcp_service_account),
    ("jwt_http_request", p_jwt_http_request), ("alertmanager_slack_webhook", p_alertmanager_slack_webhook),
    ("postgres_url_traceback", p_postgres_url_traceback), ("mongodb_node_error", p_mongodb_node_error),
    ("azure_storage_connstr", p_azure_storage_connstr), ("k8s_secret_get_yaml", p_k8s_secret_get_yaml),
    ("discord_webhook_script", p_discord_webhook),
    # generic (24)
    ("dotenv_node", p_dotenv_node), ("docker_compose_db", p_docker_compose_db), ("spring_config", p_spring_properties),
    ("python_requests_apikey", p_python_requests_apikey), ("js_fetch_bearer", p_js_fetch_bearer),
    ("mysql_cli_session", p_mysql_cli_session), ("curl_basic_auth", p_curl_basic_auth), ("ansible_inventory", p_ansible_inventory),
    ("wp_config", p_wp_config), ("django_email_app_password", p_django_email_app_password),
    ("notebook_spotify_secret", p_notebook_spotify_secret), ("gha_hardcoded_token", p_gha_hardcoded_token),
    ("terraform_tfvars", p_terraform_tfvars), ("minecraft_rcon", p_minecraft_rcon), ("homeassistant_secrets", p_homeassistant_secrets),
    ("esp32_wifi", p_esp32_wifi), ("docker_config_json", p_docker_config_json), ("chat_log_credentials", p_chat_log_credentials),
    ("appsettings_azuread", p_appsettings_azuread), ("go_const_secret", p_go_const_secret), ("redis_cli_session", p_redis_cli_session),
    ("app_log_token_query", p_app_log_token_query), ("powershell_securestring", p_powershell_securestring),
    ("gradle_signing", p_gradle_signing),
]

ENCODED_CONTEXTS = {"k8s_secret_get_yaml", "docker_config_json"}


# ====================================================================== CLEAN FAMILIES
# Each returns (text, file_extension).  No credential anywhere.

def c_git_log_shas(r):
    lines = []
    v = r.randrange(3)
    if v == 0:
        lines.append("$ git log --oneline -n %d" % r.randint(8, 20))
        for _ in range(r.randint(8, 20)):
            lines.append("%s %s" % (hx(r, 7), pick(r, ["fix: handle empty token list", "chore(deps): bump axios", "feat: add password reset page",
                                                      "refactor secret loader", "Merge pull request #%d from %s/main" % (r.randint(1, 900), pick(r, ORGS)),
                                                      "docs: explain API key rotation", "test: cover auth middleware", "ci: cache pip"])))
    elif v == 1:
        for _ in range(r.randint(2, 5)):
            lines += ["commit %s" % hx(r, 40), "Author: %s <%s@%s>" % (person(r).capitalize(), person(r), pick(r, DOMAINS)),
                      "Date:   %s +0000" % ts(r, " "), "", "    %s" % pick(r, ["Rotate keys script (no secrets committed)", "Bump version", "Fix token refresh race"]), ""]
    else:
        lines.append("$ git submodule status")
        for _ in range(r.randint(2, 5)):
            lines.append(" %s vendor/%s (v%d.%d.%d)" % (hx(r, 40), pick(r, PROJECTS), r.randint(0, 3), r.randint(0, 9), r.randint(0, 9)))
        lines += ["$ git rev-parse HEAD", hx(r, 40), "$ git reflog -3"] + ["%s HEAD@{%d}: %s" % (hx(r, 7), i, pick(r, ["checkout: moving from main to dev", "commit: wip", "pull: Fast-forward"])) for i in range(3)]
    return "\n".join(lines), "txt"


def c_docker_digests(r):
    img = pick(r, ["nginx", "postgres", "redis", "node", "python", "grafana/grafana", "ghcr.io/%s/%s" % (pick(r, ORGS), pick(r, PROJECTS))])
    tag = pick(r, ["latest", "1.27-alpine", "16", "7.4", "20-slim", "3.12"])
    lines = ["$ docker pull %s:%s" % (img, tag), "%s: Pulling from %s" % (tag, img if "/" in img else "library/" + img)]
    for _ in range(r.randint(3, 7)):
        lines.append("%s: Pull complete" % hx(r, 12))
    lines += ["Digest: sha256:%s" % hx(r, 64), "Status: Downloaded newer image for %s:%s" % (img, tag), "",
              "$ docker images --digests", "REPOSITORY   TAG   DIGEST   IMAGE ID   CREATED   SIZE"]
    for _ in range(r.randint(2, 5)):
        lines.append("%s   %s   sha256:%s   %s   %d days ago   %dMB" % (pick(r, ["nginx", "redis", "app"]), pick(r, ["latest", "alpine"]), hx(r, 64), hx(r, 12), r.randint(1, 90), r.randint(5, 900)))
    lines += ["", "# k8s manifest pins:", "image: %s@sha256:%s" % (img, hx(r, 64))]
    return "\n".join(lines), "txt"


def c_lockfile_integrity(r):
    v = r.randrange(4)
    lines = []
    if v == 0:
        lines = ["{", '  "name": "%s",' % pick(r, PROJECTS), '  "lockfileVersion": 3,', '  "packages": {']
        for _ in range(r.randint(3, 7)):
            p = pick(r, ["lodash", "axios", "jsonwebtoken", "dotenv", "bcryptjs", "passport", "express-session", "zod"])
            lines += ['    "node_modules/%s": {' % p, '      "version": "%d.%d.%d",' % (r.randint(1, 9), r.randint(0, 20), r.randint(0, 9)),
                      '      "resolved": "https://registry.npmjs.org/%s/-/%s-%d.%d.%d.tgz",' % (p, p, r.randint(1, 9), r.randint(0, 20), r.randint(0, 9)),
                      '      "integrity": "sha512-%s"' % b64(rbytes(r, 64)), "    },"]
        lines += ["  }", "}"]
    elif v == 1:
        for _ in range(r.randint(4, 10)):
            m = "github.com/%s/%s" % (pick(r, ["golang-jwt", "spf13", "gorilla", "aws", "stretchr"]), pick(r, ["jwt", "cobra", "mux", "aws-sdk-go-v2", "testify"]))
            ver = "v%d.%d.%d" % (r.randint(0, 5), r.randint(0, 30), r.randint(0, 9))
            lines += ["%s %s h1:%s" % (m, ver, b64(rbytes(r, 32))), "%s %s/go.mod h1:%s" % (m, ver, b64(rbytes(r, 32)))]
    elif v == 2:
        for p in r.sample(["cryptography", "requests", "pyjwt", "python-dotenv", "boto3", "keyring", "passlib", "urllib3"], r.randint(3, 6)):
            lines += ["%s==%d.%d.%d \\" % (p, r.randint(1, 45), r.randint(0, 20), r.randint(0, 9)),
                      "    --hash=sha256:%s \\" % hx(r, 64), "    --hash=sha256:%s" % hx(r, 64)]
    else:
        for p in r.sample(["ring", "jsonwebtoken", "rustls", "secrecy", "argon2", "base64", "hmac", "sha2"], r.randint(3, 6)):
            lines += ["[[package]]", 'name = "%s"' % p, 'version = "%d.%d.%d"' % (r.randint(0, 2), r.randint(0, 22), r.randint(0, 9)),
                      'source = "registry+https://github.com/rust-lang/crates.io-index"', 'checksum = "%s"' % hx(r, 64), ""]
    return "\n".join(lines), pick(r, ["json", "txt", "lock"])


def c_trace_ids_logs(r):
    lines = []
    svc = pick(r, PROJECTS)
    for _ in range(r.randint(6, 18)):
        style = r.randrange(3)
        if style == 0:
            lines.append(json.dumps({"ts": ts(r) + "Z", "level": pick(r, ["info", "warn", "error"]), "service": svc,
                                     "trace_id": hx(r, 32), "span_id": hx(r, 16), "request_id": uuid4(r),
                                     "msg": pick(r, ["token refreshed", "password reset email queued", "auth ok", "session created", "cache miss"])}))
        elif style == 1:
            lines.append("%s INFO  [%s,%s,%s] c.%s.AuthFilter - validated credentials for user_id=%d" % (ts(r, " "), svc, hx(r, 32), hx(r, 16), pick(r, ORGS).replace("-", ""), r.randint(1, 99999)))
        else:
            lines.append("START RequestId: %s Version: $LATEST" % uuid4(r))
            lines.append("REPORT RequestId: %s\tDuration: %.2f ms\tBilled Duration: %d ms\tMemory Size: 512 MB" % (uuid4(r), r.random() * 900, r.randint(1, 900)))
    return "\n".join(lines), "log"


def c_tool_masked_output(r):
    v = r.randrange(6)
    if v == 0:
        lines = ["$ aws configure list", "      Name                    Value             Type    Location",
                 "      ----                    -----             ----    --------",
                 "   profile                %-16s manual    --profile" % pick(r, ["default", "dev", "prod"]),
                 "access_key     ****************%s shared-credentials-file" % rs(r, UP + DIG, 4),
                 "secret_key     ****************%s shared-credentials-file" % rs(r, ALNUM, 4),
                 "    region                %s      config-file    ~/.aws/config" % pick(r, ["eu-west-1", "us-east-1"])]
    elif v == 1:
        lines = ["Run curl -fsS -H \"Authorization: Bearer ***\" https://api.%s/deploy" % pick(r, DOMAINS),
                 "  curl -fsS -H \"Authorization: Bearer ***\" https://api.%s/deploy" % pick(r, DOMAINS), "  shell: /usr/bin/bash -e {0}",
                 "  env:", "    DEPLOY_TOKEN: ***", "    NODE_VERSION: %d" % r.choice([18, 20]),
                 "curl: (22) The requested URL returned error: 401", "Error: Process completed with exit code 22."]
    elif v == 2:
        lines = ["Terraform will perform the following actions:", "", '  # aws_db_instance.main will be updated in-place',
                 '  ~ resource "aws_db_instance" "main" {', '        id       = "%s-db"' % pick(r, PROJECTS),
                 "      ~ password = (sensitive value)", '        username = "%s"' % pick(r, ["app", "admin"]),
                 "        # (41 unchanged attributes hidden)", "    }", "", "Plan: 0 to add, 1 to change, 0 to destroy.", "",
                 "Changes to Outputs:", "  ~ db_password = (sensitive value)"]
    elif v == 3:
        lines = ["$ kubectl describe secret %s-credentials -n %s" % (pick(r, PROJECTS), pick(r, ["prod", "default"])),
                 "Name:         %s-credentials" % pick(r, PROJECTS), "Namespace:    prod", "Labels:       <none>",
                 "Annotations:  <none>", "", "Type:  Opaque", "", "Data", "====",
                 "password:  %d bytes" % r.randint(12, 40), "username:  %d bytes" % r.randint(3, 12), "api-key:   %d bytes" % r.randint(32, 64)]
    elif v == 4:
        lines = ["$ gh auth status", "github.com", "  ✓ Logged in to github.com account %s (keyring)" % person(r),
                 "  - Active account: true", "  - Git operations protocol: https", "  - Token: gho_************************************",
                 "  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'", "", "$ npm config list", "; \"user\" config from /home/%s/.npmrc" % person(r),
                 "//registry.npmjs.org/:_authToken = (protected)", "; node version = v20.%d.0" % r.randint(5, 18)]
    else:
        lines = ["Started POST \"/users/sign_in\" for %s at %s +0000" % (ip(r), ts(r, " ")),
                 "Processing by Devise::SessionsController#create as HTML",
                 '  Parameters: {"authenticity_token"=>"[FILTERED]", "user"=>{"email"=>"%s@%s", "password"=>"[FILTERED]", "remember_me"=>"0"}, "commit"=>"Log in"}' % (person(r), pick(r, DOMAINS)),
                 "  User Load (0.%dms)  SELECT \"users\".* FROM \"users\" WHERE \"users\".\"email\" = $1 LIMIT $2" % r.randint(1, 9),
                 "Completed 401 Unauthorized in %dms (ActiveRecord: %.1fms)" % (r.randint(50, 400), r.random() * 10)]
    lines = [pick(r, ["output from %s's machine:", "from the %s pipeline:", "pasting what %s saw:"]) % person(r),
             "(%s, %s)" % (pick(r, PROJECTS), ts(r, " "))] + lines + \
            [pick(r, ["", "values are masked by the tool, which is what I expected", "so where is the real value coming from?",
                      "ticket OPS-%d" % r.randint(100, 9999)])]
    return "\n".join(lines), "txt"


def c_placeholders_env_example(r):
    ph = ["your_api_key_here", "<YOUR_TOKEN>", "xxxxxxxxxxxxxxxxxxxx", "changeme", "${DB_PASSWORD}", "REPLACE_ME", "", "sk-...",
          "<paste-your-key>", "TODO", "your-secret-here", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "********", "{{ api_key }}",
          "%API_KEY%", "<redacted>", "dummy", "none", "your_password", "$(cat /run/secrets/db_password)", "op://Private/Stripe/credential"]
    names = ["OPENAI_API_KEY", "STRIPE_SECRET_KEY", "DB_PASSWORD", "JWT_SECRET", "GITHUB_TOKEN", "SENDGRID_API_KEY", "AWS_SECRET_ACCESS_KEY",
             "SLACK_BOT_TOKEN", "DISCORD_TOKEN", "REDIS_PASSWORD", "CLIENT_SECRET", "ADMIN_PASSWORD", "HF_TOKEN", "MAPS_API_KEY"]
    lines = [pick(r, ["# .env.example — copy to .env and fill in", "# Sample configuration. Do NOT commit real values.", "## required env vars"])]
    for n in r.sample(names, r.randint(5, 11)):
        lines.append("%s=%s" % (n, pick(r, ["%s", '"%s"', "'%s'"]) % pick(r, ph)))
    lines += ["PORT=%d" % r.choice([3000, 8000]), "DEBUG=false"]
    return "\n".join(lines), "env"


def c_vendor_doc_examples(r):
    snippets = [
        ["# From the AWS CLI docs, `aws configure` prompts look like:", "AWS Access Key ID [None]: AKIAIOSFODNN7EXAMPLE",
         "AWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "Default region name [None]: us-west-2", "Default output format [None]: json"],
        ["The example token on jwt.io decodes to {\"sub\":\"1234567890\",\"name\":\"John Doe\",\"iat\":1516239022}:",
         "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
         "(signed with the secret `your-256-bit-secret`)"],
        ["Telegram's bot docs say the token looks like `110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw`",
         "and requests go to https://api.telegram.org/bot<token>/METHOD_NAME"],
        ["Doppler token formats (from their docs):", "  Service token: dp.st.dev.bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi",
         "  Personal token: dp.pt.bAqhcVzrhy5cRHkOlNTc0Ve6w5NUDCpcutm8vGE9myi"],
        ["```python", "import boto3", "# example from the boto3 docs -- these are AWS's documented sample keys",
         "session = boto3.Session(aws_access_key_id='AKIAIOSFODNN7EXAMPLE',", "                        aws_secret_access_key='wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')", "```"],
        ["Stripe's API reference used to show requests authenticated with the public sample test key:",
         "curl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:"],
        ["Per the age README, identities look like AGE-SECRET-KEY-1... and recipients like",
         "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p"],
    ]
    chosen = r.sample(snippets, r.randint(2, 4))
    lines = [pick(r, ["Notes from the docs I'm following:", "Tutorial notes (examples are the official sample values):", "cheat sheet for the new hires"]),
             "-- %s, %s, for the %s onboarding" % (person(r), ts(r, " ")[:10], pick(r, PROJECTS)), ""]
    for s in chosen:
        lines += s + [""]
    lines.append(pick(r, ["Replace these with your own values from the console.", "None of these work, they're just the doc samples.",
                          "Real values live in the vault (ask %s)." % person(r), "see section %d.%d of the runbook" % (r.randint(1, 9), r.randint(1, 9))]))
    return "\n".join(lines), "md"


def c_public_by_design(r):
    v = r.randrange(5)
    dom = pick(r, DOMAINS)
    if v == 0:
        lines = ["// checkout.js (runs in the browser)", "const stripe = Stripe('pk_live_51%s');" % rs(r, ALNUM, 97),
                 "const elements = stripe.elements({ clientSecret: window.__CHECKOUT__.cs });", "const card = elements.create('payment');",
                 "card.mount('#payment-element');"]
    elif v == 1:
        u = pick(r, ORGS)
        tokpart = b64u(json.dumps({"u": u, "a": rs(r, LO + DIG, 25)}, separators=(",", ":")).encode())
        lines = ["<script src='https://api.mapbox.com/mapbox-gl-js/v3.%d.0/mapbox-gl.js'></script>" % r.randint(0, 9), "<script>",
                 "  mapboxgl.accessToken = 'pk.%s.%s';" % (tokpart, rs(r, B64URL, 22)),
                 "  const map = new mapboxgl.Map({ container: 'map', style: 'mapbox://styles/mapbox/streets-v12', center: [%.3f, %.3f], zoom: %d });" % (r.uniform(-10, 30), r.uniform(35, 60), r.randint(3, 14)),
                 "</script>"]
    elif v == 2:
        lines = ["<form action=\"/contact\" method=\"POST\">", "  <input name=\"email\" type=\"email\">",
                 "  <div class=\"g-recaptcha\" data-sitekey=\"6L%s\"></div>" % rs(r, ALNUM + "-_", 38), "  <button>Send</button>", "</form>",
                 "<script src=\"https://www.google.com/recaptcha/api.js\" async defer></script>"]
    elif v == 3:
        lines = ["import * as Sentry from '@sentry/react';", "", "Sentry.init({",
                 "  dsn: 'https://%s@o%d.ingest.%ssentry.io/%d'," % (hx(r, 32), r.randint(10 ** 5, 10 ** 7), pick(r, ["", "us.", "de."]), r.randint(10 ** 6, 10 ** 7)),
                 "  tracesSampleRate: %.1f," % r.random(), "  environment: 'production',", "});", "",
                 "posthog.init('phc_%s', { api_host: 'https://eu.i.posthog.com' })" % rs(r, ALNUM, 43)]
    else:
        lines = ["// supabase client for the SPA (anon key is meant to be public; RLS enforces access)",
                 "import { createClient } from '@supabase/supabase-js'",
                 "const supabase = createClient(", "  'https://%s.supabase.co'," % rs(r, LO, 20),
                 "  '%s'" % gen_jwt(r, {"iss": "supabase", "ref": rs(r, LO, 20), "role": "anon", "iat": 1735689600 + r.randint(0, 10 ** 7), "exp": 2051222400 + r.randint(0, 10 ** 7)}), ")",
                 "", "// algolia InstantSearch, search-only key", "const searchClient = algoliasearch('%s', '%s');" % (rs(r, UP + DIG, 10), hx(r, 32))]
    lines = [pick(r, ["Frontend snippet:", "Is it OK that this is visible in the page source?", "embedding this on %s" % dom]), ""] + lines
    return "\n".join(lines), pick(r, ["js", "html"])


def c_secret_store_refs(r):
    v = r.randrange(5)
    if v == 0:
        lines = ["env:", "  - name: DB_PASSWORD", "    valueFrom:", "      secretKeyRef:", "        name: %s-db" % pick(r, PROJECTS), "        key: password",
                 "  - name: API_TOKEN", "    valueFrom:", "      secretKeyRef:", "        name: external-api", "        key: token",
                 "envFrom:", "  - secretRef:", "      name: %s-env" % pick(r, PROJECTS)]
    elif v == 1:
        lines = ["# op run --env-file=.env.tpl -- npm start", "DATABASE_PASSWORD=op://%s/%s/password" % (pick(r, ["Dev", "Prod", "Shared"]), pick(r, ["Postgres", "RDS"])),
                 "STRIPE_SECRET_KEY=op://Prod/Stripe/secret key", "GITHUB_TOKEN=op://Private/GitHub PAT/credential"]
    elif v == 2:
        lines = ["{", '  "DbPassword": "@Microsoft.KeyVault(SecretUri=https://kv-%s.vault.azure.net/secrets/db-password/)",' % pick(r, PROJECTS),
                 '  "ApiKey": "@Microsoft.KeyVault(VaultName=kv-%s;SecretName=api-key)"' % pick(r, ORGS), "}"]
    elif v == 3:
        lines = ["data \"aws_secretsmanager_secret_version\" \"db\" {",
                 "  secret_id = \"arn:aws:secretsmanager:%s:%d:secret:%s/db-%s\"" % (pick(r, ["eu-west-1", "us-east-1"]), r.randint(10 ** 11, 10 ** 12 - 1), pick(r, ["prod", "stg"]), rs(r, ALNUM, 6)),
                 "}", "", "locals {", "  db_password = jsondecode(data.aws_secretsmanager_secret_version.db.secret_string)[\"password\"]", "}",
                 "", "resource \"google_secret_manager_secret_version\" \"x\" {",
                 "  secret = \"projects/%s/secrets/api-token\"" % pick(r, PROJECTS), "  secret_data = var.api_token", "}"]
    else:
        lines = ["$ vault kv get -field=password secret/%s/db | wc -c" % pick(r, PROJECTS), str(r.randint(16, 40)),
                 "- name: login to registry", "  uses: docker/login-action@v3", "  with:", "    registry: ghcr.io",
                 "    username: ${{ github.actor }}", "    password: ${{ secrets.GITHUB_TOKEN }}",
                 "- run: echo \"${{ secrets.NPM_TOKEN }}\" | wc -c"]
    lines = [pick(r, ["how we wire secrets now in %s:", "refactored %s to pull from the vault, review pls", "config snippet (%s)"]) % pick(r, PROJECTS),
             "PR #%d by @%s" % (r.randint(10, 4000), person(r)), ""] + lines
    return "\n".join(lines), "yml"


def c_encrypted_blobs(r):
    v = r.randrange(3)
    if v == 0:
        body = hx(r, 80 * r.randint(5, 12))
        lines = ["# group_vars/all/vault.yml", "$ANSIBLE_VAULT;1.1;AES256"] + wrap(body, 80)
    elif v == 1:
        sec, pub = age_keypair(r)
        lines = ["db:", "    user: ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]" % (b64(rbytes(r, 4)), b64(rbytes(r, 32)), b64(rbytes(r, 16))),
                 "    password: ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]" % (b64(rbytes(r, r.randint(12, 30))), b64(rbytes(r, 32)), b64(rbytes(r, 16))),
                 "sops:", "    age:", "        - recipient: %s" % pub, "          enc: |", "            -----BEGIN AGE ENCRYPTED FILE-----"] + \
                ["            " + x for x in wrap(b64(rbytes(r, 180)), 64)] + ["            -----END AGE ENCRYPTED FILE-----",
                 "    lastmodified: \"%sZ\"" % ts(r), "    mac: ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]" % (b64(rbytes(r, 64)), b64(rbytes(r, 32)), b64(rbytes(r, 16))),
                 "    version: 3.%d.%d" % (r.randint(7, 10), r.randint(0, 3))]
    else:
        lines = ["apiVersion: bitnami.com/v1alpha1", "kind: SealedSecret", "metadata:", "  name: %s-creds" % pick(r, PROJECTS), "  namespace: prod", "spec:",
                 "  encryptedData:", "    password: Ag%s" % b64(rbytes(r, 400)), "    username: Ag%s" % b64(rbytes(r, 380))]
    return "\n".join(lines), "yaml"


def c_public_keys_certs(r):
    v = r.randrange(4)
    user = person(r)
    if v == 0:
        lines = ["added my laptop key but still asked for a password:", "$ ls -ld ~/.ssh && ls -l ~/.ssh/authorized_keys",
                 "drwx------ 2 %s %s 4096 Jan  9 11:02 /home/%s/.ssh" % (user, user, user),
                 "-rw-r--r-- 1 %s %s  %d Jan  9 11:05 /home/%s/.ssh/authorized_keys" % (user, user, r.randint(300, 1800), user),
                 "$ cat ~/.ssh/authorized_keys"]
        for _ in range(r.randint(2, 4)):
            if r.random() < 0.5:
                blob = struct.pack(">I", 11) + b"ssh-ed25519" + struct.pack(">I", 32) + rbytes(r, 32)
                lines.append("ssh-ed25519 %s %s@%s" % (b64(blob), person(r), pick(r, ["laptop", "ci", "desktop"])))
            else:
                blob = struct.pack(">I", 7) + b"ssh-rsa" + struct.pack(">I", 3) + b"\x01\x00\x01" + struct.pack(">I", 385) + b"\x00" + rbytes(r, 384)
                lines.append("ssh-rsa %s %s@%s" % (b64(blob), person(r), pick(r, ["work", "old-mac"])))
    elif v == 1:
        lines = ["$ ssh %s@%s" % (user, ip(r, False)), "The authenticity of host '%s' can't be established." % ip(r, False),
                 "ED25519 key fingerprint is SHA256:%s." % b64(rbytes(r, 32)).rstrip("="), "This key is not known by any other names.",
                 "Are you sure you want to continue connecting (yes/no/[fingerprint])? yes",
                 "Warning: Permanently added '%s' (ED25519) to the list of known hosts." % ip(r, False)]
    elif v == 2:
        der = bytes.fromhex("302a300506032b6570032100") + rbytes(r, 32)
        lines = ["-----BEGIN PUBLIC KEY-----", b64(der), "-----END PUBLIC KEY-----", "",
                 "-----BEGIN CERTIFICATE-----"] + wrap("MII" + b64(rbytes(r, 900))[3:], 64) + ["-----END CERTIFICATE-----"]
    else:
        lines = ["-----BEGIN PGP PUBLIC KEY BLOCK-----", ""] + wrap("mQINBG" + b64(rbytes(r, 1100))[6:], 64) + \
                ["=" + b64(rbytes(r, 3)), "-----END PGP PUBLIC KEY BLOCK-----"]
    return "\n".join(lines), "txt"


def c_secret_named_non_secrets(r):
    v = r.randrange(4)
    if v == 0:
        lines = ["AUTH_PASSWORD_VALIDATORS = [", "    {'NAME': 'django.contrib.auth.password_validation.UserAttributeSimilarityValidator'},",
                 "    {'NAME': 'django.contrib.auth.password_validation.MinimumLengthValidator', 'OPTIONS': {'min_length': %d}}," % r.choice([8, 10, 12, 14]),
                 "    {'NAME': 'django.contrib.auth.password_validation.CommonPasswordValidator'},", "]",
                 "PASSWORD_RESET_TIMEOUT = %d" % r.choice([3600, 86400, 259200], ), "PASSWORD_HASHERS = ['django.contrib.auth.hashers.Argon2PasswordHasher']",
                 "SESSION_COOKIE_SECURE = True", "CSRF_COOKIE_HTTPONLY = True"]
    elif v == 1:
        lines = ["security:", "  password_policy:", "    min_length: %d" % r.choice([10, 12, 16]), "    require_symbols: true", "    max_age_days: %d" % r.choice([90, 180]),
                 "  token:", "    type: Bearer", "    expires_in: %d" % r.choice([900, 3600]), "    refresh_token_ttl: 30d", "    header: Authorization",
                 "  api_key_header: X-API-Key", "  secret_rotation_days: %d" % r.choice([30, 90]), "  token_endpoint: https://auth.%s/oauth/token" % pick(r, DOMAINS)]
    elif v == 2:
        lines = ['variable "db_password" {', '  description = "Master password for the RDS instance"', "  type        = string",
                 "  sensitive   = true", "}", "", 'variable "api_token" {', "  type      = string", "  sensitive = true",
                 '  default   = ""', "}", "", "# usage: export TF_VAR_db_password=... before plan"]
    else:
        lines = ['<form method="post" action="/login">', '  <label for="password">Password</label>',
                 '  <input type="password" id="password" name="password" autocomplete="current-password" minlength="%d" required>' % r.choice([8, 12]),
                 '  <input type="hidden" name="token_type" value="session">', '  <a href="/forgot-password">Forgot password?</a>', "</form>",
                 "", "$ echo \"$PASSWORD\" | docker login ghcr.io -u %s --password-stdin" % person(r)]
    lines = ["# %s/%s" % (pick(r, PROJECTS), pick(r, ["settings.py", "config/security.yml", "variables.tf", "templates/login.html", "README.md"])),
             "# last reviewed by %s on %s" % (person(r), ts(r, " ")[:10])] + lines + \
            ["", pick(r, ["is this config sane for a %s app?" % pick(r, ["banking", "school", "small", "internal"]),
                          "security review asked about this, no secrets are in here", "ok to merge?", "(ticket SEC-%d)" % r.randint(100, 9999)])]
    return "\n".join(lines), "txt"


def c_data_uri_assets(r):
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rbytes(r, r.randint(120, 400))
    woff = b"wOF2\x00\x01\x00\x00" + rbytes(r, r.randint(200, 500))
    lines = [".icon-%s {" % pick(r, ["search", "user", "lock", "key"]), "  background-image: url(\"data:image/png;base64,%s\");" % b64(png),
             "  width: %dpx;" % r.choice([16, 24, 32]), "}", "", "@font-face {", "  font-family: '%s';" % pick(r, ["Inter", "IconFont", "Roboto"]),
             "  src: url(data:font/woff2;base64,%s) format('woff2');" % b64(woff), "}", "",
             '<img alt="avatar" src="data:image/webp;base64,UklGR%s">' % b64(rbytes(r, 150))]
    return "\n".join(lines), "css"


def c_bundle_hashes(r):
    v = r.randrange(3)
    if v == 0:
        lines = ["vite v%d.%d.%d building for production..." % (r.randint(5, 7), r.randint(0, 4), r.randint(0, 9)),
                 "✓ %d modules transformed." % r.randint(100, 3000)]
        for ext in ["html", "css", "js", "js", "js"]:
            nm = "index" if ext != "js" else pick(r, ["index", "vendor", "auth", "Login", "SecretSettings"])
            lines.append("dist/assets/%s-%s.%s   %6.2f kB │ gzip: %5.2f kB" % (nm, rs(r, ALNUM + "_-", 8), ext, r.random() * 400, r.random() * 100))
        lines.append("✓ built in %.2fs" % (r.random() * 9))
    elif v == 1:
        bid = rs(r, ALNUM + "_-", 21)
        lines = ["{", '  "buildId": "%s",' % bid, '  "pages": {']
        for p in ["/_app", "/login", "/settings/tokens", "/reset-password"]:
            lines.append('    "%s": ["static/chunks/webpack-%s.js", "static/chunks/pages%s-%s.js"],' % (p, hx(r, 16), p, hx(r, 16)))
        lines += ["  }", "}"]
    else:
        lines = ["prod stack traces point into the minified bundle, here's the start of the map:", "$ ls dist/",
                 "main.%s.js  main.%s.js.map  runtime.%s.js  styles.%s.css" % (hx(r, 8), hx(r, 8), hx(r, 8), hx(r, 8)),
                 "$ head -c 2000 dist/main.js.map",
                 '{"version":3,"file":"main.%s.js","sources":["webpack://src/auth/token.ts"],' % hx(r, 8),
                 '"mappings":"%s"}' % ";".join(",".join(rs(r, B64STD[:52] + "+/", r.randint(4, 7)) for _ in range(r.randint(3, 8))) for _ in range(r.randint(10, 30)))]
    return "\n".join(lines), "txt"


def c_crypto_public(r):
    lines = [pick(r, ["donations welcome:", "tx details from the explorer:", "my wallet payout history"]), ""]
    for _ in range(r.randint(3, 7)):
        k = r.randrange(4)
        if k == 0:
            prog = rbytes(r, 20)
            lines.append("BTC: %s" % bech32_encode("bc", [0] + _convertbits(prog, 8, 5)))
        elif k == 1:
            lines.append("ETH address: 0x%s" % hx(r, 40))
        elif k == 2:
            lines.append("Tx Hash: 0x%s  Block: %d  Status: Success" % (hx(r, 64), r.randint(19 * 10 ** 6, 23 * 10 ** 6)))
        else:
            lines.append("SOL: %s" % rs(r, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", r.randint(43, 44)))
    return "\n".join(lines), "txt"


def c_checksum_listings(r):
    v = r.randrange(3)
    if v == 0:
        lines = ["$ sha256sum -c SHA256SUMS"] + ["%s: OK" % f for f in r.sample(["ubuntu-24.04.1-live-server-amd64.iso", "debian-12.8.0-amd64-netinst.iso", "app-%s.tar.gz" % hx(r, 6), "checksums.txt.sig"], 2)]
        lines += ["$ cat SHA256SUMS"] + ["%s *%s" % (hx(r, 64), f) for f in ["release-linux-amd64.tar.gz", "release-darwin-arm64.tar.gz", "release-windows-amd64.zip"]]
        lines += ["$ md5sum backup.sql", "%s  backup.sql" % hx(r, 32)]
    elif v == 1:
        lines = ["version https://git-lfs.github.com/spec/v1", "oid sha256:%s" % hx(r, 64), "size %d" % r.randint(10 ** 5, 10 ** 9), "",
                 "why does my model file only contain this ^ after clone?"]
    else:
        lines = ["$ shasum -a 1 *.jar"] + ["%s  %s-%d.%d.jar" % (hx(r, 40), pick(r, ["guava", "jackson-core", "spring-core"]), r.randint(1, 33), r.randint(0, 9)) for _ in range(r.randint(3, 6))]
        lines += ["$ b2sum firmware.bin", "%s  firmware.bin" % hx(r, 128)]
    return "\n".join(lines), "txt"


def c_llm_token_usage(r):
    v = r.randrange(2)
    if v == 0:
        d = {"id": "chatcmpl-" + rs(r, ALNUM, 29), "object": "chat.completion", "created": r.randint(1735689600, 1790000000),
             "model": pick(r, ["gpt-4o-mini-2024-07-18", "gpt-4.1-2025-04-14"]),
             "choices": [{"index": 0, "message": {"role": "assistant", "content": "Sure! Here's the summary..."}, "finish_reason": "stop"}],
             "usage": {"prompt_tokens": r.randint(10, 9000), "completion_tokens": r.randint(10, 900), "total_tokens": r.randint(100, 9900),
                       "prompt_tokens_details": {"cached_tokens": r.randint(0, 1024)}},
             "system_fingerprint": "fp_" + hx(r, 10)}
        lines = [json.dumps(d, indent=2), "", "max_tokens=%d, so why is it cut off?" % r.choice([256, 512, 1024])]
    else:
        ids = [r.randint(0, 50000) for _ in range(r.randint(10, 30))]
        lines = [">>> enc = tokenizer(\"my secret token is not here\", return_tensors='pt')", ">>> enc",
                 "{'input_ids': tensor([[%s]]), 'token_type_ids': tensor([[%s]]), 'attention_mask': tensor([[%s]])}" % (
                     ", ".join(map(str, ids)), ", ".join("0" for _ in ids), ", ".join("1" for _ in ids)),
                 ">>> tokenizer.convert_ids_to_tokens(enc['input_ids'][0])[:5]", "['[CLS]', 'my', 'secret', 'token', 'is']"]
    return "\n".join(lines), "txt"


def c_vendor_object_ids(r):
    lines = []
    for _ in range(r.randint(5, 12)):
        k = r.randrange(6)
        if k == 0:
            lines.append("stripe: customer=cus_%s payment_intent=pi_%s charge=ch_%s" % (rs(r, ALNUM, 14), rs(r, ALNUM, 24), rs(r, ALNUM, 24)))
        elif k == 1:
            lines.append("arn:aws:iam::%d:role/%s-%s" % (r.randint(10 ** 11, 10 ** 12 - 1), pick(r, PROJECTS), pick(r, ["lambda-exec", "ecs-task", "deployer"])))
        elif k == 2:
            lines.append("instance i-0%s in subnet-0%s (vpc-0%s) sg-0%s ami-0%s" % (hx(r, 16), hx(r, 16), hx(r, 16), hx(r, 16), hx(r, 16)))
        elif k == 3:
            lines.append("twilio message SM%s status=delivered  (evt_%s)" % (hx(r, 32), rs(r, ALNUM, 24)))
        elif k == 4:
            lines.append("slack channel=C0%s user=U0%s ts=%d.%06d" % (rs(r, UP + DIG, 9), rs(r, UP + DIG, 9), r.randint(1735689600, 1790000000), r.randint(0, 999999)))
        else:
            lines.append("github node_id=R_kgDO%s  run_id=%d  check_suite=CS_kwDO%s" % (rs(r, ALNUM + "-_", 6), r.randint(10 ** 9, 10 ** 11), rs(r, ALNUM + "-_", 20)))
    return "\n".join(lines), "log"


def c_oauth_public_params(r):
    cid = "%d-%s.apps.googleusercontent.com" % (r.randint(10 ** 11, 10 ** 12), rs(r, LO + DIG, 32))
    redir = "https://%s/auth/callback" % pick(r, DOMAINS)
    url = ("https://accounts.google.com/o/oauth2/v2/auth?client_id=%s&redirect_uri=%s&response_type=code&scope=openid%%20email%%20profile"
           "&state=%s&code_challenge=%s&code_challenge_method=S256&nonce=%s") % (cid, redir.replace(":", "%3A").replace("/", "%2F"), rs(r, ALNUM, 32), b64u(rbytes(r, 32)), hx(r, 24))
    lines = ["redirecting to:", url, "", "then error=redirect_uri_mismatch", "",
             "my config:", "GOOGLE_CLIENT_ID=%s" % cid, "OAUTH_REDIRECT_URI=%s" % redir, "OAUTH_SCOPES=openid email profile",
             "PKCE=S256"]
    return "\n".join(lines), "txt"


def c_env_lookup_code(r):
    v = r.randrange(4)
    if v == 0:
        lines = ["import os", "from getpass import getpass", "import keyring", "",
                 'API_KEY = os.environ["%s"]' % pick(r, ["OPENAI_API_KEY", "STRIPE_SECRET_KEY", "API_KEY"]),
                 'db_password = os.getenv("DB_PASSWORD") or getpass("DB password: ")',
                 'token = keyring.get_password("%s", "%s")' % (pick(r, PROJECTS), person(r)),
                 "if not API_KEY:", '    raise SystemExit("set the env var first")']
    elif v == 1:
        lines = ["// config.js", "require('dotenv').config();", "",
                 "const stripe = require('stripe')(process.env.STRIPE_SECRET_KEY);", "const jwtSecret = process.env.JWT_SECRET ?? (() => { throw new Error('JWT_SECRET missing') })();",
                 "const { DB_PASSWORD, DB_USER } = process.env;", "console.log('key loaded:', Boolean(process.env.OPENAI_API_KEY));"]
    elif v == 2:
        lines = ["let url = std::env::var(\"DATABASE_URL\").expect(\"DATABASE_URL must be set\");",
                 "let token = std::env::var(\"GITHUB_TOKEN\").unwrap_or_default();", "",
                 "password := os.Getenv(\"REDIS_PASSWORD\")", "apiKey, ok := os.LookupEnv(\"API_KEY\")"]
    else:
        lines = ["read -rsp 'Password: ' PASSWORD; echo", "export PGPASSWORD=\"$PASSWORD\"",
                 "psql -h %s -U app -d %s -c 'select now()'" % (host(r, "pg"), pick(r, DBNAMES)), "unset PGPASSWORD",
                 "TOKEN=$(gcloud auth print-access-token)", "curl -H \"Authorization: Bearer $TOKEN\" https://%s" % pick(r, DOMAINS)]
    lines = ["%s/%s:" % (pick(r, PROJECTS), pick(r, ["src/config", "lib/settings", "scripts/run", "cmd/server/main", "app/env"])),
             "(refactor by @%s, removes the hardcoded values)" % person(r), ""] + lines + \
            ["", pick(r, ["CI sets these from repository secrets.", "works locally with direnv", "reviewer asked why not use a .env file",
                          "fails when the var is unset, see #%d" % r.randint(10, 999)])]
    return "\n".join(lines), "txt"


def c_http_headers(r):
    lines = ["$ curl -sI https://%s/%s" % (pick(r, DOMAINS), pick(r, ["", "static/app.js", "api/health"])), "HTTP/2 200",
             "content-type: %s" % pick(r, ["text/html; charset=utf-8", "application/javascript"]),
             'etag: W/"%s-%s"' % (hx(r, 4), b64(rbytes(r, 20)).rstrip("=")),
             "x-amz-id-2: %s" % b64(rbytes(r, 57)), "x-amz-request-id: %s" % rs(r, UP + DIG, 16),
             "x-request-id: %s" % uuid4(r), "cf-ray: %s-%s" % (hx(r, 16), pick(r, ["FRA", "AMS", "IAD", "LHR"])),
             "content-security-policy: script-src 'self' 'nonce-%s' 'sha256-%s'" % (b64(rbytes(r, 16)), b64(rbytes(r, 32))),
             "strict-transport-security: max-age=31536000; includeSubDomains", "x-cache: %s from cloudfront" % pick(r, ["Hit", "Miss"]),
             "x-amz-cf-id: %s==" % b64(rbytes(r, 40)).rstrip("="), "age: %d" % r.randint(0, 9000)]
    return "\n".join(lines), "txt"


def c_hexdump_backtrace(r):
    v = r.randrange(2)
    if v == 0:
        lines = ["$ xxd firmware.bin | head -%d" % 10]
        off = 0
        for _ in range(10):
            b = rbytes(r, 16)
            lines.append("%08x: %s  %s" % (off, " ".join(b[i:i + 2].hex() for i in range(0, 16, 2)), "".join(chr(c) if 32 <= c < 127 else "." for c in b)))
            off += 16
    else:
        lines = ["Thread 1 \"%s\" received signal SIGSEGV, Segmentation fault." % pick(r, PROJECTS), "(gdb) bt"]
        for i in range(r.randint(5, 10)):
            lines.append("#%d  0x%s in %s () from /lib/x86_64-linux-gnu/%s" % (i, "0000" + hx(r, 12), pick(r, ["verify_token", "memcpy", "EVP_DecryptUpdate", "parse_key", "main"]), pick(r, ["libc.so.6", "libcrypto.so.3", "libapp.so"])))
        lines += ["(gdb) info registers rip", "rip            0x%s" % ("0000" + hx(r, 12))]
    return "\n".join(lines), "txt"


def c_bio_sequences(r):
    lines = []
    v = r.randrange(2)
    if v == 0:
        for _ in range(r.randint(2, 4)):
            lines.append(">%s_%d %s" % (pick(r, ["sample", "contig", "NM"]), r.randint(1, 999), pick(r, ["Homo sapiens", "E. coli K-12", "SARS-CoV-2"])))
            lines += wrap(rs(r, "ACGT", r.randint(120, 400)), 60)
    else:
        for _ in range(r.randint(3, 6)):
            n = r.randint(50, 100)
            lines += ["@%s:%d:%s:1:%d:%d:%d 1:N:0:%s" % (pick(r, ["A00123", "M07001", "NB551"]), r.randint(1, 400), rs(r, UP + DIG, 9), r.randint(1101, 2624), r.randint(1, 30000), r.randint(1, 30000), rs(r, "ACGT", 8)),
                      rs(r, "ACGTN", n), "+", rs(r, "".join(chr(c) for c in range(35, 75)), n)]
    return "\n".join(lines), pick(r, ["fasta", "fastq"])


def c_game_codes(r):
    v = r.randrange(3)
    if v == 0:
        bp = {"blueprint": {"item": "blueprint", "label": pick(r, ["smelter array", "green circuits", "rail junction"]),
                            "entities": [{"entity_number": i + 1, "name": pick(r, ["transport-belt", "inserter", "assembling-machine-2", "stone-furnace"]),
                                          "position": {"x": r.randint(-20, 20) + 0.5, "y": r.randint(-20, 20) + 0.5}} for i in range(r.randint(5, 30))],
                            "version": 281479278886912}}
        lines = ["Here's my %s blueprint (Factorio %s), paste into the game:" % (bp["blueprint"]["label"], pick(r, ["2.0.28", "1.1.110", "2.0.32"])), "",
                 "0" + b64(zlib.compress(json.dumps(bp).encode(), 9)), "",
                 "needs %d beacons and speed modules, ratios are for %s" % (r.randint(2, 16), pick(r, ["yellow belts", "red belts", "blue belts"])),
                 "let me know if the import fails"]
    elif v == 1:
        lines = ["Minecraft %s seed: %d" % (pick(r, ["1.21.4", "1.20.1", "1.21.1"]), r.randint(-2 ** 63, 2 ** 63 - 1)),
                 "spawn: %d %d %d" % (r.randint(-500, 500), r.randint(60, 90), r.randint(-500, 500)),
                 "player uuid: %s" % uuid4(r), "steamid64: 7656119%d" % r.randint(8 * 10 ** 9, 9 * 10 ** 9), "friend code: SW-%04d-%04d-%04d" % (r.randint(0, 9999), r.randint(0, 9999), r.randint(0, 9999))]
    else:
        xml = "<PathOfBuilding><Build level=\"%d\" className=\"%s\"/><Skills>%s</Skills></PathOfBuilding>" % (r.randint(60, 100), pick(r, ["Witch", "Ranger", "Marauder"]), "<Gem name=\"x\"/>" * r.randint(5, 40))
        lines = ["PoB code for my league starter (%s):" % pick(r, ["RF Chieftain", "Lightning Arrow Deadeye", "Toxic Rain"]), "",
                 b64u(zlib.compress(xml.encode() + rbytes(r, 200))), "",
                 "pastebin of the tree + gear, level %d, %dk life" % (r.randint(60, 100), r.randint(3, 9)),
                 "what should I upgrade first?"]
    return "\n".join(lines), "txt"


def c_human_redacted_issue(r):
    v = r.randrange(4)
    lines = ["### Describe the bug", pick(r, ["Auth fails after upgrading to v%d.%d." % (r.randint(1, 5), r.randint(0, 9)), "Token refresh loop on startup."]), "",
             "### Config (secrets removed)", "```"]
    if v == 0:
        lines += ["GITHUB_TOKEN=ghp_****REDACTED****", "OPENAI_API_KEY=sk-proj-...%s" % rs(r, ALNUM, 4), "DB_PASSWORD=<removed>"]
    elif v == 1:
        lines += ["Authorization: Bearer <redacted>", "X-Api-Key: [REDACTED]", "Cookie: session=••••••••"]
    elif v == 2:
        lines += ["{", '  "client_id": "%s",' % uuid4(r), '  "client_secret": "****************",', '  "tenant": "%s"' % uuid4(r), "}"]
    else:
        lines += ["aws_access_key_id = AKIA................", "aws_secret_access_key = (hidden)", "region = eu-west-1"]
    lines += ["```", "", "### Environment", "- OS: %s" % pick(r, ["Ubuntu 24.04", "macOS 15.2", "Windows 11"]), "- Version: %d.%d.%d" % (r.randint(1, 5), r.randint(0, 20), r.randint(0, 9))]
    return "\n".join(lines), "md"


def c_uuid_config(r):
    lines = ["{", '  "$schema": "https://json.schemastore.org/appsettings",', '  "TenantId": "%s",' % uuid4(r), '  "ClientId": "%s",' % uuid4(r),
             '  "SubscriptionId": "%s",' % uuid4(r), '  "ObjectId": "%s",' % uuid4(r), '  "Audience": "api://%s",' % uuid4(r),
             '  "Authority": "https://login.microsoftonline.com/%s/v2.0",' % uuid4(r), '  "UseManagedIdentity": true', "}", "",
             "The app uses managed identity, no secret configured. Getting AADSTS700016."]
    return "\n".join(lines), "json"


def c_random_test_data(r):
    lines = ["id,created_at,sku,barcode,short_code,color"]
    for _ in range(r.randint(8, 25)):
        lines.append("%d,%s,%s-%s,%013d,%s,#%s" % (r.randint(1, 10 ** 6), ts(r), rs(r, UP, 3), rs(r, UP + DIG, 6), r.randint(10 ** 12, 10 ** 13 - 1), rs(r, ALNUM, 8), hx(r, 6)))
    return "\n".join(lines), "csv"


CLEAN_FAMILIES = [
    ("git_log_shas", c_git_log_shas), ("docker_digests", c_docker_digests), ("lockfile_integrity", c_lockfile_integrity),
    ("trace_ids_logs", c_trace_ids_logs), ("tool_masked_output", c_tool_masked_output), ("placeholders_env_example", c_placeholders_env_example),
    ("vendor_doc_examples", c_vendor_doc_examples), ("public_by_design_keys", c_public_by_design), ("secret_store_refs", c_secret_store_refs),
    ("encrypted_blobs", c_encrypted_blobs), ("public_keys_certs", c_public_keys_certs), ("secret_named_non_secrets", c_secret_named_non_secrets),
    ("data_uri_assets", c_data_uri_assets), ("bundle_hashes", c_bundle_hashes), ("crypto_public_addresses", c_crypto_public),
    ("checksum_listings", c_checksum_listings), ("llm_token_usage", c_llm_token_usage), ("vendor_object_ids", c_vendor_object_ids),
    ("oauth_public_params", c_oauth_public_params), ("env_lookup_code", c_env_lookup_code), ("http_headers_dump", c_http_headers),
    ("hexdump_backtrace", c_hexdump_backtrace), ("bio_sequences", c_bio_sequences), ("game_share_codes", c_game_codes),
    ("human_redacted_issue", c_human_redacted_issue),
]


# ====================================================================== API
def positives(half, per_template):
    out = []
    for ctx, fn in POSITIVE_TEMPLATES:
        for i in range(per_template):
            r = random.Random(f"{half}:{ctx}:{i}")
            kind, value, text, ext = fn(r)
            out.append((f"{half}-pos-{ctx}-{i:02d}.{ext}", ctx, kind, value, text))
    return out


def cleans(half, per_family):
    out = []
    for fam, fn in CLEAN_FAMILIES:
        for i in range(per_family):
            r = random.Random(f"{half}:{fam}:{i}")
            text, ext = fn(r)
            out.append((f"{half}-clean-{fam}-{i:02d}.{ext}", fam, text))
    return out


def _encoded_forms(ctx, value, text):
    if ctx == "k8s_secret_get_yaml":
        return b64(value.encode()) in text
    if ctx == "docker_config_json":
        import re
        for m in re.finditer(r'"auth": "([A-Za-z0-9+/=]+)"', text):
            if base64.b64decode(m.group(1)).decode().split(":", 1)[1] == value:
                return True
        return False
    return False


if __name__ == "__main__":
    assert len(POSITIVE_TEMPLATES) == 55, len(POSITIVE_TEMPLATES)
    assert len(CLEAN_FAMILIES) == 25, len(CLEAN_FAMILIES)
    halves = {}
    for half in ("sixth", "twin"):
        pos = positives(half, 6)
        cl = cleans(half, 20)
        assert len(pos) == 330, len(pos)
        assert len(cl) == 500, len(cl)
        names = [p[0] for p in pos] + [c[0] for c in cl]
        assert len(names) == len(set(names)), "duplicate names"
        for name, ctx, kind, value, text in pos:
            n = len(text.split("\n"))
            assert 5 <= n <= 120, (name, n)
            if ctx in ENCODED_CONTEXTS:
                assert _encoded_forms(ctx, value, text), name
            else:
                assert value in text, name
        for name, fam, text in cl:
            n = len(text.split("\n"))
            assert 5 <= n <= 120, (name, n)
        for ctx, _ in POSITIVE_TEMPLATES:
            texts = [p[4] for p in pos if p[1] == ctx]
            assert len(set(texts)) == len(texts), ctx
        for fam, _ in CLEAN_FAMILIES:
            texts = [c[2] for c in cl if c[1] == fam]
            assert len(set(texts)) == len(texts), fam
        halves[half] = (pos, cl)
    all_values = [p[3] for h in halves.values() for p in h[0]]
    big_clean = "\n\x00".join(c[2] for h in halves.values() for c in h[1])
    for v in all_values:
        assert v not in big_clean, ("positive value inside a clean text", v[:30])
    assert positives("sixth", 6) == halves["sixth"][0] and cleans("sixth", 20) == halves["sixth"][1], "not deterministic"
    assert positives("twin", 6) == halves["twin"][0] and cleans("twin", 20) == halves["twin"][1], "not deterministic"
    s_texts = {p[4] for p in halves["sixth"][0]} | {c[2] for c in halves["sixth"][1]}
    t_texts = {p[4] for p in halves["twin"][0]} | {c[2] for c in halves["twin"][1]}
    assert not (s_texts & t_texts), "halves share texts"
    assert len({p[3] for p in halves["sixth"][0]} & {p[3] for p in halves["twin"][0]}) == 0, "halves share values"
    kinds = sorted({p[2] for p in halves["sixth"][0]})
    print("OK: 2 halves x (330 positives, 500 cleans); %d templates, %d kinds, %d clean families" % (len(POSITIVE_TEMPLATES), len(kinds), len(CLEAN_FAMILIES)))
