#!/usr/bin/env python3
"""fifth.py -- blind hold-out corpus #5 for a paste-time secret detector.

API
    positives(half, per_template) -> [(name, context, kind, value, text)]
    cleans(half, per_family)      -> [(name, family, text)]

`half` is "fifth" or "twin".  Every random choice is drawn from
random.Random(f"{half}:{template}:{i}") so the output is reproducible.

Every credential in here is synthetic: random bytes/characters laid out in
the vendor's published format (with a valid checksum where the format has a
public one).  Nothing here is a real issued key.  Vendor documentation
example keys appear only in clean texts (family `vendor_doc_examples`).

Encoded contexts (value not verbatim in text) -- see ENCODED_CONTEXTS:
    k8s_secret_rsa_b64   the PEM private key sits base64-encoded in a
                         Kubernetes Secret's `data:`; `value` is the PEM body.
    gcp_sa_json_airflow  the PEM sits JSON-escaped (\\n) in a service
                         account file; `value` is the escaped form as it
                         appears in the text, so it IS verbatim.
Python 3 standard library only.
"""
import base64
import datetime as _dt
import hashlib
import json
import math
import string
import random
import uuid
import zlib

# --------------------------------------------------------------------------
# generic helpers
# --------------------------------------------------------------------------
UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
ALNUM = UP + LO + DIG
B62 = DIG + UP + LO               # GitHub/npm checksum alphabet (0-9A-Za-z)
HEX = "0123456789abcdef"
URLSAFE = ALNUM + "-_"
B64CH = UP + LO + DIG + "+/"


def rs(r, n, alphabet=ALNUM):
    return "".join(r.choice(alphabet) for _ in range(n))


def rbytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def b62(n, width):
    out = ""
    while n:
        n, m = divmod(n, 62)
        out = B62[m] + out
    return out.rjust(width, "0")


def ruuid(r):
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def rdate(r, start=(2025, 1, 6), days=520):
    d = _dt.datetime(*start) + _dt.timedelta(days=r.randrange(days),
                                             seconds=r.randrange(86400))
    return d


def iso(d, z=True):
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ("Z" if z else "")


FIRST = ["maria", "jonas", "priya", "tomasz", "aiko", "diego", "fatima", "liam",
         "sofia", "kwame", "elena", "rahul", "chen", "noah", "ingrid", "omar",
         "yuki", "lucas", "amara", "pavel", "hana", "mateo", "zoe", "arjun"]
LAST = ["keller", "novak", "okafor", "lindqvist", "tanaka", "moreau", "silva",
        "brennan", "kowalski", "haddad", "fischer", "osei", "romano", "petrov",
        "nakamura", "garcia", "jensen", "ali", "weber", "costa"]
ORGS = ["acme-logistics", "northwind", "bluefin-labs", "quanta-retail", "helio",
        "kestrel-ai", "orbital-foods", "tidewater", "pinecrest", "ferro-analytics",
        "lumen-health", "gridline", "corvid-games", "saltmarsh", "brightpath"]
PROJ = ["billing-api", "ingest-worker", "checkout", "data-platform", "mobile-app",
        "recsys", "auth-gateway", "etl-nightly", "web-frontend", "telemetry",
        "inventory-svc", "ml-training", "notifier", "search-indexer", "reports"]
WORDS = ["amber", "falcon", "harbor", "quartz", "maple", "orbit", "velvet",
         "cobalt", "lantern", "meadow", "pepper", "summit", "tundra", "violet",
         "walnut", "zephyr", "canyon", "ember", "glacier", "juniper", "marlin",
         "nectar", "otter", "pixel", "raven", "saffron", "thistle", "umber",
         "willow", "yarrow", "basil", "cinder", "dune", "fjord", "gecko", "heron"]
TLDS = ["internal", "corp", "io", "net", "dev", "cloud"]


def person(r):
    return r.choice(FIRST), r.choice(LAST)


def user(r):
    f, l = person(r)
    return r.choice([f, f + "." + l, f[0] + l, f + "_" + l[:3], f + str(r.randrange(10, 99))])


def email(r, domain=None):
    f, l = person(r)
    return f"{f}.{l}@{domain or r.choice(ORGS) + '.' + r.choice(['com', 'io', 'dev', 'co'])}"


def host(r, kind=None):
    org = r.choice(ORGS)
    kind = kind or r.choice(["db", "pg", "mq", "cache", "api", "nexus", "git", "ci", "vault"])
    return f"{kind}{r.choice(['', '-01', '-02', '-prod', '-stg'])}.{org}.{r.choice(TLDS)}"


def ip(r):
    return r.choice([f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(1, 255)}",
                     f"192.168.{r.randrange(256)}.{r.randrange(1, 255)}",
                     f"172.{r.randrange(16, 32)}.{r.randrange(256)}.{r.randrange(1, 255)}"])


def gen_password(r, style=None):
    """Realistic human/ops passwords; never placeholder words."""
    style = style or r.choice(["word", "rand", "rand", "phrase", "b64", "hex", "human"])
    if style == "word":
        w = r.choice(WORDS)
        return (w.capitalize() + r.choice("!@#$%&*-_.") + str(r.randrange(1000, 9999))
                + r.choice(WORDS) + r.choice(["", "!", "?", "#"]))
    if style == "rand":
        al = ALNUM + "!#%^*-_=+.@"
        while True:
            p = rs(r, r.randrange(16, 29), al)
            if any(c in DIG for c in p) and any(c in UP for c in p) and any(c in LO for c in p):
                return p
    if style == "phrase":
        return r.choice(["-", ".", "_"]).join(r.sample(WORDS, 4)) + str(r.randrange(10, 99))
    if style == "b64":
        return b64u(rbytes(r, r.choice([18, 24, 32])))
    if style == "hex":
        return rs(r, r.choice([24, 32, 40]), HEX)
    if style == "human":
        return (r.choice(WORDS).capitalize() + r.choice(["2024", "2025", "1987", "77", "2026"])
                + r.choice(["!", "$", "#", "!!"]) + r.choice(WORDS)[:3].upper())
    raise ValueError(style)


# --------------------------------------------------------------------------
# vendor-format token generators (see fifth-sources.md for definitions)
# --------------------------------------------------------------------------
def crc_b62_token(r, prefix):
    """GitHub / npm style: prefix + 30 base62 + 6-char base62 CRC32 of the 30."""
    body = rs(r, 30, B62)
    return prefix + body + b62(zlib.crc32(body.encode()) & 0xFFFFFFFF, 6)


def ghp(r):
    return crc_b62_token(r, "ghp_")


def npm_token(r):
    return crc_b62_token(r, "npm_")


def github_fine_grained(r):
    return "github_pat_" + "11" + rs(r, 20, UP + DIG) + "_" + rs(r, 59, ALNUM)


def glpat(r):
    return "glpat-" + rs(r, 20, ALNUM + "-_")


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
    """Macaroon v2 binary (location pypi.org, uuid identifier, JSON caveats)."""
    def field(t, b):
        return bytes([t]) + _varint(len(b)) + b
    ident = ruuid(r).encode()
    if project:
        cav = json.dumps({"version": 1, "permissions": {"projects": [project]}}).encode()
    else:
        cav = json.dumps({"version": 1, "permissions": "user"}).encode()
    mac = b"\x02" + field(1, b"pypi.org") + field(2, ident) + b"\x00"
    mac += field(2, cav) + b"\x00"
    mac += b"\x00" + field(6, rbytes(r, 32))
    tok = "pypi-" + b64u(mac)
    assert tok.startswith("pypi-AgEIcHlwaS5vcmc")
    return tok


def crates_token(r):
    return "cio" + rs(r, 32, ALNUM)


def nuget_key(r):
    return "oy2" + rs(r, 43, LO + DIG)


def rubygems_key(r):
    return "rubygems_" + rs(r, 48, HEX)


def slack_bot(r):
    return "xoxb-%d-%d-%s" % (r.randrange(10 ** 10, 10 ** 12), r.randrange(10 ** 12, 10 ** 13),
                              rs(r, 24, ALNUM))


def stripe_secret(r):
    mode = r.choice(["sk_live_", "sk_live_", "rk_live_"])
    return mode + "51" + rs(r, 22, ALNUM) + rs(r, 75, ALNUM)


def aws_pair(r):
    return "AKIA" + rs(r, 16, UP + "234567"), rs(r, 40, ALNUM + "+/")


def openai_key(r):
    kind = r.choice(["proj", "proj", "svcacct"])
    return f"sk-{kind}-" + rs(r, 74, URLSAFE) + "T3BlbkFJ" + rs(r, 74, URLSAFE)


def anthropic_key(r):
    return "sk-ant-api03-" + rs(r, 93, URLSAFE) + "AA"


def hf_token(r):
    return "hf_" + rs(r, 34, UP + LO)


def sendgrid_key(r):
    return "SG." + rs(r, 22, URLSAFE) + "." + rs(r, 43, URLSAFE)


def databricks_token(r):
    return "dapi" + rs(r, 32, HEX) + r.choice(["", "", "-2", "-3"])


def grafana_sa(r):
    secret = rs(r, 32, ALNUM)
    crc = zlib.crc32(("glsa_" + secret).encode()) & 0xFFFFFFFF
    return "glsa_" + secret + "_" + crc.to_bytes(4, "little").hex()


def do_token(r):
    return "dop_v1_" + rs(r, 64, HEX)


def vault_token(r):
    """hvs. + base64url(protobuf{1:1, 2:<32 random>, 3:{1:"hvs."+24}})."""
    inner = b"hvs." + rs(r, 24, ALNUM).encode()
    blob = b"\x08\x01\x12\x20" + rbytes(r, 32) + b"\x1a" + bytes([len(inner) + 2]) + b"\x0a" + bytes([len(inner)]) + inner
    return "hvs." + b64u(blob)


def docker_pat(r):
    return "dckr_pat_" + rs(r, 27, URLSAFE)


def google_api_key(r):
    return "AIzaSy" + rs(r, 33, URLSAFE)


def entra_secret(r):
    return rs(r, 3, ALNUM + "_~.") + r.choice(DIG) + "Q~" + rs(r, 34, ALNUM + "_~.-")


# --------------------------------------------------------------------------
# keys: ed25519 (real derivation), RSA (real primes), DER/PEM
# --------------------------------------------------------------------------
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


def _edadd(p, q):
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
    q, p = (0, 1, 1, 0), (_BX, _BY, 1, _BX * _BY % _P)
    while a:
        if a & 1:
            q = _edadd(q, p)
        p = _edadd(p, p)
        a >>= 1
    zi = pow(q[2], _P - 2, _P)
    x, y = q[0] * zi % _P, q[1] * zi % _P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _sshstr(b):
    return len(b).to_bytes(4, "big") + b


def openssh_ed25519(r, comment):
    seed = rbytes(r, 32)
    pub = ed25519_pub(seed)
    pubblob = _sshstr(b"ssh-ed25519") + _sshstr(pub)
    chk = rbytes(r, 4)
    priv = (chk + chk + _sshstr(b"ssh-ed25519") + _sshstr(pub) + _sshstr(seed + pub)
            + _sshstr(comment.encode()))
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = (b"openssh-key-v1\0" + _sshstr(b"none") + _sshstr(b"none") + _sshstr(b"")
            + (1).to_bytes(4, "big") + _sshstr(pubblob) + _sshstr(priv))
    pem = ("-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(b64(blob), 70)
           + "\n-----END OPENSSH PRIVATE KEY-----")
    return pem, "ssh-ed25519 " + b64(pubblob) + " " + comment


_SMALL = [p for p in range(3, 2000, 2) if all(p % d for d in range(3, int(p ** 0.5) + 1, 2))]


def _probable_prime(n, r):
    for p in _SMALL:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(12):
        a = r.randrange(2, n - 2)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(r, bits):
    while True:
        n = r.getrandbits(bits) | (3 << (bits - 2)) | 1
        if _probable_prime(n, r):
            return n


def rsa_key(r, bits=2048):
    e = 65537
    while True:
        p, q = _prime(r, bits // 2), _prime(r, bits // 2)
        phi = (p - 1) * (q - 1)
        if p != q and math.gcd(e, phi) == 1 and (p * q).bit_length() == bits:
            break
    if p < q:
        p, q = q, p
    d = pow(e, -1, phi)
    return (p * q, e, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p))


def _der_len(n):
    if n < 128:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def _der(tag, body):
    return bytes([tag]) + _der_len(len(body)) + body


