// paste's own Wayland wire client: the framing of the protocol's messages over the compositor's
// Unix socket, and the descriptors that travel beside them (SCM_RIGHTS).
//
// Why not libwayland-client: Debian ships it only as a shared library, which with libffi cost
// ~0.5 ms to load on a hotkey press (it was opened with dlopen at the first connection), and its
// generated request functions are variadic (Swift cannot call them). paste speaks a handful of
// requests and events (wl_display, wl_registry, wl_callback, wl_seat and the two data-control
// protocols, which share one shape): this file frames them, WaylandInterop's
// `DataControlSession` keeps the object table and gives each event its meaning.
//
// The wire format (wayland.xml and the protocol documentation, "Wire Format"): every message is
// a header of two 32-bit words in the host's byte order, the object id, then the message's size
// in bytes (header included, a multiple of 4) in the upper 16 bits and its opcode in the lower 16,
// followed by the arguments: int, uint, object and new_id as one word (object 0 is null), a
// string as its length including the NUL (0 for null) and its bytes padded to a word, and a
// descriptor as nothing at all: it travels in the ancillary data of the sendmsg that carries
// the message (or an earlier one), in order. Requests and events are framed alike; the
// signatures use libwayland's letters: i u o n s h, '?' before a nullable o or s.
#ifndef CWAYLAND_WIRE_H
#define CWAYLAND_WIRE_H

#include <stdint.h>

/// One connection: the socket, what was read and not yet handled (bytes and descriptors), and
/// the requests not yet sent (bytes and duplicated descriptors).
struct cwayland_wire;

/// The most arguments an event paste decodes has (`wl_display.error`: three).
#define CWAYLAND_WIRE_MAX_ARGUMENTS 4

/// One argument of an event, as `cwayland_wire_decode` fills it.
union cwayland_wire_argument {
    /// 'i', and 'h': a descriptor, the caller's to close.
    int32_t i;
    /// 'u', 'o' (an object id, 0 for null) and 'n' (the id of an object the compositor made).
    uint32_t u;
    /// 's': the string in the connection's buffer (NULL for a null string), valid until
    /// `cwayland_wire_consume`.
    const char *s;
};

/// An event: the header that `cwayland_wire_next` reads, the arguments `cwayland_wire_decode` adds.
struct cwayland_wire_message {
    uint32_t object;
    uint16_t opcode;
    /// Its size in bytes, header included.
    uint16_t size;
    union cwayland_wire_argument arguments[CWAYLAND_WIRE_MAX_ARGUMENTS];
};

/// Connects to the compositor's socket at `path` (absolute); NULL with errno on failure
/// (ENAMETOOLONG for a path longer than a Unix socket address holds).
struct cwayland_wire *cwayland_wire_connect(const char *path);
/// Takes `socket` (a connected stream socket) as a connection; NULL with errno ENOMEM, and
/// `socket` closed.
struct cwayland_wire *cwayland_wire_adopt(int socket);
/// The connection's socket (still the connection's).
int cwayland_wire_socket(const struct cwayland_wire *wire);
/// Closes the socket and every descriptor the connection holds, and frees it. Sends nothing:
/// flush first.
void cwayland_wire_close(struct cwayland_wire *wire);

/// Queues a request of `object` with the arguments the signature names, each one 32-bit word
/// (i, u, o, n: `words`, in order), the string ('s': `string`, NULL for a null string; paste's
/// requests have one at most) or the descriptor ('h': `descriptor`, duplicated here; the
/// caller keeps its own).
/// 0, or -1 with errno: EMSGSIZE (longer than a compositor takes, 4096 bytes), ENOBUFS (the
/// queue is full and the socket would not take it), or dup's error.
int cwayland_wire_marshal(
    struct cwayland_wire *wire, uint32_t object, uint16_t opcode, const char *signature, const uint32_t *words,
    const char *string, int descriptor);
/// Sends what is queued, without blocking. 0 when all is sent, -1 with errno (EAGAIN: the
/// socket is full, wait until it is writable and call again).
int cwayland_wire_flush(struct cwayland_wire *wire);

/// Reads what the socket holds, without blocking. The bytes read (> 0), 0 when the compositor
/// closed the connection, or -1 with errno (EAGAIN: nothing yet; EPROTO: descriptors were
/// lost, more than a connection may hold or cut short; the connection is then unusable).
int cwayland_wire_read(struct cwayland_wire *wire);
/// The header of the next whole event read: 1 (`message`'s object, opcode and size filled), 0
/// when the next event has not arrived whole yet, -1 with errno EPROTO for a header no
/// compositor sends (a size under 8 or not a multiple of 4).
int cwayland_wire_next(struct cwayland_wire *wire, struct cwayland_wire_message *message);
/// Decodes the arguments of the event `cwayland_wire_next` found, by `signature`, into
/// `message->arguments`; a descriptor ('h') is taken from those received, and is the caller's.
/// 0, or -1 with errno EPROTO when the event does not hold what the signature says (too
/// short, a string without its NUL, a null where none may be, a descriptor that did not come).
int cwayland_wire_decode(struct cwayland_wire *wire, const char *signature, struct cwayland_wire_message *message);
/// Drops the event `cwayland_wire_next` found (its strings with it).
void cwayland_wire_consume(struct cwayland_wire *wire, const struct cwayland_wire_message *message);

#endif
