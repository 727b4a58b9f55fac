// The candidate search (see csecret_scan.h). A position is a candidate when its pair has a
// group in the pair table, the byte after it may follow that pair, and some member of the group
// fits there: its first eight bytes and its shape. The table is looked up eight positions a
// step with one branch for all eight; the rest runs only at the rare positions whose pair is a
// trigger's, so the text the rules turn away most often (the colons of log lines' timestamps,
// `auth` in `author`) never leaves this file.
#include "csecret_scan.h"

#include <stdlib.h>
#include <string.h>

static inline int in_set(const uint64_t set[2], uint8_t byte) {
    return byte < 128 && ((set[byte >> 6] >> (byte & 63)) & 1);
}

struct csecret_scan {
    uint8_t groups[CSECRET_SCAN_PAIRS];
    size_t group_count;
    uint64_t *followers;  // 4 words per group
    uint32_t *member_starts;
    csecret_scan_member *members;
    csecret_scan_run *runs;
};

csecret_scan *csecret_scan_create(const uint8_t *groups, const uint64_t *followers, size_t group_count,
                                  const uint32_t *member_starts, const csecret_scan_member *members,
                                  size_t member_count, const csecret_scan_run *runs, size_t run_count) {
    size_t follower_bytes = 4 * group_count * sizeof(uint64_t);
    size_t start_bytes = (group_count + 1) * sizeof(uint32_t);
    size_t member_bytes = member_count * sizeof(csecret_scan_member);
    size_t run_bytes = run_count * sizeof(csecret_scan_run);
    // One allocation: the struct, then the members and runs (8-byte aligned), the followers
    // and the member starts.
    csecret_scan *scan = malloc(sizeof(csecret_scan) + member_bytes + run_bytes + follower_bytes + start_bytes);
    if (scan == NULL) return NULL;
    uint8_t *next = (uint8_t *)(scan + 1);
    scan->members = (csecret_scan_member *)next;
    next += member_bytes;
    scan->runs = (csecret_scan_run *)next;
    next += run_bytes;
    scan->followers = (uint64_t *)next;
    next += follower_bytes;
    scan->member_starts = (uint32_t *)next;
    memcpy(scan->groups, groups, CSECRET_SCAN_PAIRS);
    scan->group_count = group_count;
    if (member_bytes > 0) memcpy(scan->members, members, member_bytes);
    if (run_bytes > 0) memcpy(scan->runs, runs, run_bytes);
    memcpy(scan->followers, followers, follower_bytes);
    memcpy(scan->member_starts, member_starts, start_bytes);
    return scan;
}

void csecret_scan_destroy(csecret_scan *scan) { free(scan); }

/// Whether `member` fits the text with its pair at `p`: the literal lies in the text, its first
/// eight bytes (or all, when fewer) are there, and the text from its start has its shape (or
/// ends before the shape is decided: then the rule decides).
__attribute__((always_inline)) static inline int member_fits(const csecret_scan *scan, const csecret_scan_member *member, const uint8_t *text,
                              size_t count, size_t p) {
    if (p < member->offset) return 0;
    size_t start = p - member->offset;
    if (member->length > count - start) return 0;
    uint64_t word = 0;  // little-endian
    if (count - start >= 8) {
        memcpy(&word, text + start, 8);  // one load
    } else {
        for (size_t i = 0; i < count - start; i++) word |= (uint64_t)text[start + i] << (8 * i);
    }
    if (((word | member->fold) & member->mask) != member->prefix) return 0;
    size_t index = start;
    const csecret_scan_run *run = scan->runs + member->shape_start;
    for (uint32_t r = 0; r < member->shape_count; r++, run++) {
        size_t limit = count - index < run->max ? count : index + run->max;
        size_t from = index;
        while (index < limit && in_set(run->set, text[index])) index++;
        if (index == count) return 1;
        if (index - from < run->min) return 0;
    }
    return 1;
}

/// Whether the pair at `p` (`p + 1 < count`) of group `group` (not 0) is a candidate.
__attribute__((always_inline)) static inline int fits(const csecret_scan *scan, const uint8_t *text, size_t count, size_t p, unsigned group) {
    if (p + 2 < count) {
        uint8_t next = text[p + 2];
        if (((scan->followers[4 * group + (next >> 6)] >> (next & 63)) & 1) == 0) return 0;
    }
    for (uint32_t m = scan->member_starts[group]; m < scan->member_starts[group + 1]; m++) {
        if (member_fits(scan, scan->members + m, text, count, p)) return 1;
    }
    return 0;
}

static inline unsigned pair_at(const uint8_t *text, size_t p) {
    uint16_t pair;
    memcpy(&pair, text + p, 2);  // one unaligned load; little-endian: first | second << 8
    return pair;
}

/// Emits the candidates among the eight positions from `p` whose groups `hits` holds (byte `k`:
/// the group of the pair at `p + k`, 0 for none), in order; the caller has room for eight. Out
/// of line: a block with a trigger's pair is the rare one, and the loop keeps its registers.
__attribute__((noinline)) static size_t block_candidates(const csecret_scan *scan, const uint8_t *text, size_t count,
                                                         size_t p, uint64_t hits, size_t *positions, uint8_t *groups,
                                                         size_t n) {
    // Visited lowest first: one branch per hit, not one per position.
    while (hits != 0) {
        unsigned shift = (unsigned)__builtin_ctzll(hits) & ~7u;
        unsigned group = (unsigned)(hits >> shift) & 0xff;
        hits &= ~(0xffull << shift);
        size_t q = p + shift / 8;
        if (!fits(scan, text, count, q, group)) continue;
        positions[n] = q;
        groups[n] = (uint8_t)group;
        n++;
    }
    return n;
}

size_t csecret_scan_find(const csecret_scan *scan, const uint8_t *text, size_t count, size_t from, size_t to,
                         size_t *positions, uint8_t *groups, size_t capacity, size_t *found) {
    *found = 0;
    if (count < 2 || from >= to || from >= count - 1) return to;
    const uint8_t *table = scan->groups;
    size_t n = 0;
    size_t end = to < count - 1 ? to : count - 1;
    size_t p = from;
    // Eight positions a step, one branch for all eight: the table lookups are independent, and
    // a trigger's pair (one position in 60 of log lines, fewer in code and prose) is rare enough.
    while (p + 8 <= end && capacity - n >= CSECRET_SCAN_STEP) {
        uint64_t hits = 0;
        for (unsigned k = 0; k < 8; k++) hits |= (uint64_t)table[pair_at(text, p + k)] << (8 * k);
        if (hits != 0) n = block_candidates(scan, text, count, p, hits, positions, groups, n);
        p += 8;
    }
    // The last positions (or until the output is full) one at a time.
    for (; p < end && n < capacity; p++) {
        unsigned group = table[pair_at(text, p)];
        if (group == 0 || !fits(scan, text, count, p, group)) continue;
        positions[n] = p;
        groups[n] = (uint8_t)group;
        n++;
    }
    *found = n;
    return p >= end ? to : p;
}
