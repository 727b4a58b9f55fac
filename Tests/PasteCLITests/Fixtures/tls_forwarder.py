#!/usr/bin/env python3
"""A TLS-terminating forwarder for tests: TLS in front of a plain HTTP server (paste-mock).

    tls_forwarder.py --cert CERT --key KEY --to PORT [--client-ca CA]

Listens on 127.0.0.1 (port picked by the OS), prints 'listening on https://127.0.0.1:PORT',
and relays every connection, once its handshake is done, to 127.0.0.1:PORT in plain text.
With --client-ca, a client certificate signed by CA is required (mutual TLS). Each handshake
is logged: 'handshake ok' (with the client certificate's subject when one was shown) or
'handshake failed: REASON'.
"""
import argparse
import socket
import ssl
import threading

from relay import listener, pump, say


def linger(secure):
    """Reads the client's side to its end before closing, as servers do after a failed handshake:
    a TLS 1.3 client sends its request before it reads the alert, and a connection closed under it
    would turn the alert into a broken pipe."""
    raw = socket.socket(fileno=secure.detach())
    raw.settimeout(10)
    try:
        while raw.recv(65536):
            pass
    except OSError:
        pass
    raw.close()


def serve(client, context, target_port):
    secure = context.wrap_socket(client, server_side=True, do_handshake_on_connect=False)
    try:
        secure.do_handshake()
    except (ssl.SSLError, OSError) as error:
        say("handshake failed: %s" % error)
        linger(secure)
        return
    peer = secure.getpeercert()
    subject = ""
    if peer:
        subject = " client=" + ",".join("%s=%s" % item for part in peer.get("subject", ()) for item in part)
    say("handshake ok" + subject)
    upstream = socket.create_connection(("127.0.0.1", target_port))
    pump(secure, upstream)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--to", type=int, required=True)
    parser.add_argument("--client-ca")
    options = parser.parse_args()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(options.cert, options.key)
    if options.client_ca:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(options.client_ca)
    sock = listener()
    say("listening on https://127.0.0.1:%d" % sock.getsockname()[1])
    while True:
        client, _ = sock.accept()
        threading.Thread(target=serve, args=(client, context, options.to), daemon=True).start()


if __name__ == "__main__":
    main()
