# A TLS server (self-signed for 127.0.0.1) answering POST with 302 to /pastes/1, for TransportTests.
# Usage: tls_server.py CERT KEY; prints "listening on http://127.0.0.1:PORT".
import http.server, ssl, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get('Content-Length', '0')))
        self.send_response(302); self.send_header('Location', '/pastes/1')
        self.send_header('Content-Length', '0'); self.end_headers()
    def do_GET(self):
        self.send_response(200); self.send_header('Content-Length', '2'); self.end_headers()
        self.wfile.write(b'ok')
    def log_message(self, *a): pass
server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server.socket = context.wrap_socket(server.socket, server_side=True)
print('listening on http://127.0.0.1:%d' % server.server_address[1], flush=True)
server.serve_forever()
