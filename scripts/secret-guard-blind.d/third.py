"""third.py -- blind hold-out corpus for a paste secret detector.

Public API (nothing else is meant to be used):

    positives(half, per_template) -> [(name, context, kind, value, text)]
    cleans(half, per_family)      -> [(name, family, text)]

``half`` is "third" or "twin".  All randomness comes from
random.Random(f"{half}:{template}:{i}") so output is reproducible and the two
halves share templates but not random values.  Standard library only.
Every credential below is synthetic (random) but has the vendor's format.
"""
import base64
import hashlib
import hmac
import json
import random
import string
import struct
import uuid
import zlib
from datetime import datetime, timedelta

__all__ = ["positives", "cleans"]

# --------------------------------------------------------------------------
# alphabets / primitive generators
# --------------------------------------------------------------------------
_DIG = string.digits
_UP = string.ascii_uppercase
_LO = string.ascii_lowercase
_ALNUM = _UP + _LO + _DIG
_B62 = _DIG + _UP + _LO          # GitHub / npm checksum alphabet
_HEX = "0123456789abcdef"
_HEXU = "0123456789ABCDEF"
_B64 = _UP + _LO + _DIG + "+/"
_B64U = _UP + _LO + _DIG + "-_"
_B32 = _UP + "234567"
_SYMS = "!@#$%^&*-_+=.?~"


def _s(r, alpha, n):
    return "".join(r.choice(alpha) for _ in range(n))


def _hex(r, n):
    return _s(r, _HEX, n)


def _bytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def _b64(r, nbytes):
    return base64.b64encode(_bytes(r, nbytes)).decode()


def _b64u_raw(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def _b64u(r, nbytes):
    return _b64u_raw(_bytes(r, nbytes))


def _uuid(r):
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def _b62enc(n, width=6):
    out = ""
    while n:
        n, m = divmod(n, 62)
        out = _B62[m] + out
    return out.rjust(width, "0")


def _crc_token(r, prefix):
    """GitHub / npm style: prefix + 30 base62 + 6-char base62 CRC32 of the 30."""
    ent = _s(r, _B62, 30)
    return prefix + ent + _b62enc(zlib.crc32(ent.encode()))


def _wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


# --------------------------------------------------------------------------
# names, times, hosts
# --------------------------------------------------------------------------
_FIRST = ["alice", "bram", "carla", "dmitri", "emma", "farah", "gustavo", "hana",
          "ivan", "jonas", "kemal", "lena", "mateo", "nadia", "oskar", "priya",
          "quentin", "rosa", "sven", "tomoko", "uma", "victor", "wei", "xenia",
          "yusuf", "zoe", "marek", "ines", "arjun", "chloe"]
_LAST = ["nguyen", "schmidt", "okafor", "larsen", "garcia", "kowalski", "tanaka",
         "silva", "murphy", "haddad", "novak", "berg", "costa", "ivanova", "patel",
         "moreau", "fischer", "lindqvist", "mendes", "obrien"]
_ADJ = ["amber", "brisk", "cobalt", "dusty", "ember", "frost", "golden", "hollow",
        "iron", "jade", "keen", "lunar", "misty", "noble", "opal", "polar", "quiet",
        "rapid", "silver", "tidal", "vivid", "wild", "zephyr", "crimson", "sable"]
_NOUN = ["atlas", "beacon", "cedar", "delta", "falcon", "garnet", "harbor", "island",
         "juniper", "kestrel", "lagoon", "meadow", "nebula", "orchid", "pillar",
         "quartz", "raven", "summit", "tundra", "valley", "willow", "zenith",
         "ledger", "relay", "forge", "pivot", "otter", "heron", "lynx"]
_SERVICES = ["billing-api", "auth-service", "search-indexer", "notifier",
             "report-worker", "checkout", "inventory-sync", "media-proxy",
             "etl-runner", "gateway", "user-profile", "ledger", "scheduler",
             "webhooks", "analytics-collector", "pricing", "catalog", "mailer",
             "export-service", "thumbnailer"]
_COMPANIES = ["acme", "northwind", "globex", "initech", "umbrella-labs", "hooli",
              "vandelay", "wayne-ent", "stark-ind", "tyrell", "cyberdyne",
              "soylent", "gringotts", "contoso", "fabrikam", "tailspin"]
_TLDS = ["io", "com", "dev", "net", "co", "app"]
_WORDS = ["anchor", "basil", "candle", "dolphin", "eclipse", "fjord", "granite",
          "hazel", "igloo", "jigsaw", "kettle", "lantern", "marble", "nutmeg",
          "orbit", "pepper", "quiver", "ribbon", "saddle", "thistle", "umbrella",
          "velvet", "walnut", "yonder", "zipper", "copper", "prairie", "sparrow",
          "tractor", "biscuit", "canyon", "driftwood", "glacier", "harvest",
          "indigo", "jasmine", "kayak", "lemon", "mosaic", "nectar", "oyster",
          "pebble", "rocket", "saffron", "tulip", "violet", "whisker", "bramble",
          "cobble", "dune", "fennel", "gusto", "hammock", "juggle", "kiwi",
          "loaf", "mango", "noodle", "parsnip", "radish", "sprocket", "trumpet"]
_EPOCH = datetime(2023, 1, 2, 7, 0, 0)


def _dt(r, span_days=700):
    return _EPOCH + timedelta(seconds=r.randrange(span_days * 86400))


def _user(r):
    f, l = r.choice(_FIRST), r.choice(_LAST)
    return r.choice([f, f + "." + l, f[0] + l, f + l[0], f + "_" + l, f + str(r.randint(1, 99))])


def _person(r):
    return r.choice(_FIRST).capitalize() + " " + r.choice(_LAST).capitalize()


def _company(r):
    return r.choice(_COMPANIES)


def _domain(r):
    return _company(r) + "." + r.choice(_TLDS)


def _repo(r):
    return r.choice([r.choice(_SERVICES), r.choice(_ADJ) + "-" + r.choice(_NOUN),
                     r.choice(_NOUN) + "-" + r.choice(["api", "web", "cli", "infra", "tools", "sdk"])])


def _branch(r):
    return r.choice(["main", "develop", "feature/" + r.choice(_NOUN) + "-" + str(r.randint(10, 999)),
                     "fix/" + r.choice(_WORDS) + "-timeout", "release/" + "%d.%d" % (r.randint(1, 5), r.randint(0, 20))])


def _ip(r):
    return r.choice(["10.%d.%d.%d" % (r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)),
                     "172.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(2, 254)),
                     "192.168.%d.%d" % (r.randint(0, 255), r.randint(2, 254))])


def _host(r):
    return r.choice(_NOUN) + "-" + r.choice(["db", "app", "web", "worker", "bastion", "ci", "cache"]) + "-%02d" % r.randint(1, 12)


def _ver(r):
    return "%d.%d.%d" % (r.randint(0, 9), r.randint(0, 30), r.randint(0, 40))


def _sha(r):
    return _hex(r, 40)


def _prompt(r, user=None, host=None, path="~"):
    user = user or _user(r).split(".")[0].split("_")[0]
    host = host or _host(r)
    return r.choice(["$ ", "%s@%s:%s$ " % (user, host, path), "[%s@%s %s]$ " % (user, host, path.split("/")[-1] or "~"),
                     "➜  %s " % (path.split("/")[-1] or "~"), "%s %% " % path])


_SAFE_CMDS = ["ls -la", "git status", "git pull --rebase", "git log --oneline -n 5",
              "git diff --stat", "make build", "make test", "docker ps", "docker compose up -d",
              "vim README.md", "code .", "df -h", "htop", "clear", "npm test", "npm run lint",
              "go test ./...", "cargo build --release", "terraform fmt -recursive",
              "kubectl get pods -A", "kubectl config get-contexts", "brew upgrade",
              "python3 -m venv .venv", "source .venv/bin/activate", "pip install -r requirements.txt",
              "tail -n 200 /var/log/syslog", "sudo systemctl status nginx", "ping -c 3 8.8.8.8",
              "dig +short api.github.com", "history | grep deploy", "cat Makefile", "jq . package.json",
              "ssh-add -l", "uptime", "free -m", "git stash list", "git fetch --all --prune",
              "pre-commit run --all-files", "du -sh node_modules", "which python3", "echo $SHELL"]


def _hist(r, cmds):
    """Render shell history in one of several real formats."""
    style = r.choice(["bash-numbered", "bash-file", "zsh-ext"])
    out = []
    if style == "bash-numbered":
        n = r.randint(200, 1900)
        for c in cmds:
            out.append("%5d  %s" % (n, c))
            n += 1
    elif style == "bash-file":
        out = list(cmds)
    else:
        t = int(_dt(r).timestamp())
        for c in cmds:
            t += r.randint(3, 400)
            out.append(": %d:%d;%s" % (t, r.choice([0, 0, 0, 1, 2, 5]), c))
    return "\n".join(out) + "\n"


def _pick(r, pool, k):
    return r.sample(pool, k)


# --------------------------------------------------------------------------
# realistic passwords / generic secrets
# --------------------------------------------------------------------------
AV_URL = "!@#$%^&*+=?/:;,'\"\\ <>{}[]|`"
AV_SHQ = "'\\!"
AV_DQ = "\"\\$`!"
AV_XML = "&<>\"'"
AV_JSON = "\"\\"
AV_INI = ";#\"'\\ %"
AV_YAML = "\"'\\#:{}[]"
AV_SEMI = ";\"'\\={}"
AV_SQL = "'\"\\;"


def _pw(r, style=None, avoid=""):
    for _ in range(200):
        st = style or r.choice(["random", "random", "random", "passphrase", "human",
                                "b64", "urlsafe", "hex", "alnum"])
        syms = [c for c in _SYMS if c not in avoid] or ["-"]
        if st == "random":
            n = r.randint(14, 26)
            pool = _ALNUM + "".join(syms) * 2
            chars = [r.choice(_UP), r.choice(_LO), r.choice(_DIG), r.choice(syms)] + \
                    [r.choice(pool) for _ in range(n - 4)]
            r.shuffle(chars)
            p = "".join(chars)
        elif st == "passphrase":
            seps = [c for c in "-._" if c not in avoid] or [""]
            sep = r.choice(seps)
            ws = [w.capitalize() if r.random() < 0.6 else w for w in r.sample(_WORDS, r.randint(3, 4))]
            p = sep.join(ws) + sep + str(r.randint(10, 9999))
            if r.random() < 0.5:
                p += r.choice(syms)
        elif st == "human":
            w1, w2 = r.sample(_WORDS, 2)
            p = r.choice([
                w1.capitalize() + str(r.randint(1990, 2026)) + r.choice(syms) + w2,
                w1.capitalize() + r.choice(syms) + str(r.randint(10, 999)) + w2.capitalize(),
                w1.replace("a", "@").replace("o", "0").replace("e", "3").capitalize() + str(r.randint(1, 99)) + r.choice(syms),
            ])
        elif st == "b64":
            p = _b64(r, r.choice([18, 24, 32]))
        elif st == "urlsafe":
            p = _b64u(r, r.choice([16, 24, 32]))
        elif st == "hex":
            p = _hex(r, r.choice([32, 40, 64]))
        else:
            p = _s(r, _ALNUM, r.randint(16, 32))
        if len(p) >= 10 and not any(c in avoid for c in p) and not p.startswith(("-", ".")):
            return p
    raise RuntimeError("could not make password")


# --------------------------------------------------------------------------
# key material
# --------------------------------------------------------------------------
def _der(tag, content):
    n = len(content)
    if n < 128:
        ln = bytes([n])
    elif n < 256:
        ln = b"\x81" + bytes([n])
    else:
        ln = b"\x82" + n.to_bytes(2, "big")
    return bytes([tag]) + ln + content


def _seq(*parts):
    return _der(0x30, b"".join(parts))


def _rsa_pkcs8_b64(r):
    pre = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100")
    body = pre + bytes([0x80 | r.getrandbits(7)]) + _bytes(r, 255) + bytes.fromhex("0203010001")
    body += _bytes(r, 1217 - len(body))
    return base64.b64encode(body).decode()


def _rsa_pkcs1_b64(r):
    pre = bytes.fromhex("308204a40201000282010100")
    body = pre + bytes([0x80 | r.getrandbits(7)]) + _bytes(r, 255) + bytes.fromhex("0203010001")
    body += _bytes(r, 1192 - len(body))
    return base64.b64encode(body).decode()


def _ec_b64(r):
    der = bytes.fromhex("30770201010420") + _bytes(r, 32) + \
        bytes.fromhex("a00a06082a8648ce3d030107a144034200") + b"\x04" + _bytes(r, 64)
    return base64.b64encode(der).decode()


def _pem(label, b64body, width=64):
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, _wrap(b64body, width), label)


def _sshstr(b):
    return struct.pack(">I", len(b)) + b


def _openssh_ed25519(r, comment):
    pub = _bytes(r, 32)
    seed = _bytes(r, 32)
    pubblob = _sshstr(b"ssh-ed25519") + _sshstr(pub)
    chk = _bytes(r, 4)
    priv = chk + chk + _sshstr(b"ssh-ed25519") + _sshstr(pub) + _sshstr(seed + pub) + _sshstr(comment.encode())
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = b"openssh-key-v1\x00" + _sshstr(b"none") + _sshstr(b"none") + _sshstr(b"") + \
        struct.pack(">I", 1) + _sshstr(pubblob) + _sshstr(priv)
    return _pem("OPENSSH PRIVATE KEY", base64.b64encode(blob).decode(), 70)


