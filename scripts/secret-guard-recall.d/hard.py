"""The hard cases: secrets as people really paste them, and clean text that looks like secrets.

Used by scripts/secret-guard-recall (recall, `HARD`) and scripts/secret-guard-fp (false
positives, `CLEAN`). Every sample is generated afresh from a seed: random values in each format
(fakes.py), in surroundings none of the test fixtures (Tests/SecretGuardTests/Fixtures) use, so
the figures are for text the tests never saw.

HARD: family -> function(fakes) -> text holding one secret. The families:
  - escaping: JSON string escapes one and two levels deep (`\\/` in PHP's json_encode, `\\\\n` in
    nested JSON or a Python repr);
  - encoding: percent-encoding (a query string, a logged form body), base64 values under keys
    that hold secrets (a Kubernetes Secret's `data:`, .npmrc `_auth`);
  - layout: terminal colour codes on every line (`bat`, `grep --color`), hard wraps at a fixed
    width, YAML block scalars;
  - formats: postfix sasl_passwd, sssd, nslcd, PHP define(), npm _auth, Vault unseal keys,
    Okta SSWS, Linear, Atlassian and Notion tokens.
CLEAN: family -> function(fakes) -> text with no secret that a careless guard would flag.
"""

import base64
import hashlib
import json
import urllib.parse
import uuid

from fakes import ALNUM, BASE64URL, DIGITS, GENERATORS, HEX, LOWER, UPPER, WORDS

ESC = "\x1b"


def token(f):
    """A token of a kind with its own format (no key name needed to recognise it)."""
    kind = f.pick(["github-token", "gitlab-token", "slack-token", "stripe-key", "npm-token", "openai-key",
                   "google-api-key", "digitalocean-token", "sendgrid-key", "anthropic-key", "huggingface-token",
                   "doppler-token", "shopify-token", "pypi-token"])
    return GENERATORS[kind](f)


def pem(f):
    value = GENERATORS["private-key"](f)
    return value if value.endswith("\n") else value + "\n"


def url_with_password(f):
    scheme = f.pick(["postgres", "mysql", "mongodb", "redis", "amqp", "https"])
    return (scheme + "://" + f.user() + ":" + urllib.parse.quote(f.password(), safe="!*-._~") + "@" + f.host()
            + f.pick([":5432/app", "/prod", ":6379/0", "/vhost"]))


def php_json(value):
    """What PHP's json_encode writes: `/` escaped as `\\/`."""
    return json.dumps(value).replace("/", "\\/")


# --- escaping ---------------------------------------------------------------------------------

def json_slash(f):
    value = f.pick([url_with_password, lambda f: GENERATORS["slack-webhook"](f),
                    lambda f: GENERATORS["discord-webhook"](f)])(f)
    document = {"id": f.rng.randint(1, 999), "name": f.pick(WORDS), "endpoint": value, "enabled": True}
    return f.pick([
        lambda: php_json(document) + "\n",
        lambda: "$ php artisan config:show --json\n" + php_json({"database": document}) + "\n",
        lambda: "<script>window.__CONFIG__ = " + php_json(document) + ";</script>\n",
    ])()


def json_nested(f):
    inner = json.dumps({"type": "service_account", "private_key": pem(f), "client_email": f.user() + "@example.iam"})
    return f.pick([
        lambda: json.dumps({"name": f.pick(WORDS), "credentials": inner}) + "\n",
        lambda: "event=" + json.dumps(json.dumps({"msg": "loaded", "payload": inner})) + "\n",
        lambda: "config = " + repr({"credentials": inner}) + "\n",
    ])()


def json_one_level(f):
    return json.dumps({"key_id": "k-" + str(f.rng.randint(1, 99)), "pem": pem(f)}).replace("/", "\\/") + "\n"


# --- encoding ---------------------------------------------------------------------------------

def percent(f):
    return f.pick([
        lambda: "POST /import body=" + urllib.parse.quote(pem(f), safe="") + "\n",
        lambda: "GET /proxy?headers=" + urllib.parse.quote("Authorization: Bearer " + f.mixed(ALNUM + "-._", 40),
                                                          safe="") + " 200\n",
        lambda: "redirect_uri=" + urllib.parse.quote(GENERATORS["slack-webhook"](f), safe="") + "&state=xyz\n",
        lambda: "https://app.example.net/callback?next=" + urllib.parse.quote(url_with_password(f), safe="")
        + "\n",
    ])()


def b64(text):
    return base64.b64encode(text.encode()).decode()


