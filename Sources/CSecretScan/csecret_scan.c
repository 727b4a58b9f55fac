// The candidate search (see csecret_scan.h). A position is a candidate when its pair has a
// group in the pair table and the byte after it may follow that pair: exactly the test the
// scalar kernel makes at every position. The vector kernels first run Teddy over 16 positions
// at once: each position's three bytes (the pair and its follower) are split into nibbles,
// each nibble looks up the set of buckets that may have it at that place (`pshufb` on a
// 16-byte table), and the three sets are intersected; a position whose intersection is empty
// cannot be a candidate, and only the others get the exact pair-table test. Every trigger's
// fingerprint is entered in its bucket's masks (SecretPrefilter+Teddy.swift), so Teddy never
// drops a candidate: it only saves the table lookups at positions where no fingerprint fits.
//
// Fat Teddy (aho-corasick's name): with AVX2 the 16 positions are broadcast into both halves
// of a 256-bit register, the low half looked up in buckets 0-7 and the high half in 8-15, so
// 16 buckets cost what 8 do. The SSSE3 kernel does the two halves one after the other.
#include "csecret_scan.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CSECRET_SCAN_X86 1
#endif

struct csecret_scan {
    uint8_t masks[CSECRET_SCAN_MASK_BYTES];
    uint8_t groups[CSECRET_SCAN_PAIRS];
    int kernel;
    size_t group_count;
    uint64_t followers[];  // 4 words per group
};

int csecret_scan_best_kernel(void) {
#ifdef CSECRET_SCAN_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return CSECRET_SCAN_AVX2;
    if (__builtin_cpu_supports("ssse3")) return CSECRET_SCAN_SSSE3;
#endif
    return CSECRET_SCAN_SCALAR;
}

csecret_scan *csecret_scan_create(const uint8_t *masks, const uint8_t *groups, const uint64_t *followers,
                                  size_t group_count, int kernel) {
    csecret_scan *scan = malloc(sizeof(csecret_scan) + 4 * group_count * sizeof(uint64_t));
    if (scan == NULL) return NULL;
    memcpy(scan->masks, masks, CSECRET_SCAN_MASK_BYTES);
    memcpy(scan->groups, groups, CSECRET_SCAN_PAIRS);
    memcpy(scan->followers, followers, 4 * group_count * sizeof(uint64_t));
    scan->group_count = group_count;
    int best = csecret_scan_best_kernel();
    scan->kernel = kernel < best ? kernel : best;
    return scan;
}

void csecret_scan_destroy(csecret_scan *scan) { free(scan); }

/// The exact test at `p` (`p + 1 < count`): the group, or 0.
static inline unsigned pair_group(const csecret_scan *scan, const uint8_t *text, size_t count, size_t p) {
    unsigned group = scan->groups[text[p] | (unsigned)text[p + 1] << 8];
    if (group == 0 || p + 2 >= count) return group;
    uint8_t next = text[p + 2];
    return (scan->followers[4 * group + (next >> 6)] >> (next & 63)) & 1 ? group : 0;
}

static inline unsigned pair_at(const uint8_t *text, size_t p) {
    uint16_t pair;
    memcpy(&pair, text + p, 2);  // one unaligned load; little-endian: first | second << 8
    return pair;
}

