// The line-feed count (csecret_lines.h says why it is in C).
#include "csecret_lines.h"

#include <stdatomic.h>

/// The plain loop: every processor, and the bytes after the last full vector (`*last` is kept
/// when none is there).
static size_t count_portable(const uint8_t *text, size_t count, uint8_t byte, size_t base, size_t *last) {
    size_t total = 0, found = *last;
    for (size_t i = 0; i < count; i++) {
        if (text[i] == byte) {
            total++;
            found = base + i;
        }
    }
    *last = found;
    return total;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>

/// The widest kernel the processor and the system run (POPCNT with both): AVX2 with the YMM
/// state saved, AVX-512 F and BW (and AVX2) with the opmask and ZMM state saved too (XCR0).
static csecret_count_kernel detect_kernel(void) {
    unsigned a, b, c, d;
    // OSXSAVE, AVX, POPCNT.
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !(c & (1u << 28)) || !(c & (1u << 23))) {
        return CSECRET_COUNT_PORTABLE;
    }
    unsigned low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    (void)high;
    if ((low & 0x06) != 0x06) return CSECRET_COUNT_PORTABLE;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return CSECRET_COUNT_PORTABLE;
    if ((low & 0xe0) == 0xe0 && (b & (1u << 5)) && (b & (1u << 16)) && (b & (1u << 30))) return CSECRET_COUNT_AVX512;
    return (b & (1u << 5)) ? CSECRET_COUNT_AVX2 : CSECRET_COUNT_PORTABLE;
}

/// The position of the highest set bit of the last non-zero mask of four (at `base`, 64 bytes
/// each), or `last` when all four are zero.
static inline size_t last_of_four(uint64_t m0, uint64_t m1, uint64_t m2, uint64_t m3, size_t base, size_t last) {
    if (m3) return base + 255 - (size_t)__builtin_clzll(m3);
    if (m2) return base + 191 - (size_t)__builtin_clzll(m2);
    if (m1) return base + 127 - (size_t)__builtin_clzll(m1);
    if (m0) return base + 63 - (size_t)__builtin_clzll(m0);
    return last;
}

/// 256 bytes a step: four compares to masks, their population counts, and the highest bit of
/// the last mask that had one (kept in a register: a store through `last` in the loop would be
/// ordered before every load of the text, which it may alias).
__attribute__((target("avx512f,avx512bw,popcnt"))) static size_t count_avx512(const uint8_t *text,
                                                                             size_t count, uint8_t byte,
                                                                             size_t *last) {
    const __m512i wanted = _mm512_set1_epi8((char)byte);
    size_t total = 0, i = 0, found = SIZE_MAX;
    for (; i + 256 <= count; i += 256) {
        uint64_t m0 = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(text + i)), wanted);
        uint64_t m1 = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(text + i + 64)), wanted);
        uint64_t m2 = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(text + i + 128)), wanted);
        uint64_t m3 = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(text + i + 192)), wanted);
        total += (size_t)(_mm_popcnt_u64(m0) + _mm_popcnt_u64(m1) + _mm_popcnt_u64(m2) + _mm_popcnt_u64(m3));
        found = last_of_four(m0, m1, m2, m3, i, found);
    }
    *last = found;
    return total + count_portable(text + i, count - i, byte, i, last);
}

/// The 32-byte compares of AVX2, two to a 64-bit mask.
__attribute__((target("avx2"))) static inline uint64_t mask_avx2(const uint8_t *text, __m256i wanted) {
    uint32_t low = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)text), wanted));
    uint32_t high = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(text + 32)), wanted));
    return (uint64_t)low | (uint64_t)high << 32;
}

/// The same with AVX2's 32-byte compares.
__attribute__((target("avx2,popcnt"))) static size_t count_avx2(const uint8_t *text, size_t count, uint8_t byte,
                                                                size_t *last) {
    const __m256i wanted = _mm256_set1_epi8((char)byte);
    size_t total = 0, i = 0, found = SIZE_MAX;
    for (; i + 256 <= count; i += 256) {
        uint64_t m0 = mask_avx2(text + i, wanted), m1 = mask_avx2(text + i + 64, wanted);
        uint64_t m2 = mask_avx2(text + i + 128, wanted), m3 = mask_avx2(text + i + 192, wanted);
        total += (size_t)(_mm_popcnt_u64(m0) + _mm_popcnt_u64(m1) + _mm_popcnt_u64(m2) + _mm_popcnt_u64(m3));
        found = last_of_four(m0, m1, m2, m3, i, found);
    }
    *last = found;
    return total + count_portable(text + i, count - i, byte, i, last);
}

/// The fastest kernel that runs here, detected once (a `cpuid` in a virtual machine traps to the
/// host); threads racing to it store the same value.
static csecret_count_kernel fastest(void) {
    static atomic_int known;  // the kernel + 1; 0 until detected
    int kernel = atomic_load_explicit(&known, memory_order_relaxed);
    if (kernel == 0) {
        kernel = (int)detect_kernel() + 1;
        atomic_store_explicit(&known, kernel, memory_order_relaxed);
    }
    return (csecret_count_kernel)(kernel - 1);
}

static size_t count_with(csecret_count_kernel kernel, const uint8_t *text, size_t count, uint8_t byte,
                         size_t *last) {
    *last = SIZE_MAX;
    // A kernel asked for by name runs only where the fastest is at least as wide.
    if (kernel > fastest()) kernel = CSECRET_COUNT_PORTABLE;
    switch (kernel) {
    case CSECRET_COUNT_AVX512: return count_avx512(text, count, byte, last);
    case CSECRET_COUNT_AVX2: return count_avx2(text, count, byte, last);
    default: return count_portable(text, count, byte, 0, last);
    }
}

size_t csecret_count_byte(const uint8_t *text, size_t count, uint8_t byte, size_t *last) {
    return count_with(fastest(), text, count, byte, last);
}

size_t csecret_count_byte_with(csecret_count_kernel kernel, const uint8_t *text, size_t count, uint8_t byte,
                               size_t *last) {
    return count_with(kernel, text, count, byte, last);
}

unsigned csecret_count_kernels(void) {
    unsigned kernels = 0;
    for (int kernel = CSECRET_COUNT_PORTABLE; kernel <= (int)fastest(); kernel++) kernels |= 1u << kernel;
    return kernels;
}
#else
size_t csecret_count_byte(const uint8_t *text, size_t count, uint8_t byte, size_t *last) {
    *last = SIZE_MAX;
    return count_portable(text, count, byte, 0, last);
}

size_t csecret_count_byte_with(csecret_count_kernel kernel, const uint8_t *text, size_t count, uint8_t byte,
                               size_t *last) {
    (void)kernel;
    return csecret_count_byte(text, count, byte, last);
}

unsigned csecret_count_kernels(void) { return 1u << CSECRET_COUNT_PORTABLE; }
#endif
