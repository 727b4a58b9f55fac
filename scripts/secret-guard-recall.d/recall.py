#!/usr/bin/env python3
"""Held-out recall of the secret guard, against detect-secrets on the same samples.

Called by scripts/secret-guard-recall. Generates fresh samples of every kind (fakes.py: random
values in each issuer's real format; private keys from openssl, ssh-keygen and gpg), places each
in surroundings picked at random from the templates below (none of them is used by the test
fixtures in Tests/SecretGuardTests/Fixtures), adds the hard cases of hard.py (escaped, encoded,
coloured, wrapped, block scalars, the formats people paste), writes one file per sample, and then:
  - runs `paste -n -f FILE` on each (a dry run: the guard refuses with exit 77, nothing is sent),
  - runs `detect-secrets scan --all-files` once over all of them,
and prints, per kind, the share of samples each refuses.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fakes  # noqa: E402
import hard  # noqa: E402

ESC = "\x1b"

# --- surroundings (held out: the fixtures use other ones) ------------------------------------

TOKEN_TEMPLATES = [
    lambda f, v: f"[10:42] <mike> try this one: {v} (expires friday)\n[10:43] <ana> thx\n",
    lambda f, v: f"Setup:\n\n```bash\nexport SERVICE_KEY={v}\nmake run\n```\n",
    lambda f, v: f"[auth]\nkey = \"{v}\"\ntimeout = 30\n",
    lambda f, v: f"FROM python:3.12-slim\nENV SERVICE_KEY={v}\nCMD [\"python\", \"main.py\"]\n",
    lambda f, v: f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: upstream\nstringData:\n  key: {v}\n",
    lambda f, v: f"id,name,key\n41,export,none\n42,ingest,{v}\n",
    lambda f, v: "CONFIG = {\"service_key\": \"" + v + "\", \"retries\": 3}\n",
    lambda f, v: f"curl -s -d '{{\"key\":\"{v}\"}}' https://api.example.net/v1/session\n",
    lambda f, v: f"2024-06-01\t12:00:03\tauth\t{v}\tOK\n",
    lambda f, v: f"<meta name=\"service-key\" content=\"{v}\">\n",
    lambda f, v: f"$env:SERVICE_KEY = \"{v}\"\n.\\run.ps1\n",
    lambda f, v: f"service.endpoint=https://api.example.net\nservice.key={v}\n",
    lambda f, v: f"const serviceKey = \"{v}\"\n",
    lambda f, v: f"{ESC}[1;33mWARN{ESC}[0m using key {ESC}[36m{v}{ESC}[0m from cache\n",
    lambda f, v: f"uploading 10%\ruploading 100%\r{v}\n",
    lambda f, v: f"> On Tue, Sam wrote:\n> the key is {v}\n> cheers\n",
    lambda f, v: f"docker run -e SERVICE_KEY={v} -p 8080:8080 app:latest\n",
    lambda f, v: f"{{\"level\":\"info\",\"msg\":\"client ready\",\"key\":\"{v}\"}}\n",
]

BLOCK_TEMPLATES = [
    lambda f, v: "Here you go:\n\n```\n" + v + "```\n",
    lambda f, v: "KEY = \"\"\"\n" + v + "\"\"\"\n",
    lambda f, v: "cat > key.pem <<'EOF'\n" + v + "EOF\n",
    lambda f, v: "apiVersion: v1\nkind: Secret\nstringData:\n  key: |\n" + "".join("    " + line + "\n" for line in v.splitlines()),
    lambda f, v: json.dumps({"id": "k1", "material": v}) + "\n",
    lambda f, v: "resource \"tls_cert\" \"x\" {\n  private_key = <<EOT\n" + v + "EOT\n}\n",
    lambda f, v: "> forwarded:\n" + v,
]

ASSIGNMENT_TEMPLATES = [
    lambda f, k, v: f"[database]\n{k} = \"{v}\"\n",
    lambda f, k, v: f"provider \"db\" {{\n  {k} = \"{v}\"\n}}\n",
    lambda f, k, v: f"$env:{k.upper().replace('.', '_')} = '{v}'\n",
    lambda f, k, v: f"app.{k.replace('_', '.').lower()}={v}\n",
    lambda f, k, v: f"cfg := Config{{Host: \"db\", {k.replace('.', '_')}: \"{v}\"}}\n",
    lambda f, k, v: f"services:\n  db:\n    environment:\n      - {k.upper().replace('.', '_')}={v}\n",
    lambda f, k, v: f"config.{k.replace('.', '_')} = \"{v}\"\n",
    lambda f, k, v: f"  '{k}' => '{v}',\n",
    lambda f, k, v: f"{k.upper().replace('.', '_')}='{v}' ./migrate.sh\n",
]


def context_sample(kind, f):
    """Held-out surroundings for the kinds recognised by their context."""
    G = fakes.GENERATORS
    if kind == "basic-auth":
        header = f.basic_header()
        return f.pick([
            f"wget --header='Authorization: {header}' https://files.example.net/a.tgz\n",
            f"req.Header.Set(\"Authorization\", \"{header}\")\n",
            f"GET /metrics HTTP/1.1\nHost: prom\nAuthorization: {header}\n\n",
            f"headers:\n  Authorization: \"{header}\"\n",
        ])
    if kind == "bearer-token":
        token = G["bearer-token"](f).split(": ", 1)[1]
        return f.pick([
            f"http GET api.example.net/v1/me 'Authorization:{token}'\n",
            f"req.Header.Set(\"Authorization\", \"{token}\")\n",
            f"headers = {{'Authorization': '{token}'}}\n",
            f"> GET /v1/me HTTP/2\n> authorization: {token}\n",
        ])
    if kind == "url-credentials":
        return f.pick([
            f"git clone {G['url-credentials'](f)}/team/repo.git\n",
            f"spring.datasource.url={G['url-credentials'](f)}\n",
            f"  - \"{G['url-credentials'](f)}\"\n",
            f"Error: connect ECONNREFUSED while dialing {G['url-credentials'](f)}\n",
        ])
    if kind == "netrc-password":
        return f.pick([
            "default login " + f.user() + " password " + f.password() + "\n",
            "# work\nmachine " + f.host() + " login " + f.user() + " password " + f.password() + "\n",
            "machine " + f.host() + "\nlogin " + f.user() + "\npassword " + f.password() + "\n\nmachine other\n",
        ])
    if kind == "pgpass-password":
        return f.pick([
            "# hostname:port:database:username:password\n" + G["pgpass-password"](f) + "\n",
            "$ echo '" + G["pgpass-password"](f) + "' >> ~/.pgpass\n",
            G["pgpass-password"](f) + "\n" + G["pgpass-password"](f) + "\n",
        ])
    if kind == "docker-auth":
        config = json.loads(G["docker-auth"](f))
        registry = next(iter(config["auths"]))
        config["auths"][registry]["email"] = "ops@example.org"
        return f.pick([json.dumps(config) + "\n", "DOCKER_CONFIG_JSON='" + json.dumps(config) + "'\n",
                       json.dumps(config, indent=4) + "\n"])
    if kind == "connection-string":
        value = G["connection-string"](f)
        return f.pick([
            f"$conn = New-Object System.Data.SqlClient.SqlConnection(\"{value}\")\n",
            f"<add name=\"Main\" connectionString=\"{value}\" />\n",
            f"ConnectionStrings__Main={value}\n",
        ])
    if kind in ("azure-storage-key", "azure-sas-token", "slack-webhook", "discord-webhook"):
        value = G[kind](f)
        return f.pick([
            f"$ az storage blob upload --connection-string \"{value}\"\n" if kind == "azure-storage-key"
            else f"$ curl -T report.pdf \"{value}\"\n",
            f"client = Client.from_url(\"{value}\")\n",
            f"[hooks]\nurl = '{value}'\n",
        ])
    return None


def sample(kind, f):
    if kind.startswith("hard:"):
        return hard.HARD[kind[5:]](f)
    if kind in ("password", "secret"):
        key, value = fakes.GENERATORS[kind](f).split("\x00")
        return f.pick(ASSIGNMENT_TEMPLATES)(f, key, value)
    if kind == "aws-secret-access-key":
        value = fakes.GENERATORS[kind](f).split("=", 1)[1]
        return f.pick(ASSIGNMENT_TEMPLATES)(f, f.pick(["aws_secret_access_key", "secret_access_key"]), value)
    text = context_sample(kind, f)
    if text is not None:
        return text
    value = fakes.GENERATORS[kind](f)
    if kind in fakes.BLOCKS:
        if not value.endswith("\n"):
            value += "\n"
        return f.pick(BLOCK_TEMPLATES)(f, value)
    return f.pick(TOKEN_TEMPLATES)(f, value)


# --- running both tools ----------------------------------------------------------------------

def paste_refuses(paste, path, env):
    result = subprocess.run([paste, "-n", "--url", "http://127.0.0.1:9/pastes/create", "-f", path], env=env,
                            capture_output=True, timeout=60)
    if result.returncode not in (0, 77):
        sys.exit(f"recall: paste failed on {path} with {result.returncode}: {result.stderr.decode()[:300]}")
    return result.returncode == 77


def detect_secrets_flags(detect, folder):
    result = subprocess.run([detect, "scan", "--all-files", "."], cwd=folder, capture_output=True, timeout=3600)
    if result.returncode != 0:
        sys.exit(f"recall: detect-secrets failed: {result.stderr.decode()[:300]}")
    report = json.loads(result.stdout)
    return {os.path.basename(name) for name, found in report["results"].items() if found}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--paste", required=True)
    parser.add_argument("--detect-secrets", required=True)
    parser.add_argument("--samples", type=int, default=8, help="samples per kind")
    parser.add_argument("--seed", type=int, default=None, help="fixes the samples (default: random)")
    parser.add_argument("--no-real-keys", action="store_true", help="do not call openssl, ssh-keygen, gpg")
    parser.add_argument("--keep", help="write the samples here and keep them")
    parser.add_argument("--set", choices=["all", "kinds", "hard"], default="all",
                        help="the kinds in plain surroundings, the hard cases (hard.py), or both")
    parser.add_argument("-v", "--verbose", action="store_true", help="name every sample a tool lets through")
    arguments = parser.parse_args()

    seed = arguments.seed if arguments.seed is not None else int.from_bytes(os.urandom(4), "big")
    f = fakes.Fakes(seed, real_keys=not arguments.no_real_keys)
    folder = os.path.abspath(arguments.keep or tempfile.mkdtemp(prefix="secret-recall."))
    os.makedirs(folder, exist_ok=True)
    inside_git = subprocess.run(["git", "-C", folder, "rev-parse", "--is-inside-work-tree"], capture_output=True)
    if inside_git.returncode == 0:
        sys.exit(f"recall: {folder} is inside a git work tree, where detect-secrets scans only tracked files")
    home = tempfile.mkdtemp(prefix="secret-recall-home.")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_STATE_HOME=home + "/state",
               XDG_CACHE_HOME=home + "/cache")
    env.pop("PASTE_CONFIG", None)
    env.pop("DISPLAY", None)

    kinds = [] if arguments.set == "hard" else list(fakes.GENERATORS)
    if arguments.set != "kinds":
        kinds += ["hard:" + family for family in hard.HARD]
    files = {}
    for kind in kinds:
        for index in range(arguments.samples):
            name = f"{kind.replace(':', '-')}-{index:02}.txt"
            with open(os.path.join(folder, name), "w", newline="") as out:
                out.write(sample(kind, f))
            files.setdefault(kind, []).append(name)

    flagged = detect_secrets_flags(arguments.detect_secrets, folder)
    rows = []
    totals = [0, 0, 0]
    misses = []
    for kind in kinds:
        ours = anchor = 0
        for name in files[kind]:
            refused = paste_refuses(arguments.paste, os.path.join(folder, name), env)
            ours += refused
            anchor += name in flagged
            if not refused:
                misses.append(name)
        count = len(files[kind])
        totals[0] += count
        totals[1] += ours
        totals[2] += anchor
        rows.append((kind, count, ours, anchor))

    width = max(len(kind) for kind in kinds)
    print(f"{'kind':<{width}}  samples  paste   detect-secrets")
    for kind, count, ours, anchor in rows:
        print(f"{kind:<{width}}  {count:>7}  {100 * ours / count:>5.0f}%  {100 * anchor / count:>5.0f}%")
    print(f"{'all':<{width}}  {totals[0]:>7}  {100 * totals[1] / totals[0]:>5.1f}%  {100 * totals[2] / totals[0]:>5.1f}%")
    print(f"seed {seed}; samples in {folder}" + ("" if arguments.keep else " (deleted)"))
    if arguments.verbose and misses:
        print("paste let through: " + " ".join(misses))
    if not arguments.keep:
        subprocess.run(["rm", "-rf", folder, home], check=False)
    return 0 if totals[1] >= 0.95 * totals[0] else 1


if __name__ == "__main__":
    sys.exit(main())
