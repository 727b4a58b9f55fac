"""fourth.py - blind hold-out corpus #4 for a paste-time secret detector.

Texts imitate what people paste when asking for help: bug reports, support
tickets, --verbose/--debug output, IDE configs, home-lab configs, chat exports,
code in many languages.  Every credential is synthetic (random, real format);
nothing here was ever issued by a vendor.

API:
    positives(half, per_template) -> [(name, context, kind, value, text)]
    cleans(half, per_family)      -> [(name, family, text)]
half is "fourth" or "twin"; all randomness comes from
random.Random(f"{half}:{template}:{i}").
Python 3 standard library only.
"""
import base64
import datetime
import hashlib
import hmac
import json
import random
import string
import zlib

__all__ = ["positives", "cleans"]

# ---------------------------------------------------------------- alphabets
DIG = string.digits
LOW = string.ascii_lowercase
UP = string.ascii_uppercase
B62 = DIG + UP + LOW            # GitHub/npm checksum alphabet order
ALNUM = string.ascii_letters + DIG
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"
B64STD = UP + LOW + DIG + "+/"


def rs(r, n, alpha=ALNUM):
    return "".join(r.choice(alpha) for _ in range(n))


def rhex(r, n):
    return rs(r, n, HEX)


def rbytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def ruuid(r):
    h = "%032x" % r.getrandbits(128)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def b62_encode(n, width=6):
    s = ""
    while n:
        n, m = divmod(n, 62)
        s = B62[m] + s
    return s.rjust(width, "0")


def crc_b62_token(r, prefix):
    """GitHub / npm style: prefix + 30 base62 + base62(crc32(random part))."""
    body = rs(r, 30, B62)
    return prefix + body + b62_encode(zlib.crc32(body.encode()) & 0xFFFFFFFF)


# ---------------------------------------------------------------- time
EPOCH0 = datetime.datetime(2023, 1, 9, 7, 0, 0)


def rdt(r):
    return EPOCH0 + datetime.timedelta(seconds=r.randint(0, 2 * 365 * 86400))