def _ssh_pub(r, kind="ed25519", comment=""):
    if kind == "ed25519":
        blob = _sshstr(b"ssh-ed25519") + _sshstr(_bytes(r, 32))
        t = "ssh-ed25519"
    elif kind == "rsa":
        blob = _sshstr(b"ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(b"\x00" + bytes([0x80 | r.getrandbits(7)]) + _bytes(r, 383))
        t = "ssh-rsa"
    else:
        blob = _sshstr(b"ecdsa-sha2-nistp256") + _sshstr(b"nistp256") + _sshstr(b"\x04" + _bytes(r, 64))
        t = "ecdsa-sha2-nistp256"
    s = t + " " + base64.b64encode(blob).decode()
    return s + (" " + comment if comment else "")


def _name_der(parts):
    oids = {"C": "0603550406", "ST": "0603550408", "L": "0603550407", "O": "060355040a",
            "OU": "060355040b", "CN": "0603550403"}
    sets = []
    for k, v in parts:
        tag = 0x13 if k == "C" else 0x0c
        sets.append(_der(0x31, _seq(bytes.fromhex(oids[k]), _der(tag, v.encode()))))
    return _seq(*sets)


def _cert_b64(r, cn, issuer_cn=None, org=None):
    nb = _dt(r)
    na = nb + timedelta(days=r.choice([90, 365, 397, 825]))
    serial = bytes([r.getrandbits(7)]) + _bytes(r, r.choice([15, 19]))
    alg = _seq(bytes.fromhex("06092a864886f70d01010b"), b"\x05\x00")
    issuer = _name_der([("C", "US"), ("O", org or "Let's Encrypt"), ("CN", issuer_cn or "R11")])
    subject = _name_der([("CN", cn)])
    validity = _seq(_der(0x17, nb.strftime("%y%m%d%H%M%SZ").encode()), _der(0x17, na.strftime("%y%m%d%H%M%SZ").encode()))
    mod = b"\x00" + bytes([0x80 | r.getrandbits(7)]) + _bytes(r, 255)
    rsapub = _seq(_der(0x02, mod), _der(0x02, b"\x01\x00\x01"))
    spki = _seq(_seq(bytes.fromhex("06092a864886f70d010101"), b"\x05\x00"), _der(0x03, b"\x00" + rsapub))
    tbs = _seq(bytes.fromhex("a003020102"), _der(0x02, serial), alg, issuer, validity, subject, spki)
    cert = _seq(tbs, alg, _der(0x03, b"\x00" + _bytes(r, 256)))
    return base64.b64encode(cert).decode()


def _cert_pem(r, cn, **kw):
    return _pem("CERTIFICATE", _cert_b64(r, cn, **kw))


def _b64u_json(o):
    return _b64u_raw(json.dumps(o, separators=(",", ":")).encode())


def _jwt(r, header, payload, siglen):
    return "%s.%s.%s" % (_b64u_json(header), _b64u_json(payload), _b64u(r, siglen))


# --------------------------------------------------------------------------
# vendor token generators
# --------------------------------------------------------------------------
def _aws_akid(r, prefix="AKIA"):
    return prefix + _s(r, _B32, 16)


def _aws_secret(r):
    return _s(r, _ALNUM + "+/", 40)


def _gh_fine(r):
    return "github_pat_11" + _s(r, _UP + _DIG, 20) + "_" + _s(r, _ALNUM, 59)


def _glpat(r):
    return "glpat-" + _s(r, _ALNUM + "-_", 20)


def _slack_token(r):
    if r.random() < 0.7:
        return "xoxb-%d-%d-%s" % (r.randint(10 ** 10, 10 ** 12), r.randint(10 ** 11, 10 ** 13), _s(r, _ALNUM, 24))
    return "xoxp-%d-%d-%d-%s" % (r.randint(10 ** 10, 10 ** 12), r.randint(10 ** 10, 10 ** 12),
                                 r.randint(10 ** 11, 10 ** 13), _hex(r, 32))


def _stripe(r):
    pre = r.choice(["sk_live_", "sk_live_", "sk_live_", "rk_live_"])
    if r.random() < 0.35:
        return pre + _s(r, _ALNUM, 24)
    return pre + "51" + _s(r, _ALNUM, 97)


def _sendgrid(r):
    return "SG." + _s(r, _B64U, 22) + "." + _s(r, _B64U, 43)


def _openai(r):
    x = r.random()
    if x < 0.55:
        return "sk-proj-" + _s(r, _B64U, 74) + "T3BlbkFJ" + _s(r, _B64U, 74)
    if x < 0.75:
        return "sk-svcacct-" + _s(r, _B64U, 74) + "T3BlbkFJ" + _s(r, _B64U, 74)
    return "sk-" + _s(r, _ALNUM, 20) + "T3BlbkFJ" + _s(r, _ALNUM, 20)


def _anthropic(r):
    return "sk-ant-api03-" + _s(r, _B64U, 93) + "AA"


def _dckr(r):
    return "dckr_pat_" + _s(r, _B64U, 27)


def _vault_tok(r):
    if r.random() < 0.7:
        return "hvs." + _s(r, _ALNUM, 24)
    return "hvs.CAESI" + _s(r, _B64U, 80) + "Gh4KHGh2cy5" + _s(r, _ALNUM, 24)


def _tfc(r):
    return _s(r, _ALNUM, 14) + ".atlasv1." + _s(r, _ALNUM, 67)


def _shopify(r):
    return r.choice(["shpat_", "shpat_", "shpca_", "shppa_"]) + _hex(r, 32)


def _telegram(r):
    return "%d:AA%s" % (r.randint(10 ** 8, 8 * 10 ** 9), _s(r, _B64U, 33))


def _do(r):
    return "dop_v1_" + _hex(r, 64)


def _databricks(r):
    return "dapi" + _hex(r, 32) + ("-2" if r.random() < 0.3 else "")


def _doppler(r, env):
    return "dp.st.%s.%s" % (env, _s(r, _ALNUM, r.choice([40, 43, 44])))


def _atlassian(r):
    return "ATATT3xFfGF0" + _s(r, _B64U, 171) + "=" + _s(r, _HEXU, 8)


def _pypi(r):
    ident = str(uuid.UUID(int=r.getrandbits(128), version=4)).encode()
    cav = json.dumps({"version": 1, "permissions": r.choice(["user", {"projects": [_repo(r)]}])},
                     separators=(",", ":")).encode()
    mac = b"\x02" + b"\x01\x08pypi.org" + b"\x02" + bytes([len(ident)]) + ident + b"\x00"
    mac += b"\x02" + bytes([len(cav)]) + cav + b"\x00"
    mac += b"\x00" + b"\x06\x20" + _bytes(r, 32)
    return "pypi-" + _b64u_raw(mac)


def _az_secret(r):
    return _s(r, _ALNUM + "_~.-", 3) + str(r.randint(0, 9)) + "Q~" + _s(r, _ALNUM + "_~.-", 34)


# --------------------------------------------------------------------------
# registry
# --------------------------------------------------------------------------
_POS = []   # (context, kind, category, fn)
_CLEAN = []  # (family, fn)


def _pos(context, kind, cat):
    def deco(fn):
        _POS.append((context, kind, cat, fn))
        return fn
    return deco


def _clean(family):
    def deco(fn):
        _CLEAN.append((family, fn))
        return fn
    return deco


# ==========================================================================
# POSITIVES -- vendor-format tokens
# ==========================================================================
@_pos("shell-history", "github-pat", "vendor")
def _p_gh_history(r):
    tok = _crc_token(r, r.choice(["ghp_"] * 5 + ["gho_"]))
    user, org, repo = _user(r), _company(r), _repo(r)
    leak = r.choice([
        "git remote set-url origin https://%s:%s@github.com/%s/%s.git" % (user, tok, org, repo),
        "export GITHUB_TOKEN=%s" % tok,
        "curl -s -H \"Authorization: token %s\" \"https://api.github.com/repos/%s/%s/pulls?state=open\" | jq '.[].title'" % (tok, org, repo),
        "echo %s | gh auth login --with-token" % tok,
        "git clone https://%s@github.com/%s/%s.git" % (tok, org, repo),
    ])
    before = ["cd ~/src/%s" % repo] + _pick(r, _SAFE_CMDS, r.randint(3, 12))
    after = ["git push -u origin %s" % _branch(r), "gh pr list", "gh run watch"] + _pick(r, _SAFE_CMDS, r.randint(2, 10))
    return _hist(r, before + [leak] + after), tok


@_pos("github-actions-log", "github-fine-grained-pat", "vendor")
def _p_gha_finepat(r):
    tok = _gh_fine(r)
    org, repo = _company(r), _repo(r)
    t = _dt(r)
    lines = []

    def L(s):
        nonlocal t
        t += timedelta(microseconds=r.randint(5000, 1900000))
        lines.append(t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d%dZ " % (t.microsecond, r.randint(0, 9)) + s)
    L("##[group]Run actions/checkout@v4")
    L("with:")
    L("  repository: %s/%s" % (org, repo))
    L("  token: ***")
    L("  ssh-strict: true")
    L("  persist-credentials: true")
    L("  clean: true")
    L("  fetch-depth: 1")
    L("##[endgroup]")
    L("Syncing repository: %s/%s" % (org, repo))
    L("[command]/usr/bin/git version")
    L("git version 2.4%d.%d" % (r.randint(3, 7), r.randint(0, 2)))
    L("[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main")
    L("Switched to a new branch 'main'")
    L("[command]/usr/bin/git log -1 --format='%H'")
    L("'%s'" % _sha(r))
    L("##[group]Run actions/setup-go@v5")
    L("with:")
    L("  go-version: 1.2%d" % r.randint(1, 3))
    L("  cache: true")
    L("##[endgroup]")
    L("Setup go version spec 1.2%d" % r.randint(1, 3))
    L("Found in cache @ /opt/hostedtoolcache/go/1.22.5/x64")
    step = r.choice(["git config --global url.\"https://x-access-token:%s@github.com/\".insteadOf \"https://github.com/\"" % tok,
                     "git config --global url.\"https://%s:x-oauth-basic@github.com/%s/\".insteadOf \"https://github.com/%s/\"" % (tok, org, org)])
    L("##[group]Run go env -w GOPRIVATE=github.com/%s/*" % org)
    L("go env -w GOPRIVATE=github.com/%s/*" % org)
    L(step)
    L("go mod download")
    L("shell: /usr/bin/bash -e {0}")
    L("env:")
    L("  GOPRIVATE: github.com/%s/*" % org)
    L("  GOTOOLCHAIN: local")
    L("##[endgroup]")
    for _ in range(r.randint(3, 9)):
        L("go: downloading github.com/%s/%s v%s" % (r.choice([org, "spf13", "stretchr", "google", "rs", "uber-go"]),
                                                   r.choice(["cobra", "testify", "uuid", "zerolog", "zap", _repo(r)]), _ver(r)))
    L("##[group]Run go test ./... -race -count=1")
    L("go test ./... -race -count=1")
    L("shell: /usr/bin/bash -e {0}")
    L("##[endgroup]")
    for _ in range(r.randint(2, 6)):
        L("ok  \tgithub.com/%s/%s/%s\t%.3fs" % (org, repo, r.choice(["internal/api", "pkg/store", "cmd/server", "internal/auth", "pkg/queue"]), r.uniform(0.01, 9)))
    L("Post job cleanup.")
    return "\n".join(lines) + "\n", tok


@_pos("npmrc", "npm-token", "vendor")
def _p_npmrc(r):
    tok = _crc_token(r, "npm_")
    scope, pkg, ver = "@" + _company(r), _repo(r), _ver(r)
    p = _prompt(r, path="~/src/" + pkg)
    if r.random() < 0.5:
        rc = ["registry=https://registry.npmjs.org/",
              "%s:registry=https://registry.npmjs.org/" % scope,
              "//registry.npmjs.org/:_authToken=%s" % tok,
              "always-auth=true"] + _pick(r, ["save-exact=true", "fund=false", "audit-level=high", "engine-strict=true",
                                              "init-license=MIT", "init-author-name=%s" % _person(r), "progress=false"], 3)
        return "\n".join(rc) + "\n", tok
    out = [p + "cat ~/.npmrc", "//registry.npmjs.org/:_authToken=" + tok,
           "init-author-name=%s" % _person(r), "init-license=MIT", "save-exact=true",
           p + "npm whoami", _user(r).replace(".", ""), p + "npm publish --access public",
           "npm notice ", "npm notice 📦  %s/%s@%s" % (scope, pkg, ver), "npm notice === Tarball Contents === "]
    for f in ["LICENSE", "README.md", "dist/index.js", "dist/index.d.ts", "package.json"]:
        out.append("npm notice %.1fkB %s" % (r.uniform(0.3, 40), f))
    out += ["npm notice === Tarball Details === ",
            "npm notice name:          %s/%s" % (scope, pkg),
            "npm notice version:       %s" % ver,
            "npm notice filename:      %s-%s-%s.tgz" % (scope[1:], pkg, ver),
            "npm notice package size:  %.1f kB" % r.uniform(2, 50),
            "npm notice shasum:        %s" % _sha(r),
            "npm notice integrity:     sha512-%s[...]%s==" % (_s(r, _B64, 13), _s(r, _B64, 14)),
            "npm notice total files:   5", "npm notice ",
            "npm notice Publishing to https://registry.npmjs.org/ with tag latest and public access",
            "+ %s/%s@%s" % (scope, pkg, ver)]
    return "\n".join(out) + "\n", tok


@_pos("gitlab-ci-log", "gitlab-pat", "vendor")
def _p_gitlab(r):
    tok = _glpat(r)
    grp, proj = _company(r), _repo(r)
    host = r.choice(["gitlab.com", "gitlab." + _domain(r)])
    img = r.choice(["node:20-alpine", "python:3.12-slim", "golang:1.22", "alpine:3.19", "maven:3.9-eclipse-temurin-21"])
    out = ["Running with gitlab-runner %d.%d.%d (%s)" % (r.randint(15, 17), r.randint(0, 11), r.randint(0, 3), _hex(r, 8)),
           "  on %s-runner-%02d %s, system ID: s_%s" % (r.choice(["docker", "k8s", "shared"]), r.randint(1, 20), _s(r, _ALNUM, 8), _hex(r, 12)),
           "Preparing the \"docker\" executor",
           "Using Docker executor with image %s ..." % img,
           "Pulling docker image %s ..." % img,
           "Using docker image sha256:%s for %s with digest %s@sha256:%s ..." % (_hex(r, 64), img, img.split(":")[0], _hex(r, 64)),
           "Preparing environment",
           "Running on runner-%s-project-%d-concurrent-0 via %s..." % (_s(r, _LO + _DIG, 8), r.randint(100, 9999), _host(r)),
           "Getting source from Git repository",
           "Fetching changes with git depth set to 20...",
           "Initialized empty Git repository in /builds/%s/%s/.git/" % (grp, proj),
           "Created fresh repository.",
           "Checking out %s as detached HEAD (ref is %s)..." % (_hex(r, 8), r.choice(["main", "develop", "master"])),
           "Skipping Git submodules setup",
           "Executing \"step_script\" stage of the job script",
           "Using docker image sha256:%s for %s ..." % (_hex(r, 64), img)]
    out += ["$ " + c for c in _pick(r, ["apk add --no-cache git", "git config --global user.email ci@%s" % _domain(r), "export TZ=UTC"], 2)]
    leak = r.choice([
        "$ git clone https://oauth2:%s@%s/%s/shared-config.git" % (tok, host, grp),
        "$ git remote set-url origin \"https://gitlab-ci-token:%s@%s/%s/%s.git\"" % (tok, host, grp, proj),
        "$ curl --fail --header \"PRIVATE-TOKEN: %s\" \"https://%s/api/v4/projects/%d/releases\"" % (tok, host, r.randint(100, 99999)),
    ])
    out.append(leak)
    if "clone" in leak:
        out.append("Cloning into 'shared-config'...")
    out += ["$ ./scripts/ci/build.sh", "==> building %s" % proj, "==> version %s" % _ver(r),
            "Saving cache for successful job", "Creating cache default-protected...",
            "Uploading cache.zip to https://storage.googleapis.com/gitlab-com-runners-cache/project/%d/default-protected" % r.randint(1000, 99999),
            "Created cache", "Cleaning up project directory and file based variables", "Job succeeded"]
    return "\n".join(out) + "\n", tok


@_pos("python-code", "slack-token", "vendor")
def _p_slack_py(r):
    tok = _slack_token(r)
    ch = r.choice(["#builds", "#deploys", "#alerts-prod", "#data-eng", "C0%s" % _s(r, _UP + _DIG, 8)])
    var = r.choice(["SLACK_TOKEN", "SLACK_BOT_TOKEN", "BOT_TOKEN", "slack_token"])
    code = '''#!/usr/bin/env python3
"""Post the nightly %s summary to Slack."""
import json
import sys
from datetime import date

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

%s = "%s"
CHANNEL = "%s"


def build_blocks(summary):
    status = ":white_check_mark:" if summary["failed"] == 0 else ":x:"
    return [
        {"type": "header", "text": {"type": "plain_text", "text": f"Nightly {date.today():%%Y-%%m-%%d}"}},
        {"type": "section", "text": {"type": "mrkdwn",
                                     "text": f"{status} {summary['passed']} passed, {summary['failed']} failed"}},
    ]


def main(path):
    with open(path) as fh:
        summary = json.load(fh)
    client = WebClient(token=%s)
    try:
        client.chat_postMessage(channel=CHANNEL, blocks=build_blocks(summary), text="nightly summary")
    except SlackApiError as exc:
        print(f"slack error: {exc.response['error']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "summary.json"))
''' % (r.choice(["test", "ETL", "backup", "e2e"]), var, tok, ch, var)
    return code, tok


@_pos("php-code", "stripe-secret-key", "vendor")
def _p_stripe_php(r):
    key = _stripe(r)
    dom = _domain(r)
    if r.random() < 0.5:
        code = """<?php

return [

    /*
    |--------------------------------------------------------------------------
    | Third Party Services
    |--------------------------------------------------------------------------
    */

    'mailgun' => [
        'domain' => env('MAILGUN_DOMAIN'),
        'secret' => env('MAILGUN_SECRET'),
        'endpoint' => env('MAILGUN_ENDPOINT', 'api.mailgun.net'),
        'scheme' => 'https',
    ],

    'stripe' => [
        'model' => App\\Models\\User::class,
        'key' => env('STRIPE_KEY'),
        'secret' => env('STRIPE_SECRET', '%s'),
        'webhook' => [
            'tolerance' => env('STRIPE_WEBHOOK_TOLERANCE', 300),
        ],
    ],

    'slack' => [
        'notifications' => [
            'channel' => env('SLACK_BOT_USER_DEFAULT_CHANNEL'),
        ],
    ],

];
""" % key
    else:
        code = """<?php
require_once __DIR__ . '/vendor/autoload.php';
require_once __DIR__ . '/lib/cart.php';

\\Stripe\\Stripe::setApiKey('%s');
\\Stripe\\Stripe::setApiVersion('2024-06-20');

header('Content-Type: application/json');

$domain = 'https://%s';
$cart = Cart::fromSession();

try {
    $session = \\Stripe\\Checkout\\Session::create([
        'line_items' => $cart->toLineItems(),
        'mode' => 'payment',
        'success_url' => $domain . '/order/success?session_id={CHECKOUT_SESSION_ID}',
        'cancel_url' => $domain . '/cart',
        'automatic_tax' => ['enabled' => true],
    ]);
    http_response_code(303);
    header('Location: ' . $session->url);
} catch (\\Stripe\\Exception\\ApiErrorException $e) {
    error_log('stripe: ' . $e->getMessage());
    http_response_code(500);
    echo json_encode(['error' => 'payment unavailable']);
}
""" % (key, "shop." + dom)
    return code, key


@_pos("dotenv", "sendgrid-api-key", "vendor")
def _p_sendgrid_env(r):
    key = _sendgrid(r)
    dom = _domain(r)
    name = r.choice(["SENDGRID_API_KEY", "SG_API_KEY", "MAIL_API_KEY", "EMAIL_PROVIDER_KEY", "SENDGRID_KEY"])
    lines = ["# %s - local overrides" % r.choice(_SERVICES),
             "NODE_ENV=%s" % r.choice(["development", "production", "staging"]),
             "PORT=%d" % r.choice([3000, 8080, 5000, 4000]),
             "LOG_LEVEL=%s" % r.choice(["debug", "info", "warn"]),
             "APP_URL=https://%s" % dom,
             "DATABASE_URL=${DATABASE_URL}",
             "REDIS_HOST=localhost", "REDIS_PORT=6379", "",
             "# email",
             "MAIL_FROM=no-reply@%s" % dom,
             "MAIL_FROM_NAME=\"%s\"" % dom.split(".")[0].capitalize(),
             "%s=%s" % (name, key),
             "SENDGRID_TEMPLATE_WELCOME=d-%s" % _hex(r, 32),
             "", "# feature flags", "FEATURE_NEW_CHECKOUT=%s" % r.choice(["true", "false"]),
             "RATE_LIMIT_PER_MIN=%d" % r.choice([60, 120, 600])]
    return "\n".join(lines) + "\n", key


@_pos("ruby-code", "twilio-auth-token", "vendor")
def _p_twilio_rb(r):
    sid = "AC" + _hex(r, 32)
    tok = _hex(r, 32)
    frm = "+1%d555%04d" % (r.choice([415, 212, 646, 312, 206]), r.randint(100, 199))
    if r.random() < 0.5:
        code = """# config/initializers/twilio.rb
Twilio.configure do |config|
  config.account_sid = '%s'
  config.auth_token = '%s'
end

TWILIO_FROM_NUMBER = '%s'.freeze
""" % (sid, tok, frm)
    else:
        code = """require 'twilio-ruby'
require 'securerandom'

account_sid = '%s'
auth_token  = '%s'
client = Twilio::REST::Client.new(account_sid, auth_token)

def otp
  SecureRandom.random_number(1_000_000).to_s.rjust(6, '0')
end

ARGV.each do |to|
  message = client.messages.create(
    from: '%s',
    to: to,
    body: "Your verification code is #{otp}"
  )
  puts "#{to}: #{message.sid} #{message.status}"
end
""" % (sid, tok, frm)
    return code, tok


@_pos("jupyter-notebook", "openai-api-key", "vendor")
def _p_openai_nb(r):
    key = _openai(r)
    model = r.choice(["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "gpt-3.5-turbo"])
    setup = r.choice([
        ["import os\n", "os.environ[\"OPENAI_API_KEY\"] = \"%s\"\n" % key, "from openai import OpenAI\n", "client = OpenAI()"],
        ["from openai import OpenAI\n", "\n", "client = OpenAI(api_key=\"%s\")" % key],
        ["import openai\n", "openai.api_key = \"%s\"" % key],
    ])
    topic = r.choice(["support tickets", "product reviews", "release notes", "meeting notes"])
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Summarising %s\n" % topic, "\n", "Quick experiment, do not merge."]},
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
         "source": ["import pandas as pd\n", "df = pd.read_csv(\"data/%s.csv\")\n" % topic.replace(" ", "_"), "df.shape"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [], "source": setup},
        {"cell_type": "code", "execution_count": 3, "metadata": {},
         "outputs": [{"name": "stdout", "output_type": "stream",
                      "text": ["Customers mostly complain about %s and slow %s.\n" % (r.choice(_WORDS), r.choice(["shipping", "refunds", "login", "search"]))]}],
         "source": ["resp = client.chat.completions.create(\n", "    model=\"%s\",\n" % model,
                    "    messages=[{\"role\": \"user\", \"content\": \"Summarise: \" + \" \".join(df.text[:50])}],\n",
                    ")\n", "print(resp.choices[0].message.content)"]}],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                     "language_info": {"name": "python", "version": "3.11.%d" % r.randint(1, 9)}},
        "nbformat": 4, "nbformat_minor": 5}
    if "openai.api_key" in "".join(setup):
        nb["cells"][3]["source"] = ["resp = openai.ChatCompletion.create(model=\"%s\", messages=[{\"role\": \"user\", \"content\": \"hi\"}])\n" % model,
                                    "print(resp[\"choices\"][0][\"message\"][\"content\"])"]
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n", key


@_pos("typescript-code", "anthropic-api-key", "vendor")
def _p_anthropic_ts(r):
    key = _anthropic(r)
    model = r.choice(["claude-3-5-sonnet-20241022", "claude-3-haiku-20240307", "claude-sonnet-4-20250514"])
    code = """import Anthropic from "@anthropic-ai/sdk";
import type { Request, Response } from "express";

const client = new Anthropic({
  apiKey: "%s",
  maxRetries: %d,
});

export async function summarize(req: Request, res: Response) {
  const text: string = req.body?.text ?? "";
  if (!text.trim()) {
    return res.status(400).json({ error: "empty text" });
  }
  const msg = await client.messages.create({
    model: "%s",
    max_tokens: %d,
    messages: [{ role: "user", content: `Summarize in 3 bullet points:\\n\\n${text}` }],
  });
  const out = msg.content
    .filter((b) => b.type === "text")
    .map((b) => (b as { text: string }).text)
    .join("\\n");
  res.json({ summary: out, usage: msg.usage });
}
""" % (key, r.randint(1, 4), model, r.choice([256, 512, 1024]))
    return code, key


@_pos("aws-credentials-file", "aws-secret-access-key", "vendor")
def _p_aws_creds(r):
    akid, sec = _aws_akid(r), _aws_secret(r)
    acct = "%012d" % r.randint(10 ** 10, 10 ** 12 - 1)
    user = _user(r)
    p = _prompt(r)
    region = r.choice(["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2"])
    out = [p + "aws s3 ls", "", "An error occurred (InvalidAccessKeyId) when calling the ListBuckets operation: The AWS Access Key Id you provided does not exist in our records.",
           p + "cat ~/.aws/credentials", "[default]",
           "aws_access_key_id = %s" % akid, "aws_secret_access_key = %s" % sec, "",
           "[%s-readonly]" % _company(r), "role_arn = arn:aws:iam::%s:role/ReadOnly" % acct, "source_profile = default", "",
           p + "cat ~/.aws/config", "[default]", "region = %s" % region, "output = json", "",
           p + "env | grep AWS", "AWS_PROFILE=old-sandbox", "AWS_REGION=%s" % region,
           p + "unset AWS_PROFILE", p + "aws sts get-caller-identity", "{",
           "    \"UserId\": \"AIDA%s\"," % _s(r, _B32, 17),
           "    \"Account\": \"%s\"," % acct,
           "    \"Arn\": \"arn:aws:iam::%s:user/%s\"" % (acct, user), "}"]
    return "\n".join(out) + "\n", sec


@_pos("docker-login-session", "dockerhub-pat", "vendor")
def _p_docker_login(r):
    tok = _dckr(r)
    user = _user(r).replace(".", "").replace("_", "")
    app = _repo(r)
    tag = _ver(r)
    p = _prompt(r, path="~/src/" + app)
    if r.random() < 0.5:
        login = [p + "docker login -u %s -p %s" % (user, tok),
                 "WARNING! Using --password via the CLI is insecure. Use --password-stdin."]
    else:
        login = [p + "echo \"%s\" | docker login --username %s --password-stdin" % (tok, user)]
    out = [p + "docker build -t %s/%s:%s ." % (user, app, tag),
           "[+] Building %.1fs (%d/%d) FINISHED" % (r.uniform(5, 90), 12, 12),
           " => [internal] load build definition from Dockerfile",
           " => exporting to image",
           " => => writing image sha256:%s" % _hex(r, 64),
           " => => naming to docker.io/%s/%s:%s" % (user, app, tag),
           p + "docker push %s/%s:%s" % (user, app, tag),
           "The push refers to repository [docker.io/%s/%s]" % (user, app),
           "denied: requested access to the resource is denied"] + login + [
           "WARNING! Your password will be stored unencrypted in /home/%s/.docker/config.json." % user,
           "Configure a credential helper to remove this warning. See",
           "https://docs.docker.com/engine/reference/commandline/login/#credentials-store", "",
           "Login Succeeded",
           p + "docker push %s/%s:%s" % (user, app, tag),
           "The push refers to repository [docker.io/%s/%s]" % (user, app)]
    for _ in range(r.randint(3, 6)):
        out.append("%s: Pushed" % _hex(r, 12))
    out.append("%s: digest: sha256:%s size: %d" % (tag, _hex(r, 64), r.randint(900, 3000)))
    return "\n".join(out) + "\n", tok


@_pos("vault-cli-output", "vault-token", "vendor")
def _p_vault(r):
    tok = _vault_tok(r)
    user = _user(r)
    pol = r.sample(["dev-read", "ci-deploy", "kv-%s" % r.choice(_SERVICES), "pki-issue", "db-readonly"], 2)
    p = _prompt(r)
    vdom = _domain(r)
    svc = r.choice(_SERVICES)
    out = [p + "export VAULT_ADDR=https://vault.%s:8200" % vdom,
           p + "vault login -method=%s username=%s" % (r.choice(["userpass", "ldap", "okta"]), user),
           "Password (will be hidden): ",
           "Success! You are now authenticated. The token information displayed below",
           "is already stored in the token helper. You do NOT need to run \"vault login\"",
           "again. Future Vault requests will automatically use this token.", "",
           "Key                    Value", "---                    -----",
           "token                  %s" % tok,
           "token_accessor         %s" % _s(r, _ALNUM, 24),
           "token_duration         %s" % r.choice(["768h", "8h", "24h", "1h"]),
           "token_renewable        true",
           "token_policies         [\"default\" \"%s\" \"%s\"]" % tuple(pol),
           "identity_policies      []",
           "policies               [\"default\" \"%s\" \"%s\"]" % tuple(pol),
           "token_meta_username    %s" % user,
           p + "vault kv get -mount=secret %s/config" % svc,
           "Error reading secret/data/%s/config: Error making API request." % svc, "",
           "URL: GET https://vault.%s:8200/v1/secret/data/%s/config" % (vdom, svc),
           "Code: 403. Errors:", "", "* 1 error occurred:", "\t* permission denied"]
    return "\n".join(out) + "\n", tok


@_pos("terraform-credentials", "terraform-cloud-token", "vendor")
def _p_tfc(r):
    tok = _tfc(r)
    org = _company(r)
    ws = r.choice(_SERVICES) + "-" + r.choice(["prod", "staging", "dev"])
    if r.random() < 0.5:
        body = json.dumps({"credentials": {"app.terraform.io": {"token": tok}}}, indent=2)
        fname = "~/.terraform.d/credentials.tfrc.json"
        lang = "json"
    else:
        body = 'plugin_cache_dir = "$HOME/.terraform.d/plugin-cache"\ndisable_checkpoint = true\n\ncredentials "app.terraform.io" {\n  token = "%s"\n}' % tok
        fname = "~/.terraformrc"
        lang = "hcl"
    txt = """### Terraform Version

```
Terraform v1.%d.%d
on linux_amd64
```

### Problem

`terraform init` against our cloud workspace `%s/%s` fails:

```
Initializing HCP Terraform...
╷
│ Error: Failed to read organization "%s" at host app.terraform.io
│
│ Encountered an unexpected error while reading the organization settings:
│ unauthorized
╵
```

This started after I moved to a new laptop. Contents of `%s`:

```%s
%s
```

Backend block:

```hcl
terraform {
  cloud {
    organization = "%s"
    workspaces {
      name = "%s"
    }
  }
}
```

Any idea what is wrong? `terraform login` opens the browser but never finishes.
""" % (r.randint(5, 9), r.randint(0, 6), org, ws, org, fname, lang, body, org, ws)
    return txt, tok


@_pos("postman-collection", "shopify-access-token", "vendor")
def _p_shopify_postman(r):
    tok = _shopify(r)
    shop = r.choice(_NOUN) + "-" + r.choice(_WORDS) + ".myshopify.com"
    api = "2024-%02d" % r.choice([1, 4, 7, 10])
    items = [
        {"name": "List products", "request": {"method": "GET", "header": [{"key": "X-Shopify-Access-Token", "value": tok, "type": "text"}],
                                              "url": {"raw": "https://%s/admin/api/%s/products.json?limit=50" % (shop, api), "protocol": "https",
                                                      "host": shop.split("."), "path": ["admin", "api", api, "products.json"],
                                                      "query": [{"key": "limit", "value": "50"}]}}, "response": []},
        {"name": "Get order", "request": {"method": "GET", "header": [{"key": "X-Shopify-Access-Token", "value": "{{shopify_token}}", "type": "text"}],
                                          "url": {"raw": "https://%s/admin/api/%s/orders/{{order_id}}.json" % (shop, api)}}, "response": []},
        {"name": "Update inventory", "request": {"method": "POST", "header": [{"key": "Content-Type", "value": "application/json"},
                                                                               {"key": "X-Shopify-Access-Token", "value": "{{shopify_token}}"}],
                                                 "body": {"mode": "raw", "raw": json.dumps({"location_id": r.randint(10 ** 10, 10 ** 11), "inventory_item_id": r.randint(10 ** 12, 10 ** 13), "available_adjustment": -1})},
                                                 "url": {"raw": "https://%s/admin/api/%s/inventory_levels/adjust.json" % (shop, api)}}, "response": []},
    ]
    r.shuffle(items)
    coll = {"info": {"_postman_id": _uuid(r), "name": "%s Shopify admin" % _company(r).capitalize(),
                     "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
                     "_exporter_id": str(r.randint(10 ** 7, 10 ** 8))},
            "item": items,
            "variable": [{"key": "order_id", "value": str(r.randint(10 ** 12, 10 ** 13))}, {"key": "shopify_token", "value": ""}]}
    return json.dumps(coll, indent="\t") + "\n", tok


@_pos("go-code", "telegram-bot-token", "vendor")
def _p_telegram_go(r):
    tok = _telegram(r)
    chat = -r.randint(10 ** 12, 10 ** 13)
    code = """package main

import (
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"time"
)

const (
	botToken = "%s"
	chatID   = %d
)

func notify(text string) error {
	endpoint := fmt.Sprintf("https://api.telegram.org/bot%%s/sendMessage", botToken)
	form := url.Values{}
	form.Set("chat_id", fmt.Sprint(chatID))
	form.Set("text", text)
	form.Set("parse_mode", "Markdown")
	client := &http.Client{Timeout: %d * time.Second}
	resp, err := client.PostForm(endpoint, form)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("telegram: unexpected status %%s", resp.Status)
	}
	return nil
}

func main() {
	host, _ := os.Hostname()
	if err := notify(fmt.Sprintf("*%%s*: backup finished on `%%s`", "%s", host)); err != nil {
		log.Fatal(err)
	}
}
""" % (tok, chat, r.choice([5, 10, 15]), r.choice(_SERVICES))
    return code, tok


@_pos("doctl-config", "digitalocean-pat", "vendor")
def _p_doctl(r):
    tok = _do(r)
    ctx = r.choice(["default", _company(r)])
    p = _prompt(r)
    cfg = """access-token: %s
apps:
  dev:
    config: ""
auth-contexts:
  %s: true
context: %s
kubernetes:
  v1:
    clusters:
      %s:
        cluster: k8s-%s
output: text
""" % (tok, ctx, ctx, _uuid(r), r.choice(["ams3", "fra1", "nyc1", "sfo3", "lon1"]))
    if r.random() < 0.5:
        return cfg, tok
    txt = p + "doctl compute droplet list\nError: Unable to authenticate you\n" + p + \
        "cat ~/.config/doctl/config.yaml\n" + cfg + p + "doctl version\ndoctl version 1.%d.0-release\n" % r.randint(90, 115)
    return txt, tok


@_pos("databrickscfg", "databricks-token", "vendor")
def _p_databricks(r):
    tok = _databricks(r)
    ws = "adb-%d.%d.azuredatabricks.net" % (r.randint(10 ** 15, 10 ** 16 - 1), r.randint(1, 19))
    txt = """; The profile defined in the DEFAULT section is to be used as a fallback when no profile is explicitly specified.
[DEFAULT]
host  = https://%s
token = %s
jobs-api-version = 2.1

[staging]
host      = https://dbc-%s-%s.cloud.databricks.com
auth_type = databricks-cli

[azure-ml]
host      = https://%s
auth_type = azure-cli
cluster_id = %04d-%06d-%s
""" % (ws, tok, _hex(r, 8), _hex(r, 4), ws, r.randint(100, 1299), r.randint(0, 999999), _s(r, _LO + _DIG, 8))
    return txt, tok


@_pos("docker-compose", "doppler-token", "vendor")
def _p_doppler(r):
    env = r.choice(["prd", "stg", "dev", "prod", "ci"])
    tok = _doppler(r, env)
    svc = r.choice(_SERVICES)
    txt = """services:
  %s:
    build:
      context: .
      dockerfile: Dockerfile
    command: ["doppler", "run", "--", "node", "dist/server.js"]
    environment:
      DOPPLER_TOKEN: %s
      NODE_ENV: production
      PORT: "8080"
    ports:
      - "8080:8080"
    depends_on:
      - redis
      - postgres
    restart: unless-stopped

  redis:
    image: redis:7-alpine
    volumes:
      - redis-data:/data

  postgres:
    image: postgres:16
    environment:
      POSTGRES_DB: %s
      POSTGRES_USER: %s
      POSTGRES_PASSWORD_FILE: /run/secrets/pg_password
    secrets:
      - pg_password
    volumes:
      - pg-data:/var/lib/postgresql/data

secrets:
  pg_password:
    file: ./secrets/pg_password.txt

volumes:
  redis-data:
  pg-data:
""" % (svc, tok, svc.replace("-", "_"), svc.split("-")[0])
    return txt, tok


@_pos("django-settings", "sentry-dsn-secret", "vendor")
def _p_sentry(r):
    pub, sec = _hex(r, 32), _hex(r, 32)
    host = r.choice(["o%d.ingest.sentry.io" % r.randint(10 ** 5, 10 ** 7), "sentry." + _domain(r), "o%d.ingest.us.sentry.io" % r.randint(10 ** 5, 10 ** 7)])
    dsn = "https://%s:%s@%s/%d" % (pub, sec, host, r.randint(10, 9999999))
    txt = '''import os
from pathlib import Path

import sentry_sdk
from sentry_sdk.integrations.django import DjangoIntegration

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
DEBUG = os.environ.get("DJANGO_DEBUG", "0") == "1"
ALLOWED_HOSTS = [".%s", "localhost"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "rest_framework",
    "%s",
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ.get("DB_NAME", "%s"),
        "USER": os.environ.get("DB_USER", "%s"),
        "PASSWORD": os.environ.get("DB_PASSWORD", ""),
        "HOST": os.environ.get("DB_HOST", "localhost"),
    }
}

sentry_sdk.init(
    dsn="%s",
    integrations=[DjangoIntegration()],
    traces_sample_rate=%s,
    send_default_pii=False,
    environment=os.environ.get("SENTRY_ENV", "production"),
)

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
''' % (_domain(r), r.choice(["orders", "core", "accounts", "catalog"]), r.choice(_NOUN), r.choice(_NOUN), dsn, r.choice(["0.1", "0.2", "1.0", "0.05"]))
    return txt, sec


@_pos("chat-transcript", "atlassian-api-token", "vendor")
def _p_atlassian_chat(r):
    tok = _atlassian(r)
    a, b = r.sample(_FIRST, 2)
    comp = _company(r)
    site = comp + ".atlassian.net"
    mail = "%s@%s.%s" % (a, comp, r.choice(_TLDS))
    t = _dt(r)

    def ts():
        nonlocal t
        t += timedelta(seconds=r.randint(20, 400))
        return t.strftime("%H:%M")
    snippet = r.choice([
        "curl -s -u %s:%s \\\n  -H 'Accept: application/json' \\\n  'https://%s/rest/api/3/search?jql=project=%s+AND+status=Open'" % (mail, tok, site, r.choice(["OPS", "PLAT", "WEB", "DATA"])),
        "from jira import JIRA\njira = JIRA(server=\"https://%s\", basic_auth=(\"%s\", \"%s\"))\nissues = jira.search_issues(\"assignee = currentUser() AND resolution = Unresolved\")" % (site, mail, tok),
    ])
    txt = """[%s] %s: anyone know why the jira sync script started returning 401 this morning?
[%s] %s: which creds is it using? the old basic-auth password stopped working in june
[%s] %s: api token, I generated a new one yesterday. this is literally what I run:
```
%s
```
[%s] %s: hmm token looks fine. is your account still in the jira-software-users group?
[%s] %s: ohh, I got moved to the contractors group last week. that's probably it
[%s] %s: yep, ping #it-helpdesk. also maybe don't paste tokens in here :sweat_smile:
[%s] %s: oops, will rotate
""" % (ts(), a, ts(), b, ts(), a, snippet, ts(), b, ts(), a, ts(), b, ts(), a)
    return txt, tok


@_pos("pypirc", "pypi-token", "vendor")
def _p_pypirc(r):
    tok = _pypi(r)
    comp = _company(r)
    txt = """[distutils]
index-servers =
    pypi
    testpypi
    %s

[pypi]
username = __token__
password = %s

[testpypi]
repository = https://test.pypi.org/legacy/
username = __token__

[%s]
repository = https://nexus.%s/repository/pypi-internal/
username = %s
""" % (comp, tok, comp, _domain(r), _user(r))
    return txt, tok


@_pos("shell-history-az", "azure-ad-client-secret", "vendor")
def _p_az_sp(r):
    sec = _az_secret(r)
    app, tenant, sub = _uuid(r), _uuid(r), _uuid(r)
    rg = "rg-" + r.choice(_SERVICES) + "-" + r.choice(["prod", "dev", "weu", "neu"])
    cmds = _pick(r, _SAFE_CMDS, r.randint(2, 6)) + [
        "az account show",
        "az login --service-principal -u %s -p '%s' --tenant %s" % (app, sec, tenant),
        "az account set --subscription %s" % sub,
        "az group list -o table",
        "az aks get-credentials -g %s -n aks-%s" % (rg, r.choice(_NOUN)),
        "kubectl get nodes"] + _pick(r, _SAFE_CMDS, r.randint(1, 5))
    return _hist(r, cmds), sec


# ==========================================================================
# POSITIVES -- private keys, JWTs, connection strings
# ==========================================================================
@_pos("gcp-service-account-json", "gcp-sa-private-key", "keys")
def _p_gcp_sa(r):
    proj = r.choice(_NOUN) + "-" + r.choice(_WORDS) + "-%d" % r.randint(100000, 999999)
    sa = r.choice(["terraform", "ci-deployer", "bq-loader", "gcs-sync", r.choice(_SERVICES)])
    email = "%s@%s.iam.gserviceaccount.com" % (sa, proj)
    pem = _pem("PRIVATE KEY", _rsa_pkcs8_b64(r)) + "\n"
    d = {"type": "service_account", "project_id": proj, "private_key_id": _hex(r, 40),
         "private_key": pem, "client_email": email, "client_id": str(r.randint(10 ** 20, 10 ** 21 - 1)),
         "auth_uri": "https://accounts.google.com/o/oauth2/auth",
         "token_uri": "https://oauth2.googleapis.com/token",
         "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
         "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/" + email.replace("@", "%40"),
         "universe_domain": "googleapis.com"}
    body = json.dumps(d, indent=2)
    value = json.dumps(pem)[1:-1]
    p = _prompt(r, path="~/infra")
    if r.random() < 0.5:
        txt = p + "gcloud auth activate-service-account --key-file=./%s.json\nERROR: (gcloud.auth.activate-service-account) There was a problem refreshing your current auth tokens: ('invalid_grant: Invalid JWT Signature.', {'error': 'invalid_grant', 'error_description': 'Invalid JWT Signature.'})\n%scat %s.json\n%s\n" % (sa, p, sa, body)
    else:
        txt = body + "\n"
    return txt, value


@_pos("shell-session", "openssh-private-key", "keys")
def _p_openssh(r):
    user = _user(r).split(".")[0]
    host = _host(r)
    key = _openssh_ed25519(r, "%s@%s" % (user, host))
    p = _prompt(r, user=user, host=host)
    d = _dt(r)
    out = [p + "ls -la ~/.ssh", "total 24",
           "drwx------  2 %s %s 4096 %s ." % (user, user, d.strftime("%b %d %H:%M")),
           "drwxr-xr-x 18 %s %s 4096 %s .." % (user, user, d.strftime("%b %d %H:%M")),
           "-rw-r--r--  1 %s %s  %d %s authorized_keys" % (user, user, r.randint(90, 800), d.strftime("%b %d %H:%M")),
           "-rw-------  1 %s %s  %d %s id_ed25519" % (user, user, r.randint(399, 464), d.strftime("%b %d %H:%M")),
           "-rw-r--r--  1 %s %s   %d %s id_ed25519.pub" % (user, user, r.randint(90, 110), d.strftime("%b %d %H:%M")),
           "-rw-r--r--  1 %s %s  %d %s known_hosts" % (user, user, r.randint(400, 4000), d.strftime("%b %d %H:%M")),
           p + "cat ~/.ssh/id_ed25519", key,
           p + "ssh -T git@github.com",
           "git@github.com: Permission denied (publickey).",
           p + "ssh-add -l", "The agent has no identities."]
    return "\n".join(out) + "\n", key


@_pos("k8s-manifest", "rsa-private-key", "keys")
def _p_k8s_tls(r):
    host = r.choice(["api", "app", "www", "grafana", "hooks"]) + "." + _domain(r)
    ns = r.choice(["ingress", "default", "prod", "web", "monitoring"])
    key = _pem("RSA PRIVATE KEY", _rsa_pkcs1_b64(r))
    crt = _cert_pem(r, host)
    ind = "    "
    key_ind = key.replace("\n", "\n" + ind)
    crt_ind = crt.replace("\n", "\n" + ind)
    txt = """apiVersion: v1
kind: Secret
metadata:
  name: %s-tls
  namespace: %s
  labels:
    app.kubernetes.io/name: %s
    app.kubernetes.io/managed-by: kustomize
type: kubernetes.io/tls
stringData:
  tls.crt: |
%s%s
  tls.key: |
%s%s
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: %s
  namespace: %s
spec:
  ingressClassName: nginx
  tls:
    - hosts: ["%s"]
      secretName: %s-tls
  rules:
    - host: %s
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: %s
                port:
                  number: 80
""" % (host.split(".")[0], ns, host.split(".")[0], ind, crt_ind, ind, key_ind,
       host.split(".")[0], ns, host, host.split(".")[0], host, r.choice(_SERVICES))
    return txt, key_ind


@_pos("github-issue", "ec-private-key", "keys")
def _p_ec_issue(r):
    key = _pem("EC PRIVATE KEY", _ec_b64(r))
    host = r.choice(["mqtt", "edge", "vpn", "registry"]) + "." + _domain(r)
    d = _dt(r)
    txt = """**Describe the bug**
After regenerating the server certificate with `openssl ecparam -genkey -name prime256v1`, nginx refuses to start.

**Logs**
```
%s [emerg] %d#%d: SSL_CTX_use_PrivateKey("/etc/nginx/certs/%s.key") failed (SSL: error:05800074:x509 certificate routines::key values mismatch)
nginx: configuration file /etc/nginx/nginx.conf test failed
```

**Config**
```nginx
server {
    listen 443 ssl http2;
    server_name %s;
    ssl_certificate     /etc/nginx/certs/%s.crt;
    ssl_certificate_key /etc/nginx/certs/%s.key;
    ssl_protocols TLSv1.2 TLSv1.3;
}
```

**The key file** (it's only for the test box, will regenerate):
```
%s
```

**Environment**
- nginx %s
- OpenSSL 3.0.%d
- Debian 12
""" % (d.strftime("%Y/%m/%d %H:%M:%S"), r.randint(100, 9999), r.randint(100, 9999), host, host, host, host, key,
       r.choice(["1.24.0", "1.25.3", "1.26.1"]), r.randint(2, 14))
    return txt, key


@_pos("har-file", "jwt-bearer", "keys")
def _p_har_jwt(r):
    now = int(_dt(r).timestamp())
    dom = _domain(r)
    hdr = {"alg": "RS256", "typ": "JWT", "kid": _b64u(r, 16)}
    pl = {"iss": "https://auth.%s/" % dom, "sub": "auth0|%s" % _hex(r, 24), "aud": ["https://api.%s" % dom],
          "iat": now, "exp": now + 86400, "azp": _s(r, _ALNUM, 32), "scope": "openid profile email read:orders",
          "org_id": "org_%s" % _s(r, _ALNUM, 16)}
    tok = _jwt(r, hdr, pl, 256)
    started = _dt(r).strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % r.randint(0, 999)
    entry = {"startedDateTime": started, "time": round(r.uniform(40, 900), 3),
             "request": {"method": "GET", "url": "https://api.%s/v2/orders?page=%d" % (dom, r.randint(1, 9)), "httpVersion": "http/2.0",
                         "headers": [{"name": ":authority", "value": "api." + dom}, {"name": "accept", "value": "application/json"},
                                     {"name": "authorization", "value": "Bearer " + tok},
                                     {"name": "origin", "value": "https://app." + dom},
                                     {"name": "user-agent", "value": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"}],
                         "queryString": [{"name": "page", "value": "1"}], "cookies": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": r.choice([200, 500, 502]), "statusText": "", "httpVersion": "http/2.0",
                          "headers": [{"name": "content-type", "value": "application/json"}, {"name": "x-request-id", "value": _uuid(r)}],
                          "content": {"size": r.randint(50, 9000), "mimeType": "application/json", "text": json.dumps({"error": "upstream timeout"})},
                          "redirectURL": "", "headersSize": -1, "bodySize": -1},
             "cache": {}, "timings": {"blocked": 1.2, "dns": -1, "ssl": -1, "connect": -1, "send": 0.3, "wait": 512.8, "receive": 0.9}}
    har = {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
                   "pages": [], "entries": [entry]}}
    return json.dumps(har, indent=2) + "\n", tok


@_pos("kubeconfig", "k8s-serviceaccount-token", "keys")
def _p_kubeconfig(r):
    ns = r.choice(["ci", "deploy", "argocd", "gitlab-runner", "default"])
    sa = r.choice(["deployer", "ci-bot", "gitlab", "jenkins", "github-actions"])
    now = int(_dt(r).timestamp())
    pl = {"aud": ["https://kubernetes.default.svc.cluster.local"], "exp": now + 31536000, "iat": now,
          "iss": "https://kubernetes.default.svc.cluster.local",
          "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": sa, "uid": _uuid(r)}},
          "nbf": now, "sub": "system:serviceaccount:%s:%s" % (ns, sa)}
    tok = _jwt(r, {"alg": "RS256", "kid": _b64u(r, 32)}, pl, 256)
    cluster = r.choice(["prod-eu", "staging", "k3s-home", "gke-main", "eks-platform"])
    ca = base64.b64encode(_cert_pem(r, "kubernetes", issuer_cn="kubernetes", org="kubernetes").encode() + b"\n").decode()
    txt = """apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: %s
    server: https://%s:6443
  name: %s
contexts:
- context:
    cluster: %s
    namespace: %s
    user: %s
  name: %s
current-context: %s
preferences: {}
users:
- name: %s
  user:
    token: %s
""" % (ca, _ip(r), cluster, cluster, ns, sa, cluster, cluster, sa, tok)
    return txt, tok