static size_t find_scalar(const csecret_scan *scan, const uint8_t *text, size_t count, size_t from, size_t to,
                          size_t *positions, uint8_t *groups, size_t capacity, size_t *found) {
    size_t n = *found;
    size_t end = to < count - 1 ? to : count - 1;
    size_t p = from;
    // Eight positions a step, one branch for all eight: the table lookups are independent, and
    // a hit (one position in 60 of log lines, fewer in code and prose) is rare enough.
    while (p + 8 <= end && capacity - n >= 8) {
        const uint8_t *table = scan->groups;
        uint64_t hits = 0;
        for (unsigned k = 0; k < 8; k++) hits |= (uint64_t)table[pair_at(text, p + k)] << (8 * k);
        // The groups packed in one word, visited lowest first: one branch per hit, not one
        // per position of a block that has one.
        while (hits != 0) {
            unsigned shift = (unsigned)__builtin_ctzll(hits) & ~7u;
            unsigned group = (unsigned)(hits >> shift) & 0xff;
            hits &= ~(0xffull << shift);
            size_t q = p + shift / 8;
            if (q + 2 < count) {
                uint8_t next = text[q + 2];
                if (((scan->followers[4 * group + (next >> 6)] >> (next & 63)) & 1) == 0) continue;
            }
            positions[n] = q;
            groups[n] = (uint8_t)group;
            n++;
        }
        p += 8;
    }
    for (; p < end; p++) {
        if (n == capacity) break;
        unsigned group = pair_group(scan, text, count, p);
        if (group != 0) {
            positions[n] = p;
            groups[n] = (uint8_t)group;
            n++;
        }
    }
    *found = n;
    return p >= end ? to : p;
}

/// Emits the exact candidates among the lanes set in `lanes` (bit j: position p + j).
static inline size_t emit(const csecret_scan *scan, const uint8_t *text, size_t count, size_t p, uint32_t lanes,
                          size_t *positions, uint8_t *groups, size_t n) {
    while (lanes != 0) {
        size_t q = p + (size_t)__builtin_ctz(lanes);
        lanes &= lanes - 1;
        unsigned group = pair_group(scan, text, count, q);
        if (group != 0) {
            positions[n] = q;
            groups[n] = (uint8_t)group;
            n++;
        }
    }
    return n;
}

#ifdef CSECRET_SCAN_X86

__attribute__((target("avx2"))) static size_t find_avx2(const csecret_scan *scan, const uint8_t *text,
                                                         size_t count, size_t from, size_t to, size_t *positions,
                                                         uint8_t *groups, size_t capacity, size_t *found) {
    const __m256i low_nibbles = _mm256_set1_epi8(0x0f);
    const __m256i lo0 = _mm256_loadu_si256((const __m256i *)(scan->masks + 0));
    const __m256i hi0 = _mm256_loadu_si256((const __m256i *)(scan->masks + 32));
    const __m256i lo1 = _mm256_loadu_si256((const __m256i *)(scan->masks + 64));
    const __m256i hi1 = _mm256_loadu_si256((const __m256i *)(scan->masks + 96));
    const __m256i lo2 = _mm256_loadu_si256((const __m256i *)(scan->masks + 128));
    const __m256i hi2 = _mm256_loadu_si256((const __m256i *)(scan->masks + 160));
    const __m256i zero = _mm256_setzero_si256();
    size_t n = *found;
    size_t p = from;
    // 16 positions a step; their three bytes reach p + 17.
    while (p + CSECRET_SCAN_STEP <= to && p + CSECRET_SCAN_STEP + 2 <= count) {
        if (capacity - n < CSECRET_SCAN_STEP) {
            *found = n;
            return p;
        }
        __m256i b0 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(text + p)));
        __m256i b1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(text + p + 1)));
        __m256i b2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(text + p + 2)));
        __m256i r = _mm256_and_si256(
            _mm256_shuffle_epi8(lo0, _mm256_and_si256(b0, low_nibbles)),
            _mm256_shuffle_epi8(hi0, _mm256_and_si256(_mm256_srli_epi16(b0, 4), low_nibbles)));
        r = _mm256_and_si256(r, _mm256_shuffle_epi8(lo1, _mm256_and_si256(b1, low_nibbles)));
        r = _mm256_and_si256(
            r, _mm256_shuffle_epi8(hi1, _mm256_and_si256(_mm256_srli_epi16(b1, 4), low_nibbles)));
        r = _mm256_and_si256(r, _mm256_shuffle_epi8(lo2, _mm256_and_si256(b2, low_nibbles)));
        r = _mm256_and_si256(
            r, _mm256_shuffle_epi8(hi2, _mm256_and_si256(_mm256_srli_epi16(b2, 4), low_nibbles)));
        uint32_t empty = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(r, zero));
        if (empty != 0xffffffffu) {
            uint32_t lanes = ~empty;
            n = emit(scan, text, count, p, (lanes | lanes >> 16) & 0xffff, positions, groups, n);
        }
        p += CSECRET_SCAN_STEP;
    }
    *found = n;
    return p >= to ? to : find_scalar(scan, text, count, p, to, positions, groups, capacity, found);
}