def _der_int(v):
    return _der(0x02, v.to_bytes(v.bit_length() // 8 + 1, "big"))


def rsa_pkcs1_der(r, bits=2048):
    return _der(0x30, b"".join(_der_int(x) for x in (0,) + rsa_key(r, bits)))


def pkcs8_from_pkcs1(der1):
    alg = _der(0x30, _der(0x06, bytes.fromhex("2a864886f70d010101")) + b"\x05\x00")
    return _der(0x30, _der_int(0) + alg + _der(0x04, der1))


def pem(label, der):
    return f"-----BEGIN {label}-----\n" + wrap(b64(der), 64) + f"\n-----END {label}-----"


def jwt(r, claims, alg="HS256"):
    head = b64u(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(claims, separators=(",", ":")).encode())
    sig = b64u(rbytes(r, 32 if alg.startswith("HS") else 256))
    return f"{head}.{body}.{sig}"


def wg_private(r):
    k = bytearray(rbytes(r, 32))
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    return b64(bytes(k))


# --------------------------------------------------------------------------
# positive templates.  Each: fn(r, i) -> (name, kind, value, text)
# --------------------------------------------------------------------------
POS = []          # list of (context, category, kind, fn)


def pos(context, category, kind):
    def deco(fn):
        POS.append((context, category, kind, fn))
        return fn
    return deco


# ---------------------------- vendor formats (22) -------------------------
@pos("npmrc_publish_fail", "vendor", "npm-access-token")
def t_npmrc(r, i):
    tok = npm_token(r)
    scope = "@" + r.choice(ORGS)
    pkg = f"{scope}/{r.choice(PROJ)}"
    ver = f"{r.randrange(0, 4)}.{r.randrange(0, 20)}.{r.randrange(0, 30)}"
    style = r.randrange(3)
    npmrc = [f"{scope}:registry=https://registry.npmjs.org/",
             f"//registry.npmjs.org/:_authToken={tok}" if style else f'//registry.npmjs.org/:_authToken="{tok}"',
             "always-auth=true" if r.random() < 0.5 else "save-exact=true",
             f"engine-strict=true"]
    if r.random() < 0.5:
        npmrc.insert(0, "fund=false")
    text = [f"publishing {pkg} from our monorepo keeps failing in CI, works locally. .npmrc in the package dir:",
            "", "```"] + npmrc + ["```", "", "and the output:", "", "```",
            f"$ npm publish --access public",
            f"npm notice",
            f"npm notice 📦  {pkg}@{ver}",
            f"npm notice Tarball Contents",
            f"npm notice {r.randrange(1, 9)}.{r.randrange(10)}kB README.md",
            f"npm notice {r.randrange(10, 90)}.{r.randrange(10)}kB dist/index.js",
            f"npm notice {r.randrange(1, 4)}.{r.randrange(10)}kB package.json",
            f"npm notice Tarball Details",
            f"npm notice name: {pkg}",
            f"npm notice version: {ver}",
            f"npm notice total files: {r.randrange(3, 40)}",
            f"npm notice Publishing to https://registry.npmjs.org/ with tag latest and public access",
            f"npm ERR! code E404",
            f"npm ERR! 404 Not Found - PUT https://registry.npmjs.org/{pkg.replace('/', '%2f')} - Not found",
            f"npm ERR! 404",
            f"npm ERR! 404  '{pkg}@{ver}' is not in this registry.",
            f"npm ERR! A complete log of this run can be found in: /home/runner/.npm/_logs/{iso(rdate(r)).replace(':', '_')}-debug-0.log",
            "```", "", "the token is a granular one with read/write on the scope, node 22, npm 10.9. any idea?"]
    return f"npmrc-publish-{i}.md", tok, "\n".join(text)


@pos("gha_log_git_push", "vendor", "github-pat-classic")
def t_gha(r, i):
    tok = ghp(r)
    org, repo = r.choice(ORGS), r.choice(PROJ)
    d = rdate(r)
    ts = lambda k: (d + _dt.timedelta(seconds=k)).strftime("%Y-%m-%dT%H:%M:%S.") + f"{r.randrange(10**7):07d}Z"
    bot = r.choice(["release-bot", "ci-bot", org + "-automation"])
    lines = [f"{ts(0)} ##[group]Run git config --global user.name \"{bot}\"",
             f"{ts(0)} git config --global user.name \"{bot}\"",
             f"{ts(0)} git config --global user.email \"{bot}@users.noreply.github.com\"",
             f"{ts(0)} git remote set-url origin https://{bot}:{tok}@github.com/{org}/{repo}.git",
             f"{ts(0)} git tag v{r.randrange(1, 5)}.{r.randrange(30)}.{r.randrange(20)}",
             f"{ts(0)} git push origin --tags",
             f"{ts(0)} shell: /usr/bin/bash -e {{0}}",
             f"{ts(1)} ##[endgroup]",
             f"{ts(2)} remote: Permission to {org}/{repo}.git denied to {bot}.",
             f"{ts(2)} fatal: unable to access 'https://github.com/{org}/{repo}.git/': The requested URL returned error: 403",
             f"{ts(2)} ##[error]Process completed with exit code 128."]
    pre = [f"{ts(-9)} Current runner version: '2.{r.randrange(320, 330)}.{r.randrange(3)}'",
           f"{ts(-9)} Runner name: 'GitHub Actions {r.randrange(2, 90)}'",
           f"{ts(-9)} Image: ubuntu-24.04",
           f"{ts(-8)} ##[group]Run actions/checkout@v4",
           f"{ts(-8)} with:",
           f"{ts(-8)}   fetch-depth: 0",
           f"{ts(-8)}   persist-credentials: false",
           f"{ts(-7)} ##[endgroup]",
           f"{ts(-5)} Syncing repository: {org}/{repo}"]
    text = (["Release job fails at the tag step (log below, copied from the Actions UI). Why 403 if the token has repo scope?", ""]
            + pre + lines)
    return f"actions-release-log-{i}.txt", tok, "\n".join(text)


@pos("go_github_client", "vendor", "github-pat-fine-grained")
def t_go_gh(r, i):
    tok = github_fine_grained(r)
    org = r.choice(ORGS)
    var = r.choice(["token", "ghToken", "accessToken", "pat"])
    text = f'''package main

import (
	"context"
	"fmt"
	"log"

	"github.com/google/go-github/v66/github"
)

const {var} = "{tok}"

func main() {{
	ctx := context.Background()
	client := github.NewClient(nil).WithAuthToken({var})

	opts := &github.RepositoryListByOrgOptions{{Type: "private", ListOptions: github.ListOptions{{PerPage: 100}}}}
	for {{
		repos, resp, err := client.Repositories.ListByOrg(ctx, "{org}", opts)
		if err != nil {{
			log.Fatalf("list repos: %v", err)
		}}
		for _, r := range repos {{
			fmt.Println(r.GetFullName(), r.GetDefaultBranch())
		}}
		if resp.NextPage == 0 {{
			break
		}}
		opts.Page = resp.NextPage
	}}
}}

// output:
// 2025/{r.randrange(1, 13):02d}/{r.randrange(1, 28):02d} 1{r.randrange(10)}:0{r.randrange(10)}:{r.randrange(10, 60)} list repos: GET https://api.github.com/orgs/{org}/repos?per_page=100&type=private: 403 Resource not accessible by personal access token []
// the fine-grained token has "Metadata: read" on all repos of the org, what am I missing?
'''
    return f"main-{i}.go", tok, text


@pos("gitlab_ci_variables", "vendor", "gitlab-pat")
def t_gitlab(r, i):
    tok = glpat(r)
    grp = r.choice(ORGS)
    name = r.choice(["GL_TOKEN", "GITLAB_API_TOKEN", "RELEASE_TOKEN", "PRIVATE_TOKEN"])
    text = f'''stages:
  - build
  - release

variables:
  DOCKER_DRIVER: overlay2
  {name}: "{tok}"
  GIT_DEPTH: "0"

build:
  stage: build
  image: node:22-alpine
  script:
    - npm ci
    - npm run build
  artifacts:
    paths: [dist/]

release:
  stage: release
  image: registry.gitlab.com/gitlab-org/release-cli:latest
  rules:
    - if: $CI_COMMIT_TAG
  script:
    - >
      curl --fail --header "PRIVATE-TOKEN: ${name}"
      --upload-file dist/bundle.tgz
      "$CI_API_V4_URL/projects/$CI_PROJECT_ID/packages/generic/bundle/$CI_COMMIT_TAG/bundle.tgz"
  release:
    tag_name: $CI_COMMIT_TAG
    description: "Release $CI_COMMIT_TAG"

# job log: curl: (22) The requested URL returned error: 401
# self-managed gitlab 17.{r.randrange(0, 11)}, group {grp}. token is a project access token with api scope
'''
    return f"gitlab-ci-{i}.yml", tok, text


@pos("pypirc_twine", "vendor", "pypi-api-token")
def t_pypirc(r, i):
    proj = r.choice(PROJ).replace("-", "_") + r.choice(["", "_client", "_sdk"])
    tok = pypi_token(r, project=proj if r.random() < 0.5 else None)
    text = f'''$ cat ~/.pypirc
[distutils]
index-servers =
    pypi
    testpypi

[pypi]
username = __token__
password = {tok}

[testpypi]
repository = https://test.pypi.org/legacy/
username = __token__

$ python -m twine upload dist/*
Uploading distributions to https://upload.pypi.org/legacy/
Uploading {proj}-{r.randrange(0, 3)}.{r.randrange(0, 15)}.{r.randrange(0, 9)}-py3-none-any.whl
100% ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ {r.randrange(10, 90)}.{r.randrange(10)}/{r.randrange(10, 90)}.{r.randrange(10)} kB • 00:00 • ?
WARNING  Error during upload. Retry with the --verbose option for more details.
ERROR    HTTPError: 403 Forbidden from https://upload.pypi.org/legacy/
         Invalid API Token: project-scoped token is not valid for project: '{proj}'
'''
    return f"pypirc-{i}.txt", tok, text


@pos("cargo_credentials_toml", "vendor", "crates-io-token")
def t_cargo(r, i):
    tok = crates_token(r)
    crate = r.choice(WORDS) + "-" + r.choice(["rs", "core", "derive", "macros", "cli"])
    text = f'''# ~/.cargo/credentials.toml
[registry]
token = "{tok}"

[registries.{r.choice(ORGS).replace("-", "_")}]
credential-provider = "cargo:token"

# ~/.cargo/config.toml
[registry]
global-credential-providers = ["cargo:token"]

$ cargo publish -p {crate}
    Updating crates.io index
   Packaging {crate} v0.{r.randrange(1, 9)}.{r.randrange(10)}
    Verifying {crate} v0.{r.randrange(1, 9)}.{r.randrange(10)}
   Compiling {crate} v0.{r.randrange(1, 9)}.{r.randrange(10)} (/home/{user(r)}/src/{crate}/target/package/{crate})
    Finished `dev` profile [unoptimized + debuginfo] target(s) in {r.randrange(3, 40)}.{r.randrange(10, 99)}s
   Uploading {crate}
error: failed to publish to registry at https://crates.io

Caused by:
  the remote server responded with an error (status 403 Forbidden): this token does not have the required permissions to perform this action
'''
    return f"cargo-publish-{i}.txt", tok, text


@pos("nuget_push_powershell", "vendor", "nuget-api-key")
def t_nuget(r, i):
    key = nuget_key(r)
    pkg = r.choice(ORGS).title().replace("-", ".") + "." + r.choice(["Core", "Client", "Abstractions", "Http"])
    ver = f"{r.randrange(1, 9)}.{r.randrange(0, 12)}.{r.randrange(0, 20)}"
    text = f'''PS C:\\src\\{pkg}> dotnet pack -c Release -o .\\artifacts
  Determining projects to restore...
  All projects are up-to-date for restore.
  {pkg} -> C:\\src\\{pkg}\\bin\\Release\\net8.0\\{pkg}.dll
  Successfully created package 'C:\\src\\{pkg}\\artifacts\\{pkg}.{ver}.nupkg'.
PS C:\\src\\{pkg}> dotnet nuget push .\\artifacts\\{pkg}.{ver}.nupkg --api-key {key} --source https://api.nuget.org/v3/index.json
Pushing {pkg}.{ver}.nupkg to 'https://www.nuget.org/api/v2/package'...
  PUT https://www.nuget.org/api/v2/package/
warn : The package ID '{pkg}' is reserved. Please try to push a different package ID or contact the package owner.
  Forbidden https://www.nuget.org/api/v2/package/ {r.randrange(300, 900)}ms
error: Response status code does not indicate success: 403 (The specified API key is invalid, has expired, or does not have permission to access the specified package.).
PS C:\\src\\{pkg}>
'''
    return f"nuget-push-{i}.txt", key, text


@pos("gem_credentials_yaml", "vendor", "rubygems-api-key")
def t_gem(r, i):
    key = rubygems_key(r)
    gem = r.choice(WORDS) + "_" + r.choice(["rails", "client", "cli", "rb"])
    text = f'''$ cat ~/.gem/credentials
---
:rubygems_api_key: {key}
$ ls -l ~/.gem/credentials
-rw-r--r-- 1 {user(r)} staff 79 {rdate(r).strftime("%b %d %H:%M")} /Users/x/.gem/credentials
$ gem push {gem}-{r.randrange(0, 3)}.{r.randrange(0, 9)}.{r.randrange(0, 9)}.gem
ERROR:  Your gem push credentials file located at:

	/Users/x/.gem/credentials

has file permissions of 0644 but 0600 is required.

To fix this error run:

	chmod 0600 /Users/x/.gem/credentials

You should reset your credentials at:

	https://rubygems.org/profile/edit

if you believe they were disclosed to a third party.
'''
    return f"gem-push-{i}.txt", key, text


@pos("slack_bolt_python", "vendor", "slack-bot-token")
def t_slack(r, i):
    tok = slack_bot(r)
    ch = r.choice(["#deploys", "#alerts", "#ops", "#data-eng", "#support-escalations"])
    text = f'''import os
import logging
from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler

logging.basicConfig(level=logging.DEBUG)

app = App(token="{tok}")


@app.command("/deploy-status")
def deploy_status(ack, respond, command):
    ack()
    env = (command.get("text") or "prod").strip()
    respond(f"checking {{env}} ...")


@app.event("app_mention")
def mention(event, say):
    say(f"hi <@{{event['user']}}>, try /deploy-status")


if __name__ == "__main__":
    app.client.chat_postMessage(channel="{ch}", text="bot online")
    SocketModeHandler(app, os.environ["SLACK_APP_TOKEN"]).start()

# Traceback (most recent call last):
#   File "bot.py", line 27, in <module>
#     app.client.chat_postMessage(channel="{ch}", text="bot online")
# slack_sdk.errors.SlackApiError: The request to the Slack API failed. (url: https://slack.com/api/chat.postMessage)
# The server responded with: {{'ok': False, 'error': 'not_in_channel'}}
'''
    return f"bot-{i}.py", tok, text


@pos("stripe_node_webhook", "vendor", "stripe-secret-key")
def t_stripe(r, i):
    key = stripe_secret(r)
    port = r.choice([3000, 4242, 8080, 5000])
    text = f'''// server.js  (express 4, stripe-node 17)
const express = require('express');
const stripe = require('stripe')('{key}');
const app = express();

app.post('/webhook', express.raw({{type: 'application/json'}}), (req, res) => {{
  const sig = req.headers['stripe-signature'];
  let event;
  try {{
    event = stripe.webhooks.constructEvent(req.body, sig, process.env.STRIPE_WEBHOOK_SECRET);
  }} catch (err) {{
    console.log(`⚠️  Webhook signature verification failed.`, err.message);
    return res.sendStatus(400);
  }}
  switch (event.type) {{
    case 'checkout.session.completed':
      fulfil(event.data.object);
      break;
    default:
      console.log(`Unhandled event type ${{event.type}}`);
  }}
  res.send();
}});

app.use(express.json());  // <- moved this below the webhook route, still 400

app.listen({port}, () => console.log('Running on port {port}'));

/*
⚠️  Webhook signature verification failed. No signatures found matching the expected signature for payload.
Are you passing the raw request body you received from Stripe?
*/
'''
    return f"server-{i}.js", key, text


@pos("aws_credentials_ini", "vendor", "aws-secret-access-key")
def t_aws(r, i):
    akid, secret = aws_pair(r)
    region = r.choice(["eu-west-1", "us-east-1", "eu-central-1", "ap-southeast-2", "us-west-2"])
    acct = "".join(r.choice(DIG) for _ in range(12))
    prof = r.choice(["dev", "staging", "data", "sandbox"])
    sso_start = r.choice(ORGS)
    text = f'''$ cat ~/.aws/credentials
[default]
aws_access_key_id = {akid}
aws_secret_access_key = {secret}

$ cat ~/.aws/config
[default]
region = {region}
output = json

[profile {prof}]
sso_session = {sso_start}
sso_account_id = {acct}
sso_role_name = PowerUserAccess
region = {region}

[sso-session {sso_start}]
sso_start_url = https://{sso_start}.awsapps.com/start
sso_region = {region}

$ aws s3 ls --profile {prof}
Error when retrieving token from sso: Token has expired and refresh failed
$ aws sts get-caller-identity
{{
    "UserId": "AIDA{rs(r, 17, UP + DIG)}",
    "Account": "{acct}",
    "Arn": "arn:aws:iam::{acct}:user/{user(r)}"
}}
'''
    return f"aws-config-{i}.txt", secret, text


@pos("jupyter_openai_cell", "vendor", "openai-api-key")
def t_jupyter(r, i):
    key = openai_key(r)
    model = r.choice(["gpt-4o-mini", "gpt-4.1", "gpt-4o", "o4-mini"])
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["## Summarise support tickets\n"]},
        {"cell_type": "code", "execution_count": r.randrange(1, 9), "metadata": {}, "outputs": [],
         "source": ["import pandas as pd\n", "from openai import OpenAI\n", "\n",
                    f"client = OpenAI(api_key=\"{key}\")\n",
                    "df = pd.read_csv('tickets.csv')\n", "df.head()"]},
        {"cell_type": "code", "execution_count": r.randrange(10, 20), "metadata": {},
         "outputs": [{"name": "stderr", "output_type": "stream",
                      "text": ["RateLimitError: Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check your plan and billing details.', 'type': 'insufficient_quota', 'param': None, 'code': 'insufficient_quota'}}\n"]}],
         "source": ["resp = client.chat.completions.create(\n",
                    f"    model=\"{model}\",\n",
                    "    messages=[{\"role\": \"user\", \"content\": \"Summarise: \" + df.body[0]}],\n", ")\n",
                    "print(resp.choices[0].message.content)"]},
    ]
    nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                                       "language_info": {"name": "python", "version": "3.12.%d" % r.randrange(1, 9)}},
          "nbformat": 4, "nbformat_minor": 5}
    return f"tickets-{i}.ipynb", key, json.dumps(nb, indent=1)


@pos("anthropic_curl_debug", "vendor", "anthropic-api-key")
def t_anthropic(r, i):
    key = anthropic_key(r)
    model = r.choice(["claude-sonnet-4-5", "claude-opus-4-1", "claude-3-5-haiku-latest", "claude-sonnet-4-20250514"])
    rid = "req_" + rs(r, 24, ALNUM)
    text = f'''$ curl -sS https://api.anthropic.com/v1/messages \\
    -H "x-api-key: {key}" \\
    -H "anthropic-version: 2023-06-01" \\
    -H "content-type: application/json" \\
    -d '{{"model": "{model}", "max_tokens": 1024, "messages": [{{"role": "user", "content": "ping"}}]}}' -v 2>&1 | tail -n 14
> POST /v1/messages HTTP/2
> Host: api.anthropic.com
> user-agent: curl/8.{r.randrange(5, 12)}.0
> accept: */*
> content-length: {r.randrange(100, 140)}
>
< HTTP/2 400
< content-type: application/json
< request-id: {rid}
< anthropic-organization-id: {ruuid(r)}
<
{{"type":"error","error":{{"type":"invalid_request_error","message":"max_tokens: Field required"}},"request_id":"{rid}"}}

works from the python SDK but not curl, same body. what's different?
'''
    return f"anthropic-curl-{i}.txt", key, text


@pos("colab_hf_login_output", "vendor", "huggingface-token")
def t_hf(r, i):
    tok = hf_token(r)
    model = r.choice(["meta-llama/Llama-3.2-3B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3",
                      "google/gemma-2-9b-it", "Qwen/Qwen2.5-7B-Instruct"])
    text = f'''[1] !pip install -q transformers accelerate bitsandbytes huggingface_hub
[2] from huggingface_hub import login
    login(token="{tok}", add_to_git_credential=True)

    Token is valid (permission: fineGrained).
    The token `colab` has been saved to /root/.cache/huggingface/stored_tokens
    Your token has been saved in your configured git credential helpers (store).
    Your token has been saved to /root/.cache/huggingface/token
    Login successful.
    The current active token is: `colab`
[3] from transformers import AutoTokenizer, AutoModelForCausalLM
    tok = AutoTokenizer.from_pretrained("{model}")

    ---------------------------------------------------------------------------
    HTTPError                                 Traceback (most recent call last)
    /usr/local/lib/python3.11/dist-packages/huggingface_hub/utils/_http.py in hf_raise_for_status(response, endpoint_name)
        405     try:
    --> 406         response.raise_for_status()
        407     except HTTPError as e:

    GatedRepoError: 403 Client Error. (Request ID: Root=1-{rs(r, 8, HEX)}-{rs(r, 24, HEX)};{ruuid(r)})

    Cannot access gated repo for url https://huggingface.co/{model}/resolve/main/config.json.
    Access to model {model} is restricted and you are not in the authorized list. Visit https://huggingface.co/{model} to ask for access.
'''
    return f"colab-hf-{i}.txt", tok, text


@pos("django_dotenv_sendgrid", "vendor", "sendgrid-api-key")
def t_sendgrid(r, i):
    key = sendgrid_key(r)
    dom = r.choice(ORGS) + ".com"
    text = f'''# .env  (django-environ)
DEBUG=False
ALLOWED_HOSTS={dom},www.{dom}
DATABASE_URL=postgres://app@localhost:5432/app
EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend
EMAIL_HOST=smtp.sendgrid.net
EMAIL_PORT=587
EMAIL_USE_TLS=True
EMAIL_HOST_USER=apikey
EMAIL_HOST_PASSWORD={key}
DEFAULT_FROM_EMAIL=no-reply@{dom}

# settings.py
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD")

>>> from django.core.mail import send_mail
>>> send_mail("t", "t", None, ["{email(r)}"])
Traceback (most recent call last):
  ...
  File "/usr/lib/python3.12/smtplib.py", line 750, in login
    raise last_exception
smtplib.SMTPAuthenticationError: (535, b'Authentication failed: The provided authorization grant is invalid, expired, or revoked')
'''
    return f"django-env-{i}.txt", key, text


@pos("dbt_profiles_databricks", "vendor", "databricks-token")
def t_dbt(r, i):
    tok = databricks_token(r)
    ws = f"adb-{r.randrange(10**15, 10**16)}.{r.randrange(1, 20)}.azuredatabricks.net" if r.random() < 0.5 else f"dbc-{rs(r, 8, HEX)}-{rs(r, 4, HEX)}.cloud.databricks.com"
    proj = r.choice(["analytics", "warehouse", "lakehouse", "marts"])
    text = f'''# ~/.dbt/profiles.yml
{proj}:
  target: dev
  outputs:
    dev:
      type: databricks
      catalog: {r.choice(["main", "dev", "hive_metastore"])}
      schema: dbt_{user(r).replace(".", "_")}
      host: {ws}
      http_path: /sql/1.0/warehouses/{rs(r, 16, HEX)}
      token: {tok}
      threads: {r.choice([4, 8, 16])}

$ dbt debug
{r.randrange(10, 23)}:{r.randrange(10, 59)}:{r.randrange(10, 59)}  Running with dbt=1.{r.randrange(8, 10)}.{r.randrange(0, 5)}
{r.randrange(10, 23)}:{r.randrange(10, 59)}:{r.randrange(10, 59)}  dbt version: 1.{r.randrange(8, 10)}.{r.randrange(0, 5)}
{r.randrange(10, 23)}:{r.randrange(10, 59)}:{r.randrange(10, 59)}  Registered adapter: databricks=1.{r.randrange(8, 10)}.{r.randrange(0, 5)}
{r.randrange(10, 23)}:{r.randrange(10, 59)}:{r.randrange(10, 59)}  Connection test: [ERROR]

1 check failed:
dbt was unable to connect to the specified database.
The database returned the following error:

  >Runtime Error
  Database Error
    Error during request to server: : Invalid access to Org: {r.randrange(10**15, 10**16)}
'''
    return f"dbt-profiles-{i}.txt", tok, text


@pos("grafana_terraform_provider", "vendor", "grafana-sa-token")
def t_grafana(r, i):
    tok = grafana_sa(r)
    url = r.choice([f"https://{r.choice(ORGS)}.grafana.net", f"https://grafana.{r.choice(ORGS)}.{r.choice(TLDS)}"])
    text = f'''terraform {{
  required_providers {{
    grafana = {{
      source  = "grafana/grafana"
      version = "~> 3.{r.randrange(10, 25)}"
    }}
  }}
}}

provider "grafana" {{
  url  = "{url}"
  auth = "{tok}"
}}

resource "grafana_folder" "platform" {{
  title = "Platform"
}}

resource "grafana_dashboard" "api_latency" {{
  folder      = grafana_folder.platform.uid
  config_json = file("${{path.module}}/dashboards/api-latency.json")
}}

# terraform apply:
# Error: status: 403, body: {{"accessErrorId":"ACE{r.randrange(10**9, 10**10)}","message":"You'll need additional permissions to perform this action. Permissions needed: folders:create","title":"Access denied"}}
#
#   with grafana_folder.platform,
#   on main.tf line 16, in resource "grafana_folder" "platform":
'''
    return f"main-{i}.tf", tok, text


@pos("tfvars_digitalocean", "vendor", "digitalocean-pat")
def t_do(r, i):
    tok = do_token(r)
    region = r.choice(["ams3", "fra1", "nyc3", "sgp1", "lon1"])
    text = f'''# terraform.tfvars
do_token     = "{tok}"
region       = "{region}"
droplet_size = "s-2vcpu-4gb"
ssh_key_ids  = [{r.randrange(10**7, 10**8)}]
project_name = "{r.choice(PROJ)}"

# variables.tf
variable "do_token" {{
  type      = string
  sensitive = true
}}

$ terraform plan
data.digitalocean_ssh_key.me: Reading...
╷
│ Error: Error retrieving SSH key: GET https://api.digitalocean.com/v2/account/keys/{r.randrange(10**7, 10**8)}: 401 (request "{ruuid(r)}") Unable to authenticate you
│
│   with data.digitalocean_ssh_key.me,
│   on main.tf line 12, in data "digitalocean_ssh_key" "me":
│   12: data "digitalocean_ssh_key" "me" {{
╵
'''
    return f"tfvars-{i}.txt", tok, text