@_pos("appsettings-json", "azure-storage-account-key", "keys")
def _p_azure_storage(r):
    acct = r.choice(_NOUN) + r.choice(_WORDS) + "%02d" % r.randint(1, 99)
    key = _b64(r, 64)
    d = {"Logging": {"LogLevel": {"Default": "Information", "Microsoft.AspNetCore": "Warning"}},
         "AllowedHosts": "*",
         "ConnectionStrings": {"BlobStorage": "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net" % (acct, key),
                               "Sql": "Server=tcp:%s.database.windows.net,1433;Initial Catalog=%s;Authentication=Active Directory Default;" % (r.choice(_NOUN), r.choice(_SERVICES))},
         "Storage": {"Container": r.choice(["uploads", "invoices", "thumbnails", "exports"]), "MaxUploadMb": r.choice([10, 25, 100])},
         "ApplicationInsights": {"ConnectionString": ""},
         "FeatureManagement": {"NewUploader": r.choice([True, False])}}
    return json.dumps(d, indent=2) + "\n", key


@_pos("node-code", "mongodb-uri-password", "keys")
def _p_mongo(r):
    pw = _pw(r, avoid=AV_URL)
    user = r.choice(["app", "api", "admin", r.choice(_SERVICES).split("-")[0]])
    cl = "cluster%d.%s.mongodb.net" % (r.randint(0, 3), _s(r, _LO + _DIG, 5))
    db = r.choice(_SERVICES).replace("-", "_")
    uri = "mongodb+srv://%s:%s@%s/%s?retryWrites=true&w=majority&appName=%s" % (user, pw, cl, db, r.choice(_NOUN).capitalize())
    code = """const express = require("express");
const { MongoClient, ServerApiVersion } = require("mongodb");

const uri = "%s";
const client = new MongoClient(uri, {
  serverApi: { version: ServerApiVersion.v1, strict: true, deprecationErrors: true },
  maxPoolSize: %d,
});

const app = express();
app.use(express.json());

app.get("/health", async (_req, res) => {
  try {
    await client.db("admin").command({ ping: 1 });
    res.json({ ok: true });
  } catch (err) {
    res.status(503).json({ ok: false, error: err.message });
  }
});

app.get("/items/:id", async (req, res) => {
  const doc = await client.db("%s").collection("items").findOne({ sku: req.params.id });
  doc ? res.json(doc) : res.sendStatus(404);
});

client.connect().then(() => app.listen(process.env.PORT || 3000));
""" % (uri, r.choice([10, 20, 50]), db)
    return code, pw


# ==========================================================================
# POSITIVES -- generic passwords and keys
# ==========================================================================
@_pos("shell-history", "mysql-cli-password", "generic")
def _p_mysql_hist(r):
    pw = _pw(r, avoid=AV_SHQ + " ")
    host = r.choice([_ip(r), _host(r), "127.0.0.1", "db.internal"])
    user = r.choice(["root", "admin", "app", "repl", "backup"])
    db = r.choice(_SERVICES).replace("-", "_")
    leak = r.choice([
        "mysql -h %s -u %s -p'%s' %s" % (host, user, pw, db),
        "mysqldump --single-transaction -u %s --password='%s' %s | gzip > /backup/%s-$(date +%%F).sql.gz" % (user, pw, db, db),
        "mysql -u%s -p'%s' -e 'SHOW PROCESSLIST'" % (user, pw),
        "mysqladmin -u %s --password='%s' -h %s status" % (user, pw, host),
    ])
    cmds = _pick(r, _SAFE_CMDS, r.randint(2, 8)) + ["sudo systemctl status mysql", leak,
                                                   "ls -lh /backup"] + _pick(r, _SAFE_CMDS, r.randint(1, 6))
    return _hist(r, cmds), pw


@_pos("pgpass", "postgres-password", "generic")
def _p_pgpass(r):
    pw = _pw(r, avoid=":\\ ")
    host = r.choice([_host(r) + "." + _domain(r), _ip(r), "localhost"])
    user = r.choice(["postgres", "app_rw", "report_ro", "migrator"])
    db = r.choice(_SERVICES).replace("-", "_")
    p = _prompt(r)
    txt = """%scat ~/.pgpass
# hostname:port:database:username:password
%s:5432:%s:%s:%s
%sls -l ~/.pgpass
-rw------- 1 %s %s 96 %s /home/%s/.pgpass
%spsql -h %s -U %s %s -c '\\dt'
           List of relations
 Schema |      Name       | Type  | Owner
--------+-----------------+-------+-------
 public | accounts        | table | %s
 public | invoices        | table | %s
 public | schema_versions | table | %s
(3 rows)

""" % (p, host, db, user, pw, p, "dev", "dev", _dt(r).strftime("%b %d %H:%M"), "dev", p, host, user, db, user, user, user)
    return txt, pw


@_pos("netrc", "password", "generic")
def _p_netrc(r):
    pw = _pw(r, avoid=" \t\"'\\#")
    host = r.choice(["artifacts.", "ftp.", "files.", "nexus.", "git."]) + _domain(r)
    user = r.choice(["deploy", "ci", _user(r), "svc-build"])
    txt = """# ~/.netrc  -- used by curl -n and by git over https
machine %s
    login %s
    password %s

# api.github.com uses the gh credential helper, not this file
""" % (host, user, pw)
    if r.random() < 0.5:
        p = _prompt(r)
        txt = p + "cat ~/.netrc\n" + txt + p + "curl -n -fsSL -o build.tar.gz https://%s/releases/%s/build.tar.gz\n" % (host, _ver(r)) + \
            "curl: (22) The requested URL returned error: 404\n"
    return txt, pw


@_pos("rclone-conf", "s3-secret-key", "generic")
def _p_rclone(r):
    prov = r.choice(["Wasabi", "Minio", "DigitalOcean", "Cloudflare", "Ceph", "Scaleway"])
    if prov == "Cloudflare":
        akid, sec = _hex(r, 32), _hex(r, 64)
        ep = "https://%s.r2.cloudflarestorage.com" % _hex(r, 32)
    elif prov == "DigitalOcean":
        akid, sec = _s(r, _UP + _DIG, 20), _s(r, _ALNUM + "+/", 43)
        ep = r.choice(["ams3", "fra1", "nyc3", "sgp1"]) + ".digitaloceanspaces.com"
    else:
        akid, sec = _s(r, _UP + _DIG, 20), _s(r, _ALNUM + "+/", 40)
        ep = {"Wasabi": "s3.eu-central-1.wasabisys.com", "Minio": "http://%s:9000" % _ip(r),
              "Ceph": "https://rgw.%s" % _domain(r), "Scaleway": "s3.fr-par.scw.cloud"}[prov]
    name = prov.lower()
    txt = """[%s]
type = s3
provider = %s
access_key_id = %s
secret_access_key = %s
endpoint = %s
acl = private

[photos]
type = alias
remote = %s:%s-photos

[gdrive]
type = drive
scope = drive.readonly
root_folder_id = %s
""" % (name, prov, akid, sec, ep, name, _company(r), _s(r, _B64U, 33))
    if r.random() < 0.5:
        p = _prompt(r)
        txt = p + "rclone config file\nConfiguration file is stored at:\n/home/%s/.config/rclone/rclone.conf\n%scat ~/.config/rclone/rclone.conf\n" % (_user(r), p) + txt
    return txt, sec


@_pos("msmtprc", "smtp-password", "generic")
def _p_msmtp(r):
    pw = _pw(r, avoid=AV_INI + "\"")
    prov = r.choice([("smtp.fastmail.com", 465, "on"), ("smtp.gmail.com", 587, "off"), ("mail." + _domain(r), 587, "off"),
                     ("smtp.office365.com", 587, "off"), ("smtp.migadu.com", 465, "on")])
    user = _user(r) + "@" + _domain(r)
    txt = """# ~/.msmtprc
defaults
auth           on
tls            on
tls_trust_file /etc/ssl/certs/ca-certificates.crt
logfile        ~/.msmtp.log

account        personal
host           %s
port           %d
tls_starttls   %s
from           %s
user           %s
password       %s

account default : personal
""" % (prov[0], prov[1], "on" if prov[1] == 587 else "off", user, user, pw)
    return txt, pw


