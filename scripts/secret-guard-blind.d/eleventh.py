#!/usr/bin/env python3
"""Eleventh blind hold-out corpus for a paste-time secret detector.

Written without seeing the detector or any earlier corpus.  Python 3 stdlib
only.  Every random choice for item i of template/family T comes from
random.Random(f"{half}:{T}:{i}").

    python3 eleventh.py               # self-check + summary
    python3 eleventh.py --write DIR   # dump both halves' files into DIR
"""

import base64
import datetime as _dt
import hashlib
import hmac
import json
import os
import random
import re
import string
import struct
import sys
import uuid
import zlib

HALVES = ("eleventh", "twin")

# Templates whose text carries the standard padded base64 of `value`
# instead of `value` itself.
ENCODED_CONTEXTS = {"k8s-secret-manifest", "docker-config-json", "filezilla-sitemanager"}

# ---------------------------------------------------------------------------
# secret marking: every template calls S() exactly once on its credential;
# the self-check verifies that, and that clean families never call it.
# ---------------------------------------------------------------------------
_MARKS = []


def S(value):
    _MARKS.append(value)
    return value


# ---------------------------------------------------------------------------
# alphabets and small random helpers (none of these mark anything)
# ---------------------------------------------------------------------------
DIG = string.digits
LOW = string.ascii_lowercase
UPP = string.ascii_uppercase
B62 = DIG + UPP + LOW
ALNUM = UPP + LOW + DIG
HEXL = "0123456789abcdef"
B64STD = UPP + LOW + DIG + "+/"
B64URL = UPP + LOW + DIG + "-_"
B32L = "abcdefghijklmnopqrstuvwxyz234567"
B32U = B32L.upper()


def rs(r, alphabet, n):
    return "".join(r.choice(alphabet) for _ in range(n))


def rhex(r, n):
    return rs(r, HEXL, n)


def rbytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def ruuid(r):
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def sha256_hex(r):
    return hashlib.sha256(rbytes(r, 32)).hexdigest()


def sha1_hex(r):
    return hashlib.sha1(rbytes(r, 20)).hexdigest()


def b62enc(n):
    if n == 0:
        return "0"
    out = ""
    while n:
        n, d = divmod(n, 62)
        out = B62[d] + out
    return out


def wrap(s, width):
    return [s[i:i + width] for i in range(0, len(s), width)]


def when(r, start=(2025, 6, 1), days=360):
    base = _dt.datetime(*start, 8, 0, 0)
    return base + _dt.timedelta(seconds=r.randrange(days * 86400))