@pos("vault_shell_session", "vendor", "vault-token")
def t_vault(r, i):
    tok = vault_token(r)
    addr = f"https://{host(r, 'vault')}:8200"
    path = f"secret/{r.choice(PROJ)}/{r.choice(['prod', 'staging', 'dev'])}"
    text = f'''$ export VAULT_ADDR={addr}
$ export VAULT_TOKEN={tok}
$ vault status
Key                     Value
---                     -----
Seal Type               shamir
Initialized             true
Sealed                  false
Total Shares            5
Threshold               3
Version                 1.{r.randrange(15, 20)}.{r.randrange(0, 6)}
Storage Type            raft
HA Enabled              true
$ vault kv get {path}
Error reading {path.replace("secret/", "secret/data/")}: Error making API request.

URL: GET {addr}/v1/{path.replace("secret/", "secret/data/")}
Code: 403. Errors:

* 1 error occurred:
	* permission denied

$ vault token lookup | grep policies
policies            [default {r.choice(PROJ)}-read]
'''
    return f"vault-session-{i}.txt", tok, text


@pos("buildkite_docker_login", "vendor", "dockerhub-pat")
def t_docker(r, i):
    tok = docker_pat(r)
    u = user(r).replace(".", "")
    img = f"{u}/{r.choice(PROJ)}"
    text = f'''# .buildkite/pipeline.yml
steps:
  - label: ":docker: build & push"
    agents:
      queue: linux-amd64
    commands:
      - echo "{tok}" | docker login -u {u} --password-stdin
      - docker build -t {img}:$BUILDKITE_BUILD_NUMBER .
      - docker push {img}:$BUILDKITE_BUILD_NUMBER
    plugins:
      - docker-compose#v5.{r.randrange(0, 6)}.0:
          run: app

  - wait

  - label: ":rocket: deploy"
    branches: main
    command: ./scripts/deploy.sh {img}:$BUILDKITE_BUILD_NUMBER

# failing with:
# Error response from daemon: Get "https://registry-1.docker.io/v2/": unauthorized: incorrect username or password
'''
    return f"pipeline-{i}.yml", tok, text


@pos("gemini_python_script", "vendor", "google-api-key")
def t_gemini(r, i):
    key = google_api_key(r)
    model = r.choice(["gemini-2.5-flash", "gemini-2.0-flash", "gemini-2.5-pro"])
    text = f'''from google import genai
from google.genai import types
import pathlib

client = genai.Client(api_key="{key}")

pdf = pathlib.Path("invoice.pdf")
resp = client.models.generate_content(
    model="{model}",
    contents=[
        types.Part.from_bytes(data=pdf.read_bytes(), mime_type="application/pdf"),
        "Extract vendor, date and total as JSON",
    ],
)
print(resp.text)

"""
$ python extract.py
google.genai.errors.ClientError: 400 INVALID_ARGUMENT. {{'error': {{'code': 400, 'message': 'Request payload size exceeds the limit: 20971520 bytes.', 'status': 'INVALID_ARGUMENT'}}}}
"""
# file is {r.randrange(21, 60)} MB, do I need the Files API?
'''
    return f"extract-{i}.py", key, text


@pos("aspnet_appsettings_entra", "vendor", "azure-ad-client-secret")
def t_entra(r, i):
    sec = entra_secret(r)
    dom = r.choice(ORGS).replace("-", "")
    text = f'''{{
  "Logging": {{
    "LogLevel": {{
      "Default": "Information",
      "Microsoft.AspNetCore": "Warning",
      "Microsoft.Identity.Web": "Debug"
    }}
  }},
  "AzureAd": {{
    "Instance": "https://login.microsoftonline.com/",
    "Domain": "{dom}.onmicrosoft.com",
    "TenantId": "{ruuid(r)}",
    "ClientId": "{ruuid(r)}",
    "ClientSecret": "{sec}",
    "CallbackPath": "/signin-oidc"
  }},
  "DownstreamApis": {{
    "MicrosoftGraph": {{
      "BaseUrl": "https://graph.microsoft.com/v1.0",
      "Scopes": [ "User.Read", "Mail.Send" ]
    }}
  }},
  "AllowedHosts": "*"
}}

AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '{ruuid(r)}'.
Trace ID: {ruuid(r)}
Correlation ID: {ruuid(r)}
Timestamp: {rdate(r).strftime("%Y-%m-%d %H:%M:%SZ")}
'''
    return f"appsettings-{i}.json", sec, text


# ------------------- keys / JWT / webhooks / connection strings (10) -----
@pos("chat_ssh_key_help", "key", "openssh-private-key")
def t_sshchat(r, i):
    u = user(r)
    hostname = r.choice(["homelab", "pi4", "nas", "vps", "build-box", "devbox"])
    key, pubkey = openssh_ed25519(r, f"{u}@{hostname}")
    helper = user(r)
    d = rdate(r)
    hh = lambda k: (d + _dt.timedelta(minutes=k)).strftime("%H:%M")
    text = f'''[{hh(0)}] {u}: anyone good with ssh? `ssh -i ~/.ssh/deploy_ed25519 git@{host(r, 'git')}` gives "Load key: invalid format"
[{hh(1)}] {helper}: what does the file look like? first/last line
[{hh(2)}] {u}: here's the whole thing, it's just for the deploy box anyway
[{hh(2)}] {u}:
{key}
[{hh(3)}] {helper}: that looks fine. did you copy it from windows? check for \\r with `file ~/.ssh/deploy_ed25519`
[{hh(4)}] {u}: "ASCII text, with CRLF line terminators" ...
[{hh(4)}] {helper}: yep. `dos2unix` it, and also please rotate that key now that it's in chat
[{hh(5)}] {u}: the pub half is {pubkey}
[{hh(6)}] {helper}: 👍 remove that from authorized_keys on the server too
'''
    return f"chat-ssh-{i}.log", key, text


@pos("k8s_secret_rsa_b64", "key", "rsa-private-key")
def t_k8s_rsa(r, i):
    der = rsa_pkcs1_der(r)
    key = pem("RSA PRIVATE KEY", der)
    app_id = r.randrange(100000, 1999999)
    inst = r.randrange(10**7, 10**8)
    ns = r.choice(["arc-runners", "actions-runner-system", "ci", "arc-systems"])
    enc = b64((key + "\n").encode())
    text = f'''$ kubectl -n {ns} get secret controller-manager -o yaml
apiVersion: v1
data:
  github_app_id: {b64(str(app_id).encode())}
  github_app_installation_id: {b64(str(inst).encode())}
  github_app_private_key: {enc}
kind: Secret
metadata:
  creationTimestamp: "{iso(rdate(r))}"
  name: controller-manager
  namespace: {ns}
  resourceVersion: "{r.randrange(10**5, 10**7)}"
  uid: {ruuid(r)}
type: Opaque

$ kubectl -n {ns} logs deploy/arc-gha-rs-controller | tail -3
{iso(rdate(r))}	ERROR	AutoscalingRunnerSet	Failed to get listener pod	{{"error": "failed to get installation access token: could not refresh installation id {inst}'s token: received non 2xx response status \\"401 Unauthorized\\""}}
{iso(rdate(r))}	INFO	AutoscalingListener	Creating a new listener pod
{iso(rdate(r))}	ERROR	AutoscalingListener	Reconciler error	{{"error": "A JSON web token could not be decoded"}}
'''
    return f"arc-secret-{i}.yaml", key, text


@pos("gcp_sa_json_airflow", "key", "gcp-service-account-key")
def t_gcp(r, i):
    der = pkcs8_from_pkcs1(rsa_pkcs1_der(r))
    p = pem("PRIVATE KEY", der) + "\n"
    escaped = p.replace("\n", "\\n")
    project = r.choice(PROJ) + "-" + str(r.randrange(100000, 999999))
    sa = r.choice(["airflow", "composer-worker", "etl-runner", "dbt-sa"])
    client_id = "".join(r.choice(DIG) for _ in range(21))
    text = f'''Airflow 2.{r.randrange(8, 11)} GCSToBigQueryOperator fails with invalid_grant. Connection `google_cloud_default` has "Keyfile JSON" set to:

{{
  "type": "service_account",
  "project_id": "{project}",
  "private_key_id": "{rs(r, 40, HEX)}",
  "private_key": "{escaped}",
  "client_email": "{sa}@{project}.iam.gserviceaccount.com",
  "client_id": "{client_id}",
  "auth_uri": "https://accounts.google.com/o/oauth2/auth",
  "token_uri": "https://oauth2.googleapis.com/token",
  "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
  "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/{sa}%40{project}.iam.gserviceaccount.com",
  "universe_domain": "googleapis.com"
}}

[{rdate(r).strftime("%Y-%m-%d, %H:%M:%S")} UTC] {{taskinstance.py:3311}} ERROR - Task failed with exception
google.auth.exceptions.RefreshError: ('invalid_grant: Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.', {{'error': 'invalid_grant', 'error_description': 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.'}})
'''
    return f"airflow-gcp-{i}.txt", escaped, text


@pos("devtools_copy_as_curl_jwt", "key", "jwt")
def t_curljwt(r, i):
    dom = r.choice(ORGS) + ".com"
    d = rdate(r, start=(2026, 1, 5), days=200)
    iat = int(d.timestamp())
    claims = {"sub": ruuid(r), "email": email(r, dom), "iss": f"https://auth.{dom}/",
              "aud": f"https://api.{dom}", "iat": iat, "exp": iat + r.choice([3600, 86400, 604800]),
              "scope": "openid profile orders:read orders:write", "azp": rs(r, 32, ALNUM)}
    tok = jwt(r, claims, r.choice(["HS256", "RS256"]))
    oid = r.randrange(10**5, 10**6)
    text = f'''curl 'https://api.{dom}/v2/orders/{oid}/refund' \\
  -H 'accept: application/json, text/plain, */*' \\
  -H 'accept-language: en-GB,en;q=0.9' \\
  -H 'authorization: Bearer {tok}' \\
  -H 'content-type: application/json' \\
  -H 'origin: https://app.{dom}' \\
  -H 'priority: u=1, i' \\
  -H 'referer: https://app.{dom}/orders/{oid}' \\
  -H 'sec-ch-ua: "Chromium";v="13{r.randrange(0, 9)}", "Not.A/Brand";v="24", "Google Chrome";v="13{r.randrange(0, 9)}"' \\
  -H 'sec-ch-ua-mobile: ?0' \\
  -H 'sec-ch-ua-platform: "macOS"' \\
  -H 'sec-fetch-dest: empty' \\
  -H 'sec-fetch-mode: cors' \\
  -H 'sec-fetch-site: same-site' \\
  -H 'user-agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/13{r.randrange(0, 9)}.0.0.0 Safari/537.36' \\
  --data-raw '{{"amount":{r.randrange(100, 9999)},"reason":"duplicate"}}'

^ copied from devtools. returns 422 {{"detail":"amount exceeds captured total"}} even though the order total is higher. backend team says it's the frontend??
'''
    return f"copy-as-curl-{i}.sh", tok, text


@pos("alertmanager_slack_webhook", "key", "slack-webhook-url")
def t_am(r, i):
    url = f"https://hooks.slack.com/services/T{rs(r, r.choice([8, 10]), UP + DIG)}/B{rs(r, r.choice([8, 10, 11]), UP + DIG)}/{rs(r, 24, ALNUM)}"
    ch = r.choice(["#alerts-prod", "#oncall", "#infra-alerts", "#sre"])
    text = f'''global:
  resolve_timeout: 5m
  slack_api_url: '{url}'

route:
  receiver: slack-default
  group_by: ['alertname', 'cluster', 'service']
  group_wait: 30s
  group_interval: 5m
  repeat_interval: 4h
  routes:
    - matchers: [severity="critical"]
      receiver: slack-default
      continue: true
    - matchers: [severity="page"]
      receiver: pagerduty

receivers:
  - name: slack-default
    slack_configs:
      - channel: '{ch}'
        send_resolved: true
        title: '[{{{{ .Status | toUpper }}}}] {{{{ .CommonLabels.alertname }}}}'
        text: >-
          {{{{ range .Alerts }}}}*{{{{ .Annotations.summary }}}}*
          {{{{ .Annotations.description }}}}
          {{{{ end }}}}
  - name: pagerduty
    pagerduty_configs:
      - routing_key_file: /etc/alertmanager/secrets/pd-routing-key

# amtool check-config alertmanager.yml -> SUCCESS, but nothing ever shows in {ch}; logs say
# level=ERROR component=dispatcher msg="Notify for alerts failed" num_alerts=3 err="slack-default/slack[0]: notify retry canceled due to unrecoverable error after 1 attempts: channel \\"{ch}\\": unexpected status code 404: no_team"
'''
    return f"alertmanager-{i}.yml", url, text


@pos("gha_discord_webhook", "key", "discord-webhook-url")
def t_discord(r, i):
    url = f"https://discord.com/api/webhooks/{r.randrange(10**17, 10**19)}/{rs(r, 68, URLSAFE)}"
    text = f'''name: notify
on:
  workflow_run:
    workflows: ["Build"]
    types: [completed]

jobs:
  discord:
    runs-on: ubuntu-latest
    steps:
      - name: Post result
        env:
          STATUS: ${{{{ github.event.workflow_run.conclusion }}}}
          URL: ${{{{ github.event.workflow_run.html_url }}}}
        run: |
          curl -sS -H "Content-Type: application/json" \\
            -d "{{\\"content\\": \\"Build $STATUS: $URL\\"}}" \\
            "{url}"

# step prints {{"message": "Cannot send an empty message", "code": 50006}} -- escaping issue?
'''
    return f"notify-{i}.yml", url, text


@pos("compose_postgres_url", "key", "postgres-connection-uri")
def t_compose_pg(r, i):
    u = r.choice(["app", "api", "django", "rails", "svc_" + r.choice(PROJ).replace("-", "_")])
    pw = gen_password(r, r.choice(["rand", "b64", "word"]))
    from urllib.parse import quote
    db = r.choice(PROJ).replace("-", "_")
    uri = f"postgresql://{u}:{quote(pw, safe='')}@db:5432/{db}"
    text = f'''services:
  db:
    image: postgres:17-alpine
    environment:
      POSTGRES_USER: {u}
      POSTGRES_DB: {db}
      POSTGRES_PASSWORD_FILE: /run/secrets/pg_password
    secrets: [pg_password]
    volumes:
      - pgdata:/var/lib/postgresql/data
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U {u} -d {db}"]
      interval: 5s

  api:
    build: .
    depends_on:
      db:
        condition: service_healthy
    environment:
      DATABASE_URL: "{uri}"
      LOG_LEVEL: debug
    ports:
      - "8000:8000"

secrets:
  pg_password:
    file: ./secrets/pg_password.txt

volumes:
  pgdata:

# api_1  | sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed: FATAL:  password authentication failed for user "{u}"
'''
    return f"docker-compose-{i}.yml", uri, text


@pos("node_mongo_stacktrace", "key", "mongodb-connection-uri")
def t_mongo(r, i):
    u = user(r).replace(".", "")
    pw = gen_password(r, r.choice(["rand", "b64"])).replace("@", "A").replace(":", "c").replace("/", "s")
    cl = f"cluster{r.randrange(0, 3)}.{rs(r, 5, LO + DIG)}.mongodb.net"
    uri = f"mongodb+srv://{u}:{pw}@{cl}/{r.choice(PROJ)}?retryWrites=true&w=majority&appName=Cluster0"
    text = f'''> node src/index.js
config loaded: {{
  port: 8080,
  mongoUri: '{uri}',
  corsOrigins: [ 'http://localhost:5173' ]
}}
/home/{u}/app/node_modules/mongodb/lib/sdam/topology.js:326
                const timeoutError = new error_1.MongoServerSelectionError(`Server selection timed out after ${{serverSelectionTimeoutMS}} ms`, this.description);
                                     ^

MongoServerSelectionError: Server selection timed out after 30000 ms
    at Topology.selectServer (/home/{u}/app/node_modules/mongodb/lib/sdam/topology.js:326:38)
    at async Topology._connect (/home/{u}/app/node_modules/mongodb/lib/sdam/topology.js:200:28)
    at async Topology.connect (/home/{u}/app/node_modules/mongodb/lib/sdam/topology.js:152:13)
    at async topologyConnect (/home/{u}/app/node_modules/mongodb/lib/mongo_client.js:258:17)
    at async MongoClient._connect (/home/{u}/app/node_modules/mongodb/lib/mongo_client.js:271:13)
    at async MongoClient.connect (/home/{u}/app/node_modules/mongodb/lib/mongo_client.js:196:13) {{
  errorLabelSet: Set(0) {{}},
  reason: TopologyDescription {{
    type: 'ReplicaSetNoPrimary',
    servers: Map(3) {{
      'ac-{rs(r, 7, LO + DIG)}-shard-00-00.{cl.split(".", 1)[1]}:27017' => [ServerDescription],
      'ac-{rs(r, 7, LO + DIG)}-shard-00-01.{cl.split(".", 1)[1]}:27017' => [ServerDescription],
      'ac-{rs(r, 7, LO + DIG)}-shard-00-02.{cl.split(".", 1)[1]}:27017' => [ServerDescription]
    }},
    stale: false,
    compatible: true,
    heartbeatFrequencyMS: 10000,
    localThresholdMS: 15,
    setName: 'atlas-{rs(r, 6, LO + DIG)}-shard-0',
    maxElectionId: null,
    maxSetVersion: null,
    commonWireVersion: 0,
    logicalSessionTimeoutMinutes: null
  }},
  code: undefined,
  [Symbol(errorLabels)]: Set(0) {{}}
}}

Node.js v22.{r.randrange(1, 18)}.0
'''
    return f"mongo-crash-{i}.txt", uri, text


@pos("azure_functions_local_settings", "key", "azure-storage-connection-string")
def t_azfunc(r, i):
    acct = r.choice(ORGS).replace("-", "")[:14] + rs(r, 4, LO + DIG)
    cs = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={b64(rbytes(r, 64))};EndpointSuffix=core.windows.net"
    text = f'''local.settings.json:

{{
  "IsEncrypted": false,
  "Values": {{
    "AzureWebJobsStorage": "{cs}",
    "FUNCTIONS_WORKER_RUNTIME": "{r.choice(["dotnet-isolated", "python", "node"])}",
    "QueueName": "{r.choice(["orders", "thumbnails", "events"])}-in",
    "APPLICATIONINSIGHTS_CONNECTION_STRING": ""
  }},
  "Host": {{
    "LocalHttpPort": 7071,
    "CORS": "*"
  }}
}}

func start output:
[{rdate(r).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]}Z] The listener for function 'Functions.ProcessQueue' was unable to start.
[{rdate(r).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]}Z] Microsoft.Azure.WebJobs.Extensions.Storage.Queues: This request is not authorized to perform this operation. RequestId:{ruuid(r)}
Time:{iso(rdate(r))}
Status: 403 (This request is not authorized to perform this operation.)
ErrorCode: AuthorizationFailure
'''
    return f"local-settings-{i}.txt", cs, text


