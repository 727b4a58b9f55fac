# Answers every connection with bare text (HTTP/0.9) or a 200 KB header line, for TrustAndProxyTests.
# Usage: odd_server.py http09|header; prints "listening on http://127.0.0.1:PORT".
import socket, sys, threading
mode = sys.argv[1]
listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(8)
print("listening on http://127.0.0.1:%d" % listener.getsockname()[1], flush=True)
def serve(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk: break
        data += chunk
    if mode == "http09": conn.sendall(b"hello from 1991\n")
    else: conn.sendall(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 200000 + b"\r\n\r\n")
    conn.close()
while True:
    conn, _ = listener.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