def kubernetes_data(f):
    choice = f.rng.randint(0, 3)
    if choice == 0:
        entries = {"tls.crt": b64("-----BEGIN CERTIFICATE-----\nMIIB" + f.chars(ALNUM, 60) + "\n-----END CERTIFICATE-----\n"),
                   "tls.key": b64(pem(f))}
    elif choice == 1:
        entries = {"authorization": b64(f.basic_header())}
    elif choice == 2:
        entries = {".env": b64("APP_ENV=production\nSERVICE_KEY=" + token(f) + "\n")}
    else:
        entries = {"DATABASE_URL": b64(url_with_password(f))}
    if f.rng.random() < 0.3:
        body = json.dumps({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": f.pick(WORDS)},
                           "type": "Opaque", "data": entries}, indent=4)
        return body + "\n"
    lines = ["apiVersion: v1", "kind: Secret", "metadata:", "  name: " + f.pick(WORDS) + "-creds",
             "  namespace: " + f.pick(["default", "prod", "ops"]), "type: Opaque", "data:"]
    lines += ["  " + key + ": " + value for key, value in entries.items()]
    return "\n".join(lines) + "\n"


def npm_auth(f):
    auth = b64(f.user() + ":" + f.password())
    return f.pick([
        lambda: "registry=https://npm.acme.io/\n_auth=" + auth + "\nalways-auth=true\n",
        lambda: "//npm.acme.io/:_auth=" + auth + "\nemail=" + f.user() + "@example.org\n",
        lambda: "$ cat ~/.npmrc\n_auth = \"" + auth + "\"\n",
    ])()


# --- layout -----------------------------------------------------------------------------------

def ansi_lines(f):
    lines = pem(f).splitlines()
    style = f.rng.randint(0, 2)
    if style == 0:  # bat --color=always piped (no decorations off a terminal): a colour per line
        shown = [f"{ESC}[38;5;231m{line}{ESC}[0m" for line in lines]
    elif style == 1:  # grep --color=always matching every line
        shown = [f"{ESC}[01;31m{ESC}[K{line}{ESC}[m{ESC}[K" for line in lines]
    else:  # git show --color: the key as an added file
        shown = [f"{ESC}[1mdiff --git a/deploy.pem b/deploy.pem{ESC}[m", f"{ESC}[36m@@ -0,0 +1,{len(lines)} @@{ESC}[m"]
        shown += [f"{ESC}[32m+{line}{ESC}[m" for line in lines]
    return "\n".join(shown) + "\n"


def ansi_token(f):
    value = token(f)
    cut = f.rng.randint(4, len(value) - 4)
    return (f"{ESC}[35mconfig.yml{ESC}[m{ESC}[36m:{ESC}[m{ESC}[32m12{ESC}[m{ESC}[36m:{ESC}[m  key: "
            + value[:cut] + f"{ESC}[01;31m{ESC}[K" + value[cut:] + f"{ESC}[m{ESC}[K\n")


def hard_wrap(f):
    width = f.pick([80, 100, 120])
    value = token(f)
    before = " ".join(f.pick(WORDS) for _ in range(f.rng.randint(6, 20)))
    text = f"[{f.rng.randint(10, 23)}:{f.rng.randint(10, 59)}] {f.user()}: {before} key={value} please rotate it after the demo"
    lines = [text[i:i + width] for i in range(0, len(text), width)]
    # Make sure the token really is cut by a line end.
    start = text.index(value)
    if start // width == (start + len(value) - 1) // width:
        pad = width - (start % width) - f.rng.randint(4, 12)
        text = text[:start] + " " * max(pad, 0) + text[start:]
        lines = [text[i:i + width] for i in range(0, len(text), width)]
    return "\n".join(lines) + "\n"


def yaml_block(f):
    key, value = f.pick([("password", f.password()), ("api_key", token(f)), ("db_password", f.password()),
                         ("client_secret", f.mixed(ALNUM + "_-", 32)), ("token", token(f))])
    indicator = f.pick(["|", ">", "|-", ">-"])
    return f.pick([
        lambda: f"app:\n  name: {f.pick(WORDS)}\n  {key}: {indicator}\n    {value}\n  replicas: 2\n",
        lambda: f"{key}: {indicator}\n  {value}\nother: true\n",
        lambda: f"- name: deploy\n  vars:\n    {key}: {indicator}\n      {value}\n",
    ])()


# --- formats with a rule of their own ---------------------------------------------------------

def sasl_passwd(f):
    host = f.pick(["smtp.gmail.com", "smtp.office365.com", "mail.example.org", "smtp.sendgrid.net"])
    user = f.pick([f.user() + "@example.org", "apikey", f.user()])
    return f.pick([
        lambda: f"# /etc/postfix/sasl_passwd\n[{host}]:587 {user}:{f.password()}\n",
        lambda: f"[{host}]:{f.pick(['25', '465', '2525'])}    {user}:{f.password()}\n",
        lambda: f"$ sudo postmap /etc/postfix/sasl_passwd\n$ cat /etc/postfix/sasl_passwd\n{host} {user}:{f.password()}\n",
    ])()