/// One half (8 buckets) of the fat masks at `offset` (0 or 16) over 16 positions.
__attribute__((target("ssse3"))) static inline __m128i teddy_half(const uint8_t *masks, size_t offset, __m128i b0,
                                                                   __m128i b1, __m128i b2) {
    const __m128i low_nibbles = _mm_set1_epi8(0x0f);
    __m128i r = _mm_and_si128(
        _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(masks + 0 + offset)), _mm_and_si128(b0, low_nibbles)),
        _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(masks + 32 + offset)),
                         _mm_and_si128(_mm_srli_epi16(b0, 4), low_nibbles)));
    r = _mm_and_si128(r, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(masks + 64 + offset)),
                                          _mm_and_si128(b1, low_nibbles)));
    r = _mm_and_si128(r, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(masks + 96 + offset)),
                                          _mm_and_si128(_mm_srli_epi16(b1, 4), low_nibbles)));
    r = _mm_and_si128(r, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(masks + 128 + offset)),
                                          _mm_and_si128(b2, low_nibbles)));
    r = _mm_and_si128(r, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(masks + 160 + offset)),
                                          _mm_and_si128(_mm_srli_epi16(b2, 4), low_nibbles)));
    return r;
}

__attribute__((target("ssse3"))) static size_t find_ssse3(const csecret_scan *scan, const uint8_t *text,
                                                           size_t count, size_t from, size_t to, size_t *positions,
                                                           uint8_t *groups, size_t capacity, size_t *found) {
    const __m128i zero = _mm_setzero_si128();
    size_t n = *found;
    size_t p = from;
    while (p + CSECRET_SCAN_STEP <= to && p + CSECRET_SCAN_STEP + 2 <= count) {
        if (capacity - n < CSECRET_SCAN_STEP) {
            *found = n;
            return p;
        }
        __m128i b0 = _mm_loadu_si128((const __m128i *)(text + p));
        __m128i b1 = _mm_loadu_si128((const __m128i *)(text + p + 1));
        __m128i b2 = _mm_loadu_si128((const __m128i *)(text + p + 2));
        __m128i r = _mm_or_si128(teddy_half(scan->masks, 0, b0, b1, b2), teddy_half(scan->masks, 16, b0, b1, b2));
        uint32_t empty = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(r, zero));
        if (empty != 0xffffu) n = emit(scan, text, count, p, ~empty & 0xffff, positions, groups, n);
        p += CSECRET_SCAN_STEP;
    }
    *found = n;
    return p >= to ? to : find_scalar(scan, text, count, p, to, positions, groups, capacity, found);
}

#endif

size_t csecret_scan_find(const csecret_scan *scan, const uint8_t *text, size_t count, size_t from, size_t to,
                         size_t *positions, uint8_t *groups, size_t capacity, size_t *found) {
    *found = 0;
    if (count < 2 || from >= to || from >= count - 1) return to;
#ifdef CSECRET_SCAN_X86
    if (scan->kernel == CSECRET_SCAN_AVX2) return find_avx2(scan, text, count, from, to, positions, groups, capacity, found);
    if (scan->kernel == CSECRET_SCAN_SSSE3) return find_ssse3(scan, text, count, from, to, positions, groups, capacity, found);
#endif
    return find_scalar(scan, text, count, from, to, positions, groups, capacity, found);
}
