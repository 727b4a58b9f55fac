"""Realistic fake credentials, one generator per kind of secret the guard knows.

Every value is random and has its issuer's real shape: prefix, length, alphabet and, where the
format has one, checksum (GitHub's CRC32 tail) or inner structure (a Discord token's first part
is the base64 of a user id, a Basic header's base64 decodes to user:password). Private keys come
from openssl, ssh-keygen and gpg when `real_keys` is on and the tool is there; otherwise they are
built from random bytes in the right armour.

Used by scripts/secret-guard-recall (held-out samples). The keys of GENERATORS are the guard's
kind names (SecretPattern raw values).
"""

import base64
import json
import os
import random
import shutil
import string
import subprocess
import tempfile
import urllib.parse
import zlib

DIGITS = string.digits
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
LETTERS = string.ascii_letters
ALNUM = LETTERS + DIGITS
HEX = "0123456789abcdef"
BASE64URL = ALNUM + "-_"
BASE62 = DIGITS + UPPER + LOWER

WORDS = ["amber", "birch", "cobalt", "delta", "ember", "falcon", "granite", "harbor", "indigo", "juniper",
         "kestrel", "lumen", "maple", "nectar", "onyx", "pepper", "quartz", "raven", "saffron", "tundra",
         "umber", "velvet", "willow", "xenon", "yarrow", "zephyr"]
USERS = ["deploy", "admin", "ci", "svc-backup", "alice", "bob", "root", "postgres", "app", "jenkins"]
HOSTS = ["db.internal.example.net", "10.0.4.17", "pg-prod-1.corp.lan", "registry.acme.io", "mail.example.org",
         "api.staging.example.com", "git.intra.example", "cache-02.example.net"]


