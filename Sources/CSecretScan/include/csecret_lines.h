// CSecretScan's line-feed count: where a finding is, in lines, for the secret guard.
//
// Why in C: once the guard has found something in a stream, it counts the line feeds of all that
// goes by after it (a finding's line number is known only from the lines before it, and a
// stream's bytes are gone once they went by). Over the bench's source code, which has its first
// finding at an eighth of its length, that was the whole text again in Swift's 16-byte vectors
// (4 % of `paste -n -f`, PERF(guard-text)); one compare of 64 bytes to a mask and its population
// count are a fraction of that.
#ifndef CSECRET_LINES_H
#define CSECRET_LINES_H

#include <stddef.h>
#include <stdint.h>

/// How many bytes of `text[0..<count]` are `byte`, and where the last of them is (`*last`,
/// SIZE_MAX when there is none). AVX-512 BW or AVX2 where the processor and the system run them
/// (chosen once), else a plain loop.
size_t csecret_count_byte(const uint8_t *text, size_t count, uint8_t byte, size_t *last);

/// The count's kernels: the plain loop, AVX2 and AVX-512 BW.
typedef enum csecret_count_kernel {
    CSECRET_COUNT_PORTABLE = 0,
    CSECRET_COUNT_AVX2 = 1,
    CSECRET_COUNT_AVX512 = 2,
} csecret_count_kernel;

/// `csecret_count_byte` with one kernel (the plain loop when `kernel` does not run here): the
/// same answer whichever runs (the tests hold the kernels to each other).
size_t csecret_count_byte_with(csecret_count_kernel kernel, const uint8_t *text, size_t count, uint8_t byte,
                               size_t *last);

/// The count's kernels that run on this processor: bit `k` for kernel `k` (the plain loop always).
unsigned csecret_count_kernels(void);

#endif
