// glibc functions newer than the GLIBC_2.34 floor, defined here so that the static archives
// that call them bind to these (include/cglibc_floor.h says which archives and why).
#ifndef PASTE_LINK_DYNAMIC

#include "cglibc_floor.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

/// Fills `buffer` from `/dev/urandom`, for a kernel without `getrandom(2)` (before Linux 3.17,
/// or a sandbox that refuses the call with ENOSYS), as glibc's own arc4random falls back.
/// Returns 0, or -1 when the device cannot be read.
static int cglibc_floor_read_urandom(unsigned char *buffer, size_t count) {
    int descriptor;
    do {
        descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    } while (descriptor < 0 && errno == EINTR);
    if (descriptor < 0) return -1;
    while (count > 0) {
        ssize_t got = read(descriptor, buffer, count);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            close(descriptor);
            return -1;
        }
        buffer += got;
        count -= (size_t)got;
    }
    close(descriptor);
    return 0;
}

void arc4random_buf(void *buffer, size_t count) {
    unsigned char *next = buffer;
    int saved = errno;
    while (count > 0) {
        // Blocks only until the kernel's pool is first initialized, as glibc's arc4random does;
        // a large request may come back short (at most 32 MiB - 1 per call), so loop.
        ssize_t got = getrandom(next, count, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            if (errno == ENOSYS && cglibc_floor_read_urandom(next, count) == 0) break;
            // arc4random cannot report failure: glibc aborts here too.
            abort();
        }
        next += got;
        count -= (size_t)got;
    }
    errno = saved;
}

uint32_t arc4random(void) {
    uint32_t value;
    arc4random_buf(&value, sizeof value);
    return value;
}

float hypotf(float x, float y) {
    // C99 F.9.4.3: an infinity wins over a NaN.
    if (isinf(x) || isinf(y)) return INFINITY;
    if (isnan(x) || isnan(y)) return x + y;
    // Two floats squared and summed in double can neither overflow nor lose a subnormal, so
    // one rounding to float is all the care needed (glibc 2.35's e_hypotf.c does the same).
    // Not `hypot`: the double one moved to GLIBC_2.35 as well.
    float result = (float)sqrt((double)x * (double)x + (double)y * (double)y);
    if (isinf(result)) errno = ERANGE;
    return result;
}

double hypot(double x, double y) {
    if (isinf(x) || isinf(y)) return INFINITY;
    if (isnan(x) || isnan(y)) return x + y;
    // The same one step wider: two doubles squared and summed in long double (x87's 64-bit
    // significand and 15-bit exponent here, IEEE quad on aarch64) neither overflow nor
    // underflow; `sqrtl` is GLIBC_2.2.5 (2.17 on aarch64).
    long double wide_x = x;
    long double wide_y = y;
    double result = (double)sqrtl(wide_x * wide_x + wide_y * wide_y);
    if (isinf(result)) errno = ERANGE;
    return result;
}

#endif