def iso(d, frac=False, z=True):
    s = d.strftime("%Y-%m-%dT%H:%M:%S")
    if frac:
        s += ".%03d" % (d.microsecond // 1000 or 0)
    return s + ("Z" if z else "")


def priv_ip(r):
    k = r.randrange(3)
    if k == 0:
        return "10.%d.%d.%d" % (r.randrange(256), r.randrange(256), r.randrange(2, 254))
    if k == 1:
        return "172.%d.%d.%d" % (r.randrange(16, 32), r.randrange(256), r.randrange(2, 254))
    return "192.168.%d.%d" % (r.randrange(256), r.randrange(2, 254))


def pick(r, seq, k):
    return r.sample(list(seq), k)


# ---------------------------------------------------------------------------
# vocabulary
# ---------------------------------------------------------------------------
FIRST = ["Maria", "James", "Priya", "Chen", "Lukas", "Sofia", "Omar", "Hannah", "Mateo",
         "Aisha", "Daniel", "Yuki", "Elena", "Kwame", "Noah", "Ingrid", "Ravi", "Chloe",
         "Tomasz", "Fatima", "Liam", "Zoe", "Andrei", "Nadia", "Marcus", "Leila", "Oscar",
         "Greta", "Diego", "Anika", "Samuel", "Mei", "Jonas", "Carmen", "Felix", "Amara"]
LAST = ["Novak", "Okafor", "Schneider", "Tanaka", "Garcia", "Lindqvist", "Patel", "Moreau",
        "Kowalski", "Haddad", "Silva", "Murphy", "Jensen", "Rossi", "Nguyen", "Becker",
        "Ivanova", "Mensah", "Fischer", "Costa", "Walsh", "Yilmaz", "Dubois", "Sato"]
COMPANIES = ["brightlane", "kestrelpay", "northwind", "tallyho", "quarrybox", "lumenfield",
             "corvid-labs", "harborline", "pinecrest", "mosaicly", "fernhill", "orbitcart",
             "saltmarsh", "bluefjord", "copperleaf", "tidewater", "granitecloud", "veloship"]
TLDS = [".com", ".io", ".dev", ".net", ".co", ".app", ".tech"]
SERVICES = ["orders", "billing", "payments", "inventory", "search", "auth", "notifications",
            "catalog", "checkout", "reports", "gateway", "ledger", "shipping", "profile",
            "analytics", "scheduler", "ingest", "media", "webhooks", "accounts"]
ENVS = ["prod", "production", "staging", "stage", "dev", "qa", "uat", "preprod"]
AWS_REGIONS = ["us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-central-1",
               "eu-north-1", "ap-southeast-1", "ap-northeast-1", "ca-central-1", "sa-east-1"]
AZ_REGIONS = ["westeurope", "northeurope", "eastus2", "uksouth", "swedencentral", "centralus"]
GCP_REGIONS = ["europe-west1", "europe-west4", "us-central1", "us-east4", "asia-northeast1"]
WORDS = ["sunflower", "falcon", "harbor", "maple", "thunder", "crystal", "dragon", "summer",
         "winter", "coffee", "rocket", "tiger", "mountain", "river", "shadow", "silver",
         "panda", "orange", "pirate", "marble", "lantern", "meadow", "phoenix", "biscuit",
         "galaxy", "violet", "walrus", "cactus", "mango", "hockey", "guitar", "jasmine",
         "penguin", "compass", "velvet", "canyon", "pepper", "willow", "sparrow", "nugget",
         "blizzard", "cobalt", "emerald", "fortune", "horizon", "island", "juniper", "kitten",
         "lobster", "monkey", "nebula", "oyster", "quartz", "raven", "saturn", "turtle",
         "voyager", "whisky", "zeppelin", "bamboo", "cheddar", "dolphin", "espresso", "pickle"]
PETS = ["Biscuit", "Luna", "Milo", "Bella", "Charlie", "Max", "Daisy", "Rocky", "Coco",
        "Simba", "Nala", "Oreo", "Pepper", "Ziggy", "Bruno", "Mochi", "Lola", "Tofu"]
CITIES = ["Denver", "Lisbon", "Oslo", "Austin", "Krakow", "Dublin", "Porto", "Nairobi",
          "Toronto", "Seoul", "Madrid", "Bergen", "Boston", "Chicago", "Lyon", "Perth"]
TEAMS = ["Arsenal", "Yankees", "Lakers", "Celtics", "Barca", "Juventus", "Packers",
         "Rangers", "Bulls", "Ajax", "Liverpool", "Dodgers"]
SEASONS = ["Spring", "Summer", "Autumn", "Fall", "Winter"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def person(r):
    return r.choice(FIRST), r.choice(LAST)


def company(r):
    return r.choice(COMPANIES)


def domain(r, c=None):
    return (c or company(r)) + r.choice(TLDS)


def email(r, f=None, l=None, dom=None):
    f = f or r.choice(FIRST)
    l = l or r.choice(LAST)
    dom = dom or domain(r)
    style = r.randrange(3)
    if style == 0:
        loc = f"{f}.{l}".lower()
    elif style == 1:
        loc = f"{f[0]}{l}".lower()
    else:
        loc = f.lower()
    return f"{loc}@{dom}"


def username(r):
    f, l = person(r)
    return r.choice([f.lower(), f"{f[0]}{l}".lower(), f"{f}.{l}".lower(), f"{f.lower()}{r.randrange(1, 99)}"])


# ---------------------------------------------------------------------------
# human-chosen passwords (callers pick the symbols their format tolerates)
# ---------------------------------------------------------------------------
LEET = {"a": "4@", "e": "3", "i": "1!", "o": "0", "s": "5$", "t": "7"}


def _leet(r, w, symbols):
    out = []
    for ch in w:
        opts = [c for c in LEET.get(ch.lower(), "") if c.isalnum() or c in symbols]
        if opts and r.random() < 0.55:
            out.append(r.choice(opts))
        else:
            out.append(ch)
    return "".join(out)


def human_password(r, symbols="!@#$%^&*?_-.+="):
    sym = (lambda: r.choice(symbols)) if symbols else (lambda: "")
    year = str(r.choice(list(range(1962, 2027))))
    yy = year[2:]
    w = r.choice(WORDS)
    k = r.randrange(10)
    if k == 0:
        p = w.capitalize() + year + sym()
    elif k == 1:
        p = r.choice(FIRST) + sym() + r.choice([yy, year, str(r.randrange(1, 100))])
    elif k == 2:
        p = _leet(r, w.capitalize() + r.choice(WORDS).capitalize(), symbols) + str(r.randrange(1, 100))
    elif k == 3:
        p = r.choice(SEASONS) + str(r.choice([2023, 2024, 2025, 2026])) + sym()
    elif k == 4:
        p = w + r.choice(WORDS).capitalize() + str(r.randrange(10, 1000)) + sym()
    elif k == 5:
        sep = r.choice([c for c in "-._" if c in symbols] or [""])
        p = sep.join(r.sample(WORDS, 3)) + sep + str(r.randrange(1, 100))
    elif k == 6:
        p = r.choice(CITIES) + sym() + year
    elif k == 7:
        p = r.choice(PETS) + r.choice(["", sym()]) + r.choice(PETS).lower() + yy + sym()
    elif k == 8:
        p = r.choice(TEAMS) + r.choice(["4ever", "Fan", "Rule", "No1"]) + yy + sym()
    else:
        p = _leet(r, r.choice(MONTHS), symbols) + sym() + str(r.randrange(1, 32)) + yy
    while len(p) < 8:
        p += str(r.randrange(10))
    return p


URL_SYMS = "!*_-.~"
SHELLQ_SYMS = "!@#$%^&*?_-.+="   # inside single quotes
YAMLQ_SYMS = "!@#$%^&*?_-.+="    # inside double/single-quoted YAML
PROP_SYMS = "!@#$%^&*?_-.+"
XML_SYMS = "!@#$%^*?_-.+="
ENV_SYMS = "!@%^&*?_-.+="
PLAIN_SYMS = "!@#$%^&*?_-.+="


# ---------------------------------------------------------------------------
# generated secrets in vendors' published shapes
# ---------------------------------------------------------------------------
def gh_token(r, prefix):
    body = rs(r, B62, 30)
    chk = b62enc(zlib.crc32(body.encode()) & 0xFFFFFFFF).rjust(6, "0")
    return prefix + body + chk


def gh_fine_grained(r):
    return "github_pat_" + rs(r, B62, 22) + "_" + rs(r, B62, 59)


def npm_token(r):
    body = rs(r, B62, 30)
    chk = b62enc(zlib.crc32(body.encode()) & 0xFFFFFFFF).rjust(6, "0")
    return "npm_" + body + chk


def aws_key_pair(r):
    kid = r.choice(["AKIA", "AKIA", "AKIA"]) + rs(r, B32U, 16)
    secret = rs(r, UPP + LOW + DIG + "+/", 40)
    return kid, secret


def openai_key(r):
    return "sk-proj-" + rs(r, B64URL, 74) + "T3BlbkFJ" + rs(r, B64URL, 74)


def anthropic_key(r):
    return "sk-ant-api03-" + rs(r, B64URL, 93) + "AA"


def stripe_secret(r):
    pre = r.choice(["sk_live_51", "sk_live_51", "rk_live_51"])
    return pre + rs(r, B62, 97)


def slack_bot(r):
    return "xoxb-%d-%d-%s" % (r.randrange(10 ** 10, 10 ** 13), r.randrange(10 ** 12, 10 ** 13),
                              rs(r, ALNUM, 24))


def slack_webhook(r):
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (
        rs(r, UPP + DIG, r.choice([8, 10])), rs(r, UPP + DIG, r.choice([8, 10])), rs(r, ALNUM, 24))


def discord_webhook(r):
    return "https://discord.com/api/webhooks/%d/%s" % (r.randrange(10 ** 17, 2 * 10 ** 18), rs(r, B64URL, 68))


def sendgrid_key(r):
    return "SG." + rs(r, B64URL, 22) + "." + rs(r, B64URL, 43)


def hf_token(r):
    return "hf_" + rs(r, UPP + LOW, 34)


def google_api_key(r):
    return "AIza" + rs(r, B64URL, 35)


def datadog_key(r):
    return rhex(r, 32)


def cloudflare_token(r):
    return rs(r, B64URL, 40)


def sonar_token(r):
    return r.choice(["squ_", "sqp_", "sqa_"]) + rhex(r, 40)


def dockerhub_pat(r):
    return "dckr_pat_" + rs(r, B64URL, 27)


def crates_token(r):
    return "cio" + rs(r, ALNUM, 32)


def ado_pat(r):
    if r.random() < 0.5:
        return rs(r, B32L, 52)
    return rs(r, B62, 52) + "JQQJ99" + rs(r, B62, 18) + "AZDO" + rs(r, B62, 4)


def azure_storage_key(r):
    return b64(rbytes(r, 64))


def stripe_whsec(r):
    return "whsec_" + rs(r, ALNUM, 32)


def _varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def _mfield(t, data):
    return bytes([t]) + _varint(len(data)) + data


def pypi_token(r, project=None):
    ident = ruuid(r).replace("-", "").encode()
    mac = b"\x02" + _mfield(1, b"pypi.org") + _mfield(2, ident) + b"\x00"
    if project:
        cav = json.dumps({"version": 1, "permissions": {"projects": [project]}}).encode()
    else:
        cav = json.dumps({"version": 1, "permissions": "user"}).encode()
    mac += _mfield(2, cav) + b"\x00"
    mac += b"\x00" + _mfield(6, rbytes(r, 32))
    return "pypi-" + b64u(mac)


def django_key(r):
    k = rs(r, "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)", 50)
    return ("django-insecure-" + k) if r.random() < 0.5 else k


def jwt_hs256(r, header, payload):
    seg = b64u(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(rbytes(r, 32), seg.encode(), hashlib.sha256).digest()
    return seg + "." + b64u(sig)


def jwt_rs256(r, header, payload):
    seg = b64u(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        b64u(json.dumps(payload, separators=(",", ":")).encode())
    return seg + "." + b64u(rbytes(r, 256))


# ---------------------------------------------------------------------------
# curve arithmetic for realistic key material (X25519 / Ed25519 public halves)
# ---------------------------------------------------------------------------
_P = 2 ** 255 - 19
_D = -121665 * pow(121666, _P - 2, _P) % _P
_I = pow(2, (_P - 1) // 4, _P)


def _xrecover(y):
    xx = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P)
    x = pow(xx, (_P + 3) // 8, _P)
    if (x * x - xx) % _P:
        x = x * _I % _P
    if x % 2:
        x = _P - x
    return x


_BY = 4 * pow(5, _P - 2, _P) % _P
_BX = _xrecover(_BY)
_BASE = (_BX, _BY, 1, _BX * _BY % _P)


def _edd(p, q):
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
    q, p = (0, 1, 1, 0), _BASE
    while a:
        if a & 1:
            q = _edd(q, p)
        p = _edd(p, p)
        a >>= 1
    x, y, z, _ = q
    zi = pow(z, _P - 2, _P)
    x, y = x * zi % _P, y * zi % _P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def x25519_pub(k):
    k = bytearray(k)
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    n = int.from_bytes(k, "little")
    x1, x2, z2, x3, z3, swap = 9, 1, 0, 9, 1, 0
    for t in reversed(range(255)):
        kt = (n >> t) & 1
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
        x2, x3, z2, z3 = x3, x2, z3, z2
    return (x2 * pow(z2, _P - 2, _P) % _P).to_bytes(32, "little")


def wg_keypair(r):
    k = bytearray(rbytes(r, 32))
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    k = bytes(k)
    return b64(k), b64(x25519_pub(k))


def wg_pub(r):
    return wg_keypair(r)[1]


_BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


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


def bech32(hrp, data8):
    acc, bits, data = 0, 0, []
    for b in data8:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            data.append((acc >> bits) & 31)
    if bits:
        data.append((acc << (5 - bits)) & 31)
    hx = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    pm = _polymod(hx + data + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(_BECH[d] for d in data + chk)


def age_pub(r):
    return bech32("age", x25519_pub(rbytes(r, 32)))


# ---------------------------------------------------------------------------
# DER / PEM / OpenSSH / OpenPGP builders
# ---------------------------------------------------------------------------
def _dlen(n):
    if n < 128:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag, content):
    return bytes([tag]) + _dlen(len(content)) + content


def der_int(v):
    return der(0x02, v.to_bytes(v.bit_length() // 8 + 1, "big"))


def _rint(r, bits):
    return r.getrandbits(bits) | (1 << (bits - 1)) | 1


OID_RSA = bytes.fromhex("2a864886f70d010101")
OID_SHA256RSA = bytes.fromhex("2a864886f70d01010b")


def rsa_private_der(r, bits=2048):
    half = bits // 2
    n = _rint(r, bits)
    parts = [der_int(0), der_int(n), der_int(65537), der_int(r.getrandbits(bits - 1)),
             der_int(_rint(r, half)), der_int(_rint(r, half)), der_int(r.getrandbits(half - 1)),
             der_int(r.getrandbits(half - 1)), der_int(r.getrandbits(half - 1))]
    return der(0x30, b"".join(parts))


def pkcs8_der(r, bits=2048):
    alg = der(0x30, der(0x06, OID_RSA) + b"\x05\x00")
    return der(0x30, der_int(0) + alg + der(0x04, rsa_private_der(r, bits)))


def pem(label, data, width=64):
    return "\n".join(["-----BEGIN %s-----" % label] + wrap(b64(data), width) + ["-----END %s-----" % label])


def rsa_public_der(r, bits=2048):
    return der(0x30, der_int(_rint(r, bits)) + der_int(65537))


def _name(cn, o=None, c=None):
    rdns = b""
    if c:
        rdns += der(0x31, der(0x30, der(0x06, bytes.fromhex("550406")) + der(0x13, c.encode())))
    if o:
        rdns += der(0x31, der(0x30, der(0x06, bytes.fromhex("55040a")) + der(0x0C, o.encode())))
    rdns += der(0x31, der(0x30, der(0x06, bytes.fromhex("550403")) + der(0x0C, cn.encode())))
    return der(0x30, rdns)


def cert_der(r, cn, issuer_cn, issuer_o=None, c="US", bits=2048):
    nb = when(r, (2025, 3, 1), 300)
    na = nb + _dt.timedelta(days=r.choice([90, 90, 397, 365]))
    validity = der(0x30, der(0x17, nb.strftime("%y%m%d%H%M%SZ").encode()) +
                   der(0x17, na.strftime("%y%m%d%H%M%SZ").encode()))
    spki = der(0x30, der(0x30, der(0x06, OID_RSA) + b"\x05\x00") +
               der(0x03, b"\x00" + rsa_public_der(r, bits)))
    algo = der(0x30, der(0x06, OID_SHA256RSA) + b"\x05\x00")
    san = der(0x30, der(0x06, bytes.fromhex("551d11")) +
              der(0x04, der(0x30, der(0x82, cn.encode()))))
    ski = der(0x30, der(0x06, bytes.fromhex("551d0e")) + der(0x04, der(0x04, rbytes(r, 20))))
    exts = der(0xA3, der(0x30, san + ski))
    tbs = der(0x30, der(0xA0, der_int(2)) + der_int(r.getrandbits(127)) + algo +
              _name(issuer_cn, issuer_o, c) + validity + _name(cn) + spki + exts)
    return der(0x30, tbs + algo + der(0x03, b"\x00" + rbytes(r, bits // 8)))


def _sshstr(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def openssh_ed25519(r, comment):
    seed = rbytes(r, 32)
    pub = ed25519_pub(seed)
    pubblob = _sshstr("ssh-ed25519") + _sshstr(pub)
    chk = rbytes(r, 4)
    priv = chk + chk + _sshstr("ssh-ed25519") + _sshstr(pub) + _sshstr(seed + pub) + _sshstr(comment)
    i = 1
    while len(priv) % 8:
        priv += bytes([i])
        i += 1
    blob = b"openssh-key-v1\x00" + _sshstr("none") + _sshstr("none") + _sshstr(b"") + \
        struct.pack(">I", 1) + _sshstr(pubblob) + _sshstr(priv)
    key = "\n".join(["-----BEGIN OPENSSH PRIVATE KEY-----"] + wrap(b64(blob), 70) +
                    ["-----END OPENSSH PRIVATE KEY-----"])
    return key, "ssh-ed25519 " + b64(pubblob) + " " + comment


def ssh_pub_ed25519(r, comment=""):
    blob = _sshstr("ssh-ed25519") + _sshstr(rbytes(r, 32))
    return ("ssh-ed25519 " + b64(blob) + (" " + comment if comment else "")).rstrip()


def ssh_pub_rsa(r, comment="", bits=3072):
    n = _rint(r, bits).to_bytes(bits // 8 + 1, "big")
    blob = _sshstr("ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(n)
    return ("ssh-rsa " + b64(blob) + (" " + comment if comment else "")).rstrip()


def ssh_pub_ecdsa(r, comment=""):
    blob = _sshstr("ecdsa-sha2-nistp256") + _sshstr("nistp256") + _sshstr(b"\x04" + rbytes(r, 64))
    return ("ecdsa-sha2-nistp256 " + b64(blob) + (" " + comment if comment else "")).rstrip()


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def _pkt(tag, body):
    n = len(body)
    if n < 192:
        ln = bytes([n])
    elif n < 8384:
        n2 = n - 192
        ln = bytes([(n2 >> 8) + 192, n2 & 0xFF])
    else:
        ln = b"\xff" + struct.pack(">I", n)
    return bytes([0xC0 | tag]) + ln + body


def _mpi(b):
    v = int.from_bytes(b, "big")
    return struct.pack(">H", v.bit_length()) + b


def _sigpkt(r, created, keyid, fpr):
    hashed = bytes([5, 2]) + struct.pack(">I", created) + bytes([21, 33, 4]) + fpr + bytes([2, 27, 3])
    unhashed = bytes([9, 16]) + keyid
    body = bytes([4, 0x13, 22, 10]) + struct.pack(">H", len(hashed)) + hashed + \
        struct.pack(">H", len(unhashed)) + unhashed + rbytes(r, 2) + \
        _mpi(b"\x7f" + rbytes(r, 31)) + _mpi(b"\x3f" + rbytes(r, 31))
    return _pkt(2, body)


def pgp_armor(label, data, version_line=False):
    lines = ["-----BEGIN PGP %s-----" % label, ""]
    lines += wrap(b64(data), 64)
    lines.append("=" + b64(crc24(data).to_bytes(3, "big")))
    lines.append("-----END PGP %s-----" % label)
    return "\n".join(lines)


ED_OID = bytes.fromhex("2b06010401da470f01")
CV_OID = bytes.fromhex("2b060104019755010501")


def pgp_key_block(r, uid, secret_part, created):
    """OpenPGP v4 ed25519/cv25519 key; secret_part=True gives an unprotected transferable secret key."""
    seed = rbytes(r, 32)
    pub = b"\x40" + ed25519_pub(seed)
    keybody = bytes([4]) + struct.pack(">I", created) + bytes([22, len(ED_OID)]) + ED_OID + _mpi(pub)
    fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(keybody)) + keybody).digest()
    keyid = fpr[-8:]
    out = b""
    if secret_part:
        sec = _mpi(seed)
        out += _pkt(5, keybody + b"\x00" + sec + struct.pack(">H", sum(sec) & 0xFFFF))
    else:
        out += _pkt(6, keybody)
    out += _pkt(13, uid.encode()) + _sigpkt(r, created, keyid, fpr)
    cv = rbytes(r, 32)
    subbody = bytes([4]) + struct.pack(">I", created) + bytes([18, len(CV_OID)]) + CV_OID + \
        _mpi(b"\x40" + x25519_pub(cv)) + bytes([3, 1, 8, 7])
    if secret_part:
        sec = _mpi(b"\x40" + cv[:31])
        out += _pkt(7, subbody + b"\x00" + sec + struct.pack(">H", sum(sec) & 0xFFFF))
    else:
        out += _pkt(14, subbody)
    out += _sigpkt(r, created, keyid, fpr)
    return out, fpr.hex().upper()


def png_bytes(r, w=None, h=None):
    w = w or r.choice([16, 24, 32])
    h = h or w
    raw = b""
    palette = [rbytes(r, 3) for _ in range(3)]
    for y in range(h):
        raw += b"\x00" + b"".join(r.choice(palette) for _ in range(w))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


# ---------------------------------------------------------------------------
# shared filler
# ---------------------------------------------------------------------------
SHELL_FILLER = [
    "ls -la", "cd ~/src/{svc}", "git status", "git pull --rebase", "git log --oneline -5",
    "git checkout -b fix/{svc}-timeout", "docker ps", "docker compose up -d", "docker compose logs -f --tail=100 {svc}",
    "kubectl get pods -n {svc}", "kubectl logs -n {svc} deploy/{svc}-api --since=10m",
    "kubectl rollout restart deploy/{svc}-api -n {svc}", "sudo systemctl restart nginx",
    "sudo journalctl -u {svc} -n 200 --no-pager", "df -h", "du -sh /var/lib/docker", "htop", "free -m",
    "tail -f /var/log/nginx/error.log", "vim /etc/nginx/sites-available/{svc}.conf", "sudo nginx -t",
    "ssh deploy@{ip}", "scp build.tar.gz deploy@{ip}:/tmp/", "ping -c 3 {ip}", "curl -I https://{dom}",
    "dig +short {dom}", "make test", "npm ci", "npm run build", "pnpm install", "python3 -m venv .venv",
    "source .venv/bin/activate", "pip install -r requirements.txt", "pytest -x -q", "go test ./...",
    "cargo build --release", "terraform plan -out tfplan", "terraform apply tfplan", "history | tail -20",
    "aws sts get-caller-identity", "aws s3 ls s3://{c}-backups/", "gcloud config list", "az account show",
    "helm list -A", "helm upgrade --install {svc} ./charts/{svc} -n {svc}", "crontab -l", "uptime",
    "sudo apt update && sudo apt upgrade -y", "ncdu /var/log", "openssl s_client -connect {dom}:443 </dev/null",
    "watch -n 2 kubectl get pods -n {svc}", "top -o %MEM", "sudo lsof -i :5432", "ss -tlnp",
    "code .", "clear", "exit", "tmux attach -t main", "git stash pop", "git push -u origin HEAD",
]


def shell_filler(r, n, c=None):
    c = c or company(r)
    out = []
    for _ in range(n):
        cmd = r.choice(SHELL_FILLER)
        out.append(cmd.format(svc=r.choice(SERVICES), ip=priv_ip(r), dom=domain(r, c), c=c))
    return out


def prompt(r, user=None, host=None, path="~"):
    user = user or r.choice(["ubuntu", "ec2-user", "deploy", "admin", r.choice(FIRST).lower()])
    host = host or r.choice(["bastion-01", "ip-10-0-3-41", "web-2", "devbox", "MacBook-Pro", "buildhost", "jump"])
    return f"{user}@{host}:{path}$ "


# ===========================================================================
# POSITIVE TEMPLATES  (each returns kind, ext, value, text)
# ===========================================================================
POS = []


def pos(name):
    def deco(fn):
        POS.append((name, fn))
        return fn
    return deco


def J(lines):
    return "\n".join(lines).rstrip("\n") + "\n"


# ---- terminal / shell -------------------------------------------------------
@pos("bash-history")
def p_bash_history(r):
    c = company(r)
    pw = S(human_password(r, SHELLQ_SYMS))
    user = r.choice(["root", "admin", "dbadmin", "backup", "app", username(r)])
    host = r.choice([priv_ip(r), f"db-{r.randrange(1, 4)}.{c}.internal", "127.0.0.1", f"mysql-{r.choice(ENVS)}.{c}.lan"])
    db = r.choice(SERVICES) + r.choice(["", "_db", "_prod"])
    leak = r.choice([
        f"mysql -u {user} -p'{pw}' -h {host} {db}",
        f"mysqldump -u {user} -p'{pw}' -h {host} --single-transaction --routines {db} | gzip > /tmp/{db}-$(date +%F).sql.gz",
        f"sshpass -p '{pw}' ssh -o StrictHostKeyChecking=no {user}@{priv_ip(r)}",
        f"echo '{pw}' | sudo -S systemctl restart {r.choice(SERVICES)}",
        f"mongosh --host {host} -u {user} -p '{pw}' --authenticationDatabase admin",
        f"smbclient //{priv_ip(r)}/share -U {user}%'{pw}'",
    ])
    cmds = shell_filler(r, r.randrange(12, 45), c)
    cmds.insert(r.randrange(3, len(cmds)), leak)
    if r.random() < 0.4:  # zsh extended history
        t = int(when(r).timestamp())
        out = []
        for cmd in cmds:
            t += r.randrange(3, 400)
            out.append(f": {t}:{r.randrange(0, 4)};{cmd}")
        return "password", "txt", pw, J(out)
    return "password", "txt", pw, J(cmds)


@pos("terminal-openai-export")
def p_terminal_openai(r):
    key = S(openai_key(r))
    pr = prompt(r, path="~/src/" + r.choice(["ticket-summarizer", "rag-demo", "eval-harness", "support-bot", "docs-qa"]))
    model = r.choice(["gpt-4.1-mini", "gpt-4o-mini", "gpt-5-mini", "gpt-4.1"])
    lines = []
    style = r.randrange(3)
    nb = r.randrange(3, 9)
    if style == 0:
        lines += [pr + f'export OPENAI_API_KEY="{key}"',
                  pr + f"uv run python summarize.py --model {model} data/tickets-{when(r).strftime('%Y%m')}.csv",
                  f"Loaded {r.randrange(80, 900)} rows from CSV",
                  f"Batch 1/{nb} ... ok ({r.uniform(2, 9):.1f}s)",
                  f"Batch 2/{nb} ... ok ({r.uniform(2, 9):.1f}s)",
                  "Traceback (most recent call last):",
                  '  File "/home/dev/src/app/summarize.py", line 88, in <module>',
                  "    main()",
                  '  File "/home/dev/src/app/summarize.py", line 71, in main',
                  "    resp = client.chat.completions.create(model=args.model, messages=msgs)",
                  "openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for "
                  f"{model} in organization org-{rs(r, ALNUM, 24)} on tokens per min (TPM): Limit 200000, Used "
                  f"{r.randrange(190000, 200000)}, Requested {r.randrange(2000, 9000)}.', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}}}",
                  pr]
    elif style == 1:
        lines += [pr + "curl https://api.openai.com/v1/chat/completions \\",
                  '  -H "Content-Type: application/json" \\',
                  f'  -H "Authorization: Bearer {key}" \\',
                  "  -d '{",
                  f'    "model": "{model}",',
                  '    "messages": [{"role": "user", "content": "Say hello in Dutch"}]',
                  "  }'",
                  "{",
                  f'  "id": "chatcmpl-{rs(r, ALNUM, 29)}",',
                  '  "object": "chat.completion",',
                  f'  "created": {int(when(r).timestamp())},',
                  f'  "model": "{model}-2025-04-14",',
                  '  "choices": [',
                  "    {",
                  '      "index": 0,',
                  '      "message": {"role": "assistant", "content": "Hallo! Hoe gaat het?", "refusal": null},',
                  '      "finish_reason": "stop"',
                  "    }",
                  "  ],",
                  f'  "usage": {{"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19}},',
                  f'  "system_fingerprint": "fp_{rhex(r, 10)}"',
                  "}"]
    else:
        lines += [pr + "cat .envrc",
                  "export AWS_PROFILE=dev",
                  f"export OPENAI_API_KEY={key}",
                  "export LOG_LEVEL=debug",
                  pr + "direnv allow",
                  "direnv: loading ~/src/app/.envrc",
                  "direnv: export +AWS_PROFILE +LOG_LEVEL +OPENAI_API_KEY",
                  pr + "python -c 'import openai; print(openai.__version__)'",
                  r.choice(["1.86.0", "1.99.9", "2.8.1"])]
    return "openai-api-key", "txt", key, J(lines)


@pos("psql-session")
def p_psql_session(r):
    c = company(r)
    svc = r.choice(SERVICES)
    user = r.choice([f"{svc}_rw", f"{svc}_app", "postgres", "readonly", "analytics"])
    host = r.choice([f"{svc}-db.{c}.internal", f"{c}-prod.cluster-{rs(r, LOW + DIG, 12)}.{r.choice(AWS_REGIONS)}.rds.amazonaws.com",
                     f"{priv_ip(r)}", f"db-{r.randrange(1, 5)}.{c}.lan"])
    pr = prompt(r)
    if r.random() < 0.5:
        pw = S(human_password(r, URL_SYMS))
        cmd = f'psql "postgresql://{user}:{pw}@{host}:5432/{svc}?sslmode=require"'
    else:
        pw = S(human_password(r, SHELLQ_SYMS))
        cmd = f"PGPASSWORD='{pw}' psql -h {host} -U {user} -d {svc}"
    n = r.randrange(800, 90000)
    pv = r.randrange(0, 7)
    lines = [pr + cmd,
             f"psql (17.{pv} (Ubuntu 17.{pv}-1.pgdg24.04+1), server 16.{r.randrange(3, 9)})",
             "SSL connection (protocol: TLSv1.3, cipher: TLS_AES_256_GCM_SHA384, compression: off, ALPN: postgresql)",
             'Type "help" for help.', "",
             f"{svc}=> \\dt",
             "            List of relations",
             " Schema |       Name        | Type  |  Owner",
             "--------+-------------------+-------+---------"]
    tabs = pick(r, ["accounts", "events", "invoices", "line_items", "orders", "schema_migrations", "sessions", "users", "webhooks"], r.randrange(3, 7))
    for t in sorted(tabs):
        lines.append(f" public | {t:<17} | table | {user}")
    lines += [f"({len(tabs)} rows)", "",
              f"{svc}=> select count(*) from {tabs[0]} where created_at > now() - interval '1 day';",
              " count", "-------", f" {n:>5}", "(1 row)", "", f"{svc}=> \\q"]
    return "password", "txt", pw, J(lines)


@pos("ssh-ed25519-key")
def p_ssh_key(r):
    f, l = person(r)
    comment = r.choice([f"{f.lower()}@{r.choice(['laptop', 'MacBook-Air', 'thinkpad', 'devbox'])}",
                        f"{f.lower()}.{l.lower()}@{domain(r)}", f"deploy@{r.choice(SERVICES)}-ci"])
    key, pub = openssh_ed25519(r, comment)
    S(key)
    pr = prompt(r, user=f.lower())
    lines = []
    if r.random() < 0.5:
        lines += [pr + "ssh-keygen -t ed25519 -C \"%s\" -N ''" % comment,
                  "Generating public/private ed25519 key pair.",
                  f"Enter file in which to save the key (/home/{f.lower()}/.ssh/id_ed25519): ",
                  f"Your identification has been saved in /home/{f.lower()}/.ssh/id_ed25519",
                  f"Your public key has been saved in /home/{f.lower()}/.ssh/id_ed25519.pub",
                  "The key fingerprint is:",
                  f"SHA256:{b64(rbytes(r, 32)).rstrip('=')} {comment}"]
    lines += [pr + "cat ~/.ssh/id_ed25519"] + key.split("\n")
    lines += [pr + "cat ~/.ssh/id_ed25519.pub", pub]
    return "ssh-private-key", "txt", key, J(lines)


# ---- CI/CD ------------------------------------------------------------------
@pos("github-actions-log")
def p_gha_log(r):
    tok = S(gh_token(r, "ghp_"))
    c = company(r)
    repo = f"{c}/{r.choice(SERVICES)}-{r.choice(['service', 'api', 'web', 'infra'])}"
    t = when(r)
    out = []

    def L(s):
        nonlocal t
        t += _dt.timedelta(milliseconds=r.randrange(5, 4000))
        out.append(t.strftime("%Y-%m-%dT%H:%M:%S.") + "%07dZ " % (t.microsecond * 10 + r.randrange(10)) + s)
    L("##[group]Runner Image")
    L("Image: ubuntu-24.04")
    L(f"Version: 2026{r.randrange(1, 3):02d}{r.randrange(1, 28):02d}.{r.randrange(1, 200)}")
    L("##[endgroup]")
    L("##[group]Run actions/checkout@v4")
    L("with:")
    L(f"  repository: {repo}")
    L("  token: ***")
    L("  fetch-depth: 1")
    L("##[endgroup]")
    L("Syncing repository: " + repo)
    L(f"[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +{sha1_hex(r)}:refs/remotes/origin/main")
    L("##[group]Run ./scripts/sync-submodules.sh")
    L("./scripts/sync-submodules.sh")
    L("shell: /usr/bin/bash -e {0}")
    L("##[endgroup]")
    sub = f"{c}/{r.choice(['shared-protos', 'design-tokens', 'common-config', 'terraform-modules'])}"
    if r.random() < 0.5:
        L(f"+ git clone --depth 1 https://x-access-token:{tok}@github.com/{sub}.git vendor/shared")
        L("Cloning into 'vendor/shared'...")
    else:
        L(f"+ curl -fsSL -H 'Authorization: token {tok}' -H 'Accept: application/vnd.github+json' https://api.github.com/repos/{sub}/releases/latest")
        L(f'  "tag_name": "v{r.randrange(1, 5)}.{r.randrange(0, 20)}.{r.randrange(0, 9)}",')
    L("+ echo 'submodules synced'")
    L("submodules synced")
    L("##[group]Run actions/setup-node@v4")
    L("with:")
    L("  node-version: 22")
    L("  cache: npm")
    L("##[endgroup]")
    L(f"Found in cache @ /opt/hostedtoolcache/node/22.{r.randrange(10, 20)}.0/x64")
    L(f"Cache restored from key: node-cache-Linux-x64-npm-{sha256_hex(r)}")
    L("##[group]Run npm ci")
    L(f"added {r.randrange(400, 1800)} packages, and audited {r.randrange(400, 1800)} packages in {r.randrange(8, 60)}s")
    L("found 0 vulnerabilities")
    L("##[endgroup]")
    L(f"##[error]Process completed with exit code {r.choice([1, 2, 127])}.")
    L("Post job cleanup.")
    return "github-pat", "log", tok, J(out)


@pos("gitlab-ci-yml")
def p_gitlab_ci(r):
    tok = S(sonar_token(r))
    c = company(r)
    proj = f"{c}_{r.choice(SERVICES)}"
    lines = ["stages:", "  - build", "  - test", "  - quality", "  - deploy", "",
             "variables:",
             '  DOCKER_DRIVER: overlay2',
             '  GIT_DEPTH: "0"',
             f'  SONAR_HOST_URL: "https://sonar.{domain(r, c)}"',
             f'  SONAR_TOKEN: "{tok}"',
             '  SONAR_USER_HOME: "${CI_PROJECT_DIR}/.sonar"', "",
             "default:",
             f"  image: {r.choice(['node:22-alpine', 'python:3.13-slim', 'eclipse-temurin:21-jdk', 'golang:1.24'])}",
             "  tags: [docker]", "",
             "build:",
             "  stage: build",
             "  script:",
             "    - make build",
             "  artifacts:",
             "    paths: [dist/]",
             "    expire_in: 1 week", "",
             "unit-tests:",
             "  stage: test",
             "  script:",
             "    - make test",
             "  coverage: '/TOTAL.*\\s+(\\d+%)$/'", "",
             "sonarqube-check:",
             "  stage: quality",
             "  image:",
             "    name: sonarsource/sonar-scanner-cli:11",
             '    entrypoint: [""]',
             "  cache:",
             '    key: "${CI_JOB_NAME}"',
             "    paths: [.sonar/cache]",
             "  script:",
             f"    - sonar-scanner -Dsonar.projectKey={proj} -Dsonar.qualitygate.wait=true",
             "  allow_failure: true",
             "  rules:",
             '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
             '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', "",
             "deploy-staging:",
             "  stage: deploy",
             "  environment: staging",
             "  script:",
             "    - ./deploy.sh staging",
             "  when: manual"]
    return "sonarqube-token", "yml", tok, J(lines)


@pos("jenkins-console")
def p_jenkins(r):
    c = company(r)
    svc = r.choice(SERVICES)
    pw = S(human_password(r, "_-.+@%^"))
    user = r.choice(["deployer", "jenkins", "ci-upload", "nexus-deploy", "build"])
    f, l = person(r)
    ver = f"{r.randrange(1, 6)}.{r.randrange(0, 30)}.{r.randrange(0, 9)}"
    nexus = f"https://nexus.{domain(r, c)}"
    lines = [f"Started by user {f} {l}",
             "Running as SYSTEM",
             f"Building on the built-in node in workspace /var/lib/jenkins/workspace/{svc}-release",
             "The recommended git tool is: NONE",
             "using credential github-app-ci",
             f" > git rev-parse --resolve-git-dir /var/lib/jenkins/workspace/{svc}-release/.git # timeout=10",
             f"Fetching upstream changes from https://github.com/{c}/{svc}.git",
             f"Checking out Revision {sha1_hex(r)} (refs/remotes/origin/main)",
             f"Commit message: \"{r.choice(['Bump version', 'Fix flaky test', 'Release prep', 'Update deps'])} to {ver}\"",
             f"[{svc}-release] $ /bin/bash -xe /tmp/jenkins{r.randrange(10 ** 17, 10 ** 18)}.sh",
             "+ ./mvnw -B -q clean package -DskipTests",
             f"[INFO] Building {svc} {ver}",
             f"[INFO] BUILD SUCCESS",
             f"[INFO] Total time:  {r.randrange(20, 200)}.{r.randrange(100, 999)} s",
             f"+ ls -la target/{svc}-{ver}.jar",
             f"-rw-r--r-- 1 jenkins jenkins {r.randrange(20, 90) * 10 ** 6 + r.randrange(10 ** 6)} {when(r).strftime('%b %d %H:%M')} target/{svc}-{ver}.jar",
             f"+ curl -fsS -u {user}:{pw} --upload-file target/{svc}-{ver}.jar {nexus}/repository/releases/com/{c.replace('-', '')}/{svc}/{ver}/{svc}-{ver}.jar",
             f"curl: (22) The requested URL returned error: {r.choice([400, 401, 403, 502])}",
             "Build step 'Execute shell' marked build as failure",
             "Archiving artifacts",
             f"Sending e-mails to: {email(r, f, l)}",
             "Finished: FAILURE"]
    return "password", "log", pw, J(lines)


@pos("buildkite-pipeline")
def p_buildkite(r):
    tok = S(dockerhub_pat(r))
    c = company(r)
    svc = r.choice(SERVICES)
    lines = ["env:",
             f'  IMAGE: "{c}/{svc}"',
             f'  DOCKERHUB_USER: "{c}ci"',
             f'  DOCKERHUB_TOKEN: "{tok}"', "",
             "steps:",
             '  - label: ":test_tube: tests"',
             "    command: make test",
             "    agents:",
             "      queue: default",
             "    plugins:",
             "      - docker-compose#v5.5.0:",
             "          run: app", "",
             "  - wait", "",
             '  - label: ":docker: build & push"',
             "    branches: main",
             "    commands:",
             '      - echo "$$DOCKERHUB_TOKEN" | docker login -u "$$DOCKERHUB_USER" --password-stdin',
             '      - docker buildx build --platform linux/amd64,linux/arm64 -t "$$IMAGE:$$BUILDKITE_COMMIT" --push .',
             "    agents:",
             "      queue: builders", "",
             "  - block: \":rocket: deploy to production?\"",
             "    branches: main", "",
             '  - label: ":kubernetes: deploy"',
             "    command: ./scripts/deploy.sh production",
             "    concurrency: 1",
             f'    concurrency_group: "{svc}/deploy"']
    return "dockerhub-pat", "yml", tok, J(lines)


# ---- cloud CLIs ---------------------------------------------------------------
@pos("aws-cli-config-paste")
def p_aws_creds(r):
    kid, sec = aws_key_pair(r)
    S(sec)
    c = company(r)
    reg = r.choice(AWS_REGIONS)
    prof = r.choice(["default", c, f"{c}-{r.choice(ENVS)}", "legacy-ci", "terraform"])
    pr = prompt(r)
    acct = str(r.randrange(10 ** 11, 10 ** 12))
    lines = [pr + "cat ~/.aws/config", "[default]", f"region = {reg}", "output = json", "",
             f"[profile {c}-sso]",
             f"sso_session = {c}",
             f"sso_account_id = {acct}",
             f"sso_role_name = {r.choice(['AdministratorAccess', 'PowerUserAccess', 'ReadOnlyAccess', 'Developer'])}",
             f"region = {reg}", "",
             f"[sso-session {c}]",
             f"sso_start_url = https://d-{rhex(r, 10)}.awsapps.com/start",
             f"sso_region = {reg}",
             "sso_registration_scopes = sso:account:access", "",
             pr + "cat ~/.aws/credentials",
             f"[{prof}]",
             f"aws_access_key_id = {kid}",
             f"aws_secret_access_key = {sec}", "",
             pr + f"aws sts get-caller-identity --profile {prof}",
             "{",
             f'    "UserId": "AIDA{rs(r, B32U, 17)}",',
             f'    "Account": "{acct}",',
             f'    "Arn": "arn:aws:iam::{acct}:user/{r.choice(["ci-deployer", "terraform", username(r)])}"',
             "}"]
    return "aws-secret-access-key", "txt", sec, J(lines)


@pos("gcp-service-account-json")
def p_gcp_sa(r):
    c = company(r)
    proj = f"{c}-{r.choice(ENVS)}-{r.randrange(100000, 999999)}"
    sa = r.choice(["terraform", "ci-deployer", "bq-loader", "gke-workload", "firebase-adminsdk-" + rs(r, LOW + DIG, 5)])
    keyval = "\\n".join(pem("PRIVATE KEY", pkcs8_der(r)).split("\n")) + "\\n"
    S(keyval)
    cid = str(r.randrange(10 ** 20, 10 ** 21))
    em = f"{sa}@{proj}.iam.gserviceaccount.com"
    d = {"type": "service_account", "project_id": proj, "private_key_id": rhex(r, 40),
         "private_key": "@@KEY@@", "client_email": em, "client_id": cid,
         "auth_uri": "https://accounts.google.com/o/oauth2/auth",
         "token_uri": "https://oauth2.googleapis.com/token",
         "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
         "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/" + em.replace("@", "%40"),
         "universe_domain": "googleapis.com"}
    text = json.dumps(d, indent=2).replace('"@@KEY@@"', '"' + keyval + '"') + "\n"
    return "gcp-service-account-key", "json", keyval, text


# ---- containers / orchestration -------------------------------------------
@pos("k8s-secret-manifest")
def p_k8s_secret(r):
    sec = S(stripe_whsec(r))
    svc = r.choice(["billing", "payments", "checkout", "subscriptions"])
    ns = r.choice([svc, "default", "apps", f"{svc}-{r.choice(ENVS)}"])
    lines = ["apiVersion: v1", "kind: Secret", "metadata:",
             f"  name: {svc}-stripe", f"  namespace: {ns}",
             "  labels:", f"    app.kubernetes.io/name: {svc}", "    app.kubernetes.io/part-of: platform",
             "  annotations:", f"    owner: team-{svc}@{domain(r)}",
             "type: Opaque", "data:",
             f"  STRIPE_MODE: {b64(b'live')}",
             f"  STRIPE_ACCOUNT_COUNTRY: {b64(r.choice([b'US', b'NL', b'DE', b'GB']))}",
             f"  STRIPE_WEBHOOK_SECRET: {b64(sec.encode())}",
             f"  WEBHOOK_PATH: {b64(b'/hooks/stripe')}",
             "---", "apiVersion: v1", "kind: Service", "metadata:", f"  name: {svc}-api", f"  namespace: {ns}",
             "spec:", "  selector:", f"    app.kubernetes.io/name: {svc}", "  ports:",
             "    - name: http", "      port: 80", f"      targetPort: {r.choice([8080, 3000, 8000])}"]
    return "stripe-webhook-secret", "yaml", sec, J(lines)


@pos("kubectl-describe-pod")
def p_kubectl_describe(r):
    c = company(r)
    svc = r.choice(SERVICES)
    pw = S(human_password(r, URL_SYMS))
    ns = r.choice([svc, "apps", "default", "backend"])
    pod = f"{svc}-api-{rs(r, LOW + DIG, 10)}-{rs(r, LOW + DIG, 5)}"
    user = r.choice([f"{svc}", f"{svc}_app", "app", "api"])
    dbhost = r.choice([f"{svc}-postgresql.{ns}.svc.cluster.local", f"{c}-db.{priv_ip(r)}.nip.io", "pg-primary.databases.svc"])
    t = when(r)
    lines = [f"Name:             {pod}", f"Namespace:        {ns}", "Priority:         0",
             f"Service Account:  {svc}",
             f"Node:             ip-{priv_ip(r).replace('.', '-')}.{r.choice(AWS_REGIONS)}.compute.internal/{priv_ip(r)}",
             f"Start Time:       {t.strftime('%a, %d %b %Y %H:%M:%S')} +0000",
             f"Labels:           app={svc}-api", f"                  pod-template-hash={pod.split('-')[-2]}",
             "Status:           Running", f"IP:               {priv_ip(r)}",
             "Containers:", "  api:",
             f"    Container ID:   containerd://{sha256_hex(r)}",
             f"    Image:          ghcr.io/{c}/{svc}-api:{r.randrange(1, 4)}.{r.randrange(0, 40)}.{r.randrange(0, 9)}",
             f"    Image ID:       ghcr.io/{c}/{svc}-api@sha256:{sha256_hex(r)}",
             f"    Port:           8080/TCP", "    State:          Running",
             f"      Started:      {t.strftime('%a, %d %b %Y %H:%M:%S')} +0000",
             "    Ready:          False", f"    Restart Count:  {r.randrange(3, 40)}",
             "    Limits:", "      memory:  512Mi", "    Requests:", "      cpu:     250m", "      memory:  256Mi",
             "    Liveness:   http-get http://:8080/healthz delay=10s timeout=1s period=10s #success=1 #failure=3",
             "    Environment:",
             "      APP_ENV:             production",
             f"      DATABASE_URL:        postgres://{user}:{pw}@{dbhost}:5432/{svc}?sslmode=disable",
             f"      REDIS_URL:           redis://{svc}-redis-master.{ns}.svc.cluster.local:6379/0",
             f"      JWT_SIGNING_KEY:     <set to the key 'jwt-signing-key' in secret '{svc}-secrets'>  Optional: false",
             "      OTEL_EXPORTER_OTLP_ENDPOINT:  http://otel-collector.observability:4317",
             "    Mounts:",
             f"      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-{rs(r, LOW + DIG, 5)} (ro)",
             "Conditions:", "  Type              Status", "  Initialized       True", "  Ready             False",
             "Events:", "  Type     Reason     Age                 From     Message",
             "  ----     ------     ----                ----     -------",
             f"  Warning  Unhealthy  {r.randrange(1, 9)}m (x{r.randrange(5, 60)} over {r.randrange(10, 50)}m)  kubelet  Liveness probe failed: HTTP probe failed with statuscode: 503",
             f"  Warning  BackOff    {r.randrange(10, 59)}s (x{r.randrange(5, 60)} over {r.randrange(10, 50)}m)  kubelet  Back-off restarting failed container api in pod {pod}_{ns}({ruuid(r)})"]
    return "password", "txt", pw, J(lines)


@pos("docker-compose")
def p_compose(r):
    c = company(r)
    svc = r.choice(SERVICES)
    kind = r.randrange(3)
    lines = ["services:"]
    if kind == 0:
        pw = S(human_password(r, "!@%^*_-.+"))
        lines += ["  db:", "    image: postgres:17-alpine", "    restart: unless-stopped", "    environment:",
                  f"      POSTGRES_DB: {svc}", f"      POSTGRES_USER: {svc}", f'      POSTGRES_PASSWORD: "{pw}"',
                  "    volumes:", "      - pgdata:/var/lib/postgresql/data",
                  "    healthcheck:", f'      test: ["CMD-SHELL", "pg_isready -U {svc}"]', "      interval: 10s", "",
                  "  app:", f"    image: ghcr.io/{c}/{svc}:latest", "    depends_on:", "      db:",
                  "        condition: service_healthy", "    environment:", "      DB_HOST: db",
                  f"      DB_NAME: {svc}", f"      DB_USER: {svc}", "      DB_PASSWORD_FILE: /run/secrets/db_password",
                  "    ports:", '      - "8080:8080"', "", "volumes:", "  pgdata:"]
    elif kind == 1:
        pw = S(human_password(r, "!@%^*_-.+"))
        lines += ["  mariadb:", "    image: mariadb:11.4", "    container_name: nextcloud-db", "    restart: always",
                  "    command: --transaction-isolation=READ-COMMITTED --log-bin=binlog --binlog-format=ROW",
                  "    environment:", f'      - MYSQL_ROOT_PASSWORD={pw}', "      - MYSQL_DATABASE=nextcloud",
                  "      - MYSQL_USER=nextcloud", "      - MYSQL_PASSWORD_FILE=/run/secrets/nc_db",
                  "    volumes:", "      - ./db:/var/lib/mysql", "",
                  "  nextcloud:", "    image: nextcloud:30-apache", "    restart: always", "    ports:", '      - "8081:80"',
                  "    volumes:", "      - ./html:/var/www/html", "    environment:", "      - MYSQL_HOST=mariadb",
                  "      - MYSQL_DATABASE=nextcloud", "      - MYSQL_USER=nextcloud", "    depends_on:", "      - mariadb"]
    else:
        pw = S(human_password(r, "!@%^*_-.+"))
        lines += ["  rabbitmq:", "    image: rabbitmq:4.0-management", "    hostname: rabbit", "    environment:",
                  "      RABBITMQ_DEFAULT_USER: admin", f'      RABBITMQ_DEFAULT_PASS: "{pw}"',
                  "    ports:", '      - "5672:5672"', '      - "15672:15672"', "",
                  "  worker:", f"    build: ./{svc}-worker", "    environment:", "      AMQP_HOST: rabbitmq",
                  "      AMQP_USER: admin", "      AMQP_PASSWORD: ${AMQP_PASSWORD:?set in .env}",
                  "    deploy:", f"      replicas: {r.randrange(1, 5)}", "    depends_on: [rabbitmq]"]
    return "password", "yml", pw, J(lines)


@pos("docker-config-json")
def p_docker_config(r):
    c = company(r)
    user = r.choice([f"{c}-ci", username(r), "robot$" + c + "+ci", "admin"])
    pw = S(human_password(r, PLAIN_SYMS))
    value = f"{user}:{pw}"
    reg = r.choice([f"harbor.{domain(r, c)}", f"registry.{domain(r, c)}", f"nexus.{domain(r, c)}:8443", f"{c}.jfrog.io"])
    acct = r.randrange(10 ** 11, 10 ** 12)
    lines = ["{", '\t"auths": {', f'\t\t"{reg}": {{', f'\t\t\t"auth": "{b64(value.encode())}"', "\t\t},",
             '\t\t"ghcr.io": {}', "\t},",
             '\t"credHelpers": {', f'\t\t"{acct}.dkr.ecr.{r.choice(AWS_REGIONS)}.amazonaws.com": "ecr-login",',
             f'\t\t"{r.choice(GCP_REGIONS)}-docker.pkg.dev": "gcloud"', "\t},",
             '\t"currentContext": "desktop-linux",',
             '\t"plugins": {', '\t\t"-x-cli-hints": {', '\t\t\t"enabled": "true"', "\t\t}", "\t}", "}"]
    return "registry-basic-auth", "json", value, J(lines)


@pos("kubeconfig-sa-token")
def p_kubeconfig(r):
    c = company(r)
    ns = r.choice(["ci", "kube-system", "deploy", "argocd", "gitlab-runner"])
    san = r.choice(["deployer", "ci-bot", "github-actions", "readonly-dashboard"])
    iat = int(when(r).timestamp())
    tok = S(jwt_rs256(r, {"alg": "RS256", "kid": b64u(rbytes(r, 32))},
                      {"aud": ["https://kubernetes.default.svc.cluster.local"], "exp": iat + 31536000, "iat": iat,
                       "iss": "https://kubernetes.default.svc.cluster.local",
                       "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": san, "uid": ruuid(r)}},
                       "nbf": iat, "sub": f"system:serviceaccount:{ns}:{san}"}))
    cname = f"{c}-{r.choice(ENVS)}"
    ca = b64(pem("CERTIFICATE", cert_der(r, "kubernetes", "kubernetes")).encode() + b"\n")
    lines = ["apiVersion: v1", "clusters:", "- cluster:",
             f"    certificate-authority-data: {ca}",
             f"    server: https://{rhex(r, 32).upper()}.gr7.{r.choice(AWS_REGIONS)}.eks.amazonaws.com" if r.random() < 0.5
             else f"    server: https://{priv_ip(r)}:6443",
             f"  name: {cname}", "contexts:", "- context:", f"    cluster: {cname}", f"    namespace: {ns}",
             f"    user: {san}", f"  name: {cname}", f"current-context: {cname}", "kind: Config", "preferences: {}",
             "users:", f"- name: {san}", "  user:", f"    token: {tok}"]
    return "k8s-service-account-token", "yaml", tok, J(lines)


# ---- IaC --------------------------------------------------------------------
@pos("terraform-tfvars")
def p_tfvars(r):
    tok = S(cloudflare_token(r))
    c = company(r)
    env = r.choice(ENVS)
    lines = [f'# {env}.tfvars — applied by hand from my laptop until the pipeline is fixed',
             f'project        = "{c}"',
             f'environment    = "{env}"',
             f'region         = "{r.choice(AWS_REGIONS)}"', "",
             f'cloudflare_api_token  = "{tok}"',
             f'cloudflare_account_id = "{rhex(r, 32)}"',
             f'cloudflare_zone_id    = "{rhex(r, 32)}"',
             f'domain_name           = "{domain(r, c)}"', "",
             "vpc_cidr        = \"10.%d.0.0/16\"" % r.randrange(0, 255),
             f"az_count        = {r.choice([2, 3])}",
             f'instance_type   = "{r.choice(["t3.medium", "m7i.large", "c7g.xlarge", "t4g.small"])}"',
             f"desired_count   = {r.randrange(1, 6)}",
             "enable_waf      = true", "",
             "tags = {",
             f'  Owner      = "{email(r)}"',
             f'  CostCenter = "{r.randrange(1000, 9999)}"',
             '  ManagedBy  = "terraform"', "}"]
    return "cloudflare-api-token", "tfvars", tok, J(lines)


@pos("terraform-tfstate")
def p_tfstate(r):
    c = company(r)
    svc = r.choice(SERVICES)
    pw = S(rs(r, ALNUM, r.randrange(8, 14)) + r.choice("!#$%&*()-_=+[]{}<>:?") + rs(r, ALNUM + "!#$%&*()-_=+[]{}<>:?", r.randrange(8, 16)))
    reg = r.choice(AWS_REGIONS)
    acct = r.randrange(10 ** 11, 10 ** 12)
    ident = f"{svc}-{r.choice(ENVS)}"
    attrs = {"allocated_storage": r.choice([20, 50, 100]), "arn": f"arn:aws:rds:{reg}:{acct}:db:{ident}",
             "db_name": svc, "endpoint": f"{ident}.{rs(r, LOW + DIG, 12)}.{reg}.rds.amazonaws.com:5432",
             "engine": "postgres", "engine_version": "16.6", "identifier": ident,
             "instance_class": r.choice(["db.t4g.medium", "db.r7g.large", "db.m7g.large"]),
             "multi_az": r.random() < 0.5, "password": pw, "port": 5432,
             "resource_id": "db-" + rs(r, B32U, 26), "username": f"{svc}_admin",
             "vpc_security_group_ids": ["sg-" + rhex(r, 17)]}
    state = {"version": 4, "terraform_version": f"1.{r.randrange(9, 12)}.{r.randrange(0, 5)}", "serial": r.randrange(3, 400),
             "lineage": ruuid(r), "outputs": {"db_endpoint": {"value": attrs["endpoint"], "type": "string"}},
             "resources": [{"mode": "managed", "type": "aws_db_instance", "name": "main",
                            "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
                            "instances": [{"schema_version": 2, "attributes": attrs,
                                           "sensitive_attributes": [[{"type": "get_attr", "value": "password"}]]}]}],
             "check_results": None}
    return "generated-password", "tfstate", pw, json.dumps(state, indent=2) + "\n"


@pos("pulumi-stack-config")
def p_pulumi(r):
    key = S(datadog_key(r))
    c = company(r)
    lines = [f"encryptionsalt: v1:{b64(rbytes(r, 8))}:v1:{b64(rbytes(r, 12))}:{b64(rbytes(r, 32))}",
             "config:",
             f"  aws:region: {r.choice(AWS_REGIONS)}",
             f"  {c}:environment: {r.choice(ENVS)}",
             f"  {c}:clusterVersion: \"1.{r.randrange(30, 34)}\"",
             f"  {c}:nodeCount: \"{r.randrange(2, 9)}\"",
             f"  datadog:site: {r.choice(['datadoghq.com', 'datadoghq.eu', 'us5.datadoghq.com'])}",
             f"  datadog:apiKey: {key}",
             f"  {c}:dbPassword:",
             f"    secure: v1:{b64(rbytes(r, 12))}:{b64(rbytes(r, r.randrange(30, 48)))}",
             f"  {c}:tags:",
             f"    team: {r.choice(['platform', 'sre', 'data', 'payments'])}",
             f"    costCenter: \"{r.randrange(1000, 9999)}\""]
    return "datadog-api-key", "yaml", key, J(lines)


@pos("cloudformation-rds")
def p_cfn(r):
    pw = S(human_password(r, "!#$%^&*_-.+="))
    svc = r.choice(SERVICES)
    lines = ["AWSTemplateFormatVersion: '2010-09-09'",
             f"Description: {svc} database (Aurora PostgreSQL)", "",
             "Parameters:", "  Environment:", "    Type: String", f"    Default: {r.choice(ENVS)}",
             "  DBUsername:", "    Type: String", f"    Default: {svc}admin",
             "  DBPassword:", "    Type: String", "    NoEcho: true", f"    Default: '{pw}'",
             "    MinLength: 8", "", "Resources:", "  DBSubnetGroup:", "    Type: AWS::RDS::DBSubnetGroup",
             "    Properties:", f"      DBSubnetGroupDescription: {svc} private subnets",
             "      SubnetIds: !Split [',', !ImportValue network-PrivateSubnetIds]", "",
             "  DBCluster:", "    Type: AWS::RDS::DBCluster", "    DeletionPolicy: Snapshot", "    Properties:",
             "      Engine: aurora-postgresql", "      EngineVersion: '16.6'",
             "      MasterUsername: !Ref DBUsername", "      MasterUserPassword: !Ref DBPassword",
             "      DBSubnetGroupName: !Ref DBSubnetGroup", "      StorageEncrypted: true",
             "      BackupRetentionPeriod: 7", "      ServerlessV2ScalingConfiguration:",
             "        MinCapacity: 0.5", f"        MaxCapacity: {r.choice([4, 8, 16])}", "",
             "  DBInstance1:", "    Type: AWS::RDS::DBInstance", "    Properties:",
             "      DBClusterIdentifier: !Ref DBCluster", "      DBInstanceClass: db.serverless",
             "      Engine: aurora-postgresql", "", "Outputs:", "  Endpoint:",
             "    Value: !GetAtt DBCluster.Endpoint.Address", "    Export:",
             f"      Name: !Sub '${{AWS::StackName}}-{svc}-db-endpoint'"]
    return "password", "yaml", pw, J(lines)


@pos("helm-alertmanager-values")
def p_helm(r):
    url = S(slack_webhook(r))
    c = company(r)
    ch = r.choice(["#alerts-prod", "#ops-alerts", "#sre-pager", "#platform-alerts"])
    lines = ["# kube-prometheus-stack values (prod)", "grafana:", "  enabled: true",
             "  admin:", "    existingSecret: grafana-admin", "    userKey: admin-user", "    passwordKey: admin-password",
             "  ingress:", "    enabled: true", f"    hosts: [grafana.{domain(r, c)}]", "",
             "prometheus:", "  prometheusSpec:", f"    retention: {r.choice(['15d', '30d', '7d'])}",
             "    storageSpec:", "      volumeClaimTemplate:", "        spec:",
             "          resources:", f"            requests: {{storage: {r.choice([50, 100, 200])}Gi}}", "",
             "alertmanager:", "  config:", "    global:", "      resolve_timeout: 5m",
             f"      slack_api_url: '{url}'",
             "    route:", "      receiver: slack", "      group_by: [alertname, namespace]",
             "      group_wait: 30s", "      repeat_interval: 4h", "      routes:",
             "        - matchers: [alertname = Watchdog]", "          receiver: 'null'",
             "    receivers:", "      - name: 'null'", "      - name: slack", "        slack_configs:",
             f"          - channel: '{ch}'", "            send_resolved: true",
             "            title: '{{ .CommonLabels.alertname }} ({{ .Status }})'",
             "            text: '{{ range .Alerts }}{{ .Annotations.summary }}\\n{{ end }}'"]
    return "slack-webhook-url", "yaml", url, J(lines)


# ---- application configs ----------------------------------------------------
@pos("rails-credentials-show")
def p_rails(r):
    kb = S(rhex(r, 128))
    pr = prompt(r, path="~/src/" + r.choice(SERVICES))
    lines = [pr + "EDITOR=cat bin/rails credentials:show" if r.random() < 0.5 else pr + "bin/rails credentials:show",
             "# aws:", "#   access_key_id: 123", "#   secret_access_key: 345", "",
             "# Used as the base secret for all MessageVerifiers in Rails, including the one protecting cookies.",
             f"secret_key_base: {kb}"]
    if r.random() < 0.6:
        lines += ["", "sentry:", f"  environment: {r.choice(ENVS)}", f"  traces_sample_rate: 0.{r.randrange(1, 5)}",
                  "smtp:", f"  address: smtp.{r.choice(['postmarkapp.com', 'mailgun.org', 'sendgrid.net'])}", "  port: 587"]
    lines.append(pr)
    return "rails-secret-key-base", "txt", kb, J(lines)


@pos("django-settings")
def p_django(r):
    key = S(django_key(r))
    proj = r.choice(["mysite", "core", "config", "backend", r.choice(SERVICES)])
    lines = ['"""', f"Django settings for {proj} project.", "",
             f"Generated by 'django-admin startproject' using Django 5.{r.randrange(0, 3)}.{r.randrange(1, 6)}.", '"""', "",
             "import os", "from pathlib import Path", "",
             "# Build paths inside the project like this: BASE_DIR / 'subdir'.",
             "BASE_DIR = Path(__file__).resolve().parent.parent", "",
             "# SECURITY WARNING: keep the secret key used in production secret!",
             f"SECRET_KEY = '{key}'", "",
             "# SECURITY WARNING: don't run with debug turned on in production!",
             'DEBUG = os.environ.get("DJANGO_DEBUG", "0") == "1"', "",
             f'ALLOWED_HOSTS = ["{domain(r)}", "localhost", "127.0.0.1"]', "",
             "INSTALLED_APPS = [", '    "django.contrib.admin",', '    "django.contrib.auth",',
             '    "django.contrib.contenttypes",', '    "django.contrib.sessions",', '    "django.contrib.messages",',
             '    "django.contrib.staticfiles",', '    "rest_framework",', f'    "{proj}.apps.{proj.capitalize()}Config",', "]", "",
             "DATABASES = {", '    "default": {', '        "ENGINE": "django.db.backends.postgresql",',
             '        "NAME": os.environ.get("POSTGRES_DB", "app"),', '        "USER": os.environ.get("POSTGRES_USER", "app"),',
             '        "PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),', '        "HOST": os.environ.get("POSTGRES_HOST", "localhost"),',
             '        "PORT": 5432,', "    }", "}", "",
             f'ROOT_URLCONF = "{proj}.urls"', f'WSGI_APPLICATION = "{proj}.wsgi.application"',
             'LANGUAGE_CODE = "en-us"', f'TIME_ZONE = "{r.choice(["UTC", "Europe/Amsterdam", "America/New_York"])}"',
             "USE_TZ = True", 'STATIC_URL = "static/"', 'DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"']
    return "django-secret-key", "py", key, J(lines)


@pos("spring-application-properties")
def p_spring(r):
    pw = S(human_password(r, PROP_SYMS))
    c = company(r)
    svc = r.choice(SERVICES)
    db = r.choice(["postgresql", "mysql", "mariadb"])
    port = {"postgresql": 5432, "mysql": 3306, "mariadb": 3306}[db]
    lines = [f"spring.application.name={svc}-service", "server.port=8080", "server.shutdown=graceful", "",
             "# --- datasource ---",
             f"spring.datasource.url=jdbc:{db}://{svc}-db.{c}.internal:{port}/{svc}",
             f"spring.datasource.username={svc}_svc",
             f"spring.datasource.password={pw}",
             "spring.datasource.hikari.maximum-pool-size=20",
             "spring.jpa.hibernate.ddl-auto=validate",
             "spring.jpa.open-in-view=false",
             "spring.flyway.enabled=true", "",
             "# --- messaging ---",
             f"spring.kafka.bootstrap-servers=kafka-0.{c}.internal:9092,kafka-1.{c}.internal:9092",
             f"spring.kafka.consumer.group-id={svc}-consumers", "",
             "management.endpoints.web.exposure.include=health,info,prometheus",
             "management.endpoint.health.probes.enabled=true",
             f"logging.level.com.{c.replace('-', '')}={r.choice(['DEBUG', 'INFO'])}",
             "logging.level.org.hibernate.SQL=WARN"]
    return "password", "properties", pw, J(lines)


@pos("dotnet-appsettings")
def p_dotnet(r):
    pw = S(human_password(r, "!@#$%^&*?_-.+"))
    c = company(r)
    svc = r.choice(SERVICES).capitalize()
    user = r.choice(["sa", f"{svc.lower()}_app", "sqladmin", "appuser"])
    if r.random() < 0.5:
        cs = (f"Server=tcp:{c}-sql.database.windows.net,1433;Initial Catalog={svc}Db;Persist Security Info=False;"
              f"User ID={user};Password={pw};MultipleActiveResultSets=False;Encrypt=True;TrustServerCertificate=False;Connection Timeout=30;")
    else:
        cs = f"Server={priv_ip(r)},1433;Database={svc};User Id={user};Password={pw};TrustServerCertificate=True"
    d = {"Logging": {"LogLevel": {"Default": "Information", "Microsoft.AspNetCore": "Warning",
                                  "Microsoft.EntityFrameworkCore.Database.Command": "Warning"}},
         "AllowedHosts": "*",
         "ConnectionStrings": {"DefaultConnection": cs, "Redis": f"{c}-cache.redis.cache.windows.net:6380,ssl=True,abortConnect=False"},
         "Authentication": {"Authority": f"https://login.microsoftonline.com/{ruuid(r)}/v2.0", "Audience": f"api://{ruuid(r)}"},
         "FeatureManagement": {"NewCheckout": r.random() < 0.5, "BetaReports": False},
         "Serilog": {"MinimumLevel": "Information", "WriteTo": [{"Name": "Console"}]}}
    return "password", "json", pw, json.dumps(d, indent=2) + "\n"


@pos("laravel-env")
def p_laravel(r):
    key = S("base64:" + b64(rbytes(r, 32)))
    c = company(r)
    name = c.replace("-", " ").title().replace(" ", "")
    lines = [f"APP_NAME={name}", f"APP_ENV={r.choice(['production', 'local', 'staging'])}", f"APP_KEY={key}",
             "APP_DEBUG=false", f"APP_TIMEZONE=UTC", f"APP_URL=https://{domain(r, c)}", "",
             "APP_LOCALE=en", "APP_FALLBACK_LOCALE=en", "APP_FAKER_LOCALE=en_US", "", "APP_MAINTENANCE_DRIVER=file",
             "BCRYPT_ROUNDS=12", "", "LOG_CHANNEL=stack", "LOG_STACK=single", "LOG_LEVEL=debug", "",
             "DB_CONNECTION=mysql", "DB_HOST=127.0.0.1", "DB_PORT=3306", f"DB_DATABASE={c.replace('-', '_')}",
             "DB_USERNAME=forge", "DB_PASSWORD=", "", "SESSION_DRIVER=database", "SESSION_LIFETIME=120",
             "SESSION_ENCRYPT=false", "", "BROADCAST_CONNECTION=log", "FILESYSTEM_DISK=local", "QUEUE_CONNECTION=database", "",
             "CACHE_STORE=database", "", "REDIS_CLIENT=phpredis", "REDIS_HOST=127.0.0.1", "REDIS_PASSWORD=null",
             "REDIS_PORT=6379", "", "MAIL_MAILER=log", "MAIL_HOST=127.0.0.1", "MAIL_PORT=2525", "MAIL_USERNAME=null",
             "MAIL_PASSWORD=null", f'MAIL_FROM_ADDRESS="hello@{domain(r, c)}"', 'MAIL_FROM_NAME="${APP_NAME}"', "",
             "AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY=", "AWS_DEFAULT_REGION=us-east-1", "AWS_BUCKET=",
             "AWS_USE_PATH_STYLE_ENDPOINT=false", "", 'VITE_APP_NAME="${APP_NAME}"']
    return "laravel-app-key", "env", key, J(lines)


@pos("node-config-js")
def p_node_config(r):
    key = S(stripe_secret(r))
    c = company(r)
    lines = ["'use strict';", "", "// config/production.js", "module.exports = {",
             "  port: Number(process.env.PORT) || 3000,", "  trustProxy: true,", "  db: {",
             f"    host: process.env.PGHOST || '{c}-pg.internal',", "    database: 'shop',",
             "    user: process.env.PGUSER,", "    password: process.env.PGPASSWORD,", "    pool: { min: 2, max: 10 },",
             "  },", "  stripe: {", f"    secretKey: '{key}',",
             "    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,", "    apiVersion: '2025-03-31.basil',", "  },",
             "  session: {", "    name: 'sid',", "    secret: process.env.SESSION_SECRET,",
             "    cookie: { secure: true, sameSite: 'lax', maxAge: 1000 * 60 * 60 * 24 * 7 },", "  },",
             "  cors: {", f"    origin: ['https://{domain(r, c)}', 'https://admin.{domain(r, c)}'],", "  },",
             "  logLevel: 'info',", "};"]
    return "stripe-secret-key", "js", key, J(lines)


@pos("go-sendgrid-source")
def p_go(r):
    key = S(sendgrid_key(r))
    c = company(r)
    f, l = person(r)
    lines = ["package mailer", "", "import (", '\t"context"', '\t"fmt"', '\t"log/slog"', "",
             '\t"github.com/sendgrid/sendgrid-go"', '\t"github.com/sendgrid/sendgrid-go/helpers/mail"', ")", "",
             "// TODO(%s): move to Secret Manager before launch" % f.lower(),
             f'const sendgridAPIKey = "{key}"', "",
             f'const fromAddress = "no-reply@{domain(r, c)}"', "",
             "type Mailer struct {", "\tlog *slog.Logger", "}", "",
             "func (m *Mailer) SendWelcome(ctx context.Context, to, name string) error {",
             f'\tfrom := mail.NewEmail("{c.title()}", fromAddress)',
             "\trecipient := mail.NewEmail(name, to)",
             '\tmsg := mail.NewSingleEmail(from, "Welcome aboard", recipient, "Thanks for signing up!", "")',
             "\tclient := sendgrid.NewSendClient(sendgridAPIKey)",
             "\tresp, err := client.SendWithContext(ctx, msg)", "\tif err != nil {",
             '\t\treturn fmt.Errorf("sendgrid: %w", err)', "\t}", "\tif resp.StatusCode >= 300 {",
             '\t\tm.log.Warn("sendgrid rejected message", "status", resp.StatusCode, "body", resp.Body)',
             '\t\treturn fmt.Errorf("sendgrid: status %d", resp.StatusCode)', "\t}", "\treturn nil", "}"]
    return "sendgrid-api-key", "go", key, J(lines)


@pos("wp-config-php")
def p_wp(r):
    pw = S(human_password(r, "!@#$%^&*?_-.+="))
    c = company(r)
    lines = ["<?php", "/**", " * The base configuration for WordPress", " *", " * @package WordPress", " */", "",
             "// ** Database settings - You can get this info from your web host ** //",
             "/** The name of the database for WordPress */", f"define( 'DB_NAME', 'wp_{c.replace('-', '')}' );", "",
             "/** Database username */", f"define( 'DB_USER', '{c.replace('-', '')[:8]}_wp' );", "",
             "/** Database password */", f"define( 'DB_PASSWORD', '{pw}' );", "",
             "/** Database hostname */", f"define( 'DB_HOST', '{r.choice(['localhost', '127.0.0.1:3306', 'mysql.' + domain(r, c)])}' );", "",
             "/** Database charset to use in creating database tables. */", "define( 'DB_CHARSET', 'utf8mb4' );", "",
             "/** The database collate type. Don't change this if in doubt. */", "define( 'DB_COLLATE', '' );", "",
             "/**#@+", " * Authentication unique keys and salts.", " */",
             "define( 'AUTH_KEY',         'put your unique phrase here' );",
             "define( 'SECURE_AUTH_KEY',  'put your unique phrase here' );",
             "define( 'LOGGED_IN_KEY',    'put your unique phrase here' );",
             "define( 'NONCE_KEY',        'put your unique phrase here' );",
             "/**#@-*/", "", f"$table_prefix = '{r.choice(['wp_', 'wp_', 'wp' + rs(r, LOW, 3) + '_'])}';", "",
             "define( 'WP_DEBUG', false );", "",
             "/* That's all, stop editing! Happy publishing. */", "",
             "/** Absolute path to the WordPress directory. */", "if ( ! defined( 'ABSPATH' ) ) {",
             "\tdefine( 'ABSPATH', __DIR__ . '/' );", "}", "", "/** Sets up WordPress vars and included files. */",
             "require_once ABSPATH . 'wp-settings.php';"]
    return "password", "php", pw, J(lines)


@pos("azure-functions-settings")
def p_azfunc(r):
    key = S(azure_storage_key(r))
    c = company(r)
    acct = (c.replace("-", "") + rs(r, LOW + DIG, 4))[:24]
    reg = r.choice(AZ_REGIONS)
    d = {"IsEncrypted": False,
         "Values": {"AzureWebJobsStorage": f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net",
                    "FUNCTIONS_WORKER_RUNTIME": r.choice(["dotnet-isolated", "node", "python"]),
                    "APPLICATIONINSIGHTS_CONNECTION_STRING": f"InstrumentationKey={ruuid(r)};IngestionEndpoint=https://{reg}-5.in.applicationinsights.azure.com/;LiveEndpoint=https://{reg}.livediagnostics.monitor.azure.com/;ApplicationId={ruuid(r)}",
                    "QueueName": f"{r.choice(SERVICES)}-events",
                    "CosmosDbEndpoint": f"https://{c}-cosmos.documents.azure.com:443/",
                    "KeyVaultUri": f"https://kv-{c}-{r.choice(ENVS)}.vault.azure.net/"},
         "Host": {"LocalHttpPort": 7071, "CORS": "*"}}
    return "azure-storage-account-key", "json", key, json.dumps(d, indent=2) + "\n"


# ---- package-manager auth ---------------------------------------------------
@pos("npmrc")
def p_npmrc(r):
    tok = S(npm_token(r))
    c = company(r)
    lines = ["registry=https://registry.npmjs.org/",
             f"@{c}:registry=https://npm.pkg.github.com",
             "//npm.pkg.github.com/:_authToken=${GITHUB_TOKEN}",
             f"//registry.npmjs.org/:_authToken={tok}",
             "save-exact=true", "engine-strict=true", "fund=false", "audit-level=high"]
    if r.random() < 0.5:
        lines = [prompt(r) + "cat ~/.npmrc"] + lines + [prompt(r) + "npm whoami", f"{c}-bot"]
    return "npm-token", "npmrc", tok, J(lines)


@pos("pypirc")
def p_pypirc(r):
    proj = r.choice(["fastcsv", "tinyhttp", "pyquarry", "lumen-sdk", "harborctl", "mosaic-utils", "fjord"]) + r.choice(["", "-core", "2"])
    tok = S(pypi_token(r, proj if r.random() < 0.5 else None))
    lines = ["[distutils]", "index-servers =", "    pypi", "    testpypi", "", "[pypi]", "username = __token__",
             f"password = {tok}", "", "[testpypi]", "repository = https://test.pypi.org/legacy/", "username = __token__"]
    return "pypi-token", "pypirc", tok, J(lines)


@pos("pip-conf")
def p_pipconf(r):
    c = company(r)
    pw = S(human_password(r, URL_SYMS))
    user = r.choice(["ci", "build", username(r), f"{c}-reader"])
    host = r.choice([f"nexus.{domain(r, c)}", f"{c}.jfrog.io", f"pypi.{c}.internal"])
    path = {True: "/repository/pypi-group/simple", False: "/artifactory/api/pypi/pypi-virtual/simple"}["nexus" in host or "internal" in host]
    lines = ["[global]", f"index-url = https://{user}:{pw}@{host}{path}",
             "extra-index-url = https://pypi.org/simple", f"trusted-host = {host}", "timeout = 60",
             "disable-pip-version-check = true", "", "[install]", "prefer-binary = true"]
    if r.random() < 0.5:
        lines = [prompt(r) + "pip config debug", "env_var:", "env:", "global:",
                 "  /etc/xdg/pip/pip.conf, exists: False", "  /etc/pip.conf, exists: True"] + \
                ["    global.index-url: " + lines[1].split(" = ", 1)[1], "    global.extra-index-url: https://pypi.org/simple",
                 f"    global.trusted-host: {host}", "site:", "  /usr/lib/python3.12/pip.conf, exists: False",
                 "user:", "  /home/dev/.pip/pip.conf, exists: False", "  /home/dev/.config/pip/pip.conf, exists: False"]
    return "password", "conf", pw, J(lines)


@pos("nuget-config")
def p_nuget(r):
    pat = S(ado_pat(r))
    c = company(r)
    feed = r.choice(["internal", "shared", "packages", c])
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<configuration>", "  <packageSources>", "    <clear />",
             '    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" protocolVersion="3" />',
             f'    <add key="{c}-{feed}" value="https://pkgs.dev.azure.com/{c}/_packaging/{feed}/nuget/v3/index.json" />',
             "  </packageSources>", "  <packageSourceMapping>", '    <packageSource key="nuget.org">',
             '      <package pattern="*" />', "    </packageSource>", f'    <packageSource key="{c}-{feed}">',
             f'      <package pattern="{c.title().replace("-", "")}.*" />', "    </packageSource>", "  </packageSourceMapping>",
             "  <packageSourceCredentials>", f"    <{c}-{feed}>", f'      <add key="Username" value="{email(r, dom=domain(r, c))}" />',
             f'      <add key="ClearTextPassword" value="{pat}" />', f"    </{c}-{feed}>", "  </packageSourceCredentials>",
             "</configuration>"]
    return "azure-devops-pat", "config", pat, J(lines)


@pos("maven-settings-xml")
def p_maven(r):
    pw = S(human_password(r, XML_SYMS))
    c = company(r)
    user = r.choice(["deployment", "admin", f"{c}-ci", username(r)])
    host = f"nexus.{domain(r, c)}"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0"',
             '          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
             '          xsi:schemaLocation="http://maven.apache.org/SETTINGS/1.2.0 https://maven.apache.org/xsd/settings-1.2.0.xsd">',
             "  <servers>", "    <server>", f"      <id>{c}-releases</id>", f"      <username>{user}</username>",
             f"      <password>{pw}</password>", "    </server>", "    <server>", f"      <id>{c}-snapshots</id>",
             "      <username>${env.MAVEN_USERNAME}</username>", "      <password>${env.MAVEN_PASSWORD}</password>",
             "    </server>", "  </servers>", "  <mirrors>", "    <mirror>", f"      <id>{c}-central</id>",
             "      <mirrorOf>central</mirrorOf>", f"      <url>https://{host}/repository/maven-public/</url>", "    </mirror>",
             "  </mirrors>", "  <profiles>", "    <profile>", "      <id>release</id>", "      <properties>",
             f"        <altReleaseDeploymentRepository>{c}-releases::https://{host}/repository/maven-releases/</altReleaseDeploymentRepository>",
             "      </properties>", "    </profile>", "  </profiles>", "</settings>"]
    return "password", "xml", pw, J(lines)


@pos("gradle-properties")
def p_gradle(r):
    tok = S(gh_fine_grained(r))
    lines = ["# Project-wide Gradle settings.", "org.gradle.jvmargs=-Xmx4g -Dfile.encoding=UTF-8",
             "org.gradle.parallel=true", "org.gradle.caching=true", "org.gradle.configuration-cache=true",
             "android.useAndroidX=true", "android.nonTransitiveRClass=true", "kotlin.code.style=official", "",
             "# GitHub Packages (read:packages)", f"gpr.user={username(r)}", f"gpr.key={tok}"]
    if r.random() < 0.5:
        lines = [prompt(r) + "cat ~/.gradle/gradle.properties"] + lines
    return "github-fine-grained-pat", "properties", tok, J(lines)


@pos("cargo-credentials")
def p_cargo(r):
    tok = S(crates_token(r))
    crate = r.choice(["fjord", "tinyhttp", "quarry-rs", "lumen", "saltmarsh-cli", "pinecrest"])
    pr = prompt(r, path="~/src/" + crate)
    lines = [pr + "cargo login", "please paste the token found on https://crates.io/me below",
             "       Login token for `crates-io` saved", pr + "cat ~/.cargo/credentials.toml",
             "[registry]", f'token = "{tok}"', pr + "cargo publish --dry-run",
             f"    Updating crates.io index", f"   Packaging {crate} v0.{r.randrange(1, 9)}.{r.randrange(0, 9)} (/home/dev/src/{crate})",
             f"    Verifying {crate}", f"   Compiling {crate} v0.{r.randrange(1, 9)}.0", f"    Finished `dev` profile [unoptimized + debuginfo] target(s) in {r.uniform(3, 40):.2f}s",
             f"    Uploading {crate}", "warning: aborting upload due to dry run"]
    return "crates-io-token", "txt", tok, J(lines)


@pos("composer-auth-json")
def p_composer(r):
    tok = S(gh_token(r, "gho_"))
    d = {"bitbucket-oauth": {}, "github-oauth": {"github.com": tok}, "gitlab-oauth": {}, "gitlab-token": {},
         "http-basic": {}, "bearer": {}}
    text = json.dumps(d, indent=4)
    if r.random() < 0.5:
        text = prompt(r) + "cat ~/.config/composer/auth.json\n" + text
    return "github-oauth-token", "json", tok, text + "\n"


# ---- DB clients / traces ----------------------------------------------------
@pos("pgpass-session")
def p_pgpass(r):
    pw = S(human_password(r, "!@#$%^&*?_-.+="))
    c = company(r)
    svc = r.choice(SERVICES)
    host = r.choice([f"{svc}-db.{c}.internal", priv_ip(r), f"pg-{r.choice(ENVS)}.{c}.lan"])
    user = r.choice([f"{svc}_ro", "postgres", username(r), "reporting"])
    pr = prompt(r)
    lines = [pr + "cat ~/.pgpass", "# hostname:port:database:username:password",
             f"{host}:5432:{svc}:{user}:{pw}", pr + "ls -l ~/.pgpass",
             f"-rw-r--r-- 1 dev dev {r.randrange(60, 120)} {when(r).strftime('%b %d %H:%M')} /home/dev/.pgpass",
             pr + f"psql -h {host} -U {user} {svc}",
             "WARNING: password file \"/home/dev/.pgpass\" has group or world access; permissions should be u=rw (0600) or less",
             f"psql: error: connection to server at \"{host}\" ({priv_ip(r)}), port 5432 failed: FATAL:  password authentication failed for user \"{user}\"",
             pr + "chmod 600 ~/.pgpass"]
    return "password", "txt", pw, J(lines)


@pos("node-mongo-stacktrace")
def p_node_trace(r):
    c = company(r)
    pw = S(human_password(r, URL_SYMS))
    user = r.choice(["svc-api", "app", f"{c}-backend", "admin"])
    if r.random() < 0.6:
        cl = f"cluster{r.randrange(0, 3)}.{rs(r, LOW + DIG, 5)}.mongodb.net"
        uri = f"mongodb+srv://{user}:{pw}@{cl}/{r.choice(SERVICES)}?retryWrites=true&w=majority&appName=Cluster0"
        err = ["MongoServerSelectionError: connect ETIMEDOUT " + priv_ip(r) + ":27017",
               "    at Topology.selectServer (/app/node_modules/mongodb/lib/sdam/topology.js:321:38)",
               "    at async Topology._connect (/app/node_modules/mongodb/lib/sdam/topology.js:200:28)",
               "    at async Topology.connect (/app/node_modules/mongodb/lib/sdam/topology.js:152:13)",
               "    at async topologyConnect (/app/node_modules/mongodb/lib/mongo_client.js:258:17)",
               "    at async MongoClient._connect (/app/node_modules/mongodb/lib/mongo_client.js:271:13)",
               "    at async MongoClient.connect (/app/node_modules/mongodb/lib/mongo_client.js:196:13)",
               "    at async bootstrap (/app/dist/main.js:41:5) {",
               "  errorLabelSet: Set(0) {},",
               "  reason: TopologyDescription {",
               "    type: 'ReplicaSetNoPrimary',",
               f"    setName: 'atlas-{rs(r, LOW + DIG, 6)}-shard-0',",
               "    maxSetVersion: null,", "    maxElectionId: null,", "    stale: false,",
               "    compatible: true,", "    heartbeatFrequencyMS: 10000,", "    localThresholdMS: 15,", "  },",
               "  code: undefined", "}"]
        key = "mongoUri"
    else:
        uri = f"redis://default:{pw}@redis-{r.randrange(10000, 19999)}.c{r.randrange(1, 300)}.{r.choice(AWS_REGIONS)}-1.ec2.redns.redis-cloud.com:{r.randrange(10000, 19999)}"
        err = ["[ioredis] Unhandled error event: Error: getaddrinfo ENOTFOUND redis-cache",
               "    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:120:26)",
               "ReplyError: WRONGPASS invalid username-password pair or user is disabled.",
               "    at parseError (/app/node_modules/redis-parser/lib/parser.js:179:12)",
               "    at parseType (/app/node_modules/redis-parser/lib/parser.js:302:14) {",
               "  command: { name: 'auth', args: [ 'default', '<redacted>' ] }", "}"]
        key = "redisUrl"
    t = when(r)
    lines = [f"{iso(t, True)} info: Starting {r.choice(SERVICES)}-api v{r.randrange(1, 5)}.{r.randrange(0, 30)}.{r.randrange(0, 9)} (node v22.{r.randrange(10, 20)}.0)",
             f"{iso(t, True)} debug: Loaded config from /app/config/production.json",
             f"{iso(t, True)} debug: config = {{ port: 8080, {key}: '{uri}', logLevel: 'debug', featureFlags: {{ newCheckout: true }} }}",
             f"{iso(t + _dt.timedelta(seconds=30), True)} error: Failed to connect, exiting"] + err + \
            ["", "Node.js v22.%d.0" % r.randrange(10, 20)]
    return "password", "log", pw, J(lines)


# ---- chat, tickets, email, notebooks ---------------------------------------
@pos("slack-thread-paste")
def p_slack(r):
    tok = S(slack_bot(r))
    (f1, l1), (f2, l2) = person(r), person(r)
    h = r.randrange(8, 18)
    m = r.randrange(0, 50)
    h24 = r.random() < 0.4

    def hm(mm):
        if h24:
            return f"{h}:{mm:02d}"
        return f"{h if h <= 12 else h - 12}:{mm:02d} {'AM' if h < 12 else 'PM'}"
    lines = [f"{f1} {l1}  {hm(m)}",
             r.choice(["the deploy bot stopped posting to #releases since yesterday, anyone touched it?",
                       "is the standup bot broken again? nothing in #eng-standup today",
                       "our alert relay keeps getting invalid_auth from slack"]),
             f"{f2} {l2}  {hm(m + 3)}",
             "I reinstalled the app to the workspace after the scope change, new token is",
             tok,
             "can you swap it in the helm values? I don't have access to the prod vault",
             f"{f1} {l1}  {hm(m + 6)}",
             "done, bot's back :white_check_mark:",
             f"{f2} {l2}  {hm(m + 7)}",
             ":pray: thanks"]
    return "slack-bot-token", "txt", tok, J(lines)


@pos("jira-ticket")
def p_jira(r):
    pw = S(human_password(r, PLAIN_SYMS))
    (f1, l1), (f2, l2) = person(r), person(r)
    key = r.choice(["OPS", "IT", "INFRA", "SUP", "HELP"]) + "-" + str(r.randrange(1000, 9999))
    sysn = r.choice(["staging Grafana", "the Jenkins controller", "vendor SFTP", "the QA Windows VM", "Metabase", "the old Confluence"])
    t = when(r)
    login = r.choice([f"{f1.lower()}.{l1.lower()}", f"contractor-{f1.lower()}", "svc-reporting", "qa-admin"])
    lines = [f"{key}: Access to {sysn} for {f1} {l1}", "",
             f"Type: Service Request   Priority: {r.choice(['Medium', 'High', 'Low'])}   Status: Resolved",
             f"Reporter: {f1} {l1}   Assignee: {f2} {l2}",
             f"Created: {t.strftime('%d/%b/%y %I:%M %p')}", "", "Description",
             f"Hi, I'm starting on the {r.choice(SERVICES)} migration on Monday and need an account on {sysn}.",
             "Read access is fine to start, I'll need write for the cutover weekend.", "",
             "Activity", "",
             f"{f2} {l2} added a comment - {(t + _dt.timedelta(hours=r.randrange(1, 30))).strftime('%d/%b/%y %I:%M %p')}",
             f"Account created. Username: {login}",
             f"Temporary password: {pw}",
             "Please change it after first login. Closing this, reopen if it doesn't work.", "",
             f"{f1} {l1} added a comment - {(t + _dt.timedelta(hours=r.randrange(31, 60))).strftime('%d/%b/%y %I:%M %p')}",
             "Works, thanks!"]
    return "password", "md", pw, J(lines)


@pos("onboarding-email")
def p_email(r):
    pw = S(human_password(r, PLAIN_SYMS))
    c = company(r)
    dom = domain(r, c)
    (f1, l1), (f2, l2) = person(r), person(r)
    t = when(r)
    login = email(r, f2, l2, dom)
    lines = [f"From: {f1} {l1} <{email(r, f1, l1, dom)}>", f"To: {f2} {l2} <{f2.lower()}.{l2.lower()}@gmail.com>",
             f"Subject: Welcome to {c.title()} - your accounts", f"Date: {t.strftime('%a, %d %b %Y %H:%M:%S')} +0100",
             f"Message-ID: <{rhex(r, 16)}.{r.randrange(10 ** 5, 10 ** 6)}@{dom}>", "MIME-Version: 1.0",
             'Content-Type: text/plain; charset="UTF-8"', "Content-Transfer-Encoding: 7bit", "",
             f"Hi {f2},", "", f"Welcome to the team! Ahead of your first day on {(t + _dt.timedelta(days=r.randrange(2, 9))).strftime('%A %d %B')}, here are your login details.", "",
             f"Email / SSO: {login}", f"Temporary password: {pw}", "",
             "You'll be asked to set a new password and enrol in MFA (we use Okta Verify) the first time you sign in.",
             "Your laptop will be waiting at reception.", "", "Cheers,", f"{f1}", "--", f"{f1} {l1}", f"IT Operations, {c.title()}"]
    return "password", "eml", pw, J(lines)


@pos("jupyter-notebook")
def p_notebook(r):
    tok = S(hf_token(r))
    model = r.choice(["meta-llama/Llama-3.2-1B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3", "google/gemma-2-2b-it",
                      "Qwen/Qwen2.5-1.5B-Instruct"])
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Fine-tune experiment\n", "Quick LoRA run on the support tickets set."]},
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
         "source": ["from huggingface_hub import login\n", f'login(token="{tok}")']},
        {"cell_type": "code", "execution_count": 2, "metadata": {},
         "outputs": [{"name": "stderr", "output_type": "stream",
                      "text": [f"Loading checkpoint shards: 100%|##########| 2/2 [00:0{r.randrange(3, 9)}<00:00,  1.{r.randrange(10, 99)}s/it]\n"]}],
         "source": ["from transformers import AutoModelForCausalLM, AutoTokenizer\n", f'model_id = "{model}"\n',
                    "tok = AutoTokenizer.from_pretrained(model_id)\n",
                    'model = AutoModelForCausalLM.from_pretrained(model_id, device_map="auto")']},
        {"cell_type": "code", "execution_count": 3, "metadata": {},
         "outputs": [{"data": {"text/plain": [f"{r.randrange(1000, 9000)}"]}, "execution_count": 3, "metadata": {}, "output_type": "execute_result"}],
         "source": ["import pandas as pd\n", 'df = pd.read_parquet("data/tickets.parquet")\n', "len(df)"]}]
    nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                                       "language_info": {"name": "python", "version": f"3.12.{r.randrange(3, 10)}"}},
          "nbformat": 4, "nbformat_minor": 5}
    return "huggingface-token", "ipynb", tok, json.dumps(nb, indent=1) + "\n"


# ---- browser dev-tools copies ------------------------------------------------
@pos("har-export")
def p_har(r):
    c = company(r)
    dom = domain(r, c)
    iat = int(when(r).timestamp())
    tok = S(jwt_rs256(r, {"alg": "RS256", "typ": "JWT", "kid": b64u(rbytes(r, 20))},
                      {"iss": f"https://auth.{dom}/", "sub": f"auth0|{rhex(r, 24)}", "aud": [f"https://api.{dom}", f"https://auth.{dom}/userinfo"],
                       "iat": iat, "exp": iat + 86400, "scope": "openid profile email read:orders", "azp": rs(r, ALNUM, 32)}))
    t = when(r)
    req_headers = [{"name": ":authority", "value": f"api.{dom}"}, {"name": ":method", "value": "GET"},
                   {"name": ":path", "value": "/v1/orders?limit=25"}, {"name": "accept", "value": "application/json"},
                   {"name": "authorization", "value": "Bearer " + tok},
                   {"name": "origin", "value": f"https://app.{dom}"},
                   {"name": "user-agent", "value": f"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/13{r.randrange(1, 9)}.0.0.0 Safari/537.36"}]
    har = {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
                   "pages": [{"startedDateTime": iso(t, True), "id": "page_1", "title": f"https://app.{dom}/orders", "pageTimings": {}}],
                   "entries": [{"startedDateTime": iso(t, True), "time": round(r.uniform(40, 900), 3),
                                "request": {"method": "GET", "url": f"https://api.{dom}/v1/orders?limit=25", "httpVersion": "http/2.0",
                                            "headers": req_headers, "queryString": [{"name": "limit", "value": "25"}], "cookies": [],
                                            "headersSize": -1, "bodySize": 0},
                                "response": {"status": 500, "statusText": "", "httpVersion": "http/2.0",
                                             "headers": [{"name": "content-type", "value": "application/json"},
                                                         {"name": "x-request-id", "value": ruuid(r)}],
                                             "content": {"size": 61, "mimeType": "application/json",
                                                         "text": '{"error":"internal","message":"upstream timeout (orders-db)"}'},
                                             "redirectURL": "", "headersSize": -1, "bodySize": -1},
                                "cache": {}, "timings": {"blocked": 1.2, "dns": -1, "connect": -1, "send": 0.1, "wait": 812.4, "receive": 0.9},
                                "serverIPAddress": f"104.{r.randrange(16, 31)}.{r.randrange(256)}.{r.randrange(256)}", "pageref": "page_1"}]}}
    text = json.dumps(har, indent=2)
    text = re.sub(r'\{\n\s+"name": ("(?:[^"\\]|\\.)*"),\n\s+"value": ("(?:[^"\\]|\\.)*")\n\s+\}',
                  r'{"name": \1, "value": \2}', text)
    return "jwt-access-token", "har", tok, text + "\n"


@pos("copy-as-curl")
def p_curl(r):
    c = company(r)
    dom = domain(r, c)
    k = r.randrange(4)
    if k == 0:
        name, val = "sessionid", rs(r, LOW + DIG, 32)
    elif k == 1:
        name = f"_{c.replace('-', '_')}_session"
        val = b64(rbytes(r, r.randrange(90, 200))).replace("=", "%3D") + "--" + b64(rbytes(r, 12)).replace("=", "%3D") + \
            "--" + b64(rbytes(r, 16)).replace("=", "%3D")
    elif k == 2:
        name, val = "connect.sid", "s%3A" + rs(r, B64URL, 32) + "." + b64(rbytes(r, 32)).rstrip("=").replace("+", "%2B").replace("/", "%2F")
    else:
        inner = json.dumps({"iv": b64(rbytes(r, 16)), "value": b64(rbytes(r, 64)), "mac": rhex(r, 64), "tag": ""},
                           separators=(",", ":")).encode()
        name, val = "laravel_session", b64(inner).replace("=", "%3D")
    S(val)
    ga = f"GA1.1.{r.randrange(10 ** 8, 10 ** 10)}.{int(when(r).timestamp())}"
    cookies = f"_ga={ga}; cookie_consent=necessary%2Canalytics; theme=dark; {name}={val}"
    chrome = r.randrange(131, 139)
    path = r.choice(["/api/v2/projects?page=1", "/admin/users/export.csv", "/dashboard/stats.json", "/api/invoices/" + str(r.randrange(1000, 99999))])
    lines = [f"curl 'https://app.{dom}{path}' \\",
             "  -H 'accept: application/json, text/plain, */*' \\",
             "  -H 'accept-language: en-GB,en-US;q=0.9,en;q=0.8' \\",
             f"  -b '{cookies}' \\",
             "  -H 'priority: u=1, i' \\",
             f"  -H 'referer: https://app.{dom}/dashboard' \\",
             f'  -H \'sec-ch-ua: "Chromium";v="{chrome}", "Google Chrome";v="{chrome}", "Not.A/Brand";v="99"\' \\',
             "  -H 'sec-ch-ua-mobile: ?0' \\",
             "  -H 'sec-ch-ua-platform: \"macOS\"' \\",
             "  -H 'sec-fetch-dest: empty' \\",
             "  -H 'sec-fetch-mode: cors' \\",
             "  -H 'sec-fetch-site: same-origin' \\",
             f"  -H 'user-agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{chrome}.0.0.0 Safari/537.36'"]
    return "session-cookie", "sh", val, J(lines)


# ---- mobile / desktop --------------------------------------------------------
@pos("android-local-properties")
def p_android(r):
    key = S(google_api_key(r))
    user = r.choice(FIRST).lower()
    t = when(r)
    lines = ["## This file must *NOT* be checked into Version Control Systems,",
             "# as it contains information specific to your local configuration.", "#",
             "# Location of the SDK. This is only used by Gradle.",
             "# For customization when using a Version Control System, please read the", "# header note.",
             "#" + t.strftime("%a %b %d %H:%M:%S CET %Y"),
             r.choice([f"sdk.dir=/Users/{user}/Library/Android/sdk", f"sdk.dir=C\\:\\\\Users\\\\{user}\\\\AppData\\\\Local\\\\Android\\\\Sdk"]),
             f"MAPS_API_KEY={key}"]
    return "google-api-key", "properties", key, J(lines)


@pos("filezilla-sitemanager")
def p_filezilla(r):
    pw = S(human_password(r, PLAIN_SYMS))
    c = company(r)
    dom = domain(r, c)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<FileZilla3 version="3.{r.randrange(66, 70)}.{r.randrange(0, 3)}" platform="{r.choice(["windows", "mac", "linux"])}">',
             "\t<Servers>", "\t\t<Folder expanded=\"1\">Clients", "\t\t\t<Server>", f"\t\t\t\t<Host>{r.choice(['ftp.', 'sftp.', ''])}{dom}</Host>",
             f"\t\t\t\t<Port>{r.choice([21, 22, 2222])}</Port>", f"\t\t\t\t<Protocol>{r.choice([0, 1])}</Protocol>", "\t\t\t\t<Type>0</Type>",
             f"\t\t\t\t<User>{r.choice(['webmaster', 'deploy', c.replace('-', ''), 'ftpuser'])}</User>",
             f'\t\t\t\t<Pass encoding="base64">{b64(pw.encode())}</Pass>', "\t\t\t\t<Logontype>1</Logontype>",
             "\t\t\t\t<PasvMode>MODE_DEFAULT</PasvMode>", "\t\t\t\t<EncodingType>Auto</EncodingType>",
             "\t\t\t\t<BypassProxy>0</BypassProxy>", f"\t\t\t\t<Name>{c.title()} live</Name>",
             "\t\t\t\t<RemoteDir>1 0 6 public 4 html</RemoteDir>", "\t\t\t\t<SyncBrowsing>0</SyncBrowsing>",
             "\t\t\t\t<DirectoryComparison>0</DirectoryComparison>", "\t\t\t</Server>", "\t\t</Folder>", "\t</Servers>",
             "</FileZilla3>"]
    return "password", "xml", pw, J(lines)


# ---- home lab / network -------------------------------------------------------
@pos("home-assistant-secrets")
def p_ha(r):
    pw = S(human_password(r, YAMLQ_SYMS))
    lat = round(r.uniform(35, 60), 4)
    lon = round(r.uniform(-10, 25), 4)
    which = r.choice(["mqtt_password", "influxdb_password", "nas_password", "unifi_password"])
    lines = ["# Use this file to store secrets like usernames and passwords.",
             "# Learn more at https://www.home-assistant.io/docs/configuration/secrets/",
             f"home_latitude: {lat}", f"home_longitude: {lon}", f"home_elevation: {r.randrange(0, 400)}",
             f"mqtt_broker: {priv_ip(r)}", "mqtt_username: homeassistant",
             f'{which}: "{pw}"', f"influxdb_url: http://{priv_ip(r)}:8086",
             f"frigate_url: http://{priv_ip(r)}:5000", f"unifi_host: {priv_ip(r)}",
             "notify_target: mobile_app_pixel_8"]
    return "password", "yaml", pw, J(lines)


@pos("cisco-ios-config")
def p_cisco(r):
    pw = S(human_password(r, "!@#$%^&*_-.+="))
    hn = r.choice(["core-sw01", "edge-rtr1", "branch-rtr-" + r.choice(CITIES).lower(), "dist-sw02"])
    leak = r.choice([f"username netadmin privilege 15 password 0 {pw}",
                     f"snmp-server community {pw} RW 10",
                     f"tacacs server ISE\n address ipv4 {priv_ip(r)}\n key 0 {pw}"])
    lines = ["!", f"! Last configuration change at {when(r).strftime('%H:%M:%S UTC %a %b %d %Y')} by admin", "!",
             "version 17.9", "service timestamps debug datetime msec", "service timestamps log datetime msec",
             "no service password-encryption", "!", f"hostname {hn}", "!", "boot-start-marker", "boot-end-marker", "!",
             "aaa new-model", "!", "clock timezone UTC 0 0", "ip domain name corp.lan", "!"] + leak.split("\n") + \
            ["!", "spanning-tree mode rapid-pvst", "!", "vlan 10", " name USERS", "vlan 20", " name VOICE", "vlan 99", " name MGMT", "!"]
    for i in range(1, r.randrange(3, 7)):
        lines += [f"interface GigabitEthernet1/0/{i}", " switchport access vlan 10", " switchport mode access",
                  " spanning-tree portfast", "!"]
    lines += ["interface Vlan99", f" ip address {priv_ip(r)} 255.255.255.0", "!",
              f"ip route 0.0.0.0 0.0.0.0 {priv_ip(r)}", "ip ssh version 2", "!",
              f"ntp server {priv_ip(r)}", f"logging host {priv_ip(r)}", "!", "line vty 0 4", " transport input ssh", "!", "end"]
    return "password", "txt", pw, J(lines)


@pos("wireguard-conf")
def p_wg(r):
    priv, _ = wg_keypair(r)
    S(priv)
    peer = wg_pub(r)
    n = r.randrange(2, 200)
    lines = ["[Interface]", f"# {r.choice(['laptop', 'phone', 'travel-router', 'nas'])}",
             f"Address = 10.{r.randrange(0, 255)}.0.{n}/32", f"PrivateKey = {priv}",
             f"DNS = {r.choice(['1.1.1.1', '10.8.0.1', '192.168.1.1, home.arpa'])}", "MTU = 1420", "",
             "[Peer]", f"# {r.choice(['home-gw', 'hetzner-vps', 'office'])}", f"PublicKey = {peer}",
             f"AllowedIPs = 10.8.0.0/24, {r.choice(['192.168.1.0/24', '192.168.50.0/24', '0.0.0.0/0, ::/0'])}",
             f"Endpoint = {r.choice(['vpn.' + domain(r), '%d.%d.%d.%d' % (r.randrange(2, 223), r.randrange(256), r.randrange(256), r.randrange(1, 254))])}:51820",
             "PersistentKeepalive = 25"]
    return "wireguard-private-key", "conf", priv, J(lines)


@pos("ide-assistant-config")
def p_ide(r):
    key = S(anthropic_key(r))
    d = {"models": [{"title": "Claude Sonnet 4", "provider": "anthropic", "model": "claude-sonnet-4-20250514", "apiKey": key},
                    {"title": "Local Qwen", "provider": "ollama", "model": "qwen2.5-coder:7b", "apiBase": "http://localhost:11434"}],
         "tabAutocompleteModel": {"title": "Local Qwen", "provider": "ollama", "model": "qwen2.5-coder:1.5b"},
         "contextProviders": [{"name": "code"}, {"name": "diff"}, {"name": "terminal"}, {"name": "problems"}],
         "slashCommands": [{"name": "edit", "description": "Edit selected code"}, {"name": "commit", "description": "Generate a commit message"}],
         "allowAnonymousTelemetry": False}
    text = json.dumps(d, indent=2) + "\n"
    if r.random() < 0.5:
        text = "// ~/.continue/config.json\n" + text
    return "anthropic-api-key", "json", key, text


# ---- key material -------------------------------------------------------------
@pos("openssl-tls-key")
def p_openssl(r):
    c = company(r)
    cn = r.choice([f"*.{domain(r, c)}", f"api.{domain(r, c)}", f"{r.choice(SERVICES)}.{c}.internal"])
    pkcs8 = r.random() < 0.6
    key = pem("PRIVATE KEY", pkcs8_der(r)) if pkcs8 else pem("RSA PRIVATE KEY", rsa_private_der(r))
    S(key)
    pr = prompt(r, path="~/certs")
    lines = [pr + f'openssl req -x509 -newkey rsa:2048 -nodes -keyout tls.key -out tls.crt -days 365 -subj "/CN={cn}"',
             "." * r.randrange(5, 30) + "+" * 3 + "." * r.randrange(5, 40) + "+" * 3,
             "." * r.randrange(5, 30) + "+" * 3 + "." * r.randrange(5, 40) + "+" * 3, "-----",
             pr + "cat tls.key"] + key.split("\n") + [pr + "kubectl create secret tls " + cn.replace("*.", "wildcard-").replace(".", "-") + " --cert=tls.crt --key=tls.key -n ingress"]
    return "rsa-private-key", "txt", key, J(lines)


@pos("gpg-export-secret")
def p_gpg(r):
    f, l = person(r)
    em = email(r, f, l)
    created = int(when(r).timestamp())
    data, fpr = pgp_key_block(r, f"{f} {l} <{em}>", True, created)
    block = pgp_armor("PRIVATE KEY BLOCK", data)
    S(block)
    pr = prompt(r, user=f.lower())
    d = _dt.datetime.fromtimestamp(created, _dt.timezone.utc).strftime("%Y-%m-%d")
    lines = [pr + f"gpg --list-secret-keys {em}", "sec   ed25519 %s [SC]" % d, f"      {fpr}",
             f"uid           [ultimate] {f} {l} <{em}>", "ssb   cv25519 %s [E]" % d, "",
             pr + f"gpg --export-secret-keys --armor {fpr[-16:]}"] + block.split("\n")
    return "pgp-private-key", "txt", block, J(lines)


@pos("age-keygen-session")
def p_age(r):
    k = rbytes(r, 32)
    sk = S(bech32("age-secret-key-", k).upper())
    pk = bech32("age", x25519_pub(k))
    t = when(r)
    pr = prompt(r)
    lines = [pr + "mkdir -p ~/.config/sops/age && age-keygen -o ~/.config/sops/age/keys.txt",
             f"Public key: {pk}", pr + "cat ~/.config/sops/age/keys.txt",
             f"# created: {t.strftime('%Y-%m-%dT%H:%M:%S')}+01:00", f"# public key: {pk}", sk,
             pr + "cat .sops.yaml", "creation_rules:", "  - path_regex: secrets/.*\\.ya?ml$", f"    age: {pk}"]
    return "age-secret-key", "txt", sk, J(lines)


@pos("discord-webhook-script")
def p_discord(r):
    url = S(discord_webhook(r))
    lines = ["#!/usr/bin/env python3", '"""Post nightly backup status to the #homelab channel."""', "",
             "import json", "import socket", "import subprocess", "import sys", "import urllib.request", "",
             f'WEBHOOK_URL = "{url}"', "", "",
             "def backup_status():", '    out = subprocess.run(["restic", "snapshots", "--latest", "1", "--json"],',
             "                         capture_output=True, text=True, check=False)",
             "    if out.returncode != 0:", '        return False, out.stderr.strip()[-300:]',
             "    snap = json.loads(out.stdout)[0]", '    return True, f"{snap[\'short_id\']} at {snap[\'time\'][:19]}"', "", "",
             "def main():", "    ok, detail = backup_status()",
             '    payload = {"username": socket.gethostname(),',
             '               "content": (":white_check_mark: backup ok " if ok else ":x: backup FAILED ") + detail}',
             '    req = urllib.request.Request(WEBHOOK_URL, data=json.dumps(payload).encode(),',
             '                                 headers={"Content-Type": "application/json"})',
             "    urllib.request.urlopen(req, timeout=10)", "    return 0 if ok else 1", "", "",
             'if __name__ == "__main__":', "    sys.exit(main())"]
    return "discord-webhook-url", "py", url, J(lines)


# ===========================================================================
# CLEAN FAMILIES  (each returns ext, text; must never call S())
# ===========================================================================
CLEAN = []


def clean(name):
    def deco(fn):
        CLEAN.append((name, fn))
        return fn
    return deco


@clean("env-example-placeholders")
def c_env_example(r):
    c = company(r)
    ph = r.choice([lambda k: "", lambda k: f"<your-{k.lower().replace('_', '-')}>", lambda k: "YOUR_" + k,
                   lambda k: "${" + k + "}", lambda k: "replace-me", lambda k: "xxxxxxxxxxxxxxxx"])
    rows = [("NODE_ENV", "development"), ("PORT", "3000"), ("APP_URL", "http://localhost:3000"),
            ("DATABASE_URL", "postgresql://USER:PASSWORD@localhost:5432/" + c.replace("-", "_") + "_dev"),
            ("REDIS_URL", "redis://localhost:6379/0"), ("LOG_LEVEL", "debug")]
    secrets = ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN",
               "SENTRY_DSN", "SESSION_SECRET", "JWT_SECRET", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
               "SENDGRID_API_KEY", "SLACK_WEBHOOK_URL", "TWILIO_AUTH_TOKEN", "DATADOG_API_KEY", "NEXTAUTH_SECRET",
               "GOOGLE_CLIENT_SECRET", "SUPABASE_SERVICE_ROLE_KEY", "MAILGUN_API_KEY"]
    lines = ["# Copy this file to .env and fill in the values.", "# Real values live in 1Password: Engineering / " + c + " / .env", ""]
    for k, v in rows[:r.randrange(3, 7)]:
        lines.append(f"{k}={v}")
    lines.append("")
    lines.append("# --- third-party credentials (never commit real ones) ---")
    for k in pick(r, secrets, r.randrange(6, 14)):
        if r.random() < 0.25:
            lines.append(f"# {k.split('_')[0].title()} — get one at the provider dashboard")
        lines.append(f"{k}={ph(k)}")
    lines += ["", f"FEATURE_NEW_CHECKOUT={r.choice(['true', 'false'])}", f"NEXT_PUBLIC_APP_NAME={c.title()}"]
    return r.choice(["env.example", "env.sample", "env"]), J(lines)