def iso(d, ms=False, z=True):
    s = d.strftime("%Y-%m-%dT%H:%M:%S")
    if ms:
        s += ".%03d" % (d.microsecond // 1000 if d.microsecond else 0)
    return s + ("Z" if z else "")


def later(d, r, lo=1, hi=90):
    return d + datetime.timedelta(seconds=r.randint(lo, hi), microseconds=r.randint(0, 999999))


def epoch(d):
    return int((d - datetime.datetime(1970, 1, 1)).total_seconds())


# ---------------------------------------------------------------- people / places
FIRST = ["Anna", "Ben", "Chloe", "Diego", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas",
         "Kavya", "Liam", "Maya", "Nils", "Olga", "Pedro", "Quinn", "Rosa", "Sami", "Tess",
         "Umar", "Vera", "Wen", "Ximena", "Yusuf", "Zoe", "Priya", "Mateo", "Lena", "Tomasz",
         "Aiko", "Bruno", "Carmen", "Dmitri", "Emeka", "Freya", "Gabriel", "Hana", "Ivan", "Julia"]
LAST = ["Novak", "Schmidt", "Okafor", "Larsen", "Moreau", "Tanaka", "Silva", "Kowalski",
        "Haddad", "Rossi", "Nguyen", "Fischer", "Patel", "Andersson", "Costa", "Yilmaz",
        "Murphy", "Becker", "Ivanova", "Garcia", "Kim", "Dubois", "Weber", "Jansen",
        "Horvat", "Mendes", "Sato", "Walsh", "Raman", "Lindqvist"]
ORGS = ["northwind-labs", "bluefern", "quarry-analytics", "tidepool", "orbitkit", "harbor-lane",
        "pinecrest-dev", "lumen-works", "kestrel-io", "copperleaf", "saltmarsh", "fernhill-tech",
        "redwood-apps", "mistral-bay", "ironbark", "glasshouse-data", "otterworks", "brightloom"]
TLDS = [".io", ".com", ".dev", ".net", ".co", ".de", ".nl", ".app"]
PROJ = ["orders-api", "billing-svc", "inventory", "web-frontend", "mobile-app", "data-pipeline",
        "auth-gateway", "reporting", "notifier", "search-indexer", "checkout", "ledger",
        "sensor-hub", "media-worker", "crm-sync", "telemetry", "storefront", "payroll-tool"]
CITIES = ["Berlin", "Lisbon", "Toronto", "Osaka", "Nairobi", "Austin", "Krakow", "Utrecht",
          "Porto", "Leeds", "Tallinn", "Bogota", "Pune", "Lyon", "Graz"]
TZS = ["Europe/Berlin", "Europe/Lisbon", "America/Toronto", "Asia/Tokyo", "Africa/Nairobi",
       "America/Chicago", "Europe/Warsaw", "Europe/Amsterdam", "Europe/London", "Asia/Kolkata"]


def person(r):
    return r.choice(FIRST), r.choice(LAST)


def uname(r):
    f, l = person(r)
    return r.choice([f.lower(), (f[0] + l).lower(), f.lower() + "." + l.lower(),
                     f.lower() + str(r.randint(7, 99)), l.lower()[:6] + f[0].lower()])


def org(r):
    return r.choice(ORGS)


def domain(r):
    return org(r) + r.choice(TLDS)


def email(r, dom=None):
    f, l = person(r)
    return "%s.%s@%s" % (f.lower(), l.lower(), dom or domain(r))


def lan_ip(r):
    return r.choice(["192.168.%d.%d" % (r.choice([0, 1, 2, 10, 50, 178]), r.randint(2, 250)),
                     "10.%d.%d.%d" % (r.randint(0, 40), r.randint(0, 255), r.randint(2, 250)),
                     "172.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(2, 250))])


def pub_ip(r):
    return r.choice(["203.0.113.%d", "198.51.100.%d", "192.0.2.%d"]) % r.randint(2, 250)


def host(r):
    return r.choice(["db-prod-%02d" % r.randint(1, 9), "pg%d" % r.randint(1, 4), "nas", "mysql-main",
                     "app%02d" % r.randint(1, 20), "build-agent-%d" % r.randint(1, 8), "srv-%s" % rs(r, 3, LOW),
                     "rpi4", "homeserver", "vm-%s" % r.choice(["ci", "db", "web", "mq"])])


def semver(r, major=(0, 5)):
    return "%d.%d.%d" % (r.randint(*major), r.randint(0, 30), r.randint(0, 20))


# ---------------------------------------------------------------- generic secrets
WORDS = ("anchor apple amber badger banjo barley beacon birch biscuit blanket blossom bramble breeze "
         "bucket cactus camel candle canyon carrot cedar cherry cinder clover cobalt comet copper "
         "coral cricket crystal dahlia daisy delta denim dolphin dragon drift eagle ember falcon "
         "feather fennel fig finch flint forest fossil fox galaxy garnet ginger glacier granite "
         "gravel harbor hazel heron hickory honey horizon iris island ivory jade jasmine juniper "
         "kettle kiwi lagoon lantern lava lemon lilac linen lotus magnet mango maple marble meadow "
         "mercury meteor mint mirror mocha monsoon moss nectar nickel nutmeg oasis olive onyx orbit "
         "orchid otter oyster paddle panda papaya pebble pepper pickle pilot pine plum polar poppy "
         "prairie pretzel puffin quartz quill radar raven reef ribbon river robin rocket saffron "
         "salmon sandal sapphire scarf shadow shell sierra silver sparrow spruce squid stone summit "
         "sunset swan tango thistle thunder tiger timber topaz tornado tulip tundra turtle umber "
         "velvet violet walnut walrus willow winter wombat yarrow zebra zephyr").split()
SYMS = "!@#$%^&*-_=+.?"


def pw_random(r, lo=14, hi=26, syms=SYMS, avoid=""):
    alpha = "".join(c for c in ALNUM + syms if c not in avoid)
    n = r.randint(lo, hi)
    while True:
        s = rs(r, n, alpha)
        if (any(c.islower() for c in s) and any(c.isupper() for c in s) and any(c.isdigit() for c in s)
                and (not syms or any(c in syms for c in s)) and s[0] not in "-=#"):
            return s


def pw_passphrase(r, avoid=""):
    sep = r.choice([c for c in ["-", "_", ".", " ", "", "+"] if c not in avoid] or [""])
    words = [r.choice(WORDS) for _ in range(r.randint(3, 4))]
    if r.random() < 0.6:
        words = [w.capitalize() if r.random() < 0.5 else w for w in words]
    if sep == "":
        words = [w.capitalize() for w in words]
    tail = str(r.randint(2, 9999))
    sym = r.choice([c for c in "!?#*&%@$" if c not in avoid] or ["9"])
    pos = r.random()
    if pos < 0.5:
        return sep.join(words) + sep + tail + sym
    if pos < 0.8:
        return sep.join(words[:2]) + tail + sep + sep.join(words[2:]) + sym
    return sym + sep.join(words) + tail


LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5"}


def pw_memorable(r, avoid=""):
    w = r.choice(WORDS)
    w2 = r.choice(WORDS)
    base = r.choice([w.capitalize(), w.capitalize() + w2.capitalize(), w.capitalize() + w2])
    if len(base) < 7:
        base = w.capitalize() + w2.capitalize()
    if r.random() < 0.35:
        base = "".join(LEET.get(c, c) if r.random() < 0.5 else c for c in base)
    syms = [c for c in "!#$%&*@?." if c not in avoid]
    yr = r.choice([str(r.randint(1961, 2024)), str(r.randint(10, 99)), str(r.randint(100, 999))])
    sym = r.choice(syms)
    return r.choice([base + sym + yr, base + yr + sym, base + yr + sym + sym if r.random() < 0.2 else base + yr + sym])


def pw_alnum(r, lo=16, hi=32):
    return pw_random(r, lo, hi, syms="")


def gen_password(r, styles=("random", "passphrase", "memorable", "alnum"), avoid=""):
    st = r.choice(styles)
    if st == "random":
        return pw_random(r, avoid=avoid)
    if st == "passphrase":
        return pw_passphrase(r, avoid=avoid)
    if st == "memorable":
        return pw_memorable(r, avoid=avoid)
    if st == "hex":
        return rhex(r, r.choice([32, 40, 64]))
    if st == "b64":
        return b64(rbytes(r, r.choice([24, 32, 33, 48])))
    if st == "b64url":
        return b64u(rbytes(r, r.choice([24, 32, 48])))
    return pw_alnum(r)


# ---------------------------------------------------------------- tiny crypto (for realistic key material)
_P = 2 ** 255 - 19
_D = -121665 * pow(121666, _P - 2, _P) % _P
_I = pow(2, (_P - 1) // 4, _P)


def _xrec(y):
    xx = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P)
    x = pow(xx, (_P + 3) // 8, _P)
    if (x * x - xx) % _P:
        x = x * _I % _P
    return _P - x if x & 1 else x


_BY = 4 * pow(5, _P - 2, _P) % _P
_BX = _xrec(_BY)
_BPT = (_BX, _BY, 1, _BX * _BY % _P)


def _eadd(p, q):
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % _P
    b = (y1 + x1) * (y2 + x2) % _P
    c = t1 * 2 * _D * t2 % _P
    d = z1 * 2 * z2 % _P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def ed25519_pub(seed):
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    q, p = (0, 1, 1, 0), _BPT
    while a:
        if a & 1:
            q = _eadd(q, p)
        p = _eadd(p, p)
        a >>= 1
    x, y, z, _ = q
    zi = pow(z, _P - 2, _P)
    x, y = x * zi % _P, y * zi % _P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def x25519(k, u=(9).to_bytes(32, "little")):
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
        a, b = (x2 + z2) % _P, (x2 - z2) % _P
        aa, bb = a * a % _P, b * b % _P
        e = (aa - bb) % _P
        c, d = (x3 + z3) % _P, (x3 - z3) % _P
        da, cb = d * a % _P, c * b % _P
        x3 = (da + cb) ** 2 % _P
        z3 = x1 * (da - cb) ** 2 % _P
        x2 = aa * bb % _P
        z2 = e * (aa + 121665 * e) % _P
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, _P - 2, _P) % _P).to_bytes(32, "little")


def wg_keypair(r):
    k = bytearray(rbytes(r, 32))
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    k = bytes(k)
    return b64(k), b64(x25519(k))


_EP = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff
_EN = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
_EG = (0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296,
       0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5)


def _padd(p, q):
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0]:
        if (p[1] + q[1]) % _EP == 0:
            return None
        lam = (3 * p[0] * p[0] - 3) * pow(2 * p[1], _EP - 2, _EP) % _EP
    else:
        lam = (q[1] - p[1]) * pow(q[0] - p[0], _EP - 2, _EP) % _EP
    x = (lam * lam - p[0] - q[0]) % _EP
    return (x, (lam * (p[0] - x) - p[1]) % _EP)


def p256_pub(d):
    q, p = None, _EG
    while d:
        if d & 1:
            q = _padd(q, p)
        p = _padd(p, p)
        d >>= 1
    return b"\x04" + q[0].to_bytes(32, "big") + q[1].to_bytes(32, "big")


def der(tag, body):
    n = len(body)
    if n < 128:
        ln = bytes([n])
    elif n < 256:
        ln = bytes([0x81, n])
    else:
        ln = bytes([0x82, n >> 8, n & 255])
    return bytes([tag]) + ln + body


def pem(label, blob, width=64):
    s = b64(blob)
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (
        label, "\n".join(s[i:i + width] for i in range(0, len(s), width)), label)


def ec_pkcs8_pem(r):
    d = r.randrange(1, _EN)
    pub = p256_pub(d)
    sec1 = der(0x30, der(0x02, b"\x01") + der(0x04, d.to_bytes(32, "big")) + der(0xa1, der(0x03, b"\x00" + pub)))
    alg = der(0x30, der(0x06, bytes.fromhex("2a8648ce3d0201")) + der(0x06, bytes.fromhex("2a8648ce3d030107")))
    return pem("PRIVATE KEY", der(0x30, der(0x02, b"\x00") + alg + der(0x04, sec1)))


def ec_sec1_pem(r):
    d = r.randrange(1, _EN)
    pub = p256_pub(d)
    sec1 = der(0x30, der(0x02, b"\x01") + der(0x04, d.to_bytes(32, "big"))
               + der(0xa0, der(0x06, bytes.fromhex("2a8648ce3d030107"))) + der(0xa1, der(0x03, b"\x00" + pub)))
    return pem("EC PRIVATE KEY", sec1)


def _sshstr(b):
    if isinstance(b, str):
        b = b.encode()
    return len(b).to_bytes(4, "big") + b


def ssh_ed25519(r, comment):
    """Return (openssh private key PEM, public key line)."""
    seed = rbytes(r, 32)
    pk = ed25519_pub(seed)
    pubblob = _sshstr("ssh-ed25519") + _sshstr(pk)
    chk = rbytes(r, 4)
    priv = chk + chk + _sshstr("ssh-ed25519") + _sshstr(pk) + _sshstr(seed + pk) + _sshstr(comment)
    i = 1
    while len(priv) % 8:
        priv += bytes([i])
        i += 1
    blob = (b"openssh-key-v1\x00" + _sshstr("none") + _sshstr("none") + _sshstr(b"")
            + (1).to_bytes(4, "big") + _sshstr(pubblob) + _sshstr(priv))
    return pem("OPENSSH PRIVATE KEY", blob, 70), "ssh-ed25519 %s %s" % (b64(pubblob), comment)


def ssh_ed25519_pub(r, comment):
    pk = ed25519_pub(rbytes(r, 32))
    return "ssh-ed25519 %s %s" % (b64(_sshstr("ssh-ed25519") + _sshstr(pk)), comment)


def fake_cert_pem(r, cn):
    """Structurally plausible X.509 DER blob (public material; random bytes inside)."""
    tbs = der(0x30, der(0xa0, der(0x02, b"\x02")) + der(0x02, b"\x00" + rbytes(r, 19))
              + der(0x30, der(0x06, bytes.fromhex("2a864886f70d01010b")) + b"\x05\x00")
              + der(0x30, der(0x31, der(0x30, der(0x06, bytes.fromhex("550403")) + der(0x0c, cn.encode()))))
              + rbytes(r, r.randint(280, 420)))
    cert = der(0x30, tbs + der(0x30, der(0x06, bytes.fromhex("2a864886f70d01010b")) + b"\x05\x00")
               + der(0x03, b"\x00" + rbytes(r, 256)))
    return pem("CERTIFICATE", cert)


def jwt_hs256(r, payload, header=None):
    header = header or {"alg": "HS256", "typ": "JWT"}
    h = b64u(json.dumps(header, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    key = rs(r, 40).encode()
    sig = hmac.new(key, (h + "." + p).encode(), hashlib.sha256).digest()
    return h + "." + p + "." + b64u(sig)


def _varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def pypi_token(r, project=None):
    """PyPI API token: 'pypi-' + macaroon v2 (binary) base64url, location pypi.org."""
    key = rbytes(r, 32)
    ident = ruuid(r).encode()
    if project:
        caveats = [json.dumps([1, [project]], separators=(",", ":")).encode()]
    else:
        caveats = [b'{"version": 1, "permissions": "user"}']
    sig = hmac.new(key, ident, hashlib.sha256).digest()
    for c in caveats:
        sig = hmac.new(sig, c, hashlib.sha256).digest()

    def field(t, data):
        return bytes([t]) + _varint(len(data)) + data
    m = b"\x02" + field(1, b"pypi.org") + field(2, ident) + b"\x00"
    for c in caveats:
        m += field(2, c) + b"\x00"
    m += b"\x00" + field(6, sig)
    return "pypi-" + b64u(m)


# ================================================================ templates
TEMPLATES = []   # (context, kind, group, fn)


def tpl(context, kind, group):
    def deco(fn):
        TEMPLATES.append((context, kind, group, fn))
        return fn
    return deco


# ---------------------------------------------------------------- vendor token generators
def tok_stripe(r):
    if r.random() < 0.5:
        return "sk_live_" + rs(r, 24)
    return "sk_live_51" + rs(r, 12, DIG + UP) + rs(r, 85)


def tok_openai(r):
    n = r.choice([74, 58])
    return "sk-proj-" + rs(r, n, URLSAFE) + "T3BlbkFJ" + rs(r, n, URLSAFE)


def tok_anthropic(r):
    return "sk-ant-api03-" + rs(r, 93, URLSAFE) + "AA"


def tok_telegram(r):
    return "%d:AA%s%s" % (r.randint(5000000000, 8299999999), r.choice("EFGH"), rs(r, 32, URLSAFE))


def tok_sentry_org(r, org_slug):
    payload = {"iat": round(r.uniform(1.69e9, 1.74e9), 6), "url": "https://sentry.io",
               "region_url": r.choice(["https://us.sentry.io", "https://de.sentry.io"]), "org": org_slug}
    return ("sntrys_" + b64(json.dumps(payload, separators=(",", ":")).encode()).rstrip("=")
            + "_" + b64(rhex(r, 32).encode()).rstrip("="))


def tok_atlassian(r):
    s = "ATATT3xFfGF0" + rs(r, 171, URLSAFE) + "="
    return s + "%08X" % (zlib.crc32(s.encode()) & 0xFFFFFFFF)


def tok_mapbox_sk(r, user):
    payload = json.dumps({"u": user, "a": "cl" + rs(r, 23, LOW + DIG)}, separators=(",", ":"))
    return "sk." + b64u(payload.encode()) + "." + rs(r, 22, URLSAFE)


def tok_azure_secret(r):
    a = ALNUM + "_~."
    return rs(r, 3, a) + r.choice(DIG) + "Q~" + rs(r, 34, a + "-")


# ---------------------------------------------------------------- vendor templates
@tpl("vscode-settings", "github-pat", "vendor")
def t_vscode_github(r):
    tok = crc_b62_token(r, "ghp_")
    o = org(r)
    font = r.choice([13, 14, 15, 16])
    theme = r.choice(["Default Dark Modern", "One Dark Pro", "GitHub Dark Dimmed", "Solarized Light"])
    if r.random() < 0.5:
        body = '''{
  "workbench.colorTheme": "%s",
  "editor.fontSize": %d,
  "editor.formatOnSave": true,
  "editor.rulers": [100],
  "files.exclude": {
    "**/.git": true,
    "**/node_modules": true,
    "**/__pycache__": true
  },
  "rest-client.environmentVariables": {
    "$shared": {
      "apiBase": "https://api.github.com",
      "owner": "%s"
    },
    "work": {
      "token": "%s"
    }
  },
  "rest-client.timeoutinmilliseconds": 15000,
  "git.autofetch": true,
  "python.defaultInterpreterPath": "${workspaceFolder}/.venv/bin/python"
}''' % (theme, font, o, tok)
        req = '''### list workflow runs
GET {{apiBase}}/repos/{{owner}}/%s/actions/runs?per_page=5
Authorization: Bearer {{token}}
Accept: application/vnd.github+json''' % r.choice(PROJ)
        intro = r.choice(["REST Client keeps returning `401 Bad credentials` for every request since I switched environments. settings.json:",
                          "Not sure if this is a REST Client bug or me. Switching to the `work` environment and sending the request gives 401. My user settings:"])
        return tok, "%s\n\n```jsonc\n%s\n```\n\nrequest file (`github.http`):\n\n```http\n%s\n```\n\nResponse:\n```\nHTTP/1.1 401 Unauthorized\nx-github-media-type: github.v3; format=json\n\n{\n  \"message\": \"Bad credentials\",\n  \"documentation_url\": \"https://docs.github.com/rest\",\n  \"status\": \"401\"\n}\n```\n" % (intro, body, req)
    mod, mver = r.choice(PROJ), semver(r)
    body = '''{
  "editor.fontSize": %d,
  "editor.minimap.enabled": false,
  "terminal.integrated.defaultProfile.linux": "zsh",
  "terminal.integrated.env.linux": {
    "GITHUB_TOKEN": "%s",
    "GOPRIVATE": "github.com/%s/*"
  },
  "go.toolsManagement.autoUpdate": true,
  "gopls": {
    "ui.semanticTokens": true
  },
  "workbench.colorTheme": "%s"
}''' % (font, tok, o, theme)
    return tok, '''`go mod tidy` from the integrated terminal can't fetch our private modules, but the same command works in a normal terminal. I set the token in settings so the integrated terminal picks it up:

```json
%s
```

Output in the VS Code terminal:

```
$ go mod tidy
go: github.com/%s/%s@v%s: reading github.com/%s/%s/go.mod at revision v%s: git ls-remote -q origin in /home/%s/go/pkg/mod/cache/vcs/%s: exit status 128:
	fatal: could not read Username for 'https://github.com': terminal prompts disabled
Confirm the import path was typed correctly.
```

VS Code 1.%d.%d, Remote-SSH into Ubuntu 22.04.''' % (body, o, mod, mver, o, mod, mver, uname(r), rhex(r, 64), r.randint(80, 96), r.randint(0, 3))


@tpl("npm-publish-issue", "npm-token", "vendor")
def t_npm(r):
    tok = crc_b62_token(r, "npm_")
    scope = org(r).split("-")[0]
    pkg = r.choice(["ui-kit", "eslint-config", "logger", "sdk", "icons", "utils"])
    ver = semver(r, (0, 3))
    u = uname(r)
    d = rdt(r)
    files = ["LICENSE", "README.md", "dist/index.cjs", "dist/index.mjs", "dist/index.d.ts", "package.json"]
    lines = ["npm notice %s %s" % (("%.1fkB" % r.uniform(0.3, 40)).rjust(6), f) for f in files]
    npmrc = ["//registry.npmjs.org/:_authToken=%s" % tok, "@%s:registry=https://registry.npmjs.org/" % scope]
    if r.random() < 0.5:
        npmrc.insert(0, "init-author-name=%s %s" % person(r))
    return tok, '''**Describe the bug**
`npm publish` returns E404 for our scoped package even though I'm logged in and a member of the org.

**Steps**
```
$ npm whoami
%s
$ npm publish --access public
npm notice
npm notice 📦  @%s/%s@%s
npm notice === Tarball Contents ===
%s
npm notice === Tarball Details ===
npm notice name:          @%s/%s
npm notice version:       %s
npm notice filename:      %s-%s-%s.tgz
npm notice package size:  %.1f kB
npm notice unpacked size: %.1f kB
npm notice shasum:        %s
npm notice total files:   %d
npm notice
npm notice Publishing to https://registry.npmjs.org/ with tag latest and public access
npm ERR! code E404
npm ERR! 404 Not Found - PUT https://registry.npmjs.org/@%s%%2f%s - Not found
npm ERR! 404
npm ERR! 404  '@%s/%s@%s' is not in this registry.
npm ERR! 404
npm ERR! 404 Note that you can also install from a
npm ERR! 404 tarball, folder, http url, or git url.

npm ERR! A complete log of this run can be found in: /home/%s/.npm/_logs/%s-debug-0.log
```

~/.npmrc:
```
%s
```

**Environment**
- npm: %s
- node: v%d.%d.%d
- OS: %s''' % (u, scope, pkg, ver, "\n".join(lines), scope, pkg, ver, scope, pkg, ver, r.uniform(5, 90), r.uniform(20, 400), rhex(r, 40), len(files), scope, pkg, scope, pkg, ver, u, iso(d, ms=True).replace(":", "_"), "\n".join(npmrc), r.choice(["10.2.4", "10.5.0", "9.8.1", "10.8.2"]), r.choice([18, 20, 22]), r.randint(0, 19), r.randint(0, 9), r.choice(["Ubuntu 22.04", "macOS 14.4", "Windows 11 (WSL2)"]))


@tpl("gitlab-issue", "gitlab-pat", "vendor")
def t_gitlab(r):
    tok = "glpat-" + rs(r, 20, URLSAFE)
    inst = r.choice(["gitlab.com", "git.%s" % domain(r), "gitlab.%s" % domain(r)])
    grp, proj = org(r), r.choice(PROJ)
    if r.random() < 0.5:
        cmd = "git clone https://oauth2:%s@%s/%s/%s.git" % (tok, inst, grp, proj)
        out = '''Cloning into '%s'...
remote: HTTP Basic: Access denied. The provided password or token is incorrect or your account has 2FA enabled and you must use a personal access token instead of a password. See https://%s/help/topics/git/troubleshooting_git#error-on-git-fetch-http-basic-access-denied
fatal: Authentication failed for 'https://%s/%s/%s.git/\'''' % (proj, inst, inst, grp, proj)
    else:
        cmd = 'curl --header "PRIVATE-TOKEN: %s" "https://%s/api/v4/projects/%s%%2F%s/pipelines?per_page=3"' % (tok, inst, grp, proj)
        out = '{"message":"403 Forbidden - Your account has been blocked."}' if r.random() < 0.5 else '{"message":"401 Unauthorized"}'
    return tok, '''### Summary

After upgrading our self-managed instance to %d.%d the token I created yesterday (scopes `read_api`, `read_repository`) stopped working from the build VM.

### Steps to reproduce

```shell
$ %s
%s
```

### What is the current *bug* behavior?

Request is rejected although the token shows as active under *User Settings > Access Tokens* (expires %s).

### What is the expected *correct* behavior?

Clone/API call succeeds.

### Output of checks

```
$ git --version
git version 2.%d.%d
```

/label ~"type::bug" ~"group::authentication"''' % (r.randint(15, 17), r.randint(0, 11), cmd, out, (rdt(r) + datetime.timedelta(days=300)).strftime("%Y-%m-%d"), r.randint(34, 45), r.randint(0, 4))


@tpl("slack-export-json", "stripe-secret-key", "vendor")
def t_slack_stripe(r):
    key = tok_stripe(r)
    team = "T0" + rs(r, 8, UP + DIG)
    users = [("U0" + rs(r, 8, UP + DIG), uname(r), "%s %s" % person(r)) for _ in range(3)]
    d = rdt(r)
    msgs = []
    texts = [(0, "payments webhook on staging is returning 401 again, anyone touched the key?"),
             (1, "I rotated it last week. which one is the app using?"),
             (0, "this is what's in the checkout service config right now: `STRIPE_SECRET_KEY=%s`" % key),
             (2, "that's the live one :grimacing: please don't put it in this channel, I'll roll it now")]
    for k, (who, txt) in enumerate(texts):
        d = later(d, r, 20, 400)
        ts = "%d.%06d" % (epoch(d), r.randint(0, 999999))
        m = {"client_msg_id": ruuid(r), "type": "message", "text": txt, "user": users[who][0], "ts": ts,
             "team": team, "user_profile": {"display_name": users[who][1], "real_name": users[who][2], "is_restricted": False}}
        if k == 0:
            m["blocks"] = [{"type": "rich_text", "block_id": rs(r, 4, ALNUM),
                            "elements": [{"type": "rich_text_section", "elements": [{"type": "text", "text": txt}]}]}]
        msgs.append(m)
    return key, "%s/%s.json\n%s\n" % (r.choice(["payments", "eng-backend", "checkout-team"]), d.strftime("%Y-%m-%d"), json.dumps(msgs, indent=4, ensure_ascii=False))


@tpl("neovim-lua", "openai-api-key", "vendor")
def t_nvim_openai(r):
    key = tok_openai(r)
    if r.random() < 0.5:
        code = '''-- ~/.config/nvim/lua/plugins/chatgpt.lua
return {
  "jackMort/ChatGPT.nvim",
  event = "VeryLazy",
  dependencies = {
    "MunifTanjim/nui.nvim",
    "nvim-lua/plenary.nvim",
    "folke/trouble.nvim",
    "nvim-telescope/telescope.nvim",
  },
  config = function()
    vim.env.OPENAI_API_KEY = "%s"
    require("chatgpt").setup({
      openai_params = {
        model = "%s",
        max_tokens = %d,
        temperature = 0.2,
      },
      popup_layout = { default = "center" },
    })
  end,
}''' % (key, r.choice(["gpt-4o", "gpt-4o-mini", "gpt-4-turbo"]), r.choice([1024, 2048, 4096]))
        err = "E5108: Error executing lua ...lazy/ChatGPT.nvim/lua/chatgpt/api.lua:%d: attempt to index local 'json' (a nil value)" % r.randint(90, 260)
    else:
        code = '''-- lua/plugins/avante.lua
return {
  "yetone/avante.nvim",
  event = "VeryLazy",
  build = "make",
  opts = {
    provider = "openai",
    openai = {
      endpoint = "https://api.openai.com/v1",
      model = "%s",
      timeout = 30000,
      temperature = 0,
      max_tokens = %d,
      api_key_name = "cmd:echo %s",
    },
  },
  dependencies = { "stevearc/dressing.nvim", "nvim-lua/plenary.nvim", "MunifTanjim/nui.nvim" },
}''' % (r.choice(["gpt-4o", "gpt-4o-mini"]), r.choice([4096, 8192]), key)
        err = "Error: avante.nvim: request failed with status 429: You exceeded your current quota, please check your plan and billing details."
    return key, '''Since updating plugins with :Lazy sync I get this on every prompt:

```
%s
```

Here's my plugin spec, nothing fancy:

```lua
%s
```

NVIM v0.%d.%d, lazy.nvim, macOS. Any idea?''' % (err, code, r.choice([9, 10]), r.randint(0, 4))


@tpl("colab-cell", "anthropic-api-key", "vendor")
def t_colab_anthropic(r):
    key = tok_anthropic(r)
    n = r.randint(3, 9)
    model = r.choice(["claude-3-5-sonnet-20241022", "claude-3-haiku-20240307", "claude-3-opus-20240229"])
    setkey = r.choice(['os.environ["ANTHROPIC_API_KEY"] = "%s"\nclient = anthropic.Anthropic()' % key,
                       'client = anthropic.Anthropic(api_key="%s")' % key])
    return key, '''[%d] !pip install -q anthropic pandas
[%d] import os, anthropic
     import pandas as pd

     %s
     df = pd.read_csv("/content/drive/MyDrive/%s.csv")
     print(df.shape)
(%d, %d)
[%d] def summarize(text):
         msg = client.messages.create(
             model="%s",
             max_tokens=%d,
             messages=[{"role": "user", "content": f"Summarize this review in one sentence:\\n\\n{text}"}],
         )
         return msg.content[0].text

     df["summary"] = df["review"].head(%d).apply(summarize)
---------------------------------------------------------------------------
RateLimitError                            Traceback (most recent call last)
<ipython-input-%d-%s> in <cell line: 8>()
      6     return msg.content[0].text
      7
----> 8 df["summary"] = df["review"].head(%d).apply(summarize)

/usr/local/lib/python3.10/dist-packages/anthropic/_base_client.py in _request(self, cast_to, options, retries_taken, stream, stream_cls)
   1056
   1057             log.debug("Re-raising status error")
-> 1058             raise self._make_status_error_from_response(err.response) from None

RateLimitError: Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'Number of request tokens has exceeded your per-minute rate limit'}}''' % (
        n, n + 1, setkey, r.choice(["reviews_2024", "survey_export", "tickets_q3"]), r.randint(500, 9000), r.randint(4, 12),
        n + 2, model, r.choice([200, 300, 512]), r.choice([50, 100, 200]), n + 2, rhex(r, 12), r.choice([50, 100, 200]))


@tpl("julia-script", "huggingface-token", "vendor")
def t_julia_hf(r):
    tok = "hf_" + rs(r, 34, string.ascii_letters)
    model = r.choice(["sentence-transformers/all-MiniLM-L6-v2", "BAAI/bge-small-en-v1.5", "intfloat/e5-small-v2"])
    return tok, '''# embed.jl
using HTTP, JSON3, LinearAlgebra

const HF_TOKEN = "%s"
const MODEL = "%s"
const URL = "https://api-inference.huggingface.co/pipeline/feature-extraction/$MODEL"

function embed(texts::Vector{String})
    resp = HTTP.post(URL,
        ["Authorization" => "Bearer $HF_TOKEN", "Content-Type" => "application/json"],
        JSON3.write(Dict("inputs" => texts, "options" => Dict("wait_for_model" => true)));
        readtimeout = %d)
    return [Float32.(v) for v in JSON3.read(resp.body)]
end

docs = readlines("data/%s.txt")
E = embed(docs[1:%d])
println(size(E), " ", norm(E[1]))

julia> include("embed.jl")
ERROR: HTTP.Exceptions.StatusError(%d, "POST", "/pipeline/feature-extraction/%s", HTTP.Messages.Response:
"""
HTTP/1.1 %d %s
Content-Type: application/json
x-request-id: %s

{"error":"%s"}""")
Stacktrace:
 [1] (::HTTP.ConnectionRequest.var"#connections#4"{...})(req::HTTP.Messages.Request; proxy::Nothing, socket_type::Type, socket_type_tls::Type, readtimeout::Int64, kw::@Kwargs{...})
   @ HTTP.ConnectionRequest ~/.julia/packages/HTTP/sJD5V/src/clientlayers/ConnectionRequest.jl:%d''' % (
        tok, model, r.choice([60, 120]), r.choice(["abstracts", "titles", "faq"]), r.choice([16, 32, 64]),
        503, model, 503, "Service Unavailable", ruuid(r), "Model %s is currently loading" % model, r.randint(80, 140))


@tpl("homeassistant-configuration", "telegram-bot-token", "vendor")
def t_ha_telegram(r):
    tok = tok_telegram(r)
    chat = r.randint(100000000, 1999999999)
    d = rdt(r)
    tz = r.choice(TZS)
    return tok, '''Telegram notifications stopped after the 2024.%d update. Relevant part of configuration.yaml:

```yaml
homeassistant:
  name: Home
  unit_system: metric
  time_zone: %s
  currency: EUR

default_config:

telegram_bot:
  - platform: polling
    api_key: "%s"
    allowed_chat_ids:
      - %d

notify:
  - platform: telegram
    name: phone
    chat_id: %d

automation: !include automations.yaml
script: !include scripts.yaml
```

and the log:

```
%s ERROR (MainThread) [homeassistant.components.telegram_bot.polling] Error while getting Updates: Conflict: terminated by other getUpdates request; make sure that only one bot instance is running (Conflict)
%s ERROR (MainThread) [homeassistant.components.telegram_bot.polling] Error while getting Updates: Conflict: terminated by other getUpdates request; make sure that only one bot instance is running (Conflict)
%s WARNING (MainThread) [homeassistant.components.telegram_bot] Update None caused error Conflict('terminated by other getUpdates request; make sure that only one bot instance is running')
```''' % (r.randint(1, 12), tz, tok, chat, chat, d.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % r.randint(0, 999),
          later(d, r, 10, 12).strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % r.randint(0, 999),
          later(d, r, 13, 15).strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % r.randint(0, 999))


@tpl("fastlane-fastfile", "sentry-auth-token", "vendor")
def t_fastlane_sentry(r):
    o = org(r)
    tok = tok_sentry_org(r, o)
    app = r.choice(["Pocketbook", "TrailMate", "Grocer", "Lumi", "FieldNotes"])
    d = rdt(r)
    t = [later(d, r, i * 30, i * 30 + 20).strftime("%H:%M:%S") for i in range(1, 8)]
    return tok, '''Fastfile:

```ruby
default_platform(:ios)

platform :ios do
  desc "Push a new beta build to TestFlight"
  lane :beta do
    setup_ci if ENV["CI"]
    match(type: "appstore", readonly: true)
    increment_build_number(xcodeproj: "%s.xcodeproj")
    build_app(scheme: "%s", export_method: "app-store", include_bitcode: false)
    sentry_debug_files_upload(
      auth_token: "%s",
      org_slug: "%s",
      project_slug: "%s-ios",
      include_sources: true
    )
    upload_to_testflight(skip_waiting_for_build_processing: true)
  end
end
```

Output:

```
[%s]: ------------------------------------------
[%s]: --- Step: sentry_debug_files_upload ---
[%s]: ------------------------------------------
[%s]: sentry-cli %s
[%s]: Found 3 debug information files
[%s]: error: API request failed
[%s]:   caused by: sentry reported an error: You do not have permission to perform this action. (http status: 403)
```

The same token works with `sentry-cli info` locally. fastlane %s, Xcode 15.%d.''' % (
        app, app, tok, o, app.lower(), t[0], t[0], t[0], t[1], "2.%d.%d" % (r.randint(20, 39), r.randint(0, 5)), t[2], t[3], t[3],
        "2.%d.%d" % (r.randint(215, 225), r.randint(0, 3)), r.randint(0, 4))


@tpl("maven-debug-log", "sonarqube-token", "vendor")
def t_maven_sonar(r):
    tok = r.choice(["squ_", "sqp_", "sqa_"]) + rhex(r, 40)
    host_ = r.choice(["https://sonar.%s" % domain(r), "http://sonarqube.internal:9000", "https://sonarqube.%s" % domain(r)])
    proj = r.choice(PROJ)
    return tok, '''Running the analysis from my machine fails, CI is fine. Command + output (trimmed):

```
$ mvn -B clean verify sonar:sonar -Dsonar.projectKey=%s -Dsonar.host.url=%s -Dsonar.token=%s
[INFO] Scanning for projects...
[INFO]
[INFO] -----------------------< com.%s:%s >------------------------
[INFO] Building %s %s-SNAPSHOT
[INFO]   from pom.xml
[INFO] --------------------------------[ jar ]---------------------------------
...
[INFO] Tests run: %d, Failures: 0, Errors: 0, Skipped: %d
[INFO]
[INFO] --- sonar:3.11.0.3922:sonar (default-cli) @ %s ---
[INFO] User cache: /home/%s/.sonar/cache
[INFO] SonarQube version: 10.%d.0.%d
[INFO] Default locale: "en_US", source code encoding: "UTF-8"
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  %d.%03d s
[ERROR] Failed to execute goal org.sonarsource.scanner.maven:sonar-maven-plugin:3.11.0.3922:sonar (default-cli) on project %s: Not authorized. Analyzing this project requires authentication. Please check the user token in the property 'sonar.token' or the credentials in the properties 'sonar.login' and 'sonar.password'. -> [Help 1]
```

Java 17, Maven 3.9.%d.''' % (proj, host_, tok, org(r).replace("-", ""), proj, proj, semver(r, (1, 4)), r.randint(40, 900), r.randint(0, 9),
                            proj, uname(r), r.randint(2, 7), r.randint(80000, 99999), r.randint(20, 190), r.randint(0, 999), proj, r.randint(4, 9))


@tpl("poetry-publish-verbose", "pypi-token", "vendor")
def t_poetry_pypi(r):
    pkg = r.choice(["tinyq", "csvkit-ng", "pydantic-geo", "fastcache2", "mkdocs-foo-plugin", "loglens"])
    tok = pypi_token(r, project=pkg if r.random() < 0.5 else None)
    ver = semver(r, (0, 2))
    return tok, '''$ poetry config pypi-token.pypi %s
$ poetry publish --build -vvv
Loading configuration file /home/%s/.config/pypoetry/config.toml
Using virtualenv: /home/%s/.cache/pypoetry/virtualenvs/%s-%s-py3.%d
Building %s (%s)
  - Building sdist
  - Built %s-%s.tar.gz
  - Building wheel
  - Built %s-%s-py3-none-any.whl

Publishing %s (%s) to PyPI
 - Uploading %s-%s-py3-none-any.whl 0%%
 - Uploading %s-%s-py3-none-any.whl 100%%

Stack trace:

  2  ~/.local/pipx/venvs/poetry/lib/python3.%d/site-packages/poetry/publishing/uploader.py:%d in _upload_file
      resp.raise_for_status()

HTTPError

  403 Client Error: Invalid or non-existent authentication information. See https://pypi.org/help/#invalid-auth for more information. for url: https://upload.pypi.org/legacy/

  at ~/.local/pipx/venvs/poetry/lib/python3.%d/site-packages/requests/models.py:1021 in raise_for_status''' % (
        tok, uname(r), uname(r), pkg, rs(r, 8, URLSAFE), r.randint(10, 12), pkg, ver, pkg.replace("-", "_"), ver,
        pkg.replace("-", "_"), ver, pkg, ver, pkg.replace("-", "_"), ver, pkg.replace("-", "_"), ver, r.randint(10, 12), r.randint(240, 280), r.randint(10, 12))


@tpl("helm-debug", "dockerhub-pat", "vendor")
def t_helm_docker(r):
    tok = "dckr_pat_" + rs(r, 27, URLSAFE)
    rel = r.choice(PROJ)
    ns = r.choice(["apps", "staging", "default", "prod"])
    user = uname(r)
    return tok, '''values-%s.yaml:

```yaml
replicaCount: 2
image:
  repository: docker.io/%s/%s
  tag: "%s"
  pullPolicy: IfNotPresent
imageCredentials:
  registry: https://index.docker.io/v1/
  username: %s
  password: %s
  email: %s
service:
  type: ClusterIP
  port: 8080
```

```
$ helm upgrade --install %s ./chart -n %s -f values-%s.yaml --debug
history.go:56: [debug] getting history for release %s
upgrade.go:144: [debug] preparing upgrade for %s
upgrade.go:152: [debug] performing update for %s
Error: UPGRADE FAILED: template: %s/templates/_helpers.tpl:%d:%d: executing "imagePullSecret" at <printf "{\\"auths\\":{\\"%%s\\":{\\"username\\":\\"%%s\\",\\"password\\":\\"%%s\\",\\"email\\":\\"%%s\\",\\"auth\\":\\"%%s\\"}}}" .registry .username .password .email (printf "%%s:%%s" .username .password | b64enc)>: error calling printf: wrong type for value; expected string; got map[string]interface {}
helm.go:84: [debug] template: %s/templates/_helpers.tpl:%d:%d: executing "imagePullSecret" ...
```''' % (ns, user, rel, semver(r), user, tok, email(r), rel, ns, ns, rel, rel, rel, rel, r.randint(30, 70), r.randint(3, 20), rel, r.randint(30, 70), r.randint(3, 20))


@tpl("gcloud-issue", "google-oauth-client-secret", "vendor")
def t_gcloud_gocspx(r):
    sec = "GOCSPX-" + rs(r, 28, URLSAFE)
    num = r.randint(10 ** 11, 10 ** 12 - 1)
    cid = "%d-%s.apps.googleusercontent.com" % (num, rs(r, 32, LOW + DIG))
    pid = "%s-%d" % (r.choice(PROJ), r.randint(100000, 999999))
    cs = json.dumps({"installed": {"client_id": cid, "project_id": pid, "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                                   "token_uri": "https://oauth2.googleapis.com/token",
                                   "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
                                   "client_secret": sec, "redirect_uris": ["http://localhost"]}}, indent=r.choice([None, 2]))
    return sec, '''`gcloud auth application-default login --client-id-file` fails with my own OAuth client (I need the Drive scope for a local script).

```
$ cat ~/keys/client_secret_%d.json
%s
$ gcloud auth application-default login --client-id-file=$HOME/keys/client_secret_%d.json --scopes=https://www.googleapis.com/auth/drive.readonly,https://www.googleapis.com/auth/cloud-platform --verbosity=debug
DEBUG: Running [gcloud.auth.application-default.login] with arguments: [--client-id-file: "/home/%s/keys/client_secret_%d.json", --scopes: "[...]", --verbosity: "debug"]
Your browser has been opened to visit:

    https://accounts.google.com/o/oauth2/auth?response_type=code&client_id=%s&redirect_uri=http%%3A%%2F%%2Flocalhost%%3A8085%%2F&scope=...&state=%s&access_type=offline&code_challenge=%s&code_challenge_method=S256

DEBUG: (gcloud.auth.application-default.login) (access_denied) Error 400: redirect_uri_mismatch
ERROR: gcloud crashed (OAuthError): (access_denied) Error 400: redirect_uri_mismatch
```

Google Cloud SDK %d.0.0, Debian 12.''' % (num, cs, num, uname(r), num, cid, rs(r, 30, ALNUM), rs(r, 43, URLSAFE), r.randint(450, 499))


@tpl("az-cli-debug", "azure-client-secret", "vendor")
def t_az_secret(r):
    sec = tok_azure_secret(r)
    app, tenant = ruuid(r), ruuid(r)
    d = rdt(r)
    return sec, '''Service principal login works in the portal test but not from the CLI. I double-checked I'm using the secret *value*, not the secret ID.

```
PS C:\\src\\%s> az login --service-principal -u %s -p "%s" --tenant %s --debug
cli.knack.cli: __init__ debug log:
Enable color in terminal.
cli.knack.cli: Event: Cli.PreExecute []
cli.knack.cli: Event: CommandParser.OnGlobalArgumentsCreate [<function CLILogging.on_global_arguments at 0x000001F3...>]
cli.azure.cli.core: Modules found from index for 'login': ['azure.cli.command_modules.profile']
cli.azure.cli.core.auth.identity: Using service principal with secret
msal.authority: Initializing with Entra authority: https://login.microsoftonline.com/%s
msal.application: Broker enabled? None
urllib3.connectionpool: https://login.microsoftonline.com:443 "POST /%s/oauth2/v2.0/token HTTP/1.1" 401 %d
cli.azure.cli.core.azclierror: Traceback (most recent call last):
  File "D:\\a\\_work\\1\\s\\build_scripts\\windows\\artifacts\\cli\\Lib\\site-packages\\knack/cli.py", line 233, in invoke
AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '%s'. Trace ID: %s Correlation ID: %s Timestamp: %s
```

azure-cli 2.%d.0''' % (r.choice(PROJ), app, sec, tenant, tenant, tenant, r.randint(600, 900), app, ruuid(r), ruuid(r),
                         d.strftime("%Y-%m-%d %H:%M:%SZ"), r.randint(55, 66))


@tpl("go-source", "linear-api-key", "vendor")
def t_go_linear(r):
    key = "lin_api_" + rs(r, 40)
    team = r.choice(["ENG", "OPS", "PLAT", "MOB", "WEB"])
    if r.random() < 0.5:
        decl = 'const linearAPIKey = "%s"' % key
        use = "linearAPIKey"
    else:
        decl = 'var cfg = Config{\n\tEndpoint: "https://api.linear.app/graphql",\n\tAPIKey:   "%s",\n\tTeam:     "%s",\n}' % (key, team)
        use = "cfg.APIKey"
    return key, '''package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"
)

type Config struct {
	Endpoint string
	APIKey   string
	Team     string
}

%s

func main() {
	q := map[string]string{"query": `{ issues(first: %d, filter: { team: { key: { eq: "%s" } }, state: { type: { eq: "started" } } }) { nodes { identifier title assignee { name } } } }`}
	body, _ := json.Marshal(q)
	req, err := http.NewRequest("POST", "https://api.linear.app/graphql", bytes.NewReader(body))
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", %s)
	client := &http.Client{Timeout: %d * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	fmt.Println("status:", resp.Status)
}

// $ go run .
// status: 400 Bad Request
// why 400?? the query works in the Linear API explorer''' % (decl, r.choice([20, 50]), team, use, r.choice([10, 15, 30]))


@tpl("jira-comment", "atlassian-api-token", "vendor")
def t_jira_atlassian(r):
    tok = tok_atlassian(r)
    site = r.choice(ORGS)
    em = email(r)
    key = r.choice(["OPS", "INFRA", "HELP", "PLAT", "DATA"])
    return tok, '''h3. Repro

The nightly export script gets a 401 since the SSO migration. Same call with curl:

{code:bash}
curl -s -u %s:%s \\
  -H "Accept: application/json" \\
  "https://%s.atlassian.net/rest/api/3/search?jql=project%%3D%s%%20AND%%20updated%%3E-1d&maxResults=100&fields=summary,status,assignee"
{code}

Response:
{code:json}
{"errorMessages":["You do not have permission to see the specified issue."],"errors":{}}
{code}

[~%s] can you check whether the service user still has *Browse projects* on %s? The token was created %s.''' % (
        em, tok, site, key, uname(r), key, rdt(r).strftime("%d/%b/%y"))


@tpl("stackoverflow-question", "shopify-admin-token", "vendor")
def t_so_shopify(r):
    tok = "shpat_" + rhex(r, 32)
    shop = r.choice(ORGS) + "-store"
    ver = "202%d-%02d" % (r.randint(3, 4), r.choice([1, 4, 7, 10]))
    if r.random() < 0.5:
        code = '''import requests

SHOP = "%s.myshopify.com"
HEADERS = {
    "X-Shopify-Access-Token": "%s",
    "Content-Type": "application/json",
}

def get_products(since_id=0):
    url = f"https://{SHOP}/admin/api/%s/products.json"
    r = requests.get(url, headers=HEADERS, params={"limit": 250, "since_id": since_id})
    r.raise_for_status()
    return r.json()["products"]

print(len(get_products()))''' % (shop, tok, ver)
        err = "requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://%s.myshopify.com/admin/api/%s/products.json?limit=250&since_id=0" % (shop, ver)
        lang = "python"
    else:
        code = '''const fetch = require("node-fetch");

const res = await fetch("https://%s.myshopify.com/admin/api/%s/graphql.json", {
  method: "POST",
  headers: {
    "Content-Type": "application/json",
    "X-Shopify-Access-Token": "%s",
  },
  body: JSON.stringify({ query: `{ orders(first: 10) { edges { node { id name } } } }` }),
});
console.log(await res.json());''' % (shop, ver, tok)
        err = '{ errors: "[API] This action requires merchant approval for read_orders scope." }'
        lang = "javascript"
    return tok, '''**Shopify Admin API returns 403 even though the custom app has the scope**

I created a custom app in the Shopify admin, enabled `read_products` and `read_orders`, installed it and copied the Admin API access token. Calling the API gives me:

```
%s
```

Code:

```%s
%s
```

What I've tried:
- reinstalling the app
- regenerating the token
- using API version `%s` and `unstable`

Is there something else I need to approve?

**Tags:** shopify, shopify-app, %s''' % (err, lang, code, ver, "python-requests" if lang == "python" else "node.js")


@tpl("postman-environment", "postman-api-key", "vendor")
def t_postman(r):
    key = "PMAK-" + rhex(r, 24) + "-" + rhex(r, 34)
    d = rdt(r)
    vals = [{"key": "baseUrl", "value": "https://api.getpostman.com", "type": "default", "enabled": True},
            {"key": "postman_api_key", "value": key, "type": "secret", "enabled": True},
            {"key": "workspaceId", "value": ruuid(r), "type": "default", "enabled": True},
            {"key": "collectionUid", "value": "%d-%s" % (r.randint(10 ** 7, 10 ** 8), ruuid(r)), "type": "default", "enabled": True}]
    env = {"id": ruuid(r), "name": r.choice(["Postman API", "monitoring", "CI sync"]), "values": vals,
           "_postman_variable_scope": "environment", "_postman_exported_at": iso(d, ms=True),
           "_postman_exported_using": "Postman/%d.%d.%d" % (r.randint(10, 11), r.randint(0, 30), r.randint(0, 20))}
    return key, '''Newman run fails with 401 in the pipeline but works in the app. Exported environment:

```json
%s
```

```
$ newman run collection.json -e %s.postman_environment.json
newman

%s

→ Get collection
  GET https://api.getpostman.com/collections/{{collectionUid}} [401 Unauthorized, 512B, %dms]
  1. Status code is 200
```''' % (json.dumps(env, indent="\t"), env["name"].replace(" ", "_"), r.choice(["sync-collections", "Postman API checks"]), r.randint(80, 400))


@tpl("xcode-build-netrc", "mapbox-secret-token", "vendor")
def t_xcode_mapbox(r):
    user = uname(r)
    tok = tok_mapbox_sk(r, user)
    ver = "11.%d.%d" % (r.randint(0, 8), r.randint(0, 3))
    return tok, '''Swift Package resolution fails for MapboxMaps in Xcode 15 and on the command line.

```
$ xcodebuild -resolvePackageDependencies -project %s.xcodeproj
Command line invocation:
    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild -resolvePackageDependencies -project %s.xcodeproj

Resolve Package Graph

Fetching from https://github.com/mapbox/mapbox-maps-ios.git (cached)
Fetching from https://github.com/mapbox/mapbox-common-ios.git (cached)
Creating working copy of package 'mapbox-maps-ios'
Checking out %s of package 'mapbox-maps-ios'
xcodebuild: error: Could not resolve package dependencies:
  failed downloading 'https://api.mapbox.com/downloads/v2/mapbox-common/releases/ios/packages/24.%d.0/MapboxCommon.zip' which is required by binary target 'MapboxCommon': badResponseStatusCode(401)
```

My ~/.netrc (chmod 600):

```
machine api.mapbox.com
login mapbox
password %s
```

The token has the `DOWNLOADS:READ` scope ticked. Anything else?''' % (user.capitalize(), user.capitalize(), ver, r.randint(0, 8), tok)


@tpl("r-script", "airtable-pat", "vendor")
def t_r_airtable(r):
    tok = "pat" + rs(r, 14) + "." + rhex(r, 64)
    base = "app" + rs(r, 14)
    tbl = r.choice(["Orders", "Volunteers", "Samples", "Inventory"])
    return tok, '''library(httr2)
library(dplyr)
library(purrr)

airtable_token <- "%s"
base_id <- "%s"

fetch_table <- function(table, offset = NULL) {
  req <- request(glue::glue("https://api.airtable.com/v0/{base_id}/{table}")) |>
    req_auth_bearer_token(airtable_token) |>
    req_url_query(pageSize = 100, view = "Grid view", offset = offset)
  resp <- req_perform(req)
  resp_body_json(resp)
}

raw <- fetch_table("%s")
df <- map_dfr(raw$records, ~ as_tibble(.x$fields))
glimpse(df)

> source("~/projects/%s/pull_airtable.R")
Error in `req_perform()`:
! HTTP 422 Unprocessable Entity.
Run `rlang::last_trace()` to see where the error occurred.
> sessionInfo()$R.version$version.string
[1] "R version 4.%d.%d (20%d-%02d-%02d)"''' % (tok, base, tbl, r.choice(["lab", "survey", "shop-reports"]), r.randint(2, 4), r.randint(0, 3),
                                              r.randint(22, 24), r.randint(1, 12), r.randint(1, 28))


@tpl("jetbrains-runconfig", "newrelic-user-key", "vendor")
def t_idea_newrelic(r):
    key = "NRAK-" + rs(r, 27, UP + DIG)
    proj = r.choice(PROJ)
    pkg = org(r).replace("-", "")
    return key, '''.idea/runConfigurations/%s__local_.xml

```xml
<component name="ProjectRunConfigurationManager">
  <configuration default="false" name="%s (local)" type="SpringBootApplicationConfigurationType" factoryName="Spring Boot">
    <option name="ACTIVE_PROFILES" value="local" />
    <envs>
      <env name="NEW_RELIC_APP_NAME" value="%s (local)" />
      <env name="NEW_RELIC_ACCOUNT_ID" value="%d" />
      <env name="NEW_RELIC_API_KEY" value="%s" />
      <env name="NEW_RELIC_REGION" value="%s" />
      <env name="SPRING_DATASOURCE_URL" value="jdbc:postgresql://localhost:5432/%s" />
    </envs>
    <module name="%s.main" />
    <option name="SPRING_BOOT_MAIN_CLASS" value="com.%s.%s.Application" />
    <option name="VM_PARAMETERS" value="-Xmx1g -Dspring.output.ansi.enabled=ALWAYS" />
    <method v="2">
      <option name="Make" enabled="true" />
    </method>
  </configuration>
</component>
```

The deployment-marker task at startup logs `NerdGraph returned 401` with this config. Is the user key the wrong key type for that?''' % (
        proj.replace("-", "_"), proj, proj, r.randint(1000000, 4999999), key, r.choice(["US", "EU"]), proj.replace("-", "_"), proj, pkg, proj.replace("-", ""))


@tpl("prisma-error-issue", "planetscale-password", "vendor")
def t_prisma_pscale(r):
    pw = "pscale_pw_" + rs(r, 43, URLSAFE)
    user = rs(r, 20, LOW + DIG)
    db = r.choice(["shop", "app", "blog", "saas-main"])
    region = r.choice(["aws.connect.psdb.cloud", "aws-eu-west-2.connect.psdb.cloud", "gcp-us-central1.connect.psdb.cloud"])
    return pw, '''### Bug description

`prisma db push` can't reach PlanetScale from my laptop, works from Vercel.

### How to reproduce

.env
```
DATABASE_URL="mysql://%s:%s@%s/%s?sslaccept=strict"
```

```
$ npx prisma db push
Environment variables loaded from .env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": MySQL database "%s" at "%s:3306"

Error: P1001: Can't reach database server at `%s`:`3306`

Please make sure your database server is running at `%s`:`3306`.
```

### Environment & setup

- OS: %s
- Database: PlanetScale (MySQL 8.0)
- Node.js version: %d.%d.%d
- Prisma: 5.%d.%d''' % (user, pw, region, db, db, region, region, region, r.choice(["macOS 14", "Windows 11", "Ubuntu 24.04"]), r.choice([18, 20]),
                        r.randint(0, 18), r.randint(0, 9), r.randint(5, 20), r.randint(0, 2))


@tpl("discord-chat-export", "groq-api-key", "vendor")
def t_discord_groq(r):
    key = "gsk_" + rs(r, 52)
    d = rdt(r)
    a, b, c = uname(r), uname(r), uname(r)

    def stamp():
        nonlocal d
        d = later(d, r, 30, 600)
        h = d.hour % 12 or 12
        return "[%d/%d/%d %d:%02d %s]" % (d.month, d.day, d.year, h, d.minute, "AM" if d.hour < 12 else "PM")
    return key, '''==============================================================
Guild: %s
Channel: %s / help-api
Topic: API questions. No keys in chat please.
==============================================================

%s %s
anyone else getting `401 invalid_api_key` from groq through the openai python client?

%s %s
show code

%s %s
```py
from openai import OpenAI
client = OpenAI(base_url="https://api.groq.com/openai/v1", api_key="%s")
resp = client.chat.completions.create(model="%s", messages=[{"role": "user", "content": "hi"}])
```

%s %s
you just posted your key lol. revoke it in the console

%s %s
also check you don't have OPENAI_API_KEY exported, it can win over the arg in some wrappers

%s %s
ok revoked, thanks''' % (r.choice(["LLM Builders", "AI Tinkerers", "Local LLM Club"]), r.choice(["Support", "Dev"]), stamp(), a, stamp(), b, stamp(), a, key,
                         r.choice(["llama3-70b-8192", "mixtral-8x7b-32768", "llama-3.1-8b-instant"]), stamp(), c, stamp(), b, stamp(), a)


# ---------------------------------------------------------------- keys / JWTs / webhooks / connection strings
@tpl("ssh-vvv-issue", "openssh-private-key", "keys")
def t_ssh_key(r):
    user = uname(r)
    hn = host(r)
    priv, pub = ssh_ed25519(r, "%s@%s" % (user, r.choice(["laptop", "deploy", "ci", hn])))
    srv = r.choice(["git.%s" % domain(r), pub_ip(r), "%s.%s" % (host(r), domain(r))])
    fp = b64(hashlib.sha256(rbytes(r, 32)).digest()).rstrip("=")
    return priv, '''Still `Permission denied (publickey)` after adding the key to the server. This is a throwaway test box so here is everything:

```
$ ssh -vvv -i ~/.ssh/deploy_ed25519 deploy@%s
OpenSSH_9.%dp1, OpenSSL 3.0.%d
debug1: Reading configuration data /etc/ssh/ssh_config
debug3: expanded UserKnownHostsFile '~/.ssh/known_hosts' -> '/home/%s/.ssh/known_hosts'
debug1: Connecting to %s port 22.
debug1: Connection established.
debug1: identity file /home/%s/.ssh/deploy_ed25519 type 3
debug1: Local version string SSH-2.0-OpenSSH_9.%dp1
debug1: Remote protocol version 2.0, remote software version OpenSSH_8.%d
debug1: Server host key: ssh-ed25519 SHA256:%s
debug1: Host '%s' is known and matches the ED25519 host key.
debug3: send packet: type 5
debug1: Authentications that can continue: publickey
debug1: Next authentication method: publickey
debug1: Offering public key: /home/%s/.ssh/deploy_ed25519 ED25519 SHA256:%s explicit
debug3: send packet: type 50
debug2: we sent a publickey packet, wait for reply
debug3: receive packet: type 51
debug1: Authentications that can continue: publickey
debug1: No more authentication methods to try.
deploy@%s: Permission denied (publickey).
```

```
$ cat ~/.ssh/deploy_ed25519
%s
$ cat ~/.ssh/deploy_ed25519.pub
%s
```

On the server `~deploy/.ssh/authorized_keys` contains the .pub line and the perms are 700/600.''' % (
        srv, r.randint(3, 7), r.randint(2, 13), user, srv, user, r.randint(3, 7), r.randint(2, 9), fp, srv, user,
        b64(rbytes(r, 32)).rstrip("="), srv, priv, pub)


@tpl("wireguard-conf", "wireguard-private-key", "keys")
def t_wireguard(r):
    priv, pub = wg_keypair(r)
    _, peer = wg_keypair(r)
    net = r.randint(2, 250)
    me = r.randint(2, 30)
    ep = r.choice([pub_ip(r), "vpn.%s" % domain(r), "%s.duckdns.org" % uname(r)])
    port = r.choice([51820, 51821, 443, 12345])
    lan = r.choice([0, 1, 178])
    return priv, '''wg-quick comes up but no handshake ever happens. Client config (/etc/wireguard/wg0.conf):

```ini
[Interface]
PrivateKey = %s
Address = 10.%d.0.%d/24
DNS = 10.%d.0.1
MTU = 1420

[Peer]
# home router
PublicKey = %s
AllowedIPs = 10.%d.0.0/24, 192.168.%d.0/24
Endpoint = %s:%d
PersistentKeepalive = 25
```

```
$ sudo wg-quick up wg0
[#] ip link add wg0 type wireguard
[#] wg setconf wg0 /dev/fd/63
[#] ip -4 address add 10.%d.0.%d/24 dev wg0
[#] ip link set mtu 1420 up dev wg0
[#] resolvconf -a wg0 -m 0 -x
$ sudo wg show
interface: wg0
  public key: %s
  private key: (hidden)
  listening port: %d

peer: %s
  endpoint: %s:%d
  allowed ips: 10.%d.0.0/24, 192.168.%d.0/24
  transfer: 0 B received, %s KiB sent
  persistent keepalive: every 25 seconds
```

Router side shows the peer but "latest handshake" is empty. Port forward is UDP %d -> router. Ideas?''' % (
        priv, net, me, net, peer, net, lan, ep, port, net, me, pub, r.randint(40000, 60000), peer, ep if not ep[0].isalpha() else pub_ip(r), port,
        net, lan, "%.2f" % r.uniform(1, 30), port)


@tpl("openvpn-profile", "ec-private-key", "keys")
def t_openvpn(r):
    key = r.choice([ec_pkcs8_pem, ec_sec1_pem])(r)
    cn = uname(r)
    remote = r.choice(["vpn.%s" % domain(r), pub_ip(r)])
    ca = fake_cert_pem(r, "%s VPN CA" % org(r))
    cert = fake_cert_pem(r, cn)
    return key, '''client.ovpn from our pfSense export (user %s), connection fails with "TLS key negotiation failed":

```
client
dev tun
proto udp
remote %s %d
resolv-retry infinite
nobind
persist-key
persist-tun
remote-cert-tls server
cipher AES-256-GCM
data-ciphers AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305
auth SHA256
verb 3
<ca>
%s
</ca>
<cert>
%s
</cert>
<key>
%s
</key>
```''' % (cn, remote, r.choice([1194, 1195, 443]), ca, cert, key)


@tpl("flutter-dart", "supabase-service-role-jwt", "keys")
def t_flutter_supabase(r):
    ref = rs(r, 20, LOW)
    iat = r.randint(1690000000, 1735000000)
    jwt = jwt_hs256(r, {"iss": "supabase", "ref": ref, "role": "service_role", "iat": iat, "exp": iat + 315532800})
    tbl = r.choice(["todos", "profiles", "orders", "messages"])
    return jwt, '''// lib/main.dart
import 'package:flutter/material.dart';
import 'package:supabase_flutter/supabase_flutter.dart';

Future<void> main() async {
  WidgetsFlutterBinding.ensureInitialized();

  await Supabase.initialize(
    url: 'https://%s.supabase.co',
    // anon key kept failing the RLS insert so I switched to this one for now
    anonKey: '%s',
  );
  runApp(const MyApp());
}

final supabase = Supabase.instance.client;

Future<void> addItem(String title) async {
  await supabase.from('%s').insert({'title': title, 'done': false});
}

/*
flutter run output:
I/flutter (%d): PostgrestException(message: new row violates row-level security policy for table "%s", code: 42501, details: Forbidden, hint: null)
*/''' % (ref, jwt, tbl, r.randint(2000, 32000), tbl)


@tpl("alertmanager-yml", "slack-webhook-url", "keys")
def t_alertmanager_slack(r):
    url = "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(r, r.choice([8, 10]), UP + DIG), rs(r, r.choice([8, 10, 11]), UP + DIG), rs(r, 24))
    d = rdt(r)
    return url, '''alertmanager.yml:

```yaml
global:
  resolve_timeout: 5m
  slack_api_url: '%s'

route:
  receiver: slack-default
  group_by: ['alertname', 'cluster', 'service']
  group_wait: 30s
  group_interval: 5m
  repeat_interval: %dh
  routes:
    - matchers:
        - severity="critical"
      receiver: slack-default
      continue: true

receivers:
  - name: slack-default
    slack_configs:
      - channel: '#%s'
        send_resolved: true
        title: '{{ template "slack.default.title" . }}'
        text: '{{ range .Alerts }}{{ .Annotations.summary }}{{ "\\n" }}{{ end }}'
```

Logs:

```
ts=%s caller=notify.go:848 level=warn component=dispatcher receiver=slack-default integration=slack[0] aggrGroup="{}:{alertname=\\"HostHighCpuLoad\\"}" msg="Notify attempt failed, will retry later" attempts=%d err="channel \\"#%s\\": unexpected status code 404: no_team"
```''' % (url, r.choice([3, 4, 12]), r.choice(["alerts", "ops-alerts", "infra-pager"]), iso(d, ms=True), r.randint(1, 9), r.choice(["alerts", "ops-alerts"]))


@tpl("grafana-contactpoint", "discord-webhook-url", "keys")
def t_grafana_discord(r):
    url = "https://discord.com/api/webhooks/%d/%s" % (r.randint(10 ** 17, 13 * 10 ** 17), rs(r, 68, URLSAFE))
    d = rdt(r)
    uid = rs(r, 14, LOW + DIG)
    return url, '''provisioning/alerting/contactpoints.yaml:

```yaml
apiVersion: 1
contactPoints:
  - orgId: 1
    name: discord-homelab
    receivers:
      - uid: %s
        type: discord
        settings:
          url: %s
          use_discord_username: false
          message: '{{ template "default.message" . }}'
        disableResolveMessage: false
```

Test notification from the UI fails too. Grafana %d.%d.%d log:

```
logger=ngalert.notifier.discord notifierUID=%s t=%s level=error msg="Failed to send Discord message" error="unexpected status code 401: {\\"message\\": \\"Invalid Webhook Token\\", \\"code\\": 50027}"
logger=ngalert.dispatcher t=%s level=error msg="Notify for alerts failed" num_alerts=%d err="discord-homelab/discord[0]: notify retry canceled due to unrecoverable error after 1 attempts"
```''' % (uid, url, r.randint(10, 11), r.randint(0, 5), r.randint(0, 3), uid, iso(d, ms=True, z=False) + "+00:00", iso(later(d, r, 0, 1), ms=True, z=False) + "+00:00", r.randint(1, 4))


@tpl("mongodb-node-error", "mongodb-uri-password", "keys")
def t_mongo(r):
    pw = gen_password(r, ("random", "alnum", "memorable"), avoid="@:/?#[]%")
    user = r.choice(["appuser", "api", "admin", uname(r)])
    cl = "cluster%d.%s.mongodb.net" % (r.randint(0, 3), rs(r, 5, LOW + DIG))
    db = r.choice(["shop", "test", "prod", "todo-app"])
    if r.random() < 0.5:
        return pw, '''server.js:

```js
const mongoose = require("mongoose");
mongoose
  .connect("mongodb+srv://%s:%s@%s/%s?retryWrites=true&w=majority&appName=Cluster0")
  .then(() => console.log("Mongo connected"))
  .catch((err) => console.error(err));
```

```
$ node server.js
Server listening on :3000
MongoServerError: bad auth : authentication failed
    at Connection.onMessage (/app/node_modules/mongodb/lib/cmap/connection.js:%d:%d)
    at MessageStream.<anonymous> (/app/node_modules/mongodb/lib/cmap/connection.js:%d:%d)
    at MessageStream.emit (node:events:519:28)
  ok: 0,
  code: 8000,
  codeName: 'AtlasError',
  connectionGeneration: 0,
  [Symbol(errorLabels)]: Set(2) { 'HandshakeError', 'ResetPool' }
}
```

Network access is 0.0.0.0/0 and the user has readWrite on %s.''' % (user, pw, cl, db, r.randint(200, 260), r.randint(10, 40), r.randint(60, 90), r.randint(10, 40), db)
    return pw, '''```
$ mongosh "mongodb+srv://%s/%s" --apiVersion 1 --username %s --password '%s'
Current Mongosh Log ID:	%s
Connecting to:		mongodb+srv://<credentials>@%s/%s?appName=mongosh+2.%d.%d
MongoServerError: bad auth : authentication failed
```
Same creds work in Compass. mongosh 2.%d.%d on Windows.''' % (cl, db, user, pw, rhex(r, 24), cl, db, r.randint(0, 3), r.randint(0, 9), r.randint(0, 3), r.randint(0, 9))


@tpl("dotnet-exception", "azure-storage-account-key", "keys")
def t_dotnet_storage(r):
    key = b64(rbytes(r, 64))
    acct = org(r).replace("-", "")[:14] + r.choice(["st", "prodst", "blob", "data"])
    d = rdt(r)
    return key, '''appsettings.Development.json:

```json
{
  "Logging": {
    "LogLevel": {
      "Default": "Information",
      "Microsoft.AspNetCore": "Warning"
    }
  },
  "ConnectionStrings": {
    "Storage": "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net"
  },
  "Uploads": {
    "Container": "%s",
    "MaxSizeMb": %d
  }
}
```

```
Unhandled exception. Azure.RequestFailedException: Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.
RequestId:%s
Time:%s
Status: 403 (Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.)
ErrorCode: AuthenticationFailed

Headers:
x-ms-request-id: %s
x-ms-error-code: AuthenticationFailed
Date: %s

   at Azure.Storage.Blobs.ContainerRestClient.CreateAsync(Nullable`1 timeout, IDictionary`2 metadata, Nullable`1 access, String defaultEncryptionScope, Nullable`1 preventEncryptionScopeOverride, CancellationToken cancellationToken)
   at Azure.Storage.Blobs.BlobContainerClient.CreateIfNotExistsInternal(PublicAccessType publicAccessType, IDictionary`2 metadata, BlobContainerEncryptionScopeOptions encryptionScopeOptions, Boolean async, CancellationToken cancellationToken)
   at %s.Services.UploadService.EnsureContainerAsync() in C:\\src\\%s\\Services\\UploadService.cs:line %d
```''' % (acct, key, r.choice(["uploads", "invoices", "avatars"]), r.choice([10, 25, 50]), ruuid(r), iso(d, z=False) + ".%07dZ" % r.randint(0, 9999999),
          ruuid(r), d.strftime("%a, %d %b %Y %H:%M:%S GMT"), org(r).title().replace("-", ""), r.choice(PROJ), r.randint(20, 90))


# ---------------------------------------------------------------- generic secrets
@tpl("homeassistant-secrets", "wifi-passphrase", "generic")
def t_ha_secrets(r):
    pw = gen_password(r, ("passphrase", "memorable", "random", "alnum"), avoid="'\"")
    name = r.choice(["wifi_password", "wifi_pass", "iot_wifi_psk", "esphome_wifi_password", "wlan_key"])
    ssid = r.choice(["FRITZ!Box 7590 %s" % rs(r, 2, UP), "Vodafone-%s" % rs(r, 4, UP + DIG), "IoT-%s" % r.choice(CITIES), "TP-Link_%s" % rs(r, 4, UP + DIG), "Hyperoptic Fibre %s" % rs(r, 4, UP + DIG)])
    lat, lon = r.uniform(35, 60), r.uniform(-10, 30)
    q = r.choice(['"', "'"])
    node = r.choice(["garage-door", "kitchen-sensor", "plant-monitor", "desk-led"])
    return pw, '''secrets.yaml (shared between HA and ESPHome):

```yaml
# Use this file to store secrets like usernames and passwords.
# Learn more at https://www.home-assistant.io/docs/configuration/secrets/
home_latitude: %.4f
home_longitude: %.4f
home_elevation: %d
wifi_ssid: "%s"
%s: %s%s%s
ota_port: 3232
mqtt_broker: %s
mqtt_username: homeassistant
```

ESPHome compile of `%s.yaml` then fails with:

```
INFO ESPHome 2024.%d.%d
INFO Reading configuration %s.yaml...
Failed config

wifi: [source %s.yaml:%d]
  ssid: !secret wifi_ssid
  password: !secret %s
  ap:
    ssid: %s Fallback
    [password] is an invalid option for [ap]. Please check the indentation.
```''' % (lat, lon, r.randint(0, 600), ssid, name, q, pw, q, lan_ip(r), node, r.randint(1, 12), r.randint(0, 5), node, node, r.randint(8, 30), name, node.title().replace("-", " "))


@tpl("openwrt-uci", "wpa-psk", "generic")
def t_openwrt(r):
    pw = gen_password(r, ("passphrase", "memorable", "random", "alnum"), avoid="'\\")
    ssid = r.choice(["OpenWrt", "Home-%s" % rs(r, 3, UP), "%s-net" % r.choice(LAST).lower(), "Skynet", "Pretty Fly for a WiFi"])
    d = rdt(r)
    t = d.strftime("%a %b %d %H:%M:%S %Y")
    enc = r.choice(["sae-mixed", "psk2", "psk2+ccmp", "sae"])
    return pw, '''root@OpenWrt:~# cat /etc/config/wireless

config wifi-device 'radio0'
	option type 'mac80211'
	option path 'platform/soc/18000000.wifi'
	option channel '%d'
	option band '2g'
	option htmode 'HE20'
	option country '%s'
	option cell_density '0'

config wifi-iface 'default_radio0'
	option device 'radio0'
	option network 'lan'
	option mode 'ap'
	option ssid '%s'
	option encryption '%s'
	option key '%s'
	option ieee80211w '1'

config wifi-device 'radio1'
	option type 'mac80211'
	option path 'platform/soc/18000000.wifi+1'
	option channel '36'
	option band '5g'
	option htmode 'HE80'
	option disabled '1'

root@OpenWrt:~# logread | grep hostapd | tail -n 4
%s daemon.notice hostapd: phy0-ap0: STA %s IEEE 802.11: disassociated
%s daemon.info hostapd: phy0-ap0: STA %s IEEE 802.11: authenticated
%s daemon.notice hostapd: phy0-ap0: AP-STA-POSSIBLE-PSK-MISMATCH %s
%s daemon.info hostapd: phy0-ap0: STA %s WPA: pairwise key handshake completed (RSN)

iPhone says "incorrect password" even though I type exactly that. Android works. OpenWrt 23.05.%d on a Xiaomi AX3000T.''' % (
        r.choice([1, 6, 11]), r.choice(["DE", "NL", "US", "GB", "PL"]), ssid, enc, pw,
        t, ":".join(rhex(r, 2) for _ in range(6)), t, ":".join(rhex(r, 2) for _ in range(6)), t, ":".join(rhex(r, 2) for _ in range(6)), t, ":".join(rhex(r, 2) for _ in range(6)), r.randint(0, 5))


@tpl("restic-backup-script", "restic-password", "generic")
def t_restic(r):
    pw = gen_password(r, ("passphrase", "random", "b64", "alnum"), avoid="'")
    user = uname(r)
    repo = r.choice(["sftp:backup@nas.lan:/srv/restic/%s" % host(r), "rest:http://%s:8000/%s" % (lan_ip(r), user), "/mnt/usb-backup/restic-repo"])
    if r.random() < 0.5:
        setpw = "export RESTIC_PASSWORD='%s'" % pw
        unit = ""
    else:
        setpw = "# password comes from the systemd unit"
        unit = '''
/etc/systemd/system/restic-backup.service:

```ini
[Unit]
Description=restic backup
Wants=network-online.target
After=network-online.target

[Service]
Type=oneshot
Environment="RESTIC_PASSWORD=%s"
ExecStart=/usr/local/bin/backup-home.sh
```
''' % pw
    d = rdt(r)
    return pw, '''Nightly backup has been failing since I moved the repo. Script:

```bash
#!/usr/bin/env bash
# /usr/local/bin/backup-home.sh - nightly restic backup
set -euo pipefail
export RESTIC_REPOSITORY="%s"
%s
export RESTIC_CACHE_DIR=/var/cache/restic

restic backup --verbose --one-file-system \\
  --exclude-file=/etc/restic/excludes.txt \\
  --tag nightly /home /etc /var/lib/docker/volumes
restic forget --keep-daily 7 --keep-weekly 4 --keep-monthly 6 --prune
restic check --read-data-subset=%d%%
```

crontab -l:
```
%d 3 * * * /usr/local/bin/backup-home.sh >> /var/log/restic.log 2>&1
```
%s
/var/log/restic.log:
```
open repository
Fatal: unable to open config file: Lstat: file does not exist
Is there a repository at the following location?
%s
```''' % (repo, setpw, r.choice([2, 5, 10]), r.randint(0, 59), unit, repo)


@tpl("borg-backup-script", "borg-passphrase", "generic")
def t_borg(r):
    pw = gen_password(r, ("passphrase", "random", "memorable"), avoid="'")
    hn = host(r)
    repo = r.choice(["ssh://borg@%s:22/./%s" % (r.choice(["backup.lan", "u%d.your-storagebox.de" % r.randint(100000, 399999), lan_ip(r)]), hn), "/mnt/backup/borg/%s" % hn])
    d = rdt(r)
    return pw, '''#!/bin/sh
# /root/bin/borg-backup.sh  (cron: 30 2 * * *)
export BORG_REPO='%s'
export BORG_PASSPHRASE='%s'
export BORG_RSH='ssh -i /root/.ssh/borg_ed25519'

info() { printf "\\n%%s %%s\\n\\n" "$( date )" "$*" >&2; }
trap 'echo $( date ) Backup interrupted >&2; exit 2' INT TERM

info "Starting backup"
borg create --verbose --filter AME --list --stats --show-rc \\
    --compression lz4 --exclude-caches \\
    --exclude 'home/*/.cache/*' --exclude 'var/tmp/*' \\
    ::'{hostname}-{now}' /etc /home /root /var

backup_exit=$?
info "Pruning repository"
borg prune --list --glob-archives '{hostname}-*' --show-rc \\
    --keep-daily 7 --keep-weekly 4 --keep-monthly 6
borg compact

# ---- output from last night ----
# %s Starting backup
# Remote: Warning: Permanently added '[backup.lan]:22' (ED25519) to the list of known hosts.
# passphrase supplied in BORG_PASSPHRASE, by BORG_PASSCOMMAND or via BORG_PASSPHRASE_FD is incorrect.
# terminating with error status, rc 2''' % (repo, pw, d.strftime("%a %b %d %H:%M:%S %Z %Y").replace("  ", " ").strip())


@tpl("rclone-conf", "rclone-obscured-password", "generic")
def t_rclone(r):
    plen = r.randint(12, 28)
    ob = b64u(rbytes(r, 16 + plen))
    user = uname(r)
    d = rdt(r)
    if r.random() < 0.5:
        sect = r.choice(["nas", "storagebox", "seedbox"])
        conf = '''[%s]
type = sftp
host = %s
user = %s
port = %d
pass = %s
shell_type = unix
md5sum_command = md5sum
sha1sum_command = sha1sum''' % (sect, r.choice([lan_ip(r), "u%d.your-storagebox.de" % r.randint(100000, 399999)]), user, r.choice([22, 23, 2222]), ob)
        err = "ssh: handshake failed: ssh: unable to authenticate, attempted methods [none password], no supported methods remain"
    else:
        sect = r.choice(["nextcloud", "cloud", "nc"])
        conf = '''[%s]
type = webdav
url = https://cloud.%s/remote.php/dav/files/%s/
vendor = nextcloud
user = %s
pass = %s''' % (sect, domain(r), user, user, ob)
        err = 'couldn\'t list files: Unauthorized: 401 Unauthorized'
    ts = d.strftime("%Y/%m/%d %H:%M:%S")
    return ob, '''```
$ cat ~/.config/rclone/rclone.conf
%s

$ rclone -vv lsd %s:
%s DEBUG : rclone: Version "v1.%d.%d" starting with parameters ["rclone" "-vv" "lsd" "%s:"]
%s DEBUG : Creating backend with remote "%s:"
%s DEBUG : Using config file from "/home/%s/.config/rclone/rclone.conf"
%s ERROR : : error listing: %s
%s DEBUG : 5 go routines active
%s Failed to lsd with 2 errors: last error was: %s
```''' % (conf, sect, ts, r.randint(62, 68), r.randint(0, 3), sect, ts, sect, ts, user, ts, err, ts, ts, err)


@tpl("pgpass-ticket", "postgres-password", "generic")
def t_pgpass(r):
    pw = gen_password(r, ("random", "alnum", "memorable", "passphrase"), avoid=": \\")
    u = r.choice(["billing_app", "reporting", "etl_user", "django", "metabase"])
    db = r.choice(["billing", "analytics", "app_prod", "warehouse"])
    hn = "%s.%s" % (host(r), r.choice(["internal", "lan", "corp.local"]))
    who = uname(r)
    return pw, '''Ticket #%d - psql keeps asking for a password although ~/.pgpass is set up

Hi team, cron job on the reporting VM is stuck at the password prompt. What I see:

$ ls -l ~/.pgpass
-rw-r--r-- 1 %s %s %d %s /home/%s/.pgpass
$ cat ~/.pgpass
# hostname:port:database:username:password
%s:5432:%s:%s:%s
$ psql -h %s -U %s %s -c 'select now()'
WARNING: password file "/home/%s/.pgpass" has group or world access; permissions should be u=rw (0600) or less
Password for user %s:

Server is PostgreSQL %d.%d. Thanks!''' % (
        r.randint(10000, 99999), who, who, r.randint(60, 120), rdt(r).strftime("%b %d %H:%M"), who, hn, db, u, pw, hn, u, db, who, u, r.randint(13, 16), r.randint(1, 9))


@tpl("redis-cli-session", "redis-password", "generic")
def t_redis(r):
    pw = gen_password(r, ("random", "hex", "alnum", "b64url"), avoid="'\\ ")
    ip = lan_ip(r)
    if r.random() < 0.5:
        start = "$ redis-cli -h %s -p 6379 -a '%s' --no-auth-warning" % (ip, pw)
        auth = ""
    else:
        start = "$ redis-cli -h %s -p 6379" % ip
        auth = "%s:6379> AUTH default %s\nOK\n" % (ip, pw)
    keys = r.randint(1000, 90000)
    maxmem = r.choice([1, 2, 4])
    used = int(maxmem * 2 ** 30 * r.uniform(0.97, 1.6))
    return pw, '''Memory keeps growing on our cache box, maxmemory looks set but nothing gets evicted:

```
%s
%s%s:6379> INFO keyspace
# Keyspace
db0:keys=%d,expires=%d,avg_ttl=%d,subexpiry=0
db2:keys=%d,expires=0,avg_ttl=0,subexpiry=0
%s:6379> CONFIG GET maxmemory*
1) "maxmemory"
2) "%d"
3) "maxmemory-policy"
4) "noeviction"
5) "maxmemory-samples"
6) "5"
%s:6379> INFO memory
# Memory
used_memory:%d
used_memory_human:%.2fG
maxmemory_human:%.2fG
mem_fragmentation_ratio:%.2f
```''' % (start, auth, ip, keys, r.randint(10, keys), r.randint(10 ** 6, 10 ** 8), r.randint(10, 900), ip, 2 ** 30 * maxmem, ip,
          used, used / 2 ** 30, float(maxmem), r.uniform(1.0, 1.6))


@tpl("kafka-client-properties", "sasl-password", "generic")
def t_kafka(r):
    pw = gen_password(r, ("random", "alnum", "b64"), avoid='"\\;')
    u = r.choice(["svc-orders", "connect-worker", "analytics-consumer", "%s-app" % r.choice(PROJ)])
    b = "broker%d.kafka.%s" % (r.randint(1, 3), r.choice(["internal", domain(r)]))
    d = rdt(r)
    grp = r.choice(["orders-consumer", "payments-sink", "search-indexer"])
    return pw, '''$ cat client.properties
bootstrap.servers=%s:9094
security.protocol=SASL_SSL
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";
ssl.truststore.type=PEM
ssl.truststore.location=/etc/kafka/certs/ca.pem
client.id=ops-%s

$ kafka-consumer-groups.sh --bootstrap-server %s:9094 --command-config client.properties --describe --group %s
[%s] ERROR [AdminClient clientId=ops-%s] Connection to node -1 (%s/%s:9094) failed authentication due to: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512 (org.apache.kafka.clients.NetworkClient)
[%s] WARN [AdminClient clientId=ops-%s] Metadata update failed due to authentication error (org.apache.kafka.clients.admin.internals.AdminMetadataManager)
Error: Executing consumer group command failed due to org.apache.kafka.common.errors.SaslAuthenticationException: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512''' % (
        b, u, pw, uname(r), b, grp, d.strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % r.randint(0, 999), uname(r), b, lan_ip(r),
        later(d, r, 0, 1).strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % r.randint(0, 999), uname(r))


@tpl("sssd-conf", "ldap-bind-password", "generic")
def t_sssd(r):
    pw = gen_password(r, ("random", "memorable", "passphrase"), avoid="#;")
    dom = r.choice(["corp", "ad", "int"]) + "." + org(r).replace("-", "") + r.choice([".com", ".net", ".local"])
    dc = ",".join("dc=" + p for p in dom.split("."))
    d = rdt(r)
    return pw, '''/etc/sssd/sssd.conf (mode 0600, owner root):

[sssd]
services = nss, pam, sudo
config_file_version = 2
domains = %s

[domain/%s]
id_provider = ldap
auth_provider = ldap
sudo_provider = ldap
ldap_uri = ldaps://ldap%02d.%s
ldap_search_base = %s
ldap_default_bind_dn = cn=sssd-bind,ou=service,%s
ldap_default_authtok_type = password
ldap_default_authtok = %s
ldap_tls_reqcert = demand
ldap_tls_cacert = /etc/pki/tls/certs/ca-bundle.crt
cache_credentials = True
enumerate = False

# journalctl -u sssd --since today
%s %s sssd_be[%d]: Backend is offline
%s %s sssd_be[%d]: Could not start TLS encryption. error:0A000086:SSL routines::certificate verify failed
%s %s sssd[%d]: Child [%d] ('%s':'%%BE_%s') was terminated by own WATCHDOG. Consult corresponding logs to figure out the reason.''' % (
        dom, dom, r.randint(1, 3), dom, dc, dc, pw,
        d.strftime("%b %d %H:%M:%S"), host(r), r.randint(800, 3000), later(d, r).strftime("%b %d %H:%M:%S"), host(r), r.randint(800, 3000),
        later(d, r, 100, 200).strftime("%b %d %H:%M:%S"), host(r), r.randint(700, 900), r.randint(800, 3000), dom, dom)


@tpl("postfix-sasl-passwd", "gmail-app-password", "generic")
def t_postfix(r):
    groups = [rs(r, 4, LOW) for _ in range(4)]
    pw = " ".join(groups) if r.random() < 0.5 else "".join(groups)
    acct = "%s.%s@gmail.com" % (r.choice(["alerts", "server", "nas", "homelab", uname(r)]), rs(r, 3, LOW))
    d = rdt(r)
    qid = rs(r, 10, "0123456789ABCDEF")
    hn = host(r)
    return pw, '''Relay through Gmail stopped working. Config:

/etc/postfix/sasl_passwd
[smtp.gmail.com]:587 %s:%s

/etc/postfix/main.cf (relevant)
relayhost = [smtp.gmail.com]:587
smtp_sasl_auth_enable = yes
smtp_sasl_password_maps = hash:/etc/postfix/sasl_passwd
smtp_sasl_security_options = noanonymous
smtp_tls_security_level = encrypt
smtp_tls_CAfile = /etc/ssl/certs/ca-certificates.crt

(ran postmap /etc/postfix/sasl_passwd and systemctl reload postfix)

/var/log/mail.log:
%s %s postfix/pickup[%d]: %s: uid=0 from=<root>
%s %s postfix/cleanup[%d]: %s: message-id=<%s.%s@%s>
%s %s postfix/smtp[%d]: %s: to=<%s>, relay=smtp.gmail.com[142.250.%d.%d]:587, delay=%.1f, delays=0.01/0.02/0.9/0, dsn=4.7.8, status=deferred (SASL authentication failed; server smtp.gmail.com[142.250.%d.%d] said: 535-5.7.8 Username and Password not accepted. For more information, go to 535 5.7.8  https://support.google.com/mail/?p=BadCredentials %s - gsmtp)''' % (
        acct, pw, d.strftime("%b %d %H:%M:%S"), hn, r.randint(1000, 9000), qid, d.strftime("%b %d %H:%M:%S"), hn, r.randint(1000, 9000), qid,
        d.strftime("%Y%m%d%H%M%S"), rhex(r, 6).upper(), hn, later(d, r).strftime("%b %d %H:%M:%S"), hn, r.randint(1000, 9000), qid, email(r),
        r.randint(0, 255), r.randint(1, 254), r.uniform(0.8, 3), r.randint(0, 255), r.randint(1, 254), rs(r, 20, ALNUM + "-"))


@tpl("jetbrains-http-client-env", "api-client-secret", "generic")
def t_http_client_env(r):
    pw = gen_password(r, ("random", "alnum", "hex", "b64url"), avoid='"\\')
    name = r.choice(["clientSecret", "apiSecret", "hmacKey", "signingSecret", "x_api_key", "partnerKey"])
    hostn = "api.%s" % domain(r)
    envf = {"dev": {"host": "http://localhost:8080", "clientId": "local-dev-%s" % rs(r, 6, LOW + DIG), name: pw},
            "staging": {"host": "https://staging-%s" % hostn, "clientId": "stg-%s" % rs(r, 6, LOW + DIG)}}
    return pw, '''http-client.private.env.json:

```json
%s
```

requests.http:

```http
### token
POST {{host}}/oauth/token
Content-Type: application/x-www-form-urlencoded

grant_type=client_credentials&client_id={{clientId}}&client_secret={{%s}}

> {%% client.global.set("access_token", response.body.access_token); %%}
```

With the **dev** environment selected IntelliJ says `Unresolved variable %s` in the editor but the request still goes out and the server logs `invalid_client`. IntelliJ IDEA 2024.%d.%d.''' % (json.dumps(envf, indent=2), name, name, r.randint(1, 3), r.randint(1, 5))


@tpl("vscode-launch-json", "django-secret-key", "generic")
def t_launch_django(r):
    key = rs(r, 50, LOW + DIG + "!@#$%^&*(-_=+)")
    name = r.choice(["DJANGO_SECRET_KEY", "SECRET_KEY", "APP_SECRET"])
    proj = r.choice(["shop", "intranet", "blog", "portal"])
    return key, '''.vscode/launch.json

```json
{
    "version": "0.2.0",
    "configurations": [
        {
            "name": "Python: Django",
            "type": "debugpy",
            "request": "launch",
            "program": "${workspaceFolder}/manage.py",
            "args": ["runserver", "0.0.0.0:8000", "--noreload"],
            "django": true,
            "justMyCode": false,
            "env": {
                "DJANGO_SETTINGS_MODULE": "%s.settings.local",
                "%s": "%s",
                "DEBUG": "1",
                "DATABASE_URL": "sqlite:///db.sqlite3"
            }
        }
    ]
}
```

Breakpoints in views are never hit; the server starts fine:

```
Watching for file changes with StatReloader
Performing system checks...

System check identified no issues (0 silenced).
%s
Django version %d.%d, using settings '%s.settings.local'
Starting development server at http://0.0.0.0:8000/
```''' % (proj, name, key, rdt(r).strftime("%B %d, %Y - %H:%M:%S"), r.choice([4, 5]), r.randint(0, 2), proj)


@tpl("sql-migration", "db-role-password", "generic")
def t_sql_migration(r):
    pw = gen_password(r, ("random", "alnum", "memorable", "passphrase"), avoid="'\\")
    role = r.choice(["reporting_ro", "metabase", "grafana_reader", "etl_loader", "airflow"])
    n = r.randint(5, 60)
    if r.random() < 0.5:
        sql = '''-- V%d__create_%s_role.sql
-- read-only role for the BI tool (ticket DATA-%d)
CREATE ROLE %s WITH LOGIN PASSWORD '%s' NOSUPERUSER NOCREATEDB NOCREATEROLE;
GRANT CONNECT ON DATABASE analytics TO %s;
GRANT USAGE ON SCHEMA public TO %s;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO %s;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO %s;''' % (n, role, r.randint(100, 999), role, pw, role, role, role, role)
        out = '''Flyway Community Edition 10.%d.%d by Redgate
Database: jdbc:postgresql://localhost:5432/analytics (PostgreSQL 15.%d)
Successfully validated %d migrations (execution time 00:00.0%02dS)
Current version of schema "public": %d
Migrating schema "public" to version "%d - create %s role"
ERROR: Migration V%d__create_%s_role.sql failed
-----------------------------------------------
SQL State  : 42710
Error Code : 0
Message    : ERROR: role "%s" already exists''' % (r.randint(0, 20), r.randint(0, 3), r.randint(2, 8), n, r.randint(10, 99), n - 1, n, role, n, role, role)
    else:
        sql = '''-- V%d__create_%s_user.sql
CREATE USER IF NOT EXISTS '%s'@'%%' IDENTIFIED BY '%s';
GRANT SELECT, SHOW VIEW ON shop.* TO '%s'@'%%';
FLUSH PRIVILEGES;''' % (n, role, role, pw, role)
        out = '''Flyway Community Edition 10.%d.%d by Redgate
Database: jdbc:mysql://db:3306/shop (MySQL 8.0)
Migrating schema `shop` to version "%d - create %s user"
ERROR: Migration V%d__create_%s_user.sql failed
-------------------------------------------
SQL State  : 42000
Error Code : 1227
Message    : Access denied; you need (at least one of) the CREATE USER privilege(s) for this operation''' % (r.randint(0, 20), r.randint(0, 3), n, role, n, role)
    return pw, "Migration:\n\n```sql\n%s\n```\n\n```\n$ flyway migrate\n%s\n```" % (sql, out)


@tpl("spring-boot-stacktrace", "datasource-password", "generic")
def t_spring(r):
    pw = gen_password(r, ("random", "alnum", "memorable", "passphrase"), avoid="'\"#:{}[],&*!|>%@`")
    u = r.choice(["orders_svc", "app", "inventory", "keycloak"])
    db = r.choice(["orders", "inventory", "appdb"])
    hn = r.choice(["pg.internal", "localhost", "postgres", "db.%s" % domain(r)])
    d = rdt(r)
    ts = iso(d, ms=True, z=False)
    pid = r.randint(1, 40000)
    return pw, '''application.yml:

```yaml
server:
  port: 8081
spring:
  application:
    name: %s
  datasource:
    url: jdbc:postgresql://%s:5432/%s
    username: %s
    password: %s
    hikari:
      maximum-pool-size: 10
      connection-timeout: 20000
  jpa:
    hibernate:
      ddl-auto: validate
    open-in-view: false
```

Startup log:

```
%s+00:00  INFO %d --- [%s] [           main] com.zaxxer.hikari.HikariDataSource       : HikariPool-1 - Starting...
%s+00:00 ERROR %d --- [%s] [           main] com.zaxxer.hikari.pool.HikariPool        : HikariPool-1 - Exception during pool initialization.

org.postgresql.util.PSQLException: FATAL: password authentication failed for user "%s"
	at org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:%d)
	at org.postgresql.core.v3.ConnectionFactoryImpl.tryConnect(ConnectionFactoryImpl.java:%d)
	at org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:%d)
	at org.postgresql.core.ConnectionFactory.openConnection(ConnectionFactory.java:49)
	at org.postgresql.jdbc.PgConnection.<init>(PgConnection.java:%d)
	at com.zaxxer.hikari.pool.PoolBase.newConnection(PoolBase.java:359)
	at com.zaxxer.hikari.pool.HikariPool.checkFailFast(HikariPool.java:554)
```''' % (r.choice(PROJ), hn, db, u, pw, ts, pid, r.choice(PROJ), iso(later(d, r, 0, 2), ms=True, z=False), pid, r.choice(PROJ), u,
          r.randint(600, 700), r.randint(200, 240), r.randint(140, 160), r.randint(260, 280))


@tpl("wp-config-php", "db-password", "generic")
def t_wp(r):
    pw = gen_password(r, ("random", "alnum", "memorable"), avoid="'\\")
    db = r.choice(["wp_", "wordpress", "blog_"]) + rs(r, 3, LOW + DIG)
    return pw, '''Site shows "Error establishing a database connection" after moving hosts. wp-config.php (salts removed):

```php
<?php
// ** Database settings - You can get this info from your web host ** //
define( 'DB_NAME', '%s' );
define( 'DB_USER', '%s' );
define( 'DB_PASSWORD', '%s' );
define( 'DB_HOST', '%s' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );

/**#@+
 * Authentication unique keys and salts.
 * (removed for this post)
 */

$table_prefix = '%s';

define( 'WP_DEBUG', true );
define( 'WP_DEBUG_LOG', true );
define( 'WP_DEBUG_DISPLAY', false );

if ( ! defined( 'ABSPATH' ) ) {
	define( 'ABSPATH', __DIR__ . '/' );
}
require_once ABSPATH . 'wp-settings.php';
```

debug.log:
```
[%s UTC] PHP Warning:  mysqli_real_connect(): (HY000/1045): Access denied for user '%s'@'%s' (using password: YES) in /var/www/html/wp-includes/class-wpdb.php on line %d
```''' % (db, db + "_usr", pw, r.choice(["localhost", "127.0.0.1", "mysql", "localhost:/var/run/mysqld/mysqld.sock"]), r.choice(["wp_", "wp%s_" % rs(r, 3, LOW)]),
          rdt(r).strftime("%d-%b-%Y %H:%M:%S"), db + "_usr", r.choice(["localhost", lan_ip(r)]), r.randint(1900, 2020))


@tpl("android-keystore-properties", "keystore-password", "generic")
def t_android(r):
    pw = gen_password(r, ("random", "memorable", "alnum", "passphrase"), avoid="\\ #")
    app = r.choice(["app", "mobile", "android"])
    u = uname(r)
    return pw, '''`./gradlew assembleRelease` fails on the signing step on my new laptop (copied the keystore over).

android/keystore.properties:
```
storeFile=../upload-keystore.jks
storePassword=%s
keyAlias=upload
# keyPassword is the same as storePassword (PKCS12 keystore), read from storePassword in build.gradle
```

```
> Task :%s:packageRelease FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':%s:packageRelease'.
> A failure occurred while executing com.android.build.gradle.tasks.PackageAndroidArtifact$IncrementalSplitterRunnable
   > com.android.ide.common.signing.KeytoolException: Failed to read key upload from store "/Users/%s/dev/%s/android/upload-keystore.jks": Keystore was tampered with, or password was incorrect

* Try:
> Run with --stacktrace option to get the stack trace.
> Run with --info or --debug option to get more log output.

BUILD FAILED in %ds
%d actionable tasks: %d executed, %d up-to-date
```''' % (pw, app, app, u, r.choice(PROJ), r.randint(8, 90), r.randint(40, 90), r.randint(5, 40), r.randint(5, 40))


@tpl("elixir-runtime-exs", "phoenix-secret-key-base", "generic")
def t_elixir(r):
    key = b64(rbytes(r, 48))
    appn = r.choice(["shop", "chat", "tracker", "forum"])
    mod = appn.capitalize()
    hn = "%s.%s" % (appn, domain(r))
    return key, '''config/runtime.exs

```elixir
import Config

if System.get_env("PHX_SERVER") do
  config :%s, %sWeb.Endpoint, server: true
end

if config_env() == :prod do
  database_url =
    System.get_env("DATABASE_URL") ||
      raise """
      environment variable DATABASE_URL is missing.
      For example: ecto://USER:PASS@HOST/DATABASE
      """

  config :%s, %s.Repo,
    url: database_url,
    pool_size: String.to_integer(System.get_env("POOL_SIZE") || "10")

  secret_key_base = "%s"

  config :%s, %sWeb.Endpoint,
    url: [host: "%s", port: 443, scheme: "https"],
    http: [ip: {0, 0, 0, 0, 0, 0, 0, 0}, port: 4000],
    secret_key_base: secret_key_base
end
```

After deploying, LiveView pages reload in a loop and the log says:

```
[error] Could not check origin for Phoenix.Socket transport.
Origin of the request: https://www.%s
```''' % (appn, mod, appn, mod, key, appn, mod, hn, hn)


@tpl("perl-dbi-script", "db-password", "generic")
def t_perl(r):
    pw = gen_password(r, ("random", "alnum", "memorable"), avoid="'\\")
    u = r.choice(["inv_report", "nagios", "backup", "webapp"])
    hn = host(r) + r.choice([".lan", ".internal", ""])
    return pw, '''#!/usr/bin/perl
# low_stock.pl - mails the low stock list every morning
use strict;
use warnings;
use DBI;
use POSIX qw(strftime);

my $dsn = "DBI:mysql:database=inventory;host=%s;port=3306";
my $dbh = DBI->connect($dsn, '%s', '%s', { RaiseError => 1, AutoCommit => 1, mysql_enable_utf8mb4 => 1 })
    or die "Cannot connect: $DBI::errstr";

my $sth = $dbh->prepare("SELECT sku, name, qty FROM stock WHERE qty < ? ORDER BY qty");
$sth->execute(%d);
while (my $row = $sth->fetchrow_hashref) {
    printf "%%-12s %%-40s %%5d\\n", $row->{sku}, $row->{name}, $row->{qty};
}
$dbh->disconnect;

__END__
$ perl low_stock.pl
DBI connect('database=inventory;host=%s;port=3306','%s',...) failed: Plugin caching_sha2_password could not be loaded: /usr/lib/x86_64-linux-gnu/mariadb19/plugin/caching_sha2_password.so: cannot open shared object file: No such file or directory at low_stock.pl line 9.''' % (
        hn, u, pw, r.choice([5, 10, 20]), hn, u)


@tpl("nodemcu-lua", "wifi-password", "generic")
def t_nodemcu(r):
    pw = gen_password(r, ("passphrase", "memorable", "alnum", "random"), avoid='"\\')
    ssid = r.choice(["FRITZ!Box 7530 %s" % rs(r, 2, UP), "Livebox-%s" % rs(r, 4, UP + DIG), "BTHub6-%s" % rs(r, 4, UP + DIG), "%sNet" % r.choice(LAST)])
    broker = lan_ip(r)
    return pw, '''-- init.lua
wifi.setmode(wifi.STATION)
station_cfg = {}
station_cfg.ssid = "%s"
station_cfg.pwd = "%s"
station_cfg.save = false
wifi.sta.config(station_cfg)

local m = mqtt.Client("esp-%s", 120)
tmr.create():alarm(1000, tmr.ALARM_AUTO, function(t)
  if wifi.sta.getip() == nil then
    print("waiting for IP...")
  else
    t:unregister()
    print("IP: " .. wifi.sta.getip())
    m:connect("%s", 1883, false, function(c) print("mqtt ok") end,
      function(c, reason) print("mqtt failed: " .. reason) end)
  end
end)

--[[ serial monitor @115200:
NodeMCU 3.0.0.0 built with Docker provided by frightanic.com
	branch: release
	commit: %s
	SSL: false
	modules: file,gpio,mqtt,net,node,tmr,uart,wifi
 build 2024-0%d-%02d %02d:%02d
 powered by Lua 5.1.4 on SDK 3.0.1-dev(fce080e)
waiting for IP...
waiting for IP...
waiting for IP...
]]''' % (ssid, pw, rhex(r, 6), broker, rhex(r, 40), r.randint(1, 9), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59))


@tpl("matlab-script", "db-password", "generic")
def t_matlab(r):
    pw = gen_password(r, ("random", "alnum", "memorable", "passphrase"), avoid='"\'')
    u = r.choice(["lab_reader", "sensors_ro", "student", uname(r)])
    hn = "pg.%s.%s" % (r.choice(["lab", "physics", "chem"]), r.choice(["example.edu", "uni-%s.de" % r.choice(CITIES).lower(), "%s.ac.uk" % r.choice(CITIES).lower()]))
    if r.random() < 0.5:
        code = '''username = "%s";
password = "%s";
conn = postgresql(username, password, "Server", "%s", ...
    "DatabaseName", "sensors", "PortNumber", 5432);''' % (u, pw, hn)
        err = '''Error using postgresql (line %d)
FATAL: no pg_hba.conf entry for host "%s", user "%s", database "sensors", no encryption''' % (r.randint(120, 190), pub_ip(r), u)
    else:
        code = '''conn = database("sensors", "%s", "%s", "org.postgresql.Driver", ...
    "jdbc:postgresql://%s:5432/sensors");''' % (u, pw, hn)
        err = "conn.Message\n\nans =\n\n    'Unable to find JDBC driver.'"
    return pw, '''%% load_readings.m  -- pulls last week's readings into a timetable
clear; clc;
%s
q = "SELECT ts, sensor_id, value FROM readings WHERE ts > now() - interval '7 days'";
T = fetch(conn, q);
TT = table2timetable(T, "RowTimes", "ts");
TT = retime(TT, "hourly", "mean");
plot(TT.ts, TT.value); grid on
close(conn);

>> load_readings
%s''' % (code, err)


@tpl("teams-chat-copy", "shared-password", "generic")
def t_teams(r):
    pw = gen_password(r, ("memorable", "passphrase", "random"), avoid="")
    a, b, c = person(r), person(r), person(r)
    what = r.choice([("the guest wifi in the lab", "SSID: LAB-GUEST-%s" % rs(r, 2, UP + DIG), "password"),
                     ("the shared Grafana admin", "user: admin", "pw"),
                     ("the printer web UI", "http://%s/ user: admin" % lan_ip(r), "password"),
                     ("the NAS admin account", "https://nas.%s:5001 user: itadmin" % domain(r), "pass")])
    d = rdt(r)

    def t():
        nonlocal d
        d = later(d, r, 20, 300)
        return d.strftime("%I:%M %p").lstrip("0")
    return pw, '''[%s] %s, %s
does anyone have the login for %s? need it for the demo at 2

[%s] %s, %s
%s
%s: %s

[%s] %s, %s
thanks!!

[%s] %s, %s
pls don't paste these in the channel, it's in the team vault. I'll change it after the demo''' % (
        t(), a[1], a[0], what[0], t(), b[1], b[0], what[1], what[2], pw, t(), a[1], a[0], t(), c[1], c[0])


@tpl("support-email", "temporary-password", "generic")
def t_email(r):
    pw = gen_password(r, ("memorable", "random", "alnum"), avoid="")
    dom = domain(r)
    f, l = person(r)
    agent = person(r)
    d = rdt(r)
    inc = "INC%07d" % r.randint(10000, 999999)
    mx = rs(r, 4, LOW)
    return pw, '''Return-Path: <servicedesk@%s>
Received: from mail-%s.%s (mail-%s.%s [%s])
        by mx.%s with ESMTPS id %s
        for <%s.%s@%s>; %s
Message-ID: <%s@%s>
Date: %s
From: IT Service Desk <servicedesk@%s>
To: %s %s <%s.%s@%s>
Subject: RE: [%s] Locked out of VPN and email
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

Hi %s,

your account has been unlocked and the password was reset as requested.

Username: %s.%s
Temporary password: %s

You will be asked to choose a new password at first login. Please sign in
within 24 hours, otherwise the temporary password expires.

Kind regards,
%s %s
IT Service Desk | ext. %d

> -----Original Message-----
> From: %s %s
> Sent: %s
> Subject: [%s] Locked out of VPN and email
>
> Hi, I entered the wrong password too many times and now I'm locked out.''' % (
        dom, mx, dom, mx, dom, lan_ip(r), dom, rs(r, 12, ALNUM), f.lower(), l.lower(), dom, d.strftime("%a, %d %b %Y %H:%M:%S +0000"),
        ruuid(r), dom, d.strftime("%a, %d %b %Y %H:%M:%S +0100"), dom, f, l, f.lower(), l.lower(), dom, inc, f, f.lower(), l.lower(), pw,
        agent[0], agent[1], r.randint(1000, 4999), f, l, (d - datetime.timedelta(hours=r.randint(1, 20))).strftime("%A, %B %d, %Y %I:%M %p"), inc)


@tpl("pip-verbose", "index-url-password", "generic")
def t_pip(r):
    pw = gen_password(r, ("alnum", "random", "hex"), avoid="@:/?#[]%!$&'()*+,;= ")
    u = r.choice(["ci-reader", "deploy", uname(r), "pypi-ro"])
    hn = r.choice(["nexus.%s" % domain(r), "artifactory.%s" % domain(r), "pypi.%s" % domain(r)])
    path = r.choice(["/repository/pypi-group/simple", "/artifactory/api/pypi/pypi-virtual/simple", "/simple"])
    pkg = r.choice(["internal-utils", "acme-sdk", "dataplat-client", "shared-models"])
    ver = semver(r, (1, 4))
    py = r.randint(9, 12)
    return pw, '''$ pip install -v --index-url https://%s:%s@%s%s %s==%s
Using pip 24.%d from /home/%s/.venvs/app/lib/python3.%d/site-packages/pip (python 3.%d)
Looking in indexes: https://%s:****@%s%s
Collecting %s==%s
  Getting page https://%s%s/%s/
  Found index url https://%s:****@%s%s/
  Looking up "https://%s%s/%s/" in the cache
  Request header has "max_age" as 0, cache bypassed
  Starting new HTTPS connection (1): %s:443
  https://%s:443 "GET %s/%s/ HTTP/1.1" 401 0
  Skipping link: not a file: https://%s%s/%s/
  Given no hashes to check 0 links for project '%s': discarding no candidates
ERROR: Could not find a version that satisfies the requirement %s==%s (from versions: none)
ERROR: No matching distribution found for %s==%s''' % (
        u, pw, hn, path, pkg, ver, r.randint(0, 2), uname(r), py, py, u, hn, path, pkg, ver, hn, path, pkg,
        u, hn, path, hn, path, pkg, hn, hn, path, pkg, hn, path, pkg, pkg, pkg, ver, pkg, ver)


@tpl("powershell-script", "securestring-password", "generic")
def t_powershell(r):
    pw = gen_password(r, ("random", "memorable", "alnum", "passphrase"), avoid='"`$')
    dom = r.choice(["CORP", "AD", org(r).split("-")[0].upper()])
    u = r.choice(["svc-filecopy", "svc-backup", "adm-%s" % uname(r), "scanner"])
    fs = r.choice(["fs01", "filesrv", "nas02", "dc01"])
    return pw, '''# Map-Shares.ps1 - runs at logon via scheduled task
$ErrorActionPreference = "Stop"
$user = "%s\\%s"
$pass = ConvertTo-SecureString "%s" -AsPlainText -Force
$cred = New-Object System.Management.Automation.PSCredential($user, $pass)

$shares = @{
    "S" = "\\\\%s\\shared"
    "P" = "\\\\%s\\projects"
}
foreach ($d in $shares.Keys) {
    if (-not (Get-PSDrive -Name $d -ErrorAction SilentlyContinue)) {
        New-PSDrive -Name $d -PSProvider FileSystem -Root $shares[$d] -Credential $cred -Persist | Out-Null
    }
}

<# Output when run manually:
New-PSDrive : The specified network password is not correct
At C:\\Scripts\\Map-Shares.ps1:%d char:9
+         New-PSDrive -Name $d -PSProvider FileSystem -Root $shares[$d] ...
+         ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    + CategoryInfo          : InvalidOperation: (S:PSDriveInfo) [New-PSDrive], Win32Exception
    + FullyQualifiedErrorId : CouldNotMapNetworkDrive,Microsoft.PowerShell.Commands.NewPSDriveCommand
#>''' % (dom, u, pw, fs, fs, r.randint(12, 14))


# ================================================================ clean families
FAMILIES = []   # (family, fn(r, i) -> text)


def fam(name):
    def deco(fn):
        FAMILIES.append((name, fn))
        return fn
    return deco


def pick(i, options):
    return options[i % len(options)]


def stamp(r):
    """A random 'last edited' marker: name + date (adds realism and entropy)."""
    return "%s, %s" % (uname(r), rdt(r).strftime("%Y-%m-%d"))


@fam("docs-placeholders")
def c_docs(r, i):
    proj = r.choice(PROJ)
    o = org(r)
    v = i % 5
    if v == 0:
        return '''## Configuration

`%s` reads its settings from environment variables. Copy `.env.example` to `.env` and fill in your own values:

| Variable | Required | Example | Description |
|---|---|---|---|
| `DATABASE_URL` | yes | `postgres://user:password@localhost:5432/%s` | Postgres connection string |
| `REDIS_URL` | no | `redis://localhost:6379/0` | Cache, defaults to in-memory |
| `STRIPE_SECRET_KEY` | yes | `sk_live_xxxxxxxxxxxxxxxxxxxxxxxx` | Use your **test** key while developing |
| `GITHUB_TOKEN` | no | `ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` | Only needed for the release script |
| `SENTRY_DSN` | no | `https://<key>@o<org>.ingest.sentry.io/<project>` | Error reporting |
| `SESSION_SECRET` | yes | `<run: openssl rand -hex 32>` | Cookie signing |
| `PORT` | no | `%d` | HTTP port |

> **Never commit your `.env` file.** It is listed in `.gitignore`.

_Last edited by %s_''' % (proj, proj.replace("-", "_"), r.choice([3000, 4000, 5000, 8000, 8080, 8787, 9000]), stamp(r))
    if v == 1:
        return '''### Quick start with Docker

```yaml
# docker-compose.yml
services:
  db:
    image: postgres:%d
    restart: always
    environment:
      POSTGRES_PASSWORD: example
      POSTGRES_USER: %s
  adminer:
    image: adminer
    restart: always
    ports:
      - 8080:8080
```

Run `docker compose up` and log in to Adminer at http://localhost:8080 with user `%s` and password `example`.
Change the password before exposing anything to a network - `example` is only meant for local testing.
<!-- %s -->''' % (r.randint(13, 17), proj.split("-")[0], proj.split("-")[0], stamp(r))
    if v == 2:
        return '''## Authentication

All API requests must include your API key. You can create keys in **Settings > API keys**.

```bash
curl https://api.%s/v%d/%s \\
  -H "Authorization: Bearer $%s_API_KEY" \\
  -H "Content-Type: application/json"
```

Or with HTTP basic auth (the key is the username, password is empty):

```bash
curl -u "YOUR_API_KEY:" https://api.%s/v%d/%s
```

```python
client = %s.Client(api_key="<your-api-key>")
```

Keys look like `%s_live_...` (production) or `%s_test_...` (sandbox). Treat them like passwords.''' % (
            domain(r), r.randint(1, 3), r.choice(["invoices", "events", "contacts"]), o.split("-")[0].upper(), domain(r), r.randint(1, 3),
            r.choice(["invoices", "events"]), o.split("-")[0], o[:3], o[:3])
    if v == 3:
        return '''# .env.example  -- copy to .env and fill in (%s)
APP_NAME=%s
APP_ENV=development
LOG_LEVEL=%s
APP_URL=http://localhost:%d
APP_KEY=
DB_HOST=127.0.0.1
DB_PORT=%d
DB_DATABASE=%s
DB_USERNAME=root
DB_PASSWORD=
MAIL_MAILER=smtp
MAIL_HOST=sandbox.smtp.mailtrap.io
MAIL_USERNAME=null
MAIL_PASSWORD=null
AWS_ACCESS_KEY_ID=
AWS_SECRET_ACCESS_KEY=
PUSHER_APP_SECRET=changeme
OPENAI_API_KEY=sk-...
JWT_SECRET=your-256-bit-secret''' % (stamp(r), proj, r.choice(["debug", "info", "warning"]), r.choice([3000, 8000, 8080]), r.choice([3306, 5432]), proj.replace("-", "_"))
    return "<!-- docs/reference/%s.md -->\n" % r.choice(["config", "settings", "client", "agent"]) + '''#### `auth` section

| Key | Type | Default | Description |
|---|---|---|---|
| `auth.username` | string | `""` | User to authenticate as. |
| `auth.password` | string | `""` | Password for `auth.username`. Prefer `auth.password_file`. |
| `auth.password_file` | path | none | File containing the password (trailing newline is stripped). |
| `auth.token` | string | none | Bearer token; overrides username/password. Example: `token: "${%s_TOKEN}"` |
| `auth.tls.insecure_skip_verify` | bool | `false` | Do not verify server certificate. |
| `auth.timeout` | duration | `%ds` | Login timeout. |

Example:

```yaml
auth:
  username: %s
  password_file: /run/secrets/%s_password
```
Since v%s.''' % (proj.split("-")[0].upper(), r.choice([5, 10, 15, 30, 60]), proj.split("-")[0], proj.split("-")[0], semver(r))


@fam("config-secret-refs")
def c_refs(r, i):
    proj = r.choice(PROJ)
    v = i % 5
    if v == 0:
        return '''spring:
  application:
    name: %s
  config:
    import: "optional:vault://secret/%s"
  datasource:
    url: jdbc:postgresql://${DB_HOST:localhost}:5432/%s
    username: ${DB_USER:%s}
    password: ${DB_PASSWORD}
  mail:
    host: smtp.%s
    username: ${SMTP_USER}
    password: ${SMTP_PASSWORD:}
app:
  jwt:
    secret: ${JWT_SECRET}
    ttl: %dm''' % (proj, proj, proj.replace("-", "_"), proj.replace("-", "_"), domain(r), r.choice([15, 30, 60]))
    if v == 1:
        return '''# configuration.yaml
homeassistant:
  name: Home
  latitude: !secret home_latitude
  longitude: !secret home_longitude
  unit_system: metric
  time_zone: %s

mqtt:
  sensor:
    - name: "%s temperature"
      state_topic: "%s/temp"
      unit_of_measurement: "°C"

notify:
  - name: pushover
    platform: pushover
    api_key: !secret pushover_api_key
    user_key: !secret pushover_user_key

camera:
  - platform: generic
    still_image_url: !secret driveway_cam_url
    username: !secret driveway_cam_user
    password: !secret driveway_cam_password
# last change: %s''' % (r.choice(TZS), *([r.choice(["Boiler", "Attic", "Garage", "Freezer", "Aquarium", "Greenhouse"])] * 1), r.choice(["boiler", "attic", "garage", "freezer", "sensors/%s" % rhex(r, 6)]), stamp(r))
    if v == 2:
        return '''# group_vars/%s/main.yml
db_name: %s
db_user: %s
db_password: "{{ vault_db_password }}"
smtp_password: "{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/%s/smtp:password') }}"
api_token: "{{ lookup('ansible.builtin.env', 'API_TOKEN') }}"
tls_key: "{{ lookup('ansible.builtin.file', 'files/%s.key') }}"
backup_passphrase: "{{ lookup('community.general.onepassword', '%s backup', field='password', vault='Infra') }}"
backup_retention_days: %d
# %s''' % (
            r.choice(["prod", "staging", "webservers", "dbservers", "all"]), proj.replace("-", "_"), proj.replace("-", "_"), proj, proj, proj, r.choice([7, 14, 30, 90, 365]), stamp(r))
    if v == 3:
        return '''services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: %s
      POSTGRES_PASSWORD_FILE: /run/secrets/db_password
    secrets:
      - db_password
  app:
    image: ghcr.io/%s/%s:%s
    environment:
      DATABASE_PASSWORD_FILE: /run/secrets/db_password
      SECRET_KEY: ${SECRET_KEY:?set SECRET_KEY in .env}
    secrets:
      - db_password
secrets:
  db_password:
    file: ./secrets/db_password.txt''' % (proj.replace("-", "_"), org(r), proj, semver(r))
    acct = r.randint(10 ** 11, 10 ** 12 - 1)
    reg = r.choice(["us-east-1", "eu-west-1", "eu-central-1"])
    return '''{
  "family": "%s",
  "containerDefinitions": [
    {
      "name": "%s",
      "image": "%d.dkr.ecr.%s.amazonaws.com/%s:%s",
      "secrets": [
        { "name": "DB_PASSWORD", "valueFrom": "arn:aws:secretsmanager:%s:%d:secret:prod/%s/db-%s:password::" },
        { "name": "STRIPE_KEY", "valueFrom": "arn:aws:ssm:%s:%d:parameter/prod/%s/stripe_key" }
      ],
      "environment": [
        { "name": "NODE_ENV", "value": "production" }
      ]
    }
  ]
}''' % (proj, proj, acct, reg, proj, semver(r), reg, acct, proj, rs(r, 6), reg, acct, proj)


@fam("code-handles-secrets")
def c_code(r, i):
    v = i % 5
    if v == 0:
        return "# %s/security.py  (%s)\n" % (r.choice(PROJ).replace("-", "_"), stamp(r)) + '''import os
import hmac
import hashlib
from argon2 import PasswordHasher

ph = PasswordHasher(time_cost=%d, memory_cost=%d, parallelism=2)

API_TOKEN = os.environ["%s_API_TOKEN"]          # injected by the orchestrator
WEBHOOK_SECRET = os.environ.get("WEBHOOK_SECRET", "").encode()


def hash_password(password: str) -> str:
    return ph.hash(password)


def verify_webhook(body: bytes, signature: str) -> bool:
    expected = hmac.new(WEBHOOK_SECRET, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)''' % (r.choice([2, 3, 4]), r.choice([65536, 102400]), r.choice(PROJ).split("-")[0].upper())
    if v == 1:
        return "// internal/%s/middleware.go (%s)\n" % (r.choice(["auth", "httpx", "server", "api"]), stamp(r)) + '''package auth

import (
	"crypto/subtle"
	"net/http"
	"os"
	"strings"
)

var apiToken = []byte(os.Getenv("%s_API_TOKEN"))

func RequireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if len(apiToken) == 0 || subtle.ConstantTimeCompare([]byte(got), apiToken) != 1 {
			http.Error(w, "%s", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}''' % (r.choice(["APP", "ADMIN", "METRICS", "INTERNAL", "BILLING", "EXPORT"]), r.choice(["unauthorized", "forbidden", "invalid token", "missing or invalid bearer token"]))
    if v == 2:
        return '''// %s/src/logging/redact.ts - strip credentials from log lines before shipping them
// added in #%d after the %s incident
const PATTERNS: RegExp[] = [''' % (r.choice(PROJ), r.randint(100, 3000), r.choice(["March", "June", "October", "staging", "CI log"])) + '''
  /(authorization:\\s*bearer\\s+)[^\\s"]+/gi,
  /(password["']?\\s*[:=]\\s*["']?)[^"'\\s,}]+/gi,
  /\\b(gh[pousr]_)[A-Za-z0-9]{36}\\b/g,
  /\\b(sk_live_)[A-Za-z0-9]{10,}\\b/g,
  /(:\\/\\/[^:\\/\\s]+:)[^@\\s]+(@)/g,
];

export function redact(line: string): string {
  return PATTERNS.reduce((acc, re) => acc.replace(re, "$1[REDACTED]$2"), line);
}

// redact("password=...") -> "password=[REDACTED]"
export const REDACT_VERSION = %d;''' % r.randint(2, 40)
    if v == 3:
        sn = r.choice(["Database", "Postgres", "Primary", "Replica", "Analytics"])
        return "// " + stamp(r) + "\n" + '''// src/configuration.rs (%s)
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

#[derive(Deserialize, Clone)]
pub struct %sSettings {
    pub username: String,
    pub password: SecretString,
    pub host: String,
    pub port: u16,
    pub database_name: String,
    pub require_ssl: bool,
}

impl %sSettings {''' % (r.choice(PROJ), sn, sn) + '''
    pub fn connection_string(&self) -> SecretString {
        SecretString::new(format!(
            "postgres://{}:{}@{}:{}/{}",
            self.username,
            self.password.expose_secret(),
            self.host,
            self.port,
            self.database_name
        ))
    }
}'''
    return "// %s\npackage com.%s.%s;\n\n" % (stamp(r), org(r).replace("-", ""), r.choice(["cli", "tools", "admin"])) + '''public final class Login {
    public static void main(String[] args) throws Exception {
        Console console = System.console();
        String user = console.readLine("Username: ");
        char[] password = console.readPassword("Password for %%s: ", user);
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(Path.of(System.getenv("KEYSTORE_PATH")))) {
                ks.load(in, password);
            }
            System.out.println("Loaded " + ks.size() + " entries");
        } finally {
            Arrays.fill(password, '\\0');   // wipe
        }
    }
}
// %s''' % r.choice(["TODO: move to a proper CLI lib", "see SEC-%d" % r.randint(10, 400), ""])


@fam("hashes-digests")
def c_hashes(r, i):
    v = i % 5
    rel = semver(r, (1, 3))
    if v == 0:
        tool = r.choice(["restic", "rclone", "caddy", "k9s", "hugo"])
        lines = []
        for osn in ["darwin_amd64.tar.gz", "darwin_arm64.tar.gz", "linux_amd64.tar.gz", "linux_arm64.tar.gz", "linux_armv7.tar.gz", "windows_amd64.zip"]:
            lines.append("%s  %s_%s_%s" % (rhex(r, 64), tool, rel, osn))
        return "$ curl -sLO https://github.com/%s/%s/releases/download/v%s/checksums.txt\n$ cat checksums.txt\n%s\n$ sha256sum --ignore-missing -c checksums.txt\n%s_%s_linux_amd64.tar.gz: OK" % (
            tool, tool, rel, "\n".join(lines), tool, rel)
    if v == 1:
        img = r.choice(["postgres:16-alpine", "nginx:1.27", "redis:7.2", "node:20-bookworm-slim"])
        layers = "\n".join("%s: Pull complete" % rhex(r, 12) for _ in range(r.randint(4, 8)))
        return "$ docker pull %s\n%s: Pulling from library/%s\n%s\nDigest: sha256:%s\nStatus: Downloaded newer image for %s\ndocker.io/library/%s\n$ docker images --digests | head -3\nREPOSITORY   TAG       DIGEST                                                                    IMAGE ID       CREATED       SIZE\n%s   %s   sha256:%s   %s   %d days ago   %dMB" % (
            img, img.split(":")[1], img.split(":")[0], layers, rhex(r, 64), img, img, img.split(":")[0], img.split(":")[1], rhex(r, 64), rhex(r, 12), r.randint(2, 40), r.randint(40, 400))
    if v == 2:
        return '''<!-- pinned CDN assets with Subresource Integrity -->
<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.%d/dist/css/bootstrap.min.css"
      integrity="sha384-%s" crossorigin="anonymous">
<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.%d/dist/js/bootstrap.bundle.min.js"
        integrity="sha384-%s" crossorigin="anonymous"></script>
<script src="https://unpkg.com/htmx.org@1.9.%d" integrity="sha384-%s" crossorigin="anonymous"></script>''' % (
            r.randint(0, 3), b64(rbytes(r, 48)), r.randint(0, 3), b64(rbytes(r, 48)), r.randint(6, 12), b64(rbytes(r, 48)))
    if v == 3:
        f = r.choice(["ubuntu-24.04-live-server-amd64.iso", "debian-12.5.0-amd64-netinst.iso", "Win11_23H2_English_x64.iso"])
        return '''PS C:\\Users\\%s\\Downloads> Get-FileHash .\\%s -Algorithm SHA256 | Format-List

Algorithm : SHA256
Hash      : %s
Path      : C:\\Users\\%s\\Downloads\\%s

PS C:\\Users\\%s\\Downloads> certutil -hashfile .\\%s MD5
MD5 hash of .\\%s:
%s
CertUtil: -hashfile command completed successfully.''' % (uname(r), f, rhex(r, 64).upper(), uname(r), f, uname(r), f, f, rhex(r, 32))
    fpr = rhex(r, 40).upper()
    return '''$ gpg --verify SHA256SUMS.sig SHA256SUMS
gpg: Signature made %s
gpg:                using RSA key %s
gpg: Good signature from "%s Release Signing Key <release@%s>" [unknown]
gpg: WARNING: This key is not certified with a trusted signature!
gpg:          There is no indication that the signature belongs to the owner.
Primary key fingerprint: %s
$ grep amd64 SHA256SUMS
%s *%s-%s-amd64.deb''' % (rdt(r).strftime("%a %d %b %Y %I:%M:%S %p UTC"), fpr, org(r).title(), domain(r),
                          " ".join(fpr[k:k + 4] for k in range(0, 40, 4)).replace(fpr[16:20] + " " + fpr[20:24], fpr[16:20] + "  " + fpr[20:24]),
                          rhex(r, 64), r.choice(PROJ), rel)


@fam("lockfiles")
def c_lock(r, i):
    v = i % 5
    if v == 0:
        pk = []
        for name in r.sample(["ansi-styles", "chalk", "debug", "ms", "semver", "picocolors", "nanoid", "postcss", "escalade", "cookie", "mime-types", "ws"], 5):
            ver = semver(r, (1, 8))
            pk.append('''    "node_modules/%s": {
      "version": "%s",
      "resolved": "https://registry.npmjs.org/%s/-/%s-%s.tgz",
      "integrity": "sha512-%s",
      "license": "MIT"
    }''' % (name, ver, name, name, ver, b64(rbytes(r, 64))))
        return '{\n  "name": "%s",\n  "version": "%s",\n  "lockfileVersion": 3,\n  "requires": true,\n  "packages": {\n%s\n  }\n}' % (r.choice(PROJ), semver(r), ",\n".join(pk))
    if v == 1:
        out = []
        for name in r.sample(["certifi", "idna", "urllib3", "charset-normalizer", "requests", "pydantic-core", "anyio", "sniffio"], 3):
            ver = semver(r, (1, 3))
            out.append('''[[package]]
name = "%s"
version = "%s"
description = "%s"
optional = false
python-versions = ">=3.8"
files = [
    {file = "%s-%s-py3-none-any.whl", hash = "sha256:%s"},
    {file = "%s-%s.tar.gz", hash = "sha256:%s"},
]''' % (name, ver, r.choice(["HTTP library", "Internationalized Domain Names", "Python package"]), name.replace("-", "_"), ver, rhex(r, 64), name, ver, rhex(r, 64)))
        return "# This file is automatically @generated by Poetry 1.8.%d and should not be changed by hand.\n\n%s\n\n[metadata]\nlock-version = \"2.0\"\npython-versions = \"^3.11\"\ncontent-hash = \"%s\"" % (r.randint(1, 4), "\n\n".join(out), rhex(r, 64))
    if v == 2:
        out = []
        for name in r.sample(["serde", "serde_json", "tokio", "anyhow", "itoa", "ryu", "bytes", "libc", "mio"], 5):
            out.append('[[package]]\nname = "%s"\nversion = "%s"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "%s"' % (name, semver(r, (0, 2)), rhex(r, 64)))
        return "# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 3\n\n" + "\n\n".join(out)
    if v == 3:
        out = []
        for mod in r.sample(["github.com/google/uuid", "golang.org/x/sys", "golang.org/x/net", "github.com/spf13/cobra", "github.com/stretchr/testify", "go.uber.org/zap", "github.com/pkg/errors"], 4):
            ver = "v" + semver(r, (0, 1))
            out.append("%s %s h1:%s=" % (mod, ver, b64(rbytes(r, 32))[:-1]))
            out.append("%s %s/go.mod h1:%s=" % (mod, ver, b64(rbytes(r, 32))[:-1]))
        return "\n".join(out)
    out = []
    for name in r.sample(["@babel/code-frame", "@babel/helper-validator-identifier", "js-tokens", "picocolors", "lru-cache", "yallist"], 3):
        ver = semver(r, (1, 7))
        out.append('"%s@^%s":\n  version "%s"\n  resolved "https://registry.yarnpkg.com/%s/-/%s-%s.tgz#%s"\n  integrity sha512-%s' % (
            name, ver, ver, name, name.split("/")[-1], ver, rhex(r, 40), b64(rbytes(r, 64))))
    return "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n\n\n" + "\n\n".join(out)


@fam("ids-and-trace-logs")
def c_ids(r, i):
    v = i % 5
    d = rdt(r)
    if v == 0:
        out = []
        for _ in range(r.randint(5, 9)):
            d = later(d, r, 0, 3)
            out.append(json.dumps({"ts": iso(d, ms=True), "level": r.choice(["info", "info", "warn", "error"]), "msg": r.choice(["request completed", "upstream timeout", "cache miss", "retrying"]),
                                   "trace_id": rhex(r, 32), "span_id": rhex(r, 16), "request_id": ruuid(r), "http.status": r.choice([200, 200, 502, 504, 404]),
                                   "duration_ms": r.randint(2, 3000)}))
        return "\n".join(out)
    if v == 1:
        out = []
        for _ in range(r.randint(5, 9)):
            d = later(d, r, 0, 5)
            out.append('%s - - [%s +0000] "%s %s HTTP/2.0" %d %d "-" "%s" rid=%s cf-ray=%s-%s' % (
                pub_ip(r), d.strftime("%d/%b/%Y:%H:%M:%S"), r.choice(["GET", "POST"]), r.choice(["/api/v1/orders", "/healthz", "/static/app.%s.js" % rhex(r, 8), "/login"]),
                r.choice([200, 301, 404, 499]), r.randint(100, 90000), r.choice(["Mozilla/5.0", "curl/8.5.0", "kube-probe/1.29"]), rhex(r, 32), rhex(r, 16), r.choice(["AMS", "FRA", "IAD", "LHR"])))
        return "\n".join(out)
    if v == 2:
        return json.dumps({"id": "ch_3" + rs(r, 23), "object": "charge", "amount": r.randint(500, 90000), "currency": r.choice(["eur", "usd"]),
                           "customer": "cus_" + rs(r, 14), "payment_intent": "pi_3" + rs(r, 23), "payment_method": "pm_1" + rs(r, 23),
                           "balance_transaction": "txn_3" + rs(r, 23), "status": "succeeded", "livemode": True,
                           "metadata": {"order_id": str(r.randint(10000, 99999))}, "receipt_url": "https://pay.stripe.com/receipts/payment/" + rs(r, 80, URLSAFE)}, indent=2) + "\n\nRequest-Id: req_" + rs(r, 14)
    if v == 3:
        acct = r.randint(10 ** 11, 10 ** 12 - 1)
        return '''$ aws cloudformation describe-stack-events --stack-name %s --max-items 2
{
    "StackEvents": [
        {
            "StackId": "arn:aws:cloudformation:eu-west-1:%d:stack/%s/%s",
            "EventId": "%s",
            "StackName": "%s",
            "LogicalResourceId": "ApiFunction",
            "PhysicalResourceId": "%s-ApiFunction-%s",
            "ResourceType": "AWS::Lambda::Function",
            "Timestamp": "%s",
            "ResourceStatus": "UPDATE_FAILED",
            "ResourceStatusReason": "Resource handler returned message: \\"Code storage limit exceeded. (Service: Lambda, Status Code: 400, Request ID: %s)\\""
        }
    ],
    "NextToken": "%s"
}''' % (r.choice(PROJ), acct, r.choice(PROJ), ruuid(r), ruuid(r), r.choice(PROJ), r.choice(PROJ), rs(r, 12, UP + DIG), iso(d, ms=True), ruuid(r), b64(rbytes(r, 36)))
    return '''Run %s/%s/actions/runs/%d
  job %d "build (ubuntu-latest, 3.%d)" failed after %dm%02ds
  Sentry event: https://%s.sentry.io/issues/%d/events/%s/
  correlation-id: %s
  build: %s+%s
  artifact: dist-%s.zip (sha256 %s)''' % (org(r), r.choice(PROJ), r.randint(7 * 10 ** 9, 9 * 10 ** 9), r.randint(10 ** 10, 3 * 10 ** 10), r.randint(10, 13), r.randint(1, 20), r.randint(0, 59),
                                            org(r), r.randint(10 ** 9, 5 * 10 ** 9), rhex(r, 32), ruuid(r), semver(r), rhex(r, 7), rhex(r, 7), rhex(r, 64))


def bech32ish(r, n):
    return rs(r, n, "qpzry9x8gf2tvdw0s3jn54khce6mua7l")


@fam("public-keys-certs")
def c_pubkeys(r, i):
    v = i % 5
    if v == 0:
        lines = ["# ~/.ssh/authorized_keys on %s" % host(r)]
        for _ in range(r.randint(3, 5)):
            lines.append(ssh_ed25519_pub(r, "%s@%s" % (uname(r), r.choice(["laptop", "desktop", "work-mbp", "ci"]))))
        lines.append('from="10.0.0.0/8",no-pty,command="/usr/local/bin/backup-only" ' + ssh_ed25519_pub(r, "backup@%s" % host(r)))
        return "\n".join(lines)
    if v == 1:
        return "$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:%s %s@%s (ED25519)\n$ cat ~/.ssh/known_hosts | head -3\n|1|%s|%s ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s\n|1|%s|%s ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB%s\ngithub.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl" % (
            b64(rbytes(r, 32)).rstrip("="), uname(r), host(r), b64(rbytes(r, 20)), b64(rbytes(r, 20)), b64(rbytes(r, 32))[1:],
            b64(rbytes(r, 20)), b64(rbytes(r, 20)), b64(rbytes(r, 65))[1:])
    if v == 2:
        cn = "%s.%s" % (r.choice(["www", "api", "mail"]), domain(r))
        return "$ openssl s_client -connect %s:443 -showcerts </dev/null 2>/dev/null | sed -n '/BEGIN/,/END/p'\n%s\n%s\n$ openssl x509 -in leaf.pem -noout -subject -issuer -fingerprint -sha256\nsubject=CN = %s\nissuer=C = US, O = Let's Encrypt, CN = R%d\nsha256 Fingerprint=%s" % (
            cn, fake_cert_pem(r, cn), fake_cert_pem(r, "R11"), cn, r.choice([10, 11]), ":".join(rhex(r, 2).upper() for _ in range(32)))
    if v == 3:
        body = b64(b"\x99\x02\x0d\x04" + rbytes(r, 540))
        arm = "\n".join(body[k:k + 64] for k in range(0, len(body), 64))
        return '''Release signing key for %s (fingerprint %s):

-----BEGIN PGP PUBLIC KEY BLOCK-----

%s
=%s
-----END PGP PUBLIC KEY BLOCK-----

Import with `curl -fsSL https://%s/gpg.key | sudo gpg --dearmor -o /usr/share/keyrings/%s.gpg`.''' % (
            r.choice(PROJ), rhex(r, 40).upper(), arm, b64(rbytes(r, 3)), domain(r), r.choice(PROJ))
    return '''# recipients.txt for `age -R recipients.txt`
# %s
age1%s
# %s
age1%s
# CI deploy key (public half)
age1%s

# minisign public key used to verify releases
untrusted comment: minisign public key %s
RW%s''' % (uname(r), bech32ish(r, 58), uname(r), bech32ish(r, 58), bech32ish(r, 58), rhex(r, 16).upper(), b64(rbytes(r, 40))[2:])


@fam("base64-harmless")
def c_b64(r, i):
    v = i % 4
    if v == 0:
        readme = ("# %s\n\nInternal tooling for the %s team.\n\n## Usage\n\n    make build\n    make test\n" % (r.choice(PROJ), r.choice(["data", "platform", "mobile"]))).encode()
        enc = b64(readme)
        enc = "\\n".join(enc[k:k + 60] for k in range(0, len(enc), 60))
        return json.dumps({"name": "README.md", "path": "README.md", "sha": rhex(r, 40), "size": len(readme),
                           "url": "https://api.github.com/repos/%s/%s/contents/README.md?ref=main" % (org(r), r.choice(PROJ)),
                           "type": "file", "content": "PLACEHOLDER", "encoding": "base64"}, indent=2).replace("PLACEHOLDER", enc)
    if v == 1:
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#%s" d="M12 2l%d %d-%d %d z"/></svg>' % (
            rhex(r, 6), r.randint(1, 9), r.randint(1, 9), r.randint(1, 9), r.randint(1, 9))).encode()
        png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rbytes(r, r.randint(60, 140))
        return '''.icon-star {
  background-image: url("data:image/svg+xml;base64,%s");
}
.logo-small {
  background-image: url("data:image/png;base64,%s");
  width: 16px;
  height: 16px;
}''' % (b64(svg), b64(png))
    if v == 2:
        csv = "date,store,revenue\n" + "\n".join("2024-%02d-%02d,%s,%d.%02d" % (r.randint(1, 12), r.randint(1, 28), r.choice(CITIES), r.randint(100, 9000), r.randint(0, 99)) for _ in range(6))
        enc = b64(csv.encode())
        bd = "----=_Part_%d_%d.%d" % (r.randint(1, 999), r.randint(10 ** 8, 10 ** 9), r.randint(10 ** 12, 10 ** 13))
        return '''MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="%s"

--%s
Content-Type: text/plain; charset=UTF-8

Weekly revenue export attached.

--%s
Content-Type: text/csv; name="revenue.csv"
Content-Transfer-Encoding: base64
Content-Disposition: attachment; filename="revenue.csv"

%s
--%s--''' % (bd, bd, bd, "\n".join(enc[k:k + 76] for k in range(0, len(enc), 76)), bd)
    cfg = json.dumps({"theme": r.choice(["dark", "light"]), "locale": r.choice(["de-DE", "en-GB", "pt-PT"]), "features": r.sample(["beta-search", "new-nav", "csv-export", "sso"], 2), "v": r.randint(1, 9)})
    return "$ # %s\n$ echo -n '%s' | base64 -w0\n%s\n$ echo '%s' | base64 -d\n%s" % (stamp(r), cfg, b64(cfg.encode()), b64(cfg.encode()), cfg)


