"""A hold-out corpus for the secret guard, built apart from the rules and their tuning data.

Nothing here is imported from secret-guard-recall.d (fakes.py, hard.py) or from the test
fixtures: the values, the surroundings and the clean look-alikes are written afresh, from the
shapes people paste (shell history, CI logs, manifests, Terraform state, HAR, Postman, notebooks,
configs) and the vendors' published token formats. Each file holds one secret (SECRET) or none
(CLEAN); the family is the file's name up to `--`.

    python3 corpus.py --seed S --out DIR [--per-family N]
"""

import argparse
import base64
import binascii
import json
import os
import random
import string
import textwrap
import uuid

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
HEXL = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
BASE62 = DIGITS + UPPER + LOWER


class Values:
    """Random values in the issuers' formats."""

    def __init__(self, rng):
        self.rng = rng

    def run(self, alphabet, n):
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def pick(self, items):
        return self.rng.choice(items)

    def mixed(self, alphabet, n):
        while True:
            value = self.run(alphabet, n)
            if any(c.isdigit() for c in value) and any(c.islower() for c in value) and any(c.isupper() for c in value):
                return value

    # --- vendors ---------------------------------------------------------------------------
    def github(self):
        body = self.run(ALNUM, 30)
        crc = binascii.crc32(body.encode()) & 0xFFFFFFFF
        tail = ""
        for _ in range(6):
            tail = BASE62[crc % 62] + tail
            crc //= 62
        return self.pick(["ghp_", "gho_", "ghs_"]) + body + tail

    def aws_pair(self):
        return "AKIA" + self.run(UPPER + "234567", 16), self.mixed(B64, 40)

    def aws_session_token(self):
        # STS session tokens start `IQoJb3JpZ2luX2Vj` and run to 600-1000 characters.
        return "IQoJb3JpZ2luX2Vj" + self.mixed(B64, self.rng.randint(600, 900))

    def slack(self):
        return "xoxb-" + self.run(DIGITS, 12) + "-" + self.run(DIGITS, 13) + "-" + self.mixed(ALNUM, 24)

    def stripe(self):
        return "sk_live_" + self.mixed(ALNUM, 99)

    def openai(self):
        return "sk-proj-" + self.mixed(B64URL, 74) + "T3BlbkFJ" + self.mixed(B64URL, 74)

    def figma(self):
        return "figd_" + self.mixed(B64URL, 40)

    def new_relic(self):
        return self.pick([lambda: "NRAK-" + self.run(UPPER + DIGITS, 27),
                          lambda: "NRII-" + self.mixed(B64URL, 32),
                          lambda: "NRJS-" + self.run(HEXL, 19),
                          lambda: self.run(HEXL, 36) + "NRAL"])()

    def bedrock(self):
        if self.rng.random() < 0.6:
            raw = b"BedrockAPIKey-" + self.run(LOWER + DIGITS, 4).encode() + b"-at-" + self.run(DIGITS, 12).encode() \
                + b":" + self.mixed(B64, 60).encode()
            return "ABSK" + base64.b64encode(raw).decode()
        url = ("bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="
               + "ASIA" + self.run(UPPER + DIGITS, 16) + "%2F20250801%2Fus-east-1%2Fbedrock%2Faws4_request"
               + "&X-Amz-Date=20250801T120000Z&X-Amz-Expires=43200&X-Amz-Security-Token=" + self.mixed(B64, 300)
               + "&X-Amz-Signature=" + self.run(HEXL, 64) + "&Version=1")
        return "bedrock-api-key-" + base64.b64encode(url.encode()).decode()

    def onepassword_token(self):
        payload = {"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
                   "iterations": 650000, "salt": self.mixed(B64URL, 22)},
                   "email": self.run(LOWER + DIGITS, 13) + "@1passwordserviceaccounts.com",
                   "srpX": self.run(HEXL, 64), "muk": {"alg": "A256GCM", "ext": True, "k": self.mixed(B64URL, 43),
                   "key_ops": ["encrypt", "decrypt"], "kty": "oct", "kid": "mp"},
                   "secretKey": self.onepassword_secret_key(), "throttleSecret": {"seed": self.run(HEXL, 64),
                   "uuid": self.run(UPPER + DIGITS, 26)}, "deviceUuid": self.run(LOWER + DIGITS, 26)}
        return "ops_" + base64.b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode().rstrip("=")

    def onepassword_secret_key(self):
        groups = [self.run(UPPER + DIGITS, 6), self.run(UPPER + DIGITS, 6)] + [self.run(UPPER + DIGITS, 5) for _ in range(4)]
        return "A3-" + "-".join(groups)

    def tailscale(self):
        kind = self.pick(["auth", "api", "client"])
        return "tskey-" + kind + "-k" + self.run(ALNUM, 10) + "CNTRL-" + self.mixed(ALNUM, 33)

    def flyio(self):
        if self.rng.random() < 0.5:
            return "fo1_" + self.mixed(B64URL, 43)
        return "FlyV1 fm2_" + self.mixed(B64, 300) + ",fm2_" + self.mixed(B64, 200)

    def grafana(self):
        if self.rng.random() < 0.6:
            return "glsa_" + self.mixed(ALNUM, 32) + "_" + self.run(HEXL, 8)
        inner = json.dumps({"o": self.run(DIGITS, 6), "n": "stack-" + self.run(DIGITS, 6) + "-hm-read",
                            "k": self.mixed(ALNUM, 24), "m": {"r": "prod-us-east-0"}}, separators=(",", ":"))
        return "glc_" + base64.b64encode(inner.encode()).decode()

    def azure_devops(self):
        return self.mixed(ALNUM, 52) + "JQQJ99" + self.mixed(ALNUM, 18) + "AZDO" + self.run(ALNUM, 4)

    def mailgun_new(self):
        return self.run(HEXL, 32) + "-" + self.run(HEXL, 8) + "-" + self.run(HEXL, 8)

    def terraform(self):
        return self.mixed(ALNUM, 14) + ".atlasv1." + self.mixed(ALNUM + "_-", 67)

    def jwt(self):
        def segment(obj):
            return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
        header = segment({"alg": self.pick(["HS256", "RS256", "ES256"]), "typ": "JWT"})
        payload = segment({"sub": str(uuid.UUID(int=self.rng.getrandbits(128))), "iat": self.rng.randint(1.6e9, 1.8e9),
                           "scope": self.pick(["read write", "admin", "api"])})
        return header + "." + payload + "." + self.run(B64URL, 43)

    # --- passwords and generic keys -------------------------------------------------------------
    def password(self):
        style = self.rng.random()
        if style < 0.4:
            words = ["river", "Falcon", "copper", "Maple", "orbit", "Tiger", "delta", "Nimbus", "quartz", "Harbor"]
            return self.pick(words) + self.pick(["!", "#", "_", "@", "."]) + self.run(DIGITS, self.rng.randint(2, 4)) \
                + self.pick(words)
        if style < 0.8:
            return self.mixed(ALNUM + "!#%^*_-+=", self.rng.randint(12, 24))
        return self.mixed(ALNUM, self.rng.randint(16, 32))

    def api_key(self):
        return self.pick([lambda: self.run(HEXL, 32), lambda: self.mixed(ALNUM, 40), lambda: self.mixed(B64URL, 43),
                          lambda: self.run(HEXL, 40)])()

    def session(self):
        return self.pick([lambda: self.run(LOWER + DIGITS, 32), lambda: self.mixed(B64URL, 48),
                          lambda: "s%3A" + self.mixed(B64URL, 32) + "." + self.mixed(B64URL, 43)])()

    def user(self):
        return self.pick(["admin", "deploy", "ci-bot", "jenkins", "svc_backup", "alice", "root", "app"])

    def host(self):
        return self.pick(["db.internal", "10.2.0.14", "redis.prod.svc", "mysql-primary", "registry.example.org",
                          "api.acme.io", "localhost"])

    def sha256(self):
        return self.run(HEXL, 64)

    def b64text(self, text):
        return base64.b64encode(text.encode()).decode()