@pos("wireguard_wg0_conf", "key", "wireguard-private-key")
def t_wg(r, i):
    k = wg_private(r)
    peer = b64(rbytes(r, 32))
    net = r.randrange(2, 250)
    text = f'''# /etc/wireguard/wg0.conf on the VPS
[Interface]
Address = 10.{net}.0.1/24
ListenPort = {r.choice([51820, 51821, 443])}
PrivateKey = {k}
PostUp = iptables -A FORWARD -i %i -j ACCEPT; iptables -t nat -A POSTROUTING -o eth0 -j MASQUERADE
PostDown = iptables -D FORWARD -i %i -j ACCEPT; iptables -t nat -D POSTROUTING -o eth0 -j MASQUERADE

[Peer]
# {r.choice(["phone", "laptop", "homeassistant", "router"])}
PublicKey = {peer}
AllowedIPs = 10.{net}.0.{r.randrange(2, 20)}/32

$ sudo wg show
interface: wg0
  public key: {b64(rbytes(r, 32))}
  private key: (hidden)
  listening port: 51820

peer: {peer}
  allowed ips: 10.{net}.0.2/32

handshake never completes, ufw allows 51820/udp. what else?
'''
    return f"wg0-{i}.conf", k, text


# ---------------------------- generic credentials (23) --------------------
@pos("maven_settings_xml", "generic", "password")
def t_maven(r, i):
    pw = gen_password(r)
    h = host(r, "nexus")
    sid = r.choice(["nexus-releases", "internal", "artifactory", "company-repo"])
    u = r.choice(["deployer", "ci-deploy", user(r)])
    text = f'''<?xml version="1.0" encoding="UTF-8"?>
<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0"
          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
          xsi:schemaLocation="http://maven.apache.org/SETTINGS/1.2.0 https://maven.apache.org/xsd/settings-1.2.0.xsd">
  <servers>
    <server>
      <id>{sid}</id>
      <username>{u}</username>
      <password>{pw}</password>
    </server>
  </servers>
  <mirrors>
    <mirror>
      <id>{sid}</id>
      <mirrorOf>*</mirrorOf>
      <url>https://{h}/repository/maven-public/</url>
    </mirror>
  </mirrors>
  <profiles>
    <profile>
      <id>jdk21</id>
      <properties>
        <maven.compiler.release>21</maven.compiler.release>
      </properties>
    </profile>
  </profiles>
  <activeProfiles>
    <activeProfile>jdk21</activeProfile>
  </activeProfiles>
</settings>

[ERROR] Failed to execute goal org.apache.maven.plugins:maven-deploy-plugin:3.1.{r.randrange(1, 4)}:deploy (default-deploy) on project {r.choice(PROJ)}: Failed to deploy artifacts: Could not transfer artifact com.{r.choice(ORGS).replace("-", "")}:{r.choice(PROJ)}:jar:1.{r.randrange(9)}.{r.randrange(9)} from/to {sid} (https://{h}/repository/maven-releases/): status code: 401, reason phrase: Unauthorized (401) -> [Help 1]
'''
    return f"settings-{i}.xml", pw, text


@pos("pip_conf_index_url", "generic", "password")
def t_pipconf(r, i):
    from urllib.parse import quote
    pw = gen_password(r, r.choice(["rand", "b64", "hex", "word"]))
    u = r.choice(["pypi-read", "ci", user(r)])
    h = host(r, r.choice(["nexus", "artifactory", "pypi"]))
    text = f'''$ pip config list
global.index-url='https://{u}:{quote(pw, safe="")}@{h}/repository/pypi-all/simple'
global.trusted-host='{h}'
global.timeout='60'

$ cat /etc/pip.conf
[global]
index-url = https://{u}:{quote(pw, safe="")}@{h}/repository/pypi-all/simple
trusted-host = {h}
timeout = 60

$ pip install {r.choice(["torch==2.5.1", "pandas", "numpy==2.1.3", "polars"])}
Looking in indexes: https://{u}:****@{h}/repository/pypi-all/simple
WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)'))': /repository/pypi-all/simple/
ERROR: Could not find a version that satisfies the requirement
'''
    return f"pip-conf-{i}.txt", quote(pw, safe=""), text


@pos("gradle_properties", "generic", "password")
def t_gradle(r, i):
    pw = gen_password(r)
    key = r.choice(["artifactoryPassword", "nexusPassword", "repoPassword", "mavenPassword", "gpr.key"])
    ukey = {"artifactoryPassword": "artifactoryUser", "nexusPassword": "nexusUsername", "repoPassword": "repoUser",
            "mavenPassword": "mavenUser", "gpr.key": "gpr.user"}[key]
    h = host(r, "artifactory")
    text = f'''# gradle.properties (project root)
org.gradle.jvmargs=-Xmx4g -Dfile.encoding=UTF-8
org.gradle.parallel=true
org.gradle.caching=true
android.useAndroidX=true
kotlin.code.style=official
{ukey}={user(r)}
{key}={pw}

// settings.gradle.kts
dependencyResolutionManagement {{
    repositories {{
        google()
        mavenCentral()
        maven {{
            url = uri("https://{h}/artifactory/libs-release")
            credentials {{
                username = providers.gradleProperty("{ukey}").get()
                password = providers.gradleProperty("{key}").get()
            }}
        }}
    }}
}}

> Could not resolve all files for configuration ':app:debugRuntimeClasspath'.
   > Could not resolve com.{r.choice(ORGS).replace("-", "")}:core-ui:2.{r.randrange(9)}.{r.randrange(9)}.
      > Received status code 401 from server: Unauthorized
'''
    return f"gradle-{i}.txt", pw, text


@pos("composer_auth_json", "generic", "password")
def t_composer(r, i):
    pw = gen_password(r, r.choice(["hex", "b64", "rand"]))
    h = r.choice([f"repo.packagist.com", host(r, "satis"), f"packages.{r.choice(ORGS)}.io"])
    text = f'''auth.json (next to composer.json):
{{
    "http-basic": {{
        "{h}": {{
            "username": "{r.choice(["token", user(r), "ci"])}",
            "password": "{pw}"
        }}
    }}
}}

composer.json:
{{
    "repositories": [
        {{"type": "composer", "url": "https://{h}/{r.choice(ORGS)}/"}}
    ],
    "require": {{
        "php": "^8.3",
        "laravel/framework": "^11.0",
        "{r.choice(ORGS)}/billing-sdk": "^3.2"
    }}
}}

$ composer install
Installing dependencies from lock file (including require-dev)
Verifying lock file contents can be installed on current platform.
  - Downloading {r.choice(ORGS)}/billing-sdk (3.2.{r.randrange(9)})
    Failed to download {r.choice(ORGS)}/billing-sdk from dist: The "https://{h}/dists/billing-sdk.zip" file could not be downloaded (HTTP/2 403 )
'''
    return f"composer-auth-{i}.txt", pw, text


@pos("ansible_inventory_ini", "generic", "password")
def t_ansible(r, i):
    pw = gen_password(r)
    var = r.choice(["ansible_become_password", "ansible_become_pass", "ansible_password", "ansible_ssh_pass"])
    hosts = [f"{r.choice(['web', 'app', 'db', 'node'])}{k:02d}.{r.choice(ORGS)}.lan ansible_host={ip(r)}" for k in range(1, r.randrange(3, 6))]
    text = "\n".join(["# inventory/hosts.ini", "[webservers]"] + hosts + [
        "", "[webservers:vars]", f"ansible_user={r.choice(['deploy', 'ubuntu', 'admin'])}",
        f"{var}={pw}", "ansible_python_interpreter=/usr/bin/python3", "",
        "$ ansible-playbook -i inventory/hosts.ini site.yml --limit webservers",
        "", "PLAY [webservers] ***************************************************************", "",
        "TASK [Gathering Facts] **********************************************************",
        f"fatal: [{hosts[0].split()[0]}]: FAILED! => {{\"msg\": \"Missing sudo password\"}}",
        "", "why does it ignore the var? ansible-core 2.17"])
    return f"inventory-{i}.ini", pw, text


@pos("pulumi_stack_yaml_plaintext", "generic", "password")
def t_pulumi(r, i):
    pw = gen_password(r)
    proj = r.choice(PROJ)
    k = r.choice(["dbPassword", "adminPassword", "rdsMasterPassword", "redisAuth"])
    text = f'''# Pulumi.dev.yaml
encryptionsalt: v1:{b64(rbytes(r, 8))}:v1:{b64(rbytes(r, 12))}:{b64(rbytes(r, 16))}
config:
  aws:region: {r.choice(["eu-west-1", "us-east-1", "eu-north-1"])}
  {proj}:instanceClass: db.t4g.medium
  {proj}:{k}: {pw}
  {proj}:allocatedStorage: "50"

# index.ts
const cfg = new pulumi.Config();
const db = new aws.rds.Instance("{proj}-db", {{
    engine: "postgres",
    instanceClass: cfg.require("instanceClass"),
    allocatedStorage: cfg.requireNumber("allocatedStorage"),
    password: cfg.requireSecret("{k}"),
    skipFinalSnapshot: true,
}});

$ pulumi up
error: Missing required configuration variable '{proj}:{k}'
    please set a value using the command `pulumi config set --secret {proj}:{k} <value>`
# it IS set?? (I edited the yaml by hand)
'''
    return f"pulumi-dev-{i}.txt", pw, text


@pos("helm_values_bitnami", "generic", "password")
def t_helm(r, i):
    pw = gen_password(r)
    chart = r.choice(["postgresql", "redis", "mariadb", "rabbitmq", "mongodb"])
    key = {"postgresql": "postgresPassword", "redis": "password", "mariadb": "rootPassword",
           "rabbitmq": "password", "mongodb": "rootPassword"}[chart]
    text = f'''# values-prod.yaml for bitnami/{chart} {r.randrange(12, 17)}.x
global:
  storageClass: gp3
auth:
  {key}: "{pw}"
  existingSecret: ""
architecture: replication
primary:
  resources:
    requests:
      cpu: 500m
      memory: 1Gi
  persistence:
    size: 50Gi
metrics:
  enabled: true
  serviceMonitor:
    enabled: true

$ helm upgrade --install {chart} oci://registry-1.docker.io/bitnamicharts/{chart} -f values-prod.yaml -n data
Error: UPGRADE FAILED: execution error at ({chart}/templates/NOTES.txt:{r.randrange(80, 140)}:4):
PASSWORDS ERROR: You must provide your current passwords when upgrading the release.
'''
    return f"values-{chart}-{i}.yaml", pw, text


@pos("systemd_unit_environment", "generic", "api-key")
def t_systemd(r, i):
    val = gen_password(r, r.choice(["hex", "b64", "rand"]))
    name = r.choice(["API_KEY", "UPSTREAM_TOKEN", "INGEST_API_KEY", "WEBHOOK_SECRET", "AUTH_TOKEN"])
    svc = r.choice(PROJ)
    q = r.choice(['Environment="%s=%s"', "Environment=%s=%s"])
    text = f'''# /etc/systemd/system/{svc}.service
[Unit]
Description={svc} worker
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User={svc.split("-")[0]}
WorkingDirectory=/opt/{svc}
{q % (name, val)}
Environment=RUST_LOG=info
ExecStart=/opt/{svc}/bin/{svc} --config /etc/{svc}/config.toml
Restart=on-failure
RestartSec=5

[Install]
WantedBy=multi-user.target

$ systemctl status {svc}
× {svc}.service - {svc} worker
     Loaded: loaded (/etc/systemd/system/{svc}.service; enabled; preset: enabled)
     Active: failed (Result: exit-code) since {rdate(r).strftime("%a %Y-%m-%d %H:%M:%S")} UTC; {r.randrange(2, 50)}s ago
    Process: {r.randrange(1000, 99999)} ExecStart=/opt/{svc}/bin/{svc} (code=exited, status=203/EXEC)
'''
    return f"{svc}-{i}.service", val, text


@pos("kafka_client_properties", "generic", "password")
def t_kafka(r, i):
    pw = gen_password(r, r.choice(["rand", "b64"]))
    u = r.choice(["svc-" + r.choice(PROJ), "producer", user(r)])
    mech = r.choice(["SCRAM-SHA-512", "PLAIN", "SCRAM-SHA-256"])
    mod = "org.apache.kafka.common.security.plain.PlainLoginModule" if mech == "PLAIN" else "org.apache.kafka.common.security.scram.ScramLoginModule"
    brokers = ",".join(f"b-{k}.{r.choice(ORGS)}.kafka.{r.choice(TLDS)}:9096" for k in range(1, 4))
    text = f'''# client.properties
bootstrap.servers={brokers}
security.protocol=SASL_SSL
sasl.mechanism={mech}
sasl.jaas.config={mod} required username="{u}" password="{pw}";
ssl.endpoint.identification.algorithm=https
acks=all
enable.idempotence=true

$ kafka-console-producer.sh --bootstrap-server {brokers.split(",")[0]} --topic {r.choice(["orders", "events", "clicks"])} --producer.config client.properties
[{rdate(r).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]}] ERROR [Producer clientId=console-producer] Connection to node -1 ({brokers.split(",")[0].split(":")[0]}/{ip(r)}:9096) failed authentication due to: Authentication failed during authentication due to invalid credentials with SASL mechanism {mech} (org.apache.kafka.clients.NetworkClient)
'''
    return f"client-{i}.properties", pw, text


@pos("pyspark_jdbc_notebook", "generic", "password")
def t_spark(r, i):
    pw = gen_password(r)
    h = host(r, "pg")
    tbl = r.choice(["public.orders", "sales.invoices", "crm.contacts"])
    style = r.randrange(2)
    opt = f'    .option("password", "{pw}")' if style else f'    .options(user="etl_reader", password="{pw}")'
    text = f'''# Databricks / Spark 3.5 notebook cell
df = (spark.read.format("jdbc")
    .option("url", "jdbc:postgresql://{h}:5432/warehouse")
    .option("dbtable", "{tbl}")
{'    .option("user", "etl_reader")' + chr(10) if style else ''}{opt}
    .option("fetchsize", 10000)
    .option("partitionColumn", "id")
    .option("lowerBound", 1)
    .option("upperBound", {r.randrange(10**6, 10**8)})
    .option("numPartitions", 16)
    .load())

df.groupBy("status").count().show()

Py4JJavaError: An error occurred while calling o{r.randrange(300, 900)}.load.
: org.postgresql.util.PSQLException: FATAL: no pg_hba.conf entry for host "{ip(r)}", user "etl_reader", database "warehouse", no encryption
	at org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:{r.randrange(600, 800)})
	at org.postgresql.core.v3.ConnectionFactoryImpl.tryConnect(ConnectionFactoryImpl.java:{r.randrange(100, 250)})
'''
    return f"spark-jdbc-{i}.py", pw, text


@pos("netrc_wandb", "generic", "api-key")
def t_netrc(r, i):
    key = rs(r, 40, HEX)
    u = user(r)
    text = f'''wandb: Currently logged in as: {u} ({r.choice(ORGS)}). Use `wandb login --relogin` to force relogin
wandb: ERROR api_key not configured (no-tty). call wandb.login(key=[your_api_key])

$ cat ~/.netrc
machine api.wandb.ai
  login user
  password {key}
machine github.com
  login {u}
  password ${{GITHUB_TOKEN}}

$ echo $WANDB_MODE
online
$ python train.py --config configs/{r.choice(["vit_b16", "resnet50", "llama_lora"])}.yaml
Traceback (most recent call last):
  File "/workspace/train.py", line {r.randrange(20, 200)}, in <module>
    wandb.init(project="{r.choice(PROJ)}", entity="{r.choice(ORGS)}")
wandb.errors.errors.UsageError: api_key not configured (no-tty). call wandb.login(key=[your_api_key])
# inside the slurm job HOME is different, is that it?
'''
    return f"wandb-netrc-{i}.txt", key, text


@pos("jenkinsfile_api_token", "generic", "api-token")
def t_jenkins(r, i):
    tok = "11" + rs(r, 32, HEX)
    u = r.choice(["automation", "svc-jenkins", user(r)])
    jh = host(r, "jenkins")
    job = r.choice(PROJ)
    text = f'''pipeline {{
    agent {{ label 'linux' }}
    parameters {{
        choice(name: 'ENV', choices: ['staging', 'prod'], description: 'target')
    }}
    stages {{
        stage('Build') {{
            steps {{
                sh './gradlew clean build -x test'
            }}
        }}
        stage('Trigger downstream') {{
            steps {{
                sh """
                  curl -fsS -X POST -u {u}:{tok} \\
                    "https://{jh}/job/{job}-deploy/buildWithParameters?ENV=${{params.ENV}}&VERSION=${{env.BUILD_NUMBER}}"
                """
            }}
        }}
    }}
    post {{
        failure {{
            mail to: 'team@{r.choice(ORGS)}.com', subject: "FAILED: ${{env.JOB_NAME}}", body: "${{env.BUILD_URL}}"
        }}
    }}
}}
// downstream never starts, console shows: curl: (22) The requested URL returned error: 403 No valid crumb was included in the request
'''
    return f"Jenkinsfile-{i}", tok, text


@pos("prometheus_basic_auth", "generic", "password")
def t_prom(r, i):
    pw = gen_password(r)
    text = f'''global:
  scrape_interval: 30s
  evaluation_interval: 30s

rule_files:
  - /etc/prometheus/rules/*.yml

scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['{ip(r)}:9100', '{ip(r)}:9100']

  - job_name: {r.choice(PROJ)}
    scheme: https
    metrics_path: /internal/metrics
    basic_auth:
      username: {r.choice(["prometheus", "metrics", "scraper"])}
      password: '{pw}'
    static_configs:
      - targets: ['{host(r, "api")}:443']

  - job_name: blackbox
    metrics_path: /probe
    params:
      module: [http_2xx]
    static_configs:
      - targets: ['https://{r.choice(ORGS)}.com']
    relabel_configs:
      - source_labels: [__address__]
        target_label: __param_target
      - target_label: __address__
        replacement: blackbox:9115

# target shows "server returned HTTP status 401 Unauthorized" even though curl with the same creds works
'''
    return f"prometheus-{i}.yml", pw, text


@pos("datadog_agent_yaml", "generic", "api-key")
def t_dd(r, i):
    key = rs(r, 32, HEX)
    site = r.choice(["datadoghq.eu", "datadoghq.com", "us5.datadoghq.com"])
    text = f'''## /etc/datadog-agent/datadog.yaml
api_key: {key}
site: {site}
hostname: {r.choice(["web", "worker", "db"])}-{r.randrange(1, 40)}.{r.choice(ORGS)}.{r.choice(TLDS)}
tags:
  - env:{r.choice(["prod", "staging"])}
  - team:{r.choice(["platform", "payments", "data"])}
logs_enabled: true
apm_config:
  enabled: true
process_config:
  process_collection:
    enabled: false

$ sudo datadog-agent status | head -30
===============
Agent ({r.randrange(7, 8)}.{r.randrange(55, 70)}.{r.randrange(0, 3)})
===============
  Status date: {rdate(r).strftime("%Y-%m-%d %H:%M:%S")} UTC
  Agent start: {rdate(r).strftime("%Y-%m-%d %H:%M:%S")} UTC
  Pid: {r.randrange(1000, 40000)}
  Go Version: go1.{r.randrange(22, 25)}.{r.randrange(0, 9)}
  Python Version: 3.12.{r.randrange(0, 9)}
  Build arch: amd64
  Agent flavor: agent
  Log Level: info

  API Keys status
  ===============
    API key ending with {key[-5:]}: API Key invalid
'''
    return f"datadog-{i}.yaml", key, text