def sssd(f):
    return (f"[domain/{f.pick(WORDS)}.lan]\nid_provider = ldap\nldap_uri = ldaps://ldap.example.net\n"
            f"ldap_default_bind_dn = cn={f.user()},dc=example,dc=net\nldap_default_authtok_type = password\n"
            f"ldap_default_authtok = {f.password()}\n")


def nslcd(f):
    return (f"uri ldap://ldap.example.net/\nbase dc=example,dc=net\nbinddn cn={f.user()},dc=example,dc=net\n"
            f"bindpw {f.password()}\n" + f.pick(["ssl start_tls\n", "", "tls_reqcert demand\n"]))


def php_define(f):
    quote = f.pick(["'", '"'])
    return (f"<?php\ndefine({quote}DB_NAME{quote}, {quote}{f.pick(WORDS)}{quote});\n"
            f"define( {quote}DB_USER{quote}, {quote}{f.user()}{quote} );\n"
            f"define( {quote}DB_PASSWORD{quote}, {quote}{f.password()}{quote} );\n"
            f"define({quote}DB_HOST{quote}, {quote}localhost{quote});\n")


def vault_unseal(f):
    key = base64.b64encode(f.rng.randbytes(33)).decode().rstrip("=")
    return f.pick([
        lambda: f"$ vault operator unseal {key}\nKey             Value\n---             -----\nSealed          true\n",
        lambda: "".join(f"Unseal Key {i}: {base64.b64encode(f.rng.randbytes(33)).decode()}\n" for i in range(1, 4))
        + "\nVault initialized with 5 key shares and a key threshold of 3.\n",
        lambda: f"VAULT_UNSEAL_KEY={key} ./unseal.sh\n",
    ])()


def okta(f):
    value = "00" + f.mixed(ALNUM + "-_", 40)
    return f.pick([
        lambda: f"curl -H 'Authorization: SSWS {value}' https://acme.okta.com/api/v1/users\n",
        lambda: f"headers = {{\"Accept\": \"application/json\", \"Authorization\": \"SSWS {value}\"}}\n",
        lambda: f"> GET /api/v1/apps HTTP/1.1\n> Authorization: SSWS {value}\n",
    ])()


def linear(f):
    value = "lin_api_" + f.mixed(ALNUM, 40)
    return f.pick([
        lambda: f"curl -H 'Authorization: {value}' -d '{{\"query\":\"{{ viewer {{ id }} }}\"}}' https://api.linear.app/graphql\n",
        lambda: f"fetch(\"https://api.linear.app/graphql\", {{ headers: {{ Authorization: \"{value}\" }} }})\n",
        lambda: f"LINEAR_API_KEY={value}\n",
    ])()


def atlassian(f):
    body = f.mixed(ALNUM + "-_", 174)
    value = "ATATT3xFfGF0" + body + "=" + f.chars(HEX.upper(), 8)
    email = f.user() + "@example.org"
    return f.pick([
        lambda: f"curl -u {email}:{value} https://acme.atlassian.net/rest/api/3/myself\n",
        lambda: f"jira = JIRA(server, basic_auth=(\"{email}\", \"{value}\"))\n",
        lambda: f"JIRA_API_TOKEN={value}\n",
    ])()


def notion(f):
    value = "ntn_" + f.chars(DIGITS, 11) + f.mixed(ALNUM, 35)
    return f.pick([
        lambda: f"const notion = new Client({{ auth: \"{value}\" }});\n",
        lambda: f"const notion = new Client({{auth: process.env.NOTION_TOKEN || '{value}'}})\n",
        lambda: f"export const NOTION = `{value}`;\n",
    ])()


HARD = {
    "json-slash": json_slash,
    "json-nested": json_nested,
    "json-one-level": json_one_level,
    "percent-encoded": percent,
    "kubernetes-data": kubernetes_data,
    "npm-auth": npm_auth,
    "ansi-every-line": ansi_lines,
    "ansi-in-token": ansi_token,
    "hard-wrap": hard_wrap,
    "yaml-block": yaml_block,
    "sasl-passwd": sasl_passwd,
    "sssd-authtok": sssd,
    "nslcd-bindpw": nslcd,
    "php-define": php_define,
    "vault-unseal": vault_unseal,
    "okta-ssws": okta,
    "linear-key": linear,
    "atlassian-token": atlassian,
    "notion-token": notion,
}


# --- clean text that looks like secrets --------------------------------------------------------

AWS_EXAMPLES = ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
                "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY"[:40]]


def clean_aws_example(f):
    secret = f.pick(AWS_EXAMPLES)
    return f.pick([
        lambda: f"[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = {secret}\n",
        lambda: f"$ export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n$ export AWS_SECRET_ACCESS_KEY={secret}\n",
        lambda: f"AWS Secret Access Key [None]: {secret}\n",
    ])()