TIMESTAMP = "2025-0{m}-1{d}T0{h}:1{mi}:2{s}.{ms}Z"


def stamp(v):
    return TIMESTAMP.format(m=v.rng.randint(1, 9), d=v.rng.randint(0, 9), h=v.rng.randint(0, 9),
                            mi=v.rng.randint(0, 9), s=v.rng.randint(0, 9), ms=v.run(DIGITS, 7))


def shell_noise(v):
    return v.pick(["ls -la", "cd ~/src/app", "git status", "git pull --rebase", "kubectl get pods -n prod",
                   "docker ps", "vim config.yaml", "make test", "history | tail", "tail -f /var/log/syslog"])


# --- secret families ------------------------------------------------------------------------------

def history(v, line):
    before = [shell_noise(v) for _ in range(v.rng.randint(2, 6))]
    after = [shell_noise(v) for _ in range(v.rng.randint(1, 4))]
    lines = before + [line] + after
    return "".join(f" {500 + i:>4}  {l}\n" for i, l in enumerate(lines))


def s_curl_user(v):
    return history(v, f"curl -sS -u {v.user()}:{v.password()} https://{v.host()}/api/v1/status")


def s_curl_user_quoted(v):
    return history(v, f"curl --user '{v.user()}:{v.password()}' -X POST https://{v.host()}/hooks -d @payload.json")


