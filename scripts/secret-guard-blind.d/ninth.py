#!/usr/bin/env python3
"""ninth.py - blind hold-out corpus for a paste-time secret detector.

positives(half, per_template) -> [(name, context, kind, value, text)]
cleans(half, per_family)      -> [(name, family, text)]

Every random choice for item i of template/family T comes from
random.Random(f"{half}:{T}:{i}").  All credentials are synthetic.
Run `python3 ninth.py` for the self-check.
"""
import base64
import hashlib
import hmac
import json
import random
import string
import struct
import sys
import zlib
from datetime import datetime, timedelta

ENCODED_CONTEXTS = {"docker-config", "k8s-secret", "curl-verbose"}

ALNUM = string.ascii_letters + string.digits
B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
HEX = "0123456789abcdef"
UHEX = "0123456789ABCDEF"
URLSAFE = ALNUM + "-_"
B64CH = ALNUM + "+/"
LOWER = string.ascii_lowercase
LOWNUM = string.ascii_lowercase + string.digits
UPNUM = string.ascii_uppercase + string.digits
CROCK = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


# ---------------------------------------------------------------- helpers
def rs(r, n, alpha=ALNUM):
    return "".join(r.choice(alpha) for _ in range(n))


def rb(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def b64s(s):
    return base64.b64encode(s.encode()).decode()


def wrap(s, n):
    return [s[i:i + n] for i in range(0, len(s), n)]


def base62(n, width=6):
    out = ""
    while n:
        n, m = divmod(n, 62)
        out = B62[m] + out
    return out.rjust(width, "0")


def crc_token(r, prefix):
    """GitHub / npm style: prefix + 30 base62 chars + 6-char base62 CRC32."""
    body = rs(r, 30, B62)
    return prefix + body + base62(zlib.crc32(body.encode()) & 0xFFFFFFFF)


FIRST = ("alice bob carol dave erin frank grace heidi ivan judy karl lena mateo nadia "
         "omar priya quinn rosa sam tariq uma viktor wendy xavier yusuf zoe chen ines "
         "jonas keiko ruben agnes").split()
LAST = ("smith jones garcia muller rossi kowalski nguyen tanaka okafor silva novak berg "
        "larsen dubois patel khan moreau fischer weber haas").split()
PROJ = ("atlas borealis cobalt dynamo ember falcon granite harbor ion juniper kestrel "
        "lumen meridian nimbus onyx pylon quartz ridge sable tundra umber vertex willow "
        "xenon yarrow zephyr orchard beacon lantern compass").split()
ORGS = ("acme globex initech hooli vandelay northwind contoso fabrikam tailspin wingtip "
        "litware adatum proseware woodgrove lucerne blueyonder relecloud").split()
REGIONS = ["us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2"]


def first(r):
    return r.choice(FIRST)


def fullname(r):
    return f"{r.choice(FIRST).capitalize()} {r.choice(LAST).capitalize()}"


def proj(r):
    return r.choice(PROJ)


def org(r):
    return r.choice(ORGS)


def domain(r):
    return f"{org(r)}.{r.choice(['com', 'io', 'net', 'dev', 'co'])}"


def ip10(r):
    return f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(2, 254)}"


def ip192(r):
    return f"192.168.{r.choice([0, 1, 1, 2, 10, 50, 88])}.{r.randrange(2, 254)}"


def when(r):
    return datetime(2023, 6, 1) + timedelta(seconds=r.randrange(86400 * 700))