def clean_lock(f):
    digest = base64.b64encode(f.rng.randbytes(64)).decode()
    name = f.pick(WORDS)
    return f.pick([
        lambda: json.dumps({"packages": {f"node_modules/{name}": {"version": "1.2.3", "resolved":
                            f"https://registry.npmjs.org/{name}/-/{name}-1.2.3.tgz", "integrity": "sha512-" + digest}}},
                           indent=2) + "\n",
        lambda: f"[[package]]\nname = \"{name}\"\nversion = \"0.4.1\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
        f"checksum = \"{f.chars(HEX, 64)}\"\n",
        lambda: f"{name}==2.0.1 \\\n    --hash=sha256:{f.chars(HEX, 64)} \\\n    --hash=sha256:{f.chars(HEX, 64)}\n",
    ])()


def clean_digest(f):
    return f.pick([
        lambda: f"{f.chars(HEX, 64)}  {f.pick(WORDS)}-1.0.tar.gz\n{f.chars(HEX, 64)}  {f.pick(WORDS)}-1.1.tar.gz\n",
        lambda: f"image: ghcr.io/acme/{f.pick(WORDS)}@sha256:{f.chars(HEX, 64)}\n",
        lambda: f"<script src=\"https://cdn.example.net/lib.js\" integrity=\"sha384-{base64.b64encode(f.rng.randbytes(48)).decode()}\" crossorigin=\"anonymous\"></script>\n",
        lambda: f"commit {f.chars(HEX, 40)}\nAuthor: {f.user()} <{f.user()}@example.org>\n\n    fix the build\n",
    ])()


def clean_public(f):
    body = base64.b64encode(f.rng.randbytes(270)).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return f.pick([
        lambda: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.chars(ALNUM + '+/', 43)} {f.user()}@laptop\n",
        lambda: "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n",
        lambda: "-----BEGIN PUBLIC KEY-----\n" + "\n".join(lines[:6]) + "\n-----END PUBLIC KEY-----\n",
        lambda: "data:\n  ca.crt: " + b64("-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n") + "\n",
    ])()


def clean_uuid(f):
    return "".join(f"{uuid.UUID(bytes=f.rng.randbytes(16))}  {f.pick(WORDS)}\n" for _ in range(5))


def clean_placeholder(f):
    return f.pick([
        lambda: "password: ${DB_PASSWORD}\napi_key: \"<your-api-key>\"\ntoken: changeme\n",
        lambda: "define('DB_PASSWORD', 'password_here');\ndefine('AUTH_KEY', 'put your unique phrase here');\n",
        lambda: "ldap_default_authtok = <PASSWORD>\n",
        lambda: "bindpw secret\n",
        lambda: "[smtp.example.com]:587 username:password\n",
        lambda: "$ vault operator unseal\nUnseal Key (will be hidden):\n",
        lambda: "Authorization: SSWS ${OKTA_API_TOKEN}\n",
        lambda: "_auth=${NPM_AUTH}\n",
        lambda: "password: |\n  ${DB_PASSWORD}\n",
    ])()


def clean_escaped(f):
    document = {"url": "https://" + f.host() + "/api/v1/" + f.pick(WORDS), "next": None, "count": f.rng.randint(1, 99)}
    return f.pick([
        lambda: php_json(document) + "\n",
        lambda: "GET /search?q=" + urllib.parse.quote(" ".join(f.pick(WORDS) for _ in range(5))) + "&redirect="
        + urllib.parse.quote("https://" + f.host() + "/a/b", safe="") + "\n",
        lambda: f"{ESC}[32mINFO{ESC}[0m  {ESC}[1mserver started{ESC}[0m on :8080\n{ESC}[33mWARN{ESC}[0m slow query\n",
        lambda: "data:\n  username: " + b64(f.user()) + "\n  host: " + b64(f.host()) + "\n",
        lambda: "print(\"line one\\\\nline two\\\\n\")\n",
    ])()


def clean_code(f):
    name = f.pick(WORDS)
    return f.pick([
        lambda: f"def {name}(token: str, password: str) -> bool:\n    return check(token, password)\n",
        lambda: f"const {name} = process.env.API_KEY;\nif (!{name}) throw new Error('API_KEY missing');\n",
        lambda: f"let password = prompt(\"Password:\");\nlet secret = try keychain.read(\"{name}\")\n",
    ])()


CLEAN = {
    "aws-example": clean_aws_example,
    "lock-file": clean_lock,
    "digest": clean_digest,
    "public-material": clean_public,
    "uuid": clean_uuid,
    "placeholder": clean_placeholder,
    "escaped-plain": clean_escaped,
    "code": clean_code,
}
