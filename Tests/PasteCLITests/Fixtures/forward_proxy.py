#!/usr/bin/env python3
"""A forward HTTP proxy for tests: CONNECT tunnels and absolute-form requests.

    forward_proxy.py [--auth USER:PASSWORD] [--cert CERT --key KEY]

Listens on 127.0.0.1 (port picked by the OS) and prints 'listening on http://127.0.0.1:PORT'
(https:// with --cert: the proxy itself then speaks TLS). Every request is logged on one line
before it is served, so a test can see how the client came:

    CONNECT 127.0.0.1:4431          a tunnel (the client's https:// uploads)
    POST http://127.0.0.1:8080/x    an absolute-form request (http:// uploads), relayed with
                                    'Connection: close' and without Proxy-* headers

With --auth, a request without 'Proxy-Authorization: Basic base64(USER:PASSWORD)' is answered
407 and logged 'auth refused'; an accepted one is logged 'auth ok'. Credentials are never
logged.
"""
import argparse
import base64
import socket
import ssl
import threading

from relay import listener, pump, say


def read_head(sock):
    """The request head up to the blank line, and whatever body bytes came with it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None, b""
        data += chunk
        if len(data) > 1 << 20:
            return None, b""
    head, _, rest = data.partition(b"\r\n\r\n")
    return head.decode("latin-1"), rest


def refuse(sock, status, reason, extra=""):
    sock.sendall(
        ("HTTP/1.1 %d %s\r\n%sContent-Length: 0\r\nConnection: close\r\n\r\n" % (status, reason, extra)).encode())
    sock.close()


def split_authority(authority, default_port):
    host, _, port = authority.rpartition(":")
    if not host or not port.isdigit():
        return authority, default_port
    return host.strip("[]"), int(port)


def serve(client, expected_auth):
    head, rest = read_head(client)
    if head is None:
        client.close()
        return
    lines = head.split("\r\n")
    method, target, version = (lines[0].split(" ") + ["", ""])[:3]
    headers = [line for line in lines[1:] if line]
    say("%s %s" % (method, target))
    if expected_auth is not None:
        given = [h.split(":", 1)[1].strip() for h in headers if h.lower().startswith("proxy-authorization:")]
        if given != ["Basic " + expected_auth]:
            say("auth refused")
            refuse(client, 407, "Proxy Authentication Required", 'Proxy-Authenticate: Basic realm="test"\r\n')
            return
        say("auth ok")
    if method == "CONNECT":
        host, port = split_authority(target, 443)
        try:
            upstream = socket.create_connection((host, port), timeout=10)
        except OSError:
            refuse(client, 502, "Bad Gateway")
            return
        upstream.settimeout(None)
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        if rest:
            upstream.sendall(rest)
        pump(client, upstream)
        return
    if not target.startswith("http://"):
        refuse(client, 400, "Bad Request")
        return
    authority, _, path = target[len("http://"):].partition("/")
    host, port = split_authority(authority, 80)
    try:
        upstream = socket.create_connection((host, port), timeout=10)
    except OSError:
        refuse(client, 502, "Bad Gateway")
        return
    upstream.settimeout(None)
    kept = [h for h in headers if not h.lower().startswith(("proxy-", "connection:"))]
    request = "\r\n".join(["%s /%s %s" % (method, path, version)] + kept + ["Connection: close", "", ""])
    upstream.sendall(request.encode("latin-1") + rest)
    pump(client, upstream)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--auth")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    options = parser.parse_args()
    expected = base64.b64encode(options.auth.encode()).decode() if options.auth else None
    context = None
    if options.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.cert, options.key)
    sock = listener()
    say("listening on %s://127.0.0.1:%d" % ("https" if context else "http", sock.getsockname()[1]))

    def start(client):
        if context:
            try:
                client = context.wrap_socket(client, server_side=True)
            except (ssl.SSLError, OSError) as error:
                say("handshake failed: %s" % error)
                client.close()
                return
        serve(client, expected)

    while True:
        client, _ = sock.accept()
        threading.Thread(target=start, args=(client,), daemon=True).start()


if __name__ == "__main__":
    main()