class Fakes:
    def __init__(self, seed, real_keys=False):
        self.rng = random.Random(seed)
        self.real_keys = real_keys
        self._keys = []

    # --- pieces -----------------------------------------------------------------------------

    def pick(self, seq):
        return self.rng.choice(seq)

    def chars(self, alphabet, n):
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def mixed(self, alphabet, n):
        """A run with at least one lower-case letter, one upper-case letter and one digit."""
        while True:
            value = self.chars(alphabet, n)
            if any(c.islower() for c in value) and any(c.isupper() for c in value) and any(c.isdigit() for c in value):
                return value

    def mixed_case(self, alphabet, n):
        """A run with at least one lower-case and one upper-case letter."""
        while True:
            value = self.chars(alphabet, n)
            if any(c.islower() for c in value) and any(c.isupper() for c in value):
                return value

    def hexdigits(self, n):
        while True:
            value = self.chars(HEX, n)
            if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
                return value

    def b64(self, nbytes):
        return base64.b64encode(self.rng.randbytes(nbytes)).decode()

    def b64url(self, nbytes):
        return base64.urlsafe_b64encode(self.rng.randbytes(nbytes)).decode().rstrip("=")

    def password(self):
        """A password someone would set: words, digits and a symbol, or a random string."""
        if self.rng.random() < 0.5:
            return (self.pick(WORDS).capitalize() + self.pick(WORDS) + str(self.rng.randint(10, 9999))
                    + self.pick("!#%+-.@^_~"))
        return self.mixed(ALNUM + "!#%*+-.=@^_", self.rng.randint(12, 24))

    def user(self):
        return self.pick(USERS)

    def host(self):
        return self.pick(HOSTS)

    # --- tokens -----------------------------------------------------------------------------

    def github(self):
        if self.rng.random() < 0.2:
            return "github_pat_" + self.chars(ALNUM, 22) + "_" + self.chars(ALNUM, 59)
        body = self.chars(ALNUM, 30)
        crc = zlib.crc32(body.encode())
        tail = ""
        while crc:
            crc, digit = divmod(crc, 62)
            tail = BASE62[digit] + tail
        return self.pick(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) + body + tail.rjust(6, "0")

    def discord(self):
        user_id = str(self.rng.randint(10**17, 1_400_000_000_000_000_000))
        first = base64.b64encode(user_id.encode()).decode().rstrip("=")
        return first + "." + self.chars(BASE64URL, 6) + "." + self.chars(BASE64URL, self.pick([27, 38]))

    def jwt(self):
        header = {"alg": self.pick(["HS256", "RS256", "ES256"]), "typ": "JWT"}
        payload = {"sub": str(self.rng.randint(1000, 99999)), "name": self.pick(USERS),
                   "iat": self.rng.randint(1_600_000_000, 1_750_000_000)}
        enc = lambda obj: base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")
        return enc(header) + "." + enc(payload) + "." + self.b64url(32)

    def openai(self):
        if self.rng.random() < 0.3:
            return "sk-" + self.mixed(ALNUM, 20) + "T3BlbkFJ" + self.mixed(ALNUM, 20)
        kind = self.pick(["proj", "svcacct", "admin"])
        return "sk-" + kind + "-" + self.mixed(BASE64URL, 74) + "T3BlbkFJ" + self.mixed(BASE64URL, 74)

    def slack(self):
        kind = self.pick(["xoxb", "xoxp", "xapp", "xoxe"])
        if kind == "xoxb":
            return "xoxb-" + self.chars(DIGITS, 12) + "-" + self.chars(DIGITS, 13) + "-" + self.mixed(ALNUM, 24)
        if kind == "xoxp":
            return ("xoxp-" + self.chars(DIGITS, 12) + "-" + self.chars(DIGITS, 12) + "-" + self.chars(DIGITS, 13)
                    + "-" + self.hexdigits(32))
        if kind == "xapp":
            return "xapp-1-A" + self.chars(UPPER + DIGITS, 10) + "-" + self.chars(DIGITS, 13) + "-" + self.hexdigits(64)
        return "xoxe-1-" + self.mixed(UPPER + DIGITS + LOWER, 146)

    def azure_storage(self):
        if self.rng.random() < 0.6:
            return ("DefaultEndpointsProtocol=https;AccountName=" + self.pick(WORDS) + "store" + self.chars(DIGITS, 3)
                    + ";AccountKey=" + self.b64(64) + ";EndpointSuffix=core.windows.net")
        return ("Endpoint=sb://" + self.pick(WORDS) + "-bus.servicebus.windows.net/;SharedAccessKeyName="
                "RootManageSharedAccessKey;SharedAccessKey=" + self.b64(32))

    def azure_sas(self):
        signature = urllib.parse.quote(self.b64(32), safe="")
        return ("https://" + self.pick(WORDS) + "acct.blob.core.windows.net/" + self.pick(WORDS) + "/backup.tar.gz"
                + "?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-0" + str(self.rng.randint(1, 9))
                + "-15T12:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig=" + signature)

    def azure_client_secret(self):
        tail_alphabet = ALNUM + "_~.-"
        return self.chars(ALNUM + "_~.", 3) + self.pick(DIGITS) + "Q~" + self.mixed(tail_alphabet, 34)

    def telegram(self):
        return self.chars("123456789", 1) + self.chars(DIGITS, self.rng.randint(7, 9)) + ":AA" + self.mixed(BASE64URL, 33)

    def basic_header(self):
        credentials = self.user() + ":" + self.password()
        return "Basic " + base64.b64encode(credentials.encode()).decode()

    def docker_config(self, indent=2):
        auth = base64.b64encode((self.user() + ":" + self.password()).encode()).decode()
        registry = self.pick(["https://index.docker.io/v1/", "ghcr.io", "registry.acme.io:5000", "quay.io"])
        return json.dumps({"auths": {registry: {"auth": auth}}}, indent=indent)

    def connection_string(self):
        password = self.password().replace(";", "")
        style = self.rng.randint(0, 2)
        if style == 0:
            return ("Server=tcp:" + self.pick(WORDS) + ".database.windows.net,1433;Initial Catalog=" + self.pick(WORDS)
                    + ";User ID=" + self.user() + ";Password=" + password + ";Encrypt=True;")
        if style == 1:
            return ("Host=" + self.host() + ";Port=5432;Database=" + self.pick(WORDS) + ";Username=" + self.user()
                    + ";Password=" + password)
        return "Driver={ODBC Driver 18 for SQL Server};Server=" + self.host() + ";Uid=" + self.user() + ";Pwd=" + password + ";"

    # --- private keys -----------------------------------------------------------------------

    def _armor(self, label, nbytes, headers=""):
        body = base64.b64encode(self.rng.randbytes(nbytes)).decode()
        lines = [body[i:i + 64] for i in range(0, len(body), 64)]
        return "-----BEGIN " + label + "-----\n" + headers + "\n".join(lines) + "\n-----END " + label + "-----\n"

    def _run(self, argv, **kwargs):
        return subprocess.run(argv, check=True, capture_output=True, timeout=60, **kwargs)

    def _real_key(self):
        """A key from openssl, ssh-keygen or gpg (None when the tool is missing or fails)."""
        choice = self.rng.randint(0, 6)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "key")
            try:
                if choice == 0 and shutil.which("openssl"):
                    return self._run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]).stdout.decode()
                if choice == 1 and shutil.which("openssl"):
                    return self._run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]).stdout.decode()
                if choice == 2 and shutil.which("openssl"):
                    return self._run(["openssl", "genpkey", "-algorithm", "ED25519"]).stdout.decode()
                if choice == 3 and shutil.which("openssl"):
                    key = self._run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]).stdout
                    return self._run(["openssl", "pkey", "-traditional"], input=key).stdout.decode()
                if choice == 4 and shutil.which("openssl"):
                    return self._run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384",
                                      "-aes-256-cbc", "-pass", "pass:" + self.password()]).stdout.decode()
                if choice in (5, 6) and shutil.which("ssh-keygen"):
                    kind = ["ed25519", "ecdsa", "rsa"][self.rng.randint(0, 2)]
                    argv = ["ssh-keygen", "-q", "-t", kind, "-N", "", "-C", self.user() + "@example", "-f", path]
                    if choice == 6:
                        argv[1:1] = ["-m", "PEM"] if kind != "ed25519" else []
                    self._run(argv)
                    with open(path) as f:
                        return f.read()
            except (subprocess.SubprocessError, OSError):
                return None
        return None

    def private_key(self):
        if self.real_keys:
            key = self._real_key()
            if key:
                return key
        label = self.pick(["RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY",
                           "ENCRYPTED PRIVATE KEY", "DSA PRIVATE KEY"])
        return self._armor(label, self.pick([121, 280, 1190]))

    def pgp_private_key(self):
        if self.real_keys and shutil.which("gpg"):
            with tempfile.TemporaryDirectory() as folder:
                home = os.path.join(folder, "gnupg")
                os.mkdir(home, 0o700)
                env = dict(os.environ, GNUPGHOME=home)
                try:
                    self._run(["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "",
                               "--quick-gen-key", "Fake Person <fake@example.org>", "ed25519", "sign", "never"], env=env)
                    return self._run(["gpg", "--batch", "--armor", "--export-secret-keys"], env=env).stdout.decode()
                except (subprocess.SubprocessError, OSError):
                    pass
        return self._armor("PGP PRIVATE KEY BLOCK", 600, headers="\n")

    def putty_key(self):
        version = self.pick(["2", "3"])
        algorithm = self.pick(["ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256"])
        public = base64.b64encode(self.rng.randbytes(51)).decode()
        private = base64.b64encode(self.rng.randbytes(48)).decode()
        lines = ["PuTTY-User-Key-File-" + version + ": " + algorithm, "Encryption: none",
                 "Comment: " + self.user() + "-key-2024", "Public-Lines: 2", public[:64], public[64:],
                 "Private-Lines: 1", private, "Private-MAC: " + self.chars(HEX, 64)]
        return "\n".join(lines) + "\n"