@_pos("git-credentials", "https-password", "generic")
def _p_gitcreds(r):
    pw = _pw(r, avoid=AV_URL)
    user = _user(r)
    host = r.choice(["git.", "bitbucket.", "gitea.", "scm.", "code."]) + _domain(r)
    p = _prompt(r)
    txt = """%sgit config --global --list | grep cred
credential.helper=store
%scat ~/.git-credentials
https://%s:%s@%s
%sgit fetch
fatal: Authentication failed for 'https://%s/%s/%s.git/'
""" % (p, p, user, pw, host, p, host, _company(r), _repo(r))
    return txt, pw


@_pos("pip-conf", "index-url-password", "generic")
def _p_pipconf(r):
    pw = _pw(r, avoid=AV_URL)
    user = r.choice(["ci", "pypi-reader", _user(r), "build"])
    host = r.choice(["nexus.", "artifactory.", "pypi.", "repo."]) + _domain(r)
    path = r.choice(["/repository/pypi-all/simple", "/artifactory/api/pypi/pypi-virtual/simple", "/simple/"])
    if r.random() < 0.5:
        txt = """[global]
index-url = https://%s:%s@%s%s
trusted-host = %s
timeout = 60
retries = 5

[install]
no-cache-dir = false
""" % (user, pw, host, path, host)
    else:
        txt = """# requirements.txt
--extra-index-url https://%s:%s@%s%s
django==4.2.%d
celery[redis]==5.3.%d
psycopg[binary]==3.1.%d
%s-client==%s
""" % (user, pw, host, path, r.randint(1, 14), r.randint(1, 6), r.randint(10, 19), _company(r), _ver(r))
    return txt, pw


@_pos("maven-settings-xml", "repository-password", "generic")
def _p_maven(r):
    pw = _pw(r, avoid=AV_XML)
    host = "nexus." + _domain(r)
    txt = """<?xml version="1.0" encoding="UTF-8"?>
<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0"
          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
          xsi:schemaLocation="http://maven.apache.org/SETTINGS/1.2.0 https://maven.apache.org/xsd/settings-1.2.0.xsd">
  <localRepository>${user.home}/.m2/repository</localRepository>
  <servers>
    <server>
      <id>%s-releases</id>
      <username>%s</username>
      <password>%s</password>
    </server>
    <server>
      <id>github</id>
      <username>${env.GITHUB_ACTOR}</username>
      <password>${env.GITHUB_TOKEN}</password>
    </server>
  </servers>
  <mirrors>
    <mirror>
      <id>central-proxy</id>
      <mirrorOf>central</mirrorOf>
      <url>https://%s/repository/maven-public/</url>
    </mirror>
  </mirrors>
  <profiles>
    <profile>
      <id>ci</id>
      <properties>
        <maven.test.failure.ignore>false</maven.test.failure.ignore>
      </properties>
    </profile>
  </profiles>
</settings>
""" % (_company(r), r.choice(["deployment", "ci-publisher", _user(r)]), pw, host)
    return txt, pw


@_pos("nuget-config", "cleartext-password", "generic")
def _p_nuget(r):
    pw = _pw(r, avoid=AV_XML)
    feed = _company(r).capitalize() + "Feed"
    txt = """<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" protocolVersion="3" />
    <add key="%s" value="https://pkgs.%s/nuget/%s/index.json" />
  </packageSources>
  <packageSourceCredentials>
    <%s>
      <add key="Username" value="%s" />
      <add key="ClearTextPassword" value="%s" />
    </%s>
  </packageSourceCredentials>
  <packageSourceMapping>
    <packageSource key="nuget.org">
      <package pattern="*" />
    </packageSource>
    <packageSource key="%s">
      <package pattern="%s.*" />
    </packageSource>
  </packageSourceMapping>
</configuration>
""" % (feed, _domain(r), r.choice(["internal", "v3", "release"]), feed, r.choice(["build-agent", _user(r)]), pw, feed, feed, _company(r).capitalize())
    return txt, pw


@_pos("docker-inspect", "container-env-password", "generic")
def _p_docker_inspect(r):
    pw = _pw(r, avoid=AV_JSON)
    kind = r.choice(["postgres", "mysql", "rabbitmq", "minio"])
    envs = {"postgres": (["POSTGRES_USER=app", "POSTGRES_DB=%s" % r.choice(_NOUN), "POSTGRES_PASSWORD=" + pw,
                          "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/postgresql/16/bin",
                          "GOSU_VERSION=1.17", "LANG=en_US.utf8", "PG_MAJOR=16", "PG_VERSION=16.%d-1.pgdg120+1" % r.randint(1, 4),
                          "PGDATA=/var/lib/postgresql/data"], "postgres:16", ["postgres"]),
            "mysql": (["MYSQL_ROOT_PASSWORD=" + pw, "MYSQL_DATABASE=%s" % r.choice(_NOUN),
                       "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "GOSU_VERSION=1.17",
                       "MYSQL_MAJOR=8.0", "MYSQL_VERSION=8.0.%d-1.el8" % r.randint(30, 39), "MYSQL_SHELL_VERSION=8.0.%d-1.el8" % r.randint(30, 39)], "mysql:8.0", ["mysqld"]),
            "rabbitmq": (["RABBITMQ_DEFAULT_USER=%s" % r.choice(["admin", "app"]), "RABBITMQ_DEFAULT_PASS=" + pw,
                          "PATH=/opt/rabbitmq/sbin:/opt/erlang/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                          "ERLANG_INSTALL_PATH_PREFIX=/opt/erlang", "OPENSSL_INSTALL_PATH_PREFIX=/opt/openssl",
                          "RABBITMQ_DATA_DIR=/var/lib/rabbitmq", "RABBITMQ_VERSION=3.13.%d" % r.randint(0, 7), "HOME=/var/lib/rabbitmq"], "rabbitmq:3-management", ["rabbitmq-server"]),
            "minio": (["MINIO_ROOT_USER=%s" % r.choice(["minioadmin", "admin", "storage"]), "MINIO_ROOT_PASSWORD=" + pw,
                       "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "MINIO_ACCESS_KEY_FILE=access_key",
                       "MINIO_SECRET_KEY_FILE=secret_key", "MINIO_CONFIG_ENV_FILE=config.env", "MC_CONFIG_DIR=/tmp/.mc"],
                      "minio/minio:RELEASE.2024-0%d-1%dT00-00-00Z" % (r.randint(1, 9), r.randint(0, 9)), ["server", "/data", "--console-address", ":9001"])}
    env, image, cmd = envs[kind]
    r.shuffle(env)
    created = _dt(r)
    d = [{"Id": _hex(r, 64), "Created": created.strftime("%Y-%m-%dT%H:%M:%S.") + "%09dZ" % r.randint(0, 10 ** 9 - 1),
          "Path": "docker-entrypoint.sh", "Args": cmd,
          "State": {"Status": "running", "Running": True, "Paused": False, "Restarting": False, "OOMKilled": False,
                    "Dead": False, "Pid": r.randint(1000, 90000), "ExitCode": 0, "Error": "",
                    "StartedAt": (created + timedelta(seconds=2)).strftime("%Y-%m-%dT%H:%M:%S.") + "%09dZ" % r.randint(0, 10 ** 9 - 1)},
          "Image": "sha256:" + _hex(r, 64), "Name": "/%s-%s-1" % (r.choice(_SERVICES), kind),
          "RestartCount": 0, "Driver": "overlay2", "Platform": "linux",
          "HostConfig": {"NetworkMode": "%s_default" % r.choice(_NOUN), "RestartPolicy": {"Name": "unless-stopped", "MaximumRetryCount": 0}},
          "Config": {"Hostname": _hex(r, 12), "User": "", "Env": env, "Cmd": cmd, "Image": image,
                     "WorkingDir": "", "Entrypoint": ["docker-entrypoint.sh"],
                     "Labels": {"com.docker.compose.project": r.choice(_NOUN), "com.docker.compose.service": kind,
                                "com.docker.compose.version": "2.2%d.%d" % (r.randint(0, 9), r.randint(0, 3))}}}]
    p = _prompt(r)
    return p + "docker inspect %s\n" % d[0]["Name"][1:] + json.dumps(d, indent=4) + "\n", pw


@_pos("kubectl-get-secret", "base64-password", "generic")
def _p_kubectl_secret(r):
    pw = _pw(r)
    enc = base64.b64encode(pw.encode()).decode()
    user = r.choice(["app", "postgres", "admin", "grafana"])
    name = r.choice(["db-credentials", "postgres-auth", "app-secrets", "grafana-admin", "redis-auth"])
    ns = r.choice(["default", "prod", "data", "monitoring", "payments"])
    created = _dt(r)
    p = _prompt(r)
    txt = """%skubectl get secret %s -n %s -o yaml
apiVersion: v1
data:
  password: %s
  username: %s
kind: Secret
metadata:
  creationTimestamp: "%s"
  labels:
    app.kubernetes.io/instance: %s
    app.kubernetes.io/part-of: %s
  name: %s
  namespace: %s
  resourceVersion: "%d"
  uid: %s
type: Opaque
""" % (p, name, ns, enc, base64.b64encode(user.encode()).decode(), created.strftime("%Y-%m-%dT%H:%M:%SZ"),
       r.choice(_SERVICES), r.choice(_NOUN), name, ns, r.randint(10 ** 5, 10 ** 8), _uuid(r))
    return txt, enc


@_pos("nomad-job-hcl", "hex-api-key", "generic")
def _p_nomad(r):
    key = _hex(r, r.choice([32, 48, 64]))
    svc = r.choice(_SERVICES)
    var = r.choice(["UPSTREAM_API_KEY", "PARTNER_KEY", "INGEST_KEY", "X_API_KEY", "GEOCODER_KEY", "INTERNAL_AUTH_KEY"])
    txt = """job "%s" {
  datacenters = ["%s"]
  type        = "service"

  group "app" {
    count = %d

    network {
      port "http" { to = 8080 }
    }

    service {
      name     = "%s"
      port     = "http"
      provider = "consul"
      check {
        type     = "http"
        path     = "/healthz"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "server" {
      driver = "docker"

      config {
        image = "registry.%s/%s:%s"
        ports = ["http"]
      }

      env {
        LOG_FORMAT = "json"
        %s = "%s"
        UPSTREAM_URL = "https://partner-api.%s/v1"
      }

      resources {
        cpu    = %d
        memory = %d
      }
    }
  }
}
""" % (svc, r.choice(["dc1", "eu-west", "fra", "home"]), r.randint(1, 6), svc, _domain(r), svc, _ver(r), var, key,
       _domain(r), r.choice([200, 500, 1000]), r.choice([128, 256, 512, 1024]))
    return txt, key


@_pos("consul-config", "gossip-encryption-key", "generic")
def _p_consul(r):
    key = _b64(r, 32)
    dc = r.choice(["dc1", "eu-central", "home", "aws-east"])
    if r.random() < 0.5:
        txt = """datacenter = "%s"
data_dir   = "/opt/consul"
encrypt    = "%s"
server     = true
bootstrap_expect = 3
retry_join = ["%s", "%s", "%s"]
bind_addr  = "{{ GetPrivateInterfaces | include \\"network\\" \\"10.0.0.0/8\\" | attr \\"address\\" }}"
client_addr = "0.0.0.0"

ui_config {
  enabled = true
}

tls {
  defaults {
    ca_file   = "/etc/consul.d/consul-agent-ca.pem"
    cert_file = "/etc/consul.d/%s-server-consul-0.pem"
    key_file  = "/etc/consul.d/%s-server-consul-0-key.pem"
    verify_incoming = true
    verify_outgoing = true
  }
}
""" % (dc, key, _ip(r), _ip(r), _ip(r), dc, dc)
    else:
        txt = json.dumps({"datacenter": dc, "data_dir": "/opt/consul", "log_level": "INFO", "node_name": _host(r),
                          "server": False, "encrypt": key, "retry_join": ["provider=aws tag_key=consul-role tag_value=server"],
                          "ports": {"grpc": 8502}, "connect": {"enabled": True}}, indent=2) + "\n"
    return txt, key


@_pos("terraform-state", "db-password", "generic")
def _p_tfstate(r):
    pw = _pw(r, avoid=AV_JSON + "/@ ")
    ident = r.choice(_SERVICES) + "-db"
    region = r.choice(["eu-west-1", "us-east-1", "eu-central-1"])
    acct = "%012d" % r.randint(10 ** 10, 10 ** 12 - 1)
    st = {"version": 4, "terraform_version": "1.%d.%d" % (r.randint(5, 9), r.randint(0, 5)), "serial": r.randint(3, 400),
          "lineage": _uuid(r), "outputs": {"db_endpoint": {"value": "%s.%s.%s.rds.amazonaws.com:5432" % (ident, _s(r, _LO + _DIG, 12), region), "type": "string"}},
          "resources": [{"mode": "managed", "type": "aws_db_instance", "name": "main",
                         "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
                         "instances": [{"schema_version": 2, "attributes": {
                             "allocated_storage": r.choice([20, 50, 100]), "arn": "arn:aws:rds:%s:%s:db:%s" % (region, acct, ident),
                             "backup_retention_period": 7, "db_name": ident.replace("-", "_"), "engine": "postgres",
                             "engine_version": "16.%d" % r.randint(1, 4), "identifier": ident, "instance_class": r.choice(["db.t4g.medium", "db.r6g.large"]),
                             "multi_az": r.choice([True, False]), "password": pw, "port": 5432, "publicly_accessible": False,
                             "storage_encrypted": True, "username": r.choice(["dbadmin", "postgres", "master"]),
                             "vpc_security_group_ids": ["sg-" + _hex(r, 17)]}, "sensitive_attributes": [],
                             "private": base64.b64encode(json.dumps({"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0": {"create": 2400000000000, "delete": 3600000000000, "update": 4800000000000}, "schema_version": "2"}, separators=(",", ":")).encode()).decode()}]}]}
    return json.dumps(st, indent=2) + "\n", pw


@_pos("ansible-vars", "become-password", "generic")
def _p_ansible(r):
    pw = _pw(r, avoid=AV_YAML)
    var = r.choice(["ansible_become_password", "ansible_become_pass", "mysql_root_password", "postgresql_admin_password", "ansible_password"])
    txt = """---
# group_vars/%s.yml
ansible_user: %s
%s: "%s"

timezone: Europe/%s
ntp_servers:
  - 0.pool.ntp.org
  - 1.pool.ntp.org

base_packages:
  - htop
  - curl
  - unattended-upgrades
  - fail2ban

sshd_permit_root_login: "no"
sshd_password_authentication: "no"

app_release: "%s"
app_port: %d
""" % (r.choice(["all", "webservers", "dbservers", "prod"]), r.choice(["deploy", "ansible", "ubuntu"]), var, pw,
       r.choice(["Berlin", "Amsterdam", "Madrid", "Warsaw"]), _ver(r), r.choice([8000, 8080, 3000]))
    return txt, pw


@_pos("curl-verbose", "basic-auth-header", "generic")
def _p_curl_basic(r):
    user = r.choice(["admin", "ci", "jenkins", _user(r), "api"])
    pw = _pw(r, avoid=":")
    enc = base64.b64encode(("%s:%s" % (user, pw)).encode()).decode()
    host = r.choice(["jenkins.", "registry.", "grafana.", "es.", "nexus."]) + _domain(r)
    ip = _ip(r)
    p = _prompt(r)
    txt = """%scurl -v --netrc-file ~/.netrc-ci https://%s/api/%s
*   Trying %s:443...
* Connected to %s (%s) port 443
* ALPN: curl offers h2,http/1.1
* TLSv1.3 (OUT), TLS handshake, Client hello (1):
* TLSv1.3 (IN), TLS handshake, Server hello (2):
* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384 / X25519 / RSASSA-PSS
* Server certificate:
*  subject: CN=%s
*  issuer: C=US; O=Let's Encrypt; CN=R11
*  SSL certificate verify ok.
* using HTTP/1.1
* Server auth using Basic with user '%s'
> GET /api/%s HTTP/1.1
> Host: %s
> Authorization: Basic %s
> User-Agent: curl/8.%d.%d
> Accept: */*
>
< HTTP/1.1 403 Forbidden
< Date: %s
< Content-Type: application/json
< Content-Length: %d
<
{"error":"insufficient permissions"}
* Connection #0 to host %s left intact
""" % (p, host, r.choice(["json", "v1/status", "health", "search"]), ip, host, ip, host, user,
       r.choice(["json", "v1/status"]), host, enc, r.randint(0, 9), r.randint(0, 9),
       _dt(r).strftime("%a, %d %b %Y %H:%M:%S GMT"), r.randint(30, 60), host)
    return txt, enc


@_pos("systemd-unit", "env-signing-secret", "generic")
def _p_systemd(r):
    var = r.choice(["SESSION_SECRET", "COOKIE_SIGNING_KEY", "APP_KEY", "HMAC_KEY", "WEBHOOK_SECRET", "JWT_SIGNING_KEY"])
    sec = _pw(r, style=r.choice(["b64", "urlsafe", "hex", "alnum"]), avoid=AV_DQ + " ")
    if var == "APP_KEY" and r.random() < 0.7:
        sec = "base64:" + _b64(r, 32)
    svc = r.choice(_SERVICES)
    txt = """# /etc/systemd/system/%s.service
[Unit]
Description=%s
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=%s
Group=%s
WorkingDirectory=/opt/%s
Environment="NODE_ENV=production"
Environment="PORT=%d"
Environment="%s=%s"
ExecStart=/usr/bin/node /opt/%s/dist/server.js
Restart=on-failure
RestartSec=5
LimitNOFILE=65536
NoNewPrivileges=true
ProtectSystem=strict
ReadWritePaths=/var/lib/%s

[Install]
WantedBy=multi-user.target
""" % (svc, svc.replace("-", " ").title(), svc, svc, svc, r.choice([3000, 8080, 8443]), var, sec, svc, svc)
    return txt, sec


@_pos("java-properties", "datasource-password", "generic")
def _p_props(r):
    pw = _pw(r, avoid="\\ \"")
    db = r.choice(_SERVICES).replace("-", "_")
    host = _host(r)
    style = r.choice(["spring", "quarkus", "kafka"])
    if style == "spring":
        txt = """spring.application.name=%s
server.port=8080
spring.datasource.url=jdbc:postgresql://%s:5432/%s?sslmode=require
spring.datasource.username=%s
spring.datasource.password=%s
spring.datasource.hikari.maximum-pool-size=%d
spring.jpa.hibernate.ddl-auto=validate
spring.jpa.open-in-view=false
spring.flyway.enabled=true
management.endpoints.web.exposure.include=health,info,prometheus
logging.level.org.hibernate.SQL=WARN
""" % (db, host, db, r.choice(["app", db]), pw, r.choice([10, 20, 30]))
    elif style == "quarkus":
        txt = """quarkus.http.port=8080
quarkus.datasource.db-kind=mysql
quarkus.datasource.username=%s
quarkus.datasource.password=%s
quarkus.datasource.jdbc.url=jdbc:mysql://%s:3306/%s
quarkus.hibernate-orm.database.generation=none
quarkus.log.console.json=true
%%dev.quarkus.log.level=DEBUG
""" % (r.choice(["app", "quarkus"]), pw, host, db)
    else:
        pw = _pw(r, avoid="\\ \";")
        txt = """bootstrap.servers=%s:9093,%s:9093
security.protocol=SASL_SSL
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";
ssl.truststore.location=/etc/kafka/truststore.jks
group.id=%s-consumers
auto.offset.reset=earliest
enable.auto.commit=false
""" % (_host(r), _host(r), r.choice(_SERVICES), pw, r.choice(_SERVICES))
    return txt, pw


@_pos("python-traceback", "connection-url-password", "generic")
def _p_traceback(r):
    pw = _pw(r, avoid=AV_URL)
    user = r.choice(["app", "etl", "celery", "worker"])
    host = r.choice(["db.internal", _host(r), _ip(r)])
    kind = r.choice(["pg", "amqp", "redis"])
    if kind == "pg":
        url = "postgresql+psycopg2://%s:%s@%s:5432/%s" % (user, pw, host, r.choice(_NOUN))
        code = '    engine = create_engine("%s", pool_pre_ping=True)' % url
        err = ['sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "%s" (%s), port 5432 failed: Connection refused' % (host, _ip(r)),
               "\tIs the server running on that host and accepting TCP/IP connections?", "",
               "(Background on this error at: https://sqlalche.me/e/20/e3q8)"]
        mod = "db.py"
        lib = "sqlalchemy/engine/base.py"
    elif kind == "amqp":
        url = "amqp://%s:%s@%s:5672/%s" % (user, pw, host, r.choice(["prod", "jobs", "%2F"]))
        code = '    app = Celery("tasks", broker="%s")' % url
        err = ["kombu.exceptions.OperationalError: [Errno 111] Connection refused"]
        mod = "tasks.py"
        lib = "kombu/connection.py"
    else:
        url = "redis://:%s@%s:6379/%d" % (pw, host, r.randint(0, 5))
        code = '    cache = redis.Redis.from_url("%s", socket_timeout=3)' % url
        err = ["redis.exceptions.ConnectionError: Error 110 connecting to %s:6379. Connection timed out." % host]
        mod = "cache.py"
        lib = "redis/connection.py"
    app = r.choice(_SERVICES).replace("-", "_")
    txt = """%s [ERROR] worker: startup failed
Traceback (most recent call last):
  File "/srv/%s/manage.py", line %d, in <module>
    main()
  File "/srv/%s/manage.py", line %d, in main
    bootstrap()
  File "/srv/%s/%s/%s", line %d, in bootstrap
%s
  File "/srv/%s/.venv/lib/python3.11/site-packages/%s", line %d, in connect
    return self._connect()
           ^^^^^^^^^^^^^^^
%s
""" % (_dt(r).strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % r.randint(0, 999), app, r.randint(10, 40), app, r.randint(10, 40),
       app, app, mod, r.randint(10, 90), code, app, lib,
       r.randint(100, 900), "\n".join(err))
    return txt, pw


@_pos("rust-code", "hmac-signing-key", "generic")
def _p_rust(r):
    style = r.choice(["bytes", "hex", "b64"])
    if style == "bytes":
        key = _pw(r, style=r.choice(["urlsafe", "alnum", "random"]), avoid="\"\\{}")
        decl = 'const WEBHOOK_SECRET: &[u8] = b"%s";' % key
        use = "WEBHOOK_SECRET"
    elif style == "hex":
        key = _hex(r, 64)
        decl = 'const WEBHOOK_SECRET_HEX: &str = "%s";' % key
        use = "&hex::decode(WEBHOOK_SECRET_HEX).expect(\"hex\")"
    else:
        key = _b64(r, 32)
        decl = 'const WEBHOOK_SECRET_B64: &str = "%s";' % key
        use = "&STANDARD.decode(WEBHOOK_SECRET_B64).expect(\"b64\")"
    code = """use axum::{body::Bytes, http::{HeaderMap, StatusCode}};
use base64::engine::{general_purpose::STANDARD, Engine};
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

%s

pub async fn receive(headers: HeaderMap, body: Bytes) -> StatusCode {
    let Some(sig) = headers.get("x-signature-256").and_then(|v| v.to_str().ok()) else {
        return StatusCode::UNAUTHORIZED;
    };
    let mut mac = HmacSha256::new_from_slice(%s).expect("key length");
    mac.update(&body);
    let expected = format!("sha256={}", hex::encode(mac.finalize().into_bytes()));
    if expected != sig {
        tracing::warn!(len = body.len(), "bad webhook signature");
        return StatusCode::UNAUTHORIZED;
    }
    StatusCode::NO_CONTENT
}
""" % (decl, use)
    return code, key


@_pos("csharp-code", "service-account-password", "generic")
def _p_csharp(r):
    pw = _pw(r, avoid=AV_SEMI + "{}")
    user = r.choice(["svc_backup", "svc-reports", "sqlapp", "sa", "etl_user"])
    if r.random() < 0.5:
        code = """using System.Net;
using System.Net.Mail;

namespace %s.Notifications;

public sealed class SmtpSender
{
    private readonly SmtpClient _client = new("smtp.%s", 587)
    {
        EnableSsl = true,
        Credentials = new NetworkCredential("%s", "%s", "%s"),
        Timeout = 10_000,
    };

    public Task SendAsync(string to, string subject, string body) =>
        _client.SendMailAsync(new MailMessage("reports@%s", to, subject, body));
}
""" % (_company(r).capitalize().replace("-", ""), _domain(r), user, pw, r.choice(["CORP", "AD", "EU"]), _domain(r))
    else:
        code = """using Microsoft.Data.SqlClient;

internal static class Db
{
    private const string ConnectionString =
        "Server=%s,1433;Database=%s;User Id=%s;Password=%s;TrustServerCertificate=True;Encrypt=True";

    public static async Task<int> CountOrdersAsync(DateTime since)
    {
        await using var conn = new SqlConnection(ConnectionString);
        await conn.OpenAsync();
        await using var cmd = new SqlCommand("SELECT COUNT(*) FROM dbo.Orders WHERE CreatedAt >= @since", conn);
        cmd.Parameters.AddWithValue("@since", since);
        return (int)(await cmd.ExecuteScalarAsync() ?? 0);
    }
}
""" % (_host(r), r.choice(_NOUN).capitalize(), user, pw)
    return code, pw


