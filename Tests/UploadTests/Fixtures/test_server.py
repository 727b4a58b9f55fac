# The test server of Tests/UploadTests/TestServer.swift (Python standard library only): see
# that file for the routes. Usage: test_server.py [http|tcp]; prints the port it listens on.
import base64, hashlib, json, socket, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

lock = threading.Lock()
connections = [0]

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass

    def setup(self):
        super().setup()
        with lock:
            connections[0] += 1
            self.connection_number = connections[0]

    def body_pieces(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""): pass
                    return
                remaining = size
                while remaining > 0:
                    piece = self.rfile.read(min(remaining, 1 << 16))
                    if not piece: return
                    remaining -= len(piece)
                    yield piece
                self.rfile.readline()
        else:
            remaining = int(self.headers.get("Content-Length") or 0)
            while remaining > 0:
                piece = self.rfile.read(min(remaining, 1 << 16))
                if not piece: return
                remaining -= len(piece)
                yield piece

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers: self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/discard":
            digest, length = hashlib.sha256(), 0
            for piece in self.body_pieces():
                digest.update(piece); length += len(piece)
            return self.answer(200, json.dumps({"length": length, "sha256": digest.hexdigest()}).encode())
        body = b"".join(self.body_pieces())
        if url.path == "/redirect":
            return self.answer(int(query.get("code", "302")), b"moved", [("Location", query["to"]), ("X-Hop", "first")])
        if url.path == "/loop":
            return self.answer(302, b"again", [("Location", "/loop")])
        if url.path == "/delay":
            # The fault under test: a server slow to answer. Not synchronisation: the
            # client's own timeout must fire first. Ends early when the client hangs up.
            self.connection.settimeout(float(query.get("s", "5")))
            try:
                self.connection.recv(1)
            except (socket.timeout, OSError):
                pass
            self.connection.settimeout(None)
            return self.answer(200, b"late")
        if url.path == "/status":
            headers = [("Retry-After", query["retry_after"])] if "retry_after" in query else []
            return self.answer(int(query["code"]), b"status", headers)
        if url.path == "/big":
            return self.answer(200, b"x" * int(query["n"]))
        if url.path == "/http09":
            self.close_connection = True
            return self.wfile.write(b"hello from 1991\n")
        if url.path == "/huge-header":
            self.close_connection = True
            return self.wfile.write(
                b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 200000 + b"\r\nContent-Length: 2\r\n\r\nok")
        if "save" in query:  # a large body goes to a file; the answer stays small
            with open(query["save"], "wb") as saved: saved.write(body)
            body = b""
        echo = {
            "method": self.command, "path": self.path,
            "headers": [[k, v] for k, v in self.headers.items()],
            "body": base64.b64encode(body).decode(),
            "chunked": "chunked" in self.headers.get("Transfer-Encoding", "").lower(),
            "connection": self.connection_number,
        }
        self.answer(200, json.dumps(echo).encode(), [("Content-Type", "application/json"), ("X-Echo", "yes")])

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

def serve_tcp():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0)); listener.listen(16)
    print(listener.getsockname()[1], flush=True)
    while True:
        conn, _ = listener.accept()
        digest, length = hashlib.sha256(), 0
        while True:
            piece = conn.recv(65536)
            if not piece: break
            digest.update(piece); length += len(piece)
        conn.sendall(("https://termbin.example/%d/%s\n" % (length, digest.hexdigest())).encode())
        conn.close()

if sys.argv[1] == "tcp":
    serve_tcp()
else:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()