# kind -> function(fakes) -> the secret text (a value, a line or a block, as the kind needs)
GENERATORS = {
    "private-key": lambda f: f.private_key(),
    "pgp-private-key": lambda f: f.pgp_private_key(),
    "putty-private-key": lambda f: f.putty_key(),
    "age-secret-key": lambda f: "AGE-SECRET-KEY-1" + f.chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
    "aws-access-key-id": lambda f: f.pick(["AKIA", "ASIA"]) + f.chars(UPPER + "234567", 16),
    "aws-secret-access-key": lambda f: f.pick(["aws_secret_access_key", "AWS_SECRET_ACCESS_KEY"]) + "="
    + f.mixed(ALNUM + "+/", 40),
    "google-api-key": lambda f: "AIza" + f.mixed(BASE64URL, 35),
    "google-oauth-token": lambda f: "ya29." + f.mixed(BASE64URL, f.rng.randint(140, 220)),
    "google-oauth-client-secret": lambda f: "GOCSPX-" + f.mixed(BASE64URL, 28),
    "azure-storage-key": lambda f: f.azure_storage(),
    "azure-sas-token": lambda f: f.azure_sas(),
    "azure-client-secret": lambda f: f.azure_client_secret(),
    "digitalocean-token": lambda f: f.pick(["dop_v1_", "doo_v1_", "dor_v1_"]) + f.hexdigits(64),
    "vault-token": lambda f: f.pick(["hvs.CAESI", "hvb.AAAAAQ"]) + f.mixed(BASE64URL, f.rng.randint(86, 140)),
    "terraform-token": lambda f: f.chars(LOWER + DIGITS, 14) + ".atlasv1." + f.chars(LOWER + DIGITS, 67),
    "doppler-token": lambda f: f.pick(["dp.pt.", "dp.st.", "dp.sa."]) + f.mixed(ALNUM, 43),
    "databricks-token": lambda f: "dapi" + f.hexdigits(32),
    "github-token": lambda f: f.github(),
    "gitlab-token": lambda f: f.pick(["glpat-", "glrt-", "gldt-", "glptt-"]) + f.mixed(BASE64URL, 20),
    "npm-token": lambda f: "npm_" + f.mixed(ALNUM, 36),
    "pypi-token": lambda f: "pypi-AgEIcHlwaS5vcmc" + f.mixed(BASE64URL, f.rng.randint(150, 190)),
    "rubygems-token": lambda f: "rubygems_" + f.hexdigits(48),
    "docker-hub-token": lambda f: "dckr_pat_" + f.mixed(BASE64URL, 27),
    "huggingface-token": lambda f: "hf_" + f.mixed_case(LETTERS, 34),
    "stripe-key": lambda f: f.pick(["sk_live_", "rk_live_"]) + f.mixed(ALNUM, f.pick([24, 99])),
    "square-token": lambda f: f.pick([lambda: "sq0atp-" + f.mixed(BASE64URL, 22), lambda: "sq0csp-" + f.mixed(BASE64URL, 43),
                                      lambda: "EAAA" + f.mixed(BASE64URL, 60)])(),
    "shopify-token": lambda f: f.pick(["shpat_", "shpca_", "shppa_", "shpss_"]) + f.hexdigits(32),
    "slack-token": lambda f: f.slack(),
    "slack-webhook": lambda f: "https://hooks.slack.com/services/T" + f.chars(UPPER + DIGITS, 8) + "/B"
    + f.chars(UPPER + DIGITS, 10) + "/" + f.mixed(ALNUM, 24),
    "discord-bot-token": lambda f: f.discord(),
    "discord-webhook": lambda f: "https://" + f.pick(["discord.com", "discordapp.com"]) + "/api/webhooks/"
    + f.chars(DIGITS, 18) + "/" + f.mixed(BASE64URL, 68),
    "telegram-bot-token": lambda f: f.telegram(),
    "twilio-api-key": lambda f: "SK" + f.hexdigits(32),
    "sendgrid-key": lambda f: "SG." + f.mixed(BASE64URL, 22) + "." + f.mixed(BASE64URL, 43),
    "mailgun-key": lambda f: "key-" + f.hexdigits(32),
    "mailchimp-key": lambda f: f.hexdigits(32) + "-us" + str(f.rng.randint(1, 21)),
    "postman-key": lambda f: "PMAK-" + f.hexdigits(24) + "-" + f.hexdigits(34),
    "openai-key": lambda f: f.openai(),
    "anthropic-key": lambda f: "sk-ant-" + f.pick(["api03", "admin01"]) + "-" + f.mixed(BASE64URL, 93) + "AA",
    "jwt": lambda f: f.jwt(),
    "basic-auth": lambda f: "Authorization: " + f.basic_header(),
    "bearer-token": lambda f: "Authorization: Bearer " + f.mixed(ALNUM + "._-", f.rng.randint(32, 64)),
    "url-credentials": lambda f: f.pick(["https", "postgres", "mysql", "mongodb+srv", "amqp", "redis", "ftp"]) + "://"
    + f.user() + ":" + urllib.parse.quote(f.password(), safe="!*+-.~_") + "@" + f.host() + f.pick(["", ":5432", "/app"]),
    "netrc-password": lambda f: "machine " + f.host() + "\n  login " + f.user() + "\n  password " + f.password(),
    "pgpass-password": lambda f: f.pick(HOSTS[:3] + ["localhost", "*"]) + ":" + f.pick(["5432", "6432", "*"]) + ":"
    + f.pick(WORDS + ["*"]) + ":" + f.user() + ":" + f.password().replace(":", ""),
    "docker-auth": lambda f: f.docker_config(),
    "connection-string": lambda f: f.connection_string(),
    "password": lambda f: f.pick(["DB_PASSWORD", "password", "smtp_pass", "adminPassword", "MYSQL_ROOT_PASSWORD",
                                  "passwd", "db.password"]) + "\x00" + f.password(),
    "secret": lambda f: f.pick(["api_key", "client_secret", "SECRET_KEY", "apiSecret", "access_token", "auth_token",
                                "refresh_token", "TOKEN"]) + "\x00" + f.mixed(ALNUM + "_-", f.rng.randint(24, 48)),
}

# Kinds whose generated text is a key and a value (split at NUL): the surroundings assign them.
ASSIGNMENTS = {"password", "secret"}
# Kinds whose generated text spans lines: the surroundings place it as a block.
BLOCKS = {"private-key", "pgp-private-key", "putty-private-key", "docker-auth", "netrc-password"}