@pos("postfix_sasl_passwd", "generic", "app-password")
def t_postfix(r, i):
    apw = " ".join(rs(r, 4, LO) for _ in range(4)) if r.random() < 0.6 else rs(r, 16, LO)
    mail = f"{user(r).replace('.', '')}@gmail.com"
    text = f'''# /etc/postfix/sasl_passwd
[smtp.gmail.com]:587 {mail}:{apw}

# /etc/postfix/main.cf (relevant part)
relayhost = [smtp.gmail.com]:587
smtp_sasl_auth_enable = yes
smtp_sasl_password_maps = hash:/etc/postfix/sasl_passwd
smtp_sasl_security_options = noanonymous
smtp_tls_security_level = encrypt
smtp_tls_CAfile = /etc/ssl/certs/ca-certificates.crt

$ sudo postmap /etc/postfix/sasl_passwd && sudo systemctl reload postfix
$ echo "test from nas" | mail -s test {email(r)}
$ tail -n 3 /var/log/mail.log
{rdate(r).strftime("%b %d %H:%M:%S")} nas postfix/smtp[{r.randrange(1000, 9999)}]: {rs(r, 10, HEX).upper()}: SASL authentication failed; server smtp.gmail.com[142.250.{r.randrange(0, 255)}.{r.randrange(1, 255)}] said: 535-5.7.8 Username and Password not accepted. For more information, go to 535 5.7.8  https://support.google.com/mail/?p=BadCredentials
'''
    return f"postfix-sasl-{i}.txt", apw, text


@pos("home_assistant_secrets", "generic", "password")
def t_ha(r, i):
    pw = gen_password(r)
    text = f'''# secrets.yaml
home_latitude: {r.uniform(35, 60):.4f}
home_longitude: {r.uniform(-10, 25):.4f}
home_elevation: {r.randrange(5, 600)}
influxdb_host: {ip(r)}
influxdb_user: homeassistant
influxdb_password: "{pw}"

# configuration.yaml
homeassistant:
  name: Home
  latitude: !secret home_latitude
  longitude: !secret home_longitude
  elevation: !secret home_elevation
  time_zone: Europe/{r.choice(["Berlin", "Amsterdam", "Warsaw", "Lisbon", "Oslo"])}

influxdb:
  host: !secret influxdb_host
  port: 8086
  database: homeassistant
  username: !secret influxdb_user
  password: !secret influxdb_password
  max_retries: 3
  default_measurement: state

Logger: homeassistant.components.influxdb
Source: components/influxdb/__init__.py:{r.randrange(400, 600)}
Cannot connect to InfluxDB due to 'HTTPConnectionPool(host='{ip(r)}', port=8086): Max retries exceeded'. Please check that the provided connection details (host, port, etc.) are correct and that your InfluxDB server is running and accessible. Retrying in 60 seconds.
'''
    return f"ha-secrets-{i}.yaml", pw, text


@pos("devtools_copy_as_powershell", "generic", "api-key")
def t_ps(r, i):
    key = r.choice([rs(r, 32, ALNUM), ruuid(r).replace("-", ""), b64u(rbytes(r, 30))])
    hdr = r.choice(["X-Api-Key", "x-api-key", "Api-Key", "X-API-TOKEN", "apikey"])
    dom = r.choice(ORGS) + ".com"
    text = f'''$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession
$session.UserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/13{r.randrange(0, 9)}.0.0.0 Safari/537.36 Edg/13{r.randrange(0, 9)}.0.0.0"
Invoke-WebRequest -UseBasicParsing -Uri "https://api.{dom}/v1/reports/export?from=2025-{r.randrange(1, 13):02d}-01&format=csv" `
-WebSession $session `
-Headers @{{
"authority"="api.{dom}"
  "method"="GET"
  "path"="/v1/reports/export?from=2025-{r.randrange(1, 13):02d}-01&format=csv"
  "scheme"="https"
  "accept"="application/json, text/plain, */*"
  "accept-encoding"="gzip, deflate, br, zstd"
  "accept-language"="en-US,en;q=0.9"
  "{hdr}"="{key}"
  "origin"="https://portal.{dom}"
  "referer"="https://portal.{dom}/"
  "sec-fetch-dest"="empty"
  "sec-fetch-mode"="cors"
  "sec-fetch-site"="same-site"
}}

# ^ from Edge devtools "Copy as PowerShell". In a scheduled task it returns 406 Not Acceptable, in the browser it's fine
'''
    return f"copy-as-powershell-{i}.ps1", key, text


@pos("devtools_copy_as_fetch_cookie", "generic", "session-cookie")
def t_fetch(r, i):
    kind = r.randrange(3)
    if kind == 0:
        name, val = "sessionid", rs(r, 32, LO + DIG)
    elif kind == 1:
        name, val = "connect.sid", "s%3A" + rs(r, 32, URLSAFE) + "." + b64(rbytes(r, 32)).rstrip("=").replace("+", "%2B").replace("/", "%2F")
    else:
        name, val = "_session_id", rs(r, 32, HEX)
    dom = r.choice(ORGS) + ".app"
    text = f'''fetch("https://{dom}/api/admin/users?page=2&per_page=50", {{
  "headers": {{
    "accept": "application/json",
    "accept-language": "de-DE,de;q=0.9,en;q=0.8",
    "sec-ch-ua": "\\"Google Chrome\\";v=\\"13{r.randrange(0, 9)}\\", \\"Chromium\\";v=\\"13{r.randrange(0, 9)}\\", \\"Not_A Brand\\";v=\\"24\\"",
    "sec-ch-ua-mobile": "?0",
    "sec-ch-ua-platform": "\\"Windows\\"",
    "sec-fetch-dest": "empty",
    "sec-fetch-mode": "cors",
    "sec-fetch-site": "same-origin",
    "cookie": "theme=dark; {name}={val}; tz=Europe%2FBerlin",
    "Referer": "https://{dom}/admin/users"
  }},
  "body": null,
  "method": "GET"
}});

Response: 500 {{"error":"Internal Server Error","trace_id":"{rs(r, 32, HEX)}"}}
page=1 works, page=2 blows up. anyone seen this with the admin list?
'''
    return f"copy-as-fetch-{i}.js", val, text


@pos("crash_report_env_dump", "generic", "password")
def t_crash(r, i):
    pw = gen_password(r)
    name = r.choice(["SMTP_PASSWORD", "MAIL_PASSWORD", "EMAIL_HOST_PASSWORD", "SMTP_PASS", "O365_SMTP_PWD"])
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/app", "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1",
           "APP_ENV": r.choice(["production", "staging"]), "HOSTNAME": rs(r, 12, HEX), "PORT": "8000",
           "WEB_CONCURRENCY": str(r.choice([2, 4, 8])), name: pw, "TZ": "UTC",
           "GUNICORN_CMD_ARGS": "--timeout 60", "SENTRY_ENVIRONMENT": "production"}
    items = list(env.items())
    r.shuffle(items)
    envtxt = "\n".join(f"  {k}={v}" for k, v in items)
    text = f'''==== crash report {ruuid(r)} ====
time: {iso(rdate(r))}
app: {r.choice(PROJ)} {r.randrange(1, 5)}.{r.randrange(0, 30)}.{r.randrange(0, 9)}
python: 3.12.{r.randrange(1, 9)} (main, linux-x86_64)

Traceback (most recent call last):
  File "/app/worker/tasks.py", line {r.randrange(30, 300)}, in send_digest
    conn.login(settings.MAIL_USER, settings.MAIL_PASSWORD)
  File "/usr/local/lib/python3.12/smtplib.py", line 750, in login
    raise last_exception
smtplib.SMTPAuthenticationError: (535, b'5.7.139 Authentication unsuccessful, SmtpClientAuthentication is disabled for the Tenant.')

environment:
{envtxt}

loaded modules: celery 5.4.0, kombu 5.4.2, django 5.1.{r.randrange(1, 9)}, redis 5.2.0
'''
    return f"crash-{i}.txt", pw, text


@pos("chat_shared_login_prose", "generic", "password")
def t_chatpw(r, i):
    pw = gen_password(r, r.choice(["word", "human", "rand", "phrase"]))
    a, b = user(r), user(r)
    svc = r.choice(["the staging admin panel", "grafana", "the old jenkins", "the router web UI", "the Synology", "pgadmin on the bastion"])
    login = r.choice(["admin", "root", "ops", a])
    d = rdate(r)
    hh = lambda k: (d + _dt.timedelta(minutes=k)).strftime("%I:%M %p")
    form = r.randrange(3)
    if form == 0:
        msg = f"login is `{login}` / `{pw}`"
    elif form == 1:
        msg = f"user {login}, password is {pw} (yes really)"
    else:
        msg = f"creds: {login}:{pw}"
    text = f'''{a}  {hh(0)}
hey, can you check why the nightly export didn't run? I don't have access to {svc}

{b}  {hh(2)}
sure, one sec

{b}  {hh(3)}
actually just log in yourself, {msg}
don't share it further pls, I'll move it into 1Password this week

{a}  {hh(5)}
thanks! got in. looks like the cron was disabled after the upgrade on the {r.randrange(1, 28)}th

{b}  {hh(6)}
ugh. ok re-enable it and ping me if it fails again
'''
    return f"slack-thread-{i}.txt", pw, text


@pos("bash_history_mysql", "generic", "password")
def t_hist(r, i):
    pw = gen_password(r, r.choice(["rand", "word", "human"])).replace("'", "").replace('"', "")
    pw = "".join(ch for ch in pw if ch not in "$&*!;|<>()?#")
    h = host(r, "db")
    db = r.choice(PROJ).replace("-", "_")
    n = r.randrange(480, 1900)
    cmds = ["cd /var/www/" + r.choice(PROJ), "git pull", "sudo systemctl restart php8.3-fpm",
            "tail -f storage/logs/laravel.log", f"mysql -h {h} -u root -p'{pw}' {db}" if r.random() < 0.5 else f"mysql -h {h} -uroot -p{''.join(ch for ch in pw if ch not in '$&*!;|<>()?#')} {db}",
            "df -h", "sudo du -sh /var/lib/mysql/* | sort -h | tail", f"mysqldump --single-transaction {db} > /tmp/{db}.sql",
            "ls -lh /tmp/*.sql", "exit"]
    lines = ["$ history | tail -n 12"] + [f"  {n + k}  {c}" for k, c in enumerate(cmds)]
    lines += ["", "that dump at the end failed with `mysqldump: Got error: 1045: Access denied for user 'www-data'@'localhost' (using password: NO)`",
              "but the interactive login above works. do I need a ~/.my.cnf?"]
    return f"history-{i}.txt", pw, "\n".join(lines)


@pos("wp_config_php", "generic", "password")
def t_wp(r, i):
    pw = gen_password(r).replace("'", "")
    db = "wp_" + rs(r, 5, LO)
    text = f'''<?php
/**
 * The base configuration for WordPress
 */

// ** Database settings - You can get this info from your web host ** //
define( 'DB_NAME', '{db}' );
define( 'DB_USER', '{db}_usr' );
define( 'DB_PASSWORD', '{pw}' );
define( 'DB_HOST', 'localhost' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );

/**#@+
 * Authentication unique keys and salts.
 */
define( 'AUTH_KEY',         'put your unique phrase here' );
define( 'SECURE_AUTH_KEY',  'put your unique phrase here' );
define( 'LOGGED_IN_KEY',    'put your unique phrase here' );
define( 'NONCE_KEY',        'put your unique phrase here' );
/**#@-*/

$table_prefix = 'wp_';

define( 'WP_DEBUG', true );
define( 'WP_DEBUG_LOG', true );

if ( ! defined( 'ABSPATH' ) ) {{
	define( 'ABSPATH', __DIR__ . '/' );
}}
require_once ABSPATH . 'wp-settings.php';

// site shows "Error establishing a database connection" after moving hosts
'''
    return f"wp-config-{i}.php", pw, text


@pos("unreal_defaultengine_eos", "generic", "client-secret")
def t_unreal(r, i):
    sec = rs(r, 43, ALNUM + "+/")
    cid = "xyza7891" + rs(r, 24, ALNUM)
    text = f'''; Config/DefaultEngine.ini
[/Script/Engine.GameEngine]
+NetDriverDefinitions=(DefName="GameNetDriver",DriverClassName="/Script/SocketSubsystemEOS.NetDriverEOSBase",DriverClassNameFallback="/Script/OnlineSubsystemUtils.IpNetDriver")

[OnlineSubsystem]
DefaultPlatformService=EOS

[OnlineSubsystemEOS]
bEnabled=true

[/Script/OnlineSubsystemEOS.EOSSettings]
CacheDir=CacheDir
DefaultArtifactName={r.choice(["Dev", "Live", "Stage"])}
bUseEAS=True
bUseEOSConnect=True
+Artifacts=(ArtifactName="Dev",ClientId="{cid}",ClientSecret="{sec}",ProductId="{rs(r, 32, HEX)}",SandboxId="{rs(r, 32, HEX)}",DeploymentId="{rs(r, 32, HEX)}",EncryptionKey="")

[/Script/SocketSubsystemEOS.NetDriverEOSBase]
bIsUsingP2PSockets=true

; LogEOS: Error: EOS_Connect_Login failed: EOS_InvalidAuth
; LogOnline: Warning: OSS: Unable to Login user (0). Error: (errors.com.epicgames.eos.invalid_auth)
'''
    return f"DefaultEngine-{i}.ini", sec, text


# --------------------------------------------------------------------------
# clean families.  Each: fn(r, i) -> (ext, text).  No credential anywhere.
# --------------------------------------------------------------------------
CLEAN = []        # list of (family, what-makes-it-hard, fn)


INTRO_TOPIC = {}   # family -> topic; these families get a randomised lead-in line


def clean(family, hard, topic=None):
    def deco(fn):
        CLEAN.append((family, hard, fn))
        if topic:
            INTRO_TOPIC[family] = topic
        return fn
    return deco


_BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for k in range(5):
            chk ^= gen[k] if ((top >> k) & 1) else 0
    return chk


def _convertbits(data, frm, to):
    acc = bits = 0
    out = []
    for v in data:
        acc = (acc << frm) | v
        bits += frm
        while bits >= to:
            bits -= to
            out.append((acc >> bits) & ((1 << to) - 1))
    if bits:
        out.append((acc << (to - bits)) & ((1 << to) - 1))
    return out


def bech32(hrp, data5):
    exp = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = _polymod(exp + data5 + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - k)) & 31 for k in range(6)]
    return hrp + "1" + "".join(_BECH[d] for d in data5 + chk)


def age_recipient(r):
    return bech32("age", _convertbits(rbytes(r, 32), 8, 5))


def fake_cert_pem(r, n=700):
    der = b"\x30\x82" + (n - 4).to_bytes(2, "big") + b"\x30\x82" + rbytes(r, n - 6)
    return pem("CERTIFICATE", der)


def sha256hex(r):
    return rs(r, 64, HEX)


def _intro(r, topic):
    who = r.choice(["", f"{user(r)}: ", f"[{rdate(r).strftime('%H:%M')}] {user(r)}: "])
    q = r.choice([f"context for the {topic} question in #{r.choice(['help', 'backend', 'devops', 'platform', 'general'])}",
                  f"{topic} - relevant bits from {r.choice(PROJ)} (branch {r.choice(WORDS)}-{r.randrange(10, 999)})",
                  f"re: {topic}. this is what we have in {r.choice(ORGS)}/{r.choice(PROJ)} right now",
                  f"pasting for review ({topic}), PR #{r.randrange(10, 5000)}",
                  f"{topic}: does this look right? (ticket {r.choice(['OPS', 'PLAT', 'DEV', 'SEC'])}-{r.randrange(100, 9999)})"])
    return who + q + "\n\n"


@clean("lockfile_integrity", "sha512/sha256 integrity strings and checksums are long high-entropy base64/hex next to words like 'integrity', 'hash', 'checksum'")
def c_lock(r, i):
    v = i % 4
    if v == 0:
        pk = []
        for name in r.sample(["react", "react-dom", "scheduler", "loose-envify", "js-tokens", "zod", "axios", "follow-redirects", "form-data", "proxy-from-env", "lodash", "date-fns"], 6):
            ver = f"{r.randrange(0, 19)}.{r.randrange(0, 20)}.{r.randrange(0, 12)}"
            pk.append(f'''    "node_modules/{name}": {{
      "version": "{ver}",
      "resolved": "https://registry.npmjs.org/{name}/-/{name}-{ver}.tgz",
      "integrity": "sha512-{b64(rbytes(r, 64))}",
      "license": "MIT"
    }}''')
        return "json", '{\n  "name": "%s",\n  "lockfileVersion": 3,\n  "requires": true,\n  "packages": {\n%s\n  }\n}\n' % (r.choice(PROJ), ",\n".join(pk))
    if v == 1:
        out = []
        for name in r.sample(["certifi", "idna", "urllib3", "requests", "charset-normalizer", "pydantic", "anyio", "sniffio"], 4):
            ver = f"{r.randrange(1, 4)}.{r.randrange(0, 12)}.{r.randrange(0, 9)}"
            out += [f'[[package]]', f'name = "{name}"', f'version = "{ver}"', 'description = ""', 'optional = false',
                    'python-versions = ">=3.8"', 'files = [',
                    f'    {{file = "{name.replace("-", "_")}-{ver}-py3-none-any.whl", hash = "sha256:{sha256hex(r)}"}},',
                    f'    {{file = "{name.replace("-", "_")}-{ver}.tar.gz", hash = "sha256:{sha256hex(r)}"}},', ']', '']
        return "lock", "# This file is automatically @generated by Poetry 1.8.4 and should not be changed by hand.\n\n" + "\n".join(out)
    if v == 2:
        out = ["# This file is automatically @generated by Cargo.", "# It is not intended for manual editing.", "version = 4", ""]
        for name in r.sample(["serde", "serde_json", "tokio", "bytes", "itoa", "ryu", "memchr", "libc", "mio", "pin-project-lite"], 5):
            out += ["[[package]]", f'name = "{name}"', f'version = "{r.randrange(0, 2)}.{r.randrange(0, 60)}.{r.randrange(0, 30)}"',
                    'source = "registry+https://github.com/rust-lang/crates.io-index"', f'checksum = "{sha256hex(r)}"', ""]
        return "lock", "\n".join(out)
    out = []
    for mod in r.sample(["github.com/google/uuid", "golang.org/x/sys", "golang.org/x/net", "github.com/spf13/cobra",
                         "github.com/stretchr/testify", "go.uber.org/zap", "github.com/prometheus/client_golang"], 5):
        ver = f"v{r.randrange(0, 2)}.{r.randrange(0, 40)}.{r.randrange(0, 9)}"
        out.append(f"{mod} {ver} h1:{b64(rbytes(r, 32))}")
        out.append(f"{mod} {ver}/go.mod h1:{b64(rbytes(r, 32))}")
    return "sum", "\n".join(out) + "\n"


