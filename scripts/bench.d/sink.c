// A sink for scripts/bench's stream case: an HTTP/1.1 server on 127.0.0.1 that reads every
// request's body and throws it away, without looking at it (paste-mock hashes every byte it
// discards, which costs most of a core per gigabyte and sets the anchor's pace; issue 44).
//
//   sink           listens on an OS-picked port, prints "listening on http://127.0.0.1:PORT" and
//                  serves until it is killed: a POST is answered 302 to /pastes/1 (paste's pastie
//                  form and `curl -T -` alike), anything else 200 with a two-byte page.
//
// Bodies framed by Content-Length or chunked transfer coding; keep-alive; one thread per
// connection (so the process's CPU time, /proc/PID/stat, is all of it). Not a general server:
// the bench's clients only.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

enum { BUFFER = 1 << 20 };

/// One connection: its socket and the unread bytes, `buffer[start..<end]`.
typedef struct connection {
    int peer;
    size_t start, end;
    char buffer[BUFFER];
} connection;

/// Reads more into the buffer (moving what is unread to its front); 0 at end of file.
static int fill(connection *c) {
    if (c->start > 0) {
        memmove(c->buffer, c->buffer + c->start, c->end - c->start);
        c->end -= c->start;
        c->start = 0;
    }
    if (c->end == BUFFER) return 0;
    ssize_t got = read(c->peer, c->buffer + c->end, BUFFER - c->end);
    if (got <= 0) return 0;
    c->end += (size_t)got;
    return 1;
}

/// The next line (without CRLF), NUL-terminated in place; NULL at end of file.
static char *line(connection *c) {
    for (;;) {
        char *found = memchr(c->buffer + c->start, '\n', c->end - c->start);
        if (found) {
            char *text = c->buffer + c->start;
            *found = 0;
            if (found > text && found[-1] == '\r') found[-1] = 0;
            c->start = (size_t)(found - c->buffer) + 1;
            return text;
        }
        if (!fill(c)) return NULL;
    }
}

/// Drops `count` bytes of body; 0 when the connection ended first.
static int skip(connection *c, unsigned long long count) {
    while (count > 0) {
        if (c->start == c->end) {
            c->start = c->end = 0;
            ssize_t got = read(c->peer, c->buffer, BUFFER);
            if (got <= 0) return 0;
            c->end = (size_t)got;
        }
        size_t take = c->end - c->start < count ? c->end - c->start : (size_t)count;
        c->start += take;
        count -= take;
    }
    return 1;
}

static unsigned port;

static void serve(connection *c) {
    for (;;) {
        char *request = line(c);
        if (!request) return;
        if (!*request) continue;
        int post = strncmp(request, "POST ", 5) == 0;
        unsigned long long length = 0;
        int chunked = 0;
        char *header;
        while ((header = line(c)) && *header) {
            if (strncasecmp(header, "Content-Length:", 15) == 0) length = strtoull(header + 15, NULL, 10);
            if (strncasecmp(header, "Transfer-Encoding:", 18) == 0 && strstr(header, "chunked")) chunked = 1;
        }
        if (!header) return;
        if (chunked) {
            for (;;) {
                char *size = line(c);
                if (!size) return;
                unsigned long long count = strtoull(size, NULL, 16);
                if (count == 0) {
                    while ((header = line(c)) && *header) {}  // trailers
                    if (!header) return;
                    break;
                }
                if (!skip(c, count) || !line(c)) return;
            }
        } else if (!skip(c, length)) {
            return;
        }
        char answer[256];
        int size = post ? snprintf(answer, sizeof answer,
                                   "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:%u/pastes/1\r\n"
                                   "Content-Length: 0\r\n\r\n",
                                   port)
                        : snprintf(answer, sizeof answer,
                                   "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");
        if (write(c->peer, answer, (size_t)size) != size) return;
    }
}

static void *connected(void *argument) {
    connection *c = argument;
    serve(c);
    close(c->peer);
    free(c);
    return NULL;
}

int main(void) {
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 64) != 0
        || getsockname(listener, (struct sockaddr *)&address, &length) != 0) {
        perror("sink");
        return 1;
    }
    port = ntohs(address.sin_port);
    printf("listening on http://127.0.0.1:%u\n", port);
    fflush(stdout);
    for (;;) {
        int peer = accept(listener, NULL, NULL);
        if (peer < 0) continue;
        connection *c = malloc(sizeof *c);
        pthread_t thread;
        pthread_attr_t detached;
        pthread_attr_init(&detached);
        pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
        if (!c) {
            close(peer);
            continue;
        }
        c->peer = peer;
        c->start = c->end = 0;
        if (pthread_create(&thread, &detached, connected, c) != 0) {
            close(peer);
            free(c);
        }
    }
}