@clean("k8s-secretref-manifests")
def c_k8s_refs(r):
    c = company(r)
    svc = r.choice(SERVICES)
    ns = r.choice([svc, "apps", "backend"])
    k = r.randrange(3)
    if k == 0:
        lines = ["apiVersion: apps/v1", "kind: Deployment", "metadata:", f"  name: {svc}-api", f"  namespace: {ns}",
                 "spec:", f"  replicas: {r.randrange(2, 6)}", "  selector:", "    matchLabels:", f"      app: {svc}-api",
                 "  template:", "    metadata:", "      labels:", f"        app: {svc}-api", "      annotations:",
                 f"        checksum/config: {sha256_hex(r)}", "    spec:", f"      serviceAccountName: {svc}",
                 "      containers:", "        - name: api",
                 f"          image: ghcr.io/{c}/{svc}-api@sha256:{sha256_hex(r)}", "          env:",
                 "            - name: DATABASE_PASSWORD", "              valueFrom:", "                secretKeyRef:",
                 f"                  name: {svc}-db", "                  key: password",
                 "            - name: STRIPE_SECRET_KEY", "              valueFrom:", "                secretKeyRef:",
                 f"                  name: {svc}-stripe", "                  key: secret-key",
                 "            - name: POD_NAME", "              valueFrom:", "                fieldRef:",
                 "                  fieldPath: metadata.name", "          envFrom:", "            - secretRef:",
                 f"                name: {svc}-env", "            - configMapRef:", f"                name: {svc}-config",
                 "          ports:", "            - containerPort: 8080"]
    elif k == 1:
        lines = ["apiVersion: external-secrets.io/v1beta1", "kind: ExternalSecret", "metadata:", f"  name: {svc}-secrets",
                 f"  namespace: {ns}", "spec:", "  refreshInterval: 1h", "  secretStoreRef:", "    kind: ClusterSecretStore",
                 f"    name: {r.choice(['vault-backend', 'aws-secretsmanager', 'gcp-sm'])}", "  target:", f"    name: {svc}-secrets",
                 "    creationPolicy: Owner", "  data:"]
        for key in pick(r, ["db-password", "api-key", "jwt-signing-key", "smtp-password", "webhook-secret", "redis-password"], r.randrange(2, 5)):
            lines += [f"    - secretKey: {key}", "      remoteRef:", f"        key: {r.choice(['kv/data/', 'prod/', 'apps/'])}{svc}/{key}",
                      f"        property: value"]
    else:
        lines = ["apiVersion: bitnami.com/v1alpha1", "kind: SealedSecret", "metadata:", f"  name: {svc}-db",
                 f"  namespace: {ns}", "spec:", "  encryptedData:"]
        for key in pick(r, ["password", "username", "url", "api-token"], r.randrange(1, 3)):
            lines.append(f"    {key}: AgB{b64(rbytes(r, r.randrange(300, 420)))}")
        lines += ["  template:", "    metadata:", f"      name: {svc}-db", f"      namespace: {ns}", "    type: Opaque"]
    return "yaml", J(lines)