def s_mysql(v):
    return history(v, f"mysql -h {v.host()} -u {v.user()} -p{v.password().replace('!', '')} app_production")


def s_mysqldump(v):
    return history(v, f"mysqldump -u root --password={v.password().replace('!', '')} --all-databases > all.sql")


def s_sshpass(v):
    return history(v, f"sshpass -p '{v.password()}' ssh -o StrictHostKeyChecking=no {v.user()}@{v.host()}")


def s_redis(v):
    return history(v, f"redis-cli -h {v.host()} -p 6379 -a {v.mixed(ALNUM, 20)} INFO replication")


def s_htpasswd(v):
    return history(v, f"htpasswd -bc /etc/nginx/.htpasswd {v.user()} '{v.password()}'")


def s_docker_login(v):
    return history(v, f"docker login -u {v.user()} -p {v.mixed(ALNUM, 24)} {v.host()}")


def s_openssl(v):
    return history(v, f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{v.password().replace('!', '')}")


def s_curl_header(v):
    header = v.pick(["X-Api-Key", "X-Auth-Token", "DD-API-KEY", "X-Auth-Key", "Api-Key", "PRIVATE-TOKEN"])
    return history(v, f"curl -H '{header}: {v.api_key()}' https://{v.host()}/v2/items")


def s_ci_env(v):
    name = v.pick(["DB_PASSWORD", "POSTGRES_PASSWORD", "RAILS_MASTER_KEY", "SECRET_KEY_BASE", "SMTP_PASS"])
    value = v.mixed(HEXL + "ABCDEF", 32) if "KEY" in name else v.password()
    lines = [f"{stamp(v)} ##[group]Run docker inspect app", f"{stamp(v)} [", f"{stamp(v)}     {{",
             f'{stamp(v)}         "Id": "{v.sha256()}",', f'{stamp(v)}         "Config": {{',
             f'{stamp(v)}             "Env": ["PATH=/usr/local/bin:/usr/bin", "{name}={value}", "LANG=C.UTF-8"],',
             f"{stamp(v)}         }}", f"{stamp(v)}     }}", f"{stamp(v)} ]", f"{stamp(v)} ##[endgroup]"]
    return "\n".join(lines) + "\n"


def s_k8s_env(v):
    name = v.pick(["DB_PASSWORD", "API_TOKEN", "STRIPE_SECRET", "REDIS_PASS", "JWT_SIGNING_KEY", "SMTP_PASSWORD"])
    value = v.password() if "PASS" in name else v.api_key()
    quote = v.pick(['"', "'", ""])
    return textwrap.dedent(f"""\
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
        spec:
          template:
            spec:
              containers:
                - name: web
                  image: ghcr.io/acme/web:1.4.2
                  env:
                    - name: LOG_LEVEL
                      value: info
                    - name: {name}
                      value: {quote}{value}{quote}
                    - name: PORT
                      value: "8080"
        """)


def s_har(v):
    header, value = v.pick([("Authorization", "Bearer " + v.jwt()), ("X-Api-Key", v.api_key()),
                            ("Cookie", "_ga=GA1.2.12345.67890; sessionid=" + v.session()),
                            ("x-auth-token", v.mixed(B64URL, 40))])
    entry = {"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "128.0"}, "entries": [{
        "startedDateTime": "2025-06-01T10:00:00.000Z", "time": 84,
        "request": {"method": "GET", "url": f"https://{v.host()}/api/me", "httpVersion": "HTTP/2",
                    "headers": [{"name": "Accept", "value": "application/json"}, {"name": header, "value": value},
                                {"name": "User-Agent", "value": "Mozilla/5.0"}],
                    "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
        "response": {"status": 200, "statusText": "OK", "headers": [{"name": "ETag", "value": '"' + v.sha256()[:32] + '"'}]}}]}}
    return json.dumps(entry, indent=v.pick([1, 2, None])) + "\n"