@clean("checksums_digests", "sha256sums, docker image digests, SRI hashes and pip --hash pins look like hex/base64 secrets")
def c_sums(r, i):
    v = i % 4
    if v == 0:
        ver = f"{r.randrange(1, 3)}.{r.randrange(0, 30)}.{r.randrange(0, 9)}"
        tool = r.choice(["terraform", "kubectl", "helm", "k9s", "vault"])
        lines = [f"{sha256hex(r)}  {tool}_{ver}_{o}_{a}.zip" for o in ["darwin", "linux", "windows"] for a in ["amd64", "arm64"]]
        return "txt", f"$ curl -sLO https://releases.example-mirror.org/{tool}/{ver}/{tool}_{ver}_SHA256SUMS\n$ cat {tool}_{ver}_SHA256SUMS\n" + "\n".join(lines) + f"\n$ sha256sum -c --ignore-missing {tool}_{ver}_SHA256SUMS\n{tool}_{ver}_linux_amd64.zip: OK\n"
    if v == 1:
        img = r.choice(["node:22-alpine", "python:3.12-slim", "postgres:17", "nginx:1.27", "golang:1.23"])
        return "txt", f'''$ docker pull {img}
{img.split(":")[1]}: Pulling from library/{img.split(":")[0]}
{rs(r, 12, HEX)}: Pull complete
{rs(r, 12, HEX)}: Pull complete
{rs(r, 12, HEX)}: Pull complete
Digest: sha256:{sha256hex(r)}
Status: Downloaded newer image for {img}
docker.io/library/{img}
$ docker images --digests | head -3
REPOSITORY   TAG       DIGEST                                                                    IMAGE ID       CREATED        SIZE
{img.split(":")[0]:<12} {img.split(":")[1]:<9} sha256:{sha256hex(r)}   {rs(r, 12, HEX)}   {r.randrange(2, 9)} days ago     {r.randrange(40, 900)}MB
# pin in Dockerfile: FROM {img}@sha256:{sha256hex(r)}
'''
    if v == 2:
        return "html", f'''<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.{r.randrange(0, 4)}/dist/css/bootstrap.min.css"
        integrity="sha384-{b64(rbytes(r, 48))}" crossorigin="anonymous">
  <script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.{r.randrange(0, 4)}/dist/js/bootstrap.bundle.min.js"
          integrity="sha384-{b64(rbytes(r, 48))}" crossorigin="anonymous"></script>
  <script src="https://unpkg.com/htmx.org@2.0.{r.randrange(0, 5)}" integrity="sha384-{b64(rbytes(r, 48))}" crossorigin="anonymous"></script>
</head>
<body>
  <!-- console: Failed to find a valid digest in the 'integrity' attribute for resource ... The resource has been blocked. -->
</body>
</html>
'''
    lines = ["# requirements.txt generated by pip-compile --generate-hashes"]
    for name in r.sample(["requests", "urllib3", "idna", "certifi", "click", "flask", "jinja2", "markupsafe"], 4):
        lines.append(f"{name}=={r.randrange(1, 4)}.{r.randrange(0, 12)}.{r.randrange(0, 9)} \\")
        lines.append(f"    --hash=sha256:{sha256hex(r)} \\")
        lines.append(f"    --hash=sha256:{sha256hex(r)}")
    lines += ["", "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.",
              f"    {lines[1].split('==')[0]} from https://files.pythonhosted.org/packages/{rs(r, 2, HEX)}/{rs(r, 2, HEX)}/{rs(r, 60, HEX)}/x.whl:",
              f"        Expected sha256 {sha256hex(r)}", f"             Got        {sha256hex(r)}"]
    return "txt", "\n".join(lines)


@clean("git_shas", "40-hex commit ids, abbreviated shas and blob ids resemble hex API keys")
def c_git(r, i):
    v = i % 3
    msgs = ["fix: handle empty cart", "chore(deps): bump axios from 1.7.7 to 1.7.9", "feat: add retry to webhook sender",
            "refactor auth middleware", "docs: update README", "Merge pull request #%d from %s/feature" % (r.randrange(100, 4000), r.choice(ORGS)),
            "test: flaky timezone test", "ci: cache pnpm store", "revert \"feat: new pricing page\"", "perf: batch inserts"]
    if v == 0:
        out = ["$ git log --oneline --graph -12"]
        for m in r.sample(msgs, 8):
            out.append(f"{r.choice(['* ', '| * ', '*   '])}{rs(r, 7, HEX)} {m}")
        out += ["", "$ git rebase -i HEAD~3", "error: could not apply " + rs(r, 7, HEX) + "... " + msgs[0],
                f"hint: Resolve all conflicts manually, mark them as resolved with", f'hint: "git add/rm <conflicted_files>", then run "git rebase --continue".']
        return "txt", "\n".join(out)
    if v == 1:
        a, b = rs(r, 40, HEX), rs(r, 40, HEX)
        return "txt", f'''$ git show --stat {a}
commit {a}
Merge: {b[:7]} {rs(r, 7, HEX)}
Author: {person(r)[0].title()} {person(r)[1].title()} <{email(r)}>
Date:   {rdate(r).strftime("%a %b %d %H:%M:%S %Y")} +0100

    {r.choice(msgs)}

 src/api/handlers.go      | {r.randrange(2, 80)} +++++----
 src/api/handlers_test.go | {r.randrange(2, 80)} +++++++++++
 2 files changed

$ git diff {b[:12]}..{a[:12]} -- go.mod
diff --git a/go.mod b/go.mod
index {rs(r, 7, HEX)}..{rs(r, 7, HEX)} 100644
--- a/go.mod
+++ b/go.mod
@@ -3,7 +3,7 @@ module github.com/{r.choice(ORGS)}/{r.choice(PROJ)}
-require github.com/google/uuid v1.5.0
+require github.com/google/uuid v1.6.0
'''
    out = ["$ git ls-remote origin"]
    out.append(f"{rs(r, 40, HEX)}\tHEAD")
    for ref in ["refs/heads/main", "refs/heads/develop", f"refs/heads/feature/{r.choice(WORDS)}",
                f"refs/tags/v{r.randrange(1, 4)}.{r.randrange(0, 9)}.0", f"refs/pull/{r.randrange(10, 900)}/head"]:
        out.append(f"{rs(r, 40, HEX)}\t{ref}")
    out += ["$ git reflog | head -4"] + [f"{rs(r, 7, HEX)} HEAD@{{{k}}}: {r.choice(['checkout: moving from main to develop', 'pull: Fast-forward', 'commit: wip', 'reset: moving to HEAD~1'])}" for k in range(4)]
    return "txt", "\n".join(out)


@clean("request_trace_ids", "UUIDs, W3C trace ids, X-Ray ids, ULIDs and request ids are random-looking tokens in header-like 'x-...-id:' positions")
def c_trace(r, i):
    lines = []
    d = rdate(r)
    for k in range(r.randrange(8, 16)):
        t = (d + _dt.timedelta(milliseconds=k * r.randrange(5, 900))).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        tid, sid = rs(r, 32, HEX), rs(r, 16, HEX)
        kind = r.randrange(4)
        if kind == 0:
            lines.append(json.dumps({"ts": t, "level": r.choice(["info", "warn", "error"]), "msg": r.choice(["request completed", "upstream timeout", "retrying"]),
                                     "trace_id": tid, "span_id": sid, "request_id": ruuid(r), "status": r.choice([200, 201, 504, 429])}))
        elif kind == 1:
            lines.append(f"{t} INFO  [{rs(r, 26, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')}] traceparent=00-{tid}-{sid}-01 GET /v1/items 200 {r.randrange(3, 900)}ms")
        elif kind == 2:
            lines.append(f"{t} WARN  X-Amzn-Trace-Id: Root=1-{rs(r, 8, HEX)}-{rs(r, 24, HEX)};Parent={sid};Sampled=1 x-amz-request-id={rs(r, 16, UP + DIG)}")
        else:
            lines.append(f"{t} ERROR cf-ray={rs(r, 16, HEX)}-{r.choice(['FRA', 'AMS', 'LHR', 'IAD'])} x-request-id={ruuid(r)} upstream_status=502")
    return "log", "\n".join(lines)