@fam("minified-code")
def c_min(r, i):
    f = r.choice(["vendor", "main", "app", "runtime", "chunk-%s" % rhex(r, 8)]) + "." + rhex(r, 8)
    intro = r.choice(["Sentry points at line 1, column %d of %s.min.js - here is the file as served:" % (r.randint(100, 9000), f),
                      "This is what our CDN returns for `/static/%s.js` (should be the new build):" % f,
                      "Diffing two builds, the only change is in this chunk (`%s`):" % f,
                      "$ curl -s https://%s/assets/%s.js | head -c 2000" % (domain(r), f)])
    lic = "/*! %s v%s | (c) %s | MIT License */" % (r.choice(["tinyfmt", "qs-lite", "dom-utils", "mitt", "nanoevents"]), semver(r), r.choice(LAST))
    return "%s\n\n```js\n%s\n%s\n```\n%s" % (intro, lic, _min_body(r, i), r.choice(["", "Any idea what's going on?", "(minified, sorry)", "Source maps are disabled in prod."]))


def _min_body(r, i):
    v = i % 4
    ids = [rs(r, 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$") + rs(r, r.randint(0, 2), ALNUM) for _ in range(12)]
    if v == 0:
        return '!function(%s,%s){"object"==typeof exports&&"undefined"!=typeof module?module.exports=%s():"function"==typeof define&&define.amd?define(%s):(%s="undefined"!=typeof globalThis?globalThis:%s||self).%s=%s()}(this,(function(){"use strict";var %s=Object.defineProperty,%s=(t,e,n)=>e in t?%s(t,e,{enumerable:!0,configurable:!0,writable:!0,value:n}):t[e]=n;const %s="%s",%s=[%s];function %s(t){return t.replace(/[&<>"]/g,(e=>({"&":"&amp;","<":"&lt;",">":"&gt;",\'"\':"&quot;"}[e])))}return{version:%s,escape:%s,keys:%s}}));\n//# sourceMappingURL=%s.min.js.map' % (
            ids[0], ids[1], ids[1], ids[1], ids[0], ids[0], ids[2].capitalize(), ids[1], ids[3], ids[4], ids[3], ids[5], semver(r), ids[6],
            ",".join('"%s"' % rs(r, 8, LOW + DIG) for _ in range(6)), ids[7], ids[5], ids[7], ids[6], r.choice(PROJ))
    if v == 1:
        chunks = ",".join('%d:"%s"' % (r.randint(10, 999), rhex(r, 20)) for _ in range(r.randint(8, 14)))
        return '(()=>{"use strict";var e,r,t,o={},n={};function a(e){var r=n[e];if(void 0!==r)return r.exports;var t=n[e]={id:e,loaded:!1,exports:{}};return o[e].call(t.exports,t,t.exports,a),t.loaded=!0,t.exports}a.m=o,a.u=e=>"static/chunks/"+e+"."+{%s}[e]+".js",a.miniCssF=e=>"static/css/"+{%d:"%s"}[e]+".css",a.p="/_next/",a.nc=void 0})();' % (
            chunks, r.randint(10, 999), rhex(r, 16))
    if v == 2:
        segs = ";".join(",".join(rs(r, r.randint(4, 8), string.ascii_letters + DIG + "+/") for _ in range(r.randint(2, 6))) for _ in range(12))
        return json.dumps({"version": 3, "file": "main.%s.js" % rhex(r, 8), "sources": ["webpack://%s/./src/index.ts" % r.choice(PROJ), "webpack://%s/./src/api/client.ts" % r.choice(PROJ)],
                           "names": ids[:6], "mappings": segs, "sourceRoot": ""})
    return '.%s{display:flex;align-items:center;gap:.5rem}.%s>svg{width:1rem;height:1rem}.%s{color:var(--c-%s,#%s)}.%s:hover{background:#%s}@media (max-width:640px){.%s{display:none}}' % (
        "_" + rs(r, 6, ALNUM), "_" + rs(r, 6, ALNUM), "css-" + rs(r, 7, LOW + DIG), rs(r, 4, LOW), rhex(r, 6), "sc-" + rs(r, 6, ALNUM), rhex(r, 6), "_" + rs(r, 6, ALNUM))


@fam("masked-output")
def c_masked(r, i):
    v = i % 6
    if v == 0:
        return '''$ aws configure list
      Name                    Value             Type    Location
      ----                    -----             ----    --------
   profile                %s           manual    --profile
access_key     ****************%s shared-credentials-file
secret_key     ****************%s shared-credentials-file
    region                %s      config-file    ~/.aws/config''' % (r.choice(["default", "prod", "sandbox"]).ljust(8), rs(r, 4, UP + "234567"), rs(r, 4, ALNUM), r.choice(["eu-west-1", "us-east-2"]))
    if v == 1:
        return '''$ gh auth status
github.com
  ✓ Logged in to github.com account %s (keyring)
  - Active account: true
  - Git operations protocol: https
  - Token: gho_************************************
  - Token scopes: %s''' % (uname(r), ", ".join("'%s'" % s for s in sorted(r.sample(["gist", "read:org", "repo", "workflow", "read:packages", "admin:public_key", "codespace"], r.randint(2, 5)))))
    if v == 2:
        d = rdt(r)
        return '''%s Run ./scripts/deploy.sh
%s   env:
%s     REGISTRY_PASSWORD: ***
%s     DEPLOY_KEY: ***
%s Logging in to ghcr.io as %s
%s Login Succeeded
%s curl -fsS -H "Authorization: Bearer ***" https://api.%s/v1/deployments -d '{"ref":"%s"}'
%s {"id":%d,"status":"queued"}''' % tuple([iso(later(d, r, k, k), ms=True) for k in range(5)] + [uname(r)] + [iso(later(d, r, 6, 7), ms=True)] * 2 + [domain(r), rhex(r, 7), iso(later(d, r, 8, 9), ms=True), r.randint(1000, 99999)])
    if v == 3:
        return '''Terraform will perform the following actions:

  # aws_db_instance.main will be updated in-place
  ~ resource "aws_db_instance" "main" {
        id                    = "%s"
      ~ password              = (sensitive value)
        # (%d unchanged attributes hidden)
    }

  # random_password.api will be created
  + resource "random_password" "api" {
      + id          = (known after apply)
      + length      = %d
      + result      = (sensitive value)
      + special     = true
    }

Plan: 1 to add, 1 to change, 0 to destroy.''' % (r.choice(PROJ) + "-" + r.choice(["db", "pg", "main", "primary"]) + "-%d" % r.randint(1, 9), r.randint(40, 52), r.choice([24, 32, 40]))
    if v == 4:
        d = rdt(r)
        return "\n".join("%s INFO  [%s] %s" % (iso(later(d, r, k, k + 1), ms=True), r.choice(["http", "db", "auth"]), m) for k, m in enumerate([
            "connecting to postgres://app:<redacted>@%s:5432/app" % host(r),
            "outbound request POST https://api.openai.com/v1/chat/completions auth=Bearer sk-...%s" % rs(r, 4),
            "stripe client initialised key=sk_live_****%s" % rs(r, 4),
            "login ok user=%s password=[FILTERED] mfa=true" % uname(r),
            "config loaded: {\"smtp_password\": \"********\", \"api_token\": \"<hidden>\"}"]))
    return '''$ vercel env ls production
Vercel CLI %d.%d.%d
> Environment Variables found for %s/%s [%dms]

 name                  value               environments        created
 DATABASE_URL          Encrypted           Production          %dd ago
 NEXTAUTH_SECRET       Encrypted           Production          %dd ago
 STRIPE_SECRET_KEY     Encrypted           Production          %dd ago
 NEXT_PUBLIC_APP_URL   https://%s       Production          %dd ago''' % (r.randint(32, 39), r.randint(0, 9), r.randint(0, 9), org(r), r.choice(PROJ), r.randint(100, 900), r.randint(1, 90), r.randint(1, 90), r.randint(1, 90), domain(r), r.randint(1, 90))


AWS_DOC_AKID = "AKIAIOSFODNN7EXAMPLE"
AWS_DOC_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
STRIPE_DOC_SK = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
STRIPE_DOC_PK = "pk_test_TYooMQauvdEDq54NiTphI7jx"
JWTIO = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
SLACK_DOC_HOOK = "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"
GH_DOC_TOKEN = "gho_16C7e42F292c6912E7710c838347Ae178B4a"


@fam("vendor-doc-examples")
def c_vendor_docs(r, i):
    head = r.choice(["", "Re: #%d\n\n" % r.randint(10, 4000), "From the %s wiki:\n\n" % org(r), "(%s) " % r.choice(FIRST), "Note for %s: " % r.choice(PROJ)])
    return head + _vendor_docs(r, i)


def _vendor_docs(r, i):
    v = i % 6
    if v == 0:
        return '''From the AWS CLI docs ("Configuration basics"), this is what the prompt looks like:

```
$ aws configure --profile %s
AWS Access Key ID [None]: %s
AWS Secret Access Key [None]: %s
Default region name [None]: %s
Default output format [None]: json
```

Those are AWS's documented example values, not real keys - use your own from IAM (%s).''' % (r.choice(["dev", "sandbox", "user1"]), AWS_DOC_AKID, AWS_DOC_SECRET, r.choice(["us-west-2", "eu-central-1", "us-east-1", "ap-southeast-2"]), r.choice(["see the onboarding doc", "ask in #cloud", "ticket CLOUD-%d" % r.randint(10, 999)]))
    if v == 1:
        return '''Stripe's docs use a shared test-mode key in every example, e.g.:

```bash
curl https://api.stripe.com/v1/payment_intents \\
  -u %s: \\
  -d amount=%d \\
  -d currency=%s \\
  -d "automatic_payment_methods[enabled]"=true
```

and on the client `Stripe('%s')`. Swap in the keys from your dashboard once you leave the tutorial (%s).''' % (STRIPE_DOC_SK, r.choice([1099, 2000, 500, 4200, 999]), r.choice(["usd", "eur", "gbp"]), STRIPE_DOC_PK, r.choice(["step %d" % r.randint(2, 9), "see %s" % r.choice(PROJ), "docs.stripe.com/keys"]))
    if v == 2:
        return '''The sample token from jwt.io decodes like this:

```
$ echo '%s' | cut -d. -f2 | base64 -d 2>/dev/null
{"sub":"1234567890","name":"John Doe","iat":1516239022}
```

It is signed with the literal secret `your-256-bit-secret`, so it's fine for unit tests of the parser (%s).''' % (JWTIO, r.choice(["see tests/test_jwt.py", "issue #%d" % r.randint(10, 900), "PR #%d" % r.randint(10, 900)]))
    if v == 3:
        return '''local.settings.json for running against Azurite (the storage emulator - this account name/key pair is the well-known public emulator key from the docs):

```json
{
  "IsEncrypted": false,
  "Values": {
    "AzureWebJobsStorage": "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=%s;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;QueueEndpoint=http://127.0.0.1:10001/devstoreaccount1;",
    "FUNCTIONS_WORKER_RUNTIME": "%s",
    "%s": "%s"
  }
}
```''' % (AZURITE_KEY, r.choice(["dotnet-isolated", "node", "python"]), r.choice(["QueueName", "ContainerName", "ReportCron"]), r.choice(["uploads", "invoices-%d" % r.randint(1, 99), "0 */%d * * * *" % r.randint(2, 30)]))
    if v == 4:
        return '''Slack's incoming-webhook docs show the URL format as

    %s

and the payload:

```bash
curl -X POST -H 'Content-type: application/json' --data '{"text":"%s"}' %s
```

Each app gets its own URL when you click *Add New Webhook to Workspace* (we'll use #%s).''' % (SLACK_DOC_HOOK, r.choice(["Hello, World!", "Deploy finished", "Build #%d passed" % r.randint(10, 999)]), SLACK_DOC_HOOK, r.choice(["deploys", "alerts", "ci", "releases", "ops"]))
    return '''GitHub's OAuth docs show the token response like:

```
access_token=%s&scope=repo%%2Cgist&token_type=bearer
```

so in our docs page (%s, last edited by %s) we reuse that example value instead of inventing one.''' % (GH_DOC_TOKEN, r.choice(["docs/auth.md", "wiki/OAuth-flow", "CONTRIBUTING.md"]), uname(r))


@fam("policy-prose")
def c_policy(r, i):
    v = i % 4
    o = org(r).replace("-", " ").title()
    n = r.choice([12, 14, 15, 16])
    if v == 0:
        return '''# %s Password Standard (v%d.%d)

1. Passwords must be at least %d characters. Passphrases of four or more random words are encouraged.
2. Do not reuse a password that you use anywhere else. Use the company password manager to generate and store them.
3. We do **not** require periodic rotation. Passwords are changed only when there is evidence of compromise.
4. Shared accounts are not allowed; service credentials live in the secrets manager and are rotated every %d days.
5. Never send a password or API token by email, chat or ticket. If you receive one, report it to security@ and assume it is compromised.
6. MFA is mandatory for SSO, VPN and all admin consoles.

Approved: %s''' % (o, r.randint(1, 4), r.randint(0, 9), n, r.choice([30, 60, 90]), stamp(r))
    if v == 1:
        return '''## How we handle secrets (onboarding, week 1)

- Application secrets (database passwords, API keys, signing keys) are stored in %s and injected at deploy time. They never appear in the repository, in Docker images, or in CI logs.
- Locally, use `%s run -- npm start`; do not create a `.env` with production values.
- If you accidentally commit a token, **rotate it first**, then clean the history. Rewriting history alone is not enough - assume the value was scraped within minutes.
- Secret scanning runs on every push. A finding blocks the merge until someone from %s security marks it as a false positive or confirms rotation.

_Page owner: %s_''' % (
            r.choice(["Vault", "AWS Secrets Manager", "Doppler", "1Password"]), r.choice(["doppler", "op", "vault"]), o, stamp(r))
    if v == 2:
        d = rdt(r)
        return '''### Postmortem: leaked CI token (%s)

**Summary.** A personal access token with `repo` scope was printed in a public build log for %d minutes. The token was revoked at %s UTC. No unauthorized use was found in the audit log.

**Root cause.** A debug step echoed the environment (`env | sort`) and the runner's masking did not apply because the value was base64-encoded before printing.

**Action items.**
- Remove `env` dumps from all pipelines (owner: platform, due %s)
- Switch the release job to a short-lived app installation token
- Add a pre-receive check for high-entropy strings in workflow files''' % (d.strftime("%Y-%m-%d"), r.randint(12, 200), d.strftime("%H:%M"), (d + datetime.timedelta(days=14)).strftime("%Y-%m-%d"))
    return "## %s API - FAQ\n\n" % o + '''**Q: Why can't I see my API key again after creating it?**
A: We only store a hash of the key. It is shown once; if you lose it, create a new key and delete the old one.

**Q: How long do access tokens live?**
A: Access tokens expire after %d minutes. Refresh tokens last %d days and are rotated on every use.

**Q: Is the publishable key secret?**
A: No. The publishable key identifies your account in the browser. The secret key must stay on your server.

**Q: What should I do if my key leaks?**
A: Roll it from the dashboard immediately. The old key can be kept valid for up to %d hours to give you time to deploy.

Updated %s''' % (r.choice([15, 30, 60]), r.choice([14, 30, 90]), r.choice([12, 24, 48]), rdt(r).strftime("%B %d, %Y"))


@fam("crypto-test-vectors")
def c_vectors(r, i):
    v = i % 4
    msgs = [rs(r, r.randint(5, 30), string.ascii_letters + " ") for _ in range(3)]
    extra = "\n".join('    ("%s", "%s"),' % (m, hashlib.sha256(m.encode()).hexdigest()) for m in msgs)
    if v == 0:
        h2 = hmac.new(b"Jefe", b"what do ya want for nothing?", hashlib.sha256).hexdigest()
        h1 = hmac.new(b"\x0b" * 20, b"Hi There", hashlib.sha256).hexdigest()
        return '''# RFC 4231 HMAC-SHA-256 test cases + a few sha256 sanity checks
import hashlib, hmac, pytest

RFC4231 = [
    # (key, data, expected)
    (bytes.fromhex("%s"), b"Hi There", "%s"),
    (b"Jefe", b"what do ya want for nothing?", "%s"),
]

SHA256 = [
    ("abc", "%s"),
%s
]

@pytest.mark.parametrize("key,data,expected", RFC4231)
def test_hmac(key, data, expected):
    assert hmac.new(key, data, hashlib.sha256).hexdigest() == expected''' % ("0b" * 20, h1, h2, hashlib.sha256(b"abc").hexdigest(), extra)
    if v == 1:
        return '''// RFC 8032 section 7.1, TEST 1 (Ed25519)
var rfc8032Test1 = struct {
	secretKey, publicKey, message, signature string
}{
	secretKey: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
	publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
	message:   "",
	signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
}

// RFC 7748 section 5.2 (X25519)
var x25519Vectors = []struct{ scalar, u, out string }{
	{"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
		"e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
		"c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"},
}

// sha256 of fixture files (%s)
var fixtureDigests = map[string]string{
%s
}''' % (r.choice(["regenerate with make fixtures", "see testdata/README"]), "\n".join('\t"%s": "%s",' % (m, hashlib.sha256(m.encode()).hexdigest()) for m in msgs))
    if v == 2:
        return json.dumps({"algorithm": "AES-128", "source": "FIPS-197 Appendix C.1", "tests": [
            {"key": "000102030405060708090a0b0c0d0e0f", "plaintext": "00112233445566778899aabbccddeeff", "ciphertext": "69c4e0d86a7b0430d8cdb78070b4c55a"}],
            "pbkdf2_hmac_sha1_rfc6070": [{"P": "password", "S": "salt", "c": c, "dkLen": 20, "DK": hashlib.pbkdf2_hmac("sha1", b"password", b"salt", c, 20).hex()} for c in (1, 2, 4096)],
            "sha3_256": {m: hashlib.sha3_256(m.encode()).hexdigest() for m in msgs}}, indent=2)
    return '''Test vectors used by our CRC/base62 token checksum unit tests (inputs are arbitrary strings, not tokens):

| input | crc32 (hex) | sha1 |
|---|---|---|
%s''' % "\n".join("| `%s` | %08x | %s |" % (m, zlib.crc32(m.encode()) & 0xFFFFFFFF, hashlib.sha1(m.encode()).hexdigest()) for m in msgs + [rs(r, 12, LOW) for _ in range(3)])


@fam("commit-issue-discussion")
def c_commits(r, i):
    v = i % 4
    if v == 0:
        msgs = r.sample(["Rotate Stripe webhook secret and load it from Secrets Manager",
                         "Remove hardcoded SMTP password from settings.py (moved to env)",
                         "ci: stop printing env in debug step",
                         "Add gitleaks pre-commit hook",
                         "Revert \"add test creds\" - they were real, rotated",
                         "docs: explain how to request a personal access token",
                         "auth: hash API keys with sha256 before storing",
                         "chore(deps): bump jsonwebtoken from 8.5.1 to 9.0.0"], 5)
        return "$ git log --oneline -n 5\n" + "\n".join("%s %s" % (rhex(r, 7), m) for m in msgs)
    if v == 1:
        return '''## What

Removes the hard-coded API token from `scripts/sync_%s.py` and reads it from `SYNC_API_TOKEN` instead.

## Why

The token was committed in %s. It has been **revoked** and a new one is in the vault under `%s/sync`. History will be cleaned separately (see #%d).

## Checklist
- [x] old token revoked
- [x] new token stored in vault
- [x] CI secret updated
- [ ] README updated''' % (r.choice(PROJ).replace("-", "_"), rhex(r, 7), r.choice(PROJ), r.randint(100, 2000))
    if v == 2:
        return '''**%s** commented:
> I pasted my config above but hid the token, the error is still `401 Bad credentials`.

**%s** (maintainer) commented:
Thanks for redacting! A 401 here usually means the token has expired or lacks the `read:packages` scope. Can you run `gh auth status` and post the scopes line (it doesn't show the token itself)?

**%s** commented:
Scopes were missing `read:packages`. Regenerated, works now. Closing.''' % (uname(r), uname(r), uname(r))
    return '''## [%s] - %s
### Security
- Session cookies are now signed with a per-deployment key instead of the default. **Action required:** set `SESSION_KEY` before upgrading.
- Tokens are no longer written to the debug log when `LOG_LEVEL=debug`.
### Fixed
- `login --password-stdin` no longer echoes the password on Windows terminals (#%d).''' % (semver(r), rdt(r).strftime("%Y-%m-%d"), r.randint(100, 3000))


@fam("encrypted-blobs")
def c_encrypted(r, i):
    v = i % 6

    def vault_body(nct):
        inner = (rhex(r, 64) + "\n" + rhex(r, 64) + "\n" + rhex(r, nct * 2)).encode().hex()
        return [inner[k:k + 80] for k in range(0, len(inner), 80)]
    if v == 0:
        return "$ cat group_vars/%s/vault.yml\n$ANSIBLE_VAULT;1.1;AES256\n%s\n$ ansible-vault view group_vars/%s/vault.yml\nVault password: " % (
            r.choice(["prod", "all", "db"]), "\n".join(vault_body(r.choice([48, 64, 96]))), r.choice(["prod", "all"]))
    if v == 1:
        body = "\n".join("          " + l for l in vault_body(r.choice([16, 32])))
        return '''# host_vars/%s.yml
ansible_host: %s
ansible_user: deploy
postgres_version: %d
postgres_password: !vault |
          $ANSIBLE_VAULT;1.1;AES256
%s
backup_bucket: s3://%s-backups''' % (host(r), lan_ip(r), r.randint(13, 16), body, org(r))
    if v == 2:
        def enc(n, typ="str"):
            return "ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:%s]" % (b64(rbytes(r, n)), b64(rbytes(r, 32)), b64(rbytes(r, 16)), typ)
        agebody = b64(b"age-encryption.org/v1\n-> X25519 " + b64(rbytes(r, 32)).rstrip("=").encode() + b"\n" + b64(rbytes(r, 32)).rstrip("=").encode() + b"\n--- " + b64(rbytes(r, 32)).rstrip("=").encode() + b"\n" + rbytes(r, 48))
        agelines = "\n".join("                " + agebody[k:k + 64] for k in range(0, len(agebody), 64))
        return '''# secrets/%s.enc.yaml  (sops)
database:
    user: %s
    password: %s
smtp_password: %s
api_keys:
    - %s
sops:
    kms: []
    gcp_kms: []
    azure_kv: []
    hc_vault: []
    age:
        - recipient: age1%s
          enc: |
                -----BEGIN AGE ENCRYPTED FILE-----
%s
                -----END AGE ENCRYPTED FILE-----
    lastmodified: "%s"
    mac: %s
    pgp: []
    unencrypted_regex: ^(user)$
    version: 3.%d.%d''' % (r.choice(["prod", "staging"]), r.choice(PROJ).replace("-", "_"), enc(r.randint(12, 30)), enc(r.randint(12, 24)), enc(r.randint(30, 50)),
                         bech32ish(r, 58), agelines, iso(rdt(r)), enc(32), r.randint(7, 9), r.randint(0, 3))
    if v == 3:
        body = b64(b"age-encryption.org/v1\n-> X25519 " + b64(rbytes(r, 32)).rstrip("=").encode() + b"\n" + b64(rbytes(r, 32)).rstrip("=").encode() + b"\n--- " + b64(rbytes(r, 32)).rstrip("=").encode() + b"\n" + rbytes(r, r.randint(60, 400)))
        return "$ age -r age1%s -a -o backup-key.txt.age backup-key.txt\n$ cat backup-key.txt.age\n-----BEGIN AGE ENCRYPTED FILE-----\n%s\n-----END AGE ENCRYPTED FILE-----" % (
            bech32ish(r, 58), "\n".join(body[k:k + 64] for k in range(0, len(body), 64)))
    if v == 4:
        def sealed():
            return b64(bytes([2, r.randint(0, 15)]) + rbytes(r, r.randint(560, 620)))
        name = r.choice(PROJ)
        return '''apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  creationTimestamp: null
  name: %s-db
  namespace: %s
spec:
  encryptedData:
    password: %s
    username: %s
  template:
    metadata:
      creationTimestamp: null
      name: %s-db
      namespace: %s
    type: Opaque''' % (name, r.choice(["apps", "prod"]), sealed(), sealed(), name, r.choice(["apps", "prod"]))
    body = b64(b"\x85\x02\x0c\x03" + rbytes(r, r.randint(300, 700)))
    return '''Encrypted the recovery codes for %s with the team key:

-----BEGIN PGP MESSAGE-----

%s
=%s
-----END PGP MESSAGE-----''' % (uname(r), "\n".join(body[k:k + 64] for k in range(0, len(body), 64)), b64(rbytes(r, 3)))


@fam("public-client-ids")
def c_public(r, i):
    v = i % 6
    pid = "%s-%s" % (r.choice(PROJ), rs(r, 5, LOW + DIG))
    sender = r.randint(10 ** 11, 10 ** 12)
    if v == 0:
        return '''// src/firebase.js  (web client config - safe to ship, access is enforced by Security Rules)
import { initializeApp } from "firebase/app";
import { getAnalytics } from "firebase/analytics";

const firebaseConfig = {
  apiKey: "AIzaSy%s",
  authDomain: "%s.firebaseapp.com",
  projectId: "%s",
  storageBucket: "%s.appspot.com",
  messagingSenderId: "%d",
  appId: "1:%s:web:%s",
  measurementId: "G-%s"
};

export const app = initializeApp(firebaseConfig);
export const analytics = getAnalytics(app);''' % (rs(r, 33, URLSAFE), pid, pid, pid, sender, sender, rhex(r, 22), rs(r, 10, UP + DIG))
    if v == 1:
        gid = "G-" + rs(r, 10, UP + DIG)
        return '''<!-- Google tag (gtag.js) -->
<script async src="https://www.googletagmanager.com/gtag/js?id=%s"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());
  gtag('config', '%s');
</script>
<script src="https://www.google.com/recaptcha/api.js?render=6L%s"></script>
<div class="g-recaptcha" data-sitekey="6L%s"></div>''' % (gid, gid, "c" + rs(r, 5, URLSAFE) + "AAAAA" + rs(r, 32, URLSAFE), "e" + rs(r, 5, URLSAFE) + "AAAAA" + rs(r, 32, URLSAFE))
    if v == 2:
        return '''import * as Sentry from "@sentry/react";

Sentry.init({
  dsn: "https://%s@o%d.ingest.%ssentry.io/%d",
  environment: import.meta.env.MODE,
  release: "%s@%s",
  tracesSampleRate: 0.%d,
  replaysOnErrorSampleRate: 1.0,
});''' % (rhex(r, 32), r.randint(10 ** 5, 5 * 10 ** 6), r.choice(["", "us.", "de."]), r.randint(10 ** 6, 9 * 10 ** 6), r.choice(PROJ), semver(r), r.randint(1, 5))
    if v == 3:
        user = uname(r)
        pk = "pk." + b64u(json.dumps({"u": user, "a": "cl" + rs(r, 23, LOW + DIG)}, separators=(",", ":")).encode()) + "." + rs(r, 22, URLSAFE)
        return '''<script>
  // public token, URL-restricted to *.%s in the Mapbox account
  mapboxgl.accessToken = '%s';
  const map = new mapboxgl.Map({
    container: 'map',
    style: 'mapbox://styles/%s/%s',
    center: [%.4f, %.4f],
    zoom: %d
  });
  const stripe = Stripe('pk_live_51%s%s');
</script>''' % (domain(r), pk, user, "cl" + rs(r, 23, LOW + DIG), r.uniform(-10, 30), r.uniform(35, 60), r.randint(8, 14), rs(r, 12, UP + DIG), rs(r, 85))
    if v == 4:
        app_id = rs(r, 10, UP + DIG)
        return '''import algoliasearch from "algoliasearch/lite";
import instantsearch from "instantsearch.js";

// search-only API key: can only query the public index
const searchClient = algoliasearch("%s", "%s");

const search = instantsearch({ indexName: "%s_products", searchClient });
search.start();

posthog.init("phc_%s", { api_host: "https://eu.posthog.com" });''' % (app_id, rhex(r, 32), r.choice(["prod", "shop"]), rs(r, 43))
    ref = rs(r, 20, LOW)
    iat = r.randint(1690000000, 1735000000)
    anon = jwt_hs256(r, {"iss": "supabase", "ref": ref, "role": "anon", "iat": iat, "exp": iat + 315532800})
    return '''// lib/supabase.ts - browser client. The anon key is public by design; RLS protects the data.
import { createClient } from "@supabase/supabase-js";

export const supabase = createClient(
  "https://%s.supabase.co",
  "%s"
);

// Google Sign-In client ID (public)
export const GOOGLE_CLIENT_ID = "%d-%s.apps.googleusercontent.com";''' % (ref, anon, r.randint(10 ** 11, 10 ** 12), rs(r, 32, LOW + DIG))


@fam("random-non-secrets")
def c_random(r, i):
    v = i % 6
    if v == 0:
        return '''$ aws s3api head-object --bucket %s-assets --key builds/%s.tar.gz
{
    "AcceptRanges": "bytes",
    "LastModified": "%s",
    "ContentLength": %d,
    "ETag": "\\"%s-%d\\"",
    "VersionId": "%s",
    "ContentType": "application/gzip",
    "ServerSideEncryption": "AES256",
    "Metadata": {}
}''' % (org(r), rhex(r, 40), rdt(r).strftime("%a, %d %b %Y %H:%M:%S GMT"), r.randint(10 ** 6, 10 ** 9), rhex(r, 32), r.randint(2, 40), rs(r, 32, URLSAFE + "."))
    if v == 1:
        files = "\n".join("dist/assets/%s-%s.%s  %6.2f kB │ gzip: %6.2f kB" % (n, rs(r, 8, URLSAFE), e, r.uniform(1, 400), r.uniform(0.5, 120)) for n, e in
                          [("index", "css"), ("index", "js"), ("vendor", "js"), ("Dashboard", "js"), ("logo", "svg")])
        return "$ npm run build\n\n> %s@%s build\n> vite build\n\nvite v5.%d.%d building for production...\n✓ %d modules transformed.\n%s\n✓ built in %.2fs" % (
            r.choice(PROJ), semver(r), r.randint(0, 4), r.randint(0, 9), r.randint(200, 2000), files, r.uniform(2, 30))
    if v == 2:
        return "\n".join(["127.0.0.1:6379> SCAN 0 MATCH cache:* COUNT 20", "1) \"%d\"" % r.randint(100, 9999), "2) " + "\n   ".join(
            '%d) "cache:%s:%s"' % (k + 1, r.choice(["render", "query", "avatar", "feed"]), rhex(r, 40)) for k in range(r.randint(5, 9))),
                          "127.0.0.1:6379> TTL cache:query:%s" % rhex(r, 40), "(integer) %d" % r.randint(10, 3600)])
    if v == 3:
        items = [{"id": "ord_%s" % rs(r, 16), "status": r.choice(["paid", "shipped"]), "total": r.randint(100, 9000)} for _ in range(2)]
        cursor = b64(json.dumps({"after_id": r.randint(10 ** 5, 10 ** 6), "ts": epoch(rdt(r))}).encode())
        return "POST /v2/orders HTTP/1.1\nHost: api.%s\nIdempotency-Key: %s\nContent-Type: application/json\n\nHTTP/1.1 200 OK\nX-Request-Id: %s\nETag: W/\"%s\"\n\n%s" % (
            domain(r), ruuid(r), ruuid(r), rhex(r, 16), json.dumps({"data": items, "next_cursor": cursor, "has_more": True}, indent=2))
    if v == 4:
        return "$ git ls-tree -r HEAD --abbrev=12 | head -8\n" + "\n".join("100644 blob %s\t%s" % (rhex(r, 12), p) for p in r.sample(
            [".gitignore", "README.md", "go.mod", "go.sum", "cmd/server/main.go", "internal/api/routes.go", "internal/db/migrate.go", "Makefile", "Dockerfile", "docs/setup.md"], 8)) + "\n$ git rev-parse HEAD\n%s" % rhex(r, 40)
    return '''$ kubectl get pod %s-%s-%s -o jsonpath='{.metadata.uid}{"\\n"}{.status.containerStatuses[0].imageID}{"\\n"}{.status.containerStatuses[0].containerID}{"\\n"}'
%s
ghcr.io/%s/%s@sha256:%s
containerd://%s''' % (r.choice(PROJ), rhex(r, 10), rs(r, 5, LOW + DIG), ruuid(r), org(r), r.choice(PROJ), rhex(r, 64), rhex(r, 64))


@fam("test-fixtures-fake")
def c_fixtures(r, i):
    v = i % 4
    if v == 0:
        em = "%s@example.%s" % (r.choice(FIRST).lower(), r.choice(["com", "org", "test"]))
        return '''import pytest
from %s.auth import create_user, authenticate


@pytest.fixture
def user(db):
    return create_user(db, email="%s", password="not-a-real-password")


def test_wrong_password_is_rejected(db, user):
    assert authenticate(db, "%s", "wrong") is None


def test_login_ok(db, user):
    assert authenticate(db, "%s", "not-a-real-password").id == user.id
# %s''' % (r.choice(["app", "core", "accounts", "api"]), em, em, em, r.choice(["fixtures live in conftest.py", "TODO: parametrize", "see #%d" % r.randint(10, 900)]))
    if v == 1:
        return "// %s.test.ts  (%s)\n" % (r.choice(["release", "publish", "changelog", "notes"]), stamp(r)) + '''jest.mock("../src/%s", () => ({
  getClient: () => ({ token: "fake-token-for-tests", request: jest.fn().mockResolvedValue({ status: %d }) }),
}));

describe("release notes", () => {
  beforeEach(() => {
    process.env.GITHUB_TOKEN = "test";
    process.env.RELEASE_CHANNEL = "%s";
    process.env.NPM_TOKEN = "dummy";
  });

  it("skips publishing when the token is missing", async () => {
    delete process.env.NPM_TOKEN;
    await expect(publish()).rejects.toThrow("NPM_TOKEN is required");
  });
});''' % (r.choice(["github", "gh", "registry", "api/github"]), r.choice([200, 201, 204]), r.choice(["beta", "next", "latest", "canary", "rc"]))
    if v == 2:
        return "// %s_test.go\n" % r.choice(["token", "parse", "scanner", "auth"]) + '''func TestParseToken(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr bool
	}{
		{"empty", "", true},
		{"wrong prefix", "abc_" + strings.Repeat("a", 36), true},
		{"too short", "ghp_" + strings.Repeat("x", 10), true},
		{"placeholder", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", true},
		{"bad checksum", "ghp_" + strings.Repeat("A", 36), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseToken(tt.in); (err != nil) != tt.wantErr {
				t.Fatalf("ParseToken(%%q) err = %%v, wantErr %%v", tt.in, err, tt.wantErr)
			}
		})
	}
}
// %d cases, added %s''' % (r.randint(5, 9), rdt(r).strftime("%Y-%m-%d"))
    return "# " + stamp(r) + "\n" + '''# spec/fixtures/users.yml
admin:
  email: admin@example.test
  encrypted_password: <%%= Devise::Encryptor.digest(User, "password") %%>
  confirmed_at: <%%= Time.current %%>
guest:
  email: guest%d@example.test
  encrypted_password: <%%= Devise::Encryptor.digest(User, "guest-password") %%>
  api_token: <%%= "test_token_" + "0" * 32 %%>''' % r.randint(1, 99)


@fam("verbose-logs-clean")
def c_verbose(r, i):
    v = i % 5
    d = rdt(r)
    t = d.strftime("%H:%M:%S.%f")
    if v == 0:
        o, p = org(r), r.choice(PROJ)
        return '''$ GIT_CURL_VERBOSE=1 GIT_TRACE=1 git fetch origin
%s git.c:463               trace: built-in: git fetch origin
%s run-command.c:659       trace: run_command: GIT_DIR=.git git remote-https origin https://github.com/%s/%s.git
%s http.c:890              == Info: Connected to github.com (140.82.%d.%d) port 443
%s http.c:890              == Info: ALPN: server accepted h2
%s http.c:837              => Send header: GET /%s/%s.git/info/refs?service=git-upload-pack HTTP/2
%s http.c:837              => Send header: Host: github.com
%s http.c:837              => Send header: Authorization: Basic <redacted>
%s http.c:837              => Send header: User-Agent: git/2.%d.%d
%s http.c:837              <= Recv header: HTTP/2 200
%s http.c:837              <= Recv header: x-github-request-id: %s''' % (t, t, o, p, t, r.randint(100, 120), r.randint(1, 254), t, t, o, p, t, t, t, r.randint(39, 45), r.randint(0, 3), t, t, "%s:%s:%s:%s" % (rhex(r, 4).upper(), rhex(r, 5).upper(), rhex(r, 6).upper(), rhex(r, 7).upper()))
    if v == 1:
        return '''TASK [db : set application user password] *************************************
task path: /home/%s/infra/roles/db/tasks/main.yml:%d
<%s> ESTABLISH SSH CONNECTION FOR USER: deploy
<%s> SSH: EXEC ssh -C -o ControlMaster=auto -o ControlPersist=60s -o KbdInteractiveAuthentication=no -o PreferredAuthentications=gssapi-with-mic,gssapi-keyex,hostbased,publickey -o PasswordAuthentication=no -o 'User="deploy"' -o ConnectTimeout=10 %s '/bin/sh -c '"'"'echo ~deploy && sleep 0'"'"''
<%s> (0, b'/home/deploy\\n', b'')
changed: [%s] => {
    "censored": "the output has been hidden due to the fact that 'no_log: true' was specified for this result",
    "changed": true
}''' % (uname(r), r.randint(5, 80), lan_ip(r), lan_ip(r), lan_ip(r), lan_ip(r), host(r))
    if v == 2:
        hn = "api.%s" % domain(r)
        return '''$ curl -v https://%s/healthz
*   Trying %s:443...
* Connected to %s (%s) port 443
* ALPN: curl offers h2,http/1.1
* TLSv1.3 (OUT), TLS handshake, Client hello (1):
* TLSv1.3 (IN), TLS handshake, Server hello (2):
* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384 / X25519 / id-ecPublicKey
* Server certificate:
*  subject: CN=%s
*  expire date: %s
*  issuer: C=US; O=Let's Encrypt; CN=E%d
> GET /healthz HTTP/2
> Host: %s
> User-Agent: curl/8.%d.0
> Accept: */*
< HTTP/2 200
< content-type: application/json
< x-request-id: %s
<
{"status":"ok","version":"%s","commit":"%s"}''' % (hn, pub_ip(r), hn, pub_ip(r), hn, (d + datetime.timedelta(days=80)).strftime("%b %d %H:%M:%S %Y GMT"), r.choice([5, 6]), hn, r.randint(4, 9), ruuid(r), semver(r), rhex(r, 40))
    if v == 3:
        crates = r.sample(["serde_derive", "proc-macro2", "quote", "syn", "libc", "memchr", "itoa", "ryu", "log"], 4)
        return "$ cargo build -v\n" + "\n".join("   Compiling %s v%s\n     Running `rustc --crate-name %s --edition=2021 /home/%s/.cargo/registry/src/index.crates.io-6f17d22bba15001f/%s-%s/src/lib.rs --crate-type lib -C metadata=%s -C extra-filename=-%s --out-dir /home/%s/dev/%s/target/debug/deps`" % (
            c, v2, c.replace("-", "_"), "dev", c, v2, rhex(r, 16), rhex(r, 16), "dev", r.choice(PROJ)) for c, v2 in [(c, semver(r, (0, 1))) for c in crates]) + "\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in %.2fs" % r.uniform(3, 90)
    return '''$ npm install --loglevel verbose
npm verb cli /usr/local/bin/node /usr/local/bin/npm
npm info using npm@10.%d.%d
npm info using node@v20.%d.%d
npm verb title npm install
npm verb logfile /home/%s/.npm/_logs/%s-debug-0.log
npm http fetch GET 200 https://registry.npmjs.org/%s %dms (cache revalidated)
npm http fetch GET 200 https://npm.pkg.github.com/@%s%%2f%s %dms (cache miss)
npm verb reify failed optional dependency /home/%s/app/node_modules/fsevents
npm verb exit 0
npm info ok''' % (r.randint(2, 8), r.randint(0, 5), r.randint(10, 18), r.randint(0, 9), uname(r), iso(d, ms=True).replace(":", "_"), r.choice(["react", "vite", "zod"]), r.randint(20, 400), org(r), r.choice(PROJ), r.randint(20, 400), uname(r))


@fam("chat-exports-clean")
def c_chat(r, i):
    v = i % 4
    d = rdt(r)
    if v == 0:
        msgs = []
        for who, txt in [(0, "heads up: I'm rotating the staging DB password at 3pm, apps will restart"),
                         (1, "new one is in 1Password under `staging/postgres`?"),
                         (0, "yep, and the k8s secret is updated by the operator, you don't need to do anything"),
                         (2, "<https://%s/runbooks/rotate-db|runbook> for reference" % ("wiki." + domain(r)))]:
            d = later(d, r, 30, 500)
            msgs.append({"type": "message", "user": "U0" + rs(r, 8, UP + DIG), "text": txt, "ts": "%d.%06d" % (epoch(d), r.randint(0, 999999)), "client_msg_id": ruuid(r), "team": "T0" + rs(r, 8, UP + DIG)})
        return json.dumps(msgs, indent=4)
    if v == 1:
        lines = []
        for who, txt in [(uname(r), "how do I get a token for the internal npm registry?"), (uname(r), "`npm login --registry https://npm.%s` then it writes it to ~/.npmrc for you" % domain(r)),
                         (uname(r), "don't paste the .npmrc here though :)"), (uname(r), "lol ok, worked")]:
            d = later(d, r, 30, 500)
            lines.append("[%d/%d/%d %d:%02d %s] %s\n%s\n" % (d.month, d.day, d.year, d.hour % 12 or 12, d.minute, "AM" if d.hour < 12 else "PM", who, txt))
        return "==============================================================\nGuild: %s\nChannel: Dev / help\n==============================================================\n\n%s" % (r.choice(["Homelab", "Rustaceans", "Indie Devs"]), "\n".join(lines))
    if v == 2:
        a, b = person(r), person(r)
        return "[%s] %s, %s\nthe VPN cert expired for the %s office, IT says new profiles are in the self-service portal\n\n[%s] %s, %s\nconfirmed, downloaded mine from the portal and it works. the old .ovpn files can be deleted\n\n[%s] %s, %s\n👍" % (
            d.strftime("%I:%M %p").lstrip("0"), a[1], a[0], r.choice(CITIES), later(d, r).strftime("%I:%M %p").lstrip("0"), b[1], b[0], later(d, r, 100, 200).strftime("%I:%M %p").lstrip("0"), a[1], a[0])
    out = []
    for who, txt in [(uname(r), "is the grafana api key in CI still the old one?"), (uname(r), "no, switched to a service account token last week, CI reads GRAFANA_TOKEN from the vault"),
                     (uname(r), "ok so the 401 is something else"), (uname(r), "check the org id, the SA lives in org 2")]:
        d = later(d, r, 5, 120)
        out.append("%s <%s> %s" % (d.strftime("%H:%M:%S"), who, txt))
    return "\n".join(["--- Log opened %s" % d.strftime("%a %b %d %H:%M:%S %Y")] + out)


@fam("homelab-configs-clean")
def c_homelab(r, i):
    v = i % 5
    if v == 0:
        _, peer = wg_keypair(r)
        _, peer2 = wg_keypair(r)
        return '''# /etc/wireguard/wg0.conf  (private key kept in a root-only file)
[Interface]
Address = 10.%d.0.1/24
ListenPort = %d
PostUp = wg set %%i private-key /etc/wireguard/%%i.key
PostUp = iptables -A FORWARD -i %%i -j ACCEPT; iptables -t nat -A POSTROUTING -o eth0 -j MASQUERADE
PostDown = iptables -D FORWARD -i %%i -j ACCEPT; iptables -t nat -D POSTROUTING -o eth0 -j MASQUERADE

[Peer]
# phone
PublicKey = %s
AllowedIPs = 10.%d.0.2/32

[Peer]
# laptop
PublicKey = %s
AllowedIPs = 10.%d.0.3/32''' % (r.randint(2, 250), r.choice([51820, 51821]), peer, r.randint(2, 250), peer2, r.randint(2, 250))
    if v == 1:
        return "# " + stamp(r) + "\n" + '''esphome:
  name: %s
  friendly_name: %s

esp32:
  board: esp32dev

wifi:
  ssid: !secret wifi_ssid
  password: !secret wifi_password
  ap:
    ssid: "%s Fallback"

api:
  encryption:
    key: !secret api_encryption_key

ota:
  - platform: esphome
    password: !secret ota_password

sensor:
  - platform: dht
    pin: GPIO%d
    temperature:
      name: "Temperature"
    update_interval: 60s''' % ((r.choice(["garage", "attic", "greenhouse"]) + "-sensor"), r.choice(["Garage", "Attic", "Greenhouse"]), r.choice(["Garage", "Attic"]), r.randint(2, 33))
    if v == 2:
        return '''{
	email %s
	acme_dns cloudflare {env.CF_API_TOKEN}
}

%s {
	reverse_proxy %s:%d
	basicauth /admin/* {
		import /etc/caddy/users.htpasswd
	}
}

grafana.%s {
	reverse_proxy grafana:3000
}''' % (email(r), "home.%s" % domain(r), lan_ip(r), r.choice([8123, 8080, 3000]), domain(r))
    if v == 3:
        return '''# zigbee2mqtt/configuration.yaml
homeassistant: true
permit_join: false
mqtt:
  base_topic: zigbee2mqtt
  server: mqtt://%s:1883
  user: '!secret.yaml mqtt_user'
  password: '!secret.yaml mqtt_password'
serial:
  port: /dev/serial/by-id/usb-ITead_Sonoff_Zigbee_3.0_USB_Dongle_Plus_%s-if00-port0
advanced:
  network_key: GENERATE
  pan_id: GENERATE
  ext_pan_id: GENERATE
  channel: %d
frontend:
  port: 8080''' % (lan_ip(r), rhex(r, 32), r.choice([11, 15, 20, 25]))
    return '''root@OpenWrt:~# cat /etc/config/network

config interface 'loopback'
	option device 'lo'
	option proto 'static'
	option ipaddr '127.0.0.1'
	option netmask '255.0.0.0'

config globals 'globals'
	option ula_prefix 'fd%s:%s:%s::/48'

config interface 'lan'
	option device 'br-lan'
	option proto 'static'
	option ipaddr '192.168.%d.1'
	option netmask '255.255.255.0'

config interface 'wan'
	option device 'wan'
	option proto 'dhcp'
	option peerdns '0'
	list dns '9.9.9.9' ''' % (rhex(r, 2), rhex(r, 4), rhex(r, 4), r.randint(1, 50))


@fam("jwks-oidc")
def c_jwks(r, i):
    v = i % 4
    iss = "https://%s.%s" % (r.choice(["auth", "login", "sso", "id"]), domain(r))
    if v == 0:
        keys = [{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": rs(r, 43, URLSAFE), "n": b64u(bytes([0xC0 | r.getrandbits(6)]) + rbytes(r, 255)), "e": "AQAB",
                 "x5t": b64u(rbytes(r, 20))} for _ in range(2)]
        return "$ curl -s %s/.well-known/jwks.json | jq\n%s" % (iss, json.dumps({"keys": keys}, indent=2))
    if v == 1:
        return "$ curl -s %s/.well-known/openid-configuration | jq\n" % iss + json.dumps({"issuer": iss, "authorization_endpoint": iss + "/oauth2/authorize", "token_endpoint": iss + "/oauth2/token", "userinfo_endpoint": iss + "/oauth2/userinfo",
                           "jwks_uri": iss + "/.well-known/jwks.json", "response_types_supported": ["code", "id_token", "code id_token"],
                           "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256", "ES256"],
                           "scopes_supported": ["openid", "email", "profile", "offline_access"], "token_endpoint_auth_methods_supported": ["client_secret_basic", "private_key_jwt"],
                           "code_challenge_methods_supported": ["S256"]}, indent=2)
    if v == 2:
        cert = fake_cert_pem(r, "sso").splitlines()[1:-1]
        return '''<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="%s/saml/metadata">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
        <ds:X509Data>
          <ds:X509Certificate>%s</ds:X509Certificate>
        </ds:X509Data>
      </ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="%s/saml/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>''' % (iss, "".join(cert), iss)
    x, y = b64u(rbytes(r, 32)), b64u(rbytes(r, 32))
    return "(" + stamp(r) + ") " + '''Decoded header/payload of the ID token (signature omitted) - the kid matches the EC key below:

{"alg":"ES256","kid":"%s","typ":"JWT"}
{"iss":"%s","sub":"%s","aud":"%s","exp":%d,"iat":%d,"email_verified":true}

{"keys":[{"kty":"EC","crv":"P-256","use":"sig","kid":"%s","x":"%s","y":"%s"}]}''' % (
        rhex(r, 16), iss, ruuid(r), rs(r, 20, LOW + DIG), epoch(rdt(r)) + 3600, epoch(rdt(r)), rhex(r, 16), x, y)


@fam("sql-seeds-clean")
def c_sql(r, i):
    v = i % 4
    if v == 0:
        rows = ",\n".join("  ('%s', '%s', '%s', %d.%02d, '%s')" % (ruuid(r), rs(r, 8, UP + DIG), r.choice(["Linen shirt", "Desk lamp", "Trail shoes", "Tea tin", "Notebook A5"]) + " " + rs(r, 2, UP),
                                                               r.randint(3, 200), r.randint(0, 99), rhex(r, 12)) for _ in range(r.randint(4, 8)))
        return "-- seeds/001_products.sql\nINSERT INTO products (id, sku, name, price, image_hash) VALUES\n%s;" % rows
    if v == 1:
        return "-- " + stamp(r) + "\n" + '''-- V%d__users.sql
CREATE TABLE users (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email           citext NOT NULL UNIQUE,
    password_hash   text NOT NULL,            -- argon2id, never store plaintext
    mfa_secret_enc  bytea,                    -- encrypted with KMS data key
    api_key_prefix  varchar(%d),              -- first chars shown in UI, rest is hashed
    api_key_sha256  bytea UNIQUE,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_created_at_idx ON users (created_at);''' % (r.randint(2, 90), r.choice([8, 10, 12]))
    if v == 2:
        rows = "\n".join(" %s | %s | %-10s | %s" % (ruuid(r), iso(rdt(r)), r.choice(["login", "logout", "key.create", "key.revoke"]), rhex(r, 32)) for _ in range(r.randint(4, 7)))
        return "app=> SELECT actor_id, created_at, action, request_id FROM audit_log ORDER BY created_at DESC LIMIT 6;\n               actor_id               |      created_at      |   action   |            request_id\n--------------------------------------+----------------------+------------+----------------------------------\n%s\n(%d rows)" % (rows, len(rows.splitlines()))
    return "-- " + stamp(r) + "\n" + '''%s=> \\d api_keys
                         Table "public.api_keys"
   Column    |           Type           | Collation | Nullable | Default
-------------+--------------------------+-----------+----------+---------
 id          | bigint                   |           | not null | generated always as identity
 user_id     | uuid                     |           | not null |
 prefix      | character varying(%d)     |           | not null |
 secret_hash | bytea                    |           | not null |
 last_used   | timestamp with time zone |           |          |
Indexes:
    "api_keys_pkey" PRIMARY KEY, btree (id)
    "api_keys_prefix_key" UNIQUE CONSTRAINT, btree (prefix)
    "api_keys_user_id_idx" btree (user_id)
-- %d rows''' % (r.choice(PROJ).replace("-", "_"), r.choice([8, 12]), r.randint(0, 90000))


@fam("hexdumps")
def c_hex(r, i):
    v = i % 4
    if v in (0, 1):
        data = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" if v == 0 else b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00") + rbytes(r, 16 * r.randint(5, 10))
        out = []
        for off in range(0, len(data), 16):
            chunk = data[off:off + 16]
            hx = " ".join("%02x%02x" % (chunk[k], chunk[k + 1]) if k + 1 < len(chunk) else "%02x" % chunk[k] for k in range(0, len(chunk), 2))
            out.append("%08x: %-39s  %s" % (off, hx, "".join(chr(c) if 32 <= c < 127 else "." for c in chunk)))
        return "$ xxd %s | head -%d\n%s" % (r.choice(["logo.png", "thumb.png"]) if v == 0 else r.choice(["./server", "bin/agent"]), len(out), "\n".join(out))
    if v == 2:
        data = rbytes(r, 16 * r.randint(4, 8))
        out = []
        for off in range(0, len(data), 16):
            chunk = data[off:off + 16]
            out.append("%08x  %s  %s  |%s|" % (off, " ".join("%02x" % c for c in chunk[:8]), " ".join("%02x" % c for c in chunk[8:]), "".join(chr(c) if 32 <= c < 127 else "." for c in chunk)))
        return "$ hexdump -C firmware_%s.bin | head\n%s" % (semver(r), "\n".join(out))
    d = rdt(r)
    out = ["%s IP %s.%d > %s.443: Flags [P.], seq %d:%d, ack %d, win 501, length 64" % (d.strftime("%H:%M:%S.%f"), lan_ip(r), r.randint(30000, 60000), pub_ip(r), r.randint(1, 9999), r.randint(10000, 20000), r.randint(1, 9999))]
    data = rbytes(r, 84)
    for off in range(0, len(data), 16):
        chunk = data[off:off + 16]
        out.append("\t0x%04x:  %s" % (off, " ".join("%02x%02x" % (chunk[k], chunk[k + 1]) if k + 1 < len(chunk) else "%02x" % chunk[k] for k in range(0, len(chunk), 2))))
    return "$ sudo tcpdump -i eth0 -X -c 1 port 443\n" + "\n".join(out)


