#!/usr/bin/env python3
"""An independent pastie-style server for interop tests: the classic API, in Python.

It is deliberately NOT paste-mock: a second implementation, written against the API rather than
against our client, so the client is proven against something it shares no code with.

    POST /pastes/create  (or /pastes)   multipart/form-data or urlencoded
        paste[body], paste[parser], paste[authorization] (must be 'burger'), paste[title]
        -> 302 Location: /pastes/<id>
    GET  /pastes/<id>      HTML page
    GET  /pastes/<id>.txt  the body, byte-exact

Listens on 127.0.0.1, port 0 (the OS picks); prints 'listening on http://127.0.0.1:PORT'.
"""
import html
import http.server
import sys
import threading
import urllib.parse

PASTES = {}
LOCK = threading.Lock()


def parse_multipart(body, content_type):
    boundary = None
    for item in content_type.split(";")[1:]:
        key, _, value = item.strip().partition("=")
        if key.lower() == "boundary":
            boundary = value.strip('"')
    if not boundary:
        raise ValueError("no boundary")
    delimiter = b"--" + boundary.encode()
    fields = {}
    for part in body.split(delimiter)[1:]:
        if part.startswith(b"--"):
            break
        part = part[2:] if part.startswith(b"\r\n") else part
        head, _, value = part.partition(b"\r\n\r\n")
        if value.endswith(b"\r\n"):
            value = value[:-2]
        name = None
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-disposition:"):
                for item in line.split(b";")[1:]:
                    key, _, raw = item.strip().partition(b"=")
                    if key == b"name":
                        name = raw.strip(b'"').decode()
        if name is not None:
            fields[name] = value
    return fields


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        body = self.read_body()
        path = self.path.split("?")[0]
        if path not in ("/pastes/create", "/pastes"):
            return self.answer(404, b"not found\n")
        content_type = self.headers.get("Content-Type", "")
        if content_type.startswith("multipart/form-data"):
            fields = parse_multipart(body, content_type)
        else:
            fields = {k: v.encode() for k, v in urllib.parse.parse_qsl(body.decode(), keep_blank_values=True)}
        if fields.get("paste[authorization]") != b"burger":
            return self.answer(403, b"bad authorization\n")
        if "paste[body]" not in fields:
            return self.answer(400, b"no body\n")
        with LOCK:
            ident = len(PASTES) + 1
            PASTES[ident] = fields
        host = self.headers.get("Host")
        self.answer(302, b"", [("Location", f"http://{host}/pastes/{ident}")])

    def do_GET(self):
        path = self.path.split("?")[0]
        raw = path.endswith(".txt")
        try:
            ident = int(path.rsplit("/", 1)[1].removesuffix(".txt"))
            fields = PASTES[ident]
        except (ValueError, KeyError, IndexError):
            return self.answer(404, b"not found\n")
        if raw:
            return self.answer(200, fields["paste[body]"], [("Content-Type", "text/plain; charset=utf-8")])
        text = html.escape(fields["paste[body]"].decode("utf-8", "replace"))
        page = f"<html><body><h1>Paste {ident}</h1><pre>{text}</pre></body></html>".encode()
        self.answer(200, page, [("Content-Type", "text/html; charset=utf-8")])


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
