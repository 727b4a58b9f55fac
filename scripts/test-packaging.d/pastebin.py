#!/usr/bin/env python3
"""A tiny https pastebin for the packaging phase, run inside a Debian root.

    pastebin.py CERT KEY STATE_DIR

Listens on 127.0.0.1 with an OS-picked port, written to STATE_DIR/port once it listens.
POST /: the body (Content-Length or chunked) is paste N, kept as STATE_DIR/pastes/N; the answer
is 201 with https://127.0.0.1:PORT/N as its body. While STATE_DIR/down exists every POST is
answered 503 (a service that is down: paste keeps the text in its outbox). GET /N gives it back.
"""
import http.server
import os
import ssl
import sys
import threading

cert, key, state = sys.argv[1:4]
pastes = os.path.join(state, "pastes")
os.makedirs(pastes, exist_ok=True)
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def answer(self, status, text):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        if self.headers.get("Expect", "").lower() == "100-continue":
            self.send_response_only(100)
            self.end_headers()
        data = self.body()
        if os.path.exists(os.path.join(state, "down")):
            self.answer(503, "down for maintenance\n")
            return
        with lock:
            number = len(os.listdir(pastes)) + 1
            with open(os.path.join(pastes, str(number)), "wb") as file:
                file.write(data)
        self.answer(201, "https://127.0.0.1:%d/%d" % (self.server.server_port, number))

    def do_GET(self):
        path = os.path.join(pastes, os.path.basename(self.path))
        if not os.path.isfile(path):
            self.answer(404, "no such paste\n")
            return
        with open(path, "rb") as file:
            self.answer(200, file.read().decode("utf-8", "replace"))

    def log_message(self, format, *args):
        sys.stderr.write("pastebin: %s\n" % (format % args))


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(os.path.join(state, "port.tmp"), "w") as file:
    file.write("%d\n" % server.server_port)
os.rename(os.path.join(state, "port.tmp"), os.path.join(state, "port"))
server.serve_forever()