@fam("shareable-urls-ids")
def c_urls(r, i):
    d = rdt(r)
    items = [
        "Spec: https://docs.google.com/document/d/%s/edit?usp=sharing" % rs(r, 44, URLSAFE),
        "Designs: https://www.figma.com/file/%s/%s?node-id=%d-%d" % (rs(r, 22), r.choice(["Checkout-v2", "Onboarding", "Settings"]), r.randint(1, 900), r.randint(1, 900)),
        "Demo recording: https://www.loom.com/share/%s" % rhex(r, 32),
        "Notes: https://www.notion.so/%s/%s-%s" % (org(r), r.choice(["Sprint-Review", "Retro", "Kickoff"]), rhex(r, 32)),
        "Data folder: https://drive.google.com/drive/folders/%s" % rs(r, 33, URLSAFE),
        "Talk: https://www.youtube.com/watch?v=%s&t=%ds" % (rs(r, 11, URLSAFE), r.randint(10, 3000)),
        "Board: https://miro.com/app/board/%s=/" % rs(r, 11, URLSAFE),
        "Ticket: https://%s.atlassian.net/browse/%s-%d" % (org(r), r.choice(["WEB", "APP", "OPS"]), r.randint(10, 4000)),
        "Paper: https://doi.org/10.%d/%s" % (r.randint(1000, 9999), rs(r, 10, LOW + DIG + ".")),
        "Playlist: https://open.spotify.com/playlist/%s" % rs(r, 22),
    ]
    return "# %s - %s\nAttendees: %s\n\n%s\n\nAction items:\n- [ ] %s to update the %s\n- [ ] follow up on %s" % (
        r.choice(["Sprint review", "Design sync", "Kickoff", "Weekly"]), d.strftime("%Y-%m-%d"), ", ".join("%s %s" % person(r) for _ in range(3)),
        "\n".join("- " + x for x in r.sample(items, r.randint(5, 8))), person(r)[0], r.choice(["spec", "designs", "roadmap"]), r.choice(["pricing", "onboarding", "the API changes"]))