@clean("ci-log-masked")
def c_ci_masked(r):
    c = company(r)
    svc = r.choice(SERVICES)
    t = when(r)
    out = []
    k = r.randrange(2)

    def L(s):
        nonlocal t
        t += _dt.timedelta(milliseconds=r.randrange(5, 3000))
        out.append((t.strftime("%Y-%m-%dT%H:%M:%S.") + "%07dZ " % (t.microsecond * 10 + r.randrange(10)) if k == 0 else "") + s)
    if k == 0:
        L("##[group]Run docker/login-action@v3")
        L("with:")
        L("  registry: ghcr.io")
        L(f"  username: {c}-bot")
        L("  password: ***")
        L("##[endgroup]")
        L("Logging into ghcr.io...")
        L("Login Succeeded!")
        L("##[group]Run ./deploy.sh")
        L("env:")
        L("  AWS_ACCESS_KEY_ID: ***")
        L("  AWS_SECRET_ACCESS_KEY: ***")
        L("  SLACK_WEBHOOK_URL: ***")
        L("##[endgroup]")
        L(f"+ git clone https://x-access-token:***@github.com/{c}/helm-charts.git")
        L(f"+ docker push ghcr.io/{c}/{svc}:{sha1_hex(r)[:7]}")
        for _ in range(r.randrange(3, 7)):
            L(f"{rhex(r, 12)}: Pushed")
        L(f"{sha1_hex(r)[:7]}: digest: sha256:{sha256_hex(r)} size: {r.randrange(1200, 3000)}")
        L(f"Cache saved with key: {r.choice(['pip', 'npm', 'go'])}-Linux-x64-{sha256_hex(r)}")
        L("curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deployed\"}' ***")
        L("ok")
    else:
        out += [f"Running with gitlab-runner 17.{r.randrange(4, 9)}.{r.randrange(0, 3)} (v17.{r.randrange(4, 9)}.0)",
                f"  on {c}-docker-runner {rs(r, B64URL, 8)}, system ID: s_{rhex(r, 12)}",
                "Preparing the \"docker\" executor",
                f"Using docker image sha256:{sha256_hex(r)} for registry.gitlab.com/gitlab-org/cli:latest with digest registry.gitlab.com/gitlab-org/cli@sha256:{sha256_hex(r)} ...",
                "Getting source from Git repository",
                f"Fetching changes with git depth set to 20...",
                f"Checking out {sha1_hex(r)[:8]} as detached HEAD (ref is main)...",
                "Executing \"step_script\" stage of the job script",
                "$ echo \"$CI_REGISTRY_PASSWORD\" | docker login -u \"$CI_REGISTRY_USER\" --password-stdin \"$CI_REGISTRY\"",
                "WARNING! Your credentials are stored unencrypted in '/root/.docker/config.json'.",
                "Login Succeeded",
                "$ curl --header \"PRIVATE-TOKEN: [MASKED]\" \"$CI_API_V4_URL/projects/$CI_PROJECT_ID/releases\"",
                f"$ echo \"deploying with token [MASKED] to {svc}\"",
                f"deploying with token [MASKED] to {svc}",
                f"$ helm upgrade --install {svc} chart/ --set image.tag=$CI_COMMIT_SHORT_SHA --set secrets.dbPassword=[MASKED]",
                f"Release \"{svc}\" has been upgraded. Happy Helming!",
                f"REVISION: {r.randrange(2, 300)}",
                "Cleaning up project directory and file based variables",
                "Job succeeded"]
    return "log", J(out)


