#!/usr/bin/env python3
"""pbincli's own `get`, for every link of a test suite in one Python process.

    .build/venv/bin/python pbincli_get.py

Listens on 127.0.0.1 (port picked by the OS) and prints 'listening on http://127.0.0.1:PORT'.
Each `POST /` with the JSON body {"link": LINK, "folder": FOLDER} runs pbincli's command line
(`pbincli.cli.main`, argv `pbincli get -o FOLDER LINK`) in FOLDER, and answers 200 with the JSON
{"status": EXIT_STATUS, "output": STDOUT_AND_STDERR}; the decrypted text is in FOLDER, where
pbincli wrote it. One request at a time (HTTPServer serves them in turn).

Why: each `pbincli get` started Python, imported requests and pycryptodome, and derived the
paste's key by PBKDF2-HMAC-SHA256 over 100,000 iterations with a Python lambda as the PRF
(pbincli/format.py, `__deriveKey`), about 2 s of CPU per link. Here the interpreter starts once,
and the key is derived by the same library's PBKDF2 given the hash module
(`PBKDF2(..., hmac_hash_module=SHA256)`): the same function of the same inputs (the key from the
link, the salt and the iteration count from the paste's adata), by pycryptodome's C loop.
Everything else is pbincli's: parsing the link, fetching the paste, decompressing, AES-GCM with
its tag checked. PrivateBinEndToEndTests keeps one run of the `pbincli` program itself, with its
own PRF, so the two agree.
"""
import contextlib
import io
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

from Crypto.Hash import SHA256
from Crypto.Protocol.KDF import PBKDF2

import pbincli.cli
import pbincli.format


def derive_key(paste, salt):
    """pbincli's `Paste.__deriveKey`, with the hash module in place of a Python PRF."""
    return PBKDF2(
        paste._key + paste._password.encode(),
        salt,
        dkLen=int(paste._block_bits / 8),
        count=paste._iteration_count,
        hmac_hash_module=SHA256,
    )


pbincli.format.Paste._Paste__deriveKey = derive_key


def get(link, folder):
    """`pbincli get -o FOLDER LINK` in FOLDER: its exit status and what it printed."""
    os.chdir(folder)
    sys.argv = ["pbincli", "get", "-o", folder, link]
    output = io.StringIO()
    status = 0
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            pbincli.cli.main()
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else 1
        except Exception as error:  # what would have been pbincli's traceback
            print(f"{type(error).__name__}: {error}")
            status = 1
    return status, output.getvalue()


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        status, output = get(request["link"], request["folder"])
        body = json.dumps({"status": status, "output": output}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *arguments):
        print(format % arguments, file=sys.stderr, flush=True)


server = HTTPServer(("127.0.0.1", 0), Handler)
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
