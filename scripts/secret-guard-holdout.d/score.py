"""Scores detectors on a corpus written by corpus.py: recall on secret/, false positives on clean/.

    python3 score.py --corpus DIR --paste NAME=BINARY [--paste NAME=BINARY…]
                     [--detect-secrets BIN] [--credsweeper BIN] [-v]

paste runs as `paste -n -f FILE` (exit 77: refused); detect-secrets and CredSweeper scan each
folder once. Prints, per family and in all, the share each detector flags.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def paste_flags(binary, folder, env):
    flagged = set()
    for name in sorted(os.listdir(folder)):
        result = subprocess.run([binary, "-n", "--url", "http://127.0.0.1:9/pastes/create", "-f",
                                 os.path.join(folder, name)], env=env, capture_output=True, timeout=60)
        if result.returncode not in (0, 77):
            sys.exit(f"score: paste failed on {name} with {result.returncode}: {result.stderr.decode()[:300]}")
        if result.returncode == 77:
            flagged.add(name)
    return flagged


def detect_secrets_flags(binary, folder):
    result = subprocess.run([binary, "scan", "--all-files", "."], cwd=folder, capture_output=True, timeout=3600)
    if result.returncode != 0:
        sys.exit(f"score: detect-secrets failed: {result.stderr.decode()[:300]}")
    return {os.path.basename(name) for name, found in json.loads(result.stdout)["results"].items() if found}


def credsweeper_flags(binary, folder):
    with tempfile.TemporaryDirectory() as work:
        report = os.path.join(work, "report.json")
        result = subprocess.run([binary, "--path", folder, "--save-json", report], capture_output=True, timeout=7200)
        if result.returncode != 0 or not os.path.exists(report):
            sys.exit(f"score: credsweeper failed: {result.stderr.decode()[-500:]}")
        with open(report) as data:
            found = json.load(data)
    names = set()
    for candidate in found:
        for line in candidate.get("line_data_list", []):
            names.add(os.path.basename(line.get("path", "")))
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--paste", action="append", default=[], help="NAME=BINARY")
    parser.add_argument("--detect-secrets")
    parser.add_argument("--credsweeper")
    parser.add_argument("-v", "--verbose", action="store_true")
    arguments = parser.parse_args()
    for name in ("detect_secrets", "credsweeper"):
        if getattr(arguments, name):
            setattr(arguments, name, os.path.abspath(getattr(arguments, name)))

    home = tempfile.mkdtemp(prefix="holdout-home.")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_STATE_HOME=home + "/state",
               XDG_CACHE_HOME=home + "/cache")
    env.pop("PASTE_CONFIG", None)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)

    folders = {kind: os.path.join(arguments.corpus, kind) for kind in ("secret", "clean")}
    files = {kind: sorted(os.listdir(folder)) for kind, folder in folders.items()}
    detectors = {}
    for spec in arguments.paste:
        name, binary = spec.split("=", 1)
        binary = os.path.abspath(binary)
        detectors[name] = {kind: paste_flags(binary, folder, env) for kind, folder in folders.items()}
    if arguments.detect_secrets:
        detectors["detect-secrets"] = {kind: detect_secrets_flags(arguments.detect_secrets, folder)
                                       for kind, folder in folders.items()}
    if arguments.credsweeper:
        detectors["credsweeper"] = {kind: credsweeper_flags(arguments.credsweeper, folder)
                                    for kind, folder in folders.items()}

    names = list(detectors)
    for kind, title in (("secret", "recall"), ("clean", "false positives")):
        families = sorted({name.split("--")[0] for name in files[kind]})
        width = max(len(f) for f in families + ["family"])
        print(f"\n{title} ({kind}/, {len(files[kind])} files)")
        print(f"{'family':<{width}}  files  " + "  ".join(f"{n:>14}" for n in names))
        for family in families:
            members = [f for f in files[kind] if f.split("--")[0] == family]
            shares = [100 * sum(f in detectors[n][kind] for f in members) / len(members) for n in names]
            print(f"{family:<{width}}  {len(members):>5}  " + "  ".join(f"{s:>13.0f}%" for s in shares))
        totals = [100 * sum(f in detectors[n][kind] for f in files[kind]) / len(files[kind]) for n in names]
        print(f"{'all':<{width}}  {len(files[kind]):>5}  " + "  ".join(f"{s:>13.1f}%" for s in totals))
        if arguments.verbose:
            for n in names:
                wrong = [f for f in files[kind] if (f in detectors[n][kind]) != (kind == "secret")]
                print(f"  {n} {'missed' if kind == 'secret' else 'flagged'}: {' '.join(wrong)}")
    subprocess.run(["rm", "-rf", home], check=False)


if __name__ == "__main__":
    main()