def s_postman(v):
    variable = v.pick(["apiKey", "api_token", "client_secret", "password"])
    value = v.password() if variable == "password" else v.api_key()
    collection = {"info": {"name": "Acme API", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                  "variable": [{"key": "baseUrl", "value": f"https://{v.host()}"}, {"key": variable, "value": value,
                               "type": "string"}],
                  "item": [{"name": "List users", "request": {"method": "GET", "url": "{{baseUrl}}/users"}}]}
    return json.dumps(collection, indent=2) + "\n"


def s_tfstate(v):
    name = v.pick(["db_password", "admin_password", "api_token", "client_secret"])
    value = v.password() if "password" in name else v.api_key()
    state = {"version": 4, "terraform_version": "1.7.5", "serial": v.rng.randint(1, 90), "lineage": str(uuid.uuid4()),
             "outputs": {"endpoint": {"value": f"{v.host()}:5432", "type": "string"},
                         name: {"value": value, "type": "string", "sensitive": True}},
             "resources": []}
    return json.dumps(state, indent=2) + "\n"


def s_hcl_env(v):
    name = v.pick(["DB_PASSWORD", "API_KEY", "SECRET_TOKEN"])
    value = v.password() if "PASS" in name else v.api_key()
    return textwrap.dedent(f"""\
        resource "aws_ecs_task_definition" "app" {{
          family = "app"
          container_definitions = jsonencode([{{
            name  = "app"
            image = "acme/app:2.1"
            environment = [
              {{ name = "STAGE", value = "prod" }},
              {{ name = "{name}", value = "{value}" }},
            ]
          }}])
        }}
        """)


def s_xml_add(v):
    key = v.pick(["DbPassword", "SmtpPassword", "ApiSecret", "StorageAccountKey"])
    value = v.password() if "Password" in key else v.mixed(B64, 44)
    return textwrap.dedent(f"""\
        <?xml version="1.0" encoding="utf-8"?>
        <configuration>
          <appSettings>
            <add key="Environment" value="Production" />
            <add key="{key}" value="{value}" />
          </appSettings>
        </configuration>
        """)


def s_notebook(v):
    token = v.pick([v.openai, v.github, v.figma, lambda: v.password()])()
    source = ["import os\n", f'os.environ["SERVICE_TOKEN"] = "{token}"\n', "client = Client()\n"]
    notebook = {"cells": [{"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [],
                           "source": source}], "metadata": {"kernelspec": {"name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(notebook, indent=1) + "\n"


def s_docker_log_escaped(v):
    inner = json.dumps({"level": "debug", "msg": "connecting", "config": {"user": v.user(), "password": v.password()}})
    line = json.dumps({"log": inner + "\n", "stream": "stdout", "time": stamp(v)})
    noise = json.dumps({"log": "listening on :8080\n", "stream": "stdout", "time": stamp(v)})
    return noise + "\n" + line + "\n" + noise + "\n"


def s_base64_env(v):
    env = (f"NODE_ENV=production\nDATABASE_URL=postgres://app@{v.host()}/app\nDB_PASSWORD={v.password()}\n"
           f"LOG_LEVEL=info\n")
    blob = v.b64text(env)
    return v.pick([
        lambda: f"$ echo '{blob}' | base64 -d > .env\n",
        lambda: f"ENV_FILE_B64={blob}\n",
        lambda: "env_file: |\n" + "".join("  " + blob[i:i + 76] + "\n" for i in range(0, len(blob), 76)),
    ])()


def s_box_table(v):
    value = v.pick([v.stripe, v.openai, v.slack, lambda: v.mixed(ALNUM, 90)])()
    width = 40
    rows = [("NAME", "VALUE"), ("DOPPLER_CONFIG", "prd"), ("DOPPLER_ENVIRONMENT", "prd"),
            ("PAYMENT_API_KEY", value), ("REGION", "eu-west-1")]
    out = ["┌─────────────────────┬" + "─" * (width + 2) + "┐"]
    for index, (name, cell) in enumerate(rows):
        chunks = [cell[i:i + width] for i in range(0, len(cell), width)] or [""]
        for n, chunk in enumerate(chunks):
            out.append(f"│ {(name if n == 0 else ''):<19} │ {chunk:<{width}} │")
        out.append(("├─────────────────────┼" + "─" * (width + 2) + "┤") if index < len(rows) - 1
                   else ("└─────────────────────┴" + "─" * (width + 2) + "┘"))
    return "\n".join(out) + "\n"


def s_pipe_table(v):
    value = v.pick([v.api_key, v.password])()
    return textwrap.dedent(f"""\
        | Variable | Value |
        |----------|-------|
        | REGION | eu-west-1 |
        | SERVICE_API_KEY | {value} |
        """)


def s_cookie(v):
    return v.pick([
        lambda: f"GET /dashboard HTTP/1.1\nHost: {v.host()}\nCookie: _ga=GA1.1.{v.run(DIGITS, 9)}.{v.run(DIGITS, 10)}; "
                f"sessionid={v.session()}; theme=dark\nAccept: text/html\n",
        lambda: f"HTTP/2 200\ncontent-type: text/html\nset-cookie: _app_session={v.session()}; path=/; secure; HttpOnly\n",
        lambda: f"curl 'https://{v.host()}/account' -H 'cookie: connect.sid={v.session()}' --compressed\n",
    ])()


def s_query_token(v):
    return f"{stamp(v)} GET https://{v.host()}/v1/export?access_token={v.mixed(B64URL, 40)}&format=csv 200 12ms\n"


def s_session_token(v):
    key, secret = v.aws_pair()
    return (f"[default]\naws_access_key_id = {key}\naws_secret_access_key = {secret}\n"
            f"aws_session_token = {v.aws_session_token()}\n").replace(f"aws_access_key_id = {key}\n", "").replace(
        f"aws_secret_access_key = {secret}\n", "region = us-east-1\n")


def s_odbc(v):
    pw = v.password().replace("}", "")
    return f'conn = pyodbc.connect("Driver={{ODBC Driver 18 for SQL Server}};Server={v.host()};Uid={v.user()};Pwd={{{pw}}};")\n'


def s_rails_token(v):
    return f"curl -H 'Authorization: Token token=\"{v.run(HEXL, 32)}\"' https://{v.host()}/api/v2/incidents\n"


def s_msmtprc(v):
    return textwrap.dedent(f"""\
        defaults
        auth           on
        tls            on
        account        work
        host           smtp.{v.host()}
        port           587
        from           {v.user()}@acme.io
        user           {v.user()}@acme.io
        password       {v.password()}
        account default : work
        """)


def s_ini(v):
    return f"[database]\nhost = {v.host()}\nport = 5432\nuser = {v.user()}\npassword = {v.password()}\n"


def s_appsettings(v):
    return json.dumps({"Logging": {"LogLevel": {"Default": "Information"}},
                       "Storage": {"AccountName": "acmeprod", "AccountKey": v.mixed(B64, 86) + "=="}}, indent=2) + "\n"


def s_secret_name_vocab(v):
    name = v.pick(["secret_key_base", "routing_key", "DD_APPLICATION_KEY", "app_key", "X_AUTH_KEY", "license_key"])
    return f"{name}: {v.run(HEXL, 32) if v.rng.random() < 0.5 else v.mixed(ALNUM, 40)}\n"


def vendor(maker, contexts):
    def make(v):
        token = maker(v)
        return v.pick(contexts)(v, token)
    return make


def c_env(v, token):
    return f"# generated {stamp(v)}\nSERVICE_URL=https://{v.host()}\nSERVICE_CREDENTIAL={token}\n"


def c_yaml(v, token):
    return f"service:\n  url: https://{v.host()}\n  auth: {token}\n  timeout: 30\n"


def c_log(v, token):
    return f"{stamp(v)} INFO  request to https://{v.host()} with header Authorization: {token}\n"


def c_chat(v, token):
    return f"[10:4{v.rng.randint(0, 9)}] alice: here is the token for staging, don't share\n[10:4{v.rng.randint(0, 9)}] alice: {token}\n"


VENDOR_CONTEXTS = [c_env, c_yaml, c_log, c_chat]

SECRET = {
    "curl-user": s_curl_user, "curl-user-quoted": s_curl_user_quoted, "mysql": s_mysql, "mysqldump": s_mysqldump,
    "sshpass": s_sshpass, "redis-cli": s_redis, "htpasswd": s_htpasswd, "docker-login": s_docker_login,
    "openssl-pass": s_openssl, "curl-header": s_curl_header, "ci-docker-env": s_ci_env, "k8s-env": s_k8s_env,
    "har": s_har, "postman": s_postman, "tfstate": s_tfstate, "hcl-env": s_hcl_env, "xml-add": s_xml_add,
    "notebook": s_notebook, "docker-log-escaped": s_docker_log_escaped, "base64-env": s_base64_env,
    "box-table": s_box_table, "pipe-table": s_pipe_table, "cookie": s_cookie, "query-token": s_query_token,
    "aws-session-token": s_session_token, "odbc": s_odbc, "rails-token": s_rails_token, "msmtprc": s_msmtprc,
    "ini": s_ini, "appsettings": s_appsettings, "name-vocabulary": s_secret_name_vocab,
    "figma": vendor(lambda v: v.figma(), VENDOR_CONTEXTS),
    "new-relic": vendor(lambda v: v.new_relic(), VENDOR_CONTEXTS),
    "bedrock": vendor(lambda v: v.bedrock(), VENDOR_CONTEXTS),
    "onepassword-token": vendor(lambda v: v.onepassword_token(), VENDOR_CONTEXTS),
    "onepassword-secret-key": vendor(lambda v: v.onepassword_secret_key(), VENDOR_CONTEXTS),
    "tailscale": vendor(lambda v: v.tailscale(), VENDOR_CONTEXTS),
    "flyio": vendor(lambda v: v.flyio(), VENDOR_CONTEXTS),
    "grafana": vendor(lambda v: v.grafana(), VENDOR_CONTEXTS),
    "azure-devops": vendor(lambda v: v.azure_devops(), VENDOR_CONTEXTS),
    "mailgun-new": lambda v: f"MAILGUN_API_KEY={v.mailgun_new()}\nMAILGUN_DOMAIN=mg.acme.io\n",
    "terraform-mixed": vendor(lambda v: v.terraform(), VENDOR_CONTEXTS),
    "github": vendor(lambda v: v.github(), VENDOR_CONTEXTS),
    "slack": vendor(lambda v: v.slack(), VENDOR_CONTEXTS),
    "stripe": vendor(lambda v: v.stripe(), VENDOR_CONTEXTS),
}


# --- clean families --------------------------------------------------------------------------------

def k_helm_checksum(v):
    return textwrap.dedent(f"""\
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: api
        spec:
          template:
            metadata:
              annotations:
                checksum/config: {v.sha256()}
                checksum/secret: {v.sha256()}
            spec:
              containers:
                - name: api
                  image: "registry.acme.io/api@sha256:{v.sha256()}"
                  env:
                    - name: DB_PASSWORD
                      valueFrom:
                        secretKeyRef:
                          name: api-db
                          key: password
        """)


def k_vault_reference(v):
    return v.pick([
        lambda: "database:\n  host: db.internal\n  password: vault:secret/data/prod/db#password\n",
        lambda: "DB_PASSWORD=ref+vault://secret/prod/db#/password\nAPI_TOKEN=ref+awssecrets://prod/api#token\n",
        lambda: 'export GITHUB_TOKEN="op://Engineering/GitHub/credential"\n',
        lambda: "- name: API_KEY\n  value: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/api-AbCdEf\n",
        lambda: '{"name": "DB_PASSWORD", "valueFrom": "arn:aws:ssm:eu-west-1:123456789012:parameter/prod/db_password"}\n',
    ])()


def k_placeholders(v):
    return v.pick([
        lambda: "# .env.example\nDB_PASSWORD=changeme\nAPI_KEY=<your-api-key>\nSECRET_KEY_BASE=${SECRET_KEY_BASE}\n",
        lambda: "password: {{ .Values.db.password }}\ntoken: \"{{ required \\\"token\\\" .Values.token }}\"\n",
        lambda: "curl -u USERNAME:PASSWORD https://api.example.com/v1/items\n",
        lambda: '{"name": "Authorization", "value": "Bearer {{accessToken}}"}\n',
        lambda: "mysql -u root -p\nEnter password:\n",
        lambda: 'echo "$REGISTRY_TOKEN" | docker login -u ci --password-stdin registry.acme.io\n',
        lambda: 'sshpass -p "$SSH_PASS" ssh deploy@host\nredis-cli -a "$REDIS_PASSWORD" ping\n',
        lambda: "| Variable | Value |\n|---|---|\n| API_KEY | your-api-key-here |\n| REGION | eu-west-1 |\n",
    ])()


def k_lockfile(v):
    return v.pick([
        lambda: json.dumps({"name": "web", "lockfileVersion": 3, "packages": {f"node_modules/{p}": {
            "version": f"{v.rng.randint(1, 9)}.{v.rng.randint(0, 20)}.{v.rng.randint(0, 9)}",
            "resolved": f"https://registry.npmjs.org/{p}/-/{p}-1.0.0.tgz",
            "integrity": "sha512-" + base64.b64encode(os.urandom(64) if False else v.run(ALNUM, 64).encode()).decode()}
            for p in ["lodash", "react", "express", "chalk"]}}, indent=2) + "\n",
        lambda: "".join(f'[[package]]\nname = "{p}"\nversion = "0.{v.rng.randint(1, 30)}.{v.rng.randint(0, 9)}"\n'
                        f'source = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{v.sha256()}"\n\n'
                        for p in ["serde", "tokio", "rand"]),
        lambda: "".join(f"{p}==1.{v.rng.randint(0, 9)} \\\n    --hash=sha256:{v.sha256()}\n" for p in ["requests", "idna", "urllib3"]),
        lambda: "".join(f"github.com/{p} v1.{v.rng.randint(0, 9)}.0 h1:{v.mixed(B64, 43)}=\n" for p in ["pkg/errors", "spf13/cobra"]),
    ])()


def k_checksums(v):
    return "".join(f"{v.sha256()}  paste-{a}.tar.gz\n" for a in ["x86_64", "aarch64", "riscv64"])


def k_public_keys(v):
    return v.pick([
        lambda: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{v.mixed(B64, 43)} {v.user()}@laptop\n",
        lambda: "-----BEGIN PUBLIC KEY-----\n" + "\n".join(v.mixed(B64, 64) for _ in range(6)) + "\n-----END PUBLIC KEY-----\n",
        lambda: "-----BEGIN CERTIFICATE-----\nMIID" + v.mixed(B64, 60) + "\n" + "\n".join(v.mixed(B64, 64) for _ in range(10)) + "\n-----END CERTIFICATE-----\n",
        lambda: f"public_key = \"{v.mixed(B64, 43)}=\"\nPublicKey = {v.mixed(B64, 43)}=\n",
        lambda: f"STRIPE_PUBLISHABLE_KEY=pk_live_{v.mixed(ALNUM, 99)}\n",
    ])()


def k_docs_examples(v):
    return v.pick([
        lambda: "Example token (jwt.io):\neyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\n",
        lambda: "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
        lambda: "Set `api_key` to the key from your dashboard, e.g. `api_key = \"YOUR_API_KEY\"`.\n",
        lambda: "To log in, run `docker login -u <user>` and enter your password when asked.\n",
    ])()


def k_har_clean(v):
    entry = {"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": f"https://{v.host()}/static/app.js",
             "headers": [{"name": "Accept", "value": "*/*"}, {"name": "If-None-Match", "value": '"' + v.sha256()[:40] + '"'},
                         {"name": "Cookie", "value": f"_ga=GA1.1.{v.run(DIGITS, 9)}.{v.run(DIGITS, 10)}; theme=dark; csrftoken={v.mixed(ALNUM, 32)}"}]},
             "response": {"status": 304, "headers": [{"name": "x-request-id", "value": str(uuid.uuid4())},
                                                    {"name": "ETag", "value": v.sha256()[:32]}]}}]}}
    return json.dumps(entry, indent=2) + "\n"