NPM_PKGS = ["@babel/code-frame", "@babel/helper-validator-identifier", "ansi-styles", "chalk", "debug", "ms", "semver",
            "lru-cache", "picocolors", "esbuild", "rollup", "vite", "postcss", "nanoid", "undici", "ws", "zod",
            "react", "react-dom", "scheduler", "js-tokens", "tslib", "typescript", "yaml", "commander", "glob",
            "minimatch", "brace-expansion", "balanced-match", "source-map-js", "fast-glob", "micromatch", "braces",
            "fill-range", "to-regex-range", "is-number", "picomatch", "@types/node", "undici-types", "escalade"]


@clean("package-lock-integrity")
def c_lock(r):
    pk = pick(r, NPM_PKGS, r.randrange(5, 10))
    k = r.randrange(3)
    def ver():
        return f"{r.randrange(0, 20)}.{r.randrange(0, 30)}.{r.randrange(0, 15)}"
    if k == 0:
        name = r.choice(SERVICES) + "-web"
        lines = ["{", f'  "name": "{name}",', '  "version": "0.1.0",', '  "lockfileVersion": 3,', '  "requires": true,',
                 '  "packages": {', '    "": {', f'      "name": "{name}",', '      "version": "0.1.0",', '      "dependencies": {']
        lines += [f'        "{p}": "^{ver()}"' + ("," if i < 2 else "") for i, p in enumerate(pk[:3])]
        lines += ["      }", "    },"]
        for i, p in enumerate(pk):
            v = ver()
            base = p.split("/")[-1]
            lines += [f'    "node_modules/{p}": {{', f'      "version": "{v}",',
                      f'      "resolved": "https://registry.npmjs.org/{p}/-/{base}-{v}.tgz",',
                      f'      "integrity": "sha512-{b64(rbytes(r, 64))}",',
                      f'      "license": "{r.choice(["MIT", "MIT", "ISC", "Apache-2.0", "BSD-3-Clause"])}"' + ("," if r.random() < 0.4 else ""),]
            if lines[-1].endswith(","):
                lines.append(f'      "engines": {{ "node": ">={r.choice([14, 16, 18, 20])}" }}')
            lines.append("    }" + ("," if i < len(pk) - 1 else ""))
        lines += ["  }", "}"]
        return "json", J(lines)
    if k == 1:
        lines = ["lockfileVersion: '9.0'", "", "settings:", "  autoInstallPeers: true", "  excludeLinksFromLockfile: false", "",
                 "packages:", ""]
        for p in pk:
            lines += [f"  {p if '/' not in p else repr(p)}@{ver()}:", f"    resolution: {{integrity: sha512-{b64(rbytes(r, 64))}}}",
                      f"    engines: {{node: '>={r.choice([14, 18, 20])}'}}", ""]
        return "yaml", J(lines)
    lines = ["# This file is generated by running \"yarn install\" inside your project.",
             "# Manual changes might be lost - proceed with caution!", "", "__metadata:", "  version: 8", "  cacheKey: 10c0", ""]
    for p in pk:
        v = ver()
        lines += [f'"{p}@npm:^{v}":', f"  version: {v}", f'  resolution: "{p}@npm:{v}"',
                  f"  checksum: 10c0/{hashlib.sha512(rbytes(r, 16)).hexdigest()}", "  languageName: node", "  linkType: hard", ""]
    return "lock", J(lines)