@clean("public_keys_certs", "public halves (ssh-ed25519/ssh-rsa lines, BEGIN PUBLIC KEY/CERTIFICATE, JWKS n/e) share framing with private keys")
def c_pub(r, i):
    v = i % 4
    if v == 0:
        lines = ["$ cat ~/.ssh/authorized_keys"]
        for k in range(r.randrange(2, 5)):
            if r.random() < 0.5:
                blob = _sshstr(b"ssh-ed25519") + _sshstr(rbytes(r, 32))
                lines.append(f"ssh-ed25519 {b64(blob)} {user(r)}@{r.choice(['laptop', 'mbp', 'desktop', 'ci'])}")
            else:
                blob = _sshstr(b"ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(b"\x00" + rbytes(r, 384))
                lines.append(f"ssh-rsa {b64(blob)} {user(r)}")
        lines += ["$ ls -la ~/.ssh", "drwx------ 2 deploy deploy 4096 .", "-rw------- 1 deploy deploy  {0} authorized_keys".format(r.randrange(400, 2000)),
                  "# still Permission denied (publickey). sshd_config has PubkeyAuthentication yes"]
        return "txt", "\n".join(lines)
    if v == 1:
        der = _der(0x30, _der(0x30, _der(0x06, bytes.fromhex("2a864886f70d010101")) + b"\x05\x00")
                   + _der(0x03, b"\x00" + _der(0x30, _der_int(int.from_bytes(b"\xc0" + rbytes(r, 255), "big")) + _der_int(65537))))
        return "pem", "JWT verification key for the gateway (public, safe to share):\n\n" + pem("PUBLIC KEY", der) + "\n\nconfig: jwt.public_key_path=/etc/gateway/jwt_pub.pem\n"
    if v == 2:
        keys = []
        for k in range(2):
            keys.append({"kty": "RSA", "use": "sig", "alg": "RS256", "kid": rs(r, 27, URLSAFE),
                         "n": b64u(b"\xc1" + rbytes(r, 255)), "e": "AQAB"})
        return "json", "GET https://auth.%s.com/.well-known/jwks.json\n\n" % r.choice(ORGS) + json.dumps({"keys": keys}, indent=2)
    return "pem", "server.crt we got from the CA - nginx says 'key values mismatch':\n\n" + fake_cert_pem(r, r.randrange(900, 1400)) + "\n" + fake_cert_pem(r, r.randrange(900, 1200)) + "\n\nssl_certificate /etc/nginx/tls/server.crt;\nssl_certificate_key /etc/nginx/tls/server.key;\n"


@clean("placeholders", "token-shaped placeholders (ghp_XXXX..., AKIAXXXX..., <your-token>, changeme, sk-...) in the right syntax and position", topic="config template")
def c_placeholder(r, i):
    v = i % 4
    if v == 0:
        return "example", f'''# .env.example -- copy to .env and fill in
APP_ENV=local
APP_URL=http://localhost:3000
DATABASE_URL=postgres://postgres:postgres@localhost:5432/{r.choice(PROJ).replace("-", "_")}
OPENAI_API_KEY=sk-...
ANTHROPIC_API_KEY=<your-anthropic-key>
STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx
GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX
AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX
AWS_SECRET_ACCESS_KEY=
SESSION_SECRET=changeme
SMTP_PASSWORD=your-password-here
'''
    if v == 1:
        return "md", f'''## Quick start

```bash
export {r.choice(["API_TOKEN", "ACME_TOKEN", "SERVICE_KEY"])}="<paste your token here>"
curl -H "Authorization: Bearer $API_TOKEN" https://api.{r.choice(ORGS)}.com/v1/me
```

Or in `config.yaml`:

```yaml
auth:
  client_id: YOUR_CLIENT_ID
  client_secret: YOUR_CLIENT_SECRET
  token: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
```

Replace `YOUR_CLIENT_ID` / `YOUR_CLIENT_SECRET` with the values from the developer console.
'''
    if v == 2:
        return "yaml", f'''# docker-compose.override.yml (template)
services:
  db:
    environment:
      POSTGRES_PASSWORD: ${{POSTGRES_PASSWORD:-changeme}}
  minio:
    environment:
      MINIO_ROOT_USER: minioadmin
      MINIO_ROOT_PASSWORD: ${{MINIO_ROOT_PASSWORD:?set MINIO_ROOT_PASSWORD}}
  app:
    environment:
      JWT_SECRET: "REPLACE_ME"
      API_KEY: "<insert-api-key>"
      SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/XXXXXXXXX/XXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX"
'''
    return "ini", f'''; php.ini-style sample shipped with the plugin
[api]
endpoint = https://api.{r.choice(ORGS)}.com
api_key = ****************
secret = <SECRET>
password = %PASSWORD%
token = {{{{TOKEN}}}}
webhook_secret = whsec_...
'''


@clean("redacted_values", "credentials shown masked/truncated (****, [REDACTED], sk-...a1b2, prefix only) keep vendor prefixes and key names")
def c_redacted(r, i):
    v = i % 3
    if v == 0:
        return "txt", f'''$ gh auth status
github.com
  ✓ Logged in to github.com account {user(r)} (keyring)
  - Active account: true
  - Git operations protocol: https
  - Token: gho_************************************
  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'

$ npm config list
; "user" config from /home/dev/.npmrc
//registry.npmjs.org/:_authToken = (protected)
registry = "https://registry.npmjs.org/"

$ aws configure list
      Name                    Value             Type    Location
      ----                    -----             ----    --------
   profile                <not set>             None    None
access_key     ****************{rs(r, 4, UP + DIG)} shared-credentials-file
secret_key     ****************{rs(r, 4, ALNUM)} shared-credentials-file
    region                {r.choice(["eu-west-1", "us-east-1"])}      config-file    ~/.aws/config
'''
    if v == 1:
        return "txt", f'''Request (headers redacted by our logger):
POST /v1/charges HTTP/1.1
Host: api.stripe.com
Authorization: Bearer sk_live_...{rs(r, 4, ALNUM)}
Idempotency-Key: {ruuid(r)}
Content-Type: application/x-www-form-urlencoded

Response 402:
{{"error": {{"code": "card_declined", "decline_code": "insufficient_funds", "request_log_url": "https://dashboard.stripe.com/logs/req_{rs(r, 14, ALNUM)}"}}}}

config dump: {{"openai_api_key": "sk-proj-****{rs(r, 4, ALNUM)}", "db_password": "[REDACTED]", "hf_token": "hf_***", "slack_token": "xoxb-***"}}
'''
    return "yaml", f'''# kubectl get secret {r.choice(PROJ)} -o yaml | (redacted before pasting)
apiVersion: v1
kind: Secret
metadata:
  name: {r.choice(PROJ)}
  namespace: {r.choice(["default", "prod", "apps"])}
type: Opaque
data:
  DATABASE_PASSWORD: <redacted>
  API_KEY: "********"
  JWT_SECRET: REDACTED
  REDIS_URL: cmVkaXM6Ly9yZWRpcy1tYXN0ZXI6NjM3OQ==
'''


@clean("secret_store_refs", "references to secret stores ({{ secrets.X }}, vault paths, op://, Key Vault refs, secretKeyRef) sit exactly where literal secrets would")
def c_refs(r, i):
    v = i % 4
    if v == 0:
        return "yml", f'''name: publish
on:
  push:
    tags: ['v*']
jobs:
  publish:
    runs-on: ubuntu-latest
    permissions:
      id-token: write
      contents: read
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
          registry-url: https://registry.npmjs.org
      - run: npm ci && npm publish --provenance
        env:
          NODE_AUTH_TOKEN: ${{{{ secrets.NPM_TOKEN }}}}
      - uses: aws-actions/configure-aws-credentials@v4
        with:
          role-to-assume: arn:aws:iam::{r.randrange(10**11, 10**12)}:role/gha-publish
          aws-region: eu-west-1
      - run: ./scripts/notify.sh
        env:
          SLACK_WEBHOOK_URL: ${{{{ secrets.SLACK_WEBHOOK_URL }}}}
          DOCKERHUB_TOKEN: ${{{{ secrets.DOCKERHUB_TOKEN }}}}
'''
    if v == 1:
        return "yaml", f'''apiVersion: apps/v1
kind: Deployment
metadata:
  name: {r.choice(PROJ)}
spec:
  template:
    metadata:
      annotations:
        vault.hashicorp.com/agent-inject: "true"
        vault.hashicorp.com/role: "{r.choice(PROJ)}"
        vault.hashicorp.com/agent-inject-secret-db: "database/creds/{r.choice(PROJ)}-ro"
        vault.hashicorp.com/agent-inject-template-db: |
          {{{{- with secret "database/creds/{r.choice(PROJ)}-ro" -}}}}
          postgres://{{{{ .Data.username }}}}:{{{{ .Data.password }}}}@pg:5432/app
          {{{{- end -}}}}
    spec:
      containers:
        - name: app
          image: ghcr.io/{r.choice(ORGS)}/{r.choice(PROJ)}:{r.randrange(1, 9)}.{r.randrange(0, 30)}.{r.randrange(0, 9)}
          env:
            - name: STRIPE_SECRET_KEY
              valueFrom:
                secretKeyRef:
                  name: stripe
                  key: secret-key
            - name: REDIS_PASSWORD
              valueFrom:
                secretKeyRef: {{name: redis, key: password}}
'''
    if v == 2:
        return "env", f'''# .env.tpl  -- resolved with `op run --env-file=.env.tpl -- npm start`
DATABASE_URL="op://{r.choice(["Engineering", "Dev", "Private"])}/Postgres {r.choice(["prod", "staging"])}/connection string"
OPENAI_API_KEY="op://Engineering/OpenAI/credential"
GITHUB_TOKEN="op://Private/GitHub PAT/token"
# Azure App Service settings reference Key Vault instead:
#   DbPassword = @Microsoft.KeyVault(SecretUri=https://{r.choice(ORGS).replace("-", "")}kv.vault.azure.net/secrets/DbPassword/)
#   ApiKey     = @Microsoft.KeyVault(VaultName={r.choice(ORGS).replace("-", "")}kv;SecretName=ApiKey)
# AWS: arn:aws:secretsmanager:eu-west-1:{r.randrange(10**11, 10**12)}:secret:prod/{r.choice(PROJ)}/db-{rs(r, 6, ALNUM)}
'''
    return "yml", f'''# group_vars/all/main.yml
db_user: app
db_password: "{{{{ vault_db_password }}}}"
api_token: "{{{{ lookup('community.hashi_vault.hashi_vault', 'secret=kv/data/{r.choice(PROJ)}:api_token') }}}}"
smtp_password: "{{{{ lookup('env', 'SMTP_PASSWORD') }}}}"
aws_secret: "{{{{ lookup('amazon.aws.aws_secret', 'prod/{r.choice(PROJ)}') }}}}"
# spring: spring.datasource.password=${{DB_PASSWORD}}
# systemd: LoadCredential=db-password:/etc/credstore/db-password
'''


@clean("vendor_doc_examples", "vendor documentation example credentials (AWS EXAMPLE keys, jwt.io token, Azurite dev key, k8s docs secret) are format-perfect", topic="docs example")
def c_docex(r, i):
    v = i % 5
    if v == 0:
        return "txt", f'''From the AWS CLI docs, `aws configure` walkthrough:

$ aws configure
AWS Access Key ID [None]: AKIAIOSFODNN7EXAMPLE
AWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
Default region name [None]: us-west-2
Default output format [None]: json

I did exactly this with my own keys but `aws s3 ls` says InvalidAccessKeyId. region is {r.choice(["eu-west-1", "us-east-1"])}.
'''
    if v == 1:
        return "txt", '''jwt.io debugger default token, decoding it in python for a tutorial:

>>> import jwt
>>> tok = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
>>> jwt.decode(tok, options={"verify_signature": False})
{'sub': '1234567890', 'name': 'John Doe', 'iat': 1516239022}
'''
    if v == 2:
        return "json", '''// Azurite (local storage emulator) - the well-known development account from the docs
{
  "IsEncrypted": false,
  "Values": {
    "AzureWebJobsStorage": "UseDevelopmentStorage=true",
    "BlobConn": "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;",
    "FUNCTIONS_WORKER_RUNTIME": "node"
  }
}
'''
    if v == 3:
        return "yaml", '''# straight from the Kubernetes docs "Managing Secrets using Configuration File"
apiVersion: v1
kind: Secret
metadata:
  name: mysecret
type: Opaque
data:
  username: YWRtaW4=
  password: MWYyZDFlMmU2N2Rm
# kubectl apply -f secret.yaml -> error: unable to recognize "secret.yaml": no matches for kind "Secret" in version "v1beta1"
# (I had apiVersion wrong, fixed)
'''
    return "md", '''Connection string formats (copied from the PostgreSQL and MongoDB manuals):

    postgresql://
    postgresql://localhost
    postgresql://user@localhost
    postgresql://user:secret@localhost
    postgresql://other@localhost/otherdb?connect_timeout=10&application_name=myapp

    mongodb://myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com:27017/?authSource=admin

Which of these does SQLAlchemy accept without the `+psycopg` driver suffix?
'''


def _png(r, w, h):
    raw = b"".join(b"\x00" + rbytes(r, w * 3) for _ in range(h))
    def chunk(t, d):
        return len(d).to_bytes(4, "big") + t + d + (zlib.crc32(t + d) & 0xFFFFFFFF).to_bytes(4, "big")
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", w.to_bytes(4, "big") + h.to_bytes(4, "big") + b"\x08\x02\x00\x00\x00")
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


@clean("base64_media", "inline base64 images/fonts/attachments are long base64 runs, sometimes next to 'key'/'token' css/json names")
def c_media(r, i):
    v = i % 3
    if v == 0:
        data = b64(_png(r, r.randrange(6, 14), r.randrange(6, 14)))
        return "css", f'''.icon-{r.choice(WORDS)} {{
  width: 16px;
  height: 16px;
  background-image: url("data:image/png;base64,{data}");
}}
/* why is this blurry on retina? */
'''
    if v == 1:
        body = b64(b"%PDF-1.7\n" + rbytes(r, r.randrange(600, 1400)))
        bnd = "----=_Part_" + str(r.randrange(10**6, 10**7)) + "_" + str(r.randrange(10**9, 10**10))
        return "eml", f'''From: {email(r)}
To: {email(r)}
Subject: invoice {r.randrange(1000, 9999)}
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="{bnd}"

--{bnd}
Content-Type: text/plain; charset=UTF-8

see attached
--{bnd}
Content-Type: application/pdf; name="invoice.pdf"
Content-Transfer-Encoding: base64
Content-Disposition: attachment; filename="invoice.pdf"

{wrap(body, 76)}
--{bnd}--
'''
    data = b64(rbytes(r, r.randrange(300, 700)))
    return "json", json.dumps({"name": r.choice(PROJ), "icons": [{"src": "data:image/webp;base64," + data, "sizes": "48x48", "type": "image/webp"}],
                                "theme_color": "#%06x" % r.randrange(1 << 24)}, indent=2)


def _ident(r):
    return r.choice(LO) + rs(r, r.randrange(0, 2), LO + UP)


@clean("minified_js", "minified bundles and source-map mappings are dense mixed-case alphanumerics with quotes and '=' everywhere")
def c_minjs(r, i):
    if i % 2 == 0:
        parts = []
        for _ in range(r.randrange(6, 12)):
            a, b, c = _ident(r), _ident(r), _ident(r)
            parts.append(r.choice([
                f'function {a}({b},{c}){{return {b}&&{b}.{r.choice(["length", "type", "id"])}?{c}({b}):void 0}}',
                f'var {a}={b}("{rs(r, 4, DIG)}"),{c}={b}.n({a});',
                f'{a}.exports={{"{rs(r, 6, LO)}":"{rs(r, 8, LO + DIG)}_{rs(r, 5, ALNUM)}","{rs(r, 5, LO)}":"{rs(r, 8, LO + DIG)}_{rs(r, 5, ALNUM)}"}}',
                f'const {a}=new Map([["{rs(r, 3, LO)}",{r.randrange(100)}],["{rs(r, 3, LO)}",{r.randrange(100)}]]);',
                f'{a}.prototype.{b}=function(){{this.{c}=Object.assign({{}},this.{c},{{t:Date.now()}})}};',
            ]))
        return "js", f"// chunk from our prod build, Sentry points at col {r.randrange(1000, 9000)} of this line:\n// TypeError: Cannot read properties of undefined (reading '{r.choice(['length', 'map', 'id'])}')\n/*! For license information please see {r.randrange(100, 999)}.js.LICENSE.txt */\n" + f'"use strict";(self.webpackChunk_{r.choice(ORGS).replace("-", "_")}=self.webpackChunk_{r.choice(ORGS).replace("-", "_")}||[]).push([[{r.randrange(100, 999)}],{{{r.randrange(1000, 99999)}:(e,t,n)=>{{' + "".join(parts) + "}}]);\n//# sourceMappingURL=" + f"{r.randrange(100, 999)}.{rs(r, 16, HEX)}.js.map\n"
    vlq = ALNUM + "+/"
    maps = ";".join(",".join(rs(r, r.randrange(4, 8), vlq) for _ in range(r.randrange(3, 12))) for _ in range(r.randrange(8, 20)))
    return "map", json.dumps({"version": 3, "file": f"index-{rs(r, 8, ALNUM)}.js", "sources": ["../src/main.tsx", "../src/App.tsx"],
                              "names": ["React", "useState", "count", "setCount"], "mappings": maps}, indent=2) + "\n\nvite build --sourcemap output; the stack traces in the browser still show the minified names, is the map wrong?\n"


@clean("object_ids", "database/object identifiers (Stripe cus_/pi_, Mongo ObjectIds, S3 keys with hashes, ULIDs) have prefixes and entropy like tokens")
def c_objids(r, i):
    v = i % 3
    if v == 0:
        evt = {"id": "evt_" + rs(r, 24, ALNUM), "object": "event", "type": "payment_intent.succeeded", "api_version": "2025-03-31.basil",
               "data": {"object": {"id": "pi_" + rs(r, 24, ALNUM), "object": "payment_intent", "amount": r.randrange(500, 99999), "currency": "eur",
                                   "customer": "cus_" + rs(r, 14, ALNUM), "latest_charge": "ch_" + rs(r, 24, ALNUM),
                                   "payment_method": "pm_" + rs(r, 24, ALNUM), "client_secret": None, "status": "succeeded"}},
               "request": {"id": "req_" + rs(r, 14, ALNUM), "idempotency_key": ruuid(r)}}
        return "json", "webhook payload we receive (test clock), client_secret is null as expected:\n" + json.dumps(evt, indent=2)
    if v == 1:
        docs = [{"_id": {"$oid": rs(r, 24, HEX)}, "user": {"$oid": rs(r, 24, HEX)}, "sku": rs(r, 8, UP + DIG), "qty": r.randrange(1, 5)} for _ in range(4)]
        return "json", "db.orders.find().limit(4)\n" + "\n".join(json.dumps(d) for d in docs)
    out = ["$ aws s3 ls s3://%s-uploads/avatars/ --recursive | head" % r.choice(ORGS)]
    for _ in range(r.randrange(6, 10)):
        out.append(f"{rdate(r).strftime('%Y-%m-%d %H:%M:%S')} {r.randrange(2000, 900000):>10} avatars/{rs(r, 26, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')}/{rs(r, 40, HEX)}.webp")
    return "txt", "\n".join(out)


@clean("publishable_client_ids", "keys designed to be public (Stripe pk_live_, Mapbox pk., Sentry DSN, OAuth client ids, PostHog phc_, reCAPTCHA site keys)")
def c_pubkeys(r, i):
    v = i % 3
    mbuser = user(r).replace(".", "")
    mb = "pk." + b64u(json.dumps({"u": mbuser, "a": "cl" + rs(r, 23, LO + DIG)}, separators=(",", ":")).encode()) + "." + rs(r, 22, URLSAFE)
    if v == 0:
        return "ts", f'''// src/config/public.ts -- values that ship to the browser
export const publicConfig = {{
  stripePublishableKey: "pk_live_51{rs(r, 97, ALNUM)}",
  mapboxToken: "{mb}",
  sentryDsn: "https://{rs(r, 32, HEX)}@o{r.randrange(10**5, 10**7)}.ingest.{r.choice(["us", "de"])}.sentry.io/{r.randrange(10**6, 10**7)}",
  posthogKey: "phc_{rs(r, 43, ALNUM)}",
}};
'''
    if v == 1:
        return "html", f'''<script src="https://www.google.com/recaptcha/api.js" async defer></script>
<form action="/signup" method="POST">
  <input type="email" name="email" required>
  <div class="g-recaptcha" data-sitekey="6L{rs(r, 38, URLSAFE)}"></div>
  <button type="submit">Sign up</button>
</form>
<div id="g_id_onload"
     data-client_id="{r.randrange(10**11, 10**12)}-{rs(r, 32, LO + DIG)}.apps.googleusercontent.com"
     data-login_uri="https://{r.choice(ORGS)}.com/auth/google/callback">
</div>
'''
    return "xml", f'''<!-- AndroidManifest.xml -->
<application android:label="@string/app_name">
    <meta-data android:name="com.google.android.geo.API_KEY_RESTRICTED_NOTE" android:value="see Cloud console" />
    <meta-data android:name="io.sentry.dsn" android:value="https://{rs(r, 32, HEX)}@o{r.randrange(10**5, 10**7)}.ingest.sentry.io/{r.randrange(10**6, 10**7)}" />
    <meta-data android:name="com.mapbox.token" android:value="{mb}" />
    <meta-data android:name="com.facebook.sdk.ApplicationId" android:value="fb{r.randrange(10**14, 10**16)}" />
</application>
'''


@clean("config_names_secrets", "config keys named password/token/secret/api_key whose values are policies, paths, lengths, headers or booleans", topic="auth settings")
def c_cfgnames(r, i):
    v = i % 2
    if v == 0:
        return "yaml", f'''auth:
  password_min_length: {r.choice([10, 12, 14])}
  password_hash_algorithm: argon2id
  password_reset_token_ttl: 30m
  api_key_header: X-Api-Key
  api_key_prefix_length: 8
  token_endpoint: https://auth.{r.choice(ORGS)}.com/oauth2/token
  access_token_ttl_seconds: {r.choice([900, 3600])}
  refresh_token_rotation: true
  client_secret_env: OAUTH_CLIENT_SECRET
  jwt_secret_file: /run/secrets/jwt_signing_key
  secret_rotation_days: 90
  key_id: "signing-{r.randrange(2024, 2027)}-{r.randrange(1, 13):02d}"
  private_key_path: /etc/{r.choice(PROJ)}/keys/private.pem
'''
    return "py", f'''# settings/base.py
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {{"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {{"min_length": {r.choice([10, 12])}}}}},
    {{"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"}},
]
PASSWORD_RESET_TIMEOUT = {r.choice([259200, 3600, 86400])}
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_HTTPONLY = True
SECRET_KEY = env("DJANGO_SECRET_KEY")
API_TOKEN_HEADER = "HTTP_X_API_TOKEN"
TOKEN_EXPIRE_HOURS = {r.choice([1, 12, 24])}
'''


@clean("password_handling_code", "code that reads, hashes, compares or validates passwords and tokens without containing one")
def c_pwcode(r, i):
    v = i % 4
    ev = r.choice(["DB_PASSWORD", "PGPASSWORD", "MYSQL_PASSWORD", "ADMIN_PASSWORD", "LDAP_PASSWORD", "REDIS_PASSWORD"])
    tv = r.choice(["API_TOKEN", "SERVICE_TOKEN", "UPSTREAM_API_KEY", "INGEST_TOKEN"])
    minlen = r.choice([8, 10, 12, 14, 16])
    rounds = r.choice([10, 11, 12, 13, 14])
    pre = _intro(r, r.choice(["password hashing", "login handler", "secret loading", "auth review"]))
    if v == 0:
        return "py", pre + f'''import os, getpass, hmac, hashlib
import bcrypt

def get_db_password() -> str:
    pw = os.environ.get("{ev}")
    if pw is None:
        pw = getpass.getpass("{ev.split('_')[0].title()} password: ")
    if len(pw) < {minlen}:
        raise SystemExit("password shorter than {minlen} chars")
    return pw

def hash_password(password: str) -> bytes:
    return bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds={rounds}))

def check_password(password: str, hashed: bytes) -> bool:
    return bcrypt.checkpw(password.encode(), hashed)

def verify_webhook(secret: bytes, body: bytes, signature: str) -> bool:
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)
'''
    if v == 1:
        return "go", pre + f'''func loadToken() (string, error) {{
	token := os.Getenv("{tv}")
	if token == "" {{
		b, err := os.ReadFile("/run/secrets/{tv.lower()}")
		if err != nil {{
			return "", fmt.Errorf("no API token: %w", err)
		}}
		token = strings.TrimSpace(string(b))
	}}
	if len(token) < {minlen * 2} {{
		return "", errors.New("api token too short")
	}}
	return token, nil
}}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {{
	password := r.FormValue("password")
	if err := bcrypt.CompareHashAndPassword(s.user.PasswordHash, []byte(password)); err != nil {{
		http.Error(w, "invalid credentials", http.StatusUnauthorized)
		return
	}}
}}
'''
    if v == 2:
        return "ts", pre + f'''export async function signIn(req: Request, res: Response) {{
  const {{ email, password }} = req.body as {{ email: string; password: string }};
  if (!password || password.length < {minlen}) {{
    return res.status(400).json({{ error: "password must be at least {minlen} characters" }});
  }}
  const user = await db.user.findUnique({{ where: {{ email }} }});
  const ok = user && (await argon2.verify(user.passwordHash, password));
  if (!ok) return res.status(401).json({{ error: "invalid email or password" }});
  const token = jwt.sign({{ sub: user.id }}, process.env.{r.choice(["JWT_SECRET", "SESSION_SIGNING_KEY", "AUTH_SECRET"])}!, {{ expiresIn: "{r.choice(["15m", "1h", "12h"])}" }});
  res.cookie("{r.choice(["session", "sid", "__Host-session"])}", token, {{ httpOnly: true, secure: true, sameSite: "lax" }});
  return res.json({{ ok: true }});
}}
'''
    return "java", pre + f'''public final class Credentials {{
    private Credentials() {{}}

    public static char[] readPassword(Console console) {{
        char[] password = console.readPassword("{r.choice(["Keystore", "Truststore", "Signing key", "Database"])} password: ");
        if (password == null || password.length < {minlen}) {{
            throw new IllegalStateException("password too short");
        }}
        return password;
    }}

    public static String apiKey() {{
        String apiKey = System.getenv("{tv}");
        return Objects.requireNonNull(apiKey, "{tv} not set");
    }}
}}
'''


@clean("masked_ci_logs", "CI logs where the runner already masked the secret (***, [MASKED], ****) around docker login / curl -u / env dumps")
def c_masked(r, i):
    v = i % 3
    d = rdate(r)
    ts = lambda k: (d + _dt.timedelta(seconds=k)).strftime("%Y-%m-%dT%H:%M:%S.") + f"{r.randrange(10**7):07d}Z"
    if v == 0:
        return "log", f'''{ts(0)} ##[group]Run docker/login-action@v3
{ts(0)} with:
{ts(0)}   registry: ghcr.io
{ts(0)}   username: {user(r)}
{ts(0)}   password: ***
{ts(0)}   logout: true
{ts(0)} ##[endgroup]
{ts(1)} Logging into ghcr.io...
{ts(2)} Login Succeeded!
{ts(3)} ##[group]Run curl -fsS -H "Authorization: Bearer ***" https://api.{r.choice(ORGS)}.com/deploy
{ts(3)} curl -fsS -H "Authorization: Bearer ***" https://api.{r.choice(ORGS)}.com/deploy
{ts(3)} shell: /usr/bin/bash -e {{0}}
{ts(3)} env:
{ts(3)}   DEPLOY_TOKEN: ***
{ts(3)} ##[endgroup]
{ts(4)} curl: (22) The requested URL returned error: 409
{ts(4)} ##[error]Process completed with exit code 22.
'''
    if v == 1:
        return "log", f'''Running with gitlab-runner 17.{r.randrange(0, 11)}.{r.randrange(0, 3)} (abcdef{r.randrange(10, 99)})
  on {r.choice(ORGS)}-docker-runner {rs(r, 8, ALNUM)}, system ID: s_{rs(r, 12, HEX)}
Preparing the "docker" executor
$ echo "registry: $CI_REGISTRY user: $CI_REGISTRY_USER"
registry: registry.gitlab.com user: gitlab-ci-token
$ docker login -u "$CI_REGISTRY_USER" -p "[MASKED]" $CI_REGISTRY
WARNING! Using --password via the CLI is insecure. Use --password-stdin.
Login Succeeded
$ curl --header "PRIVATE-TOKEN: [MASKED]" "$CI_API_V4_URL/projects/$CI_PROJECT_ID/variables"
{{"message":"403 Forbidden"}}
ERROR: Job failed: exit code 1
'''
    return "log", f'''[Pipeline] withCredentials
Masking supported pattern matches of $NEXUS_PASS or $NEXUS_USER
[Pipeline] {{
[Pipeline] sh
+ curl -u ****:**** --upload-file target/app-{r.randrange(1, 9)}.{r.randrange(0, 9)}.jar https://{host(r, 'nexus')}/repository/releases/
  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current
100 {r.randrange(10, 90)}.1M    0     0  100 {r.randrange(10, 90)}.1M      0  {r.randrange(1, 20)}.2M  0:00:03  0:00:03 --:--:-- {r.randrange(1, 20)}.4M
[Pipeline] }}
[Pipeline] // withCredentials
Warning: A secret was passed to "sh" using Groovy String interpolation, which is insecure.
		 Affected argument(s) used the following variable(s): [NEXUS_PASS]
'''


@clean("encrypted_blobs", "SOPS ENC[...], Ansible Vault, SealedSecrets and Pulumi secure: values are ciphertext, not credentials, but sit under secret-named keys")
def c_enc(r, i):
    v = i % 4
    if v == 0:
        def enc(n):
            return f"ENC[AES256_GCM,data:{b64(rbytes(r, n))},iv:{b64(rbytes(r, 32))},tag:{b64(rbytes(r, 16))},type:str]"
        return "yaml", f'''# secrets.enc.yaml (sops)
db_password: {enc(18)}
stripe_secret_key: {enc(80)}
smtp:
    user: {enc(12)}
    password: {enc(24)}
sops:
    age:
        - recipient: {age_recipient(r)}
          enc: |
            -----BEGIN AGE ENCRYPTED FILE-----
{chr(10).join("            " + l for l in wrap(b64(rbytes(r, 190)), 64).split(chr(10)))}
            -----END AGE ENCRYPTED FILE-----
    lastmodified: "{iso(rdate(r))}"
    mac: ENC[AES256_GCM,data:{b64(rbytes(r, 64))},iv:{b64(rbytes(r, 32))},tag:{b64(rbytes(r, 16))},type:str]
    unencrypted_suffix: _unencrypted
    version: 3.9.{r.randrange(0, 5)}
'''
    if v == 1:
        body = rs(r, 80 * r.randrange(4, 8), HEX)
        return "yml", "# group_vars/prod/vault.yml\n$ANSIBLE_VAULT;1.1;AES256\n" + wrap(body, 80) + "\n\n# ansible-vault view asks for a password and then says 'Decryption failed (no vault secrets were found that could decrypt)'\n"
    if v == 2:
        return "yaml", f'''apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: {r.choice(PROJ)}-db
  namespace: {r.choice(["prod", "apps"])}
spec:
  encryptedData:
    password: Ag{b64(rbytes(r, 500))}
    username: Ag{b64(rbytes(r, 380))}
  template:
    metadata:
      name: {r.choice(PROJ)}-db
    type: Opaque
'''
    return "yaml", f'''# Pulumi.prod.yaml
encryptionsalt: v1:{b64(rbytes(r, 8))}:v1:{b64(rbytes(r, 12))}:{b64(rbytes(r, 16))}
config:
  aws:region: eu-west-1
  {r.choice(PROJ)}:dbPassword:
    secure: v1:{b64(rbytes(r, 12))}:{b64(rbytes(r, 40))}
  {r.choice(PROJ)}:stripeKey:
    secure: v1:{b64(rbytes(r, 12))}:{b64(rbytes(r, 120))}
'''


@clean("build_hashes", "content-hashed chunk names, build ids, ETags, CSP nonces and cache keys are high-entropy strings in web/build output")
def c_build(r, i):
    v = i % 2
    if v == 0:
        out = [f"   ▲ Next.js 15.{r.randrange(0, 5)}.{r.randrange(0, 9)}", "", "   Creating an optimized production build ...",
               " ✓ Compiled successfully", "", "Route (app)                              Size     First Load JS"]
        for route in ["/", "/_not-found", "/dashboard", "/settings", "/api/health"]:
            out.append(f"┌ ○ {route:<36} {r.randrange(1, 60)}.{r.randrange(10)} kB  {r.randrange(90, 200)} kB")
        out += ["+ First Load JS shared by all", f"  ├ chunks/{r.randrange(100, 9999)}-{rs(r, 16, HEX)}.js  {r.randrange(20, 60)}.{r.randrange(10)} kB",
                f"  ├ chunks/framework-{rs(r, 16, HEX)}.js  {r.randrange(40, 60)}.{r.randrange(10)} kB",
                f"  └ chunks/main-app-{rs(r, 16, HEX)}.js  {r.randrange(1, 9)}.{r.randrange(10)} kB", "",
                f"Build ID: {rs(r, 21, URLSAFE)}",
                f"cache key: node-modules-Linux-x64-{rs(r, 64, HEX)}"]
        return "txt", "\n".join(out)
    return "txt", f'''HTTP/2 200
content-type: text/html; charset=utf-8
etag: W/"{r.randrange(1000, 99999):x}-{b64(rbytes(r, 20)).rstrip("=")}"
content-security-policy: default-src 'self'; script-src 'self' 'nonce-{b64(rbytes(r, 16))}' 'strict-dynamic'; object-src 'none'; base-uri 'self'
x-vercel-id: fra1::iad1::{rs(r, 5, LO + DIG)}-{r.randrange(10**12, 10**13)}-{rs(r, 12, HEX)}
x-nextjs-cache: HIT
cache-control: public, max-age=0, must-revalidate
'''


@clean("terraform_plan_sensitive", "plan output mentions password/secret attributes but shows (sensitive value) and ids/ARNs")
def c_tfplan(r, i):
    acct = r.randrange(10**11, 10**12)
    name = r.choice(PROJ)
    return "txt", f'''Terraform will perform the following actions:

  # aws_db_instance.{name.replace("-", "_")} will be created
  + resource "aws_db_instance" "{name.replace("-", "_")}" {{
      + address                  = (known after apply)
      + allocated_storage        = 50
      + arn                      = (known after apply)
      + engine                   = "postgres"
      + engine_version           = "16.{r.randrange(1, 6)}"
      + identifier               = "{name}-prod"
      + instance_class           = "db.r6g.large"
      + kms_key_id               = "arn:aws:kms:eu-west-1:{acct}:key/{ruuid(r)}"
      + manage_master_user_password = true
      + password                 = (sensitive value)
      + username                 = "app"
      + vpc_security_group_ids   = [
          + "sg-{rs(r, 17, HEX)}",
        ]
    }}

  # aws_secretsmanager_secret_version.api_key will be created
  + resource "aws_secretsmanager_secret_version" "api_key" {{
      + arn            = (known after apply)
      + secret_id      = "arn:aws:secretsmanager:eu-west-1:{acct}:secret:{name}/api-key-{rs(r, 6, ALNUM)}"
      + secret_string  = (sensitive value)
      + version_id     = (known after apply)
    }}

Plan: 2 to add, 0 to change, 0 to destroy.

Changes to Outputs:
  + db_endpoint = (known after apply)
  + db_password = (sensitive value)
'''


@clean("cloud_resource_ids", "ARNs, Azure subscription/resource ids, instance/volume/sg ids and account numbers look like keys to pattern matchers")
def c_cloudids(r, i):
    if i % 2 == 0:
        inst = [{"InstanceId": "i-" + rs(r, 17, HEX), "ImageId": "ami-" + rs(r, 17, HEX), "State": {"Name": r.choice(["running", "stopped"])},
                 "PrivateIpAddress": ip(r), "SubnetId": "subnet-" + rs(r, 17, HEX), "VpcId": "vpc-" + rs(r, 17, HEX),
                 "IamInstanceProfile": {"Arn": f"arn:aws:iam::{r.randrange(10**11, 10**12)}:instance-profile/{r.choice(PROJ)}", "Id": "AIPA" + rs(r, 17, UP + "234567")},
                 "BlockDeviceMappings": [{"DeviceName": "/dev/xvda", "Ebs": {"VolumeId": "vol-" + rs(r, 17, HEX)}}]} for _ in range(2)]
        return "json", "$ aws ec2 describe-instances --query 'Reservations[].Instances[]'\n" + json.dumps(inst, indent=2)
    sub = ruuid(r)
    rg = r.choice(PROJ) + "-rg"
    return "txt", f'''$ az resource list -g {rg} -o tsv --query "[].id"
/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Web/sites/{r.choice(PROJ)}-app
/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.KeyVault/vaults/{r.choice(ORGS).replace("-", "")}kv
/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Storage/storageAccounts/{r.choice(ORGS).replace("-", "")[:12]}sa
/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/{r.choice(PROJ)}-id
$ az account show --query "{{tenant:tenantId, sub:id}}"
{{"sub": "{sub}", "tenant": "{ruuid(r)}"}}
'''


def _env_rows(r):
    rows = ["| `DATABASE_URL` | yes | Postgres connection string, e.g. `postgres://USER:PASSWORD@HOST:5432/DB` |",
            f"| `REDIS_URL` | no | Defaults to `redis://localhost:{r.choice([6379, 6380])}/0` |",
            "| `OPENAI_API_KEY` | yes | API key from platform.openai.com (starts with `sk-`) |",
            "| `ANTHROPIC_API_KEY` | no | Needed only when `LLM_PROVIDER=anthropic` (`sk-ant-...`) |",
            "| `STRIPE_SECRET_KEY` | yes | Secret key (`sk_live_...` in prod, `sk_test_...` locally) |",
            "| `STRIPE_WEBHOOK_SECRET` | yes | Signing secret of the webhook endpoint (`whsec_...`) |",
            "| `GITHUB_TOKEN` | no | Fine-grained PAT with `contents:read`; only needed for private plugins |",
            f"| `SESSION_SECRET` | yes | At least {r.choice([32, 48, 64])} random bytes, e.g. `openssl rand -base64 {r.choice([32, 48, 64])}` |",
            "| `SENTRY_DSN` | no | Error reporting |",
            "| `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` | no | Only outside AWS; on ECS the task role is used |",
            "| `SMTP_PASSWORD` | no | App password for the SMTP relay |",
            f"| `LOG_LEVEL` | no | `debug`, `{r.choice(['info', 'warn'])}` (default), `error` |"]
    keep = r.sample(rows, r.randrange(7, len(rows) + 1))
    return "\n".join(keep)


@clean("env_var_docs", "README tables that name every secret env var and describe its format/prefix without a value", topic="README config section")
def c_envdocs(r, i):
    return "md", f'''## Configuration

All configuration is read from environment variables.

| Variable | Required | Description |
|---|---|---|
{_env_rows(r)}

Never commit `.env`; use `{r.choice(["doppler run --", "op run --env-file=.env.tpl --", "dotenvx run --"])} npm start` instead.
'''


@clean("test_dummy_values", "unit tests and fixtures assign obviously fake values to password/token/api_key fields", topic="test fixtures")
def c_tests(r, i):
    if i % 2 == 0:
        return "py", f'''import pytest
from {r.choice(PROJ).replace("-", "_")}.client import Client


@pytest.fixture
def client(monkeypatch):
    monkeypatch.setenv("API_KEY", "test-api-key")
    monkeypatch.setenv("DB_PASSWORD", "test-password")
    return Client(base_url="http://localhost:8080", token="dummy-token")


def test_auth_header(client):
    assert client.headers["Authorization"] == "Bearer dummy-token"


def test_rejects_empty_password():
    with pytest.raises(ValueError):
        Client(base_url="http://x", token="")
'''
    return "ts", f'''import {{ describe, it, expect, vi }} from "vitest";
import {{ createClient }} from "../src/client";

vi.stubEnv("STRIPE_SECRET_KEY", "sk_test_fake");
vi.stubEnv("WEBHOOK_SECRET", "not-a-real-secret");

describe("createClient", () => {{
  it("passes the api key through", () => {{
    const c = createClient({{ apiKey: "fake-key-for-tests", password: "mock-password" }});
    expect(c.config.apiKey).toBe("fake-key-for-tests");
  }});
}});
'''


@clean("crypto_public_ids", "wallet addresses, tx/block hashes and IPFS CIDs: 0x+64 hex tx hashes have the exact shape of Ethereum private keys")
def c_crypto(r, i):
    addr = "0x" + rs(r, 40, HEX)
    txh = "0x" + rs(r, 64, HEX)
    lines = [f"$ cast receipt {txh} --rpc-url $RPC_URL",
             f"blockHash               0x{rs(r, 64, HEX)}",
             f"blockNumber             {r.randrange(19_000_000, 23_000_000)}",
             f"contractAddress",
             f"cumulativeGasUsed       {r.randrange(10**6, 3 * 10**7)}",
             f"effectiveGasPrice       {r.randrange(10**9, 5 * 10**10)}",
             f"from                    {addr}",
             f"gasUsed                 {r.randrange(21000, 300000)}",
             f"status                  {r.choice(['1 (success)', '0 (failed)'])}",
             f"transactionHash         {txh}",
             f"to                      0x{rs(r, 40, HEX)}", "",
             f"bitcoin deposit address: {bech32('bc', [0] + _convertbits(rbytes(r, 20), 8, 5))}",
             f"metadata: ipfs://bafybei{rs(r, 52, 'abcdefghijklmnopqrstuvwxyz234567')}",
             "why does the tx revert with 'ERC20: insufficient allowance' when approve() succeeded?"]
    return "txt", "\n".join(lines)


@clean("kubeconfig_exec", "kubeconfig with base64 certificate-authority-data and exec credential plugin; no token or client key present")
def c_kubeconfig(r, i):
    ca = b64((fake_cert_pem(r, r.randrange(700, 1100)) + "\n").encode())
    name = r.choice(PROJ) + "-" + r.choice(["prod", "stg", "dev"])
    if i % 2 == 0:
        server = f"https://{rs(r, 32, HEX).upper()}.gr7.{r.choice(['eu-west-1', 'us-east-1'])}.eks.amazonaws.com"
        ex = f'''      exec:
        apiVersion: client.authentication.k8s.io/v1beta1
        command: aws
        args: ["--region", "eu-west-1", "eks", "get-token", "--cluster-name", "{name}", "--output", "json"]
        env:
          - name: AWS_PROFILE
            value: {r.choice(["prod", "admin", "platform"])}'''
    else:
        server = f"https://{ip(r)}"
        ex = '''      exec:
        apiVersion: client.authentication.k8s.io/v1beta1
        command: gke-gcloud-auth-plugin
        installHint: Install gke-gcloud-auth-plugin for use with kubectl
        provideClusterInfo: true'''
    return "yaml", f'''apiVersion: v1
kind: Config
clusters:
  - cluster:
      certificate-authority-data: {ca}
      server: {server}
    name: {name}
contexts:
  - context:
      cluster: {name}
      user: {name}
    name: {name}
current-context: {name}
users:
  - name: {name}
    user:
{ex}
# kubectl get pods -> "error: You must be logged in to the server (Unauthorized)"
'''


@clean("chat_no_secret", "conversations about rotating/sharing credentials that use all the trigger words but never include a value")
def c_chat(r, i):
    a, b = user(r), user(r)
    d = rdate(r)
    hh = lambda k: (d + _dt.timedelta(minutes=k)).strftime("%H:%M")
    v = i % 2
    if v == 0:
        return "txt", f'''[{hh(0)}] {a}: the npm token expired again, publish job is red
[{hh(1)}] {b}: I rotated it this morning, new one is in vault under kv/ci/npm-publish
[{hh(2)}] {a}: the workflow still reads secrets.NPM_TOKEN though
[{hh(3)}] {b}: right, need to update the repo secret too. can you do `gh secret set NPM_TOKEN < token.txt` from your machine? don't paste it here
[{hh(5)}] {a}: done. also revoked the old token in the npm UI
[{hh(6)}] {b}: 👍 and the AWS key for the backup user, password for grafana admin — all in 1Password "Infra" vault now
[{hh(8)}] {a}: re-ran, green ✅
'''
    return "md", f'''**Incident {r.randrange(100, 999)} follow-up (credential exposure drill)**

- Secret scanning flagged a *test* key in `fixtures/`; confirmed it was a placeholder, no rotation needed.
- Production API keys live only in AWS Secrets Manager (`prod/{r.choice(PROJ)}/*`); pods read them via the CSI driver.
- Action: enable push protection on all repos; add `detect-secrets` baseline to pre-commit.
- Action: rotate the Slack bot token and the DB password on the {r.randrange(1, 28)}th during the maintenance window — owner @{b}.
- Reminder: never paste tokens in tickets; link to the vault path instead.
'''


# --------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------
ENCODED_CONTEXTS = {"k8s_secret_rsa_b64"}
HALVES = ("fifth", "twin")


def positives(half, per_template):
    out = []
    for context, category, kind, fn in POS:
        for i in range(per_template):
            r = random.Random(f"{half}:{context}:{i}")
            name, value, text = fn(r, i)
            name = f"pos-{context}-{i}" + ("." + name.rsplit(".", 1)[1] if "." in name else "-" + name)
            if not text.endswith("\n"):
                text += "\n"
            out.append((name, context, kind, value, text))
    return out


def cleans(half, per_family):
    out = []
    for family, hard, fn in CLEAN:
        for i in range(per_family):
            r = random.Random(f"{half}:{family}:{i}")
            ext, text = fn(r, i)
            if family in INTRO_TOPIC:
                text = _intro(r, INTRO_TOPIC[family]) + text
            if not text.endswith("\n"):
                text += "\n"
            out.append((f"clean-{family}-{i}.{ext}", family, text))
    return out


# --------------------------------------------------------------------------
# self-check
# --------------------------------------------------------------------------
import re as _re

FORMAT_CHECKS = {   # kind -> regex the generated value must fully match (documented formats)
    "npm-access-token": r"npm_[A-Za-z0-9]{36}",
    "github-pat-classic": r"ghp_[A-Za-z0-9]{36}",
    "github-pat-fine-grained": r"github_pat_\w{82}",
    "gitlab-pat": r"glpat-[\w-]{20}",
    "pypi-api-token": r"pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}",
    "crates-io-token": r"cio[A-Za-z0-9]{32}",
    "nuget-api-key": r"oy2[a-z0-9]{43}",
    "rubygems-api-key": r"rubygems_[a-f0-9]{48}",
    "slack-bot-token": r"xoxb-[0-9]{10,13}-[0-9]{10,13}-[a-zA-Z0-9]{24}",
    "stripe-secret-key": r"[sr]k_live_[a-zA-Z0-9]{99}",
    "aws-secret-access-key": r"[A-Za-z0-9+/]{40}",
    "openai-api-key": r"sk-(?:proj|svcacct)-[\w-]{74}T3BlbkFJ[\w-]{74}",
    "anthropic-api-key": r"sk-ant-api03-[\w-]{93}AA",
    "huggingface-token": r"hf_[a-zA-Z]{34}",
    "sendgrid-api-key": r"SG\.[\w-]{22}\.[\w-]{43}",
    "databricks-token": r"dapi[a-f0-9]{32}(?:-\d)?",
    "grafana-sa-token": r"glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}",
    "digitalocean-pat": r"dop_v1_[a-f0-9]{64}",
    "vault-token": r"hvs\.[\w-]{90,120}",
    "dockerhub-pat": r"dckr_pat_[\w-]{27}",
    "google-api-key": r"AIza[\w-]{35}",
    "azure-ad-client-secret": r"[a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{34}",
    "slack-webhook-url": r"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{24}",
    "discord-webhook-url": r"https://discord\.com/api/webhooks/\d{17,19}/[\w-]{68}",
    "jwt": r"eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+",
    "wireguard-private-key": r"[A-Za-z0-9+/]{43}=",
}


def _check_checksums(kind, v):
    if kind in ("npm-access-token", "github-pat-classic"):
        body, chk = v[4:34], v[34:]
        assert b62(zlib.crc32(body.encode()) & 0xFFFFFFFF, 6) == chk, v
    if kind == "grafana-sa-token":
        sec = v[5:37]
        assert (zlib.crc32(("glsa_" + sec).encode()) & 0xFFFFFFFF).to_bytes(4, "little").hex() == v[-8:], v


def _selfcheck():
    import time
    t0 = time.time()
    assert len(POS) == 55, len(POS)
    assert len(CLEAN) == 25, len(CLEAN)
    cats = {}
    for _, cat, _, _ in POS:
        cats[cat] = cats.get(cat, 0) + 1
    print("template split:", cats)
    gen = {}
    for half in HALVES:
        p = positives(half, 6)
        c = cleans(half, 20)
        assert len(p) == 330, len(p)
        assert len(c) == 500, len(c)
        names = [x[0] for x in p] + [x[0] for x in c]
        assert len(set(names)) == len(names), "duplicate names"
        for name, context, kind, value, text in p:
            n = text.count("\n")
            assert 5 <= n <= 120, (name, n)
            if context in ENCODED_CONTEXTS:
                assert value not in text
                assert b64((value + "\n").encode()) in text, name
            else:
                assert value in text, name
            if kind in FORMAT_CHECKS:
                assert _re.fullmatch(FORMAT_CHECKS[kind], value), (name, value)
            _check_checksums(kind, value)
        for name, family, text in c:
            n = text.count("\n")
            assert 5 <= n <= 120, (name, n)
        assert len({x[2] for x in c}) == len(c), "duplicate clean texts within a half"
        assert len({x[4] for x in p}) == len(p), "duplicate positive texts within a half"
        vals = [x[3] for x in p]
        assert len(set(vals)) == len(vals), "repeated value"
        blob = "\n".join(x[2] for x in c)
        for v in vals:
            assert v not in blob, ("positive value leaked into a clean", v[:20])
        gen[half] = (p, c)
        print(half, "ok:", len(p), "positives,", len(c), "cleans", f"({time.time() - t0:.1f}s)")
    for half in HALVES:
        assert positives(half, 6) == gen[half][0], "non-deterministic positives"
        assert cleans(half, 20) == gen[half][1], "non-deterministic cleans"
    pa, pb = gen["fifth"][0], gen["twin"][0]
    assert all(a[3] != b[3] and a[4] != b[4] for a, b in zip(pa, pb)), "halves share a positive"
    ca, cb = gen["fifth"][1], gen["twin"][1]
    same = sum(a[2] == b[2] for a, b in zip(ca, cb))
    print("identical clean texts across halves:", same)
    assert same == 0, same
    print("all checks passed in %.1fs" % (time.time() - t0))


if __name__ == "__main__":
    import sys
    if len(sys.argv) > 1 and sys.argv[1] == "dump":
        import os
        half = sys.argv[2] if len(sys.argv) > 2 else "fifth"
        outdir = sys.argv[3] if len(sys.argv) > 3 else f"/tmp/fifth-dump-{half}"
        os.makedirs(outdir, exist_ok=True)
        for name, context, kind, value, text in positives(half, 6):
            open(os.path.join(outdir, name), "w").write(text)
        for name, family, text in cleans(half, 20):
            open(os.path.join(outdir, name), "w").write(text)
        print("wrote", outdir)
    else:
        _selfcheck()
