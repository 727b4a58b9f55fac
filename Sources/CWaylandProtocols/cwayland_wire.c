// See include/cwayland_wire.h for what this is and why it exists.
#define _GNU_SOURCE
#include "cwayland_wire.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

enum {
    /// Two words: the object id, then the size and opcode.
    header_size = 8,
    /// A message's size is 16 bits: the read buffer holds any one whole, with room for the
    /// start of the next.
    in_capacity = 65536 + 4096,
    /// libwayland-server's connection buffer (4096 bytes) is the longest request a compositor takes.
    max_request_size = 4096,
    /// Requests queued between flushes (paste flushes at every wait).
    out_capacity = 16384,
    /// Descriptors received and not yet taken by an event: libwayland's limit for one connection.
    in_descriptor_capacity = 256,
    /// Descriptors sent with one sendmsg (libwayland's MAX_FDS_OUT).
    out_descriptor_capacity = 28,
};

struct cwayland_wire {
    int socket;
    /// Read bytes: [in_head, in_tail) is not yet handled.
    size_t in_head, in_tail;
    /// Received descriptors, a ring: in_descriptor_count of them from in_descriptor_head.
    size_t in_descriptor_head, in_descriptor_count;
    /// Queued request bytes and the duplicated descriptors that go with them.
    size_t out_length, out_descriptor_count;
    int in_descriptors[in_descriptor_capacity];
    int out_descriptors[out_descriptor_capacity];
    uint8_t out[out_capacity];
    uint8_t in[in_capacity];
};

static size_t padded(size_t length) { return (length + 3) & ~(size_t)3; }

struct cwayland_wire *cwayland_wire_connect(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    size_t length = strlen(path);
    if (length >= sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    memcpy(address.sun_path, path, length + 1);
    int socket_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (socket_fd < 0) return NULL;
    if (connect(socket_fd, (struct sockaddr *)&address, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length + 1)) <
        0) {
        int failure = errno;
        close(socket_fd);
        errno = failure;
        return NULL;
    }
    return cwayland_wire_adopt(socket_fd);
}

struct cwayland_wire *cwayland_wire_adopt(int socket_fd) {
    // Not calloc: the buffers' pages are touched only as far as they are used.
    struct cwayland_wire *wire = malloc(sizeof *wire);
    if (wire == NULL) {
        close(socket_fd);
        errno = ENOMEM;
        return NULL;
    }
    wire->socket = socket_fd;
    wire->in_head = wire->in_tail = 0;
    wire->in_descriptor_head = wire->in_descriptor_count = 0;
    wire->out_length = wire->out_descriptor_count = 0;
    return wire;
}

int cwayland_wire_socket(const struct cwayland_wire *wire) { return wire->socket; }

static void close_out_descriptors(struct cwayland_wire *wire) {
    for (size_t index = 0; index < wire->out_descriptor_count; index++) close(wire->out_descriptors[index]);
    wire->out_descriptor_count = 0;
}

void cwayland_wire_close(struct cwayland_wire *wire) {
    close(wire->socket);
    for (size_t index = 0; index < wire->in_descriptor_count; index++)
        close(wire->in_descriptors[(wire->in_descriptor_head + index) % in_descriptor_capacity]);
    close_out_descriptors(wire);
    free(wire);
}

// MARK: - Requests

static void put_word(uint8_t **cursor, uint32_t word) {
    memcpy(*cursor, &word, sizeof word);
    *cursor += sizeof word;
}

int cwayland_wire_marshal(
    struct cwayland_wire *wire, uint32_t object, uint16_t opcode, const char *signature, const uint32_t *words,
    const char *string, int descriptor) {
    size_t size = header_size;
    size_t descriptors = 0;
    for (const char *letter = signature; *letter != '\0'; letter++) {
        switch (*letter) {
        case 'i':
        case 'u':
        case 'o':
        case 'n': size += 4; break;
        case 's': size += 4 + (string == NULL ? 0 : padded(strlen(string) + 1)); break;
        case 'h': descriptors++; break;
        default: break; // '?'
        }
    }
    if (size > max_request_size) {
        errno = EMSGSIZE;
        return -1;
    }
    if (out_capacity - wire->out_length < size || out_descriptor_capacity - wire->out_descriptor_count < descriptors) {
        // Full: send what is queued if the socket takes it (its failure is the next flush's).
        (void)cwayland_wire_flush(wire);
        if (out_capacity - wire->out_length < size ||
            out_descriptor_capacity - wire->out_descriptor_count < descriptors) {
            errno = ENOBUFS;
            return -1;
        }
    }
    if (descriptors > 0) {
        // Ours until sent: the caller may close its own at once (as with libwayland).
        int copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0);
        if (copy < 0) return -1;
        wire->out_descriptors[wire->out_descriptor_count++] = copy;
    }
    uint8_t *cursor = wire->out + wire->out_length;
    put_word(&cursor, object);
    put_word(&cursor, (uint32_t)size << 16 | opcode);
    for (const char *letter = signature; *letter != '\0'; letter++) {
        switch (*letter) {
        case 'i':
        case 'u':
        case 'o':
        case 'n': put_word(&cursor, *words++); break;
        case 's':
            if (string == NULL) {
                put_word(&cursor, 0);
            } else {
                size_t length = strlen(string) + 1;
                put_word(&cursor, (uint32_t)length);
                memcpy(cursor, string, length);
                memset(cursor + length, 0, padded(length) - length);
                cursor += padded(length);
            }
            break;
        default: break;
        }
    }
    wire->out_length += size;
    return 0;
}