@_pos("ci-log-shell-trace", "password-in-xtrace", "generic")
def _p_ci_xtrace(r):
    pw = _pw(r, avoid=AV_SHQ + " \"$`;&|<>()")
    host = _host(r)
    flavor = r.choice(["jenkins", "circleci", "buildkite"])
    cmd = r.choice(["sshpass -p %s ssh -o StrictHostKeyChecking=no deploy@%s 'sudo systemctl restart app'" % (pw, host),
                    "mysql -h %s -u migrate -p%s -e 'source db/migrate.sql'" % (host, pw),
                    "lftp -u deploy,%s -e 'mirror -R dist /var/www/html; quit' sftp://%s" % (pw, host)])
    bn = r.randint(100, 9999)
    body = ["+ set -euo pipefail", "+ echo 'Deploying build %d'" % bn, "Deploying build %d" % bn,
            "+ ls dist", "assets  index.html  manifest.json", "+ " + cmd]
    if flavor == "jenkins":
        out = ["Started by user %s" % _person(r), "Running as SYSTEM",
               "[Pipeline] Start of Pipeline", "[Pipeline] node", "Running on agent-%02d in /var/lib/jenkins/workspace/%s" % (r.randint(1, 9), _repo(r)),
               "[Pipeline] {", "[Pipeline] stage", "[Pipeline] { (Deploy)", "[Pipeline] sh"] + body + \
              ["Warning: Permanently added '%s' (ED25519) to the list of known hosts." % host, "[Pipeline] }", "[Pipeline] // stage",
               "[Pipeline] End of Pipeline", "Finished: SUCCESS"]
    elif flavor == "circleci":
        out = ["#!/bin/bash -eo pipefail", "./scripts/deploy.sh"] + body + \
              ["Warning: Permanently added '%s' (ED25519) to the list of known hosts." % host, "",
               "CircleCI received exit code 0"]
    else:
        t = _dt(r)
        out = ["~~~ Preparing working directory", "$ cd /var/lib/buildkite-agent/builds/agent-%d/%s/%s" % (r.randint(1, 9), _company(r), _repo(r)),
               "~~~ Running commands", "$ ./scripts/deploy.sh"] + body + ["^^^ +++", "+++ :white_check_mark: deployed"]
        out = ["%s %s" % ((t + timedelta(seconds=i)).strftime("%Y-%m-%d %H:%M:%S UTC"), ln) for i, ln in enumerate(out)]
    return "\n".join(out) + "\n", pw


@_pos("chat-transcript", "passphrase", "generic")
def _p_chat_pass(r):
    pw = _pw(r, style=r.choice(["passphrase", "passphrase", "human"]), avoid="`*_")
    a, b = r.sample(_FIRST, 2)
    sysn = r.choice(["staging grafana", "the NAS", "router admin page", "old jenkins", "printer web ui", "the backup VM", "pfsense box"])
    user = r.choice(["admin", "root", "ops", "administrator"])
    d = _dt(r)
    txt = """%s  %s: does anyone have the login for %s? the SSO plugin broke after the upgrade
%s  %s: local account is %s / %s
%s  %s: it's in 1password too, "Infra - shared" vault
%s  %s: thanks, got in. I'll fix the oauth config and rotate it after
%s  %s: :+1:
""" % (d.strftime("%H:%M"), a, sysn, (d + timedelta(minutes=2)).strftime("%H:%M"), b, user, pw,
       (d + timedelta(minutes=2)).strftime("%H:%M"), b, (d + timedelta(minutes=9)).strftime("%H:%M"), a,
       (d + timedelta(minutes=10)).strftime("%H:%M"), b)
    return txt, pw


@_pos("sql-dump", "identified-by-password", "generic")
def _p_sqldump(r):
    pw = _pw(r, avoid=AV_SQL)
    db = r.choice(_SERVICES).replace("-", "_")
    user = r.choice(["app", "report", "readonly", db[:10]])
    d = _dt(r)
    if r.random() < 0.5:
        txt = """-- MySQL dump 10.13  Distrib 8.0.%d, for Linux (x86_64)
--
-- Host: localhost    Database: %s
-- ------------------------------------------------------
-- Server version\t8.0.%d

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!50503 SET NAMES utf8mb4 */;
/*!40103 SET TIME_ZONE='+00:00' */;

CREATE USER IF NOT EXISTS '%s'@'%%' IDENTIFIED BY '%s';
GRANT SELECT, INSERT, UPDATE, DELETE ON `%s`.* TO '%s'@'%%';

DROP TABLE IF EXISTS `customers`;
CREATE TABLE `customers` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `email` varchar(255) NOT NULL,
  `created_at` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uq_customers_email` (`email`)
) ENGINE=InnoDB AUTO_INCREMENT=%d DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;

LOCK TABLES `customers` WRITE;
INSERT INTO `customers` VALUES (1,'test@example.com','%s');
UNLOCK TABLES;

-- Dump completed on %s
""" % (r.randint(30, 39), db, r.randint(30, 39), user, pw, db, user, r.randint(100, 99999), d.strftime("%Y-%m-%d %H:%M:%S"), d.strftime("%Y-%m-%d %H:%M:%S"))
    else:
        txt = """--
-- PostgreSQL database dump
--

-- Dumped from database version 16.%d
-- Dumped by pg_dump version 16.%d

SET statement_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;

CREATE ROLE %s;
ALTER ROLE %s WITH NOSUPERUSER INHERIT NOCREATEROLE NOCREATEDB LOGIN NOREPLICATION NOBYPASSRLS PASSWORD '%s';

CREATE TABLE public.events (
    id bigint NOT NULL,
    kind text NOT NULL,
    payload jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE public.events OWNER TO %s;

--
-- PostgreSQL database dump complete
--
""" % (r.randint(1, 4), r.randint(1, 4), user, user, pw, user)
    return txt, pw


@_pos("helm-values", "redis-password", "generic")
def _p_helm(r):
    pw = _pw(r, avoid=AV_YAML)
    svc = r.choice(_SERVICES)
    chart = r.choice(["redis", "postgresql", "rabbitmq"])
    auth = {"redis": "redis:\n  architecture: standalone\n  auth:\n    enabled: true\n    password: \"%s\"\n  master:\n    persistence:\n      size: 8Gi" % pw,
            "postgresql": "postgresql:\n  auth:\n    username: %s\n    database: %s\n    postgresPassword: \"%s\"\n  primary:\n    persistence:\n      size: 20Gi" % (svc.split("-")[0], svc.replace("-", "_"), pw),
            "rabbitmq": "rabbitmq:\n  auth:\n    username: %s\n    password: \"%s\"\n    erlangCookieSecretName: rabbitmq-erlang-cookie\n  replicaCount: 3" % (svc.split("-")[0], pw)}[chart]
    txt = """# values-%s.yaml
replicaCount: %d

image:
  repository: ghcr.io/%s/%s
  tag: "%s"
  pullPolicy: IfNotPresent

service:
  type: ClusterIP
  port: 80

ingress:
  enabled: true
  className: nginx
  hosts:
    - host: %s.%s
      paths:
        - path: /
          pathType: Prefix

resources:
  requests:
    cpu: 100m
    memory: 256Mi
  limits:
    memory: 512Mi

%s
""" % (r.choice(["prod", "staging", "dev"]), r.randint(1, 5), _company(r), svc, _ver(r), svc, _domain(r), auth)
    return txt, pw



@_pos("telegraf-toml", "influxdb-token", "generic")
def _p_telegraf(r):
    tok = base64.urlsafe_b64encode(_bytes(r, 64)).decode()
    org = _company(r)
    txt = """# Telegraf Configuration
[global_tags]
  dc = "%s"
  role = "%s"

[agent]
  interval = "10s"
  round_interval = true
  metric_batch_size = 1000
  metric_buffer_limit = 10000
  flush_interval = "10s"
  hostname = "%s"
  omit_hostname = false

[[outputs.influxdb_v2]]
  urls = ["http://%s:8086"]
  token = "%s"
  organization = "%s"
  bucket = "%s"

[[inputs.cpu]]
  percpu = true
  totalcpu = true

[[inputs.disk]]
  ignore_fs = ["tmpfs", "devtmpfs", "overlay"]

[[inputs.mem]]

[[inputs.docker]]
  endpoint = "unix:///var/run/docker.sock"
""" % (r.choice(["fra1", "ams3", "home", "us-east"]), r.choice(["web", "db", "edge"]), _host(r), r.choice(["influxdb", _ip(r), "metrics.internal"]),
       tok, org, r.choice(["telegraf", "infra", "metrics"]))
    return txt, tok


@_pos("nginx-apache-conf", "proxy-api-key", "generic")
def _p_proxy_conf(r):
    key = _pw(r, style=r.choice(["alnum", "urlsafe", "hex"]), avoid="\"' ;$")
    hdr = r.choice(["X-Api-Key", "X-Auth-Token", "Api-Key", "X-Upstream-Key"])
    up = "%s:%d" % (_ip(r), r.choice([8080, 9000, 8443]))
    host = r.choice(["api", "partners", "legacy", "gw"]) + "." + _domain(r)
    if r.random() < 0.55:
        txt = """upstream legacy_backend {
    server %s max_fails=3 fail_timeout=10s;
    keepalive 16;
}

server {
    listen 443 ssl http2;
    server_name %s;

    ssl_certificate     /etc/letsencrypt/live/%s/fullchain.pem;
    ssl_certificate_key /etc/letsencrypt/live/%s/privkey.pem;

    access_log /var/log/nginx/%s.access.log main;

    location /v1/ {
        proxy_pass http://legacy_backend/;
        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header %s "%s";
        proxy_read_timeout 60s;
    }
}
""" % (up, host, host, host, host.split(".")[0], hdr, key)
    else:
        txt = """<VirtualHost *:443>
    ServerName %s
    SSLEngine on
    SSLCertificateFile /etc/ssl/certs/%s.pem
    SSLCertificateKeyFile /etc/ssl/private/%s.key

    ProxyPreserveHost On
    RequestHeader set %s "%s"
    ProxyPass        /api/ http://%s/api/
    ProxyPassReverse /api/ http://%s/api/

    ErrorLog ${APACHE_LOG_DIR}/%s-error.log
    CustomLog ${APACHE_LOG_DIR}/%s-access.log combined
</VirtualHost>
""" % (host, host, host, hdr, key, up, up, host.split(".")[0], host.split(".")[0])
    return txt, key

# ==========================================================================
# CLEANS -- hard negatives (no credential at all)
# ==========================================================================
_NPM_PKGS = ["lodash", "react", "react-dom", "express", "debug", "ms", "chalk", "semver", "uuid", "commander",
             "yargs", "axios", "tslib", "rxjs", "zod", "dotenv", "minimist", "glob", "picomatch", "esbuild",
             "@babel/core", "@babel/parser", "@types/node", "typescript", "postcss", "nanoid", "ws", "cookie"]
_GO_MODS = ["github.com/spf13/cobra", "github.com/stretchr/testify", "golang.org/x/sys", "golang.org/x/net",
            "github.com/google/uuid", "go.uber.org/zap", "github.com/rs/zerolog", "gopkg.in/yaml.v3",
            "github.com/prometheus/client_golang", "google.golang.org/grpc", "github.com/pkg/errors"]
_CRATES = ["serde", "serde_json", "tokio", "anyhow", "thiserror", "clap", "regex", "rand", "hyper", "bytes",
           "tracing", "itoa", "libc", "once_cell", "syn", "quote", "proc-macro2", "memchr", "log", "futures"]
_PYPKGS = ["requests", "urllib3", "idna", "certifi", "charset-normalizer", "django", "sqlparse", "asgiref",
           "celery", "kombu", "redis", "pydantic", "typing-extensions", "click", "jinja2", "markupsafe"]


def _integrity(r):
    return "sha512-" + _b64(r, 64)


@_clean("lockfiles-checksums")
def _c_lock(r):
    v = r.choice(["npm", "yarn", "gosum", "cargo", "pip", "poetry", "lfs"])
    if v == "npm":
        pk = {}
        for name in r.sample(_NPM_PKGS, r.randint(4, 8)):
            ver = _ver(r)
            base = name.split("/")[-1]
            pk["node_modules/" + name] = {"version": ver, "resolved": "https://registry.npmjs.org/%s/-/%s-%s.tgz" % (name, base, ver),
                                          "integrity": _integrity(r), "dev": r.choice([True, False]), "license": r.choice(["MIT", "ISC", "Apache-2.0"])}
        doc = {"name": _repo(r), "version": _ver(r), "lockfileVersion": 3, "requires": True,
               "packages": dict([("", {"name": "app", "version": "1.0.0"})] + list(pk.items()))}
        return json.dumps(doc, indent=2) + "\n"
    if v == "yarn":
        out = ["# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.", "# yarn lockfile v1", ""]
        for name in r.sample(_NPM_PKGS, r.randint(4, 8)):
            ver = _ver(r)
            out += ['"%s@^%s":' % (name, ver), '  version "%s"' % ver,
                    '  resolved "https://registry.yarnpkg.com/%s/-/%s-%s.tgz#%s"' % (name, name.split("/")[-1], ver, _sha(r)),
                    "  integrity " + _integrity(r), ""]
        return "\n".join(out)
    if v == "gosum":
        out = []
        for m in r.sample(_GO_MODS, r.randint(5, 9)):
            ver = "v" + _ver(r)
            out.append("%s %s h1:%s=" % (m, ver, _s(r, _B64, 43)))
            out.append("%s %s/go.mod h1:%s=" % (m, ver, _s(r, _B64, 43)))
        return "\n".join(out) + "\n"
    if v == "cargo":
        out = ["# This file is automatically @generated by Cargo.", "# It is not intended for manual editing.", "version = 3", ""]
        for c in sorted(r.sample(_CRATES, r.randint(4, 8))):
            out += ["[[package]]", 'name = "%s"' % c, 'version = "%s"' % _ver(r),
                    'source = "registry+https://github.com/rust-lang/crates.io-index"', 'checksum = "%s"' % _hex(r, 64), ""]
        return "\n".join(out)
    if v == "pip":
        out = ["#", "# This file is autogenerated by pip-compile with Python 3.12", "# by the following command:", "#",
               "#    pip-compile --generate-hashes requirements.in", "#"]
        for p in r.sample(_PYPKGS, r.randint(3, 6)):
            out.append("%s==%s \\" % (p, _ver(r)))
            for _ in range(r.randint(1, 3)):
                out.append("    --hash=sha256:%s \\" % _hex(r, 64))
            out[-1] = out[-1][:-2]
            out.append("    # via -r requirements.in")
        return "\n".join(out) + "\n"
    if v == "poetry":
        out = []
        for p in r.sample(_PYPKGS, r.randint(2, 4)):
            ver = _ver(r)
            out += ["[[package]]", 'name = "%s"' % p, 'version = "%s"' % ver, 'description = ""', 'optional = false',
                    'python-versions = ">=3.8"', "files = [",
                    '    {file = "%s-%s-py3-none-any.whl", hash = "sha256:%s"},' % (p.replace("-", "_"), ver, _hex(r, 64)),
                    '    {file = "%s-%s.tar.gz", hash = "sha256:%s"},' % (p, ver, _hex(r, 64)), "]", ""]
        out += ["[metadata]", 'lock-version = "2.0"', 'python-versions = "^3.11"', 'content-hash = "%s"' % _hex(r, 64)]
        return "\n".join(out) + "\n"
    p = _prompt(r)
    out = [p + "git lfs ls-files -l"]
    files = ["assets/%s.psd" % r.choice(_WORDS), "models/%s.onnx" % r.choice(_NOUN), "data/%s.parquet" % r.choice(_WORDS)]
    for f in files:
        out.append("%s - %s" % (_hex(r, 64), f))
    out += [p + "git show HEAD:%s" % files[0], "version https://git-lfs.github.com/spec/v1",
            "oid sha256:%s" % _hex(r, 64), "size %d" % r.randint(10 ** 5, 10 ** 9)]
    return "\n".join(out) + "\n"


@_clean("git-history")
def _c_git(r):
    v = r.choice(["log", "oneline", "show", "reflog", "rebase"])
    msgs = ["Fix race in token refresh", "Bump lodash from 4.17.20 to 4.17.21", "Add retry to webhook sender",
            "Remove hard-coded password from test fixtures", "Rotate signing key handling to use KMS",
            "Refactor auth middleware", "Update secrets documentation", "Merge pull request #%d from %s/%s" % (r.randint(100, 9999), _company(r), _branch(r)),
            "ci: cache npm", "chore(deps): update dependency eslint to v9", "Revert \"Enable new checkout\"",
            "docs: explain API_KEY env var", "feat: add password reset flow", "test: cover expired JWT case"]
    if v == "log":
        out = []
        for _ in range(r.randint(2, 5)):
            a = _person(r)
            out += ["commit %s" % _sha(r), "Author: %s <%s@%s>" % (a, a.split()[0].lower(), _domain(r)),
                    "Date:   %s" % (_dt(r).strftime("%a %b %d %H:%M:%S %Y") + " +0%d00" % r.randint(0, 2)), "",
                    "    " + r.choice(msgs), ""]
            if r.random() < 0.5:
                out += ["    Change-Id: I%s" % _sha(r), "    Signed-off-by: %s <%s@%s>" % (a, a.split()[0].lower(), _domain(r)), ""]
        return "\n".join(out)
    if v == "oneline":
        return "\n".join("%s %s" % (_hex(r, r.choice([7, 8, 9])), r.choice(msgs)) for _ in range(r.randint(6, 18))) + "\n"
    if v == "show":
        f = r.choice(["src/auth/token.ts", "internal/secrets/store.go", "app/models/user.rb", "lib/password.py"])
        return """commit %s
Author: %s <%s@%s>
Date:   %s

    %s

 %s | %d +++++++---
 1 file changed, %d insertions(+), %d deletions(-)

diff --git a/%s b/%s
index %s..%s 100644
--- a/%s
+++ b/%s
@@ -%d,7 +%d,9 @@
-  const token = process.env.API_TOKEN;
+  const token = process.env.API_TOKEN ?? "";
+  if (!token) {
+    throw new Error("API_TOKEN is not set");
+  }
""" % (_sha(r), _person(r), r.choice(_FIRST), _domain(r), _dt(r).strftime("%a %b %d %H:%M:%S %Y +0000"), r.choice(msgs),
       f, r.randint(5, 30), r.randint(3, 20), r.randint(1, 9), f, f, _hex(r, 7), _hex(r, 7), f, f, r.randint(10, 90), r.randint(10, 90))
    if v == "reflog":
        out = []
        for i in range(r.randint(6, 14)):
            out.append("%s HEAD@{%d}: %s" % (_hex(r, 7), i, r.choice(["commit: " + r.choice(msgs), "checkout: moving from main to " + _branch(r),
                                                                     "pull --rebase: Fast-forward", "rebase (finish): returning to refs/heads/main",
                                                                     "reset: moving to HEAD~1", "commit (amend): " + r.choice(msgs)])))
        return "\n".join(out) + "\n"
    out = []
    for _ in range(r.randint(3, 8)):
        out.append("%s %s %s" % (r.choice(["pick", "pick", "squash", "fixup", "reword"]), _hex(r, 7), r.choice(msgs)))
    out += ["", "# Rebase %s..%s onto %s (%d commands)" % (_hex(r, 7), _hex(r, 7), _hex(r, 7), len(out)), "#", "# Commands:",
            "# p, pick <commit> = use commit", "# r, reword <commit> = use commit, but edit the commit message",
            "# s, squash <commit> = use commit, but meld into previous commit"]
    return "\n".join(out) + "\n"


@_clean("container-digests")
def _c_digests(r):
    v = r.choice(["images", "pull", "imagetools", "podspec", "cosign"])
    p = _prompt(r)
    if v == "images":
        out = [p + "docker images --digests", "REPOSITORY                 TAG       DIGEST                                                                    IMAGE ID       CREATED        SIZE"]
        for _ in range(r.randint(3, 8)):
            out.append("%-26s %-9s sha256:%s   %s   %-14s %s" % (r.choice(["nginx", "postgres", "redis", "ghcr.io/%s/%s" % (_company(r), _repo(r)), "node", "python"]),
                                                          r.choice(["latest", "16", "7-alpine", _ver(r), "3.12-slim"]), _hex(r, 64), _hex(r, 12),
                                                          "%d days ago" % r.randint(1, 90), "%dMB" % r.randint(20, 900)))
        return "\n".join(out) + "\n"
    if v == "pull":
        img = r.choice(["nginx:1.27", "postgres:16", "python:3.12-slim", "node:20-alpine"])
        out = [p + "docker pull " + img, "%s: Pulling from library/%s" % (img.split(":")[1], img.split(":")[0])]
        for _ in range(r.randint(3, 7)):
            out.append("%s: Pull complete" % _hex(r, 12))
        out += ["Digest: sha256:%s" % _hex(r, 64), "Status: Downloaded newer image for %s" % img, "docker.io/library/%s" % img]
        return "\n".join(out) + "\n"
    if v == "imagetools":
        name = "ghcr.io/%s/%s:%s" % (_company(r), _repo(r), _ver(r))
        out = [p + "docker buildx imagetools inspect " + name, "Name:      " + name,
               "MediaType: application/vnd.oci.image.index.v1+json", "Digest:    sha256:" + _hex(r, 64), "", "Manifests:"]
        for plat in ["linux/amd64", "linux/arm64", "unknown/unknown"]:
            out += ["  Name:        %s@sha256:%s" % (name.rsplit(":", 1)[0], _hex(r, 64)),
                    "  MediaType:   application/vnd.oci.image.manifest.v1+json", "  Platform:    " + plat, ""]
        return "\n".join(out)
    if v == "podspec":
        return """spec:
  containers:
  - name: app
    image: ghcr.io/%s/%s@sha256:%s
    imagePullPolicy: IfNotPresent
  - name: envoy
    image: envoyproxy/envoy:v1.30.%d@sha256:%s
  initContainers:
  - name: migrate
    image: ghcr.io/%s/%s-migrate@sha256:%s
""" % (_company(r), _repo(r), _hex(r, 64), r.randint(1, 6), _hex(r, 64), _company(r), _repo(r), _hex(r, 64))
    d = _hex(r, 64)
    co, rp, tg = _company(r), _repo(r), _ver(r)
    return """%scosign triangulate ghcr.io/%s/%s:%s
ghcr.io/%s/%s:sha256-%s.sig
%scrane digest ghcr.io/%s/%s:%s
sha256:%s
%scrane ls ghcr.io/%s/%s | tail -4
%s
%s
sha256-%s.sig
sha256-%s.att
""" % (p, co, rp, tg, co, rp, d, p, co, rp, tg, d, p, co, rp, _ver(r), _ver(r), d, d)