@clean("html-sri-tags")
def c_html(r):
    c = company(r)
    dom = domain(r, c)
    nonce = b64(rbytes(r, 16))
    bs = f"5.3.{r.randrange(0, 8)}"
    lines = ["<!doctype html>", '<html lang="en">', "<head>", '  <meta charset="utf-8">',
             '  <meta name="viewport" content="width=device-width, initial-scale=1">',
             f"  <title>{c.title()} — Dashboard</title>",
             f'  <meta name="google-site-verification" content="{rs(r, B64URL, 43)}">',
             f'  <meta property="og:url" content="https://{dom}/">',
             f'  <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@{bs}/dist/css/bootstrap.min.css" integrity="sha384-{b64(rbytes(r, 48))}" crossorigin="anonymous">',
             f'  <link rel="preload" href="/assets/inter-latin-{rs(r, B64URL, 8)}.woff2" as="font" type="font/woff2" crossorigin>',
             f'  <link rel="modulepreload" href="/assets/vendor-{rs(r, B64URL, 8)}.js">',
             f'  <script type="module" crossorigin src="/assets/index-{rs(r, B64URL, 8)}.js" integrity="sha384-{b64(rbytes(r, 48))}"></script>',
             f'  <link rel="stylesheet" href="/assets/index-{rs(r, B64URL, 8)}.css" integrity="sha256-{b64(rbytes(r, 32))}">',
             f'  <script nonce="{nonce}">window.__BUILD__ = {{ sha: "{sha1_hex(r)}", builtAt: "{iso(when(r))}" }};</script>',
             "</head>", "<body>", '  <div id="root"></div>',
             f'  <script src="https://cdn.jsdelivr.net/npm/bootstrap@{bs}/dist/js/bootstrap.bundle.min.js" integrity="sha384-{b64(rbytes(r, 48))}" crossorigin="anonymous"></script>',
             f'  <script src="https://unpkg.com/htmx.org@2.0.{r.randrange(0, 5)}" integrity="sha384-{b64(rbytes(r, 48))}" crossorigin="anonymous"></script>',
             "</body>", "</html>"]
    return "html", J(lines)


COMMIT_MSGS = ["Fix race in retry loop", "Bump actions/checkout from 4.1.7 to 4.2.2", "Add pagination to orders endpoint",
               "Refactor config loading", "Update README with setup steps", "Rotate expired staging certificate",
               "Remove unused feature flag", "Handle nil pointer in webhook handler", "Speed up CI cache restore",
               "Pin base image digest", "Migrate to Node 22", "Tidy go.mod", "Add healthcheck to compose file",
               "Revert \"Enable HTTP/3\"", "docs: clarify token scopes", "chore(deps): update dependency vite to v6"]


@clean("git-log-output")
def c_gitlog(r):
    k = r.randrange(3)
    pr = prompt(r, path="~/src/" + r.choice(SERVICES))
    if k == 0:
        lines = [pr + "git log -n 5 --stat"]
        for _ in range(r.randrange(3, 6)):
            f, l = person(r)
            lines += [f"commit {sha1_hex(r)}", f"Author: {f} {l} <{email(r, f, l)}>",
                      f"Date:   {when(r).strftime('%a %b %d %H:%M:%S %Y')} +0{r.randrange(0, 3)}00", "",
                      f"    {r.choice(COMMIT_MSGS)}", ""]
            if r.random() < 0.4:
                lines += [f"    Change-Id: I{sha1_hex(r)}", f"    Signed-off-by: {f} {l} <{email(r, f, l)}>", ""]
            files = r.randrange(1, 4)
            for _ in range(files):
                lines.append(f" {r.choice(['src', 'internal', 'cmd', 'docs'])}/{r.choice(SERVICES)}.{r.choice(['go', 'ts', 'py', 'md'])} | {r.randrange(1, 80)} +++--")
            lines += [f" {files} files changed, {r.randrange(1, 200)} insertions(+), {r.randrange(0, 90)} deletions(-)", ""]
    elif k == 1:
        f, l = person(r)
        em = email(r, f, l)
        ts = int(when(r).timestamp())
        pubblob = _sshstr("ssh-ed25519") + _sshstr(rbytes(r, 32))
        sig = b"SSHSIG" + struct.pack(">I", 1) + _sshstr(pubblob) + _sshstr("git") + _sshstr(b"") + _sshstr("sha512") + \
            _sshstr(_sshstr("ssh-ed25519") + _sshstr(rbytes(r, 64)))
        body = wrap(b64(sig), 70)
        lines = [pr + "git cat-file -p HEAD", f"tree {sha1_hex(r)}", f"parent {sha1_hex(r)}",
                 f"author {f} {l} <{em}> {ts} +0100", f"committer {f} {l} <{em}> {ts} +0100",
                 "gpgsig -----BEGIN SSH SIGNATURE-----"] + [" " + x for x in body] + [" -----END SSH SIGNATURE-----", "",
                 r.choice(COMMIT_MSGS), "", pr + "git verify-commit HEAD",
                 f'Good "git" signature for {em} with ED25519 key SHA256:{b64(rbytes(r, 32)).rstrip("=")}']
    else:
        c = company(r)
        lines = [pr + f"git ls-remote https://github.com/{c}/{r.choice(SERVICES)}.git"]
        lines.append(f"{sha1_hex(r)}\tHEAD")
        for ref in ["refs/heads/main", "refs/heads/develop", "refs/heads/release/2026.1"] + \
                [f"refs/tags/v{r.randrange(1, 4)}.{i}.0" for i in range(r.randrange(2, 8))] + \
                [f"refs/pull/{r.randrange(100, 999)}/head" for _ in range(r.randrange(1, 5))]:
            lines.append(f"{sha1_hex(r)}\t{ref}")
        lines += [pr + "git reflog -5"] + [f"{sha1_hex(r)[:7]} HEAD@{{{i}}}: {r.choice(['commit', 'checkout: moving from main to fix/x', 'pull --rebase: fast-forward', 'rebase (finish)'])}: {r.choice(COMMIT_MSGS)}" for i in range(5)]
    return "txt", J(lines)


