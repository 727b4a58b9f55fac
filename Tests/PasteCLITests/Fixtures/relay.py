"""Byte relays shared by the test servers in this folder (Python standard library only).

`pump(a, b)` copies bytes both ways between two sockets until both directions are done, then
closes both. TLS sockets may hold decrypted bytes that `select` cannot see (`pending()`), so those are
drained before waiting again.
"""
import select
import socket
import ssl


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
    """Relays between two connected sockets until both directions are done; closes both.

    When one side stops sending, the other is told so (`shutdown(SHUT_WR)`) and the relay goes
    on the other way: a netcat-style client half-closes and then waits for the answer. A TLS
    side cannot be half-closed here, so its peer finishing ends the relay.
    """
    try:
        sending = {a: b, b: a}
        while sending:
            ready, _, _ = select.select(list(sending), [], [])
            for source in ready:
                target = sending[source]
                if _drain(source, target):
                    continue
                del sending[source]
                if isinstance(target, ssl.SSLSocket):
                    return
                target.shutdown(socket.SHUT_WR)
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