def k_tfstate_clean(v):
    state = {"version": 4, "serial": 12, "lineage": str(uuid.uuid4()), "outputs": {
        "bucket_arn": {"value": "arn:aws:s3:::acme-logs", "type": "string"},
        "password_length": {"value": 24, "type": "number"},
        "kms_key_id": {"value": str(uuid.uuid4()), "type": "string"}},
        "resources": [{"type": "aws_s3_object", "name": "cfg", "instances": [{"attributes": {
            "etag": v.run(HEXL, 32), "source_hash": v.sha256(), "key": "config/app.json"}}]}]}
    return json.dumps(state, indent=2) + "\n"


def k_ci_masked(v):
    return (f"{stamp(v)} Run ./deploy.sh\n{stamp(v)}   DB_PASSWORD: ***\n{stamp(v)}   API_TOKEN: ***\n"
            f"{stamp(v)} Deploying commit {v.run(HEXL, 40)} to prod\n{stamp(v)} image sha256:{v.sha256()}\n")


def k_box_clean(v):
    rows = [("NAME", "READY", "STATUS"), (f"web-{v.run(LOWER + DIGITS, 10)}", "1/1", "Running"),
            (f"worker-{v.run(LOWER + DIGITS, 10)}", "1/1", "Running")]
    out = ["┌──────────────────────┬───────┬─────────┐"]
    for name, ready, status in rows:
        out.append(f"│ {name:<20} │ {ready:<5} │ {status:<7} │")
    out.append("└──────────────────────┴───────┴─────────┘")
    return "\n".join(out) + f"\ncommit {v.run(HEXL, 40)}\n"