@clean("sha256sums-release")
def c_sums(r):
    tool = r.choice(["fjordctl", "harbor-cli", "quarry", "lumen", "tallyctl", "kestrel"])
    ver = f"{r.randrange(0, 4)}.{r.randrange(0, 30)}.{r.randrange(0, 10)}"
    arts = [f"{tool}_{ver}_{o}_{a}.{'zip' if o == 'windows' else 'tar.gz'}" for o in ["darwin", "linux", "windows"]
            for a in ["amd64", "arm64"]] + [f"{tool}_{ver}_checksums.txt.sig", f"{tool}-{ver}.sbom.json"]
    k = r.randrange(3)
    pr = prompt(r, path="~/Downloads")
    if k == 0:
        lines = [pr + f"cat {tool}_{ver}_SHA256SUMS"] + [f"{sha256_hex(r)}  {a}" for a in arts] + \
                [pr + f"sha256sum -c --ignore-missing {tool}_{ver}_SHA256SUMS", f"{arts[2]}: OK"]
    elif k == 1:
        lines = [pr + "shasum -a 512 *.tar.gz"] + [f"{hashlib.sha512(rbytes(r, 8)).hexdigest()}  {a}" for a in arts if a.endswith("gz")] + \
                [pr + "md5sum *.zip"] + [f"{hashlib.md5(rbytes(r, 8)).hexdigest()}  {a}" for a in arts if a.endswith("zip")]
    else:
        lines = [f"# {tool} v{ver} release checksums (generated {when(r).strftime('%Y-%m-%d')})", ""]
        lines += [f"SHA256 ({a}) = {sha256_hex(r)}" for a in arts]
        lines += ["", f"BLAKE2b-256 ({arts[0]}) = {hashlib.blake2b(rbytes(r, 8), digest_size=32).hexdigest()}"]
    return "txt", J(lines)


@clean("docker-digests-ps")
def c_docker(r):
    c = company(r)
    pr = prompt(r)
    k = r.randrange(3)
    if k == 0:
        img = r.choice(["postgres:17-alpine", "nginx:1.27", "redis:7.4", "python:3.13-slim", "node:22-bookworm", "grafana/grafana:11.4.0"])
        lines = [pr + f"docker pull {img}", f"{img.split(':')[1]}: Pulling from {('library/' if '/' not in img else '') + img.split(':')[0]}"]
        for _ in range(r.randrange(4, 10)):
            lines.append(f"{rhex(r, 12)}: Pull complete")
        lines += [f"Digest: sha256:{sha256_hex(r)}", f"Status: Downloaded newer image for {img}", f"docker.io/{('library/' if '/' not in img else '')}{img}"]
        lines += [pr + "docker images --digests", "REPOSITORY          TAG       DIGEST                                                                    IMAGE ID       CREATED        SIZE"]
        for _ in range(r.randrange(3, 8)):
            repo, tag = r.choice([("postgres", "17-alpine"), ("nginx", "1.27"), ("redis", "7.4"), ("ghcr.io/" + c + "/api", "main"),
                                  ("python", "3.13-slim"), ("node", "22-bookworm"), ("traefik", "v3.2"), ("grafana/grafana", "11.4.0")])
            lines.append(f"{repo:<19} {tag:<9} sha256:{sha256_hex(r)}   {rhex(r, 12)}   {r.randrange(2, 9)} days ago     {r.randrange(40, 900)}MB")
    elif k == 1:
        lines = [pr + "docker ps -a --no-trunc --format '{{.ID}}  {{.Image}}  {{.Status}}  {{.Names}}'"]
        for _ in range(r.randrange(4, 10)):
            lines.append(f"{sha256_hex(r)}  {r.choice(['postgres:17', 'redis:7', 'ghcr.io/' + c + '/web:main', 'traefik:v3.2'])}  {r.choice(['Up 3 hours', 'Exited (0) 2 days ago', 'Up 12 minutes (healthy)'])}  {r.choice(SERVICES)}-{r.randrange(1, 4)}")
        lines += [pr + "docker inspect --format '{{.Image}}' " + r.choice(SERVICES) + "-1", f"sha256:{sha256_hex(r)}"]
    else:
        ns = r.choice(SERVICES)
        lines = [pr + f"kubectl get pods -n {ns} -o wide", "NAME                                READY   STATUS    RESTARTS   AGE   IP            NODE"]
        for _ in range(r.randrange(3, 9)):
            lines.append(f"{ns}-{r.choice(['api', 'worker', 'web'])}-{rs(r, LOW + DIG, 10)}-{rs(r, LOW + DIG, 5)}   1/1     Running   {r.randrange(0, 3)}          {r.randrange(1, 30)}d   {priv_ip(r):<13} ip-{priv_ip(r).replace('.', '-')}.ec2.internal")
        lines += [pr + f"kubectl get pod -n {ns} -o jsonpath='{{.items[*].status.containerStatuses[*].imageID}}'",
                  " ".join(f"ghcr.io/{c}/{ns}@sha256:{sha256_hex(r)}" for _ in range(2))]
    return "txt", J(lines)


def randomart(r, kind):
    rows = ["".join(r.choice("       ....oo+=*BOX@%&E S") if r.random() < 0.35 else " " for _ in range(17)) for _ in range(9)]
    top = f"+--[{kind}]" + "-" * (17 - len(kind) - 4) + "+"
    return [top[:19]] + ["|" + x + "|" for x in rows] + ["+----[SHA256]-----+"]


@clean("ssh-public-material")
def c_sshpub(r):
    pr = prompt(r)
    k = r.randrange(3)
    if k == 0:
        lines = [pr + "cat ~/.ssh/authorized_keys"]
        for _ in range(r.randrange(4, 8)):
            f, l = person(r)
            kt = r.random()
            key = ssh_pub_ed25519(r, f"{f.lower()}@{r.choice(['laptop', 'work', 'mbp'])}") if kt < 0.5 else \
                (ssh_pub_rsa(r, f"{f.lower()}.{l.lower()}@{domain(r)}") if kt < 0.8 else ssh_pub_ecdsa(r, "yubikey-" + f.lower()))
            if r.random() < 0.2:
                key = f'from="{priv_ip(r)}/24",no-agent-forwarding ' + key
            lines.append(key)
    elif k == 1:
        lines = [pr + "head -n 6 ~/.ssh/known_hosts"]
        for _ in range(6):
            lines.append(f"|1|{b64(rbytes(r, 20))}|{b64(rbytes(r, 20))} " + r.choice([ssh_pub_ed25519(r), ssh_pub_ecdsa(r)]))
        lines += [pr + "ssh-keyscan -t ed25519 github.com", "# github.com:22 SSH-2.0-" + rs(r, LOW, 6), ssh_pub_ed25519(r).replace("ssh-ed25519", "github.com ssh-ed25519")]
    else:
        f = r.choice(FIRST).lower()
        lines = [pr + "ssh-keygen -lv -f ~/.ssh/id_ed25519.pub",
                 f"256 SHA256:{b64(rbytes(r, 32)).rstrip('=')} {f}@devbox (ED25519)"] + randomart(r, "ED25519 256") + \
                [pr + "cat ~/.ssh/id_ed25519.pub", ssh_pub_ed25519(r, f"{f}@devbox"),
                 pr + f"ssh {f}@{priv_ip(r)}",
                 f"The authenticity of host '{priv_ip(r)}' can't be established.",
                 f"ED25519 key fingerprint is SHA256:{b64(rbytes(r, 32)).rstrip('=')}.",
                 "This key is not known by any other names.",
                 "Are you sure you want to continue connecting (yes/no/[fingerprint])? yes"]
    return "txt", J(lines)


@clean("x509-cert-chain")
def c_x509(r):
    c = company(r)
    dom = domain(r, c)
    k = r.randrange(2)
    issuer = r.choice([("R11", "Let's Encrypt"), ("E6", "Let's Encrypt"), ("GTS CA 1P5", "Google Trust Services"),
                       ("Amazon RSA 2048 M03", "Amazon"), ("Sectigo RSA Domain Validation Secure Server CA", "Sectigo Limited")])
    leaf = pem("CERTIFICATE", cert_der(r, dom, issuer[0], issuer[1]))
    inter = pem("CERTIFICATE", cert_der(r, issuer[0], "ISRG Root X1", "Internet Security Research Group"))
    if k == 0:
        lines = [prompt(r) + f"openssl s_client -connect {dom}:443 -servername {dom} -showcerts </dev/null", "CONNECTED(00000003)",
                 f"depth=2 C = US, O = Internet Security Research Group, CN = ISRG Root X1", "verify return:1",
                 f"depth=1 C = US, O = {issuer[1]}, CN = {issuer[0]}", "verify return:1", f"depth=0 CN = {dom}", "verify return:1",
                 "---", "Certificate chain", f" 0 s:CN = {dom}", f"   i:C = US, O = {issuer[1]}, CN = {issuer[0]}",
                 "   a:PKEY: rsaEncryption, 2048 (bit); sigalg: RSA-SHA256"] + leaf.split("\n") + \
                [f" 1 s:C = US, O = {issuer[1]}, CN = {issuer[0]}", "   i:C = US, O = Internet Security Research Group, CN = ISRG Root X1",
                 "   a:PKEY: rsaEncryption, 2048 (bit); sigalg: RSA-SHA256"] + inter.split("\n") + \
                ["---", "Server certificate", f"subject=CN = {dom}", f"issuer=C = US, O = {issuer[1]}, CN = {issuer[0]}", "---",
                 "No client certificate CA names sent", "Peer signing digest: SHA256", "Peer signature type: RSA-PSS",
                 "Server Temp Key: X25519, 253 bits", "---", "Verification: OK", "---", "DONE"]
    else:
        lines = [f"# fullchain.pem for {dom}"] + leaf.split("\n") + inter.split("\n")
    return "pem" if k else "txt", J(lines)


@clean("uuid-api-json")
def c_uuidjson(r):
    c = company(r)
    k = r.randrange(2)
    if k == 0:
        runs = []
        for _ in range(r.randrange(2, 4)):
            rid = r.randrange(10 ** 10, 2 * 10 ** 10)
            runs.append({"id": rid, "name": r.choice(["CI", "Deploy", "CodeQL", "Release"]), "node_id": "WFR_kwLO" + rs(r, B64URL, 16),
                         "head_branch": "main", "head_sha": sha1_hex(r), "run_number": r.randrange(100, 5000),
                         "event": "push", "status": "completed", "conclusion": r.choice(["success", "failure"]),
                         "workflow_id": r.randrange(10 ** 7, 10 ** 8), "check_suite_id": r.randrange(10 ** 10, 4 * 10 ** 10),
                         "url": f"https://api.github.com/repos/{c}/{r.choice(SERVICES)}/actions/runs/{rid}",
                         "created_at": iso(when(r))})
        d = {"total_count": r.randrange(100, 9000), "workflow_runs": runs}
    else:
        items = []
        for _ in range(r.randrange(3, 6)):
            items.append({"id": ruuid(r), "object": r.choice(["project", "environment", "deployment"]),
                          "owner_id": ruuid(r), "etag": f'W/"{rhex(r, 16)}"', "version": r.randrange(1, 40),
                          "created_at": iso(when(r), True), "checksum": "sha256:" + sha256_hex(r)})
        cursor = b64(json.dumps({"id": items[-1]["id"], "ts": iso(when(r))}, separators=(",", ":")).encode()).rstrip("=")
        d = {"data": items, "has_more": True, "next_cursor": cursor, "request_id": ruuid(r)}
    return "json", json.dumps(d, indent=2) + "\n"


@clean("base64-image-css")
def c_css(r):
    lines = ["/* generated by postcss-url (inline < 4kb) */", ":root {", f"  --brand: #{rhex(r, 6)};", "}", ""]
    for cls in pick(r, ["icon-check", "icon-close", "logo-small", "spinner", "bg-noise", "flag-nl", "avatar-fallback"], r.randrange(2, 4)):
        data = b64(png_bytes(r))
        lines += [f".{cls} {{", f'  background-image: url("data:image/png;base64,{data}");', "  background-size: contain;", "}", ""]
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#{rhex(r, 6)}" d="M12 2L2 7l10 5 10-5-10-5z"/></svg>'
    lines += [".chevron {", f'  mask-image: url("data:image/svg+xml;base64,{b64(svg.encode())}");', "}", ""]
    woff = b"wOF2" + rbytes(r, r.randrange(300, 700))
    lines += ["@font-face {", "  font-family: 'IconsSubset';",
              f"  src: url(data:font/woff2;base64,{b64(woff)}) format('woff2');", "  font-display: block;", "}"]
    return "css", J(lines)


def _ident(r):
    return r.choice(LOW + "_$") + "".join(r.choice(LOW + UPP + DIG) for _ in range(r.randrange(0, 2)))


@clean("minified-js-bundle")
def c_minjs(r):
    chunk = r.randrange(10, 999)
    parts = []
    for _ in range(r.randrange(6, 14)):
        a, b, c_ = _ident(r), _ident(r), _ident(r)
        parts.append(r.choice([
            f'{r.randrange(1000, 99999)}:({a},{b},{c_})=>{{"use strict";{c_}.d({b},{{A:()=>{_ident(r)}}});var {_ident(r)}={c_}({r.randrange(1000, 99999)}),{_ident(r)}={c_}({r.randrange(1000, 99999)});function {_ident(r)}({a}){{return {a}&&{a}.__esModule?{a}:{{default:{a}}}}}}}',
            f'{r.randrange(1000, 99999)}:{a}=>{{{a}.exports=JSON.parse(\'{{"v":"{r.randrange(1, 9)}.{r.randrange(0, 9)}","h":"{rhex(r, 20)}","k":"{rs(r, B64URL, 22)}"}}\')}}',
            f'{r.randrange(1000, 99999)}:({a},{b})=>{{const {c_}="{b64(rbytes(r, 24))}";{b}.decode=()=>atob({c_}).split("").map(e=>e.charCodeAt(0))}}'
        ]))
    hashes = ",".join(f'{r.randrange(10, 999)}:"{rhex(r, 20)}"' for _ in range(r.randrange(6, 16)))
    extra = ",".join(f'{r.randrange(1000, 99999)}:({_ident(r)},{_ident(r)},{_ident(r)})=>{{{_ident(r)}.r({_ident(r)});var {_ident(r)}="{rs(r, B64URL, r.randrange(16, 40))}",{_ident(r)}=[{",".join(str(r.randrange(1, 999)) for _ in range(r.randrange(3, 9)))}]}}' for _ in range(r.randrange(2, 6)))
    lines = [f"/*! For license information please see {r.choice(['main', 'vendors', 'app'])}.{rhex(r, 8)}.js.LICENSE.txt */",
             f'"use strict";(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[{chunk}],{{' + ",".join(parts) + "}]);",
             f'(()=>{{var e={{}};e.u=t=>"static/chunks/"+t+"."+{{{hashes}}}[t]+".js",e.miniCssF=t=>"static/css/"+{{{r.randrange(100, 999)}:"{rhex(r, 16)}"}}[t]+".css"}})();',
             f'(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[{chunk + 1}],{{' + extra + "}]);",
             f"//# sourceMappingURL={r.choice(['main', 'app', 'framework', 'pages/_app'])}-{rhex(r, 16)}.js.map"]
    return "js", J(lines)


@clean("docs-fake-keys")
def c_docs(r):
    tool = r.choice(["fjordctl", "harbor-sync", "quarry", "lumen-bot", "tally"])
    rows = r.sample([
        ("GITHUB_TOKEN", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "classic PAT with `repo` scope"),
        ("OPENAI_API_KEY", "sk-...", "from platform.openai.com"),
        ("AWS_ACCESS_KEY_ID", "AKIAXXXXXXXXXXXXXXXX", "IAM user or use SSO instead"),
        ("AWS_SECRET_ACCESS_KEY", "<your-secret-access-key>", ""),
        ("SLACK_BOT_TOKEN", "xoxb-your-bot-token", "Bot User OAuth Token"),
        ("STRIPE_SECRET_KEY", "sk_test_XXXXXXXXXXXXXXXXXXXXXXXX", "use test mode keys locally"),
        ("DATABASE_URL", "postgres://user:password@localhost:5432/db", ""),
        ("SENDGRID_API_KEY", "SG.xxxxx.yyyyy", ""),
        ("HF_TOKEN", "hf_********************************", "read scope is enough"),
        ("DISCORD_WEBHOOK", "https://discord.com/api/webhooks/<id>/<token>", "")], r.randrange(4, 8))
    lines = [f"# {tool}", "", f"`{tool}` syncs things between services. This page covers configuration.", "",
             "## Configuration", "", "| Variable | Example | Notes |", "|---|---|---|"]
    lines += [f"| `{k}` | `{v}` | {n} |" for k, v, n in rows]
    lines += ["", "Export them in your shell before running:", "", "```bash"]
    lines += [f'export {k}="{v}"' for k, v, _ in rows[:3]]
    lines += [f"{tool} sync --dry-run", "```", "", "Or call the API directly:", "", "```bash",
              f"curl -H \"Authorization: Bearer $API_TOKEN\" https://api.{domain(r)}/v1/ping", "```", "",
              "> **Never** paste real tokens into issues. Redact them as `ghp_****` before sharing logs.", "",
              "```json", '{', '  "apiKey": "YOUR_API_KEY",', '  "endpoint": "https://api.example.com",', '  "timeoutMs": 5000', '}', "```"]
    return "md", J(lines)


@clean("redacted-config-dump")
def c_redacted(r):
    c = company(r)
    k = r.randrange(4)
    pr = prompt(r)
    if k == 0:
        props = {"spring.datasource.url": {"value": f"jdbc:postgresql://{c}-db:5432/app"},
                 "spring.datasource.username": {"value": "app"}, "spring.datasource.password": {"value": "******"},
                 "stripe.api-key": {"value": "******"}, "jwt.secret": {"value": "******"},
                 "server.port": {"value": "8080"}, "management.endpoints.web.exposure.include": {"value": "*"}}
        d = {"activeProfiles": ["prod"], "propertySources": [{"name": "Config resource 'class path resource [application-prod.yml]' via location 'optional:classpath:/'",
                                                              "properties": props}]}
        return "json", json.dumps(d, indent=2) + "\n"
    if k == 1:
        tail = rs(r, UPP + DIG, 4)
        tail2 = rs(r, ALNUM, 4)
        lines = [pr + "aws configure list", "      Name                    Value             Type    Location",
                 "      ----                    -----             ----    --------",
                 f"   profile                {c:<16}  manual    --profile",
                 f"access_key     ****************{tail} shared-credentials-file",
                 f"secret_key     ****************{tail2} shared-credentials-file",
                 f"    region                {r.choice(AWS_REGIONS):<16}      config-file    ~/.aws/config"]
        return "txt", J(lines)
    if k == 2:
        t = when(r)
        lines = []
        for _ in range(r.randrange(3, 6)):
            rid = ruuid(r)
            lines += [f'I, [{iso(t, True)} #{r.randrange(1, 99)}]  INFO -- : [{rid}] Started POST "/users/sign_in" for {priv_ip(r)} at {t.strftime("%Y-%m-%d %H:%M:%S")} +0000',
                      f"I, [{iso(t, True)} #{r.randrange(1, 99)}]  INFO -- : [{rid}] Processing by Users::SessionsController#create as HTML",
                      f'I, [{iso(t, True)} #{r.randrange(1, 99)}]  INFO -- : [{rid}]   Parameters: {{"authenticity_token"=>"[FILTERED]", "user"=>{{"email"=>"{email(r)}", "password"=>"[FILTERED]", "remember_me"=>"1"}}, "commit"=>"Log in"}}',
                      f"I, [{iso(t, True)} #{r.randrange(1, 99)}]  INFO -- : [{rid}] Completed 302 Found in {r.randrange(80, 400)}ms (ActiveRecord: {r.uniform(1, 20):.1f}ms)"]
            t += _dt.timedelta(seconds=r.randrange(1, 90))
        return "log", J(lines)
    svc = r.choice(SERVICES)
    lines = [pr + f"docker inspect {svc}-1 --format '{{{{json .Config.Env}}}}' | jq .", "["]
    env = [f"APP_ENV=production", f"DB_HOST={svc}-db", "DB_PASSWORD=**REDACTED**", "API_KEY=<redacted>",
           f"OTEL_SERVICE_NAME={svc}", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "SECRET_KEY_BASE=[hidden]", f"IMAGE_DIGEST=sha256:{sha256_hex(r)}"]
    lines += [f'  "{e}",' for e in env[:-1]] + [f'  "{env[-1]}"', "]"]
    return "txt", J(lines)


@clean("sops-encrypted-yaml")
def c_sops(r):
    def enc(n, typ="str"):
        return f"ENC[AES256_GCM,data:{b64(rbytes(r, n))},iv:{b64(rbytes(r, 32))},tag:{b64(rbytes(r, 16))},type:{typ}]"
    svc = r.choice(SERVICES)
    lines = [f"{svc}:", f"    db_password: {enc(r.randrange(12, 24))}", f"    api_key: {enc(r.randrange(30, 48))}",
             f"    replicas: {enc(1, 'int')}", f"    webhook_secret: {enc(r.randrange(30, 40))}", "sops:", "    age:"]
    for _ in range(r.randrange(1, 3)):
        blob = b"age-encryption.org/v1\n-> X25519 " + b64(rbytes(r, 32)).rstrip("=").encode() + b"\n" + b64(rbytes(r, 32)).rstrip("=").encode() + b"\n--- " + \
            b64(rbytes(r, 32)).rstrip("=").encode() + b"\n" + rbytes(r, 48)
        lines += [f"        - recipient: {age_pub(r)}", "          enc: |", "            -----BEGIN AGE ENCRYPTED FILE-----"]
        lines += ["            " + x for x in wrap(b64(blob), 64)] + ["            -----END AGE ENCRYPTED FILE-----"]
    lines += [f"    lastmodified: \"{iso(when(r))}\"", f"    mac: {enc(32)}", "    unencrypted_suffix: _unencrypted",
              f"    version: 3.{r.randrange(8, 11)}.{r.randrange(0, 5)}"]
    return "yaml", J(lines)