# ================================================================ API
def _lines_ok(text):
    n = len(text.splitlines())
    return 5 <= n <= 80


def positives(half, per_template):
    """[(name, context, kind, value, text)] - one real-format credential per text."""
    out, seen = [], set()
    for context, kind, _group, fn in TEMPLATES:
        for i in range(per_template):
            r = random.Random(f"{half}:{context}/{kind}:{i}")
            for _attempt in range(50):
                value, text = fn(r)
                if text.count(value) == 1 and _lines_ok(text) and text not in seen:
                    break
            else:
                raise RuntimeError("could not build %s/%s #%d" % (context, kind, i))
            seen.add(text)
            out.append(("p-%s-%s-%d.txt" % (context, kind, i), context, kind, value, text))
    return out


def cleans(half, per_family):
    """[(name, family, text)] - hard negatives with no credential."""
    out, seen = [], set()
    for family, fn in FAMILIES:
        for i in range(per_family):
            r = random.Random(f"{half}:{family}:{i}")
            for _attempt in range(50):
                text = fn(r, i)
                if text not in seen:
                    break
            else:
                raise RuntimeError("duplicate clean %s #%d" % (family, i))
            seen.add(text)
            out.append(("c-%s-%d.txt" % (family, i), family, text))
    return out


if __name__ == "__main__":
    import os
    import sys
    if len(sys.argv) < 2:
        sys.exit("usage: fourth.py OUTDIR [half]")
    outdir, half = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "fourth")
    os.makedirs(outdir, exist_ok=True)
    for name, _c, _k, _v, text in positives(half, 6):
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as f:
            f.write(text)
    for name, _f, text in cleans(half, 20):
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as f:
            f.write(text)
