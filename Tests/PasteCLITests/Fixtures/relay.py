"""Byte relays shared by the test servers in this folder (Python standard library only).

`pump(a, b)` copies bytes both ways between two sockets until either side closes, then closes
both. TLS sockets may hold decrypted bytes that `select` cannot see (`pending()`), so those are
drained before waiting again.
"""
import select
import socket


def _drain(source, target):
    """Moves what `source` has to `target`; False once `source` is closed."""
    try:
        data = source.recv(65536)
    except (ConnectionError, OSError):
        return False
    if not data:
        return False
    target.sendall(data)
    pending = getattr(source, "pending", None)
    while pending is not None and pending() > 0:
        data = source.recv(65536)
        if not data:
            return False
        target.sendall(data)
    return True


def pump(a, b):
    """Relays between two connected sockets until one of them closes; closes both."""
    try:
        sockets = [a, b]
        while True:
            ready, _, _ = select.select(sockets, [], [])
            for source in ready:
                target = b if source is a else a
                if not _drain(source, target):
                    return
    except (ConnectionError, OSError):
        return
    finally:
        for sock in (a, b):
            try:
                sock.close()
            except OSError:
                pass


def listener():
    """A TCP socket listening on 127.0.0.1 on a port the OS picks."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


def say(line):
    """One line of the server's log (stdout, flushed: the test reads it while we run)."""
    print(line, flush=True)