int cwayland_wire_flush(struct cwayland_wire *wire) {
    while (wire->out_length > 0) {
        struct iovec chunk = {.iov_base = wire->out, .iov_len = wire->out_length};
        union {
            char bytes[CMSG_SPACE(sizeof(int) * out_descriptor_capacity)];
            struct cmsghdr align;
        } control;
        struct msghdr message = {.msg_iov = &chunk, .msg_iovlen = 1};
        if (wire->out_descriptor_count > 0) {
            // The descriptors go with the first bytes sent, never after the request that names them.
            size_t length = sizeof(int) * wire->out_descriptor_count;
            memset(&control, 0, sizeof control);
            message.msg_control = control.bytes;
            message.msg_controllen = CMSG_SPACE(length);
            struct cmsghdr *header = CMSG_FIRSTHDR(&message);
            header->cmsg_level = SOL_SOCKET;
            header->cmsg_type = SCM_RIGHTS;
            header->cmsg_len = CMSG_LEN(length);
            memcpy(CMSG_DATA(header), wire->out_descriptors, length);
        }
        ssize_t sent = sendmsg(wire->socket, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        close_out_descriptors(wire);
        memmove(wire->out, wire->out + sent, wire->out_length - (size_t)sent);
        wire->out_length -= (size_t)sent;
    }
    return 0;
}

// MARK: - Events

int cwayland_wire_read(struct cwayland_wire *wire) {
    if (wire->in_head > 0) {
        memmove(wire->in, wire->in + wire->in_head, wire->in_tail - wire->in_head);
        wire->in_tail -= wire->in_head;
        wire->in_head = 0;
    }
    if (wire->in_tail == in_capacity) {
        // Cannot be: the caller handles every whole event before reading, and one fits.
        errno = ENOBUFS;
        return -1;
    }
    struct iovec space = {.iov_base = wire->in + wire->in_tail, .iov_len = in_capacity - wire->in_tail};
    union {
        char bytes[CMSG_SPACE(sizeof(int) * out_descriptor_capacity)];
        struct cmsghdr align;
    } control;
    struct msghdr message = {
        .msg_iov = &space, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t count;
    do {
        count = recvmsg(wire->socket, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    } while (count < 0 && errno == EINTR);
    if (count < 0) return -1;
    int lost = (message.msg_flags & MSG_CTRUNC) != 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t received = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t index = 0; index < received; index++) {
            int descriptor;
            memcpy(&descriptor, CMSG_DATA(header) + index * sizeof(int), sizeof(int));
            if (wire->in_descriptor_count == in_descriptor_capacity) {
                close(descriptor);
                lost = 1;
                continue;
            }
            size_t slot = (wire->in_descriptor_head + wire->in_descriptor_count) % in_descriptor_capacity;
            wire->in_descriptors[slot] = descriptor;
            wire->in_descriptor_count++;
        }
    }
    wire->in_tail += (size_t)count;
    if (lost) {
        // A later event would take another event's descriptor: nothing after this can be trusted.
        errno = EPROTO;
        return -1;
    }
    return (int)count;
}

int cwayland_wire_next(struct cwayland_wire *wire, struct cwayland_wire_message *message) {
    size_t available = wire->in_tail - wire->in_head;
    if (available < header_size) return 0;
    uint32_t header[2];
    memcpy(header, wire->in + wire->in_head, sizeof header);
    uint32_t size = header[1] >> 16;
    if (size < header_size || size % 4 != 0) {
        errno = EPROTO;
        return -1;
    }
    if (available < size) return 0;
    message->object = header[0];
    message->opcode = (uint16_t)(header[1] & 0xffff);
    message->size = (uint16_t)size;
    return 1;
}

int cwayland_wire_decode(struct cwayland_wire *wire, const char *signature, struct cwayland_wire_message *message) {
    const uint8_t *cursor = wire->in + wire->in_head + header_size;
    const uint8_t *end = wire->in + wire->in_head + message->size;
    size_t index = 0;
    int isNullable = 0;
    for (const char *letter = signature; *letter != '\0'; letter++) {
        if (*letter == '?') {
            isNullable = 1;
            continue;
        }
        if (index == CWAYLAND_WIRE_MAX_ARGUMENTS) goto malformed;
        union cwayland_wire_argument *argument = &message->arguments[index++];
        switch (*letter) {
        case 'i':
        case 'u':
        case 'o':
        case 'n':
            if (end - cursor < 4) goto malformed;
            memcpy(&argument->u, cursor, 4);
            cursor += 4;
            if ((*letter == 'o' || *letter == 'n') && argument->u == 0 && !isNullable) goto malformed;
            break;
        case 's': {
            if (end - cursor < 4) goto malformed;
            uint32_t length;
            memcpy(&length, cursor, 4);
            cursor += 4;
            if (length == 0) {
                if (!isNullable) goto malformed;
                argument->s = NULL;
                break;
            }
            if (length > (size_t)(end - cursor) || padded(length) > (size_t)(end - cursor)) goto malformed;
            if (cursor[length - 1] != '\0') goto malformed;
            argument->s = (const char *)cursor;
            cursor += padded(length);
            break;
        }
        case 'h':
            // Sent with the event's bytes or before them: a whole event without it is a broken one.
            if (wire->in_descriptor_count == 0) goto malformed;
            argument->i = wire->in_descriptors[wire->in_descriptor_head];
            wire->in_descriptor_head = (wire->in_descriptor_head + 1) % in_descriptor_capacity;
            wire->in_descriptor_count--;
            break;
        default: goto malformed;
        }
        isNullable = 0;
    }
    return 0;
malformed:
    errno = EPROTO;
    return -1;
}

void cwayland_wire_consume(struct cwayland_wire *wire, const struct cwayland_wire_message *message) {
    wire->in_head += message->size;
    if (wire->in_head == wire->in_tail) wire->in_head = wire->in_tail = 0;
}