def iso(d):
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def uuid4(r):
    h = rs(r, 32, HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def semver(r):
    return f"{r.randrange(0, 6)}.{r.randrange(0, 30)}.{r.randrange(0, 20)}"


PW_WORDS = ("sunshine dragon monkey football baseball shadow master summer winter autumn "
            "spring tiger falcon purple orange coffee pepper ginger biscuit charlie buster "
            "maggie rocky lucky princess hunter ranger thunder banana pumpkin sparrow phoenix "
            "matrix ninja pirate rainbow cookie chicken london paris berlin denver boston "
            "texas dallas chelsea arsenal liverpool yankees packers lakers marley bailey daisy "
            "oliver teddy luna milo simba nala bella hockey soccer guitar piano violin mustang "
            "harley camaro dolphin penguin koala panda eagle viking spartan wizard galaxy "
            "rocket comet jupiter saturn mercury neptune cheese waffle pancake mango cherry "
            "lemon olive cactus maple cedar river canyon summit island ocean beacon castle "
            "bulldog raptor cowboy sailor gopher kitten puppy blossom meadow thistle").split()
PW_OPENERS = ["Welcome", "Winter", "Spring", "Summer", "Autumn", "Admin", "Office", "Support",
              "Change", "Letmein", "Master", "Secure"]


def leet(r, w, syms):
    table = {"a": "@" if "@" in syms else "4", "o": "0", "e": "3", "i": "1",
             "s": "$" if "$" in syms else "5"}
    out = []
    for ch in w:
        lo = ch.lower()
        out.append(table[lo] if lo in table and r.random() < 0.6 else ch)
    return "".join(out)


def human_pw(r, syms="!@#$%&*?.-_+="):
    """A human-chosen password: words, digits, a symbol, capitalisation habits."""
    w1, w2, w3 = r.sample(PW_WORDS, 3)
    yr = r.choice([str(r.randrange(1965, 2026)), str(r.randrange(10, 100)),
                   str(r.randrange(100, 1000)), str(r.randrange(1, 10)) * r.choice([2, 3, 4])])
    s = r.choice(syms) if syms else ""
    st = r.randrange(10)
    if st == 0:
        pw = w1.capitalize() + yr + s
    elif st == 1:
        pw = w1 + s + w2 + yr
    elif st == 2:
        pw = leet(r, w1.capitalize(), syms) + yr + s
    elif st == 3:
        pw = w1.capitalize() + w2.capitalize() + yr + s
    elif st == 4:
        pw = "ILove" + w1.capitalize() + yr
    elif st == 5:
        pw = "-".join([w1, w2, w3]) + yr
    elif st == 6:
        pw = w1.capitalize() + s + s + yr
    elif st == 7:
        pw = w1.capitalize() + "_" + w2 + yr
    elif st == 8:
        pw = r.choice(PW_OPENERS) + w1.capitalize() + yr + s
    else:
        pw = leet(r, w1, syms) + s + leet(r, w2.capitalize(), syms) + yr
    if len(pw) < 9:
        pw += str(r.randrange(10, 100))
    return pw


URL_SYMS = "!.-_~*"


def rand_pw(r, n=None, extra="!#%*+-=_"):
    n = n or r.randrange(16, 29)
    while True:
        p = rs(r, n, ALNUM + extra)
        if any(c.isdigit() for c in p) and any(c.isupper() for c in p):
            return p


def jwt(r, payload, alg="HS256", kid=None, sig_bytes=32):
    hdr = {"alg": alg, "typ": "JWT"}
    if kid:
        hdr["kid"] = kid
    h = b64u(json.dumps(hdr, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{h}.{p}.{b64u(rb(r, sig_bytes))}"


# ---- key material with correct framing around random bytes
def sshstr(b):
    return struct.pack(">I", len(b)) + b


def ed25519_pub_blob(pub):
    return sshstr(b"ssh-ed25519") + sshstr(pub)


def openssh_ed25519(r, comment):
    pub, seed = rb(r, 32), rb(r, 32)
    check = rb(r, 4)
    priv = (check + check + sshstr(b"ssh-ed25519") + sshstr(pub) + sshstr(seed + pub)
            + sshstr(comment.encode()))
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = (b"openssh-key-v1\x00" + sshstr(b"none") + sshstr(b"none") + sshstr(b"")
            + struct.pack(">I", 1) + sshstr(ed25519_pub_blob(pub)) + sshstr(priv))
    pem = ("-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(wrap(b64(blob), 70))
           + "\n-----END OPENSSH PRIVATE KEY-----")
    return pem, f"ssh-ed25519 {b64(ed25519_pub_blob(pub))} {comment}"


def der_len(n):
    if n < 128:
        return bytes([n])
    if n < 256:
        return b"\x81" + bytes([n])
    return b"\x82" + n.to_bytes(2, "big")


def der(tag, body):
    return bytes([tag]) + der_len(len(body)) + body


def der_int(b):
    b = b.lstrip(b"\x00") or b"\x00"
    if b[0] & 0x80:
        b = b"\x00" + b
    return der(0x02, b)


def topbit(b):
    return bytes([b[0] | 0x80]) + b[1:]


def rsa_der(r, bits=2048):
    nb = bits // 8
    parts = [b"\x00", topbit(rb(r, nb)), b"\x01\x00\x01", rb(r, nb), topbit(rb(r, nb // 2)),
             topbit(rb(r, nb // 2)), rb(r, nb // 2), rb(r, nb // 2), rb(r, nb // 2)]
    return der(0x30, b"".join(der_int(p) for p in parts))


def pem(label, derbytes):
    return (f"-----BEGIN {label}-----\n" + "\n".join(wrap(b64(derbytes), 64))
            + f"\n-----END {label}-----")


OID_EC = bytes.fromhex("06072a8648ce3d0201")
OID_P256 = bytes.fromhex("06082a8648ce3d030107")
OID_RSA = bytes.fromhex("06092a864886f70d010101") + b"\x05\x00"


def ec_key(r):
    d, pt = rb(r, 32), b"\x04" + rb(r, 64)
    sec1 = der(0x30, der_int(b"\x01") + der(0x04, d) + der(0xA0, OID_P256)
               + der(0xA1, der(0x03, b"\x00" + pt)))
    spki = der(0x30, der(0x30, OID_EC + OID_P256) + der(0x03, b"\x00" + pt))
    return sec1, spki, pt


def pkcs8_rsa(r, bits=2048):
    return der(0x30, der_int(b"\x00") + der(0x30, OID_RSA) + der(0x04, rsa_der(r, bits)))


# ---------------------------------------------------------------- positives: human passwords
NOISE_CMDS = ["ls -la", "cd ..", "git status", "git pull --rebase", "sudo systemctl restart nginx",
              "df -h", "free -m", "htop", "docker ps -a", "docker compose logs -f --tail=100",
              "tail -n 200 /var/log/syslog", "sudo journalctl -u {svc} --since today",
              "vim /etc/{svc}/{svc}.conf", "ping -c 3 {host}", "cat /etc/os-release", "uptime",
              "sudo apt update && sudo apt upgrade -y", "ps aux | grep {svc}",
              "ss -ltnp", "crontab -l", "clear", "sudo -i", "cd /opt/{proj}",
              "ls /var/backups", "du -sh * | sort -h", "scp {proj}.tar.gz {user}@{host}:/tmp/",
              "mkdir -p /var/backups/{proj}", "whoami", "hostname -I", "sudo ufw status",
              "less /var/log/{svc}/error.log", "systemctl status {svc}", "top -o %MEM",
              "nano ~/.bashrc", "source ~/.bashrc", "exit"]


def t_bash_history(r):
    pw = human_pw(r, "!#%&*.-_+=@?")
    user, dbuser = first(r), r.choice(["root", "admin", "app", "backup", "reporting", first(r)])
    host = f"{r.choice(['db', 'mysql', 'pg', 'sql', 'data'])}{r.randrange(1, 4)}.{proj(r)}.internal"
    db = r.choice(["shop", "crm", "wordpress", "billing", "inventory", "analytics", proj(r)])
    ip = ip10(r)
    sec = r.choice([
        f"mysql -u {dbuser} -p'{pw}' -h {host} {db}",
        f"mysqldump -u{dbuser} --password='{pw}' --single-transaction {db} | gzip > /var/backups/{db}-$(date +%F).sql.gz",
        f"sshpass -p '{pw}' ssh -o StrictHostKeyChecking=no {user}@{ip}",
        f"PGPASSWORD='{pw}' psql -h {host} -U {dbuser} -d {db} -c '\\dt'",
        f"mongosh \"mongodb://{host}:27017/{db}\" -u {dbuser} -p '{pw}' --authenticationDatabase admin",
        f"redis-cli -h {host} -a '{pw}' INFO replication",
        f"smbclient //{ip}/{r.choice(['scans', 'public', 'backup'])} -U {user} --password='{pw}'",
    ])
    fmt = dict(svc=r.choice(["nginx", "mysql", "postgresql", "redis", "php8.2-fpm", "gunicorn"]),
               host=host, proj=proj(r), user=user)
    cmds = [c.format(**fmt) for c in r.sample(NOISE_CMDS, r.randrange(8, 26))]
    cmds.insert(r.randrange(2, len(cmds)), sec)
    style = r.randrange(3)
    if style == 0:
        lines = cmds
    elif style == 1:
        n = r.randrange(300, 1900)
        lines = ["$ history | tail -%d" % len(cmds)] + [f"{n + k:5d}  {c}" for k, c in enumerate(cmds)]
    else:
        t = int(when(r).timestamp())
        lines = []
        for c in cmds:
            t += r.randrange(3, 400)
            lines.append(f": {t}:0;{c}")
    return "password-cmdline", pw, "\n".join(lines) + "\n", "txt"


def chat_render(r, msgs):
    style = r.randrange(3)
    t = when(r)
    out = []
    if style == 2:
        out.append(f"#{r.choice(['ops', 'infra', 'dev-help', 'homelab', 'it-support', 'backend'])}")
    for who, m in msgs:
        t += timedelta(seconds=r.randrange(5, 240))
        if style == 0:
            out.append(f"[{t:%H:%M}] <{who}> {m}")
        elif style == 1:
            out.append(f"{who.capitalize()} {r.choice(LAST).capitalize()}  {t:%I:%M %p}".replace(" 0", " "))
            out.append(m)
        else:
            out.append(f"{who} — {t:%d/%m/%Y %H:%M}")
            out.append(m)
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def t_team_chat(r):
    pw = human_pw(r)
    a, b, c = r.sample(FIRST, 3)
    what = r.choice(["staging db", "router admin page", "jenkins", "grafana", "the NAS",
                     "lab wifi", "printer web ui", "old wordpress admin", "vpn test account",
                     "synology", "pfsense box", "shared mailbox"])
    login = r.choice(["admin", "root", "ops", "svc_" + proj(r), f"{c}@{domain(r)}", "administrator"])
    pre = r.sample([
        (a, f"anyone have the login for the {what}? locked out again"),
        (c, "lol every week"),
        (a, "need it before the demo at 3"),
        (c, f"isnt it in the wiki? {what} section"),
        (a, "wiki page is empty, someone deleted it"),
        (c, "check 1password shared vault"),
        (a, "i dont have access to that vault yet"),
    ], r.randrange(2, 6))
    ask = [(a, r.choice(["can someone dm me?", "pls", f"@{b} you set it up right?",
                         "ping me when you can"]))]
    reply = r.choice([
        [(b, f"user is {login}, pw is {pw}")],
        [(b, f"{login} / {pw}")],
        [(b, f"try `{pw}`"), (b, "if that doesnt work its the old one with 2023 at the end")],
        [(b, f"password: {pw}   (case sensitive)")],
        [(b, f"it's {pw} - please rotate it after the demo")],
        [(b, login), (b, pw), (b, "delete this msg after")],
        [(b, f"ugh fine. {pw}")],
    ])
    post = r.sample([(a, "thx!! in"), (a, "worked"), (c, "we really need to move that to the vault"),
                     (b, "ok deleting this in 5 min"), (a, ":+1:"), (c, "noted"),
                     (a, "thanks, owe you a coffee")], r.randrange(2, 4))
    return "password-chat", pw, chat_render(r, pre + ask + reply + post), "txt"


def t_k8s_secret(r):
    pw = human_pw(r)
    app = proj(r)
    ns = r.choice(["default", "prod", "staging", app, "data", "platform"])
    key = r.choice(["password", "POSTGRES_PASSWORD", "db-password", "mysql-root-password",
                    "DB_PASS", "admin-password", "rabbitmq-password"])
    user = r.choice(["app", app, "postgres", "root", "svc_" + app])
    lines = []
    if r.random() < 0.5:
        lines += ["$ kubectl get secret %s-db -n %s -o yaml" % (app, ns)]
    lines += ["apiVersion: v1", "data:"]
    data = {key: b64s(pw), r.choice(["username", "DB_USER", "user"]): b64s(user),
            r.choice(["host", "DB_HOST"]): b64s(f"{app}-postgresql.{ns}.svc.cluster.local")}
    if r.random() < 0.5:
        data["port"] = b64s(r.choice(["5432", "3306", "5672"]))
    for k in sorted(data):
        lines.append(f"  {k}: {data[k]}")
    lines += ["kind: Secret", "metadata:"]
    if r.random() < 0.6:
        lines += ["  annotations:",
                  f"    meta.helm.sh/release-name: {app}",
                  f"    meta.helm.sh/release-namespace: {ns}",
                  f"  creationTimestamp: \"{iso(when(r))}\"",
                  "  labels:", "    app.kubernetes.io/managed-by: Helm",
                  f"    app.kubernetes.io/name: {app}"]
    lines += [f"  name: {app}-db", f"  namespace: {ns}"]
    if r.random() < 0.5:
        lines += [f"  resourceVersion: \"{r.randrange(10000, 9999999)}\"", f"  uid: {uuid4(r)}"]
    lines.append("type: Opaque")
    return "password-k8s-secret-b64", pw, "\n".join(lines) + "\n", "yaml"


def t_curl_verbose(r):
    user = r.choice(["jenkins", "deploy", "ci-bot", first(r), "admin", "svc-" + proj(r)])
    pw = human_pw(r, "!#%&*.-_+=@?")
    value = f"{user}:{pw}"
    host = r.choice(["nexus", "artifactory", "registry", "jira", "confluence", "sonar"]) + "." + domain(r)
    ip = ip10(r)
    path = r.choice(["/service/rest/v1/status", "/api/system/ping", "/rest/api/2/myself",
                     "/artifactory/api/repositories", "/api/v2/_catalog", "/api/authentication/validate"])
    ver = r.choice(["7.81.0", "8.5.0", "8.7.1", "8.4.0"])
    lines = [f"$ curl -v {r.choice(['-n ', '--netrc ', ''])}https://{host}{path}" if r.random() < 0.7
             else f"$ curl -sv -K ~/.curlrc https://{host}{path} -o /dev/null",
             f"*   Trying {ip}:443...",
             f"* Connected to {host} ({ip}) port 443 (#0)",
             "* ALPN: offers h2,http/1.1",
             "* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
             "*  CAfile: /etc/ssl/certs/ca-certificates.crt",
             "*  CApath: /etc/ssl/certs",
             "* TLSv1.3 (IN), TLS handshake, Server hello (2):",
             "* TLSv1.3 (IN), TLS handshake, Encrypted Extensions (8):",
             "* TLSv1.3 (IN), TLS handshake, Certificate (11):",
             "* TLSv1.3 (IN), TLS handshake, CERT verify (15):",
             "* TLSv1.3 (IN), TLS handshake, Finished (20):",
             "* TLSv1.3 (OUT), TLS handshake, Finished (20):",
             "* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384",
             "* ALPN: server accepted http/1.1",
             "* Server certificate:",
             f"*  subject: CN=*.{host.split('.', 1)[1]}",
             f"*  start date: {when(r):%b %d %H:%M:%S %Y} GMT",
             f"*  expire date: {when(r) + timedelta(days=365):%b %d %H:%M:%S %Y} GMT",
             "*  issuer: C=US; O=Let's Encrypt; CN=R11",
             "*  SSL certificate verify ok.",
             f"* Server auth using Basic with user '{user}'",
             f"> GET {path} HTTP/1.1",
             f"> Host: {host}",
             f"> Authorization: Basic {b64s(value)}",
             f"> User-Agent: curl/{ver}",
             "> Accept: */*",
             ">"]
    code = r.choice(["401 Unauthorized", "403 Forbidden", "200 OK", "502 Bad Gateway"])
    lines += [f"< HTTP/1.1 {code}", f"< Date: {when(r):%a, %d %b %Y %H:%M:%S} GMT",
              f"< Server: {r.choice(['nginx', 'Nexus/3.68.1-02 (OSS)', 'Artifactory/7.77.5', 'Apache'])}",
              "< Content-Type: application/json", f"< Content-Length: {r.randrange(0, 400)}", "<",
              "* Connection #0 to host %s left intact" % host]
    if r.random() < 0.5:
        lines = [r.choice(["getting 401 from nexus in the pipeline but the same creds work in the browser??",
                           "verbose output below, auth header looks right to me",
                           "Why does this fail? Output:"]), ""] + lines
    return "basic-auth-header", value, "\n".join(lines) + "\n", "txt"


def t_spring_properties(r):
    pw = human_pw(r, "!@#$%&*?.-_+")
    app = proj(r)
    host = f"{r.choice(['db', 'pg', 'mysql'])}.{app}.{r.choice(['local', 'internal', 'lan'])}"
    v = r.randrange(3)
    if v == 0:
        body = [f"spring.application.name={app}-service", f"server.port={r.choice([8080, 8081, 9000])}",
                f"spring.datasource.url=jdbc:postgresql://{host}:5432/{app}",
                f"spring.datasource.username={app}_rw", f"spring.datasource.password={pw}",
                "spring.datasource.hikari.maximum-pool-size=10",
                "spring.jpa.hibernate.ddl-auto=validate", "spring.jpa.open-in-view=false",
                "logging.level.org.hibernate.SQL=" + r.choice(["DEBUG", "INFO", "WARN"]),
                "management.endpoints.web.exposure.include=health,info,prometheus"]
        lines = body[:2] + r.sample(body[2:], len(body) - 2)
        ext = "properties"
    elif v == 1:
        mailer = r.choice(["smtp.office365.com", "smtp.gmail.com", "mail." + domain(r)])
        lines = ["# mail", f"spring.mail.host={mailer}", "spring.mail.port=587",
                 f"spring.mail.username=noreply@{domain(r)}", f"spring.mail.password={pw}",
                 "spring.mail.properties.mail.smtp.auth=true",
                 "spring.mail.properties.mail.smtp.starttls.enable=true", "",
                 "# misc", f"app.mail.from=noreply@{domain(r)}", "app.mail.enabled=true",
                 f"server.servlet.context-path=/{app}"]
        ext = "properties"
    else:
        lines = ["spring:", "  application:", f"    name: {app}", "  datasource:",
                 f"    url: jdbc:mysql://{host}:3306/{app}?useSSL=false&serverTimezone=UTC",
                 f"    username: {r.choice(['root', app, 'springuser'])}",
                 f"    password: \"{pw}\"", "    driver-class-name: com.mysql.cj.jdbc.Driver",
                 "  jpa:", "    hibernate:", "      ddl-auto: update", "    show-sql: true",
                 "server:", f"  port: {r.choice([8080, 8443, 8088])}"]
        ext = "yml"
    return "password-config", pw, "\n".join(lines) + "\n", ext


def t_appsettings_json(r):
    pw = human_pw(r, "!@#$%&*?.-_+")
    app = proj(r).capitalize()
    server = r.choice([f"tcp:{org(r)}-sql.database.windows.net,1433", "localhost\\SQLEXPRESS",
                       f"{ip10(r)},1433", f"sql{r.randrange(1, 9)}.{domain(r)}"])
    user = r.choice(["sa", f"{app.lower()}_app", "webuser", "dbo_" + app.lower()])
    cs = r.choice([
        f"Server={server};Database={app}Db;User Id={user};Password={pw};TrustServerCertificate=True;",
        f"Data Source={server};Initial Catalog={app};User ID={user};Password={pw};MultipleActiveResultSets=true",
        f"Server={server};Initial Catalog={app};Persist Security Info=False;User ID={user};Password={pw};Encrypt=True;Connection Timeout=30;",
    ])
    doc = {"Logging": {"LogLevel": {"Default": "Information", "Microsoft.AspNetCore": "Warning"}},
           "AllowedHosts": "*",
           "ConnectionStrings": {r.choice(["DefaultConnection", f"{app}Db", "Sql"]): cs}}
    if r.random() < 0.6:
        doc["Serilog"] = {"MinimumLevel": r.choice(["Debug", "Information"]),
                          "WriteTo": [{"Name": "Console"}]}
    if r.random() < 0.5:
        doc["Features"] = {"EnableSwagger": r.random() < 0.5, "CacheSeconds": r.randrange(30, 600)}
    return "password-connection-string", pw, json.dumps(doc, indent=r.choice([2, 4])) + "\n", "json"


def t_wp_config(r):
    pw = human_pw(r, "!@#$%&*?.-_+=")
    name = r.choice(["wordpress", "wp_" + proj(r), proj(r) + "_blog"])
    user = r.choice(["wpuser", "wordpress", name[:12], "root"])
    q = r.choice(["'", "'"])
    lines = ["<?php", "/**", " * The base configuration for WordPress", " *",
             " * @package WordPress", " */", "",
             "// ** Database settings - You can get this info from your web host ** //",
             f"define( {q}DB_NAME{q}, {q}{name}{q} );", f"define( {q}DB_USER{q}, {q}{user}{q} );",
             f"define( {q}DB_PASSWORD{q}, {q}{pw}{q} );",
             f"define( 'DB_HOST', '{r.choice(['localhost', '127.0.0.1', 'mysql', 'db:3306'])}' );",
             "define( 'DB_CHARSET', 'utf8mb4' );", "define( 'DB_COLLATE', '' );", ""]
    if r.random() < 0.5:
        lines += ["define( 'AUTH_KEY',         'put your unique phrase here' );",
                  "define( 'SECURE_AUTH_KEY',  'put your unique phrase here' );",
                  "define( 'LOGGED_IN_KEY',    'put your unique phrase here' );", ""]
    lines += [f"$table_prefix = '{r.choice(['wp_', 'wp2_', 'blog_'])}';", "",
              f"define( 'WP_DEBUG', {r.choice(['false', 'true'])} );"]
    if r.random() < 0.5:
        lines += ["define( 'WP_MEMORY_LIMIT', '256M' );", "define( 'FS_METHOD', 'direct' );"]
    lines += ["", "if ( ! defined( 'ABSPATH' ) ) {", "\tdefine( 'ABSPATH', __DIR__ . '/' );", "}",
              "require_once ABSPATH . 'wp-settings.php';"]
    return "password-config", pw, "\n".join(lines) + "\n", "php"


def t_docker_compose(r):
    pw = human_pw(r, "!@#%&*?.-_+")
    app = proj(r)
    eng = r.choice(["postgres", "mysql", "mariadb", "mongo"])
    img = {"postgres": "postgres:16-alpine", "mysql": "mysql:8.0", "mariadb": "mariadb:11",
           "mongo": "mongo:7"}[eng]
    var = {"postgres": "POSTGRES_PASSWORD", "mysql": "MYSQL_ROOT_PASSWORD",
           "mariadb": "MARIADB_ROOT_PASSWORD", "mongo": "MONGO_INITDB_ROOT_PASSWORD"}[eng]
    q = r.choice(["", '"', "'"])
    listform = r.random() < 0.5
    env = [(var, pw)]
    if eng == "postgres":
        env += [("POSTGRES_USER", app), ("POSTGRES_DB", app)]
    elif eng == "mongo":
        env += [("MONGO_INITDB_ROOT_USERNAME", "root")]
    else:
        env += [(var.split("_")[0] + "_DATABASE", app)]
    r.shuffle(env)
    envl = [f"      - {k}={q}{v}{q}" if listform and not q else
            (f"      - \"{k}={v}\"" if listform else f"      {k}: {q}{v}{q}") for k, v in env]
    lines = ([] if r.random() < 0.5 else ["version: \"3.8\"", ""]) + ["services:", "  db:",
             f"    image: {img}", "    restart: unless-stopped", "    environment:"] + envl + [
             "    volumes:", f"      - {eng}-data:/var/lib/{'mongodb' if eng == 'mongo' else eng}",
             "    ports:", f"      - \"{ {'postgres': 5432, 'mongo': 27017}.get(eng, 3306)}:{ {'postgres': 5432, 'mongo': 27017}.get(eng, 3306)}\"",
             "", "  app:", f"    build: ./{app}", "    depends_on:", "      - db",
             "    environment:", f"      DB_HOST: db", f"      APP_ENV: {r.choice(['dev', 'local', 'staging'])}",
             "    ports:", f"      - \"{r.choice([3000, 8000, 8080])}:{r.choice([3000, 8000, 8080])}\"",
             "", "volumes:", f"  {eng}-data:"]
    return "password-config", pw, "\n".join(lines) + "\n", "yml"


def t_ansible_inventory(r):
    pw = human_pw(r, "!@#%&*?.-_+")
    grp = r.choice(["webservers", "dbservers", "windows", "k3s_nodes", "proxmox", "app"])
    dom = domain(r)
    hosts = [f"{grp[:3]}{k:02d}.{dom} ansible_host={ip10(r)}" for k in range(1, r.randrange(3, 7))]
    v = r.randrange(3)
    if v == 0:
        lines = ["[all:vars]", "ansible_python_interpreter=/usr/bin/python3", "", f"[{grp}]"] + hosts + [
            "", f"[{grp}:vars]", f"ansible_user={r.choice(['deploy', 'ubuntu', 'ansible', first(r)])}",
            "ansible_become=true", f"ansible_become_pass={pw}"]
        ext = "ini"
    elif v == 1:
        lines = ["[windows]"] + hosts + ["", "[windows:vars]", "ansible_user=Administrator",
                 f"ansible_password={pw}", "ansible_connection=winrm",
                 "ansible_winrm_transport=ntlm", "ansible_winrm_server_cert_validation=ignore",
                 "ansible_port=5986"]
        ext = "ini"
    else:
        lines = ["# group_vars/%s.yml" % grp, "---", f"ansible_user: {r.choice(['deploy', 'ubuntu', 'pi'])}",
                 f"ansible_become_password: \"{pw}\"", "ntp_servers:", "  - 0.pool.ntp.org",
                 "  - 1.pool.ntp.org", f"timezone: {r.choice(['Europe/Berlin', 'UTC', 'America/Chicago'])}",
                 "packages:", "  - htop", "  - curl", "  - unattended-upgrades"]
        ext = "yml"
    return "password-config", pw, "\n".join(lines) + "\n", ext


def t_git_config(r):
    pw = human_pw(r, URL_SYMS)
    user = r.choice([first(r), first(r) + "." + r.choice(LAST), "build", "jenkins"])
    host = r.choice([f"git.{domain(r)}", f"bitbucket.{domain(r)}", "gitea.lan:3000",
                     f"gitlab.{domain(r)}", f"{ip192(r)}:3000"])
    repo = f"{r.choice([org(r), 'infra', 'team', 'scm'])}/{proj(r)}{r.choice(['', '-api', '-web', '.git'][:3])}"
    url = f"https://{user}:{pw}@{host}/{repo}.git"
    if r.random() < 0.5:
        lines = ["$ cat .git/config", "[core]", "\trepositoryformatversion = 0", "\tfilemode = true",
                 "\tbare = false", "\tlogallrefupdates = true", '[remote "origin"]', f"\turl = {url}",
                 "\tfetch = +refs/heads/*:refs/remotes/origin/*", '[branch "main"]', "\tremote = origin",
                 "\tmerge = refs/heads/main"]
        if r.random() < 0.5:
            lines += ['[branch "develop"]', "\tremote = origin", "\tmerge = refs/heads/develop"]
    else:
        lines = ["$ git push", "fatal: unable to access " + f"'https://{host}/{repo}.git/': SSL certificate problem: self-signed certificate",
                 "$ git remote -v", f"origin\t{url} (fetch)", f"origin\t{url} (push)",
                 "$ git -c http.sslVerify=false push origin main",
                 f"Enumerating objects: {r.randrange(5, 60)}, done.",
                 "Writing objects: 100% (7/7), 1.02 KiB | 1.02 MiB/s, done.",
                 f"To https://{host}/{repo}.git",
                 f"   {rs(r, 7, HEX)}..{rs(r, 7, HEX)}  main -> main"]
    return "password-url-userinfo", pw, "\n".join(lines) + "\n", "txt"


def t_home_assistant(r):
    pw = human_pw(r, "!@#%&*?.-_+")
    if r.random() < 0.5:
        lines = ["# Use this file to store secrets like usernames and passwords.",
                 "# Learn more at https://www.home-assistant.io/docs/configuration/secrets/",
                 f"home_latitude: {r.uniform(35, 60):.4f}", f"home_longitude: {r.uniform(-10, 25):.4f}",
                 f"home_elevation: {r.randrange(0, 500)}",
                 f"mqtt_broker: {ip192(r)}", f"mqtt_username: {r.choice(['homeassistant', 'mqtt', 'ha'])}",
                 f"{r.choice(['mqtt_password', 'mosquitto_pw', 'broker_pass'])}: \"{pw}\"",
                 f"frigate_url: http://{ip192(r)}:5000",
                 f"notify_email: {first(r)}@{domain(r)}"]
        r.shuffle(lines[2:])
        ext = "yaml"
    else:
        dev = r.choice(["garage-door", "living-room-sensor", "plant-monitor", "desk-lamp", "doorbell"])
        lines = ["esphome:", f"  name: {dev}", "", "esp32:" if r.random() < 0.5 else "esp8266:",
                 f"  board: {r.choice(['esp32dev', 'nodemcuv2', 'd1_mini'])}", "", "logger:", "",
                 "api:", "  encryption:", "    key: !secret api_encryption_key", "", "ota:",
                 "  - platform: esphome", "", "wifi:",
                 f"  ssid: \"{r.choice(['FRITZ!Box 7590 XY', 'Vodafone-3C21', 'HomeNet', 'IoT-2G', 'TP-Link_8A2C'])}\"",
                 f"  password: \"{pw}\"", "  ap:", f"    ssid: \"{dev.title()} Fallback\"", "",
                 "captive_portal:", "", "sensor:", "  - platform: dht",
                 f"    pin: GPIO{r.choice([4, 5, 14, 27])}", "    temperature:", "      name: \"Temperature\"",
                 "    humidity:", "      name: \"Humidity\"", "    update_interval: 60s"]
        ext = "yaml"
    return "password-iot-config", pw, "\n".join(lines) + "\n", ext


def t_arduino_sketch(r):
    pw = human_pw(r, "!@#%&*?.-_+")
    ssid = r.choice(["HomeWiFi", "Shed_AP", "NETGEAR42", "BELL-5G-204", "the_lan_before_time", "IoT"])
    esp32 = r.random() < 0.5
    hdr = ["#include <WiFi.h>" if esp32 else "#include <ESP8266WiFi.h>", "#include <PubSubClient.h>", ""]
    if r.random() < 0.5:
        cred = [f"const char* ssid     = \"{ssid}\";", f"const char* password = \"{pw}\";"]
        sv, pv = "ssid", "password"
    else:
        cred = [f"#define WIFI_SSID \"{ssid}\"", f"#define WIFI_PASS \"{pw}\""]
        sv, pv = "WIFI_SSID", "WIFI_PASS"
    lines = hdr + cred + [f"const char* mqtt_server = \"{ip192(r)}\";", "",
             "WiFiClient espClient;", "PubSubClient client(espClient);", "",
             "void setup_wifi() {", "  delay(10);", "  Serial.println();",
             f"  Serial.print(\"Connecting to \");", f"  Serial.println({sv});",
             f"  WiFi.begin({sv}, {pv});", "  while (WiFi.status() != WL_CONNECTED) {",
             "    delay(500);", "    Serial.print(\".\");", "  }",
             "  Serial.println(WiFi.localIP());", "}", "", "void setup() {",
             f"  Serial.begin({r.choice([9600, 115200])});", "  setup_wifi();",
             "  client.setServer(mqtt_server, 1883);", "}", "", "void loop() {",
             "  if (!client.connected()) {", "    client.connect(\"%s\");" % r.choice(["esp-client", "sensor01", "greenhouse"]),
             "  }", "  client.loop();", "}"]
    return "password-iot-config", pw, "\n".join(lines) + "\n", "ino"


def t_openwrt_uci(r):
    pw = human_pw(r, "!@#%&*?.-_+")
    ssid = r.choice(["OpenWrt", "Casa-" + first(r).capitalize(), "NoFreeWifi", "Attic", "Lab5G"])
    enc = r.choice(["psk2", "sae-mixed", "psk-mixed"])
    iface = r.choice(["default_radio0", "default_radio1", "wifinet2"])
    if r.random() < 0.5:
        lines = ["root@OpenWrt:~# uci show wireless", "wireless.radio0=wifi-device",
                 "wireless.radio0.type='mac80211'",
                 f"wireless.radio0.path='platform/soc/{r.choice(['18000000', '1e140000'])}.wifi'",
                 f"wireless.radio0.channel='{r.choice([1, 6, 11, 36, 'auto'])}'",
                 f"wireless.radio0.band='{r.choice(['2g', '5g'])}'", "wireless.radio0.htmode='HE20'",
                 f"wireless.radio0.country='{r.choice(['DE', 'US', 'NL', 'GB'])}'",
                 f"wireless.{iface}=wifi-iface", f"wireless.{iface}.device='radio0'",
                 f"wireless.{iface}.network='lan'", f"wireless.{iface}.mode='ap'",
                 f"wireless.{iface}.ssid='{ssid}'", f"wireless.{iface}.encryption='{enc}'",
                 f"wireless.{iface}.key='{pw}'"]
    else:
        lines = ["# cat /etc/config/wireless", "", "config wifi-device 'radio0'",
                 "\toption type 'mac80211'", f"\toption channel '{r.choice([1, 6, 11, 36])}'",
                 "\toption band '2g'", "\toption htmode 'HT20'", "\toption cell_density '0'", "",
                 f"config wifi-iface '{iface}'", "\toption device 'radio0'", "\toption network 'lan'",
                 "\toption mode 'ap'", f"\toption ssid '{ssid}'", f"\toption encryption '{enc}'",
                 f"\toption key '{pw}'", "\toption ieee80211r '0'"]
    return "password-iot-config", pw, "\n".join(lines) + "\n", "txt"


def t_netrc(r):
    pw = human_pw(r, "!@#%&*?.-_+")
    mach = r.choice([f"ftp.{domain(r)}", f"nas.{r.choice(['lan', 'home'])}", f"files.{domain(r)}",
                     f"{ip192(r)}", f"webdav.{domain(r)}"])
    login = r.choice([first(r), "backup", "admin", f"{first(r)}@{domain(r)}"])
    if r.random() < 0.5:
        body = [f"machine {mach}", f"  login {login}", f"  password {pw}"]
    else:
        body = [f"machine {mach} login {login} password {pw}"]
    if r.random() < 0.5:
        body += ["", "machine github.com", "  login " + first(r), "  # token comes from gh auth, not stored here"]
    pre = r.choice([[], ["$ ls -la ~/.netrc", f"-rw------- 1 {login.split('@')[0]} staff 96 {when(r):%b %d %H:%M} /home/{login.split('@')[0]}/.netrc"],
                     ["why does lftp still ask for a password? my netrc:"]])
    pre += [r.choice(["$ cat ~/.netrc", "$ cat $HOME/.netrc", "% cat ~/.netrc"])]
    post = [""] + r.choice([
        ["$ chmod 600 ~/.netrc", "$ ls -l ~/.netrc", f"-rw------- 1 {login.split('@')[0]} {login.split('@')[0]} 71 {when(r):%b %d %H:%M} .netrc"],
        [f"$ lftp {mach}", f"lftp {login.split('@')[0]}@{mach}:~> ls", "drwxr-xr-x   2 1000 1000  4096 Mar 02 10:11 backups",
         "-rw-r--r--   1 1000 1000 51234 Mar 02 10:11 notes.txt"],
        [f"$ curl -n -O https://{mach}/backups/latest.tar.gz",
         "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current",
         "100  512M  100  512M    0     0  48.2M      0  0:00:10  0:00:10 --:--:-- 51.0M"],
        [f"$ ftp {mach}", f"Connected to {mach}.", "220 (vsFTPd 3.0.5)", f"331 Please specify the password.", "230 Login successful."],
    ])
    return "password-netrc", pw, "\n".join(pre + body + post) + "\n", "txt"


def t_bitwarden_cli(r):
    pw = human_pw(r)
    title = r.choice(["Router admin", "Synology NAS", "Unifi controller", "Family Netflix",
                      "Work VPN", "Proxmox root", "Old gmail", "Plex server"])
    login = r.choice(["admin", "root", f"{first(r)}@{domain(r)}", first(r)])
    url = r.choice([f"http://{ip192(r)}", f"https://nas.{domain(r)}:5001", f"https://{ip192(r)}:8443"])
    if r.random() < 0.5:
        item = {"passwordHistory": None, "revisionDate": iso(when(r)).replace("Z", ".%03dZ" % r.randrange(1000)),
                "creationDate": iso(when(r)).replace("Z", ".%03dZ" % r.randrange(1000)),
                "deletedDate": None, "object": "item", "id": uuid4(r), "organizationId": None,
                "folderId": r.choice([None, uuid4(r)]), "type": 1, "reprompt": 0, "name": title,
                "notes": r.choice([None, "reset after the firmware update", "shared w/ " + first(r)]),
                "favorite": r.random() < 0.3,
                "login": {"uris": [{"match": None, "uri": url}], "username": login, "password": pw,
                          "totp": None, "passwordRevisionDate": None},
                "collectionIds": []}
        txt = f"$ bw get item \"{title}\" | jq .\n" + json.dumps(item, indent=2) + "\n"
    else:
        vault = r.choice(["Private", "Shared", "Homelab", "Employee"])
        lines = [f"$ op item get \"{title}\"", f"ID:          {rs(r, 26, LOWNUM)}", f"Title:       {title}",
                 f"Vault:       {vault} ({rs(r, 26, LOWNUM)})",
                 f"Created:     {r.randrange(2, 11)} months ago", f"Updated:     {r.randrange(2, 5)} weeks ago by {fullname(r)}",
                 "Favorite:    false", f"Version:     {r.randrange(1, 7)}", "Category:    LOGIN", "Fields:",
                 f"  username:    {login}", f"  password:    {pw}", "URLs:", f"  website:    {url} (primary)"]
        txt = "\n".join(lines) + "\n"
    return "password-manager-output", pw, txt, "txt"


def t_powershell(r):
    pw = human_pw(r, "!@#$%&*?.-_+=")
    dom = r.choice(["CORP", "AD", org(r).upper()[:6], "LAB"])
    svc = r.choice(["svc_backup", "svc_sql", "administrator", "svc_deploy", "itadmin"])
    v = r.randrange(3)
    if v == 0:
        lines = [f"$User = '{dom}\\{svc}'", f"$Pass = ConvertTo-SecureString '{pw}' -AsPlainText -Force",
                 "$Cred = New-Object System.Management.Automation.PSCredential($User, $Pass)", "",
                 f"$servers = @({', '.join(repr(f'SRV{r.randrange(10, 99)}') for _ in range(3))})",
                 "foreach ($s in $servers) {",
                 "    Invoke-Command -ComputerName $s -Credential $Cred -ScriptBlock {",
                 "        Get-Service -Name 'W3SVC' | Restart-Service -Force",
                 "    }", "}"]
    elif v == 1:
        lines = ["Import-Module ActiveDirectory", "",
                 f"$newUser = '{first(r)}.{r.choice(LAST)}'",
                 f"$initial = ConvertTo-SecureString -String '{pw}' -AsPlainText -Force",
                 "New-ADUser -Name $newUser -SamAccountName $newUser `",
                 f"    -Path 'OU=Staff,DC={dom.lower()},DC=local' `",
                 "    -AccountPassword $initial -Enabled $true -ChangePasswordAtLogon $true",
                 "Add-ADGroupMember -Identity 'VPN Users' -Members $newUser",
                 "Write-Host \"created $newUser\""]
    else:
        lines = ["# reconnect to vcenter after cert renewal",
                 "Set-PowerCLIConfiguration -InvalidCertificateAction Ignore -Confirm:$false | Out-Null",
                 f"Connect-VIServer -Server vcenter.{domain(r)} -User '{svc}@vsphere.local' -Password '{pw}'",
                 "Get-VM | Where-Object {$_.PowerState -eq 'PoweredOff'} | Select-Object Name, NumCpu, MemoryGB",
                 "Disconnect-VIServer -Confirm:$false"]
    if r.random() < 0.5:
        lines = [f"PS C:\\Users\\{first(r)}> Get-Content .\\{r.choice(['restart', 'onboard', 'vc'])}.ps1"] + lines
    return "password-script", pw, "\n".join(lines) + "\n", "ps1"


def t_sql_migration(r):
    pw = human_pw(r, "!@#$%&*?.-_+=")
    user = r.choice(["app_rw", "reporting", "metabase", "grafana_ro", "etl", proj(r) + "_user"])
    db = proj(r)
    v = r.randrange(3)
    if v == 0:
        lines = [f"-- V{r.randrange(2, 80)}__create_{user}.sql", "BEGIN;",
                 f"CREATE ROLE {user} WITH LOGIN PASSWORD '{pw}';",
                 f"GRANT CONNECT ON DATABASE {db} TO {user};", f"GRANT USAGE ON SCHEMA public TO {user};",
                 f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {user};",
                 f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO {user};", "COMMIT;"]
    elif v == 1:
        lines = [f"mysql> CREATE USER '{user}'@'%' IDENTIFIED BY '{pw}';",
                 "Query OK, 0 rows affected (0.02 sec)", "",
                 f"mysql> GRANT SELECT, INSERT, UPDATE ON {db}.* TO '{user}'@'%';",
                 "Query OK, 0 rows affected (0.01 sec)", "", "mysql> FLUSH PRIVILEGES;",
                 "Query OK, 0 rows affected (0.00 sec)"]
    else:
        lines = ["USE [master]", "GO", f"CREATE LOGIN [{user}] WITH PASSWORD = N'{pw}',",
                 "    DEFAULT_DATABASE = [%s], CHECK_POLICY = OFF" % db, "GO", f"USE [{db}]", "GO",
                 f"CREATE USER [{user}] FOR LOGIN [{user}]", "GO",
                 f"ALTER ROLE [db_datareader] ADD MEMBER [{user}]", "GO"]
    return "password-sql", pw, "\n".join(lines) + "\n", "sql"


def t_my_cnf(r):
    pw = human_pw(r, "!@#$%&*?.-_+")
    user = r.choice(["root", "backup", "dumper", first(r)])
    sec = r.choice(["[client]", "[mysqldump]", "[mysql]"])
    lines = [r.choice(["$ cat ~/.my.cnf", "# /root/.my.cnf", "$ sudo cat /etc/mysql/debian.cnf"]), sec,
             f"user={user}" if r.random() < 0.5 else f"user = {user}",
             f"password={pw}" if r.random() < 0.5 else f"password = \"{pw}\"",
             f"host={r.choice(['localhost', '127.0.0.1', 'db.internal', ip10(r)])}"]
    if r.random() < 0.5:
        lines += ["socket=/var/run/mysqld/mysqld.sock"]
    lines += ["", "[mysqld]", f"max_connections = {r.choice([151, 300, 500])}",
              f"innodb_buffer_pool_size = {r.choice(['1G', '4G', '512M'])}", "slow_query_log = 1"]
    return "password-config", pw, "\n".join(lines) + "\n", "cnf"


def t_grafana_datasource(r):
    pw = human_pw(r, "!@#%&*?.-_+")
    kind = r.choice(["elasticsearch", "influxdb", "mysql", "postgres", "loki"])
    lines = ["apiVersion: 1", "", "datasources:", "  - name: Prometheus", "    type: prometheus",
             "    access: proxy", f"    url: http://{r.choice(['prometheus', 'prom', ip10(r)])}:9090",
             "    isDefault: true", f"  - name: {kind.capitalize()}-{proj(r)}", f"    type: {kind}",
             "    access: proxy"]
    port = {"elasticsearch": 9200, "influxdb": 8086, "mysql": 3306, "postgres": 5432, "loki": 3100}[kind]
    if kind in ("mysql", "postgres"):
        lines.append(f"    url: {kind}.{domain(r)}:{port}")
    else:
        lines.append(f"    url: {'http' if r.random() < 0.5 else 'https'}://{kind}.{domain(r)}:{port}")
    if kind in ("mysql", "postgres"):
        lines += [f"    user: {r.choice(['grafana', 'grafana_ro', 'readonly'])}", "    jsonData:",
                  f"      database: {proj(r)}", "    secureJsonData:", f"      password: '{pw}'"]
    else:
        lines += ["    basicAuth: true", f"    basicAuthUser: {r.choice(['grafana', 'reader', 'elastic'])}",
                  "    jsonData:", "      tlsSkipVerify: true", "    secureJsonData:",
                  f"      basicAuthPassword: \"{pw}\""]
    lines += ["    editable: false"]
    return "password-config", pw, "\n".join(lines) + "\n", "yaml"


HUMAN = [
    ("bash-history", t_bash_history), ("team-chat", t_team_chat), ("k8s-secret", t_k8s_secret),
    ("curl-verbose", t_curl_verbose), ("spring-properties", t_spring_properties),
    ("appsettings-json", t_appsettings_json), ("wp-config", t_wp_config),
    ("docker-compose", t_docker_compose), ("ansible-inventory", t_ansible_inventory),
    ("git-config", t_git_config), ("home-assistant", t_home_assistant),
    ("arduino-sketch", t_arduino_sketch), ("openwrt-uci", t_openwrt_uci), ("netrc", t_netrc),
    ("password-manager-cli", t_bitwarden_cli), ("powershell-script", t_powershell),
    ("sql-migration", t_sql_migration), ("my-cnf", t_my_cnf),
    ("grafana-datasource", t_grafana_datasource),
]


# ---------------------------------------------------------------- positives: generated secrets
def gha_ts(d):
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%07dZ"


def t_github_actions_log(r):
    tok = crc_token(r, "ghp_")
    d = when(r)
    lines = []

    def L(s):
        nonlocal d
        d += timedelta(microseconds=r.randrange(50, 900000))
        lines.append(d.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d%dZ " % (d.microsecond, r.randrange(10)) + s)
    repo = f"{org(r)}/{proj(r)}"
    L("##[group]Run actions/checkout@v4")
    L("with:")
    L(f"  repository: {repo}")
    L("  fetch-depth: 1")
    L("##[endgroup]")
    v = r.randrange(3)
    var = r.choice(["GH_TOKEN", "GITHUB_PAT", "RELEASE_TOKEN", "BOT_TOKEN", "DEPLOY_PAT"])
    if v == 0:
        L(f"##[group]Run ./scripts/{r.choice(['release', 'publish', 'bump-version'])}.sh")
        L(f"./scripts/release.sh")
        L("shell: /usr/bin/bash -e {0}")
        L("env:")
        L(f"  NODE_VERSION: {r.choice([18, 20, 22])}")
        L(f"  {var}: {tok}")
        L("##[endgroup]")
        L(f"Creating release v{semver(r)} for {repo}")
        L("HTTP 422: Validation Failed (https://api.github.com/repos/%s/releases)" % repo)
        L("##[error]Process completed with exit code 1.")
    elif v == 1:
        L("##[group]Run git config --global user.name \"ci-bot\"")
        L("shell: /usr/bin/bash -e {0}")
        L("##[endgroup]")
        L("+ set -x")
        L(f"+ git clone https://x-access-token:{tok}@github.com/{org(r)}/{proj(r)}-deploy.git deploy")
        L("Cloning into 'deploy'...")
        L(f"+ cd deploy && git checkout -b bump-{rs(r, 7, HEX)}")
        L("Switched to a new branch")
    else:
        L("##[group]Run docker/login-action@v3")
        L("with:")
        L("  registry: ghcr.io")
        L(f"  username: {first(r)}")
        L(f"  password: {tok}")
        L("  logout: true")
        L("##[endgroup]")
        L("Logging into ghcr.io...")
        L("Login Succeeded!")
    for _ in range(r.randrange(2, 8)):
        L(r.choice(["Post job cleanup.", "[command]/usr/bin/git version", "git version 2.45.1",
                    "Temporarily overriding HOME='/home/runner/work/_temp/...' before making global git config changes",
                    "Cleaning up orphan processes", "##[warning]Node.js 16 actions are deprecated."]))
    return "github-pat", tok, "\n".join(lines) + "\n", "log"


def t_dotenv_stripe(r):
    if r.random() < 0.7:
        key = "sk_live_51" + rs(r, 12, ALNUM) + rs(r, 85, ALNUM)
        name = r.choice(["STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_SK", "PAYMENTS_STRIPE_SECRET"])
    else:
        key = "rk_live_51" + rs(r, 12, ALNUM) + rs(r, 85, ALNUM)
        name = r.choice(["STRIPE_RESTRICTED_KEY", "STRIPE_RK", "BILLING_STRIPE_KEY"])
    app = proj(r)
    q = r.choice(["", '"', "'"])
    lines = [f"APP_NAME={app}", f"APP_ENV={r.choice(['production', 'prod', 'live'])}", "APP_DEBUG=false",
             f"APP_URL=https://{app}.{domain(r)}", "", "LOG_CHANNEL=stack", "LOG_LEVEL=info", "",
             f"DB_CONNECTION={r.choice(['mysql', 'pgsql'])}", "DB_HOST=127.0.0.1", f"DB_DATABASE={app}",
             "", f"{name}={q}{key}{q}", f"STRIPE_WEBHOOK_TOLERANCE={r.choice([300, 600])}",
             f"CASHIER_CURRENCY={r.choice(['usd', 'eur', 'gbp'])}", "",
             "CACHE_DRIVER=redis", "QUEUE_CONNECTION=redis", f"REDIS_HOST={r.choice(['127.0.0.1', 'redis'])}"]
    if r.random() < 0.5:
        lines.insert(0, "# copied from the prod box, do not commit")
    return "stripe-secret-key", key, "\n".join(lines) + "\n", "env"


def aws_pair(r):
    return "AKIA" + rs(r, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), rs(r, 40, B64CH)


def t_aws_credentials(r):
    kid, sec = aws_pair(r)
    reg = r.choice(REGIONS)
    v = r.randrange(3)
    if v == 0:
        lines = ["$ cat ~/.aws/credentials", f"[{r.choice(['default', 'prod', 'deploy', org(r)])}]",
                 f"aws_access_key_id = {kid}", f"aws_secret_access_key = {sec}", "",
                 f"[{r.choice(['sso-dev', 'sandbox'])}]", "credential_process = aws-sso-util credential-process --profile sandbox",
                 "", "$ cat ~/.aws/config", "[default]", f"region = {reg}", "output = json"]
    elif v == 1:
        lines = ["$ aws configure", f"AWS Access Key ID [None]: {kid}", f"AWS Secret Access Key [None]: {sec}",
                 f"Default region name [None]: {reg}", "Default output format [None]: json",
                 "$ aws sts get-caller-identity", "{",
                 f"    \"UserId\": \"AIDA{rs(r, 17, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}\",",
                 f"    \"Account\": \"{rs(r, 12, string.digits)}\",",
                 f"    \"Arn\": \"arn:aws:iam::{rs(r, 12, string.digits)}:user/{first(r)}\"", "}"]
    else:
        lines = ["#!/usr/bin/env bash", "set -euo pipefail", f"export AWS_ACCESS_KEY_ID={kid}",
                 f"export AWS_SECRET_ACCESS_KEY={sec}", f"export AWS_DEFAULT_REGION={reg}", "",
                 f"aws s3 sync ./dist s3://{proj(r)}-{r.choice(['static', 'assets', 'www'])} --delete",
                 f"aws cloudfront create-invalidation --distribution-id E{rs(r, 13, UPNUM)} --paths '/*'"]
    return "aws-secret-access-key", sec, "\n".join(lines) + "\n", "txt"


def t_docker_config(r):
    v = r.randrange(3)
    if v == 0:
        reg, user, pw = "https://index.docker.io/v1/", first(r) + str(r.randrange(10, 99)), "dckr_pat_" + rs(r, 27, URLSAFE)
    elif v == 1:
        reg, user, pw = f"harbor.{domain(r)}", f"robot${proj(r)}+ci", rs(r, 32, ALNUM)
    else:
        reg, user, pw = f"registry.{domain(r)}:5000", r.choice(["deploy", "ci", first(r)]), rand_pw(r, 24, "")
    value = f"{user}:{pw}"
    doc = {"auths": {reg: {"auth": b64s(value)}}}
    if r.random() < 0.5:
        doc["auths"]["ghcr.io"] = {}
    if r.random() < 0.5:
        doc["HttpHeaders"] = {"User-Agent": f"Docker-Client/{r.choice(['24.0.7', '25.0.3', '26.1.4'])} (linux)"}
    if r.random() < 0.4:
        doc["currentContext"] = r.choice(["default", "desktop-linux", "colima"])
    txt = json.dumps(doc, indent=r.choice([1, 2, "\t"])) + "\n"
    if r.random() < 0.6:
        txt = r.choice(["$ cat ~/.docker/config.json\n", "# ~/.docker/config.json on the runner\n"]) + txt
    return "registry-basic-auth", value, txt, "json"


def t_openssh_key_cat(r):
    user, host = first(r), r.choice(["laptop", "build01", "bastion", "MacBook-Pro.local", "wsl"])
    key, pub = openssh_ed25519(r, f"{user}@{host}")
    name = r.choice(["id_ed25519", "deploy_key", "github_actions", "id_ed25519_work"])
    v = r.randrange(3)
    if v == 0:
        lines = [f"{user}@{host}:~$ ls -l ~/.ssh", "total 16",
                 f"-rw------- 1 {user} {user}  411 Jan  9 10:02 {name}",
                 f"-rw-r--r-- 1 {user} {user}  {len(pub) + 1} Jan  9 10:02 {name}.pub",
                 f"-rw-r--r-- 1 {user} {user} 1826 Mar 14 08:51 known_hosts",
                 f"{user}@{host}:~$ cat ~/.ssh/{name}", key, f"{user}@{host}:~$ cat ~/.ssh/{name}.pub", pub]
    elif v == 1:
        lines = [r.choice(["trying to add this as a deploy key and github says 'key is invalid'. this is what i pasted:",
                           "is this the right format for the SSH_PRIVATE_KEY secret?"]), "", key, "",
                 "and the pub one:", pub]
    else:
        lines = [f"$ ssh-keygen -t ed25519 -C \"{user}@{host}\" -f ./{name} -N ''",
                 "Generating public/private ed25519 key pair.",
                 f"Your identification has been saved in ./{name}",
                 f"Your public key has been saved in ./{name}.pub",
                 "The key fingerprint is:", f"SHA256:{b64(rb(r, 32)).rstrip('=')} {user}@{host}",
                 f"$ cat {name}", key]
    return "openssh-private-key", key, "\n".join(lines) + "\n", "txt"


def t_python_rsa_key(r):
    if r.random() < 0.5:
        key = pem("RSA PRIVATE KEY", rsa_der(r, r.choice([1024, 2048])))
    else:
        key = pem("PRIVATE KEY", pkcs8_rsa(r, r.choice([1024, 2048])))
    v = r.randrange(3)
    if v == 0:
        app_id = r.randrange(100000, 999999)
        lines = ["import time", "import jwt", "import requests", "",
                 f"APP_ID = {app_id}", f"PRIVATE_KEY = \"\"\"{key}", "\"\"\"", "", "",
                 "def app_jwt():", "    now = int(time.time())",
                 "    payload = {\"iat\": now - 60, \"exp\": now + 540, \"iss\": APP_ID}",
                 "    return jwt.encode(payload, PRIVATE_KEY, algorithm=\"RS256\")", "", "",
                 "r = requests.get(\"https://api.github.com/app/installations\",",
                 "                 headers={\"Authorization\": f\"Bearer {app_jwt()}\"})", "print(r.json())"]
    elif v == 1:
        lines = ["from cryptography.hazmat.primitives import serialization", "",
                 f"_KEY_PEM = b\"\"\"{key}\n\"\"\"", "",
                 "private_key = serialization.load_pem_private_key(_KEY_PEM, password=None)",
                 "pkb = private_key.private_bytes(",
                 "    encoding=serialization.Encoding.DER,",
                 "    format=serialization.PrivateFormat.PKCS8,",
                 "    encryption_algorithm=serialization.NoEncryption())", "",
                 "conn = snowflake.connector.connect(",
                 f"    user=\"{first(r).upper()}_SVC\", account=\"{rs(r, 7, UPNUM).lower()}-{org(r)}\", private_key=pkb)"]
    else:
        lines = ["# tests/conftest.py", "import pytest", "",
                 f"SIGNING_KEY = '''{key}'''", "", "",
                 "@pytest.fixture", "def signer():",
                 f"    return TokenSigner(SIGNING_KEY, issuer=\"https://{proj(r)}.{domain(r)}\")"]
    return "rsa-private-key", key, "\n".join(lines) + "\n", "py"


def t_terraform_state(r):
    sec1, spki, pt = ec_key(r)
    keypem = pem("EC PRIVATE KEY", sec1) + "\n"
    pubpem = pem("PUBLIC KEY", spki) + "\n"
    blob = sshstr(b"ecdsa-sha2-nistp256") + sshstr(b"nistp256") + sshstr(pt)
    name = r.choice(["bastion", "deploy", "node", "vpn", "jump"])
    res = [{"mode": "managed", "type": "tls_private_key", "name": name,
            "provider": "provider[\"registry.terraform.io/hashicorp/tls\"]",
            "instances": [{"schema_version": 0, "attributes": {
                "algorithm": "ECDSA", "ecdsa_curve": "P256", "id": rs(r, 40, HEX),
                "private_key_pem": keypem,
                "public_key_fingerprint_md5": ":".join(wrap(rs(r, 32, HEX), 2)),
                "public_key_openssh": f"ecdsa-sha2-nistp256 {b64(blob)}\n",
                "public_key_pem": pubpem, "rsa_bits": 2048}, "sensitive_attributes": []}]}]
    if r.random() < 0.6:
        res.append({"mode": "managed", "type": "aws_key_pair", "name": name,
                    "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
                    "instances": [{"schema_version": 1, "attributes": {
                        "arn": f"arn:aws:ec2:{r.choice(REGIONS)}:{rs(r, 12, string.digits)}:key-pair/{name}-key",
                        "id": f"{name}-key", "key_name": f"{name}-key",
                        "key_pair_id": "key-0" + rs(r, 16, HEX), "tags": {}},
                        "dependencies": [f"tls_private_key.{name}"]}]})
    doc = {"version": 4, "terraform_version": r.choice(["1.5.7", "1.6.6", "1.7.5", "1.8.2"]),
           "serial": r.randrange(1, 90), "lineage": uuid4(r), "outputs": {}, "resources": res,
           "check_results": None}
    txt = json.dumps(doc, indent=2) + "\n"
    value = json.dumps(keypem)[1:-1]
    assert value in txt
    return "ec-private-key-in-state", value, txt, "tfstate"


def openai_key(r):
    if r.random() < 0.6:
        return "sk-proj-" + rs(r, 74, URLSAFE) + "T3BlbkFJ" + rs(r, 74, URLSAFE)
    return "sk-" + rs(r, 20, ALNUM) + "T3BlbkFJ" + rs(r, 20, ALNUM)


def t_jupyter_notebook(r):
    key = openai_key(r)
    c1 = r.choice([["import os\n", f"os.environ[\"OPENAI_API_KEY\"] = \"{key}\"\n", "from openai import OpenAI\n", "client = OpenAI()"],
                   ["from openai import OpenAI\n", "\n", f"client = OpenAI(api_key=\"{key}\")"],
                   ["import openai\n", f"openai.api_key = '{key}'"]])
    topic = r.choice(["support tickets", "product reviews", "meeting notes", "bug reports"])
    cells = [{"cell_type": "markdown", "metadata": {}, "source": [f"# Summarise {topic}\n", "\n", "quick experiment, delete later"]},
             {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [], "source": c1},
             {"cell_type": "code", "execution_count": 2, "metadata": {},
              "outputs": [{"name": "stdout", "output_type": "stream", "text": [f"{r.randrange(80, 3000)} rows\n"]}],
              "source": ["import pandas as pd\n", f"df = pd.read_csv(\"{topic.replace(' ', '_')}.csv\")\n", "print(len(df), 'rows')"]},
             {"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [],
              "source": ["resp = client.chat.completions.create(\n",
                         f"    model=\"{r.choice(['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini'])}\",\n",
                         "    messages=[{\"role\": \"user\", \"content\": df.text[0]}],\n", ")\n",
                         "resp.choices[0].message.content"]}]
    nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                                       "language_info": {"name": "python", "version": r.choice(["3.10.12", "3.11.9", "3.12.3"])}},
          "nbformat": 4, "nbformat_minor": 5}
    return "openai-api-key", key, json.dumps(nb, indent=1) + "\n", "ipynb"


def t_har_export(r):
    v = r.randrange(4)
    if v == 0:
        cname, val = "PHPSESSID", rs(r, 26, LOWNUM)
    elif v == 1:
        cname, val = "JSESSIONID", rs(r, 32, UHEX)
    elif v == 2:
        cname, val = "connect.sid", "s%3A" + rs(r, 32, URLSAFE) + "." + b64(rb(r, 32)).rstrip("=")
    else:
        cname, val = f"_{proj(r)}_session", b64(rb(r, r.randrange(90, 180))).rstrip("=") + "--" + rs(r, 40, HEX)
    host = f"{r.choice(['app', 'portal', 'admin', 'my'])}.{domain(r)}"
    path = r.choice(["/api/me", "/dashboard/stats", "/api/v1/orders?page=2", "/account/settings"])
    d = when(r)
    cookie = f"{cname}={val}; " + r.choice(["theme=dark", "lang=en", "_ga=GA1.1.%d.%d" % (r.randrange(10 ** 9), r.randrange(10 ** 9)), "tz=Europe%2FBerlin"])
    entry = {"startedDateTime": d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % r.randrange(1000),
             "time": round(r.uniform(20, 900), 3),
             "request": {"method": "GET", "url": f"https://{host}{path}", "httpVersion": "HTTP/2",
                         "headers": [{"name": ":authority", "value": host}, {"name": "accept", "value": "application/json"},
                                     {"name": "cookie", "value": cookie},
                                     {"name": "referer", "value": f"https://{host}/"},
                                     {"name": "user-agent", "value": "Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0"}],
                         "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": r.choice([200, 304, 500]), "statusText": "", "httpVersion": "HTTP/2",
                          "headers": [{"name": "content-type", "value": "application/json; charset=utf-8"},
                                      {"name": "x-request-id", "value": uuid4(r)},
                                      {"name": "cache-control", "value": "no-store"}],
                          "content": {"size": r.randrange(100, 9000), "mimeType": "application/json"},
                          "redirectURL": "", "headersSize": -1, "bodySize": -1},
             "cache": {}, "timings": {"send": 0.1, "wait": round(r.uniform(10, 800), 2), "receive": 0.4}}
    har = {"log": {"version": "1.2", "creator": dict(zip(("name", "version"), r.choice([("Firefox", "126.0"), ("WebInspector", "537.36"), ("Firefox", "128.0.3")]))),
                   "pages": [], "entries": [entry]}}
    return "session-cookie", val, json.dumps(har, indent=r.choice([1, 2])) + "\n", "har"


UNUSUAL_NAMES = ["partnerGatewayAuth", "x_hmac_seed", "ledgerBridgeKey", "tenantSigningMaterial",
                 "apiPassphrase", "svc_ticket", "upstreamCredential", "clearingHouseKey",
                 "legacyBackofficePin", "relay_shared", "feedIngestKey", "wmsConnectorSecret"]


def t_postman_environment(r):
    name = r.choice(UNUSUAL_NAMES)
    val = r.choice([rs(r, 40, ALNUM), rs(r, 64, HEX), b64(rb(r, 30)), rs(r, 32, ALNUM) + "-" + rs(r, 12, LOWNUM)])
    vals = [{"key": "baseUrl", "value": f"https://{r.choice(['api', 'sandbox', 'partner'])}.{domain(r)}/v{r.randrange(1, 4)}", "type": "default", "enabled": True},
            {"key": "tenantId", "value": str(r.randrange(1000, 99999)), "type": "default", "enabled": True},
            {"key": name, "value": val, "type": r.choice(["secret", "default"]), "enabled": True},
            {"key": "pageSize", "value": str(r.choice([20, 50, 100])), "type": "default", "enabled": True}]
    r.shuffle(vals)
    doc = {"id": uuid4(r), "name": f"{proj(r).capitalize()} {r.choice(['PROD', 'UAT', 'Staging'])}", "values": vals,
           "_postman_variable_scope": "environment",
           "_postman_exported_at": when(r).strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % r.randrange(1000),
           "_postman_exported_using": f"Postman/{r.choice(['10.24.3', '11.1.0', '11.2.14'])}"}
    return "generic-api-secret", val, json.dumps(doc, indent="\t") + "\n", "json"


def t_copy_as_curl(r):
    host = f"api.{domain(r)}"
    now = int(when(r).timestamp())
    payload = {"iss": f"https://auth.{domain(r)}/", "sub": r.choice([uuid4(r), "auth0|" + rs(r, 24, HEX)]),
               "aud": r.choice([f"https://{host}", "api"]), "iat": now, "exp": now + 3600,
               "scope": r.choice(["openid profile email", "read:orders write:orders", "offline_access"])}
    tok = jwt(r, payload, "RS256", kid=rs(r, 22, URLSAFE), sig_bytes=256)
    path = r.choice(["/v2/orders?status=open", "/graphql", "/v1/users/me", "/internal/reports/export"])
    ua = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
    hs = [("accept", "application/json, text/plain, */*"), ("accept-language", "en-US,en;q=0.9"),
          ("authorization", f"Bearer {tok}"), ("origin", f"https://app.{host[4:]}"),
          ("referer", f"https://app.{host[4:]}/"), ("sec-ch-ua", '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"'),
          ("sec-ch-ua-mobile", "?0"), ("sec-ch-ua-platform", '"macOS"'), ("sec-fetch-dest", "empty"),
          ("sec-fetch-mode", "cors"), ("sec-fetch-site", "same-site"), ("user-agent", ua)]
    if r.random() < 0.5:
        lines = [f"curl 'https://{host}{path}' \\"] + [f"  -H '{k}: {v}' \\" for k, v in hs]
        lines[-1] = lines[-1][:-2]
        if "graphql" in path:
            lines[-1] += " \\"
            lines.append("  --data-raw '{\"query\":\"{ viewer { id email } }\"}'")
    else:
        lines = [f"curl \"https://{host}{path}\" ^"] + [f"  -H \"{k}: {v.replace(chr(34), chr(94) + chr(34))}\" ^" for k, v in hs]
        lines[-1] = lines[-1][:-2]
    pre = r.choice([[], ["this returns 403 but works in the UI, copied from devtools:", ""],
                     ["repro:", "```"]])
    post = ["```"] if pre and pre[-1] == "```" else []
    return "jwt-bearer", tok, "\n".join(pre + lines + post) + "\n", "sh"


def t_copy_as_fetch(r):
    v = r.randrange(4)
    if v == 0:
        cname, val = "sessionid", rs(r, 32, LOWNUM)
    elif v == 1:
        cname, val = "__Host-session", rs(r, 43, URLSAFE)
    elif v == 2:
        cname, val = "SESSION", b64s(uuid4(r))
    else:
        cname, val = "_session_id", rs(r, 32, HEX)
    host = f"{r.choice(['shop', 'intranet', 'crm', 'beta'])}.{domain(r)}"
    path = r.choice(["/api/cart/", "/admin/users/?q=", "/api/notifications/unread", "/reports/export.csv"])
    heads = {"accept": "*/*", "accept-language": r.choice(["en-GB,en;q=0.9", "de-DE,de;q=0.9,en;q=0.8"]),
             "content-type": "application/json", "x-requested-with": "XMLHttpRequest",
             "cookie": f"{cname}={val}; " + r.choice(["cookie_consent=1", "django_language=en", "currency=EUR"]),
             "Referer": f"https://{host}/", "Referrer-Policy": "strict-origin-when-cross-origin"}
    method = r.choice(["GET", "POST"])
    lines = [f"fetch(\"https://{host}{path}\", {{", "  \"headers\": {"]
    items = list(heads.items())
    for k, (hk, hv) in enumerate(items):
        lines.append(f"    \"{hk}\": \"{hv}\"" + ("," if k < len(items) - 1 else ""))
    lines += ["  },", f"  \"body\": {'null' if method == 'GET' else json.dumps(json.dumps({'qty': r.randrange(1, 5)}))},",
              f"  \"method\": \"{method}\"", "});"]
    if r.random() < 0.5:
        lines = ["// Copy as fetch (Node.js) from Chrome", "const res = await " + lines[0]] + lines[1:]
        lines += ["console.log(res.status, await res.text());"]
    return "session-cookie", val, "\n".join(lines) + "\n", "js"


def slack_webhook(r):
    return (f"https://hooks.slack.com/services/T{rs(r, r.choice([8, 10]), UPNUM)}/"
            f"B{rs(r, r.choice([8, 10]), UPNUM)}/{rs(r, 24, ALNUM)}")


def t_slack_webhook_script(r):
    url = slack_webhook(r)
    v = r.randrange(3)
    if v == 0:
        var = r.choice(['SLACK_WEBHOOK', 'WEBHOOK_URL', 'HOOK', 'ALERT_HOOK'])
        lines = ["import json", "import sys", "import requests", "",
                 f"{var} = \"{url}\"", "",
                 "def notify(text, channel=None):",
                 "    payload = {\"text\": text}", "    if channel:", "        payload[\"channel\"] = channel",
                 f"    r = requests.post({var}, json=payload, timeout=5)",
                 "    r.raise_for_status()", "", "if __name__ == \"__main__\":",
                 "    notify(\" \".join(sys.argv[1:]) or \"backup finished\")"]
        ext = "py"
    elif v == 1:
        lines = ["#!/bin/sh", "# /etc/cron.daily/disk-alert", "USAGE=$(df / | awk 'NR==2 {print $5}' | tr -d %)",
                 f"if [ \"$USAGE\" -gt {r.choice([80, 85, 90])} ]; then",
                 "  curl -s -X POST -H 'Content-type: application/json' \\",
                 "    --data \"{\\\"text\\\":\\\"$(hostname): disk at ${USAGE}%\\\"}\" \\",
                 f"    {url}", "fi"]
        ext = "sh"
    else:
        lines = ["global:", "  resolve_timeout: 5m", f"  slack_api_url: '{url}'", "", "route:",
                 "  receiver: slack-ops", "  group_by: ['alertname', 'job']", "  group_wait: 30s",
                 "  repeat_interval: 4h", "", "receivers:", "  - name: slack-ops", "    slack_configs:",
                 f"      - channel: '#{r.choice(['alerts', 'ops-alerts', 'oncall'])}'", "        send_resolved: true",
                 "        title: '{{ .CommonLabels.alertname }}'"]
        ext = "yml"
    return "slack-webhook-url", url, "\n".join(lines) + "\n", ext


def telegram_token(r):
    return f"{r.randrange(10 ** 8, 8 * 10 ** 9)}:AA{rs(r, 33, URLSAFE)}"


def t_github_issue(r):
    tok = telegram_token(r)
    ver = semver(r)
    d = when(r)
    lines = ["### Describe the bug", "",
             f"After upgrading to v{ver} the bot stops answering commands. No errors, it just hangs after startup.",
             "", "### Steps to reproduce", "", "1. `docker compose up -d`", "2. send `/start` to the bot",
             "3. nothing happens", ""]
    if r.random() < 0.5:
        lines += ["### Config", "", "```yaml", "telegram:", f"  token: \"{tok}\"",
                  f"  chat_id: -100{r.randrange(10 ** 9, 10 ** 10)}", f"  poll_interval: {r.choice([1, 2, 5])}",
                  f"log_level: {r.choice(['debug', 'info'])}", "```", ""]
        d2 = d + timedelta(seconds=r.randrange(20, 90))
        lines += ["### Logs", "", "```", f"{d:%Y-%m-%d %H:%M:%S},{r.randrange(500):03d} INFO bot: starting",
                  f"{d2:%Y-%m-%d %H:%M:%S},{r.randrange(1000):03d} WARNING telegram.ext.Updater: Polling timed out", "```"]
    else:
        lines += ["### Logs", "", "```"]
        for k in range(r.randrange(3, 7)):
            d += timedelta(seconds=r.randrange(1, 11))
            lines.append(f"{d:%Y-%m-%d %H:%M:%S},{r.randrange(1000):03d} - httpx - INFO - HTTP Request: POST "
                         f"https://api.telegram.org/bot{tok}/getUpdates \"HTTP/1.1 200 OK\"")
        lines += ["```"]
    lines += ["", "### Environment", "", f"- OS: {r.choice(['Ubuntu 22.04', 'Debian 12', 'Raspberry Pi OS', 'Windows 11'])}",
              f"- Python: {r.choice(['3.10', '3.11', '3.12'])}", f"- python-telegram-bot: {r.choice(['20.7', '21.1', '21.3'])}"]
    return "telegram-bot-token", tok, "\n".join(lines) + "\n", "md"


def t_python_traceback(r):
    v = r.randrange(3)
    app = proj(r)
    if v == 0:
        pw = rs(r, 32, ALNUM)
        host = f"redis-{r.randrange(10000, 19999)}.c{r.randrange(1, 300)}.{r.choice(REGIONS)}-{r.randrange(1, 4)}.ec2.cloud.redislabs.com"
        src = f"    r = redis.Redis.from_url(\"redis://default:{pw}@{host}:{r.randrange(10000, 19999)}/0\")"
        tail = ["  File \"/usr/local/lib/python3.11/site-packages/redis/commands/core.py\", line 2389, in get",
                "    return self.execute_command(\"GET\", name, keys=[name])",
                f"redis.exceptions.ConnectionError: Error 110 connecting to {host}. Connection timed out."]
    elif v == 1:
        pw = rand_pw(r, r.randrange(14, 22), "")
        src = f"    conn = psycopg2.connect(host=\"{ip10(r)}\", dbname=\"{app}\", user=\"{app}_app\", password=\"{pw}\")"
        tail = ["  File \"/usr/local/lib/python3.11/site-packages/psycopg2/__init__.py\", line 122, in connect",
                "    conn = _connect(dsn, connection_factory=connection_factory, **kwasync)",
                "psycopg2.OperationalError: connection to server at \"10.0.4.12\", port 5432 failed: timeout expired"]
    else:
        pw = rs(r, 16, LOWER)
        src = f"    server.login(\"{first(r)}@{domain(r)}\", \"{pw}\")"
        tail = ["  File \"/usr/lib/python3.10/smtplib.py\", line 750, in login",
                "    raise last_exception",
                "smtplib.SMTPAuthenticationError: (535, b'5.7.8 Username and Password not accepted.')"]
    lines = ["Traceback (most recent call last):",
             f"  File \"/srv/{app}/{r.choice(['worker.py', 'jobs/sync.py', 'app/tasks.py', 'notify.py'])}\", line {r.randrange(20, 300)}, in {r.choice(['<module>', 'run', 'main', 'send_report'])}",
             src] + tail
    if r.random() < 0.5:
        lines = [f"$ python {r.choice(['worker.py', 'manage.py runjobs', '-m app.tasks'])}",
                 f"{when(r):%Y-%m-%d %H:%M:%S} INFO starting {app} worker"] + lines
    return ["redis-password-in-url", "database-password-in-code", "gmail-app-password-in-code"][v], pw, "\n".join(lines) + "\n", "txt"


def t_java_stacktrace(r):
    pw = rand_pw(r, r.randrange(16, 25), "")
    app, db = proj(r), proj(r)
    host = f"{r.choice(['mysql', 'aurora', 'db'])}.{domain(r)}"
    d = when(r)
    pid = r.randrange(1000, 60000)

    def L(lvl, logger, msg):
        nonlocal d
        d += timedelta(milliseconds=r.randrange(1, 400))
        return f"{d:%Y-%m-%d %H:%M:%S}.{d.microsecond // 1000:03d}  {lvl} {pid} --- [           main] {logger} : {msg}"
    url = f"jdbc:mysql://{host}:3306/{db}?user={app}&password={pw}&useSSL=true"
    lines = [L("INFO", "c.e.Application", f"Starting Application v{semver(r)} using Java 17.0.{r.randrange(1, 11)}"),
             L("DEBUG", "com.zaxxer.hikari.HikariConfig", "HikariPool-1 - configuration:"),
             L("DEBUG", "com.zaxxer.hikari.HikariConfig", "connectionTimeout...............30000"),
             L("DEBUG", "com.zaxxer.hikari.HikariConfig", f"jdbcUrl.........................{url}"),
             L("DEBUG", "com.zaxxer.hikari.HikariConfig", "maximumPoolSize.................10"),
             L("DEBUG", "com.zaxxer.hikari.HikariConfig", "password........................<masked>"),
             L("DEBUG", "com.zaxxer.hikari.HikariConfig", "username........................none"),
             L("INFO", "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Starting..."),
             L("ERROR", "com.zaxxer.hikari.pool.HikariPool", "HikariPool-1 - Exception during pool initialization."),
             "", "com.mysql.cj.jdbc.exceptions.CommunicationsException: Communications link failure",
             "\tat com.mysql.cj.jdbc.exceptions.SQLError.createCommunicationsException(SQLError.java:174)",
             "\tat com.mysql.cj.jdbc.ConnectionImpl.createNewIO(ConnectionImpl.java:815)",
             "\tat com.zaxxer.hikari.pool.PoolBase.newConnection(PoolBase.java:359)",
             "\tat com.zaxxer.hikari.pool.HikariPool.checkFailFast(HikariPool.java:554)",
             "Caused by: java.net.UnknownHostException: " + host,
             "\tat java.base/java.net.InetAddress$CachedAddresses.get(InetAddress.java:801)"]
    return "password-in-jdbc-url", pw, "\n".join(lines) + "\n", "log"


def sendgrid_key(r):
    return f"SG.{rs(r, 22, URLSAFE)}.{rs(r, 43, URLSAFE)}"


def t_helm_values(r):
    key = sendgrid_key(r)
    app = proj(r)
    lines = [f"replicaCount: {r.randrange(1, 5)}", "", "image:", f"  repository: ghcr.io/{org(r)}/{app}",
             f"  tag: \"{semver(r)}\"", "  pullPolicy: IfNotPresent", "", "ingress:", "  enabled: true",
             f"  className: {r.choice(['nginx', 'traefik'])}", "  hosts:", f"    - host: {app}.{domain(r)}",
             "      paths: [\"/\"]", ""]
    v = r.randrange(3)
    if v == 0:
        lines += ["mail:", "  smtp:", "    host: smtp.sendgrid.net", "    port: 587", "    user: apikey",
                  f"    password: {key}", f"  from: noreply@{domain(r)}"]
    elif v == 1:
        lines += ["env:", "  - name: EMAIL_BACKEND", "    value: sendgrid", "  - name: SENDGRID_API_KEY",
                  f"    value: \"{key}\"", "  - name: LOG_LEVEL", "    value: info"]
    else:
        lines += ["notifications:", "  provider: sendgrid", "  sendgrid:", f"    apiKey: '{key}'",
                  f"    templateId: d-{rs(r, 32, HEX)}"]
    lines += ["", "resources:", "  limits:", f"    memory: {r.choice(['256Mi', '512Mi', '1Gi'])}", "  requests:", "    cpu: 100m"]
    return "sendgrid-api-key", key, "\n".join(lines) + "\n", "yaml"


def t_gradle_properties(r):
    user = first(r) + r.choice(["", "-dev", str(r.randrange(10, 99))])
    mid = b64u(json.dumps({"u": user, "a": rs(r, 25, LOWNUM)}, separators=(",", ":")).encode())
    tok = f"sk.{mid}.{rs(r, 22, URLSAFE)}"
    lines = ["# Project-wide Gradle settings.", f"org.gradle.jvmargs=-Xmx{r.choice([2048, 4096])}m -Dfile.encoding=UTF-8",
             "android.useAndroidX=true", "kotlin.code.style=official", "android.nonTransitiveRClass=true",
             f"org.gradle.parallel={r.choice(['true', 'false'])}", "",
             "# Mapbox SDK download token (Downloads:Read scope)", f"MAPBOX_DOWNLOADS_TOKEN={tok}"]
    if r.random() < 0.5:
        lines = ["$ cat ~/.gradle/gradle.properties"] + lines
    if r.random() < 0.5:
        lines += ["", f"VERSION_NAME={semver(r)}", f"VERSION_CODE={r.randrange(10, 400)}"]
    return "mapbox-secret-token", tok, "\n".join(lines) + "\n", "properties"


def t_gitlab_ci(r):
    tok = "glpat-" + rs(r, 20, URLSAFE)
    grp = f"{org(r)}/{r.choice(['platform', 'infra', 'shared'])}"
    v = r.randrange(2)
    lines = ["stages:", "  - build", "  - deploy", "", "variables:", f"  DOCKER_DRIVER: overlay2"]
    if v == 0:
        lines += ["", "build:", "  stage: build", f"  image: {r.choice(['node:20', 'python:3.12', 'golang:1.22'])}",
                  "  script:", f"    - git clone https://oauth2:{tok}@gitlab.com/{grp}/{proj(r)}-common.git vendor/common",
                  "    - make build", "  artifacts:", "    paths: [dist/]"]
    else:
        lines.insert(6, f"  {r.choice(['GITLAB_API_TOKEN', 'GL_TOKEN', 'RENOVATE_TOKEN', 'SEMREL_TOKEN'])}: \"{tok}\"")
        lines += ["", "release:", "  stage: deploy", "  image: node:20", "  script:",
                  "    - npx semantic-release", "  rules:", "    - if: $CI_COMMIT_BRANCH == \"main\""]
    return "gitlab-pat", tok, "\n".join(lines) + "\n", "yml"


def t_npmrc(r):
    tok = crc_token(r, "npm_")
    scope = "@" + org(r)
    v = r.randrange(3)
    if v == 0:
        lines = ["$ cat ~/.npmrc", f"//registry.npmjs.org/:_authToken={tok}",
                 f"{scope}:registry=https://registry.npmjs.org/", "save-exact=true",
                 f"init-author-name={fullname(r)}"]
    elif v == 1:
        lines = ["FROM node:20-alpine AS deps", "WORKDIR /app", "COPY package.json package-lock.json ./",
                 f"RUN echo \"//registry.npmjs.org/:_authToken={tok}\" > .npmrc && \\",
                 "    npm ci --omit=dev && \\", "    rm -f .npmrc", "", "FROM node:20-alpine",
                 "WORKDIR /app", "COPY --from=deps /app/node_modules ./node_modules", "COPY . .",
                 "CMD [\"node\", \"server.js\"]"]
    else:
        lines = ["# project .npmrc", f"{scope}:registry=https://registry.npmjs.org/",
                 f"//registry.npmjs.org/:_authToken=\"{tok}\"", "engine-strict=true", "fund=false", "audit=false"]
    return "npm-access-token", tok, "\n".join(lines) + "\n", "txt"


def pypi_token(r):
    ident = uuid4(r).encode()
    cav = json.dumps({"version": 1, "permissions": r.choice(["user", {"projects": [proj(r)]}])}).encode()
    blob = (b"\x02\x01\x08pypi.org\x02" + bytes([len(ident)]) + ident + b"\x00\x02" + bytes([len(cav)]) + cav
            + b"\x00\x00\x06\x20" + rb(r, 32))
    return "pypi-" + b64u(blob)


def t_pypirc(r):
    tok = pypi_token(r)
    lines = ["[distutils]", "index-servers =", "    pypi", "    testpypi", "", "[pypi]",
             "username = __token__", f"password = {tok}", "", "[testpypi]",
             "repository = https://test.pypi.org/legacy/", "username = __token__"]
    if r.random() < 0.5:
        lines = ["$ cat ~/.pypirc"] + lines + ["", "$ twine upload dist/*",
                                               "Uploading distributions to https://upload.pypi.org/legacy/",
                                               f"Uploading {proj(r)}-{semver(r)}-py3-none-any.whl"]
    return "pypi-api-token", tok, "\n".join(lines) + "\n", "txt"


def t_node_mongodb(r):
    pw = rs(r, 16, ALNUM)
    user = r.choice(["admin", first(r), "app", proj(r) + "-svc", "dbUser"])
    cl = f"cluster{r.randrange(0, 4)}.{rs(r, 5, LOWNUM)}.mongodb.net"
    uri = f"mongodb+srv://{user}:{pw}@{cl}/{proj(r)}?retryWrites=true&w=majority"
    if r.random() < 0.5:
        lines = ["const express = require('express');", "const mongoose = require('mongoose');", "",
                 "const app = express();", "app.use(express.json());", "",
                 f"mongoose.connect('{uri}')", "  .then(() => console.log('MongoDB connected'))",
                 "  .catch(err => console.error(err));", "",
                 "app.get('/api/items', async (req, res) => {", "  res.json(await Item.find().limit(50));", "});", "",
                 f"app.listen({r.choice([3000, 5000, 8080])}, () => console.log('listening'));"]
        ext = "js"
    else:
        lines = ["import { MongoClient, ServerApiVersion } from \"mongodb\";", "",
                 f"const uri = \"{uri}\";", "",
                 "const client = new MongoClient(uri, {", "  serverApi: { version: ServerApiVersion.v1, strict: true },",
                 "});", "", "export async function db() {", "  await client.connect();",
                 f"  return client.db(\"{proj(r)}\");", "}"]
        ext = "ts"
    return "password-in-mongodb-uri", pw, "\n".join(lines) + "\n", ext


def t_kafka_client(r):
    key = rs(r, 16, UPNUM)
    sec = rs(r, 64, B64CH)
    boot = f"pkc-{rs(r, 5, LOWNUM)}.{r.choice(REGIONS)}.aws.confluent.cloud:9092"
    if r.random() < 0.5:
        lines = ["# Required connection configs for Kafka producer, consumer, and admin",
                 f"bootstrap.servers={boot}", "security.protocol=SASL_SSL", "sasl.mechanism=PLAIN",
                 f"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username='{key}' password='{sec}';",
                 "", "# Best practice for higher availability in Apache Kafka clients prior to 3.0",
                 "session.timeout.ms=45000", "", "client.dns.lookup=use_all_dns_ips", "acks=all"]
    else:
        lines = [f"bootstrap.servers={boot}", "security.protocol=SASL_SSL", "sasl.mechanisms=PLAIN",
                 f"sasl.username={key}", f"sasl.password={sec}", f"group.id={proj(r)}-consumer",
                 "auto.offset.reset=earliest", "enable.auto.commit=false"]
    return "confluent-api-secret", sec, "\n".join(lines) + "\n", "properties"


def t_ios_plist(r):
    name = r.choice(["AlgoliaAdminKey", "BackendSharedSecret", "ANALYTICS_INGEST_SECRET", "SyncServiceKey", "ReportingHMAC"])
    val = rs(r, 32, HEX) if r.random() < 0.5 else rs(r, 48, ALNUM)
    app = proj(r).capitalize()
    entries = [("CFBundleDisplayName", f"<string>{app}</string>"),
               ("CFBundleShortVersionString", f"<string>{semver(r)}</string>"),
               ("APIBaseURL", f"<string>https://api.{domain(r)}</string>"),
               ("AlgoliaAppID", f"<string>{rs(r, 10, UPNUM)}</string>"),
               (name, f"<string>{val}</string>"),
               ("EnableCrashReporting", "<true/>" if r.random() < 0.5 else "<false/>")]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
             '<plist version="1.0">', "<dict>"]
    for k, v in entries:
        lines += [f"\t<key>{k}</key>", f"\t{v}"]
    lines += ["</dict>", "</plist>"]
    return "generic-api-secret", val, "\n".join(lines) + "\n", "plist"


def t_vault_cli_output(r):
    d = when(r)
    if r.random() < 0.5:
        path = f"{proj(r)}/{r.choice(['prod', 'staging', 'shared'])}"
        field = r.choice(["api_secret", "signing_key", "client_secret", "token", "webhook_secret"])
        val = r.choice([rs(r, 40, ALNUM), rs(r, 64, HEX), b64(rb(r, 33))])
        lines = [f"$ vault kv get secret/{path}", "====== Secret Path ======", f"secret/data/{path}", "",
                 "======= Metadata =======", "Key                Value", "---                -----",
                 f"created_time       {d:%Y-%m-%dT%H:%M:%S}.{r.randrange(10 ** 9)}Z", "custom_metadata    <nil>",
                 "deletion_time      n/a", "destroyed          false", f"version            {r.randrange(1, 12)}", "",
                 "====== Data ======", "Key              Value", "---              -----",
                 f"client_id        {rs(r, 20, LOWNUM)}", f"{field:<17}{val}"]
        kind = "generic-api-secret"
    else:
        role = r.choice(["readonly", "app-rw", "reporting"])
        val = "A1a-" + rs(r, 16, ALNUM)
        lines = [f"$ vault read database/creds/{role}", "Key                Value", "---                -----",
                 f"lease_id           database/creds/{role}/{rs(r, 24, ALNUM)}",
                 f"lease_duration     {r.choice(['1h', '24h', '768h'])}", "lease_renewable    true",
                 f"password           {val}",
                 f"username           v-token-{role}-{rs(r, 20, ALNUM)}-{int(d.timestamp())}"]
        kind = "database-password"
    return kind, val, "\n".join(lines) + "\n", "txt"


def t_systemd_unit(r):
    sid = "AC" + rs(r, 32, HEX)
    tok = rs(r, 32, HEX)
    svc = r.choice(["sms-notifier", "otp-gateway", "alertbridge", "doorbell-sms"])
    q = r.random() < 0.5
    env = [f"TWILIO_ACCOUNT_SID={sid}", f"TWILIO_AUTH_TOKEN={tok}", f"TWILIO_FROM=+1{r.randrange(2000000000, 9999999999)}"]
    lines = ["[Unit]", f"Description={svc.replace('-', ' ').title()}", "After=network-online.target",
             "Wants=network-online.target", "", "[Service]", "Type=simple", f"User={svc}",
             f"WorkingDirectory=/opt/{svc}"]
    lines += [f"Environment=\"{e}\"" if q else f"Environment={e}" for e in env]
    lines += [f"ExecStart=/opt/{svc}/venv/bin/python -m {svc.replace('-', '_')}", "Restart=on-failure",
              "RestartSec=5", "", "[Install]", "WantedBy=multi-user.target"]
    if r.random() < 0.5:
        lines = [f"$ systemctl cat {svc}.service", f"# /etc/systemd/system/{svc}.service"] + lines
    return "twilio-auth-token", tok, "\n".join(lines) + "\n", "service"


def t_nginx_conf(r):
    hdr = r.choice(["X-Relay-Sig", "X-Upstream-Auth", "X-Partner-Key", "X-Acme-Gateway-Token", "X-Internal-Secret", "Api-Key"])
    val = r.choice([rs(r, 40, ALNUM), rs(r, 48, HEX), rs(r, 36, URLSAFE)])
    up = r.choice(["partner_api", "legacy_backend", "geo_service", "billing_upstream"])
    lines = [f"upstream {up} {{", f"    server {r.choice(['api.', 'gw.', 'ext.'])}{domain(r)}:443;", "    keepalive 16;", "}", "",
             "server {", "    listen 443 ssl http2;", f"    server_name {proj(r)}.{domain(r)};", "",
             f"    ssl_certificate     /etc/letsencrypt/live/{proj(r)}/fullchain.pem;",
             f"    ssl_certificate_key /etc/letsencrypt/live/{proj(r)}/privkey.pem;", "",
             f"    location /{r.choice(['partner', 'ext', 'geo', 'api/v1/billing'])}/ {{",
             f"        proxy_pass https://{up}/;", "        proxy_set_header Host $proxy_host;",
             f"        proxy_set_header {hdr} \"{val}\";",
             "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
             "        proxy_ssl_server_name on;", "    }", "}"]
    return "generic-api-secret", val, "\n".join(lines) + "\n", "conf"


def anthropic_key(r):
    return "sk-ant-api03-" + rs(r, 93, URLSAFE) + "AA"


def t_go_source(r):
    key = anthropic_key(r)
    if r.random() < 0.5:
        lines = ["package main", "", "import (", "\t\"context\"", "\t\"fmt\"", "",
                 "\t\"github.com/anthropics/anthropic-sdk-go\"", "\t\"github.com/anthropics/anthropic-sdk-go/option\"", ")", "",
                 "func main() {", f"\tclient := anthropic.NewClient(option.WithAPIKey(\"{key}\"))",
                 "\tmsg, err := client.Messages.New(context.TODO(), anthropic.MessageNewParams{",
                 "\t\tMaxTokens: 1024,", "\t\tMessages: []anthropic.MessageParam{",
                 "\t\t\tanthropic.NewUserMessage(anthropic.NewTextBlock(\"hello\")),", "\t\t},",
                 "\t\tModel: anthropic.ModelClaudeSonnet4_20250514,", "\t})", "\tif err != nil {", "\t\tpanic(err)", "\t}",
                 "\tfmt.Println(msg.Content)", "}"]
    else:
        const = r.choice(["apiKey", "anthropicKey", "claudeKey"])
        lines = ["package llm", "", "import (", "\t\"bytes\"", "\t\"net/http\"", ")", "",
                 f"const {const} = \"{key}\"", "",
                 "func newRequest(body []byte) (*http.Request, error) {",
                 "\treq, err := http.NewRequest(\"POST\", \"https://api.anthropic.com/v1/messages\", bytes.NewReader(body))",
                 "\tif err != nil {", "\t\treturn nil, err", "\t}",
                 f"\treq.Header.Set(\"x-api-key\", {const})", "\treq.Header.Set(\"anthropic-version\", \"2023-06-01\")",
                 "\treq.Header.Set(\"content-type\", \"application/json\")", "\treturn req, nil", "}"]
    return "anthropic-api-key", key, "\n".join(lines) + "\n", "go"


def t_csharp_azure_storage(r):
    key = b64(rb(r, 64))
    acct = f"{org(r)}{r.choice(['prod', 'data', 'st', 'files'])}{r.randrange(10, 99)}"
    cs = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net"
    cont = r.choice(["invoices", "uploads", "exports", "images"])
    lines = ["using Azure.Storage.Blobs;", "using System;", "using System.Threading.Tasks;", "",
             f"namespace {proj(r).capitalize()}.Storage", "{", "    public class BlobUploader", "    {",
             f"        private const string ConnectionString = \"{cs}\";", "",
             "        public async Task UploadAsync(string path)", "        {",
             "            var service = new BlobServiceClient(ConnectionString);",
             f"            var container = service.GetBlobContainerClient(\"{cont}\");",
             "            await container.CreateIfNotExistsAsync();",
             "            var blob = container.GetBlobClient(System.IO.Path.GetFileName(path));",
             "            await blob.UploadAsync(path, overwrite: true);",
             "            Console.WriteLine($\"uploaded {blob.Uri}\");", "        }", "    }", "}"]
    return "azure-storage-account-key", key, "\n".join(lines) + "\n", "cs"


def t_support_email(r):
    tok = "shpat_" + rs(r, 32, HEX)
    cust = fullname(r)
    shop = f"{proj(r)}-{r.choice(['store', 'shop', 'goods', 'co'])}"
    d = when(r)
    lines = [f"From: {cust} <{cust.split()[0].lower()}@{domain(r)}>", f"To: support@{domain(r)}",
             f"Subject: Re: [#{r.randrange(10000, 99999)}] Orders not syncing since {d:%A}",
             f"Date: {d:%a, %d %b %Y %H:%M:%S} +0000", "Content-Type: text/plain; charset=UTF-8", "",
             "Hi,", "",
             r.choice(["As requested, here are the details of our private app so you can check the integration.",
                       "Your colleague asked for our API credentials, see below.",
                       "Still broken on our side. Sending the token again in case the old one was wrong:"]), "",
             f"Store: {shop}.myshopify.com",
             f"{r.choice(['Admin API access token', 'API token', 'Access token'])}: {tok}",
             f"API version: {d.year}-{r.choice(['01', '04', '07', '10'])}", "",
             "Orders placed after Tuesday are missing in the warehouse system. Let me know if you need anything else.",
             "", "Thanks,", cust.split()[0], "", f"On {d - timedelta(days=1):%a, %b %d, %Y} Support wrote:",
             "> Could you send us the store URL and confirm the app scopes?", "> Best regards, the support team"]
    return "shopify-access-token", tok, "\n".join(lines) + "\n", "eml"


def t_forum_post(r):
    key = "AIzaSy" + rs(r, 33, URLSAFE)
    v = r.randrange(2)
    title = r.choice(["Google Maps not loading - \"This page can't load Google Maps correctly\"",
                      "Geocoding API returns REQUEST_DENIED", "Places autocomplete stopped working"])
    lines = [f"**{title}**", "",
             "I followed the tutorial but get an error in the console. Here is my code:", ""]
    if v == 0:
        lines += ["```html", "<div id=\"map\" style=\"height:400px\"></div>",
                  f"<script async src=\"https://maps.googleapis.com/maps/api/js?key={key}&callback=initMap\"></script>",
                  "<script>", "  function initMap() {", "    new google.maps.Map(document.getElementById('map'), {",
                  f"      center: {{ lat: {r.uniform(-40, 60):.4f}, lng: {r.uniform(-120, 140):.4f} }}, zoom: 12", "    });",
                  "  }", "</script>", "```"]
    else:
        lines += ["```python", "import requests", "",
                  f"params = {{\"address\": \"{r.randrange(1, 999)} Main St\", \"key\": \"{key}\"}}",
                  "r = requests.get(\"https://maps.googleapis.com/maps/api/geocode/json\", params=params)",
                  "print(r.json())", "```", "", "output:", "```",
                  "{'error_message': 'This API project is not authorized to use this API.', 'results': [], 'status': 'REQUEST_DENIED'}", "```"]
    lines += ["", "Billing is enabled. What am I missing?", "", f"*asked {r.randrange(2, 50)} mins ago by {first(r)}{r.randrange(10, 999)}*"]
    return "google-api-key", key, "\n".join(lines) + "\n", "md"


def t_jenkinsfile(r):
    tok = "hf_" + rs(r, 34, string.ascii_letters)
    model = f"{org(r)}/{proj(r)}-{r.choice(['bert', 'llama-ft', 'classifier', 'embed'])}"
    var = r.choice(["HF_TOKEN", "HUGGINGFACE_TOKEN", "HUGGING_FACE_HUB_TOKEN"])
    lines = ["pipeline {", f"    agent {{ label '{r.choice(['gpu', 'linux', 'docker'])}' }}", "    environment {",
             f"        {var} = '{tok}'", f"        MODEL_ID = '{model}'", "    }", "    stages {",
             "        stage('Train') {", "            steps {", "                sh 'python train.py --epochs 3'",
             "            }", "        }", "        stage('Push') {", "            steps {",
             f"                sh 'huggingface-cli upload $MODEL_ID ./output --token ${var}'", "            }", "        }",
             "    }", "    post {", "        always { cleanWs() }", "    }", "}"]
    return "huggingface-token", tok, "\n".join(lines) + "\n", "groovy"


def t_slack_bot_ts(r):
    tok = f"xoxb-{r.randrange(10 ** 10, 10 ** 13)}-{r.randrange(10 ** 10, 10 ** 13)}-{rs(r, 24, ALNUM)}"
    lines = ["import { App } from \"@slack/bolt\";", "", "const app = new App({", f"  token: \"{tok}\",",
             "  signingSecret: process.env.SLACK_SIGNING_SECRET,",
             f"  socketMode: {r.choice(['true', 'false'])},", "  appToken: process.env.SLACK_APP_TOKEN,", "});", "",
             f"app.command(\"/{r.choice(['deploy', 'oncall', 'standup', 'lunch'])}\", async ({{ ack, respond, command }}) => {{",
             "  await ack();", "  await respond(`ok <@${command.user_id}>, working on it`);", "});", "",
             "(async () => {", f"  await app.start({r.choice([3000, 8080])});", "  console.log(\"bolt app running\");", "})();"]
    return "slack-bot-token", tok, "\n".join(lines) + "\n", "ts"


def t_wireguard_conf(r):
    priv = b64(rb(r, 32))
    lines = ["[Interface]", f"PrivateKey = {priv}", f"Address = 10.{r.randrange(0, 255)}.0.{r.randrange(2, 250)}/32",
             f"DNS = {r.choice(['1.1.1.1', '10.8.0.1', '192.168.1.1'])}", "", "[Peer]", f"PublicKey = {b64(rb(r, 32))}",
             f"AllowedIPs = {r.choice(['0.0.0.0/0, ::/0', '10.8.0.0/24, 192.168.1.0/24'])}",
             f"Endpoint = {r.choice(['vpn.', 'home.', 'wg.'])}{domain(r)}:{r.choice([51820, 51821, 443])}",
             "PersistentKeepalive = 25"]
    if r.random() < 0.5:
        lines = ["$ sudo cat /etc/wireguard/wg0.conf"] + lines + ["$ sudo wg-quick up wg0", "[#] ip link add wg0 type wireguard",
                                                                  "[#] wg setconf wg0 /dev/fd/63", "[#] ip -4 address add 10.8.0.2/32 dev wg0"]
    return "wireguard-private-key", priv, "\n".join(lines) + "\n", "conf"


def t_django_settings(r):
    ch = "abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*(-_=+)"
    key = ("django-insecure-" if r.random() < 0.5 else "") + rs(r, 50, ch)
    app = proj(r)
    lines = ["from pathlib import Path", "import os", "", "BASE_DIR = Path(__file__).resolve().parent.parent", "",
             "# SECURITY WARNING: keep the secret key used in production secret!", f"SECRET_KEY = '{key}'", "",
             f"DEBUG = {r.choice(['True', 'False'])}", "", f"ALLOWED_HOSTS = ['{app}.{domain(r)}', 'localhost']", "",
             "INSTALLED_APPS = [", "    'django.contrib.admin', 'django.contrib.auth', 'django.contrib.contenttypes',",
             "    'django.contrib.sessions', 'django.contrib.messages', 'django.contrib.staticfiles',", f"    '{app}',", "]", "",
             "DATABASES = {", "    'default': {", "        'ENGINE': 'django.db.backends.postgresql',",
             f"        'NAME': os.environ.get('DB_NAME', '{app}'),", "        'PASSWORD': os.environ['DB_PASSWORD'],",
             "        'HOST': os.environ.get('DB_HOST', 'localhost'),", "    }", "}"]
    return "django-secret-key", key, "\n".join(lines) + "\n", "py"


def t_az_sp_output(r):
    sec = rs(r, 3, ALNUM) + "8Q~" + rs(r, 34, ALNUM + "_.~-")
    name = r.choice([f"sp-{proj(r)}-github", f"{proj(r)}-terraform", "http://ci-deployer", f"{org(r)}-aks-sp"])
    sub = uuid4(r)
    role = r.choice(['Contributor', 'Reader', 'AcrPush'])
    scope = f"/subscriptions/{sub}/resourceGroups/rg-{proj(r)}"
    lines = [f"$ az ad sp create-for-rbac --name {name} --role {role} --scopes {scope}",
             f"Creating '{role}' role assignment under scope '{scope}'",
             "The output includes credentials that you must protect. Be sure that you do not include these credentials in your code or check the credentials into your source control. For more information, see https://aka.ms/azadsp-cli",
             "{", f"  \"appId\": \"{uuid4(r)}\",", f"  \"displayName\": \"{name}\",", f"  \"password\": \"{sec}\",",
             f"  \"tenant\": \"{uuid4(r)}\"", "}"]
    return "azure-client-secret", sec, "\n".join(lines) + "\n", "txt"


GENERATED = [
    ("github-actions-log", t_github_actions_log), ("dotenv-stripe", t_dotenv_stripe),
    ("aws-credentials", t_aws_credentials), ("docker-config", t_docker_config),
    ("openssh-key-cat", t_openssh_key_cat), ("python-rsa-key", t_python_rsa_key),
    ("terraform-state", t_terraform_state), ("jupyter-notebook", t_jupyter_notebook),
    ("har-export", t_har_export), ("postman-environment", t_postman_environment),
    ("copy-as-curl", t_copy_as_curl), ("copy-as-fetch", t_copy_as_fetch),
    ("slack-webhook-script", t_slack_webhook_script), ("github-issue", t_github_issue),
    ("python-traceback", t_python_traceback), ("java-stacktrace", t_java_stacktrace),
    ("helm-values", t_helm_values), ("gradle-properties", t_gradle_properties),
    ("gitlab-ci", t_gitlab_ci), ("npmrc", t_npmrc), ("pypirc", t_pypirc),
    ("node-mongodb", t_node_mongodb), ("kafka-client", t_kafka_client), ("ios-plist", t_ios_plist),
    ("vault-cli-output", t_vault_cli_output), ("systemd-unit", t_systemd_unit),
    ("nginx-conf", t_nginx_conf), ("go-source", t_go_source),
    ("csharp-azure-storage", t_csharp_azure_storage), ("support-email", t_support_email),
    ("forum-post", t_forum_post), ("jenkinsfile", t_jenkinsfile), ("slack-bot-ts", t_slack_bot_ts),
    ("wireguard-conf", t_wireguard_conf), ("django-settings", t_django_settings),
    ("az-sp-output", t_az_sp_output),
]
TEMPLATES = HUMAN + GENERATED


# ---------------------------------------------------------------- clean families
NPM_PKGS = ["lodash", "react", "react-dom", "axios", "chalk", "debug", "semver", "commander", "express",
            "minimist", "uuid", "yargs", "ms", "tslib", "zod", "vite", "esbuild", "rollup", "postcss", "glob"]
PY_PKGS = ["requests", "urllib3", "idna", "certifi", "charset-normalizer", "pydantic", "typing-extensions",
           "click", "jinja2", "markupsafe", "attrs", "packaging", "pyyaml", "six", "rich", "anyio"]
GO_MODS = ["github.com/spf13/cobra", "github.com/stretchr/testify", "golang.org/x/sys", "golang.org/x/net",
           "github.com/google/uuid", "go.uber.org/zap", "github.com/pkg/errors", "gopkg.in/yaml.v3",
           "github.com/sirupsen/logrus", "google.golang.org/protobuf"]
CRATES = ["serde", "serde_json", "tokio", "anyhow", "thiserror", "clap", "regex", "rand", "bytes", "libc", "syn", "quote"]


def c_lockfile_integrity(r):
    v = r.randrange(5)
    if v == 0:
        pk = {}
        for p in r.sample(NPM_PKGS, r.randrange(3, 6)):
            ver = semver(r)
            e = {"version": ver, "resolved": f"https://registry.npmjs.org/{p}/-/{p}-{ver}.tgz",
                 "integrity": "sha512-" + b64(rb(r, 64))}
            if r.random() < 0.4:
                e["dev"] = True
            if r.random() < 0.3:
                e["license"] = "MIT"
            pk[f"node_modules/{p}"] = e
        return json.dumps({"packages": pk}, indent=2)[1:-2].strip() + "\n", "json"
    if v == 1:
        lines = ["# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.", "# yarn lockfile v1", ""]
        for p in r.sample(NPM_PKGS, r.randrange(3, 7)):
            ver = semver(r)
            lines += [f"{p}@^{ver}:", f"  version \"{ver}\"",
                      f"  resolved \"https://registry.yarnpkg.com/{p}/-/{p}-{ver}.tgz#{rs(r, 40, HEX)}\"",
                      f"  integrity sha512-{b64(rb(r, 64))}", ""]
        return "\n".join(lines), "lock"
    if v == 2:
        lines = []
        for m in r.sample(GO_MODS, r.randrange(3, 8)):
            ver = "v" + semver(r)
            lines += [f"{m} {ver} h1:{b64(rb(r, 32))}", f"{m} {ver}/go.mod h1:{b64(rb(r, 32))}"]
        return "\n".join(lines) + "\n", "sum"
    if v == 3:
        lines = []
        for p in r.sample(PY_PKGS, r.randrange(2, 5)):
            ver = semver(r)
            lines += ["[[package]]", f"name = \"{p}\"", f"version = \"{ver}\"", "description = \"\"",
                      "optional = false", "python-versions = \">=3.8\"", "files = [",
                      f"    {{file = \"{p.replace('-', '_')}-{ver}-py3-none-any.whl\", hash = \"sha256:{rs(r, 64, HEX)}\"}},",
                      f"    {{file = \"{p.replace('-', '_')}-{ver}.tar.gz\", hash = \"sha256:{rs(r, 64, HEX)}\"}},", "]", ""]
        return "\n".join(lines), "lock"
    lines = ["# This file is automatically @generated by Cargo.", "# It is not intended for manual editing.", "version = 3", ""]
    for c in r.sample(CRATES, r.randrange(3, 7)):
        lines += ["[[package]]", f"name = \"{c}\"", f"version = \"{semver(r)}\"",
                  "source = \"registry+https://github.com/rust-lang/crates.io-index\"", f"checksum = \"{rs(r, 64, HEX)}\"", ""]
    return "\n".join(lines), "lock"


def c_checksum_listings(r):
    name = proj(r)
    ver = semver(r)
    files = [f"{name}-{ver}-{os_}-{arch}.{ext}" for os_, arch, ext in
             r.sample([("linux", "amd64", "tar.gz"), ("linux", "arm64", "tar.gz"), ("darwin", "arm64", "tar.gz"),
                       ("darwin", "amd64", "tar.gz"), ("windows", "amd64", "zip"), ("freebsd", "amd64", "tar.gz")], r.randrange(3, 6))]
    v = r.randrange(4)
    if v == 0:
        lines = [f"$ curl -sL https://github.com/{org(r)}/{name}/releases/download/v{ver}/SHA256SUMS"] + \
                [f"{rs(r, 64, HEX)}  {f}" for f in files] + [f"$ sha256sum -c SHA256SUMS --ignore-missing", f"{files[0]}: OK"]
    elif v == 1:
        lines = ["PS> Get-FileHash .\\" + files[-1] + " -Algorithm SHA256 | Format-List", "",
                 "Algorithm : SHA256", f"Hash      : {rs(r, 64, UHEX)}", f"Path      : C:\\Users\\{first(r)}\\Downloads\\{files[-1]}",
                 "", "PS> certutil -hashfile .\\" + files[-1] + " MD5", f"MD5 hash of .\\{files[-1]}:", rs(r, 32, HEX),
                 "CertUtil: -hashfile command completed successfully."]
    elif v == 2:
        lines = [f"class {name.capitalize()} < Formula", f"  desc \"Fast {name} CLI\"", f"  homepage \"https://{name}.dev\"",
                 f"  url \"https://github.com/{org(r)}/{name}/archive/refs/tags/v{ver}.tar.gz\"",
                 f"  sha256 \"{rs(r, 64, HEX)}\"", "  license \"Apache-2.0\"", "", "  bottle do",
                 f"    sha256 cellar: :any_skip_relocation, arm64_sonoma: \"{rs(r, 64, HEX)}\"",
                 f"    sha256 cellar: :any_skip_relocation, x86_64_linux: \"{rs(r, 64, HEX)}\"", "  end", "",
                 "  depends_on \"go\" => :build", "end"]
    else:
        lines = [f"$ shasum -a 512 {name}-{ver}.iso", f"{rs(r, 128, HEX)}  {name}-{ver}.iso",
                 f"$ md5sum *.img", ] + [f"{rs(r, 32, HEX)}  {f.replace('.tar.gz', '.img').replace('.zip', '.img')}" for f in files[:3]]
    return "\n".join(lines) + "\n", "txt"


def c_git_history(r):
    v = r.randrange(3)
    msgs = ["Fix null check in parser", "Bump lodash from 4.17.20 to 4.17.21", "Add retry to upload job",
            "Merge pull request #%d from %s/feature" % (r.randrange(100, 3000), first(r)), "Update README",
            "Refactor auth middleware", "chore: release v" + semver(r), "fix(api): handle empty body",
            "Remove unused imports", "docs: clarify setup steps", "ci: cache pip downloads"]
    d = when(r)
    if v == 0:
        lines = []
        for _ in range(r.randrange(2, 5)):
            who = fullname(r)
            d -= timedelta(hours=r.randrange(1, 60))
            lines += [f"commit {rs(r, 40, HEX)}", f"Author: {who} <{who.split()[0].lower()}@{domain(r)}>",
                      f"Date:   {d:%a %b %d %H:%M:%S %Y} {r.choice(['+0000', '+0200', '-0500'])}", "", f"    {r.choice(msgs)}", ""]
        return "\n".join(lines), "txt"
    if v == 1:
        lines = ["$ git log --oneline --graph -n 12"]
        for k in range(r.randrange(6, 13)):
            lines.append(f"{r.choice(['*', '*', '| *', '*   '])} {rs(r, 7, HEX)} {r.choice(msgs)}")
        lines += ["$ git rev-parse HEAD", rs(r, 40, HEX), "$ git describe --tags", f"v{semver(r)}-{r.randrange(1, 40)}-g{rs(r, 7, HEX)}"]
        return "\n".join(lines) + "\n", "txt"
    f = r.choice(["src/app.py", "lib/client.js", "cmd/main.go", "README.md"])
    lines = [f"$ git show --stat {rs(r, 12, HEX)}", f"commit {rs(r, 40, HEX)}", f"Author: {fullname(r)} <dev@{domain(r)}>",
             f"Date:   {d:%a %b %d %H:%M:%S %Y} +0000", "", f"    {r.choice(msgs)}", "",
             f" {f} | {r.randrange(1, 40)} {'+' * r.randrange(1, 9)}{'-' * r.randrange(0, 5)}", " 1 file changed",
             "$ git diff HEAD~1 -- " + f, f"diff --git a/{f} b/{f}", f"index {rs(r, 7, HEX)}..{rs(r, 7, HEX)} 100644",
             f"--- a/{f}", f"+++ b/{f}", f"@@ -{r.randrange(1, 200)},6 +{r.randrange(1, 200)},7 @@", "-    retries = 1", "+    retries = 3"]
    return "\n".join(lines) + "\n", "txt"


def c_container_digests(r):
    img = r.choice(["nginx", "postgres", "redis", "python", "node", "alpine", "grafana/grafana", "bitnami/kafka"])
    tag = r.choice(["latest", "1.27", "16", "7.2", "3.12-slim", "20-alpine", "3.20"])
    v = r.randrange(3)
    if v == 0:
        lines = [f"$ docker pull {img}:{tag}", f"{tag}: Pulling from {img if '/' in img else 'library/' + img}"]
        for _ in range(r.randrange(3, 8)):
            lines.append(f"{rs(r, 12, HEX)}: Pull complete")
        lines += [f"Digest: sha256:{rs(r, 64, HEX)}", f"Status: Downloaded newer image for {img}:{tag}", f"docker.io/{img}:{tag}"]
    elif v == 1:
        lines = ["$ docker images --digests", "REPOSITORY        TAG       DIGEST                                                                    IMAGE ID       CREATED        SIZE"]
        for _ in range(r.randrange(3, 7)):
            lines.append(f"{r.choice(['nginx', 'redis', 'postgres', proj(r)]):<17} {r.choice(['latest', 'alpine', semver(r)]):<9} sha256:{rs(r, 64, HEX)}   {rs(r, 12, HEX)}   {r.randrange(2, 11)} days ago     {r.randrange(20, 900)}MB")
    else:
        lines = ["$ kubectl get pods -n " + proj(r) + " -o jsonpath='{range .items[*]}{.status.containerStatuses[0].imageID}{\"\\n\"}{end}'"]
        for _ in range(r.randrange(3, 6)):
            lines.append(f"ghcr.io/{org(r)}/{proj(r)}@sha256:{rs(r, 64, HEX)}")
        lines += ["", "spec:", "  containers:", f"    - image: {img}@sha256:{rs(r, 64, HEX)}", "      imagePullPolicy: IfNotPresent"]
    return "\n".join(lines) + "\n", "txt"


def c_html_sri_csp(r):
    nonce = b64(rb(r, 16))
    libs = [("https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/js/bootstrap.bundle.min.js", "sha384", 48),
            ("https://code.jquery.com/jquery-3.7.1.min.js", "sha256", 32),
            ("https://unpkg.com/htmx.org@1.9.12", "sha384", 48),
            ("https://cdnjs.cloudflare.com/ajax/libs/alpinejs/3.13.10/cdn.min.js", "sha512", 64)]
    lines = ["<!doctype html>", "<html lang=\"en\">", "<head>", "  <meta charset=\"utf-8\">",
             f"  <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; script-src 'self' 'nonce-{nonce}' 'sha256-{b64(rb(r, 32))}'; object-src 'none'\">",
             f"  <title>{proj(r).capitalize()}</title>",
             f"  <link rel=\"stylesheet\" href=\"https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/css/bootstrap.min.css\" integrity=\"sha384-{b64(rb(r, 48))}\" crossorigin=\"anonymous\">"]
    for u, alg, n in r.sample(libs, r.randrange(1, 4)):
        lines.append(f"  <script src=\"{u}\" integrity=\"{alg}-{b64(rb(r, n))}\" crossorigin=\"anonymous\"></script>")
    lines += [f"  <script nonce=\"{nonce}\">window.__BUILD__ = \"{rs(r, 8, HEX)}\";</script>", "</head>", "<body>",
              f"  <div id=\"app\" data-version=\"{semver(r)}\"></div>", "</body>", "</html>"]
    return "\n".join(lines) + "\n", "html"


def rsa_pub_blob(r, bits=2048):
    return sshstr(b"ssh-rsa") + sshstr(b"\x01\x00\x01") + sshstr(b"\x00" + topbit(rb(r, bits // 8)))


def c_ssh_public_keys(r):
    v = r.randrange(3)
    if v == 0:
        lines = [f"$ cat ~/.ssh/authorized_keys"]
        for _ in range(r.randrange(4, 8)):
            if r.random() < 0.5:
                lines.append(f"ssh-ed25519 {b64(ed25519_pub_blob(rb(r, 32)))} {first(r)}@{r.choice(['laptop', 'desktop', 'ci'])}")
            else:
                lines.append(f"ssh-rsa {b64(rsa_pub_blob(r, r.choice([2048, 3072])))} {first(r)}@{domain(r)}")
    elif v == 1:
        lines = ["$ ssh-keygen -lf ~/.ssh/id_ed25519.pub", f"256 SHA256:{b64(rb(r, 32)).rstrip('=')} {first(r)}@{proj(r)} (ED25519)",
                 "$ head -3 ~/.ssh/known_hosts"]
        for _ in range(r.randrange(3, 6)):
            lines.append(f"|1|{b64(rb(r, 20))}|{b64(rb(r, 20))} ssh-ed25519 {b64(ed25519_pub_blob(rb(r, 32)))}")
    else:
        host = f"{proj(r)}.{domain(r)}"
        lines = [f"$ ssh -v {first(r)}@{host}", f"OpenSSH_9.6p1 Ubuntu-3ubuntu13, OpenSSL 3.0.13 30 Jan 2024",
                 f"debug1: Connecting to {host} [{ip10(r)}] port 22.", "debug1: Connection established.",
                 "debug1: Remote protocol version 2.0, remote software version OpenSSH_8.9p1",
                 "debug1: kex: algorithm: curve25519-sha256", "debug1: SSH2_MSG_KEX_ECDH_REPLY received",
                 f"debug1: Server host key: ssh-ed25519 SHA256:{b64(rb(r, 32)).rstrip('=')}",
                 f"debug1: Host '{host}' is known and matches the ED25519 host key.",
                 "debug1: Found key in /home/u/.ssh/known_hosts:4",
                 f"debug1: Offering public key: /home/u/.ssh/id_ed25519 ED25519 SHA256:{b64(rb(r, 32)).rstrip('=')}",
                 "debug1: Authentications that can continue: publickey"]
    return "\n".join(lines) + "\n", "txt"


def fake_cert(r):
    return pem("CERTIFICATE", der(0x30, der(0x30, b"\xa0\x03\x02\x01\x02" + der_int(rb(r, 16)) + rb(r, r.randrange(600, 1000))) + rb(r, 270)))


def c_x509_certificates(r):
    v = r.randrange(3)
    cn = f"{r.choice(['www', 'api', 'mail', '*'])}.{domain(r)}"
    if v == 0:
        lines = [f"$ openssl s_client -connect {cn.replace('*', 'www')}:443 -showcerts </dev/null", "CONNECTED(00000003)",
                 f"depth=0 CN = {cn}", "---", "Certificate chain", f" 0 s:CN = {cn}", "   i:C = US, O = Let's Encrypt, CN = R11",
                 fake_cert(r), " 1 s:C = US, O = Let's Encrypt, CN = R11", "   i:C = US, O = Internet Security Research Group, CN = ISRG Root X1",
                 fake_cert(r), "---", "Server certificate", f"subject=CN = {cn}"]
    elif v == 1:
        serial = ":".join(wrap(rs(r, 32, HEX), 2))
        mod = ":".join(wrap("00" + rs(r, 256, HEX), 2))
        lines = ["$ openssl x509 -in server.crt -noout -text", "Certificate:", "    Data:", "        Version: 3 (0x2)",
                 "        Serial Number:", f"            {serial}", "        Signature Algorithm: sha256WithRSAEncryption",
                 f"        Issuer: C = US, O = {org(r).capitalize()} Internal CA", f"        Subject: CN = {cn}",
                 "        Subject Public Key Info:", "            Public Key Algorithm: rsaEncryption",
                 "                Public-Key: (1024 bit)", "                Modulus:"] + \
                ["                    " + ln for ln in wrap(mod, 45)] + \
                ["                Exponent: 65537 (0x10001)", "$ openssl x509 -in server.crt -noout -fingerprint -sha256",
                 "sha256 Fingerprint=" + ":".join(wrap(rs(r, 64, UHEX), 2))]
    else:
        ca = b64s(fake_cert(r) + "\n")
        cl = proj(r)
        lines = ["apiVersion: v1", "clusters:", "- cluster:", f"    certificate-authority-data: {ca}",
                 f"    server: https://{ip10(r)}:6443", f"  name: {cl}", "contexts:", "- context:", f"    cluster: {cl}",
                 f"    user: {first(r)}-oidc", f"  name: {cl}", f"current-context: {cl}", "kind: Config", "users:",
                 f"- name: {first(r)}-oidc", "  user:", "    exec:", "      apiVersion: client.authentication.k8s.io/v1beta1",
                 "      command: kubectl", "      args: [oidc-login, get-token, --oidc-issuer-url=https://sso.example.org]"]
    return "\n".join(lines) + "\n", "txt"


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def armor(label, body):
    return ([f"-----BEGIN PGP {label}-----", ""] + wrap(b64(body), 64)
            + ["=" + b64(crc24(body).to_bytes(3, "big")), f"-----END PGP {label}-----"])


def c_pgp_public(r):
    v = r.randrange(3)
    fp = rs(r, 40, UHEX)
    who = fullname(r)
    if v == 0:
        lines = ["$ gpg --list-keys --keyid-format long", "/home/%s/.gnupg/pubring.kbx" % first(r), "-" * 28,
                 f"pub   ed25519/{fp[-16:]} {when(r):%Y-%m-%d} [SC]", f"      {fp}",
                 f"uid                 [ultimate] {who} <{who.split()[0].lower()}@{domain(r)}>",
                 f"sub   cv25519/{rs(r, 16, UHEX)} {when(r):%Y-%m-%d} [E]", "",
                 "$ gpg --armor --export " + fp[-16:]] + armor("PUBLIC KEY BLOCK", b"\x98\x33\x04" + rb(r, r.randrange(200, 420)))
    elif v == 1:
        lines = [f"tree {rs(r, 40, HEX)}", f"parent {rs(r, 40, HEX)}", f"author {who} <dev@{domain(r)}> {int(when(r).timestamp())} +0100",
                 f"committer GitHub <noreply@github.com> {int(when(r).timestamp())} +0100", "gpgsig " + "\n ".join(armor("SIGNATURE", b"\xc2\xc0\x5c" + rb(r, 300))), "",
                 r.choice(["Merge pull request #12 from feature/x", "Update dependencies"])]
    else:
        lines = ["# add the vendor apt repo", f"curl -fsSL https://pkg.{domain(r)}/gpg.key | sudo gpg --dearmor -o /etc/apt/keyrings/{proj(r)}.gpg",
                 f"echo \"deb [signed-by=/etc/apt/keyrings/{proj(r)}.gpg] https://pkg.{domain(r)}/apt stable main\" | sudo tee /etc/apt/sources.list.d/{proj(r)}.list",
                 "", "# key fingerprint should be:", "#   " + " ".join(wrap(fp, 4)), "", "$ curl -s https://pkg.example/gpg.key"] + \
            armor("PUBLIC KEY BLOCK", b"\x99\x01\x0d\x04" + rb(r, r.randrange(200, 500)))
    return "\n".join(lines) + "\n", "txt"


def ulid(r):
    return rs(r, 26, CROCK)


def c_uuid_and_ids(r):
    v = r.randrange(3)
    if v == 0:
        obj = {"id": uuid4(r), "object": "order", "customer": "cus_" + rs(r, 14, ALNUM), "payment_intent": "pi_" + rs(r, 24, ALNUM),
               "charge": "ch_" + rs(r, 24, ALNUM), "created": int(when(r).timestamp()), "items": [
                   {"sku": "SKU-" + rs(r, 8, UPNUM), "line_id": ulid(r), "qty": r.randrange(1, 4)} for _ in range(r.randrange(1, 4))],
               "warehouse_ref": rs(r, 24, HEX), "trace": uuid4(r)}
        return json.dumps(obj, indent=2) + "\n", "json"
    if v == 1:
        d = when(r)
        lines = []
        for _ in range(r.randrange(6, 15)):
            d += timedelta(milliseconds=r.randrange(1, 3000))
            lines.append(f"{d:%Y-%m-%dT%H:%M:%S}.{r.randrange(1000):03d}Z {r.choice(['INFO', 'INFO', 'WARN', 'DEBUG'])} "
                         f"req_id={uuid4(r)} user_id={rs(r, 24, HEX)} job={ulid(r)} "
                         f"{r.choice(['enqueued', 'processed', 'retrying', 'acked', 'done'])} dur={r.randrange(1, 900)}ms")
        return "\n".join(lines) + "\n", "log"
    form = {"ToCountry": "US", "SmsMessageSid": "SM" + rs(r, 32, HEX), "NumMedia": "0", "SmsSid": "SM" + rs(r, 32, HEX),
            "SmsStatus": "received", "Body": r.choice(["STOP", "yes", "running late"]), "MessageSid": "SM" + rs(r, 32, HEX),
            "MessagingServiceSid": "MG" + rs(r, 32, HEX), "ApiVersion": "2010-04-01"}
    lines = ["POST /sms/inbound HTTP/1.1", "Content-Type: application/x-www-form-urlencoded", ""] + [f"{k}={v}" for k, v in form.items()]
    return "\n".join(lines) + "\n", "txt"


PH_VARS = ["DB_PASSWORD", "POSTGRES_PASSWORD", "REDIS_PASSWORD", "SMTP_PASSWORD", "API_KEY", "API_TOKEN", "JWT_SECRET",
           "SESSION_SECRET", "STRIPE_SECRET_KEY", "SENDGRID_API_KEY", "SLACK_BOT_TOKEN", "GITHUB_TOKEN", "OPENAI_API_KEY",
           "AWS_SECRET_ACCESS_KEY", "MAILGUN_API_KEY", "ADMIN_PASSWORD", "S3_SECRET", "ENCRYPTION_KEY", "WEBHOOK_SECRET",
           "TWILIO_AUTH_TOKEN", "RABBITMQ_PASSWORD", "LDAP_BIND_PASSWORD"]


def ph_value(r, var):
    low = var.lower()
    return r.choice(["changeme", "CHANGE_ME", "<your-%s>" % low.replace("_", "-"), "YOUR_%s_HERE" % var, "${%s}" % var,
                     "{{ %s }}" % low, "xxxxxxxxxxxxxxxxxxxxxxxx", "REPLACE_ME", "<%s>" % var, "%%(%s)s" % low, "",
                     "TODO", "secret", "your-%s-goes-here" % low.split("_")[0], "*" * r.randrange(6, 13),
                     "sk_live_" + "x" * 24 if "STRIPE" in var else "ghp_" + "X" * 36 if "GITHUB" in var else "dummy",
                     "$(cat /run/secrets/%s)" % low, "{{ vault_%s }}" % low, "null", "<redacted>"])


def c_placeholders(r):
    v = r.randrange(4)
    app = proj(r)
    vars_ = r.sample(PH_VARS, r.randrange(4, 9))
    if v == 0:
        lines = [r.choice(["# Copy to .env and fill in", "# .env.example", "# example values - do not use in prod",
                           f"# {app} sample environment"]), f"APP_NAME={app}", f"APP_ENV={r.choice(['local', 'development'])}"]
        for var in vars_:
            val = ph_value(r, var)
            lines.append(f"{var}={val}" if r.random() < 0.6 else f"{var}=\"{val}\"")
        return "\n".join(lines) + "\n", "example"
    if v == 1:
        lines = ["apiVersion: v1", "kind: ConfigMap", "metadata:", f"  name: {app}-config", "data:", "  config.yaml: |"]
        for var in vars_:
            lines.append(f"    {var.lower()}: \"{{{{ .Values.{r.choice(['secrets', 'auth', 'app'])}.{var.lower()} }}}}\""
                         if r.random() < 0.5 else f"    {var.lower()}: \"{ph_value(r, var)}\"")
        return "\n".join(lines) + "\n", "yaml"
    if v == 2:
        lines = [f"## Configuring {app}", "", r.choice(["Set the following before running:", "Export these variables:",
                                                        "You need to provide:"]), "", "```bash"]
        for var in vars_[:4]:
            lines.append(f"export {var}=\"{ph_value(r, var)}\"")
        lines += ["```", "", f"Or put them in `{r.choice(['config.toml', 'settings.ini', 'app.conf'])}`:", "", "```"]
        for var in vars_[4:] or vars_[:2]:
            lines.append(f"{var.lower()} = \"{ph_value(r, var)}\"")
        lines.append("```")
        return "\n".join(lines) + "\n", "md"
    lines = [f"# group_vars/{r.choice(['all', app, 'prod'])}/main.yml", "---", f"{app}_user: {r.choice(['app', 'svc', app])}"]
    for var in vars_:
        lines.append(f"{app}_{var.lower()}: \"{{{{ {r.choice(['vault_', 'secret_', ''])}{var.lower()} }}}}\""
                     if r.random() < 0.5 else f"{var.lower()}: \"{{{{ lookup('env', '{var}') | default('{ph_value(r, var)}') }}}}\"")
    return "\n".join(lines) + "\n", "yml"


def c_secret_store_refs(r):
    v = r.randrange(4)
    acct = rs(r, 12, string.digits)
    reg = r.choice(REGIONS)
    app = proj(r)
    vars_ = r.sample(PH_VARS, r.randrange(3, 7))
    if v == 0:
        lines = [f"# deployment/{app}.yaml (excerpt)", "env:"]
        for var in vars_:
            lines += [f"  - name: {var}", "    valueFrom:", "      secretKeyRef:",
                      f"        name: {app}-{r.choice(['secrets', 'creds', 'env', var.split('_')[0].lower()])}",
                      f"        key: {var.lower().replace('_', '-')}"]
        lines += ["envFrom:", "  - secretRef:", f"      name: {app}-env"]
    elif v == 1:
        lines = ["{", "  \"containerDefinitions\": [{", f"    \"name\": \"{app}\",", "    \"secrets\": ["]
        for k, var in enumerate(vars_):
            ref = (f"arn:aws:secretsmanager:{reg}:{acct}:secret:{r.choice(['prod', 'staging'])}/{app}/{var.lower()}-{rs(r, 6, ALNUM)}"
                   if r.random() < 0.5 else f"arn:aws:ssm:{reg}:{acct}:parameter/{app}/{var.lower()}")
            lines.append(f"      {{\"name\": \"{var}\", \"valueFrom\": \"{ref}\"}}" + ("," if k < len(vars_) - 1 else ""))
        lines += ["    ]", "  }]", "}"]
    elif v == 2:
        lines = [f"# .env.tpl  (op inject -i .env.tpl -o .env)  {app}"]
        vault = r.choice(["Production", "Dev", "Shared", app.capitalize()])
        for var in vars_:
            lines.append(f"{var}=" + r.choice([
                f"op://{vault}/{app}-{var.split('_')[0].lower()}/{r.choice(['password', 'credential', 'token'])}",
                f"vault:secret/data/{app}#{var.lower()}",
                f"@Microsoft.KeyVault(SecretUri=https://kv-{app}.vault.azure.net/secrets/{var.title().replace('_', '')}/{rs(r, 32, HEX)})",
                f"projects/{r.randrange(10 ** 11, 10 ** 12)}/secrets/{app}-{var.lower().replace('_', '-')}/versions/latest",
                f"doppler://{app}/{r.choice(['prd', 'stg'])}/{var}"]))
    else:
        lines = ["jobs:", "  deploy:", f"    runs-on: {r.choice(['ubuntu-latest', 'ubuntu-22.04', 'self-hosted'])}", "    steps:",
                 "      - uses: actions/checkout@v4", f"      - run: ./{r.choice(['deploy', 'release', 'ship'])}.sh", "        env:"]
        for var in vars_:
            lines.append(f"          {var}: ${{{{ secrets.{r.choice(['', 'PROD_', app.upper() + '_'])}{var} }}}}")
        lines.append(f"          DB_PASS: '{{{{resolve:secretsmanager:{app}-db:SecretString:password}}}}'")
    return "\n".join(lines) + "\n", "txt"


def c_masked_redacted(r):
    v = r.randrange(4)
    if v == 0:
        lines = ["$ aws configure list", "      Name                    Value             Type    Location",
                 "      ----                    -----             ----    --------",
                 "   profile                <not set>             None    None",
                 f"access_key     ****************{rs(r, 4, UPNUM)} shared-credentials-file",
                 f"secret_key     ****************{rs(r, 4, ALNUM)} shared-credentials-file",
                 f"    region                {r.choice(REGIONS)}      config-file    ~/.aws/config"]
    elif v == 1:
        host = r.choice(["github.com", f"github.{domain(r)}"])
        scopes = ", ".join(f"'{x}'" for x in sorted(r.sample(["gist", "read:org", "repo", "workflow", "admin:public_key", "delete_repo", "write:packages"], r.randrange(2, 6))))
        lines = ["$ gh auth status", host, f"  ✓ Logged in to {host} account {first(r)}{r.choice(['', str(r.randrange(1, 99))])} ({r.choice(['keyring', 'GH_CONFIG_DIR/hosts.yml'])})",
                 f"  - Active account: {r.choice(['true', 'false'])}", f"  - Git operations protocol: {r.choice(['https', 'ssh'])}",
                 f"  - Token: {r.choice(['gho', 'ghp', 'ghu'])}_************************************", f"  - Token scopes: {scopes}",
                 "", "$ heroku config -a " + proj(r), f"=== {proj(r)} Config Vars",
                 f"DATABASE_URL:  postgres://{rs(r, 14, LOWER)}:********@ec2-{ip10(r).replace('.', '-')}.compute-1.amazonaws.com:5432/{rs(r, 14, LOWNUM)}",
                 f"STRIPE_KEY:    sk_live_...{rs(r, 4, ALNUM)}", f"LOG_LEVEL:     {r.choice(['info', 'debug'])}"]
    elif v == 2:
        d = when(r)
        lines = [f"{d:%Y-%m-%dT%H:%M:%S}.{r.randrange(10 ** 7)}Z ##[group]Run ./deploy.sh",
                 f"{d:%Y-%m-%dT%H:%M:%S}.{r.randrange(10 ** 7)}Z env:",
                 f"{d:%Y-%m-%dT%H:%M:%S}.{r.randrange(10 ** 7)}Z   API_TOKEN: ***",
                 f"{d:%Y-%m-%dT%H:%M:%S}.{r.randrange(10 ** 7)}Z   DB_URL: postgres://app:***@db:5432/app",
                 f"{d:%Y-%m-%dT%H:%M:%S}.{r.randrange(10 ** 7)}Z ##[endgroup]",
                 f"{d:%Y-%m-%dT%H:%M:%S}.{r.randrange(10 ** 7)}Z Using key sk-...{rs(r, 4, ALNUM)} for requests",
                 f"{d:%Y-%m-%dT%H:%M:%S}.{r.randrange(10 ** 7)}Z Authorization: Bearer [REDACTED]"]
    else:
        lines = [f"$ kubectl describe secret {proj(r)}-db", f"Name:         {proj(r)}-db", "Namespace:    default",
                 "Type:  Opaque", "", "Data", "====", f"password:  {r.randrange(8, 40)} bytes", f"username:  {r.randrange(3, 12)} bytes",
                 "", "$ terraform plan | grep -A2 password", "      + password = (sensitive value)",
                 "      + master_password = (sensitive value)"]
    return "\n".join(lines) + "\n", "txt"


JWTIO = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
         "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
AZURITE = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
DOC_SNIPPETS = [
    ["$ aws configure", "AWS Access Key ID [None]: AKIAIOSFODNN7EXAMPLE",
     "AWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "Default region name [None]: us-west-2",
     "Default output format [None]: json"],
    ["The following is an example JWT from jwt.io:", "", JWTIO],
    ["Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==", "(RFC 7617: user-id \"Aladdin\", password \"open sesame\")"],
    ["HTTP/1.1 200 OK", "Content-Type: application/json;charset=UTF-8", "Cache-Control: no-store", "",
     "{", "  \"access_token\":\"2YotnFZFEjr1zCsicMWpAA\",", "  \"token_type\":\"example\",", "  \"expires_in\":3600,",
     "  \"refresh_token\":\"tGzv3JOkF0XG5Qx2TlKWIA\"", "}"],
    ["# Azurite (local emulator) well-known development account",
     "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + AZURITE + ";BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;"],
    ["curl https://api.stripe.com/v1/charges \\", "  -u sk_test_4eC39HqLyjWDarjtT1zdp7dc: \\", "  -d amount=2000 \\", "  -d currency=usd"],
    ["mongodb://myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com:27017/?authSource=admin"],
    ["postgresql://user:secret@localhost", "postgresql://other@localhost/otherdb?connect_timeout=10&application_name=myapp"],
    ["POST /token HTTP/1.1", "Host: server.example.com", "Authorization: Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW",
     "Content-Type: application/x-www-form-urlencoded", "", "grant_type=authorization_code&code=SplxlOBeZQQYbYS6WxSbIA",
     "&redirect_uri=https%3A%2F%2Fclient%2Eexample%2Ecom%2Fcb"],
    ["Sentry.init({ dsn: \"https://examplePublicKey@o0.ingest.sentry.io/0\" });"],
    ["curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"Hello, World!\"}' \\",
     "  https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"],
    ["const accountSid = 'ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX';", "const authToken = 'your_auth_token';",
     "const client = require('twilio')(accountSid, authToken);"],
]
DOC_SRC = ["the AWS CLI user guide (aws configure)", "jwt.io", "RFC 7617 section 2", "RFC 6749 section 5.1",
           "the Azurite / Azure Storage emulator docs", "the Stripe API reference", "the MongoDB connection-string docs",
           "the PostgreSQL libpq docs (connection URIs)", "RFC 6749 section 4.1.3", "the Sentry JavaScript docs",
           "Slack's incoming-webhooks guide", "the Twilio Node.js quickstart"]
DOC_VERBS = ["From {}:", "Example in {}:", "Copied verbatim from {}:", "As shown in {}:", "{} has this example:"]


def c_vendor_doc_examples(r):
    picks = r.sample(range(len(DOC_SNIPPETS)), r.randrange(1, 3))
    lines = [f"{r.choice(['Q', 'Note', 'FYI', 'Reading notes'])} ({when(r):%Y-%m-%d}): {r.choice(['working through the auth chapter', 'setting up the sample app', 'why does the example fail', 'onboarding doc draft'])}", ""]
    for p in picks:
        intro = r.choice(DOC_VERBS).format(DOC_SRC[p])
        lines += [intro[0].upper() + intro[1:], "", "```"] + DOC_SNIPPETS[p] + ["```", ""]
    lines.append(r.choice(["These are the documented example values, not real credentials.",
                           "Obviously replace with your own values.", "(example values from the docs)",
                           f"step {r.randrange(2, 9)} of the guide"]))
    return "\n".join(lines) + "\n", "md"


def c_encrypted_blobs(r):
    v = r.randrange(5)
    if v == 0:
        def enc(n, t="str"):
            return f"ENC[AES256_GCM,data:{b64(rb(r, n))},iv:{b64(rb(r, 32))},tag:{b64(rb(r, 16))},type:{t}]"
        lines = ["db:", f"    password: {enc(r.randrange(10, 24))}", f"    user: {enc(6)}", "api:", f"    token: {enc(r.randrange(30, 50))}",
                 "sops:", "    age:", f"        - recipient: age1{rs(r, 58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}",
                 "          enc: |", "            -----BEGIN AGE ENCRYPTED FILE-----"] + \
                ["            " + x for x in wrap(b64(rb(r, 190)), 64)] + ["            -----END AGE ENCRYPTED FILE-----",
                 f"    lastmodified: \"{iso(when(r))}\"", f"    mac: {enc(32)}", "    unencrypted_suffix: _unencrypted", "    version: 3.8.1"]
        return "\n".join(lines) + "\n", "yaml"
    if v == 1:
        lines = ["$ANSIBLE_VAULT;1.1;AES256"] + wrap(rs(r, r.choice([400, 560, 720]), HEX), 80)
        return "\n".join(lines) + "\n", "yml"
    if v == 2:
        lines = [f"{proj(r)}_db_password: !vault |", "          $ANSIBLE_VAULT;1.1;AES256"] + \
                ["          " + x for x in wrap(rs(r, 320, HEX), 80)] + [f"{proj(r)}_db_user: app"]
        return "\n".join(lines) + "\n", "yml"
    if v == 3:
        lines = ["apiVersion: bitnami.com/v1alpha1", "kind: SealedSecret", "metadata:", f"  name: {proj(r)}-creds",
                 f"  namespace: {proj(r)}", "spec:", "  encryptedData:",
                 f"    password: Ag{b64(rb(r, r.choice([360, 420])))}", f"    username: Ag{b64(rb(r, 360))}",
                 "  template:", "    metadata:", f"      name: {proj(r)}-creds"]
        return "\n".join(lines) + "\n", "yaml"
    lines = ["$ cat backup.key.asc"] + armor("MESSAGE", b"\x84\x5e\x03" + rb(r, r.randrange(250, 500))) + \
            ["$ openssl enc -aes-256-cbc -pbkdf2 -a -in notes.txt", *wrap("U2FsdGVkX1" + b64(rb(r, 120)), 64)]
    return "\n".join(lines) + "\n", "txt"


def c_publishable_keys(r):
    v = r.randrange(4)
    if v == 0:
        lines = ["import { loadStripe } from '@stripe/stripe-js';", "",
                 f"const stripePromise = loadStripe('pk_live_51{rs(r, 97, ALNUM)}');", "",
                 "export default function Checkout() {", "  // publishable key is safe to expose in the browser", "  return <Elements stripe={stripePromise}><Form/></Elements>;", "}"]
        ext = "jsx"
    elif v == 1:
        mid = b64u(json.dumps({"u": first(r), "a": rs(r, 25, LOWNUM)}, separators=(",", ":")).encode())
        lines = ["<script>", f"  mapboxgl.accessToken = 'pk.{mid}.{rs(r, 22, URLSAFE)}';",
                 "  const map = new mapboxgl.Map({", "    container: 'map',", "    style: 'mapbox://styles/mapbox/streets-v12',",
                 f"    center: [{r.uniform(-120, 30):.3f}, {r.uniform(-30, 60):.3f}], zoom: 9", "  });", "</script>"]
        ext = "html"
    elif v == 2:
        lines = ["import posthog from 'posthog-js'", "",
                 f"posthog.init('phc_{rs(r, 43, ALNUM)}', {{", "  api_host: 'https://eu.i.posthog.com',", "  person_profiles: 'identified_only',", "})", "",
                 "// Algolia: search-only key, safe for frontend",
                 f"const searchClient = algoliasearch('{rs(r, 10, UPNUM)}', '{rs(r, 32, HEX)}');"]
        ext = "js"
    else:
        ref = rs(r, 20, LOWER)
        now = int(when(r).timestamp())
        anon = jwt(r, {"iss": "supabase", "ref": ref, "role": "anon", "iat": now, "exp": now + 315360000})
        lines = ["# .env.local (exposed to the browser)", f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co",
                 f"NEXT_PUBLIC_SUPABASE_ANON_KEY={anon}", f"NEXT_PUBLIC_SITE_URL=https://{proj(r)}.{domain(r)}",
                 f"NEXT_PUBLIC_TURNSTILE_SITE_KEY=0x4AAAAAAA{rs(r, 14, ALNUM)}"]
        ext = "txt"
    return "\n".join(lines) + "\n", ext


def c_frontend_public_config(r):
    pid = f"{proj(r)}-{rs(r, 5, LOWNUM)}"
    sender = str(r.randrange(10 ** 11, 10 ** 12))
    v = r.randrange(3)
    if v == 0:
        lines = ["// Import the functions you need from the SDKs you need", "import { initializeApp } from \"firebase/app\";", "",
                 "const firebaseConfig = {", f"  apiKey: \"AIzaSy{rs(r, 33, URLSAFE)}\",", f"  authDomain: \"{pid}.firebaseapp.com\",",
                 f"  projectId: \"{pid}\",", f"  storageBucket: \"{pid}.appspot.com\",", f"  messagingSenderId: \"{sender}\",",
                 f"  appId: \"1:{sender}:web:{rs(r, 22, HEX)}\",", f"  measurementId: \"G-{rs(r, 10, UPNUM)}\"", "};", "",
                 "const app = initializeApp(firebaseConfig);"]
        ext = "js"
    elif v == 1:
        lines = ["import * as Sentry from \"@sentry/react\";", "", "Sentry.init({",
                 f"  dsn: \"https://{rs(r, 32, HEX)}@o{r.randrange(10 ** 5, 10 ** 7)}.ingest.{r.choice(['', 'us.', 'de.'])}sentry.io/{r.randrange(10 ** 6, 10 ** 7)}\",",
                 "  integrations: [Sentry.browserTracingIntegration()],", f"  tracesSampleRate: {r.choice(['0.1', '0.2', '1.0'])},",
                 f"  release: \"{proj(r)}@{semver(r)}\",", "});"]
        ext = "js"
    else:
        lines = ["<form action=\"/contact\" method=\"POST\">", "  <input name=\"email\" type=\"email\" required>",
                 f"  <div class=\"g-recaptcha\" data-sitekey=\"6L{rs(r, 38, URLSAFE)}\"></div>", "  <button type=\"submit\">Send</button>",
                 "</form>", "<script src=\"https://www.google.com/recaptcha/api.js\" async defer></script>",
                 f"<!-- google-services: project {pid}, sender {sender} -->"]
        ext = "html"
    return "\n".join(lines) + "\n", ext


def totp(secret, t, digits=8):
    msg = struct.pack(">Q", t // 30)
    h = hmac.new(secret, msg, hashlib.sha1).digest()
    o = h[-1] & 0xF
    return str((struct.unpack(">I", h[o:o + 4])[0] & 0x7FFFFFFF) % 10 ** digits).zfill(digits)


def c_test_vectors(r):
    v = r.randrange(4)
    if v == 0:
        msgs = r.sample([b"abc", b"", b"hello world", b"The quick brown fox jumps over the lazy dog", b"message digest", b"a" * 3], 3)
        alg = r.choice(["sha256", "sha1", "md5", "sha512"])
        lines = ["import hashlib", "import pytest", "", "VECTORS = ["] + \
                [f"    ({m!r}, \"{hashlib.new(alg, m).hexdigest()}\")," for m in msgs] + \
                ["]", "", "@pytest.mark.parametrize(\"msg,expected\", VECTORS)", "def test_digest(msg, expected):",
                 f"    assert hashlib.{alg}(msg).hexdigest() == expected"]
        ext = "py"
    elif v == 1:
        case, key, data = r.choice([(1, b"\x0b" * 20, b"Hi There"), (2, b"Jefe", b"what do ya want for nothing?"),
                                    (3, b"\xaa" * 20, b"\xdd" * 50), (4, bytes(range(1, 26)), b"\xcd" * 50)])
        alg = r.choice(["sha224", "sha256", "sha384", "sha512"])
        it = r.choice([1, 2, 4096])
        lines = [f"// RFC 4231 test case {case} and RFC 6070 PBKDF2 vectors", f"func TestHMAC{alg.upper()}Case{case}(t *testing.T) {{",
                 f"\tkey, _ := hex.DecodeString(\"{key.hex()}\")", f"\tdata, _ := hex.DecodeString(\"{data.hex()}\")",
                 f"\twant := \"{hmac.new(key, data, alg).hexdigest()}\"",
                 f"\tif got := hmacHex(\"{alg}\", key, data); got != want {{", "\t\tt.Fatalf(\"got %s\", got)", "\t}", "}", "",
                 f"func TestPBKDF2Iter{it}(t *testing.T) {{",
                 f"\twant := \"{hashlib.pbkdf2_hmac('sha1', b'password', b'salt', it, 20).hex()}\"",
                 f"\tgot := hex.EncodeToString(pbkdf2.Key([]byte(\"password\"), []byte(\"salt\"), {it}, 20, sha1.New))", "\tassert(t, got == want)", "}"]
        ext = "go"
    elif v == 2:
        seed = b"12345678901234567890"
        ts = r.sample([59, 1111111109, 1111111111, 1234567890, 2000000000], 3)
        lines = ["describe('TOTP (RFC 6238 Appendix B, SHA1)', () => {", f"  const seed = '{seed.decode()}';"] + \
                [f"  it('t={t}', () => expect(totp(seed, {t}, 8)).toBe('{totp(seed, t)}'));" for t in ts] + ["});"]
        ext = "js"
    else:
        lines = ["# FIPS-197 Appendix C.1 (AES-128)", "KEY = 000102030405060708090a0b0c0d0e0f",
                 "PLAINTEXT = 00112233445566778899aabbccddeeff", "CIPHERTEXT = 69c4e0d86a7b0430d8cdb78070b4c55a", "",
                 "# RFC 4648 base64 vectors"] + [f"BASE64(\"{s}\") = \"{b64s(s)}\"" for s in ["f", "fo", "foo", "foob", "fooba", "foobar"][:r.randrange(3, 7)]] + \
                ["", f"# CRC-32 check value", f"CRC32(\"123456789\") = {zlib.crc32(b'123456789'):08x}",
                 f"# salt used by fixture #{r.randrange(1, 40)}: {rs(r, 32, HEX)}"]
        ext = "txt"
    return "\n".join(lines) + "\n", ext


README_TEXT = ["# {p}\n\nA small tool for syncing {p} data.\n\n## Install\n\n    pip install {p}\n",
               "id,name,qty\n1,widget,4\n2,gadget,10\n3,{p},7\n",
               "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'><circle cx='8' cy='8' r='7' fill='#{c}'/></svg>",
               "{{\"feature_flags\": {{\"{p}\": true, \"beta\": false}}, \"version\": \"{v}\"}}"]


def c_base64_non_secret(r):
    p = proj(r)
    content = r.choice(README_TEXT).format(p=p, c=rs(r, 6, HEX), v=semver(r))
    v = r.randrange(3)
    if v == 0:
        enc = b64s(content)
        obj = {"name": "README.md", "path": "README.md", "sha": rs(r, 40, HEX), "size": len(content), "encoding": "base64",
               "content": "\n".join(wrap(enc, 60)) + "\n", "url": f"https://api.github.com/repos/{org(r)}/{p}/contents/README.md"}
        return json.dumps(obj, indent=2) + "\n", "json"
    if v == 1:
        png = b"\x89PNG\r\n\x1a\n" + rb(r, r.randrange(60, 200))
        lines = [".icon {", f"  background-image: url(\"data:image/png;base64,{b64(png)}\");", "  width: 16px;", "}",
                 ".logo {", f"  background: url(\"data:image/svg+xml;base64,{b64s(content)}\");", "}"]
        return "\n".join(lines) + "\n", "css"
    bnd = "----=_Part_" + str(r.randrange(10 ** 6, 10 ** 7))
    lines = [f"Content-Type: multipart/mixed; boundary=\"{bnd}\"", "", f"--{bnd}", "Content-Type: text/plain; charset=utf-8", "",
             "Weekly export attached.", "", f"--{bnd}", f"Content-Type: text/csv; name=\"{p}.csv\"",
             "Content-Transfer-Encoding: base64", f"Content-Disposition: attachment; filename=\"{p}.csv\"", ""] + \
            wrap(b64s(content * r.randrange(2, 6)), 76) + [f"--{bnd}--"]
    return "\n".join(lines) + "\n", "eml"


def c_trace_and_build_ids(r):
    v = r.randrange(3)
    d = when(r)
    if v == 0:
        lines = []
        for _ in range(r.randrange(5, 12)):
            d += timedelta(milliseconds=r.randrange(1, 500))
            tid, sid = rs(r, 32, HEX), rs(r, 16, HEX)
            lines.append(json.dumps({"ts": iso(d), "level": r.choice(["info", "debug"]), "msg": r.choice(["handled request", "cache miss", "db query"]),
                                     "traceparent": f"00-{tid}-{sid}-01", "trace_id": tid, "span_id": sid,
                                     "dd.trace_id": str(r.getrandbits(63)), "duration_ms": r.randrange(1, 400)}))
        return "\n".join(lines) + "\n", "jsonl"
    if v == 1:
        lines = [f"$ file ./build/{proj(r)}", f"./build/{proj(r)}: ELF 64-bit LSB pie executable, x86-64, version 1 (SYSV), dynamically linked, "
                 f"interpreter /lib64/ld-linux-x86-64.so.2, BuildID[sha1]={rs(r, 40, HEX)}, for GNU/Linux 3.2.0, not stripped",
                 f"INFO: Invocation ID: {uuid4(r)}", f"INFO: Streaming build results to: https://app.buildbuddy.io/invocation/{uuid4(r)}",
                 f"Build ID: {rs(r, 8, HEX)}-{rs(r, 4, HEX)}-{rs(r, 4, HEX)}", f"GITHUB_RUN_ID={r.randrange(10 ** 9, 10 ** 10)}",
                 f"X-Amzn-Trace-Id: Root=1-{rs(r, 8, HEX)}-{rs(r, 24, HEX)};Parent={rs(r, 16, HEX)};Sampled=1",
                 f"x-amz-cf-id: {b64(rb(r, 42)).replace('+', '-').replace('/', '_')}"]
        return "\n".join(lines) + "\n", "txt"
    lines = []
    for _ in range(r.randrange(5, 12)):
        d += timedelta(seconds=r.randrange(1, 30))
        lines.append(f"{d:%b %d %H:%M:%S} {proj(r)} sshd[{r.randrange(1000, 60000)}]: Accepted publickey for {first(r)} from {ip10(r)} port {r.randrange(30000, 65000)} ssh2: ED25519 SHA256:{b64(rb(r, 32)).rstrip('=')}")
        lines.append(f"{d:%b %d %H:%M:%S} {proj(r)} kernel: [{r.uniform(1, 99999):.6f}] audit: nonce={rs(r, 16, HEX)} session={r.randrange(1, 9999)}")
    return "\n".join(lines) + "\n", "log"


def c_http_headers_noise(r):
    host = f"{r.choice(['www', 'static', 'api', 'cdn'])}.{domain(r)}"
    lines = [f"$ curl -sI https://{host}/{r.choice(['', 'assets/app.js', 'v1/health', 'index.html'])}",
             f"HTTP/2 {r.choice([200, 301, 304, 404])}", f"date: {when(r):%a, %d %b %Y %H:%M:%S} GMT",
             "content-type: text/html; charset=utf-8", f"etag: W/\"{rs(r, 8, HEX)}-{b64(rb(r, 20)).rstrip('=')}\""]
    extra = [f"x-amz-request-id: {rs(r, 16, UPNUM)}", f"x-amz-id-2: {b64(rb(r, 56))}",
             f"cf-ray: {rs(r, 16, HEX)}-{r.choice(['FRA', 'AMS', 'IAD', 'SJC'])}",
             f"x-github-request-id: {rs(r, 4, UHEX)}:{rs(r, 5, UHEX)}:{rs(r, 7, UHEX)}:{rs(r, 7, UHEX)}:{rs(r, 8, UHEX)}",
             "strict-transport-security: max-age=31536000; includeSubDomains; preload",
             f"content-security-policy: script-src 'self' 'nonce-{b64(rb(r, 18))}' 'strict-dynamic'; base-uri 'none'",
             f"x-request-id: {uuid4(r)}", f"x-served-by: cache-{r.choice(['fra', 'ams', 'lhr'])}{r.randrange(10000, 99999)}-{rs(r, 3, UPNUM)}",
             f"x-cache-hits: {r.randrange(0, 9)}", f"x-timer: S{r.randrange(10 ** 9, 2 * 10 ** 9)}.{r.randrange(10 ** 5, 10 ** 6)},VS0,VE{r.randrange(0, 90)}",
             f"last-modified: {when(r):%a, %d %b %Y %H:%M:%S} GMT", f"x-amz-version-id: {rs(r, 32, URLSAFE)}",
             "vary: Accept-Encoding", f"age: {r.randrange(0, 86400)}"]
    lines += r.sample(extra, r.randrange(5, len(extra)))
    return "\n".join(lines) + "\n", "txt"


def c_secret_handling_code(r):
    v = r.randrange(4)
    app = proj(r)
    var1, var2, var3 = r.sample(PH_VARS, 3)
    fn = r.choice(["load_settings", "get_config", "init_clients", "bootstrap", "read_secrets"])
    if v == 0:
        lines = ["import os", "import getpass", "import bcrypt", "", "",
                 f"def {fn}():", f"    pw = os.environ.get(\"{var1}\")", "    if not pw:",
                 f"        pw = getpass.getpass(\"{app} {var1.lower().replace('_', ' ')}: \")",
                 f"    token = os.environ[\"{var2}\"]", "    return pw, token", "", "",
                 "def hash_password(password: str) -> bytes:",
                 f"    return bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds={r.choice([10, 12, 14])}))", "", "",
                 "def check(password: str, hashed: bytes) -> bool:", "    return bcrypt.checkpw(password.encode(), hashed)"]
        ext = "py"
    elif v == 1:
        lines = [f"// {app}/src/{fn}.js", f"const token = process.env.{var1};", "if (!token) {",
                 f"  throw new Error('{var1} is not set; see docs/{r.choice(['setup', 'secrets', 'config'])}.md');", "}",
                 f"const secret = await secretsClient.getSecretValue({{ SecretId: `${{stage}}/{app}/{var2.lower()}` }});",
                 f"const headers = {{ Authorization: `Bearer ${{token}}`, '{r.choice(['X-Api-Key', 'X-Auth', 'X-Client-Secret'])}': secret.SecretString }};",
                 f"module.exports = {{ headers, {var3.lower().replace('_', '')}: process.env.{var3} ?? null }};"]
        ext = "js"
    elif v == 2:
        n = r.choice([10, 12, 14, 16])
        lines = ["import argparse, os, re", "parser = argparse.ArgumentParser(prog=\"%s\")" % app,
                 f"parser.add_argument(\"--password\", default=os.environ.get(\"{var1}\"), help=\"admin password (or set {var1})\")",
                 f"parser.add_argument(\"--token-file\", default=\"~/.config/{app}/token\", help=\"path to API token\")",
                 f"PASSWORD_RE = re.compile(r\"^(?=.*[A-Z])(?=.*\\d)(?=.*[^\\w\\s]).{{{n},}}$\")",
                 "def validate(pw):", "    if not PASSWORD_RE.match(pw):",
                 f"        raise ValueError(\"password must be {n}+ chars with upper, digit and symbol\")"]
        ext = "py"
    else:
        lines = [f"func {fn.title().replace('_', '')}() (*Config, error) {{", "\tcfg := &Config{",
                 f"\t\tDBPassword: os.Getenv(\"{var1}\"),", f"\t\tAPIKey:     os.Getenv(\"{var2}\"),",
                 f"\t\tJWTSecret:  mustReadFile(\"/run/secrets/{var3.lower()}\"),", "\t}",
                 "\tif cfg.APIKey == \"\" {", f"\t\treturn nil, errors.New(\"{var2} required\")", "\t}", "\treturn cfg, nil", "}"]
        ext = "go"
    return "\n".join(lines) + "\n", ext


def c_cloud_resource_ids(r):
    acct = rs(r, 12, string.digits)
    reg = r.choice(REGIONS)
    v = r.randrange(3)
    if v == 0:
        obj = {"Reservations": [{"Instances": [{"InstanceId": "i-0" + rs(r, 16, HEX), "ImageId": "ami-0" + rs(r, 16, HEX),
                                                "KeyName": f"{proj(r)}-key", "SubnetId": "subnet-0" + rs(r, 16, HEX),
                                                "VpcId": "vpc-0" + rs(r, 16, HEX), "PrivateIpAddress": ip10(r),
                                                "SecurityGroups": [{"GroupId": "sg-0" + rs(r, 16, HEX), "GroupName": "default"}],
                                                "IamInstanceProfile": {"Arn": f"arn:aws:iam::{acct}:instance-profile/{proj(r)}-role", "Id": "AIPA" + rs(r, 17, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}}],
                                 "OwnerId": acct, "ReservationId": "r-0" + rs(r, 16, HEX)}]}
        return json.dumps(obj, indent=4) + "\n", "json"
    if v == 1:
        obj = {"KeyPairs": [{"KeyPairId": "key-0" + rs(r, 16, HEX), "KeyFingerprint": ":".join(wrap(rs(r, 40, HEX), 2)),
                             "KeyName": f"{first(r)}-{k}", "KeyType": "rsa", "Tags": []} for k in range(r.randrange(1, 4))]}
        return "$ aws ec2 describe-key-pairs\n" + json.dumps(obj, indent=4) + "\n", "json"
    sub = uuid4(r)
    lines = [f"$ az resource list -g rg-{proj(r)} --query \"[].id\" -o tsv"] + \
            [f"/subscriptions/{sub}/resourceGroups/rg-{proj(r)}/providers/{t}/{proj(r)}{r.randrange(1, 99)}" for t in
             r.sample(["Microsoft.Storage/storageAccounts", "Microsoft.KeyVault/vaults", "Microsoft.Web/sites",
                       "Microsoft.Network/virtualNetworks", "Microsoft.ContainerRegistry/registries"], 3)] + \
            [f"$ gcloud projects describe {proj(r)}-{rs(r, 6, LOWNUM)} --format='value(projectNumber)'", str(r.randrange(10 ** 11, 10 ** 12))]
    return "\n".join(lines) + "\n", "txt"


def c_blockchain_public(r):
    v = r.randrange(2)
    if v == 0:
        obj = {"transactionHash": "0x" + rs(r, 64, HEX), "blockHash": "0x" + rs(r, 64, HEX), "blockNumber": r.randrange(10 ** 7, 2 * 10 ** 7),
               "from": "0x" + rs(r, 40, HEX), "to": "0x" + rs(r, 40, HEX), "contractAddress": None,
               "gasUsed": r.randrange(21000, 300000), "status": 1,
               "logs": [{"address": "0x" + rs(r, 40, HEX), "topics": ["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
                                                                       "0x" + "0" * 24 + rs(r, 40, HEX)], "data": "0x" + rs(r, 64, HEX)}]}
        return json.dumps(obj, indent=2) + "\n", "json"
    lines = [f"$ bitcoin-cli getblockhash {r.randrange(700000, 880000)}", rs(r, 8, "0") + rs(r, 56, HEX),
             "$ bitcoin-cli getrawmempool | head -5"] + [f"  \"{rs(r, 64, HEX)}\"," for _ in range(4)] + \
            [f"deposit address: bc1q{rs(r, 38, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}",
             f"xpub (watch-only, public): xpub6{rs(r, 106, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz')}"]
    return "\n".join(lines) + "\n", "txt"


def c_asset_fingerprints(r):
    v = r.randrange(3)
    if v == 0:
        lines = [f"vite v{semver(r)} building for production...", f"✓ {r.randrange(30, 900)} modules transformed."]
        for n, ext, kb in [("index", "html", 0.5), ("index", "css", r.uniform(5, 60)), ("index", "js", r.uniform(80, 400)),
                           ("vendor", "js", r.uniform(100, 600))][: r.randrange(3, 5)]:
            fn = "index.html" if ext == "html" else f"assets/{n}-{rs(r, 8, URLSAFE)}.{ext}"
            lines.append(f"dist/{fn:<40} {kb:8.2f} kB │ gzip: {kb / 3:6.2f} kB")
        lines.append(f"✓ built in {r.uniform(1, 20):.2f}s")
        return "\n".join(lines) + "\n", "txt"
    if v == 1:
        obj = {"files": {f"{k}.js": f"/static/js/{k}.{rs(r, 8, HEX)}.js" for k in ["main", "runtime", str(r.randrange(100, 999))]},
               "entrypoints": [f"static/css/main.{rs(r, 8, HEX)}.css", f"static/js/main.{rs(r, 8, HEX)}.js"]}
        return json.dumps(obj, indent=2) + "\n", "json"
    lines = ["self.__WB_MANIFEST = ["] + [f"  {{url: \"/{p}\", revision: \"{rs(r, 32, HEX)}\"}}," for p in
                                          r.sample(["index.html", "offline.html", "favicon.ico", "manifest.json", "icons/192.png", "icons/512.png"], 4)] + \
            ["];", f"// buildId: {rs(r, 21, URLSAFE)}"]
    return "\n".join(lines) + "\n", "js"


def c_oauth_public_params(r):
    v = r.randrange(2)
    host = f"auth.{domain(r)}"
    if v == 0:
        cid = r.choice([uuid4(r), rs(r, 32, ALNUM), f"{r.randrange(10 ** 11, 10 ** 12)}-{rs(r, 32, LOWNUM)}.apps.googleusercontent.com"])
        url = (f"https://{host}/authorize?response_type=code&client_id={cid}&redirect_uri=https%3A%2F%2Fapp.{domain(r)}%2Fcallback"
               f"&scope=openid%20profile%20email&state={rs(r, 32, URLSAFE)}&nonce={rs(r, 24, URLSAFE)}"
               f"&code_challenge={b64u(rb(r, 32))}&code_challenge_method=S256")
        lines = ["redirecting to login:", url, "", "discovery:",
                 json.dumps({"issuer": f"https://{host}/", "authorization_endpoint": f"https://{host}/authorize",
                             "token_endpoint": f"https://{host}/oauth/token", "jwks_uri": f"https://{host}/.well-known/jwks.json",
                             "code_challenge_methods_supported": ["S256", "plain"]}, indent=2)]
        return "\n".join(lines) + "\n", "txt"
    keys = [{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": rs(r, 20, URLSAFE), "n": b64u(topbit(rb(r, 256))), "e": "AQAB"}
            for _ in range(r.randrange(1, 3))]
    return f"$ curl -s https://{host}/.well-known/jwks.json | jq\n" + json.dumps({"keys": keys}, indent=2) + "\n", "json"


FAMILIES = [
    ("lockfile-integrity", c_lockfile_integrity), ("checksum-listings", c_checksum_listings),
    ("git-history", c_git_history), ("container-digests", c_container_digests),
    ("html-sri-csp", c_html_sri_csp), ("ssh-public-keys", c_ssh_public_keys),
    ("x509-certificates", c_x509_certificates), ("pgp-public-material", c_pgp_public),
    ("uuids-and-ids", c_uuid_and_ids), ("placeholders-templates", c_placeholders),
    ("secret-store-refs", c_secret_store_refs), ("masked-redacted", c_masked_redacted),
    ("vendor-doc-examples", c_vendor_doc_examples), ("encrypted-blobs", c_encrypted_blobs),
    ("publishable-keys", c_publishable_keys), ("frontend-public-config", c_frontend_public_config),
    ("test-vectors", c_test_vectors), ("base64-non-secret", c_base64_non_secret),
    ("trace-and-build-ids", c_trace_and_build_ids), ("http-headers-noise", c_http_headers_noise),
    ("secret-handling-code", c_secret_handling_code), ("cloud-resource-ids", c_cloud_resource_ids),
    ("blockchain-public-data", c_blockchain_public), ("asset-fingerprints", c_asset_fingerprints),
    ("oauth-public-params", c_oauth_public_params),
]


# ---------------------------------------------------------------- API
def _check_half(half):
    if half not in ("ninth", "twin"):
        raise ValueError("half must be 'ninth' or 'twin'")


def positives(half, per_template=6):
    _check_half(half)
    out = []
    for ctx, fn in TEMPLATES:
        for i in range(per_template):
            r = random.Random(f"{half}:{ctx}:{i}")
            kind, value, text, ext = fn(r)
            out.append((f"{half}-pos-{ctx}-{i:02d}.{ext}", ctx, kind, value, text))
    return out


def cleans(half, per_family=20):
    _check_half(half)
    out = []
    for fam, fn in FAMILIES:
        for i in range(per_family):
            r = random.Random(f"{half}:{fam}:{i}")
            text, ext = fn(r)
            out.append((f"{half}-clean-{fam}-{i:02d}.{ext}", fam, text))
    return out


# ---------------------------------------------------------------- self-check
def selfcheck(per_template=6, per_family=20):
    problems = []
    P = {h: positives(h, per_template) for h in ("ninth", "twin")}
    C = {h: cleans(h, per_family) for h in ("ninth", "twin")}
    if len(TEMPLATES) != 55 or len({c for c, _ in TEMPLATES}) != 55:
        problems.append(f"templates: {len(TEMPLATES)}")
    if len(FAMILIES) != 25 or len({f for f, _ in FAMILIES}) != 25:
        problems.append(f"families: {len(FAMILIES)}")
    if len(ENCODED_CONTEXTS) > 3 or not ENCODED_CONTEXTS <= {c for c, _ in TEMPLATES}:
        problems.append("ENCODED_CONTEXTS")
    names = [p[0] for h in P for p in P[h]] + [c[0] for h in C for c in C[h]]
    if len(names) != len(set(names)):
        problems.append("duplicate names")
    for h in P:
        for name, ctx, kind, value, text in P[h]:
            n = len(text.splitlines())
            if not 5 <= n <= 120:
                problems.append(f"{name}: {n} lines")
            needle = b64s(value) if ctx in ENCODED_CONTEXTS else value
            if needle not in text:
                problems.append(f"{name}: value missing")
            if not value or len(value) < 8:
                problems.append(f"{name}: short value")
        for name, fam, text in C[h]:
            n = len(text.splitlines())
            if not 5 <= n <= 120:
                problems.append(f"{name}: {n} lines")
    allclean = "\x00".join(c[2] for h in C for c in C[h])
    for h in P:
        for name, ctx, kind, value, text in P[h]:
            if value in allclean or b64s(value) in allclean:
                problems.append(f"{name}: value inside a clean text")
    # no repeats within template / family
    for h in P:
        seen = {}
        for name, ctx, kind, value, text in P[h]:
            if text in seen.setdefault(ctx, set()):
                problems.append(f"{name}: repeated text")
            seen[ctx].add(text)
        seen = {}
        for name, fam, text in C[h]:
            if text in seen.setdefault(fam, set()):
                problems.append(f"{name}: repeated text")
            seen[fam].add(text)
    # halves share nothing
    tn = {p[4] for p in P["ninth"]} | {c[2] for c in C["ninth"]}
    tt = {p[4] for p in P["twin"]} | {c[2] for c in C["twin"]}
    if tn & tt:
        problems.append(f"{len(tn & tt)} texts shared between halves")
    vn, vt = {p[3] for p in P["ninth"]}, {p[3] for p in P["twin"]}
    if vn & vt:
        problems.append(f"{len(vn & vt)} values shared between halves")
    if len(vn) != len(P["ninth"]) or len(vt) != len(P["twin"]):
        problems.append("duplicate values within a half")
    # determinism
    if positives("ninth", per_template) != P["ninth"] or cleans("twin", per_family) != C["twin"]:
        problems.append("non-deterministic output")
    kinds = {}
    for p in P["ninth"]:
        kinds[p[2]] = kinds.get(p[2], 0) + 1
    human = sum(1 for p in P["ninth"] if p[1] in {c for c, _ in HUMAN})
    print(f"templates={len(TEMPLATES)} families={len(FAMILIES)} encoded_contexts={sorted(ENCODED_CONTEXTS)}")
    for h in P:
        print(f"{h}: positives={len(P[h])} cleans={len(C[h])}")
    print(f"unique names={len(set(names))}/{len(names)}  human-password positives per half={human}/{len(P['ninth'])}"
          f"  distinct kinds={len(kinds)}")
    lines_all = [len(t.splitlines()) for h in P for *_, t in P[h]] + [len(c[2].splitlines()) for h in C for c in C[h]]
    print(f"lines per text: min={min(lines_all)} max={max(lines_all)} (allowed 5-120)")
    print("checks: values present (base64 in encoded contexts), no value in any clean text of either half, "
          "no repeated text within template/family, halves share no text/value, deterministic")
    if problems:
        print("SELF-CHECK FAILED:")
        for p in problems[:60]:
            print("  " + p)
        return False
    print("SELF-CHECK PASSED")
    return True


if __name__ == "__main__":
    sys.exit(0 if selfcheck() else 1)
