#!/usr/bin/env python3
"""A SOCKS5 proxy for tests (RFC 1928, CONNECT only, no authentication).

    socks5_proxy.py [--map NAME=ADDRESS[:PORT] ...]

Listens on 127.0.0.1 (port picked by the OS) and prints 'listening on socks5://127.0.0.1:PORT'.
Each request is logged before it is served:

    CONNECT name paste.test:8080    the client left the name to the proxy (socks5h)
    CONNECT ipv4 127.0.0.1:8080     the client resolved the name itself (socks5)

A name given with --map resolves to that address here and nowhere else, so a test can prove
that only the proxy resolved it; with :PORT, a connection to that name on any port goes to that
port (a mock standing in for a public host's 443). Other names are refused (reply 4, host
unreachable), never looked up.
"""
import argparse
import socket
import struct
import threading

from relay import listener, pump, say


def receive(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def reply(sock, code):
    sock.sendall(struct.pack("!BBBB4sH", 5, code, 0, 1, b"\0\0\0\0", 0))


def serve(client, names):
    try:
        version, count = receive(client, 2)
        methods = receive(client, count)
        if version != 5 or 0 not in methods:
            client.sendall(b"\x05\xff")
            client.close()
            return
        client.sendall(b"\x05\x00")
        version, command, _, kind = receive(client, 4)
        if kind == 1:
            address = socket.inet_ntoa(receive(client, 4))
            label = "ipv4 " + address
        elif kind == 3:
            name = receive(client, receive(client, 1)[0]).decode("idna")
            address = names.get(name)
            label = "name " + name
        elif kind == 4:
            address = socket.inet_ntop(socket.AF_INET6, receive(client, 16))
            label = "ipv6 " + address
        else:
            reply(client, 8)
            client.close()
            return
        port = struct.unpack("!H", receive(client, 2))[0]
        say("CONNECT %s:%d" % (label, port))
        if address is not None and ":" in address and kind == 3:
            address, port = address.rsplit(":", 1)
            port = int(port)
        if command != 1 or address is None:
            reply(client, 7 if command != 1 else 4)
            client.close()
            return
        try:
            upstream = socket.create_connection((address, port), timeout=10)
        except OSError:
            reply(client, 5)
            client.close()
            return
        upstream.settimeout(None)
        reply(client, 0)
        pump(client, upstream)
    except (ConnectionError, OSError):
        client.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--map", action="append", default=[])
    options = parser.parse_args()
    names = dict(item.split("=", 1) for item in options.map)
    sock = listener()
    say("listening on socks5://127.0.0.1:%d" % sock.getsockname()[1])
    while True:
        client, _ = sock.accept()
        threading.Thread(target=serve, args=(client, names), daemon=True).start()


if __name__ == "__main__":
    main()