@_clean("log-request-ids")
def _c_logs(r):
    v = r.choice(["json", "nginx", "lambda", "alb", "otel"])
    t = _dt(r)
    out = []
    svc = r.choice(_SERVICES)
    for _ in range(r.randint(5, 14)):
        t += timedelta(milliseconds=r.randint(1, 3000))
        if v == "json":
            out.append(json.dumps({"ts": t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % r.randint(0, 999), "level": r.choice(["info", "info", "warn", "error"]),
                                   "service": svc, "msg": r.choice(["request completed", "cache miss", "token refreshed", "upstream timeout", "auth ok"]),
                                   "trace_id": _hex(r, 32), "span_id": _hex(r, 16), "request_id": _uuid(r),
                                   "user_id": "usr_%s" % _s(r, _ALNUM, 14), "duration_ms": r.randint(1, 2000)}))
        elif v == "nginx":
            out.append('%s - - [%s] "%s %s HTTP/2.0" %d %d "-" "%s" rid=%s rt=%.3f' % (
                _ip(r), t.strftime("%d/%b/%Y:%H:%M:%S +0000"), r.choice(["GET", "POST"]),
                r.choice(["/api/v1/orders/%d" % r.randint(1, 99999), "/login", "/static/app.%s.js" % _hex(r, 8), "/healthz"]),
                r.choice([200, 200, 304, 401, 404, 502]), r.randint(0, 90000), r.choice(["curl/8.5.0", "Mozilla/5.0", "kube-probe/1.29"]), _hex(r, 32), r.uniform(0, 2)))
        elif v == "lambda":
            rid = _uuid(r)
            out += ["START RequestId: %s Version: $LATEST" % rid,
                    "%s\t%s\tINFO\tprocessed %d records" % (t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z", rid, r.randint(1, 500)),
                    "END RequestId: %s" % rid,
                    "REPORT RequestId: %s\tDuration: %.2f ms\tBilled Duration: %d ms\tMemory Size: 512 MB\tMax Memory Used: %d MB" % (rid, r.uniform(1, 900), r.randint(1, 900), r.randint(60, 300))]
        elif v == "alb":
            out.append('h2 %s app/%s/%s %s:%d %s:8080 0.001 %.3f 0.000 200 200 %d %d "GET https://api.%s:443/v1/items HTTP/2.0" "okhttp/4.12.0" - - arn:aws:elasticloadbalancing:eu-west-1:%012d:targetgroup/%s/%s "Root=1-%s-%s" "-" "-" 0 %s "forward" "-" "-"' % (
                t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), svc, _hex(r, 16), _ip(r), r.randint(1024, 65535), _ip(r), r.uniform(0, 1),
                r.randint(100, 900), r.randint(100, 90000), _domain(r), r.randint(10 ** 10, 10 ** 12 - 1), svc, _hex(r, 16), _hex(r, 8), _hex(r, 24),
                t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")))
        else:
            out.append("%s %s [%s,%s] %s - %s" % (t.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], r.choice(["INFO", "DEBUG", "WARN"]), _hex(r, 32), _hex(r, 16),
                                                 r.choice(["c.a.o.OrderController", "o.s.w.s.DispatcherServlet", "c.a.a.TokenValidator"]),
                                                 r.choice(["Completed 200 OK", "Validated bearer token for subject %s" % _uuid(r), "Cache hit for key order:%d" % r.randint(1, 10 ** 6)])))
    return "\n".join(out) + "\n"


def _png(r, w, h):
    col = bytes([r.getrandbits(8) for _ in range(3)])
    raw = b"".join(b"\x00" + (col if (y // 2) % 2 == 0 else bytes([255, 255, 255])) * w for y in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


@_clean("base64-harmless")
def _c_b64(r):
    v = r.choice(["datauri", "mime", "protobuf", "gzipjson", "echo"])
    if v == "datauri":
        png = base64.b64encode(_png(r, r.choice([8, 16, 24]), r.choice([8, 16, 24]))).decode()
        return """<!-- email footer -->
<table role="presentation" width="100%%">
  <tr>
    <td align="center">
      <img alt="%s logo" width="24" height="24"
           src="data:image/png;base64,%s" />
      <p style="color:#6b7280;font-size:12px">You are receiving this because you subscribed to %s updates.</p>
    </td>
  </tr>
</table>
""" % (_company(r), png, _company(r))
    if v == "mime":
        rows = ["id,sku,qty,price"] + ["%d,%s-%d,%d,%.2f" % (i, r.choice(_WORDS).upper(), r.randint(100, 999), r.randint(1, 40), r.uniform(1, 300)) for i in range(1, r.randint(5, 30))]
        b = _wrap(base64.b64encode(("\r\n".join(rows) + "\r\n").encode()).decode(), 76)
        bnd = "----=_Part_%d_%d.%d" % (r.randint(1, 99999), r.randint(10 ** 8, 10 ** 9), r.randint(10 ** 12, 10 ** 13))
        return """From: reports@%s
To: %s@%s
Subject: Weekly inventory export
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="%s"

--%s
Content-Type: text/plain; charset=UTF-8

Attached is this week's inventory export.

--%s
Content-Type: text/csv; name="inventory.csv"
Content-Transfer-Encoding: base64
Content-Disposition: attachment; filename="inventory.csv"

%s
--%s--
""" % (_domain(r), r.choice(_FIRST), _domain(r), bnd, bnd, bnd, b, bnd)
    if v == "protobuf":
        def pb(fields):
            out = b""
            for num, val in fields:
                if isinstance(val, int):
                    out += bytes([(num << 3) | 0])
                    while True:
                        bt = val & 0x7f
                        val >>= 7
                        if val:
                            out += bytes([bt | 0x80])
                        else:
                            out += bytes([bt])
                            break
                else:
                    vb = val.encode()
                    out += bytes([(num << 3) | 2, len(vb)]) + vb
            return out
        msgs = []
        for _ in range(r.randint(5, 8)):
            m = pb([(1, r.randint(1, 10 ** 6)), (2, r.choice(_SERVICES)), (3, r.choice(["OK", "RETRY", "FAILED"])), (4, int(_dt(r).timestamp()))])
            msgs.append({"offset": r.randint(10 ** 5, 10 ** 7), "partition": r.randint(0, 11), "key": _uuid(r), "value": base64.b64encode(m).decode()})
        return "$ kcat -C -b kafka:9092 -t job-events -o -%d -J -e\n" % len(msgs) + "\n".join(json.dumps(m) for m in msgs) + "\n"
    if v == "gzipjson":
        doc = json.dumps({"dashboard": r.choice(_SERVICES), "panels": [{"id": i, "type": r.choice(["graph", "stat", "table"]), "title": r.choice(_WORDS)} for i in range(r.randint(3, 8))], "refresh": "30s"})
        blob = base64.b64encode(zlib.compress(doc.encode())).decode()
        p = _prompt(r)
        return p + "curl -s https://grafana.%s/api/snapshots/%s | jq -r .blob\n" % (_domain(r), _s(r, _ALNUM, 32)) + \
            "# grafana dashboard snapshot (zlib+base64), decode with:\n#   python3 -c 'import base64,zlib,sys;print(zlib.decompress(base64.b64decode(sys.stdin.read())).decode())'\n" + \
            _wrap(blob, 100) + "\n" + p + "pbpaste | python3 -c 'import base64,zlib,sys;print(zlib.decompress(base64.b64decode(sys.stdin.read())).decode())' | jq -c '.panels[0]'\n" + \
            json.dumps(json.loads(doc)["panels"][0]) + "\n"
    txt = "\n".join(["server {", "  listen 80;", "  server_name %s;" % _domain(r), "  location / { proxy_pass http://127.0.0.1:%d; }" % r.choice([3000, 8080]), "}"])
    p = _prompt(r)
    return "%scat default.conf | base64 -w0\n%s\n%secho '%s' | base64 -d | head -2\nserver {\n  listen 80;\n" % (
        p, base64.b64encode(txt.encode()).decode(), p, base64.b64encode(txt.encode()).decode()[:40])


@_clean("public-keys-certs")
def _c_pub(r):
    v = r.choice(["authorized_keys", "known_hosts", "certchain", "spki", "fingerprints"])
    if v == "authorized_keys":
        out = ["# managed by ansible - do not edit", "# role: users, host group: %s" % r.choice(["web", "db", "bastion", "ci"])]
        for _ in range(r.randint(3, 7)):
            out.append(_ssh_pub(r, r.choice(["ed25519", "rsa", "ecdsa"]), "%s@%s" % (_user(r), r.choice(["laptop", "macbook", "ci", _host(r)]))))
        if r.random() < 0.5:
            out.append('command="/usr/local/bin/backup-only",no-port-forwarding,no-pty ' + _ssh_pub(r, "ed25519", "backup@nas"))
        return "\n".join(out) + "\n"
    if v == "known_hosts":
        out = []
        for _ in range(r.randint(5, 9)):
            host = r.choice(["|1|%s|%s" % (_b64(r, 20), _b64(r, 20)), "github.com", "gitlab.com", _ip(r), "[%s]:2222" % _host(r)])
            out.append(host + " " + _ssh_pub(r, r.choice(["ed25519", "rsa", "ecdsa"])))
        return "\n".join(out) + "\n"
    if v == "certchain":
        host = r.choice(["www", "api", "shop"]) + "." + _domain(r)
        return ("%sopenssl s_client -connect %s:443 -showcerts </dev/null 2>/dev/null | sed -n '/BEGIN/,/END/p'\n" % (_prompt(r), host)) + \
            _cert_pem(r, host) + "\n" + _cert_pem(r, "R11", issuer_cn="ISRG Root X1", org="Internet Security Research Group") + "\n"
    if v == "spki":
        mod = b"\x00" + bytes([0x80 | r.getrandbits(7)]) + _bytes(r, 255)
        rsapub = _seq(_der(0x02, mod), _der(0x02, b"\x01\x00\x01"))
        spki = _seq(_seq(bytes.fromhex("06092a864886f70d010101"), b"\x05\x00"), _der(0x03, b"\x00" + rsapub))
        return """# JWKS signing key for https://auth.%s (public half only, safe to share)
%s
""" % (_domain(r), _pem("PUBLIC KEY", base64.b64encode(spki).decode()))
    p = _prompt(r)
    out = [p + "for k in ~/.ssh/*.pub; do ssh-keygen -lf \"$k\"; done"]
    for k in ["id_ed25519", "id_rsa", "deploy_key"]:
        out.append("%d SHA256:%s %s@%s (%s)" % (r.choice([256, 3072, 4096]), _b64(r, 32).rstrip("="), _user(r), _host(r), r.choice(["ED25519", "RSA"])))
    out += [p + "ssh-keyscan -t ed25519 github.com 2>/dev/null | ssh-keygen -lf -",
            "256 SHA256:+DiY3wvvV6TuJJhbpZisF/zLDA0zPMSvHdkr4UvCOqU github.com (ED25519)"]
    return "\n".join(out) + "\n"


@_clean("placeholder-docs")
def _c_placeholder(r):
    v = r.choice(["readme", "envexample", "compose", "curl", "yamlcfg"])
    svc = _repo(r)
    if v == "readme":
        return """## Configuration

Create a `.env` file in the project root:

```bash
OPENAI_API_KEY=sk-...
GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX
AWS_SECRET_ACCESS_KEY=<your-secret-access-key>
DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME
```

Replace every placeholder with your own values. **Never commit the real `.env`.**

Then run:

```bash
export API_KEY="YOUR_API_KEY"
./%s --token "$API_KEY"
```
""" % svc
    if v == "envexample":
        return """# .env.example -- copy to .env and fill in
APP_ENV=local
APP_KEY=
DB_HOST=127.0.0.1
DB_PORT=5432
DB_DATABASE=%s
DB_USERNAME=postgres
DB_PASSWORD=changeme
REDIS_PASSWORD=null
MAIL_PASSWORD=
STRIPE_SECRET=sk_live_REPLACE_ME
SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXXXXXXXX/XXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX
JWT_SECRET=<generate with: openssl rand -base64 32>
""" % svc.replace("-", "_")
    if v == "compose":
        return """services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: ${DB_USER:-postgres}
      POSTGRES_PASSWORD: ${DB_PASSWORD:?set DB_PASSWORD in .env}
  app:
    image: %s:latest
    environment:
      API_TOKEN: "${API_TOKEN}"
      ADMIN_PASSWORD: "********"
      LICENSE_KEY: "xxxx-xxxx-xxxx-xxxx"
""" % svc
    if v == "curl":
        return """### Authentication

All requests need a bearer token:

```
curl https://api.%s/v1/me \\
  -H "Authorization: Bearer <YOUR_TOKEN>"
```

If you get `401 Unauthorized`, check that `<YOUR_TOKEN>` was replaced and has not expired.
Tokens look like `tok_` followed by 32 characters, e.g. `tok_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX`.
""" % _domain(r)
    return """# config.sample.yaml
server:
  port: %d
database:
  host: %s
  user: %s
  password: "<db-password>"   # TODO
smtp:
  username: "your-username"
  password: "your-password-here"
api:
  key: "REPLACE_WITH_API_KEY"
  secret: "${API_SECRET}"
""" % (r.choice([8080, 3000, 9000, 5000]), r.choice(["localhost", "db", "postgres", "127.0.0.1"]), r.choice(["app", svc.split("-")[0], "postgres"]))


@_clean("secret-references")
def _c_refs(r):
    v = r.choice(["k8s", "helm", "gha", "ecs", "vaultagent", "ansible", "terraform", "op"])
    svc = r.choice(_SERVICES)
    if v == "k8s":
        return """        env:
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef:
              name: %s-db
              key: password
        - name: API_TOKEN
          valueFrom:
            secretKeyRef:
              name: %s-api
              key: token
              optional: false
        envFrom:
        - configMapRef:
            name: %s-config
""" % (svc, svc, svc)
    if v == "helm":
        return """apiVersion: v1
kind: Secret
metadata:
  name: {{ include "%s.fullname" . }}
type: Opaque
data:
  password: {{ .Values.db.password | b64enc | quote }}
  apiKey: {{ required "apiKey is required" .Values.apiKey | b64enc }}
stringData:
  DATABASE_URL: "postgres://{{ .Values.db.user }}:{{ .Values.db.password }}@{{ .Values.db.host }}/{{ .Values.db.name }}"
""" % svc
    if v == "gha":
        return """      - name: Publish
        run: npm publish --access public
        env:
          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}
      - name: Deploy
        uses: appleboy/ssh-action@v1
        with:
          host: ${{ vars.DEPLOY_HOST }}
          username: deploy
          key: ${{ secrets.DEPLOY_SSH_KEY }}
          password: ${{ secrets.DEPLOY_PASSWORD }}
"""
    if v == "ecs":
        acct = "%012d" % r.randint(10 ** 10, 10 ** 12 - 1)
        return json.dumps({"containerDefinitions": [{"name": svc, "image": "%s.dkr.ecr.eu-west-1.amazonaws.com/%s:%s" % (acct, svc, _ver(r)),
                                                     "secrets": [{"name": "DB_PASSWORD", "valueFrom": "arn:aws:secretsmanager:eu-west-1:%s:secret:prod/%s/db-%s:password::" % (acct, svc, _s(r, _ALNUM, 6))},
                                                                 {"name": "API_KEY", "valueFrom": "arn:aws:ssm:eu-west-1:%s:parameter/prod/%s/api_key" % (acct, svc)}],
                                                     "environment": [{"name": "NODE_ENV", "value": "production"}]}]}, indent=2) + "\n"
    if v == "vaultagent":
        return """template {
  destination = "/etc/%s/app.env"
  contents = <<EOT
{{ with secret "secret/data/%s/prod" }}
DB_PASSWORD={{ .Data.data.db_password }}
API_TOKEN={{ .Data.data.api_token }}
{{ end }}
EOT
}
""" % (svc, svc)
    if v == "ansible":
        return """# group_vars/%s.yml
db_host: %s
db_user: %s
db_password: "{{ vault_db_password }}"
smtp_password: "{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/smtp:password') }}"
api_token: "{{ lookup('env', 'API_TOKEN') }}"
""" % (r.choice(["all", "prod", "web"]), _host(r), r.choice(["app", svc.split("-")[0]]))
    if v == "terraform":
        return """data "aws_secretsmanager_secret_version" "db" {
  secret_id = "prod/%s/db"
}

resource "aws_db_instance" "main" {
  identifier = "%s"
  username   = "dbadmin"
  password   = jsondecode(data.aws_secretsmanager_secret_version.db.secret_string)["password"]
}

variable "api_token" {
  type      = string
  sensitive = true
}
""" % (svc, svc)
    return """# .env.tpl resolved with `op inject -i .env.tpl -o .env`
DB_PASSWORD=op://Engineering/%s-db/password
STRIPE_SECRET_KEY=op://Engineering/stripe/credential
GITHUB_TOKEN={{ op://Private/GitHub PAT/token }}
""" % svc


@_clean("password-handling-code")
def _c_pwcode(r):
    body = _c_pwcode_body(r)
    if r.random() < 0.6:
        yr = r.randint(2016, 2024)
        hdr = "Copyright (c) %d-%d %s. All rights reserved." % (yr, yr + r.randint(0, 3), _company(r).capitalize())
        cm = "# " if ("def " in body and "{" not in body.split("\n")[0]) else "// "
        body = cm + hdr + "\n\n" + body
    return body


def _c_pwcode_body(r):
    v = r.choice(["flask", "express", "go", "java", "django", "getpass"])
    if v == "flask":
        return """@bp.route("/login", methods=["POST"])
def login():
    username = request.form["username"]
    password = request.form["password"]
    user = User.query.filter_by(username=username).first()
    if user is None or not check_password_hash(user.password_hash, password):
        flash("Invalid username or password")
        return redirect(url_for("auth.login"))
    login_user(user, remember=request.form.get("remember") == "on")
    return redirect(url_for("main.index"))
"""
    if v == "express":
        return """router.post("/register", async (req, res) => {
  const { email, password } = req.body;
  if (!password || password.length < 12) {
    return res.status(400).json({ error: "password too short" });
  }
  const passwordHash = await bcrypt.hash(password, 12);
  const user = await db.user.create({ data: { email, passwordHash } });
  const token = jwt.sign({ sub: user.id }, process.env.JWT_SECRET, { expiresIn: "1h" });
  res.json({ token });
});
"""
    if v == "go":
        return """func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	u, err := s.store.UserByEmail(r.Context(), req.Email)
	if err != nil || bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(req.Password)) != nil {
		http.Error(w, "invalid credentials", http.StatusUnauthorized)
		return
	}
	token := os.Getenv("SESSION_SIGNING_KEY")
	_ = token
}
"""
    if v == "java":
        return """@Bean
public PasswordEncoder passwordEncoder() {
    return new BCryptPasswordEncoder(%d);
}

public void changePassword(User user, String oldPassword, String newPassword) {
    if (!passwordEncoder.matches(oldPassword, user.getPassword())) {
        throw new BadCredentialsException("Old password does not match");
    }
    user.setPassword(passwordEncoder.encode(newPassword));
    %sRepository.save(user);
}
""" % (r.choice([10, 11, 12, 13, 14]), r.choice(["user", "account", "member"]))
    if v == "django":
        return """class SignupForm(forms.Form):
    email = forms.EmailField()
    password1 = forms.CharField(widget=forms.PasswordInput, label="Password")
    password2 = forms.CharField(widget=forms.PasswordInput, label="Repeat password")

    def clean(self):
        data = super().clean()
        if data.get("password1") != data.get("password2"):
            raise forms.ValidationError("Passwords do not match")
        password_validation.validate_password(data.get("password1"))
        return data

DB_PASSWORD = os.environ["DB_PASSWORD"]
API_TOKEN = os.getenv("API_TOKEN", "")
"""
    return """import getpass
import keyring

def get_credentials(service: str) -> tuple[str, str]:
    user = input("Username: ")
    password = keyring.get_password(service, user)
    if password is None:
        password = getpass.getpass("Password: ")
        keyring.set_password(service, user, password)
    return user, password
"""


@_clean("password-policy-text")
def _c_policy(r):
    v = r.choice(["doc", "pwquality", "json", "netaccounts", "keycloak"])
    n = r.choice([12, 14, 16])
    if v == "doc":
        return "<!-- last reviewed %s by %s -->\n" % (_dt(r).strftime("%Y-%m-%d"), _user(r)) + """## Password requirements

Passwords must:

* be at least %d characters long
* contain at least one uppercase letter, one lowercase letter, one digit and one symbol (e.g. `!@#$%%^&*`)
* not contain your username or email address
* not be one of your last %d passwords

Examples of **weak** passwords that will be rejected: `password`, `Password1`, `Summer2024!`, `qwerty123`.
Use a password manager to generate a random passphrase instead.
""" % (n, r.choice([5, 10, 24]))
    if v == "pwquality":
        return """# /etc/security/pwquality.conf
minlen = %d
difok = %d
retry = %d
dcredit = -1
ucredit = -1
lcredit = -1
ocredit = -1
maxrepeat = 3
dictcheck = 1
usercheck = 1
enforce_for_root
""" % (n, r.randint(3, 8), r.randint(1, 5))
    if v == "json":
        return json.dumps({"error": "validation_failed", "request_id": _uuid(r), "fields": {"password": ["Password must be at least %d characters." % n,
                                                                                "Password must include a number.", "Password is too common."]}}, indent=2) + "\n"
    if v == "netaccounts":
        return """C:\\> net accounts /domain
Force user logoff how long after time expires?:       Never
Minimum password age (days):                          1
Maximum password age (days):                          %d
Minimum password length:                              %d
Length of password history maintained:                24
Lockout threshold:                                    %d
Lockout duration (minutes):                           30
Lockout observation window (minutes):                 30
Computer role:                                        PRIMARY
The command completed successfully.
""" % (r.choice([42, 60, 90, 180, 365]), n, r.choice([3, 5, 10]))
    return """realm: %s
passwordPolicy: "length(%d) and upperCase(1) and lowerCase(1) and digits(1) and specialChars(1) and notUsername(undefined) and passwordHistory(5) and hashIterations(210000)"
bruteForceProtected: true
permanentLockout: false
maxFailureWaitSeconds: %d
minimumQuickLoginWaitSeconds: 60
waitIncrementSeconds: 60
failureFactor: %d
""" % (_company(r), n, r.choice([900, 1800, 3600]), r.choice([3, 5, 10]))


def _minid(r):
    return r.choice(_LO) + _s(r, _ALNUM + "_$", r.randint(0, 1))


@_clean("minified-js-html")
def _c_minjs(r):
    if r.random() < 0.35:
        out = ["<!doctype html>", "<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title>" % _company(r).capitalize()]
        for lib, ver in [("react", "18.3.1"), ("react-dom", "18.3.1"), ("bootstrap", "5.3.3")]:
            out.append('<script src="https://cdn.jsdelivr.net/npm/%s@%s/dist/%s.min.js" integrity="sha384-%s" crossorigin="anonymous"></script>' % (lib, ver, lib, _b64(r, 48)))
        out.append('<link rel="stylesheet" href="/static/css/main.%s.css">' % _hex(r, 8))
        out.append('<script defer="defer" src="/static/js/main.%s.js"></script></head>' % _hex(r, 8))
        out.append('<body><div id="root"></div></body></html>')
        return "\n".join(out) + "\n"
    chunkname = _repo(r).replace("-", "_")
    parts = ["/*! For license information please see %d.%s.chunk.js.LICENSE.txt */\n" % (r.randint(10, 999), _hex(r, 8)),
             "/* webpack %s | %s@%s | built %s */\n" % (_ver(r), chunkname, _ver(r), _dt(r).strftime("%Y-%m-%dT%H:%M:%SZ")),
             "/* %s */\n" % r.choice(["react-dom.production.min.js", "@license MIT", "lodash | lodash.com/license", "preact"]),
             '"use strict";(self.webpackChunk%s=self.webpackChunk%s||[]).push([[%d],{' % (chunkname, chunkname, r.randint(10, 999))]
    for _ in range(r.randint(4, 9)):
        a, b, c = _minid(r), _minid(r), _minid(r)
        parts.append('%d:(%s,%s,%s)=>{%s.d(%s,{Z:()=>%s});var %s=%s(%d),%s="%s",%s=function(e){return e&&e.__esModule?e:{default:e}};'
                     'const %s=(0,%s.createContext)({token:null,setToken:()=>{}});' % (
                         r.randint(1000, 99999), a, b, c, c, b, a, a, c, r.randint(1000, 99999), _minid(r), _s(r, _ALNUM, r.randint(6, 24)), _minid(r), _minid(r), a))
        parts.append('},' + ("\n" if r.random() < 0.3 else ""))
    parts.append('}]);')
    chunks = ",".join('%d:"%s"' % (r.randint(10, 999), _hex(r, 8)) for _ in range(r.randint(4, 10)))
    parts.append('\n!function(){var e={},t={%s};__webpack_require__.u=function(e){return"static/js/"+e+"."+t[e]+".chunk.js"}}();' % chunks)
    parts.append("\n//# sourceMappingURL=main.%s.js.map\n" % _hex(r, 8))
    return "".join(parts)


@_clean("css-colors-fonts")
def _c_css(r):
    def col():
        return "#" + _hex(r, r.choice([3, 6, 6, 6, 8]))
    out = [":root {"]
    for name in r.sample(["primary", "secondary", "accent", "bg", "fg", "muted", "border", "danger", "success", "warning", "link", "focus"], r.randint(5, 10)):
        out.append("  --color-%s: %s;" % (name, col()))
    out.append("}")
    for sel in r.sample([".btn", ".card", ".navbar", ".alert-danger", "a:hover", ".badge", "pre code", ".modal-backdrop", ".toast"], r.randint(3, 6)):
        out += ["%s {" % sel, "  color: %s;" % col(), "  background: linear-gradient(135deg, %s 0%%, %s 100%%);" % (col(), col()),
                "  border: 1px solid %s;" % col(), "  box-shadow: 0 1px 2px rgba(%d, %d, %d, .%d);" % (r.randint(0, 255), r.randint(0, 255), r.randint(0, 255), r.randint(1, 9)), "}"]
    if r.random() < 0.5:
        svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path fill="%s" d="M%d %dl%d %dL%d %dz"/></svg>' % (col(), r.randint(0, 8), r.randint(0, 8), r.randint(1, 8), r.randint(1, 8), r.randint(0, 16), r.randint(0, 16))
        out.append(".icon-check { background-image: url(data:image/svg+xml;base64,%s); }" % base64.b64encode(svg.encode()).decode())
    else:
        out += ["@font-face {", "  font-family: \"%s Sans\";" % r.choice(_NOUN).capitalize(), "  font-display: swap;",
                "  src: url(data:font/woff2;base64,d09GMgABAAAAA%s) format(\"woff2\");" % _b64(r, r.randint(120, 400)).rstrip("="), "}"]
    return "\n".join(out) + "\n"


def _xxd(data, base=0):
    out = []
    for i in range(0, len(data), 16):
        chunk = data[i:i + 16]
        hx = " ".join(chunk[j:j + 2].hex() for j in range(0, len(chunk), 2))
        asc = "".join(chr(c) if 32 <= c < 127 else "." for c in chunk)
        out.append("%08x: %-39s  %s" % (base + i, hx, asc))
    return out


def _hexdumpC(data, base=0):
    out = []
    for i in range(0, len(data), 16):
        chunk = data[i:i + 16]
        h1 = " ".join("%02x" % c for c in chunk[:8])
        h2 = " ".join("%02x" % c for c in chunk[8:])
        asc = "".join(chr(c) if 32 <= c < 127 else "." for c in chunk)
        out.append("%08x  %-23s  %-23s  |%s|" % (base + i, h1, h2, asc))
    out.append("%08x" % (base + len(data)))
    return out


@_clean("hex-dumps")
def _c_hex(r):
    kind = r.choice(["elf", "png", "gzip", "random", "tls"])
    if kind == "elf":
        data = b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x03\x00\x3e\x00\x01\x00\x00\x00" + _bytes(r, 8) + b"\x40" + b"\x00" * 7 + _bytes(r, 8 + 16 * r.randint(2, 10))
        fname = "./" + r.choice(_SERVICES)
    elif kind == "png":
        data = _png(r, 4, 4) + _bytes(r, 16 * r.randint(3, 6))
        fname = "icon.png"
    elif kind == "gzip":
        data = b"\x1f\x8b\x08\x00" + _bytes(r, 4) + b"\x00\x03" + _bytes(r, 16 * r.randint(3, 10))
        fname = "backup.tar.gz"
    elif kind == "tls":
        data = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + _bytes(r, 32) + b"\x20" + _bytes(r, 32) + b"\x00\x3e\x13\x02\x13\x03\x13\x01" + _bytes(r, 32)
        fname = "capture.bin"
    else:
        data = _bytes(r, 16 * r.randint(5, 12))
        fname = "/dev/urandom"
    p = _prompt(r)
    if r.random() < 0.5:
        return p + "xxd -l %d %s\n" % (len(data), fname) + "\n".join(_xxd(data)) + "\n"
    return p + "hexdump -C %s | head -%d\n" % (fname, len(data) // 16 + 1) + "\n".join(_hexdumpC(data)) + "\n"


@_clean("nonsecret-identifiers")
def _c_ids(r):
    v = r.choice(["s3", "kubectl", "aws-ids", "stripe-objs", "tracking", "webpack", "sentry"])
    p = _prompt(r)
    if v == "s3":
        out = [p + "aws s3api list-objects-v2 --bucket %s-assets --max-items 4 --query 'Contents[].[Key,ETag,Size]' --output text" % _company(r)]
        for _ in range(4):
            etag = _hex(r, 32) + (("-%d" % r.randint(2, 40)) if r.random() < 0.3 else "")
            out.append("%s\t\"%s\"\t%d" % ("releases/%s/%s.tar.gz" % (_ver(r), _repo(r)), etag, r.randint(10 ** 4, 10 ** 9)))
        return "\n".join(out) + "\n"
    if v == "kubectl":
        out = [p + "kubectl get pods -o custom-columns=NAME:.metadata.name,UID:.metadata.uid,NODE:.spec.nodeName,IP:.status.podIP",
               "NAME                                  UID                                    NODE                          IP"]
        for _ in range(r.randint(3, 7)):
            out.append("%-37s %s   ip-%s.ec2.internal   %s" % ("%s-%s-%s" % (r.choice(_SERVICES), _s(r, _LO + _DIG, 10), _s(r, _LO + _DIG, 5)), _uuid(r),
                                                            _ip(r).replace(".", "-"), _ip(r)))
        return "\n".join(out) + "\n"
    if v == "aws-ids":
        return json.dumps({"Reservations": [{"ReservationId": "r-0" + _hex(r, 16), "OwnerId": "%012d" % r.randint(10 ** 10, 10 ** 12 - 1),
                                             "Instances": [{"InstanceId": "i-0" + _hex(r, 16), "ImageId": "ami-0" + _hex(r, 16), "SubnetId": "subnet-0" + _hex(r, 16),
                                                            "VpcId": "vpc-0" + _hex(r, 16), "SecurityGroups": [{"GroupId": "sg-0" + _hex(r, 16), "GroupName": "web"}],
                                                            "NetworkInterfaces": [{"NetworkInterfaceId": "eni-0" + _hex(r, 16), "MacAddress": ":".join(_hex(r, 2) for _ in range(6))}],
                                                            "ClientToken": _uuid(r), "State": {"Name": "running"}}]}]}, indent=2) + "\n"
    if v == "stripe-objs":
        return json.dumps({"id": "pi_3" + _s(r, _ALNUM, 23), "object": "payment_intent", "amount": r.randint(100, 99999), "currency": "eur",
                           "customer": "cus_" + _s(r, _ALNUM, 14), "latest_charge": "ch_3" + _s(r, _ALNUM, 23),
                           "payment_method": "pm_1" + _s(r, _ALNUM, 23), "status": "succeeded", "livemode": True,
                           "metadata": {"order_id": str(r.randint(10 ** 5, 10 ** 7))}}, indent=2) + "\n"
    if v == "tracking":
        out = ["Order #%d shipped!" % r.randint(10 ** 5, 10 ** 7), ""]
        out.append("UPS tracking: 1Z%s%s" % (_s(r, _UP + _DIG, 6), _s(r, _DIG, 10)))
        out.append("DHL Express waybill: %s" % _s(r, _DIG, 10))
        out.append("Track: https://www.ups.com/track?tracknum=1Z%s%s" % (_s(r, _UP + _DIG, 6), _s(r, _DIG, 10)))
        out.append("Reference: %s-%s" % (_s(r, _UP, 3), _s(r, _UP + _DIG, 12)))
        return "\n".join(out) + "\n"
    if v == "webpack":
        return json.dumps({"files": {"main.css": "/static/css/main.%s.css" % _hex(r, 8), "main.js": "/static/js/main.%s.js" % _hex(r, 8),
                                     "static/js/%d.%s.chunk.js" % (r.randint(10, 999), _hex(r, 8)): "/static/js/%d.%s.chunk.js" % (r.randint(10, 999), _hex(r, 8)),
                                     "static/media/logo.%s.svg" % _hex(r, 20): "/static/media/logo.%s.svg" % _hex(r, 20)},
                           "entrypoints": ["static/css/main.%s.css" % _hex(r, 8), "static/js/main.%s.js" % _hex(r, 8)]}, indent=2) + "\n"
    return """Sentry Issue: %s-%s
Event ID: %s
Release: %s@%s+%s
Trace: %s
TypeError: Cannot read properties of undefined (reading 'map')
  at renderList (webpack-internal:///./src/List.tsx:%d:%d)
""" % (r.choice(_SERVICES).upper(), _s(r, _UP + _DIG, 3), _hex(r, 32), r.choice(_SERVICES), _ver(r), _hex(r, 7), _hex(r, 32), r.randint(1, 200), r.randint(1, 80))


@_clean("crypto-test-vectors")
def _c_vectors(r):
    v = r.choice(["sha", "hmac", "pbkdf2", "aes", "ed25519", "totp", "hkdf"])
    if v == "sha":
        msgs = [""] + ["abc"] + [" ".join(r.sample(_WORDS, r.randint(1, 4))) for _ in range(r.randint(2, 4))]
        alg = r.choice(["sha256", "sha512", "sha1", "blake2b"])
        out = ["var %sTests = []struct {" % alg, "\tin   string", "\twant string", "}{"]
        for m in msgs:
            out.append('\t{"%s", "%s"},' % (m, hashlib.new(alg, m.encode()).hexdigest()))
        out.append("}")
        return "\n".join(out) + "\n"
    if v == "hmac":
        cases = [(b"\x0b" * 20, b"Hi There"), (b"Jefe", b"what do ya want for nothing?"), (b"\xaa" * 20, b"\xdd" * 50)]
        fn = r.choice(["hmac_sha256", "mac", "compute_hmac", "sign"])
        out = ["# RFC 4231 HMAC-SHA-256 test cases", "@pytest.mark.parametrize(\"key,data,expected\", ["]
        for k, d in cases:
            out.append("    (bytes.fromhex(\"%s\"), bytes.fromhex(\"%s\"), \"%s\")," % (k.hex(), d.hex(), hmac.new(k, d, hashlib.sha256).hexdigest()))
        out += ["])", "def test_%s(key, data, expected):" % fn, "    assert %s(key, data).hex() == expected" % fn]
        return "\n".join(out) + "\n"
    if v == "pbkdf2":
        out = ["/* %s: regression vectors, see issue #%d */" % (r.choice(["kdf_test.c", "pbkdf2_selftest.c", "test_kdf.c"]), r.randint(10, 4000)),
               "/* RFC 6070 PBKDF2-HMAC-SHA1 test vectors */", "static const struct { const char *p, *s; unsigned c; const char *dk; } vectors[] = {"]
        for c in [1, 2, 4096]:
            out.append('    { "password", "salt", %d, "%s" },' % (c, hashlib.pbkdf2_hmac("sha1", b"password", b"salt", c, 20).hex()))
        out.append('    { "passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, "%s" },' %
                   hashlib.pbkdf2_hmac("sha1", b"passwordPASSWORDpassword", b"saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25).hex())
        out.append("};")
        return "\n".join(out) + "\n"
    if v == "aes":
        if r.random() < 0.5:
            return "\n".join("%s,%s,%s" % row for row in [("key", "plaintext", "ciphertext"),
                ("000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"),
                ("000102030405060708090a0b0c0d0e0f1011121314151617", "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191"),
                ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089")][:r.randint(2, 4)]) + "\n" + \
                "# source: FIPS-197 Appendix C (AES-128/192/256)\n# used by %s for known-answer tests\n# mode: ECB, single block\n" % r.choice(["test_aes.py", "aes_test.go", "AesKatTest.java", "kat.rs"])
        return "# known-answer tests for %s (added in %s)\n" % (r.choice(["aes.c", "cipher/aes.go", "crypto/aes.rs", "AesEngine.java"]), _hex(r, 7)) + """# FIPS-197 Appendix C example vectors
PLAINTEXT = "00112233445566778899aabbccddeeff"
AES128_KEY = "000102030405060708090a0b0c0d0e0f"
AES128_CT  = "69c4e0d86a7b0430d8cdb78070b4c55a"
AES192_KEY = "000102030405060708090a0b0c0d0e0f1011121314151617"
AES192_CT  = "dda97ca4864cdfe06eaf70a0ec0d7191"
AES256_KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
AES256_CT  = "8ea2b7ca516745bfeafc49904b496089"
"""
    if v == "ed25519":
        return json.dumps({"source": "RFC 8032 section 7.1, TEST 1", "retrieved": _dt(r).strftime("%Y-%m-%d"), "algorithm": "Ed25519",
                           "secret_key": "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
                           "public_key": "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
                           "message": "",
                           "signature": "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"}, indent=2) + "\n"
    if v == "totp":
        seed = b"12345678901234567890"
        out = ["// RFC 6238 Appendix B (SHA1), seed = ASCII \"12345678901234567890\"", "const cases = ["]
        for t in sorted(r.sample([59, 1111111109, 1111111111, 1234567890, 2000000000, 20000000000], r.randint(3, 6))):
            mac = hmac.new(seed, struct.pack(">Q", t // 30), hashlib.sha1).digest()
            o = mac[-1] & 0xf
            code = (struct.unpack(">I", mac[o:o + 4])[0] & 0x7fffffff) % 10 ** 8
            out.append("  { time: %d, otp: \"%08d\" }," % (t, code))
        out.append("];")
        return "\n".join(out) + "\n"
    ikm, salt, info = b"\x0b" * 22, bytes(range(13)), bytes(range(0xf0, 0xfa))
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    okm, tb, i = b"", b"", 1
    while len(okm) < 42:
        tb = hmac.new(prk, tb + info + bytes([i]), hashlib.sha256).digest()
        okm += tb
        i += 1
    return "# copied into %s on %s\n" % (r.choice(["hkdf_test.py", "kdf.spec.ts", "hkdf_test.go"]), _dt(r).strftime("%Y-%m-%d")) + """RFC 5869 A.1 (HKDF-SHA256)
IKM  = 0x%s
salt = 0x%s
info = 0x%s
L    = 42
PRK  = 0x%s
OKM  = 0x%s
""" % (ikm.hex(), salt.hex(), info.hex(), prk.hex(), okm[:42].hex())


@_clean("prose-about-tokens")
def _c_prose(r):
    v = r.choice(["postmortem", "blog", "review", "faq"])
    d = _dt(r).strftime("%Y-%m-%d")
    if v == "postmortem":
        return """# Incident %s: leaked CI token

## Summary
On %s a GitHub personal access token (prefix `ghp_`) belonging to the release bot was printed in a
public build log. Secret scanning alerted within 4 minutes and the token was revoked at %02d:%02d UTC.

## Impact
No evidence of misuse. Audit log shows no API calls from unknown IPs.

## Action items
- [x] Rotate the token and move it to the org-level secret store
- [x] Mask all values from `secrets.*` in custom scripts
- [ ] Replace long-lived PATs with a GitHub App installation token (expires after 1 hour)
- [ ] Add a pre-commit hook that blocks strings starting with `AKIA`, `xoxb-` and `-----BEGIN`
""" % (d, d, r.randint(0, 23), r.randint(0, 59))
    if v == "blog":
        return "By %s, %s\n\n" % (_person(r), d) + """Why we moved from API keys to short-lived tokens

For years every integration used a static API key that never expired. Keys ended up in wikis,
Slack threads and shell history. Today each service exchanges its workload identity for an
access token that lives for 15 minutes. The token is a signed JWT, so the gateway can verify
it without a database lookup, and rotation of the signing key is automatic.

If you still have a long-lived key, please open a ticket and we will help you migrate. Do not
paste the key into the ticket -- the last four characters are enough for us to find it.
"""
    if v == "review":
        return "Review of PR #%d by @%s\n\n" % (r.randint(100, 9999), _user(r)) + """> src/config/loader.ts line 42
> `const password = cfg.password || process.env.DB_PASSWORD;`

This falls back to the env var silently. I'd rather fail fast if neither is set, otherwise we
connect with an empty password to the local dev database and tests pass for the wrong reason.
Also please don't log `cfg` below, it contains the password and the API token after merge.

> tests/fixtures/users.json

The bcrypt hashes here are fine to commit, they are for the fixture passwords only.
"""
    return "# %s API FAQ (updated %s)\n\n" % (_company(r).capitalize(), d) + """Q: Where do I find my API key?
A: Go to Settings -> API and click "Generate key". The key is shown once. If you lose it, revoke it
   and generate a new one. Keys start with the prefix `live_` for production and `test_` for sandbox.

Q: Can I use the same token in several CI pipelines?
A: You can, but we recommend one token per pipeline so you can revoke them independently.

Q: Is my password stored in plain text?
A: No. Passwords are hashed with Argon2id; support staff can never see them.
"""


@_clean("password-prompt-commands")
def _c_prompts(r):
    user = _user(r).split(".")[0]
    host = _host(r)
    p = _prompt(r, user=user, host=host)
    blocks = [
        [p + "mysql -u root -p", "Enter password: ", "Welcome to the MySQL monitor.  Commands end with ; or \\g.",
         "Your MySQL connection id is %d" % r.randint(10, 9999), "mysql> exit", "Bye"],
        [p + "psql -h %s -U postgres -W" % host, "Password: ", "psql (16.%d)" % r.randint(1, 4), "Type \"help\" for help.", "", "postgres=# \\q"],
        [p + "sudo systemctl restart nginx", "[sudo] password for %s: " % user],
        [p + "ssh admin@%s" % _ip(r), "admin@%s's password: " % _ip(r), "Permission denied, please try again."],
        [p + "docker login registry.%s" % _domain(r), "Username: %s" % user, "Password: ", "Login Succeeded"],
        [p + "htpasswd -c /etc/nginx/.htpasswd %s" % user, "New password: ", "Re-type new password: ", "Adding password for user %s" % user],
        [p + "openssl genrsa -aes256 -out server.key 4096", "Enter PEM pass phrase:", "Verifying - Enter PEM pass phrase:"],
        [p + "read -rsp 'Vault password: ' VAULT_PASS; echo", "Vault password: ", p + "ansible-playbook site.yml --vault-password-file <(echo \"$VAULT_PASS\")"],
        [p + "kinit %s@%s" % (user, _company(r).upper().replace("-", "") + ".LOCAL"), "Password for %s@%s: " % (user, "CORP.LOCAL")],
        [p + "redis-cli -h %s --askpass" % host, "Please input password: ", "%s:6379> PING" % host, "PONG"],
    ]
    out = []
    for b in r.sample(blocks, r.randint(2, 4)):
        out += b
    return "\n".join(out) + "\n"


@_clean("masked-values")
def _c_masked(r):
    v = r.choice(["gha", "awslist", "tfplan", "describe", "ui", "redacted"])
    if v == "gha":
        return """Run echo "Using registry $REGISTRY"
  echo "Using registry $REGISTRY"
  docker login -u "$REG_USER" -p "$REG_PASS" "$REGISTRY"
  shell: /usr/bin/bash -e {0}
  env:
    REGISTRY: ghcr.io
    REG_USER: ***
    REG_PASS: ***
Using registry ghcr.io
WARNING! Using --password via the CLI is insecure. Use --password-stdin.
Login Succeeded
"""
    if v == "awslist":
        return """$ aws configure list
      Name                    Value             Type    Location
      ----                    -----             ----    --------
   profile                <not set>             None    None
access_key     ****************%s shared-credentials-file
secret_key     ****************%s shared-credentials-file
    region                eu-west-1      config-file    ~/.aws/config
""" % (_s(r, _UP + _DIG, 4), _s(r, _ALNUM, 4))
    if v == "tfplan":
        return """  # aws_db_instance.main will be updated in-place
  ~ resource "aws_db_instance" "main" {
        id                    = "%s"
      ~ password              = (sensitive value)
        tags                  = {}
        # (47 unchanged attributes hidden)
    }

Plan: 0 to add, 1 to change, 0 to destroy.

Changes to Outputs:
  ~ db_connection_string = (sensitive value)
""" % (r.choice(_SERVICES) + "-db")
    if v == "describe":
        return """$ kubectl describe secret %s
Name:         %s
Namespace:    default
Labels:       <none>
Annotations:  <none>

Type:  Opaque

Data
====
password:  %d bytes
username:  %d bytes
api-key:   %d bytes
""" % (r.choice(_SERVICES), r.choice(_SERVICES), r.randint(12, 40), r.randint(3, 10), r.randint(32, 64))
    if v == "ui":
        return """API keys

NAME              KEY                      CREATED       LAST USED
ci-pipeline       sk-...%s                 %s    2 hours ago
local-dev         sk-proj-...%s            %s    never
zapier            ••••••••••••%s           %s    14 days ago
""" % (_s(r, _ALNUM, 4), _dt(r).strftime("%b %d, %Y"), _s(r, _ALNUM, 4), _dt(r).strftime("%b %d, %Y"), _s(r, _ALNUM, 4), _dt(r).strftime("%b %d, %Y"))
    return json.dumps({"config": {"db": {"host": _host(r), "user": "app", "password": "[REDACTED]"},
                                  "stripe": {"secret_key": "sk_live_************************"},
                                  "slack": {"token": "xoxb-****"}, "jwt_secret": "<redacted>"}}, indent=2) + "\n"


@_clean("vendor-doc-examples")
def _c_docex(r):
    v = r.choice(["awscreds", "awsenv", "jwtio", "tutorial", "iamkey", "stripe", "boto3"])
    if v == "iamkey":
        user = r.choice(["Bob", "Alice", "ci-user", "deployer"])
        return """$ aws iam create-access-key --user-name %s
{
    "AccessKey": {
        "UserName": "%s",
        "AccessKeyId": "AKIAIOSFODNN7EXAMPLE",
        "Status": "Active",
        "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "CreateDate": "%s"
    }
}
(output as shown in the AWS CLI reference)
""" % (user, user, _dt(r).strftime("%Y-%m-%dT%H:%M:%SZ"))
    if v == "stripe":
        return """# from the Stripe API reference (test mode sample key)
curl https://api.stripe.com/v1/charges \\
  -u sk_test_4eC39HqLyjWDarjtT1zdp7dc: \\
  -d amount=%d \\
  -d currency=%s \\
  -d source=tok_visa
""" % (r.choice([999, 2000, 1500, 4200]), r.choice(["usd", "eur", "gbp"]))
    if v == "boto3":
        return """import boto3

# Values copied from the boto3 credentials guide -- replace before use
client = boto3.client(
    "%s",
    aws_access_key_id="AKIAIOSFODNN7EXAMPLE",
    aws_secret_access_key="wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    region_name="%s",
)
""" % (r.choice(["s3", "sqs", "dynamodb", "sts"]), r.choice(["us-east-1", "eu-west-1", "us-west-2"]))
    if v == "awscreds":
        return "# %s -- copied from the AWS CLI documentation, replace before use\n" % r.choice(["credentials.sample", "docs/credentials.example", "~/.aws/credentials (example)", "README snippet"]) + """[default]
aws_access_key_id=AKIAIOSFODNN7EXAMPLE
aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY

[user1]
aws_access_key_id=AKIAI44QH8DHBEXAMPLE
aws_secret_access_key=je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY
"""
    if v == "awsenv":
        return """To use environment variables, run (Linux/macOS):

$ export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE
$ export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
$ export AWS_DEFAULT_REGION=%s
""" % r.choice(["us-west-2", "us-east-1", "eu-west-1", "ap-northeast-1"])
    if v == "jwtio":
        return r.choice(["Quick sanity check for the JWT middleware tests.", "From the jwt.io landing page:", "Docs example, not a real token:", "Test fixture (public example):"]) + \
            " (%s, %s)\n" % (_user(r), _dt(r).strftime("%Y-%m-%d")) + """The example token from jwt.io decodes to {"sub":"1234567890","name":"John Doe","iat":1516239022}:

eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c

Paste it into the debugger together with the secret `your-256-bit-secret` to see the signature verify.
(see also %s)
""" % r.choice(["RFC 7519 section 3.1", "https://jwt.io/introduction", "the auth middleware README", "ticket %s-%d" % (r.choice(["SEC", "PLAT", "API"]), r.randint(10, 9999))])
    return """Step 3: connect to the database

    DATABASE_URL = "postgresql://user:password@localhost:%d/%s"
    engine = create_engine(DATABASE_URL)

Replace `user` and `password` with the credentials you chose in step 1.
""" % (r.choice([5432, 5433, 6432]), r.choice(["mydb", "app", "tutorial", "blog"]))


@_clean("encrypted-blobs")
def _c_enc(r):
    v = r.choice(["ansible", "sops", "sealed", "age", "gpg"])
    if v == "ansible":
        body = _hex(r, 2 * r.choice([144, 192, 240, 336]))
        return "$ANSIBLE_VAULT;1.1;AES256\n" + _wrap(body, 80) + "\n"
    if v == "sops":
        def enc(n):
            return "ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]" % (_b64(r, n), _b64(r, 32), _b64(r, 16))
        return """db:
    user: %s
    password: %s
api_token: %s
sops:
    age:
        - recipient: age1%s
          enc: |
            -----BEGIN AGE ENCRYPTED FILE-----
            %s
            %s
            -----END AGE ENCRYPTED FILE-----
    lastmodified: "%s"
    mac: %s
    unencrypted_suffix: _unencrypted
    version: 3.8.1
""" % (enc(6), enc(18), enc(32), _s(r, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58), _b64(r, 48), _b64(r, 30),
       _dt(r).strftime("%Y-%m-%dT%H:%M:%SZ"), "ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]" % (_b64(r, 64), _b64(r, 32), _b64(r, 16)))
    if v == "sealed":
        return """apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: %s
  namespace: %s
spec:
  encryptedData:
    password: AgB%s
    username: AgC%s
  template:
    metadata:
      name: %s
""" % (r.choice(_SERVICES), r.choice(["prod", "default"]), _b64(r, 540).rstrip("="), _b64(r, 540).rstrip("="), r.choice(_SERVICES))
    if v == "age":
        return "-----BEGIN AGE ENCRYPTED FILE-----\n" + _wrap(base64.b64encode(b"age-encryption.org/v1\n-> X25519 " + _bytes(r, 200)).decode(), 64) + "\n-----END AGE ENCRYPTED FILE-----\n"
    return "-----BEGIN PGP MESSAGE-----\n\n" + _wrap(base64.b64encode(b"\x85\x01\x0c\x03" + _bytes(r, r.randint(300, 700))).decode(), 64) + "\n=" + _b64(r, 3) + "\n-----END PGP MESSAGE-----\n"


@_clean("k8s-objects")
def _c_k8s(r):
    v = r.choice(["pod", "configmap", "events"])
    svc = r.choice(_SERVICES)
    if v == "pod":
        h = _s(r, _LO + _DIG, 10)
        return """apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: "%s"
  generateName: %s-%s-
  labels:
    app: %s
    pod-template-hash: %s
  name: %s-%s-%s
  namespace: %s
  ownerReferences:
  - apiVersion: apps/v1
    blockOwnerDeletion: true
    controller: true
    kind: ReplicaSet
    name: %s-%s
    uid: %s
  resourceVersion: "%d"
  uid: %s
spec:
  containers:
  - image: ghcr.io/%s/%s:%s
    name: app
    volumeMounts:
    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
      name: kube-api-access-%s
      readOnly: true
  serviceAccountName: %s
status:
  containerStatuses:
  - containerID: containerd://%s
    image: ghcr.io/%s/%s:%s
    imageID: ghcr.io/%s/%s@sha256:%s
    ready: true
    restartCount: 0
  phase: Running
  podIP: %s
""" % (_dt(r).strftime("%Y-%m-%dT%H:%M:%SZ"), svc, h, svc, h, svc, h, _s(r, _LO + _DIG, 5), r.choice(["prod", "default"]), svc, h, _uuid(r),
       r.randint(10 ** 5, 10 ** 8), _uuid(r), _company(r), svc, _ver(r), _s(r, _LO + _DIG, 5), svc, _hex(r, 64), _company(r), svc, _ver(r),
       _company(r), svc, _hex(r, 64), _ip(r))
    if v == "configmap":
        return """apiVersion: v1
kind: ConfigMap
metadata:
  name: %s-config
  uid: %s
data:
  LOG_LEVEL: info
  FEATURE_FLAGS: "new-checkout,fast-search"
  CACHE_TTL_SECONDS: "300"
  OTEL_EXPORTER_OTLP_ENDPOINT: http://otel-collector.observability:4317
  PUBLIC_SENTRY_RELEASE: "%s@%s"
  BUILD_SHA: %s
""" % (svc, _uuid(r), svc, _ver(r), _sha(r))
    out = ["LAST SEEN   TYPE      REASON              OBJECT                                 MESSAGE"]
    co = _company(r)
    pod = "pod/%s-%s-%s" % (svc, _s(r, _LO + _DIG, 10), _s(r, _LO + _DIG, 5))
    evs = [("Normal", "Scheduled", "Successfully assigned default/%s to ip-%s.ec2.internal" % (pod[4:], _ip(r).replace(".", "-"))),
           ("Normal", "Pulling", "Pulling image \"ghcr.io/%s/%s@sha256:%s\"" % (co, svc, _hex(r, 64))),
           ("Normal", "Pulled", "Successfully pulled image in %.3fs (%.3fs including waiting)" % (r.uniform(1, 9), r.uniform(9, 20))),
           ("Normal", "Created", "Created container app"), ("Normal", "Started", "Started container app"),
           ("Warning", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503"),
           ("Warning", "BackOff", "Back-off restarting failed container app in pod %s_default(%s)" % (pod[4:], _uuid(r)))]
    age = r.randint(20, 59)
    for ty, reason, msg in evs[:r.randint(4, 7)]:
        out.append("%-11s %-9s %-19s %-38s %s" % ("%dm" % age, ty, reason, pod, msg))
        age = max(1, age - r.randint(0, 6))
    return "\n".join(out) + "\n"


@_clean("terraform-clean")
def _c_tf(r):
    svc = r.choice(_SERVICES)
    acct = "%012d" % r.randint(10 ** 10, 10 ** 12 - 1)
    if r.random() < 0.5:
        return """Terraform will perform the following actions:

  # aws_s3_bucket.assets will be created
  + resource "aws_s3_bucket" "assets" {
      + arn                         = (known after apply)
      + bucket                      = "%s-assets-%s"
      + id                          = (known after apply)
    }

  # aws_iam_access_key.ci will be created
  + resource "aws_iam_access_key" "ci" {
      + create_date                    = (known after apply)
      + encrypted_secret               = (known after apply)
      + id                             = (known after apply)
      + secret                         = (sensitive value)
      + ses_smtp_password_v4           = (sensitive value)
      + user                           = "ci-%s"
    }

Plan: 2 to add, 0 to change, 0 to destroy.
""" % (svc, _hex(r, 8), svc)
    st = {"version": 4, "terraform_version": "1.%d.%d" % (r.randint(5, 9), r.randint(0, 5)), "serial": r.randint(1, 300), "lineage": _uuid(r),
          "outputs": {"bucket_arn": {"value": "arn:aws:s3:::%s-logs" % svc, "type": "string"}},
          "resources": [{"mode": "managed", "type": "aws_s3_bucket", "name": "logs", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
                         "instances": [{"schema_version": 0, "attributes": {"arn": "arn:aws:s3:::%s-logs" % svc, "bucket": "%s-logs" % svc,
                                                                             "bucket_domain_name": "%s-logs.s3.amazonaws.com" % svc,
                                                                             "hosted_zone_id": "Z%s" % _s(r, _UP + _DIG, 13), "id": "%s-logs" % svc,
                                                                             "region": "eu-west-1", "tags": {"owner": "platform"}},
                                        "sensitive_attributes": [],
                                        "private": base64.b64encode(b'{"schema_version":"0"}').decode()}]},
                        {"mode": "data", "type": "aws_caller_identity", "name": "current", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
                         "instances": [{"schema_version": 0, "attributes": {"account_id": acct, "arn": "arn:aws:sts::%s:assumed-role/Terraform/%d" % (acct, r.randint(10 ** 9, 10 ** 10)),
                                                                             "id": acct, "user_id": "AROA%s:%d" % (_s(r, _B32, 17), r.randint(10 ** 9, 10 ** 10))}}]}]}
    return json.dumps(st, indent=2) + "\n"


@_clean("ci-logs-clean")
def _c_ci(r):
    t = _dt(r)
    lines = []
    flavor = r.choice(["gha", "gha", "buildkite", "jenkins"])

    def L(s):
        nonlocal t
        t += timedelta(microseconds=r.randint(5000, 3000000))
        if flavor == "gha":
            lines.append(t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d%dZ " % (t.microsecond, r.randint(0, 9)) + s)
        elif flavor == "buildkite":
            lines.append(t.strftime("%Y-%m-%d %H:%M:%S UTC ") + s)
        else:
            lines.append(t.strftime("[%H:%M:%S] ") + s if s.startswith("[Pipeline]") is False else s)
    img = "ghcr.io/%s/%s" % (_company(r), _repo(r))
    if flavor == "gha":
        L("##[group]Run actions/cache@v4")
        L("with:")
        L("  path: ~/.npm")
        L("  key: Linux-node-%s" % _hex(r, 64))
        L("##[endgroup]")
        L("Cache restored from key: Linux-node-%s" % _hex(r, 64))
        L("##[group]Run npm ci")
        L("npm ci")
        L("shell: /usr/bin/bash -e {0}")
        L("env:")
        L("  NODE_AUTH_TOKEN: ***")
        L("##[endgroup]")
        n = r.randint(200, 1500)
        L("added %d packages, and audited %d packages in %ds" % (n, n + 1, r.randint(5, 60)))
        L("found 0 vulnerabilities")
        L("##[group]Run docker/build-push-action@v6")
        L("#12 exporting to image")
        L("#12 exporting layers done")
        L("#12 writing image sha256:%s done" % _hex(r, 64))
        L("#12 pushing layers %.1fs done" % r.uniform(1, 30))
        L("#12 pushing manifest for %s:%s@sha256:%s" % (img, _sha(r)[:7], _hex(r, 64)))
        L("##[endgroup]")
        L("Artifact %s successfully finalized. Artifact ID %d" % (r.choice(["coverage", "dist", "sbom"]), r.randint(10 ** 8, 10 ** 10)))
        L("Artifact digest: SHA256:%s" % _hex(r, 64))
        L("Evaluate and set job outputs")
        L("Cleaning up orphan processes")
    elif flavor == "buildkite":
        L("~~~ Preparing working directory")
        L("$ git clone -v -- git@github.com:%s/%s.git ." % (_company(r), _repo(r)))
        L("$ git checkout -f %s" % _sha(r))
        L("# BUILDKITE_BUILD_ID=%s" % _uuid(r))
        L("# BUILDKITE_JOB_ID=%s" % _uuid(r))
        L("# BUILDKITE_AGENT_ACCESS_TOKEN=[REDACTED]")
        L("~~~ Running plugin docker-compose command hook")
        L(":docker: Pulling %s:cache-%s" % (img, _hex(r, 12)))
        L("--- :docker: Build")
        L("#8 writing image sha256:%s done" % _hex(r, 64))
        L("+++ :test_tube: Tests")
        L("%d passed, %d skipped in %.2fs" % (r.randint(50, 900), r.randint(0, 9), r.uniform(5, 300)))
        L("~~~ Uploading artifacts")
        L("Uploading artifact %s coverage/lcov.info (%d bytes)" % (_uuid(r), r.randint(10 ** 4, 10 ** 6)))
    else:
        lines += ["Started by GitHub push by %s" % _user(r), "Obtained Jenkinsfile from git https://github.com/%s/%s.git" % (_company(r), _repo(r)),
                  "[Pipeline] Start of Pipeline", "[Pipeline] node", "Running on agent-%02d in /var/lib/jenkins/workspace/%s_main" % (r.randint(1, 9), _repo(r)),
                  "[Pipeline] {", "[Pipeline] checkout", "Checking out Revision %s (refs/remotes/origin/main)" % _sha(r),
                  "Commit message: \"%s\"" % r.choice(["bump version", "fix flaky test", "update deps"]),
                  "[Pipeline] withCredentials", "Masking supported pattern matches of $REGISTRY_PASSWORD",
                  "[Pipeline] {", "[Pipeline] sh", "+ docker login -u ci -p **** registry.%s" % _domain(r), "Login Succeeded",
                  "+ docker push %s:%d" % (img, r.randint(100, 9999)), "latest: digest: sha256:%s size: %d" % (_hex(r, 64), r.randint(900, 4000)),
                  "[Pipeline] }", "[Pipeline] // withCredentials", "[Pipeline] }", "[Pipeline] End of Pipeline", "Finished: SUCCESS"]
    return "\n".join(lines) + "\n"


@_clean("http-traffic-clean")
def _c_http(r):
    host = r.choice(["www", "cdn", "docs", "static"]) + "." + _domain(r)
    p = _prompt(r)
    v = r.choice(["head", "api", "raw"])
    if v == "head":
        return """%scurl -sI https://%s/assets/app.%s.js
HTTP/2 200
date: %s
content-type: application/javascript; charset=utf-8
content-length: %d
etag: "%s"
last-modified: %s
cache-control: public, max-age=31536000, immutable
content-security-policy: default-src 'self'; script-src 'self' 'nonce-%s'; object-src 'none'
x-amz-cf-id: %s==
x-amz-cf-pop: FRA56-P%d
x-cache: Hit from cloudfront
via: 1.1 %s.cloudfront.net (CloudFront)
cf-ray: %s-AMS
strict-transport-security: max-age=63072000; includeSubDomains; preload
x-request-id: %s
""" % (p, host, _hex(r, 8), _dt(r).strftime("%a, %d %b %Y %H:%M:%S GMT"), r.randint(1000, 900000), _hex(r, 32),
       _dt(r).strftime("%a, %d %b %Y %H:%M:%S GMT"), _b64(r, 16), _s(r, _ALNUM + "_-", 54), r.randint(1, 9), _hex(r, 32), _hex(r, 16), _uuid(r))
    if v == "api":
        org, repo = _company(r), _repo(r)
        return """%scurl -si "https://api.github.com/repos/%s/%s/commits?per_page=1" | head -20
HTTP/2 200
date: %s
content-type: application/json; charset=utf-8
cache-control: public, max-age=60, s-maxage=60
etag: W/"%s"
link: <https://api.github.com/repositories/%d/commits?per_page=1&page=2>; rel="next"
x-github-media-type: github.v3; format=json
x-ratelimit-limit: 60
x-ratelimit-remaining: %d
x-ratelimit-reset: %d
x-github-request-id: %s:%s:%s:%s:%s

[
  {
    "sha": "%s",
    "node_id": "C_kwDO%s",
""" % (p, org, repo, _dt(r).strftime("%a, %d %b %Y %H:%M:%S GMT"), _hex(r, 64), r.randint(10 ** 8, 10 ** 9), r.randint(0, 59),
       int(_dt(r).timestamp()), _s(r, _HEXU, 4), _s(r, _HEXU, 6), _s(r, _HEXU, 7), _s(r, _HEXU, 7), _s(r, _HEXU, 8), _sha(r), _s(r, _ALNUM, 30))
    return """GET /v1/catalog/items?cursor=%s&limit=50 HTTP/1.1
Host: api.%s
Accept: application/json
If-None-Match: "%s"
traceparent: 00-%s-%s-01
X-Correlation-ID: %s
User-Agent: %s/%s (+https://%s)

HTTP/1.1 304 Not Modified
ETag: "%s"
Vary: Accept-Encoding
""" % (_b64u(r, 18), _domain(r), _hex(r, 40), _hex(r, 32), _hex(r, 16), _uuid(r), r.choice(_SERVICES), _ver(r), _domain(r), _hex(r, 40))


@_clean("project-guids")
def _c_guids(r):
    v = r.choice(["sln", "csproj", "pbxproj", "unity"])
    G = lambda: str(uuid.UUID(int=r.getrandbits(128), version=4)).upper()
    if v == "sln":
        out = ["Microsoft Visual Studio Solution File, Format Version 12.00", "# Visual Studio Version 17",
               "VisualStudioVersion = 17.%d.%d.%d" % (r.randint(0, 9), r.randint(10000, 40000), r.randint(0, 999)),
               "MinimumVisualStudioVersion = 10.0.40219.1"]
        projs = []
        for n in r.sample(["Api", "Core", "Data", "Tests", "Worker", "Web"], r.randint(2, 5)):
            g = G()
            projs.append(g)
            out += ['Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "%s.%s", "src\\%s.%s\\%s.%s.csproj", "{%s}"' % ((_company(r).capitalize().replace("-", ""), n) * 3 + (g,)), "EndProject"]
        out += ["Global", "\tGlobalSection(ProjectConfigurationPlatforms) = postSolution"]
        for g in projs:
            out.append("\t\t{%s}.Debug|Any CPU.ActiveCfg = Debug|Any CPU" % g)
        out += ["\tEndGlobalSection", "\tGlobalSection(ExtensibilityGlobals) = postSolution", "\t\tSolutionGuid = {%s}" % G(), "\tEndGlobalSection", "EndGlobal"]
        return "\n".join(out) + "\n"
    if v == "csproj":
        return """<Project Sdk="Microsoft.NET.Sdk.Web">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
    <Nullable>enable</Nullable>
    <ProjectGuid>{%s}</ProjectGuid>
    <UserSecretsId>%s</UserSecretsId>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Microsoft.EntityFrameworkCore" Version="8.0.%d" />
  </ItemGroup>
</Project>
""" % (G(), str(uuid.UUID(int=r.getrandbits(128), version=4)), r.randint(1, 8))
    if v == "pbxproj":
        out = ["/* Begin PBXBuildFile section */"]
        for f in r.sample(["AppDelegate.swift", "ContentView.swift", "Assets.xcassets", "LoginView.swift", "KeychainStore.swift", "Info.plist"], 4):
            out.append("\t\t%s /* %s in Sources */ = {isa = PBXBuildFile; fileRef = %s /* %s */; };" % (_s(r, _HEXU, 24), f, _s(r, _HEXU, 24), f))
        out.append("/* End PBXBuildFile section */")
        return "\n".join(out) + "\n"
    return """fileFormatVersion: 2
guid: %s
MonoImporter:
  externalObjects: {}
  serializedVersion: 2
  defaultReferences: []
  executionOrder: 0
  icon: {instanceID: 0}
  userData: 
  assetBundleName: 
  assetBundleVariant: 
""" % _hex(r, 32)




_VARY = {
    "JWT_SECRET": ["JWT_SECRET", "TOKEN_SIGNING_KEY", "AUTH_JWT_SECRET", "SESSION_SECRET"],
    "DB_PASSWORD": ["DB_PASSWORD", "DATABASE_PASSWORD", "PGPASSWORD", "MYSQL_PASSWORD", "POSTGRES_PASSWORD"],
    "API_TOKEN": ["API_TOKEN", "SERVICE_TOKEN", "UPSTREAM_API_KEY", "PARTNER_TOKEN", "ACCESS_TOKEN"],
    "SESSION_SIGNING_KEY": ["SESSION_SIGNING_KEY", "COOKIE_SECRET", "HMAC_KEY"],
    "/login": ["/login", "/signin", "/auth/login", "/api/v1/session"],
    "/register": ["/register", "/signup", "/api/v1/users"],
    "REG_PASS": ["REG_PASS", "REGISTRY_PASSWORD", "DOCKER_PASSWORD", "CR_PAT"],
    "REG_USER": ["REG_USER", "REGISTRY_USER", "DOCKER_USERNAME"],
    "release bot": ["release bot", "deploy bot", "docs publisher", "nightly job", "renovate runner"],
    "15 minutes": ["15 minutes", "10 minutes", "one hour", "5 minutes"],
}


def _vary(r, text):
    for k, choices in _VARY.items():
        if k in text:
            text = text.replace(k, r.choice(choices))
    return text

_FRAME_PATHS = {
    "placeholder-docs": [("## Configuration", "README.md"), (".env.example", ".env.example"), ("services:", "docker-compose.yml"),
                         ("### Authentication", "docs/api.md"), ("config.sample.yaml", "config.sample.yaml")],
    "secret-references": [("secretKeyRef", "k8s/deployment.yaml"), ("{{ include", "charts/app/templates/secret.yaml"),
                          ("secrets.", ".github/workflows/release.yml"), ("containerDefinitions", "ecs/taskdef.json"),
                          ("template {", "vault-agent.hcl"), ("lookup(", "group_vars/all.yml"),
                          ("aws_secretsmanager", "infra/main.tf"), ("op://", ".env.tpl")],
    "password-handling-code": [("@bp.route", "app/auth/views.py"), ("router.post", "src/routes/auth.js"),
                               ("func (s *Server)", "internal/http/login.go"), ("@Bean", "src/main/java/com/acme/UserService.java"),
                               ("forms.Form", "accounts/forms.py"), ("getpass", "cli/credentials.py")],
    "password-policy-text": [("## Password", "docs/security/passwords.md"), ("pwquality", "/etc/security/pwquality.conf"),
                             ("realm:", "realm-export.yaml"), ("validation_failed", "response.json"), ("net accounts", "policy.txt")],
    "crypto-test-vectors": [("pytest", "tests/test_hmac.py"), ("RFC 8032", "testdata/ed25519.json"), ("static const", "test/pbkdf2_vectors.c"),
                            ("RFC 6238", "test/totp.test.js"), ("FIPS-197", "testdata/aes_kat.txt"), ("RFC 5869", "testdata/hkdf.txt"),
                            ("Tests = []struct", "crypto/hash_test.go")],
    "prose-about-tokens": [("# Incident", "postmortems/leaked-ci-token.md"), ("Why we moved", "blog/short-lived-tokens.md"),
                           ("Review of PR", "review-comments.txt"), ("FAQ", "docs/faq.md")],
    "masked-values": [("Run echo", "build.log"), ("aws configure list", "terminal.txt"), ("Plan:", "plan.txt"),
                      ("kubectl describe", "terminal.txt"), ("API keys", "api-keys-page.txt"), ("REDACTED", "config-dump.json")],
    "vendor-doc-examples": [("create-access-key", "docs/aws-cli.md"), ("AWS CLI documentation", "docs/aws-cli.md"),
                            ("export AWS_", "docs/aws-env.md"), ("jwt.io", "notes/jwt.md"), ("Step 3", "tutorial.md"),
                            ("stripe", "docs/payments.md"), ("boto3", "scripts/example_client.py")],
}
_INTROS = ["Here is the relevant part of {p}:", "For reference, {p} currently looks like this:",
           "Relevant snippet from {p} (nothing sensitive in it):", "FYI this is what we have in {p} right now",
           "Can someone sanity-check {p}?", "Pasting {p} so we are all looking at the same thing:"]
_OUTROS = ["", "", "Does this look right?", "Thanks!", "(trimmed)", "Let me know if you need the rest of the file."]


def _frame(r, body, family):
    path = next((pth for key, pth in _FRAME_PATHS.get(family, []) if key in body), "notes.txt")
    how = r.randint(0, 3)
    if how == 0:
        return body
    if how == 1:
        return _prompt(r) + "cat " + path + "\n" + body
    if how == 2:
        out = r.choice(_INTROS).format(p="`%s`" % path) + "\n\n```\n" + body.rstrip("\n") + "\n```\n"
        o = r.choice(_OUTROS)
        return out + (o + "\n" if o else "")
    return "==> %s <==\n" % path + body


# ==========================================================================
# public API
# ==========================================================================
def _check_half(half):
    if half not in ("third", "twin"):
        raise ValueError("half must be 'third' or 'twin'")


def positives(half, per_template):
    _check_half(half)
    out = []
    for context, kind, _cat, fn in _POS:
        tname = "%s/%s" % (context, kind)
        for i in range(per_template):
            for attempt in range(20):
                seed = "%s:%s:%d" % (half, tname, i) + ("" if attempt == 0 else ":%d" % attempt)
                text, value = fn(random.Random(seed))
                if text.count(value) == 1:
                    break
            else:
                raise RuntimeError("could not place value once in %s #%d" % (tname, i))
            if not text.endswith("\n"):
                text += "\n"
            out.append(("p-%s-%s-%d.txt" % (context, kind, i), context, kind, value, text))
    return out


def cleans(half, per_family):
    _check_half(half)
    out = []
    for family, fn in _CLEAN:
        seen = set()
        for i in range(per_family):
            for attempt in range(50):
                seed = "%s:clean:%s:%d" % (half, family, i) + ("" if attempt == 0 else ":%d" % attempt)
                rr = random.Random(seed)
                text = fn(rr)
                if family in _FRAME_PATHS:
                    text = _frame(rr, _vary(rr, text), family)
                if not text.endswith("\n"):
                    text += "\n"
                if text not in seen:
                    break
            seen.add(text)
            out.append(("c-%s-%d.txt" % (family, i), family, text))
    return out


def _categories():
    """(context, kind, category) for every template -- used by check.py."""
    return [(c, k, cat) for c, k, cat, _ in _POS]