@clean("terraform-vault-refs")
def c_tf(r):
    c = company(r)
    svc = r.choice(SERVICES)
    reg = r.choice(AWS_REGIONS)
    acct = r.randrange(10 ** 11, 10 ** 12)
    lines = ["terraform {", "  backend \"s3\" {", f'    bucket         = "{c}-tfstate-{acct}"',
             f'    key            = "{svc}/terraform.tfstate"', f'    region         = "{reg}"',
             f'    dynamodb_table = "{c}-tf-locks"', "    encrypt        = true",
             f'    kms_key_id     = "arn:aws:kms:{reg}:{acct}:key/{ruuid(r)}"', "  }", "}", "",
             'variable "db_password" {', "  type      = string", "  sensitive = true",
             '  description = "Set via TF_VAR_db_password in CI"', "}", "",
             'data "vault_kv_secret_v2" "stripe" {', '  mount = "kv"', f'  name  = "{svc}/stripe"', "}", "",
             'resource "random_password" "app" {', "  length           = 32", "  special          = true",
             '  override_special = "!#$%&*()-_=+[]{}<>:?"', "}", "",
             f'resource "aws_secretsmanager_secret" "{svc}" {{', f'  name       = "{svc}/{r.choice(ENVS)}/app"',
             f'  kms_key_id = "alias/{c}-secrets"', "}", "",
             f'resource "aws_secretsmanager_secret_version" "{svc}" {{', f"  secret_id = aws_secretsmanager_secret.{svc}.id",
             "  secret_string = jsonencode({", "    db_password = var.db_password", "    app_secret  = random_password.app.result",
             '    stripe_key  = data.vault_kv_secret_v2.stripe.data["secret_key"]', "  })", "}", "",
             'output "secret_arn" {', f"  value = aws_secretsmanager_secret.{svc}.arn", "}"]
    return "tf", J(lines)


GO_MODS = ["github.com/google/uuid", "golang.org/x/sync", "golang.org/x/crypto", "github.com/stretchr/testify",
           "github.com/spf13/cobra", "go.uber.org/zap", "github.com/prometheus/client_golang", "google.golang.org/grpc",
           "github.com/jackc/pgx/v5", "gopkg.in/yaml.v3", "github.com/go-chi/chi/v5", "golang.org/x/net"]
CRATES = ["serde", "serde_json", "tokio", "anyhow", "thiserror", "clap", "reqwest", "tracing", "bytes", "hyper",
          "rand", "regex", "once_cell", "itoa", "memchr", "libc", "proc-macro2", "quote", "syn"]
PYPKGS = ["requests", "urllib3", "certifi", "idna", "charset-normalizer", "pydantic", "pydantic-core", "httpx",
          "anyio", "sniffio", "click", "numpy", "packaging", "typing-extensions"]


@clean("go-sum-cargo-lock")
def c_sums2(r):
    k = r.randrange(3)
    if k == 0:
        lines = []
        for m in sorted(pick(r, GO_MODS, r.randrange(5, 10))):
            major = int(m.rsplit("/v", 1)[1]) if re.search(r"/v\d+$", m) else (3 if m.endswith(".v3") else r.randrange(0, 2))
            v = f"v{major}.{r.randrange(0, 40)}.{r.randrange(0, 12)}"
            lines += [f"{m} {v} h1:{b64(rbytes(r, 32))}", f"{m} {v}/go.mod h1:{b64(rbytes(r, 32))}"]
        return "sum", J(lines)
    if k == 1:
        lines = ["# This file is automatically @generated by Cargo.", "# It is not intended for manual editing.", "version = 4", ""]
        for cr in sorted(pick(r, CRATES, r.randrange(5, 10))):
            lines += ["[[package]]", f'name = "{cr}"', f'version = "{r.randrange(0, 3)}.{r.randrange(0, 50)}.{r.randrange(0, 20)}"',
                      'source = "registry+https://github.com/rust-lang/crates.io-index"', f'checksum = "{sha256_hex(r)}"', ""]
        return "lock", J(lines)
    lines = ["# This file was autogenerated by uv via the following command:", "#    uv pip compile requirements.in --generate-hashes -o requirements.txt"]
    for p in sorted(pick(r, PYPKGS, r.randrange(4, 8))):
        lines.append(f"{p}=={r.randrange(1, 4)}.{r.randrange(0, 30)}.{r.randrange(0, 9)} \\")
        n = r.randrange(1, 4)
        for j in range(n):
            lines.append(f"    --hash=sha256:{sha256_hex(r)}" + (" \\" if j < n - 1 else ""))
    return "txt", J(lines)


@clean("pgp-public-and-sigs")
def c_pgp(r):
    f, l = person(r)
    em = email(r, f, l)
    created = int(when(r).timestamp())
    k = r.randrange(2)
    if k == 0:
        data, fpr = pgp_key_block(r, f"{f} {l} <{em}>", False, created)
        lines = [f"# {f}'s release signing key — fingerprint {' '.join(fpr[i:i + 4] for i in range(0, 40, 4))}"] + \
                pgp_armor("PUBLIC KEY BLOCK", data).split("\n")
        return "asc", J(lines)
    keyid = rbytes(r, 8)
    sig = _sigpkt(r, created, keyid, rbytes(r, 20))
    tool = r.choice(["fjordctl", "harbor-cli", "quarry"])
    ver = f"{r.randrange(0, 4)}.{r.randrange(0, 30)}.{r.randrange(0, 10)}"
    lines = ["-----BEGIN PGP SIGNED MESSAGE-----", "Hash: SHA512", ""] + \
            [f"{sha256_hex(r)}  {tool}_{ver}_{o}.tar.gz" for o in ["linux_amd64", "linux_arm64", "darwin_arm64"]] + \
            pgp_armor("SIGNATURE", sig).split("\n") + \
            [prompt(r) + "gpg --verify SHA256SUMS.asc", f"gpg: Signature made {when(r).strftime('%a %d %b %Y %H:%M:%S')} CET",
             f"gpg:                using EDDSA key {keyid.hex().upper()}", f'gpg: Good signature from "{f} {l} <{em}>" [full]']
    return "txt", J(lines)


@clean("jwks-oidc-json")
def c_jwks(r):
    c = company(r)
    keys = []
    for _ in range(r.randrange(1, 4)):
        der_ = cert_der(r, f"auth.{domain(r, c)}", f"auth.{domain(r, c)}")
        keys.append({"kty": "RSA", "use": "sig", "alg": "RS256", "kid": b64u(rbytes(r, 20)),
                     "n": b64u(_rint(r, 2048).to_bytes(256, "big")), "e": "AQAB",
                     "x5t": b64u(hashlib.sha1(der_).digest()), "x5c": [b64(der_)]})
    text = json.dumps({"keys": keys}, indent=2)
    if r.random() < 0.5:
        text = prompt(r) + f"curl -s https://auth.{domain(r, c)}/.well-known/jwks.json | jq .\n" + text
    return "json", text + "\n"


@clean("trace-id-logs")
def c_trace(r):
    svc = r.choice(SERVICES)
    t = when(r)
    lines = []
    k = r.randrange(3)
    for _ in range(r.randrange(6, 20)):
        t += _dt.timedelta(milliseconds=r.randrange(1, 5000))
        if k == 0:
            lines.append(json.dumps({"ts": iso(t, True), "level": r.choice(["info", "info", "warn", "debug"]), "service": svc,
                                     "trace_id": rhex(r, 32), "span_id": rhex(r, 16), "request_id": ruuid(r),
                                     "msg": r.choice(["request completed", "cache miss", "retrying upstream", "enqueued job"]),
                                     "duration_ms": r.randrange(1, 900)}, separators=(",", ":")))
        elif k == 1:
            lines.append(f'{priv_ip(r)} - - [{t.strftime("%d/%b/%Y:%H:%M:%S")} +0000] "GET /api/{svc}/{r.randrange(1, 99999)} HTTP/2.0" '
                         f'{r.choice([200, 200, 304, 404, 502])} {r.randrange(100, 90000)} "-" "Mozilla/5.0" rid={rhex(r, 32)} '
                         f'traceparent=00-{rhex(r, 32)}-{rhex(r, 16)}-01 cf_id={b64(rbytes(r, 42))}')
        else:
            rid = ruuid(r)
            lines += [f"START RequestId: {rid} Version: $LATEST",
                      f"{iso(t, True)}\t{rid}\tINFO\tprocessed {r.randrange(1, 500)} records, x-amzn-trace-id=Root=1-{rhex(r, 8)}-{rhex(r, 24)}",
                      f"END RequestId: {rid}",
                      f"REPORT RequestId: {rid}\tDuration: {r.uniform(5, 900):.2f} ms\tBilled Duration: {r.randrange(6, 901)} ms\tMemory Size: 512 MB\tMax Memory Used: {r.randrange(80, 400)} MB"]
    return "log", J(lines)


@clean("chat-ticket-clean")
def c_chat(r):
    (f1, l1), (f2, l2) = person(r), person(r)
    c = company(r)
    svc = r.choice(SERVICES)
    sha = sha1_hex(r)
    lines = [f"{f1} {l1}  {r.randrange(9, 12)}:{r.randrange(10, 59)} AM",
             f"Heads up: I rotated the {svc} Stripe key after the audit finding. New one is in 1Password → Engineering / {svc} / prod.",
             f"Old key (ending …{rs(r, ALNUM, 4)}) is revoked, so anything still using it will 401.",
             f"{f2} {l2}",
             f"thanks! is it also in Vault? our worker reads `kv/data/{svc}/stripe#secret_key`",
             f"{f1} {l1}",
             f"yes, synced via ExternalSecret, should roll within the hour. PR: https://github.com/{c}/infra/pull/{r.randrange(100, 3000)} (commit {sha[:7]})",
             f"{f2} {l2}",
             f"the Sentry issue {svc.upper()}-{rs(r, UPP + DIG, 3)} is from the old token, logs show `Authorization: Bearer ***`",
             f"also the GH token in the runner is `ghp_****************************{rs(r, ALNUM, 4)}` per the audit log, already revoked",
             f"{f1} {l1}",
             ":+1: closing the incident doc, trace id for the last failure was " + rhex(r, 32)]
    return "txt", J(lines)


@clean("notebook-getpass")
def c_nb(r):
    png = b64(png_bytes(r, 32, 20))
    cells = [{"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["OpenAI API key: ··········\n"]}],
              "source": ["import os, getpass\n", 'os.environ["OPENAI_API_KEY"] = getpass.getpass("OpenAI API key: ")']},
             {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [],
              "source": ["from google.colab import userdata\n", "hf_token = userdata.get('HF_TOKEN')"]},
             {"cell_type": "code", "execution_count": 3, "metadata": {},
              "outputs": [{"data": {"image/png": png, "text/plain": ["<Figure size 640x480 with 1 Axes>"]}, "metadata": {}, "output_type": "display_data"}],
              "source": ["import matplotlib.pyplot as plt\n", "plt.plot(losses); plt.title('train loss')"]},
             {"cell_type": "code", "execution_count": 4, "metadata": {},
              "outputs": [{"data": {"text/plain": [f"   run_id                             sha\n0  {ruuid(r)}  {sha1_hex(r)}\n1  {ruuid(r)}  {sha1_hex(r)}"]}, "execution_count": 4, "metadata": {}, "output_type": "execute_result"}],
              "source": ["runs[['run_id', 'sha']].head(2)"]}]
    nb = {"cells": cells, "metadata": {"colab": {"provenance": []}, "kernelspec": {"display_name": "Python 3", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 0}
    return "ipynb", json.dumps(nb, indent=1) + "\n"


@clean("browser-copy-clean")
def c_browser(r):
    c = company(r)
    dom = domain(r, c)
    k = r.randrange(3)
    chrome = r.randrange(131, 139)
    if k == 0:
        lines = [f'fetch("https://api.{dom}/v2/search?q={r.choice(WORDS)}&page=2", {{', '  "headers": {',
                 '    "accept": "application/json",', '    "accept-language": "en-US,en;q=0.9",',
                 f'    "if-none-match": "W/\\"{rhex(r, 8)}-{rs(r, B64URL, 27)}\\"",',
                 f'    "sec-ch-ua": "\\"Chromium\\";v=\\"{chrome}\\", \\"Not.A/Brand\\";v=\\"99\\"",', '    "sec-fetch-mode": "cors",',
                 f'    "x-request-id": "{ruuid(r)}"', "  },", f'  "referrer": "https://{dom}/",', '  "body": null,',
                 '  "method": "GET",', '  "mode": "cors",', '  "credentials": "include"', "});"]
        return "js", J(lines)
    if k == 1:
        lines = [f"curl 'https://{dom}/_next/data/{rs(r, B64URL, 21)}/en/pricing.json' \\",
                 "  -H 'accept: */*' \\", f"  -b '_ga=GA1.1.{r.randrange(10 ** 8, 10 ** 10)}.{int(when(r).timestamp())}; _ga_{rs(r, UPP + DIG, 10)}=GS1.1.{int(when(r).timestamp())}.3.1.{int(when(r).timestamp())}.0.0.0; theme=light; locale=en' \\",
                 f"  -H 'if-none-match: \"{rhex(r, 32)}\"' \\", "  -H 'x-nextjs-data: 1' \\",
                 f"  -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{chrome}.0.0.0 Safari/537.36'"]
        return "sh", J(lines)
    t = when(r)
    har = {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [],
                   "entries": [{"startedDateTime": iso(t, True), "time": round(r.uniform(20, 400), 2),
                                "request": {"method": "GET", "url": f"https://cdn.{dom}/static/app.{rhex(r, 8)}.js", "httpVersion": "h3",
                                            "headers": [{"name": "accept", "value": "*/*"}, {"name": "referer", "value": f"https://{dom}/"}],
                                            "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
                                "response": {"status": 200, "statusText": "", "httpVersion": "h3",
                                             "headers": [{"name": "etag", "value": f'"{rhex(r, 32)}"'}, {"name": "x-amz-cf-id", "value": b64(rbytes(r, 42))},
                                                         {"name": "x-amz-version-id", "value": rs(r, B64URL, 32)}, {"name": "age", "value": str(r.randrange(1, 90000))}],
                                             "cookies": [], "content": {"size": r.randrange(1000, 90000), "mimeType": "application/javascript"},
                                             "redirectURL": "", "headersSize": -1, "bodySize": -1, "_transferSize": r.randrange(500, 30000)},
                                "cache": {}, "timings": {"send": 0.2, "wait": 31.5, "receive": 2.1}}]}}
    return "har", json.dumps(har, indent=2) + "\n"


@clean("pkg-auth-env-refs")
def c_pkg(r):
    c = company(r)
    k = r.randrange(6)
    if k == 0:
        lines = ["registry=https://registry.npmjs.org/", f"@{c}:registry=https://npm.pkg.github.com",
                 "//npm.pkg.github.com/:_authToken=${GITHUB_TOKEN}", "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
                 "always-auth=true", "save-exact=true"]
        return "npmrc", J(lines)
    if k == 1:
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<settings>", "  <servers>"]
        for rid in [f"{c}-releases", f"{c}-snapshots", "github"]:
            lines += ["    <server>", f"      <id>{rid}</id>", "      <username>${env.MAVEN_USERNAME}</username>",
                      "      <password>${env.MAVEN_PASSWORD}</password>", "    </server>"]
        lines += ["  </servers>", "</settings>"]
        return "xml", J(lines)
    if k == 2:
        lines = ['<?xml version="1.0" encoding="utf-8"?>', "<configuration>", "  <packageSources>",
                 f'    <add key="{c}" value="https://pkgs.dev.azure.com/{c}/_packaging/internal/nuget/v3/index.json" />',
                 "  </packageSources>", "  <packageSourceCredentials>", f"    <{c}>",
                 '      <add key="Username" value="az" />', '      <add key="ClearTextPassword" value="%NUGET_FEED_PAT%" />',
                 f"    </{c}>", "  </packageSourceCredentials>", "</configuration>"]
        return "config", J(lines)
    if k == 3:
        lines = ["[distutils]", "index-servers =", "    pypi", f"    {c}", "", "[pypi]", "username = __token__",
                 "# password comes from keyring: `keyring set https://upload.pypi.org/legacy/ __token__`", "",
                 f"[{c}]", f"repository = https://nexus.{domain(r, c)}/repository/pypi-internal/", "username = ci"]
        return "pypirc", J(lines)
    if k == 4:
        lines = ["[registry]", 'global-credential-providers = ["cargo:token-from-stdout op read op://Engineering/crates-io/token"]', "",
                 "[registries.%s]" % c, f'index = "sparse+https://cargo.{domain(r, c)}/index/"', 'credential-provider = "cargo:libsecret"', "",
                 "[net]", "git-fetch-with-cli = true"]
        return "toml", J(lines)
    lines = ["npmRegistryServer: \"https://registry.npmjs.org\"", "npmScopes:", f"  {c}:",
             '    npmRegistryServer: "https://npm.pkg.github.com"', '    npmAuthToken: "${GITHUB_TOKEN}"', "",
             "nodeLinker: node-modules", "enableTelemetry: false", "yarnPath: .yarn/releases/yarn-4.5.3.cjs"]
    return "yml", J(lines)


# ===========================================================================
# public interface
# ===========================================================================
def _rng(half, name, i):
    return random.Random(f"{half}:{name}:{i}")


def positives(half, per_template):
    out = []
    for name, fn in POS:
        for i in range(per_template):
            del _MARKS[:]
            kind, ext, value, text = fn(_rng(half, name, i))
            out.append((f"{half}-pos-{name}-{i:02d}.{ext}", name, kind, value, text))
    return out


def cleans(half, per_family):
    out = []
    for name, fn in CLEAN:
        for i in range(per_family):
            ext, text = fn(_rng(half, name, i))
            out.append((f"{half}-clean-{name}-{i:02d}.{ext}", name, text))
    return out


def _line_count(text):
    return len(text.splitlines())


def self_check(per_template=6, per_family=20):
    problems = []
    names = set()
    kinds = {}
    n_pos = n_clean = 0
    for half in HALVES:
        for name, fn in POS:
            for i in range(per_template):
                del _MARKS[:]
                kind, ext, value, text = fn(_rng(half, name, i))
                marks = list(_MARKS)
                fname = f"{half}-pos-{name}-{i:02d}.{ext}"
                n_pos += 1
                kinds[kind] = kinds.get(kind, 0) + 1
                if fname in names:
                    problems.append("duplicate name " + fname)
                names.add(fname)
                if len(marks) != 1:
                    problems.append(f"{fname}: {len(marks)} credentials marked")
                elif not (marks[0] == value or marks[0] in value):
                    problems.append(f"{fname}: marked secret differs from value")
                if name in ENCODED_CONTEXTS:
                    if b64(value.encode()) not in text:
                        problems.append(f"{fname}: base64(value) not in text")
                    if value in text:
                        problems.append(f"{fname}: encoded template also holds the raw value")
                elif value not in text:
                    problems.append(f"{fname}: value not in text")
                if not value or any(ch.isspace() for ch in value) and "PRIVATE KEY" not in value:
                    problems.append(f"{fname}: empty value or whitespace inside a non-key value")
                lc = _line_count(text)
                if not 5 <= lc <= 85:
                    problems.append(f"{fname}: {lc} lines")
        for name, fn in CLEAN:
            for i in range(per_family):
                del _MARKS[:]
                ext, text = fn(_rng(half, name, i))
                fname = f"{half}-clean-{name}-{i:02d}.{ext}"
                n_clean += 1
                if fname in names:
                    problems.append("duplicate name " + fname)
                names.add(fname)
                if _MARKS:
                    problems.append(f"{fname}: clean family produced a marked credential")
                lc = _line_count(text)
                if not 5 <= lc <= 85:
                    problems.append(f"{fname}: {lc} lines")
    # halves must differ and be reproducible
    a = positives(HALVES[0], 1)
    b = positives(HALVES[1], 1)
    if any(x[4] == y[4] for x, y in zip(a, b)):
        problems.append("some template gives identical text in both halves")
    if positives(HALVES[0], 1) != a:
        problems.append("not reproducible")
    ctx = [n for n, _ in POS]
    fams = [n for n, _ in CLEAN]
    if len(ctx) != 55 or len(set(ctx)) != 55:
        problems.append(f"expected 55 distinct templates, got {len(set(ctx))}")
    if len(fams) != 25 or len(set(fams)) != 25:
        problems.append(f"expected 25 distinct clean families, got {len(set(fams))}")
    if not ENCODED_CONTEXTS <= set(ctx):
        problems.append("ENCODED_CONTEXTS names unknown templates")
    return problems, n_pos, n_clean, kinds


def write(outdir, per_template=6, per_family=20):
    os.makedirs(outdir, exist_ok=True)
    np = nc = 0
    for half in HALVES:
        for fname, _ctx, _kind, _value, text in positives(half, per_template):
            with open(os.path.join(outdir, fname), "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
            np += 1
        for fname, _fam, text in cleans(half, per_family):
            with open(os.path.join(outdir, fname), "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
            nc += 1
    return np, nc


def main(argv):
    if len(argv) >= 2 and argv[0] == "--write":
        np, nc = write(argv[1])
        print(f"wrote {np} positives and {nc} cleans to {argv[1]}")
        return 0
    problems, n_pos, n_clean, kinds = self_check()
    pw = sum(v for k, v in kinds.items() if k in ("password", "registry-basic-auth"))
    print(f"templates: {len(POS)}  clean families: {len(CLEAN)}  encoded: {sorted(ENCODED_CONTEXTS)}")
    print(f"positives: {n_pos} ({n_pos // len(HALVES)} per half)  cleans: {n_clean} ({n_clean // len(HALVES)} per half)")
    print(f"credential kinds: {len(kinds)}; human-chosen passwords: {pw}/{n_pos} ({100 * pw / n_pos:.0f}%)")
    for k in sorted(kinds):
        print(f"  {k:28s} {kinds[k]}")
    if problems:
        print(f"{len(problems)} PROBLEMS:")
        for p in problems[:60]:
            print("  " + p)
        return 1
    print("self-check OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