def k_base64_text(v):
    text = "# Acme service\n\nRun `make` to build and `make test` to test.\nThe password policy requires 12 characters.\n"
    return f"README_B64={v.b64text(text)}\n"


def k_uuid_logs(v):
    return "".join(f"{stamp(v)} request_id={uuid.uuid4()} trace_id={v.run(HEXL, 32)} span={v.run(HEXL, 16)} status=200\n"
                   for _ in range(6))


def k_code_names(v):
    return textwrap.dedent("""\
        def rotate(session_key: str, routing_key: str = "events.user.created") -> None:
            token = get_token()
            password_hash = bcrypt.hash(password)
            api_key_header = "X-Api-Key"
            secret_name = "prod/db/password"
            if not token:
                raise ValueError("missing token")
        """)


def k_git_log(v):
    return "".join(f"commit {v.run(HEXL, 40)}\nAuthor: {v.user()} <{v.user()}@acme.io>\n\n    fix: rotate token handling\n\n"
                   for _ in range(3))


CLEAN = {
    "helm-checksum": k_helm_checksum, "vault-reference": k_vault_reference, "placeholders": k_placeholders,
    "lockfile": k_lockfile, "checksums": k_checksums, "public-keys": k_public_keys, "docs-examples": k_docs_examples,
    "har-clean": k_har_clean, "tfstate-clean": k_tfstate_clean, "ci-masked": k_ci_masked, "box-clean": k_box_clean,
    "base64-text": k_base64_text, "uuid-logs": k_uuid_logs, "code-names": k_code_names, "git-log": k_git_log,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--per-family", type=int, default=8)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    v = Values(rng)
    for kind, families in (("secret", SECRET), ("clean", CLEAN)):
        folder = os.path.join(arguments.out, kind)
        os.makedirs(folder, exist_ok=True)
        for family, make in families.items():
            count = arguments.per_family * (3 if kind == "clean" else 1)
            for index in range(count):
                with open(os.path.join(folder, f"{family}--{index:02}.txt"), "w", newline="") as out:
                    out.write(make(v))


if __name__ == "__main__":
    main()
