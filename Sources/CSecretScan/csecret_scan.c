// The candidate search (see csecret_scan.h). A position is a candidate when its pair has a
// group in the pair table, the byte after it may follow that pair, and some member of the group
// fits there: its first eight bytes and its shape. The vector kernels let through, 64 positions
// a step, only those whose three bytes are in one bucket's classes; the portable one looks the
// table up eight positions a step with one branch for all eight. The rest runs only at the rare
// positions whose pair is a trigger's, so the text the rules turn away most often (the colons
// of log lines' timestamps, `auth` in `author`) never leaves this file.
#include "csecret_scan.h"
#include "csecret_scan_builtin.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/// What the vector kernels' stages let through, counted only in a build for measuring
/// (`scripts/guard-kernel` defines `CSECRET_SCAN_COUNTS` and reads `csecret_scan_counts`): the
/// positions the filter listed, those whose pair has a group, those whose follower fits too, the
/// candidates, and the last two by group (which triggers the text wakes, and which hand the
/// caller work). The AVX-512 kernel tests no pair bits (its "paired" are all it listed); where
/// the output fills, the rest of that block is counted again when the search goes on; one
/// thread only. Compiled out of paste.
#ifdef CSECRET_SCAN_COUNTS
static struct {
    size_t listed, paired, kept, candidates;
    size_t kept_by_group[256], candidates_by_group[256];
} csecret_scan_counts;
#define COUNT(stage, n) (csecret_scan_counts.stage += (n))
#define COUNT_GROUP(stage, group) (csecret_scan_counts.stage##_by_group[(group)]++)
#else
#define COUNT(stage, n) ((void)0)
#define COUNT_GROUP(stage, group) ((void)0)
#endif

static inline int in_set(const uint64_t set[2], uint8_t byte) {
    return byte < 128 && ((set[byte >> 6] >> (byte & 63)) & 1);
}

/// A necessary condition of a member's shape that 64 bytes of text are tested against at once:
/// every byte the shape takes is in its alphabet (the union of its runs' sets: `classes` bit 0),
/// and its runs of the counted set alone (bit 1: the smallest set that a run must take at
/// least once) take at least `need` of those bytes. So the run of alphabet bytes from the
/// literal's start holds at least `need` counted bytes, or the shape cannot be there: a log
/// line's `12:34:56.789 INFO` has two colons before its space, a `.pgpass` line four.
struct shape_test {
    uint8_t classes[128];
    /// The same two sets for the AVX2 kernel, as bitmaps by low nibble: bit `h` of
    /// `alphabet[n]` (`counted[n]`) says whether byte `h << 4 | n` is in the set.
    uint8_t alphabet[16];
    uint8_t counted[16];
    uint32_t need;
};

/// The filter's buckets: every group is in one, and a bucket holds the union of its groups'
/// first bytes, second bytes and followers.
#define BUCKETS 16
/// The AVX2 kernel's buckets, in halves of eight (one lookup table a half), in two plans: 16
/// buckets (two halves, `NARROW`) and 24 (three, `WIDE`). With 207 groups, 16 buckets let
/// through one position in ten of log lines (the nibbles' cross products), 24 half as many for
/// six `vpshufb` more a 32-byte step; text that few positions pass (code, prose, a stream of one
/// byte) pays those six for little. The kernel runs the plan that costs its text least
/// (`struct avx2_width`).
/// PERF(guard-text), Zen 3, share of positions that pass, 16 -> 24 buckets: log lines 9.8 ->
/// 5.0 %, code 5.6 -> 3.9 %, prose 6.7 -> 3.8 %; the kernel alone over the bench's 256 MiB,
/// best of 15: log lines 169 -> 148 ms, code 117 -> 126, prose 99 -> 110 (docs/performance.md,
/// sessions 15 and 16). Four halves (3.4 % of log lines) spend more on the filter than they save.
#define NIBBLE_NARROW 2
#define NIBBLE_WIDE 3
#define NIBBLE_BUCKETS (8 * NIBBLE_WIDE)

struct csecret_scan {
    /// The tables: the built-in search's point at the static constants of csecret_scan_builtin.h
    /// (generated at build time, in the binary's .rodata, never copied), another search's at
    /// its copies, in its own allocation (`csecret_scan_create`). `CSECRET_SCAN_PAIRS` entries.
    const uint8_t *groups;
    /// The AVX-512 kernel's filter (see `assign_buckets`): for the first byte of a pair, its
    /// second and the byte after it (`classes[stage]`), the buckets of the ASCII bytes in two
    /// halves of eight bits (`[half][byte]`), and the buckets that take every byte from 128 up
    /// (`high[stage][half]`).
    uint8_t classes[3][2][128];
    uint8_t high[3][2];
    /// The AVX2 kernel's filter, buckets of its own (see `assign_nibble_buckets`), one plan of
    /// each width (`nibbles[halves - NIBBLE_NARROW]`): for each stage and half, the buckets of
    /// each low nibble (`[stage][half][0][n]`) and of each high nibble (`[1][n]`); the narrow
    /// plan leaves its third half empty.
    uint8_t nibbles[2][3][NIBBLE_WIDE][2][16];
    /// The pairs that have a group, a bit each (bit `pair & 63` of `pair_bits[pair >> 6]`): the
    /// AVX2 kernel tests the positions its filter passes against these 8 KiB, which stay in the
    /// first-level cache, before the pair table's 64 KiB (see `test_listed`).
    uint64_t pair_bits[CSECRET_SCAN_PAIRS / 64];
    /// The kernels that run here (bit `k`: `csecret_scan_kernel` `k`) and the fastest of them.
    unsigned kernels;
    csecret_scan_kernel fastest;
    /// The vector kernels' plans (the buckets and the shape tests) are made on their first use,
    /// not at creation (`plan`): a hotkey's kilobyte is searched by the portable kernel, which
    /// needs none, and planning was 1.2-1.4 ms of every run (issue 44). `planned` is set once
    /// they are (under `plan_lock`), `frequencies` is kept for them, and `portable_bytes` counts
    /// what `csecret_scan_find` searched without them (`PLAN_AFTER`).
    atomic_int planned;
    pthread_mutex_t plan_lock;
    atomic_size_t portable_bytes;
    size_t member_count;
    const float *frequencies;  // 256
    /// The vector kernels' quick test of the members' shapes (see `plan_shape_tests`; only when
    /// one runs): for member `m`, `shape_tests[shape_test_of[m]]`, or none when
    /// `shape_test_of[m]` is -1.
    int32_t *shape_test_of;
    struct shape_test *shape_tests;
    size_t group_count;
    const uint64_t *followers;  // 4 words per group
    const uint32_t *member_starts;
    const csecret_scan_member *members;
    const csecret_scan_run *runs;
};


// MARK: - The filter's buckets

/// The share of ordinary text's bytes that are in `set` (256 bits), by `frequencies`.
static double set_frequency(const uint64_t set[4], const float *frequencies) {
    double sum = 0;
    for (int word = 0; word < 4; word++) {
        for (uint64_t bits = set[word]; bits != 0; bits &= bits - 1) {
            sum += frequencies[64 * word + __builtin_ctzll(bits)];
        }
    }
    return sum;
}

/// Each group's three sets (`sets[group]`: its pairs' first and second bytes, its followers;
/// 256 bits each) and the groups in the order the bucket planners place them (`order`, the
/// `group_count - 1` groups from 1): the most frequent in ordinary text first, by the product of
/// their sets' frequencies.
static void order_groups(const csecret_scan *scan, const float *frequencies, uint64_t sets[256][3][4],
                         size_t order[256]) {
    size_t group_count = scan->group_count;  // at most 256: groups are bytes
    double weights[256];
    memset(sets, 0, group_count * sizeof sets[0]);
    for (size_t pair = 0; pair < CSECRET_SCAN_PAIRS; pair++) {
        unsigned group = scan->groups[pair];
        if (group == 0) continue;
        sets[group][0][(pair & 0xff) >> 6] |= 1ull << (pair & 63);
        sets[group][1][pair >> 14] |= 1ull << ((pair >> 8) & 63);
    }
    for (size_t group = 1; group < group_count; group++) {
        memcpy(sets[group][2], scan->followers + 4 * group, sizeof sets[group][2]);
        weights[group] = set_frequency(sets[group][0], frequencies) * set_frequency(sets[group][1], frequencies)
                         * set_frequency(sets[group][2], frequencies);
        // Insertion sort, heaviest first: at most 255 groups.
        size_t at = group - 1;
        while (at > 0 && weights[order[at - 1]] < weights[group]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = group;
    }
}

/// Puts every group in one of the AVX-512 kernel's sixteen buckets. A position passes the
/// filter when, for some bucket, its byte is one of the bucket's first bytes, the next one of its second
/// bytes and the one after that one of its followers; a bucket of several groups also passes
/// their cross products (`ke` of one group and `y_` of another pass `ky`), so the groups are
/// put where they add the least: each in turn (the most frequent in ordinary text first) into
/// the bucket whose estimated pass rate, the product of its three sets' frequencies, grows
/// least.
static void assign_buckets(csecret_scan *scan, const float *frequencies) {
    size_t group_count = scan->group_count;
    uint64_t sets[256][3][4];
    size_t order[256];
    order_groups(scan, frequencies, sets, order);
    memset(scan->classes, 0, sizeof scan->classes);
    memset(scan->high, 0, sizeof scan->high);
    uint64_t buckets[BUCKETS][3][4];
    double shares[BUCKETS][3];
    memset(buckets, 0, sizeof buckets);
    memset(shares, 0, sizeof shares);
    for (size_t index = 0; index + 1 < group_count; index++) {
        size_t group = order[index];
        int best = 0;
        double best_growth = 0;
        double best_shares[3] = {0, 0, 0};
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            double grown[3];
            for (int stage = 0; stage < 3; stage++) {
                uint64_t added[4];
                for (int word = 0; word < 4; word++) added[word] = sets[group][stage][word] & ~buckets[bucket][stage][word];
                grown[stage] = shares[bucket][stage] + set_frequency(added, frequencies);
            }
            double growth = grown[0] * grown[1] * grown[2] - shares[bucket][0] * shares[bucket][1] * shares[bucket][2];
            if (bucket == 0 || growth < best_growth) {
                best = bucket;
                best_growth = growth;
                memcpy(best_shares, grown, sizeof grown);
            }
        }
        for (int stage = 0; stage < 3; stage++) {
            for (int word = 0; word < 4; word++) buckets[best][stage][word] |= sets[group][stage][word];
            shares[best][stage] = best_shares[stage];
        }
    }
    for (int bucket = 0; bucket < BUCKETS; bucket++) {
        uint8_t bit = (uint8_t)(1u << (bucket & 7));
        int half = bucket >> 3;
        for (int stage = 0; stage < 3; stage++) {
            for (int byte = 0; byte < 128; byte++) {
                if ((buckets[bucket][stage][byte >> 6] >> (byte & 63)) & 1) scan->classes[stage][half][byte] |= bit;
            }
            if (buckets[bucket][stage][2] != 0 || buckets[bucket][stage][3] != 0) scan->high[stage][half] |= bit;
        }
    }
}

/// A stage's bytes as the AVX2 kernel sees them: the low nibbles and the high nibbles of its
/// bytes (bit `n`). It passes every byte whose low nibble and high nibble are both there.
struct nibble_set {
    uint16_t low;
    uint16_t high;
};

/// The share of ordinary text's bytes that a nibble set passes. `sums[h][half][bits]`: the
/// frequencies of the bytes `h << 4 | l` summed over the low nibbles `l` of the eight-bit
/// `bits` in that half.
static double nibble_frequency(struct nibble_set set, const float sums[16][2][256]) {
    double sum = 0;
    for (unsigned bits = set.high; bits != 0; bits &= bits - 1) {
        unsigned h = (unsigned)__builtin_ctz(bits);
        sum += sums[h][0][set.low & 0xff] + sums[h][1][set.low >> 8];
    }
    return sum;
}

/// The estimated pass rate of a bucket whose three stages are `sets`.
static double nibble_rate(const struct nibble_set sets[3], const float sums[16][2][256]) {
    return nibble_frequency(sets[0], sums) * nibble_frequency(sets[1], sums) * nibble_frequency(sets[2], sums);
}

/// `into` with `add`'s nibbles added, stage by stage.
static void nibble_union(struct nibble_set into[3], const struct nibble_set add[3]) {
    for (int stage = 0; stage < 3; stage++) {
        into[stage].low |= add[stage].low;
        into[stage].high |= add[stage].high;
    }
}

/// The nibble sets of a 256-bit set.
static struct nibble_set nibbles_of(const uint64_t set[4]) {
    struct nibble_set nibbles = {0, 0};
    for (int word = 0; word < 4; word++) {
        for (uint64_t bits = set[word]; bits != 0; bits &= bits - 1) {
            unsigned byte = 64 * (unsigned)word + (unsigned)__builtin_ctzll(bits);
            nibbles.low |= (uint16_t)(1u << (byte & 15));
            nibbles.high |= (uint16_t)(1u << (byte >> 4));
        }
    }
    return nibbles;
}

/// The bucket, `skip` aside, whose estimated rate grows least with `add` in it: that growth in
/// `*growth` and the bucket's rate then in `*grown_rate` (the first of equals).
static int cheapest_bucket(struct nibble_set buckets[NIBBLE_BUCKETS][3], const double rates[NIBBLE_BUCKETS],
                           int bucket_count, const struct nibble_set add[3], int skip, const float sums[16][2][256],
                           double *growth, double *grown_rate) {
    int best = -1;
    for (int bucket = 0; bucket < bucket_count; bucket++) {
        if (bucket == skip) continue;
        struct nibble_set grown[3];
        memcpy(grown, buckets[bucket], sizeof grown);
        nibble_union(grown, add);
        double rate = nibble_rate(grown, sums);
        if (best < 0 || rate - rates[bucket] < *growth) {
            best = bucket;
            *growth = rate - rates[bucket];
            *grown_rate = rate;
        }
    }
    return best;
}

/// Puts every group in one of `8 * halves` buckets of the AVX2 kernel and writes that plan's
/// nibble tables (`tables`, one of `scan->nibbles`).
/// That kernel looks each of a position's three bytes up by its two nibbles (as Teddy does), so
/// a bucket passes the cross product of its groups' nibbles as well as their pairs: `ke` and
/// `y_` in one bucket pass `ky`, but also every byte of `k`'s low nibble and `e`'s high one.
/// The groups go in (in `order_groups`' order) where the bucket's estimated pass rate grows
/// least; then each moves to another bucket while that lowers the sum of the rates (the first
/// placement is greedy, and a later group can make an earlier one's choice a poor one). Two
/// rounds, of 150 groups and 16 buckets on 16-bit sets: 0.35 ms on this project's slowest
/// machine (session 6), for a tenth less time on log lines (more rounds gain nothing). With
/// 207 groups and both plans, 16 and 24 buckets, the whole of `plan` takes 1.8 ms on Zen 3
/// (1.0 ms with the 24 alone), once a search has seen 256 KiB.
static void assign_nibble_buckets(const csecret_scan *scan, const float *frequencies, int halves,
                                  uint8_t tables[3][NIBBLE_WIDE][2][16]) {
    int bucket_count = 8 * halves;
    size_t group_count = scan->group_count;
    uint64_t byte_sets[256][3][4];
    size_t order[256];
    order_groups(scan, frequencies, byte_sets, order);
    struct nibble_set sets[256][3];
    for (size_t group = 1; group < group_count; group++) {
        for (int stage = 0; stage < 3; stage++) sets[group][stage] = nibbles_of(byte_sets[group][stage]);
    }
    float sums[16][2][256];
    for (unsigned h = 0; h < 16; h++) {
        for (unsigned half = 0; half < 2; half++) {
            sums[h][half][0] = 0;
            for (unsigned bits = 1; bits < 256; bits++) {
                unsigned l = (unsigned)__builtin_ctz(bits);
                sums[h][half][bits] = sums[h][half][bits & (bits - 1)] + frequencies[h << 4 | (8 * half + l)];
            }
        }
    }
    uint8_t bucket_of[256];
    struct nibble_set buckets[NIBBLE_BUCKETS][3];
    double rates[NIBBLE_BUCKETS];
    memset(buckets, 0, sizeof buckets);
    memset(rates, 0, sizeof rates);
    // Greedy: each group where the rate grows least.
    for (size_t index = 0; index + 1 < group_count; index++) {
        size_t group = order[index];
        double growth = 0, rate = 0;
        int best = cheapest_bucket(buckets, rates, bucket_count, sets[group], -1, sums, &growth, &rate);
        bucket_of[group] = (uint8_t)best;
        nibble_union(buckets[best], sets[group]);
        rates[best] = rate;
    }
    // Moves: a group to the bucket where it costs least, while one lowers the sum.
    for (int round = 0; round < 2; round++) {
        int moved = 0;
        for (size_t index = 0; index + 1 < group_count; index++) {
            size_t group = order[index];
            int from = bucket_of[group];
            struct nibble_set without[3] = {{0, 0}, {0, 0}, {0, 0}};
            for (size_t other = 1; other < group_count; other++) {
                if (bucket_of[other] == from && other != group) nibble_union(without, sets[other]);
            }
            double rate_without = nibble_rate(without, sums);
            double growth = 0, rate = 0;
            int best = cheapest_bucket(buckets, rates, bucket_count, sets[group], from, sums, &growth, &rate);
            // A clear gain only (rounding never makes a move).
            if (!(growth < (rates[from] - rate_without) * (1 - 1e-9))) continue;
            bucket_of[group] = (uint8_t)best;
            memcpy(buckets[from], without, sizeof without);
            rates[from] = rate_without;
            nibble_union(buckets[best], sets[group]);
            rates[best] = rate;
            moved++;
        }
        if (moved == 0) break;
    }
    memset(tables, 0, 3 * sizeof tables[0]);
    for (int bucket = 0; bucket < bucket_count; bucket++) {
        uint8_t bit = (uint8_t)(1u << (bucket & 7));
        int half = bucket >> 3;
        for (int stage = 0; stage < 3; stage++) {
            for (int n = 0; n < 16; n++) {
                if ((buckets[bucket][stage].low >> n) & 1) tables[stage][half][0][n] |= bit;
                if ((buckets[bucket][stage].high >> n) & 1) tables[stage][half][1][n] |= bit;
            }
        }
    }
}

// MARK: - The processor

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CSECRET_SCAN_X86 1
#include <cpuid.h>
#include <immintrin.h>

/// The kernels the processor and the system let run (bit `k`: kernel `k`): AVX2 with the system
/// saving the YMM registers, AVX-512 F, BW and VBMI with it saving the ZMM and mask registers
/// too (XCR0).
static unsigned runnable_kernels(void) {
    unsigned kernels = 1u << CSECRET_SCAN_PORTABLE;
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !(c & (1u << 28))) return kernels;  // OSXSAVE, AVX
    unsigned low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    (void)high;
    if ((low & 0x06) != 0x06) return kernels;  // SSE and AVX state
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return kernels;
    if (b & (1u << 5)) kernels |= 1u << CSECRET_SCAN_AVX2;
    // AVX512F, AVX512BW, AVX512VBMI; opmask, ZMM_Hi256, Hi16_ZMM state.
    if ((low & 0xe0) == 0xe0 && (b & (1u << 16)) && (b & (1u << 30)) && (c & (1u << 1))) {
        kernels |= 1u << CSECRET_SCAN_AVX512_VBMI;
    }
    return kernels;
}
#else
static unsigned runnable_kernels(void) { return 1u << CSECRET_SCAN_PORTABLE; }
#endif


/// Plans the members' quick shape tests (`struct shape_test`, into the search's own arrays):
/// for each member whose shape has a counted set that gives a need of two or more.
static void plan_shape_tests(csecret_scan *scan, size_t member_count) {
    int32_t planned = 0;
    for (size_t m = 0; m < member_count; m++) {
        scan->shape_test_of[m] = -1;
        const csecret_scan_member *member = scan->members + m;
        const csecret_scan_run *runs = scan->runs + member->shape_start;
        // The counted set: the smallest that some run must take at least once.
        int counted = -1;
        int smallest = 129;
        for (uint32_t r = 0; r < member->shape_count; r++) {
            int size = __builtin_popcountll(runs[r].set[0]) + __builtin_popcountll(runs[r].set[1]);
            if (runs[r].min > 0 && size < smallest) {
                smallest = size;
                counted = (int)r;
            }
        }
        if (counted < 0) continue;
        uint64_t alphabet[2] = {0, 0};
        uint32_t need = 0;
        for (uint32_t r = 0; r < member->shape_count; r++) {
            alphabet[0] |= runs[r].set[0];
            alphabet[1] |= runs[r].set[1];
            // A run whose set lies in the counted set takes only counted bytes.
            if ((runs[r].set[0] & ~runs[counted].set[0]) == 0 && (runs[r].set[1] & ~runs[counted].set[1]) == 0) {
                need += runs[r].min;
            }
        }
        if (need < 2) continue;
        struct shape_test *test = scan->shape_tests + planned;
        memset(test->alphabet, 0, sizeof test->alphabet);
        memset(test->counted, 0, sizeof test->counted);
        for (int byte = 0; byte < 128; byte++) {
            int in_alphabet = in_set(alphabet, (uint8_t)byte);
            int in_counted = in_set(runs[counted].set, (uint8_t)byte);
            test->classes[byte] = (uint8_t)(in_alphabet | in_counted << 1);
            test->alphabet[byte & 15] |= (uint8_t)(in_alphabet << (byte >> 4));
            test->counted[byte & 15] |= (uint8_t)(in_counted << (byte >> 4));
        }
        test->need = need;
        scan->shape_test_of[m] = planned++;
    }
}

/// A search of `member_count` members, with `extra` bytes (a multiple of 8) after the struct for
/// the caller's copies of its tables, then the vector kernels' shape tests (only where one runs):
/// one allocation, NULL when out of memory. Sets all but the tables.
static csecret_scan *allocate(size_t member_count, size_t extra) {
    // The vector kernels' plans only where one runs: the portable kernel needs none of them.
    unsigned kernels = runnable_kernels();
    int vector = kernels != 1u << CSECRET_SCAN_PORTABLE;
    size_t test_bytes = vector ? member_count * sizeof(struct shape_test) : 0;
    size_t test_of_bytes = vector ? member_count * sizeof(int32_t) : 0;
    csecret_scan *scan = malloc(sizeof(csecret_scan) + extra + test_of_bytes + test_bytes);
    if (scan == NULL) return NULL;
    uint8_t *next = (uint8_t *)(scan + 1) + extra;
    scan->shape_test_of = (int32_t *)next;
    next += test_of_bytes;
    scan->shape_tests = (struct shape_test *)next;
    scan->kernels = kernels;
    scan->fastest = CSECRET_SCAN_PORTABLE;
    if (kernels & 1u << CSECRET_SCAN_AVX2) scan->fastest = CSECRET_SCAN_AVX2;
    if (kernels & 1u << CSECRET_SCAN_AVX512_VBMI) scan->fastest = CSECRET_SCAN_AVX512_VBMI;
    scan->member_count = member_count;
    atomic_init(&scan->planned, !vector);
    atomic_init(&scan->portable_bytes, 0);
    pthread_mutex_init(&scan->plan_lock, NULL);
    return scan;
}

csecret_scan *csecret_scan_create(const uint8_t *groups, const uint64_t *followers, size_t group_count,
                                  const uint32_t *member_starts, const csecret_scan_member *members,
                                  size_t member_count, const csecret_scan_run *runs, size_t run_count,
                                  const float *byte_frequencies) {
    size_t member_bytes = member_count * sizeof(csecret_scan_member);
    size_t run_bytes = run_count * sizeof(csecret_scan_run);
    size_t follower_bytes = 4 * group_count * sizeof(uint64_t);
    size_t frequency_bytes = 256 * sizeof(float);
    size_t start_bytes = ((group_count + 1) * sizeof(uint32_t) + 7) & ~(size_t)7;
    // The copies after the struct: the members, runs and followers (8-byte aligned), the pair
    // table, the frequencies and the member starts.
    csecret_scan *scan = allocate(
        member_count, member_bytes + run_bytes + follower_bytes + CSECRET_SCAN_PAIRS + frequency_bytes + start_bytes);
    if (scan == NULL) return NULL;
    uint8_t *next = (uint8_t *)(scan + 1);
    if (member_bytes > 0) memcpy(next, members, member_bytes);
    scan->members = (const csecret_scan_member *)next;
    next += member_bytes;
    if (run_bytes > 0) memcpy(next, runs, run_bytes);
    scan->runs = (const csecret_scan_run *)next;
    next += run_bytes;
    memcpy(next, followers, follower_bytes);
    // No byte follows group 0 (no pair): the AVX2 kernel tests the follower without a branch
    // on the group.
    memset(next, 0, 4 * sizeof(uint64_t));
    scan->followers = (const uint64_t *)next;
    next += follower_bytes;
    memcpy(next, groups, CSECRET_SCAN_PAIRS);
    scan->groups = next;
    next += CSECRET_SCAN_PAIRS;
    memcpy(next, byte_frequencies, frequency_bytes);
    scan->frequencies = (const float *)next;
    next += frequency_bytes;
    memcpy(next, member_starts, (group_count + 1) * sizeof(uint32_t));
    scan->member_starts = (const uint32_t *)next;
    scan->group_count = group_count;
    return scan;
}

csecret_scan *csecret_scan_create_builtin(void) {
    csecret_scan *scan = allocate(BUILTIN_MEMBERS, 0);
    if (scan == NULL) return NULL;
    scan->groups = builtin_groups;
    scan->followers = builtin_followers;
    scan->group_count = BUILTIN_GROUPS;
    scan->member_starts = builtin_member_starts;
    scan->members = builtin_members;
    scan->runs = builtin_runs;
    scan->frequencies = builtin_frequencies;
    return scan;
}

const csecret_scan_trigger *csecret_scan_builtin_triggers(size_t *count) {
    *count = BUILTIN_TRIGGERS;
    return builtin_triggers;
}

const uint32_t *csecret_scan_builtin_member_starts(size_t *count) {
    *count = BUILTIN_GROUPS + 1;
    return builtin_member_starts;
}

const uint32_t *csecret_scan_builtin_member_triggers(size_t *count) {
    *count = BUILTIN_MEMBERS;
    return builtin_member_triggers;
}

const uint8_t *csecret_scan_builtin_literals(size_t *count) {
    *count = BUILTIN_LITERAL_BYTES;
    return builtin_literals;
}

/// Makes the vector kernels' plans, once, on the first search that runs one (any thread): the
/// search is otherwise never written after its creation, so the plans are published with a
/// release store that every later reader's acquire load sees. The tables they are made from are
/// the ones copied in at creation, so a plan made late is the plan that would have been made
/// then: the kernels keep finding the same candidates as the portable one.
static void plan(const csecret_scan *search) {
    csecret_scan *scan = (csecret_scan *)search;  // the plans only: written once, under the lock
    if (atomic_load_explicit(&scan->planned, memory_order_acquire)) return;
    pthread_mutex_lock(&scan->plan_lock);
    if (!atomic_load_explicit(&scan->planned, memory_order_relaxed)) {
        if (scan->kernels & 1u << CSECRET_SCAN_AVX2) {
            for (int halves = NIBBLE_NARROW; halves <= NIBBLE_WIDE; halves++) {
                assign_nibble_buckets(scan, scan->frequencies, halves, scan->nibbles[halves - NIBBLE_NARROW]);
            }
            memset(scan->pair_bits, 0, sizeof scan->pair_bits);
            for (size_t pair = 0; pair < CSECRET_SCAN_PAIRS; pair++) {
                if (scan->groups[pair] != 0) scan->pair_bits[pair >> 6] |= 1ull << (pair & 63);
            }
        }
        if (scan->kernels & 1u << CSECRET_SCAN_AVX512_VBMI) assign_buckets(scan, scan->frequencies);
        plan_shape_tests(scan, scan->member_count);
        atomic_store_explicit(&scan->planned, 1, memory_order_release);
    }
    pthread_mutex_unlock(&scan->plan_lock);
}

void csecret_scan_destroy(csecret_scan *scan) {
    pthread_mutex_destroy(&scan->plan_lock);
    free(scan);
}

/// Whether `member`'s literal, with its pair at `p`, lies in the text with its first eight
/// bytes (or all, when fewer) there.
__attribute__((always_inline)) static inline int literal_fits(const csecret_scan_member *member, const uint8_t *text,
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
    return ((word | member->fold) & member->mask) == member->prefix;
}

static inline int is_digit(uint8_t byte) { return byte >= '0' && byte <= '9'; }

static inline int is_alphanumeric(uint8_t byte) {
    return is_digit(byte) || ((byte | 0x20) >= 'a' && (byte | 0x20) <= 'z');
}

static inline int is_hex(uint8_t byte) { return is_digit(byte) || ((byte | 0x20) >= 'a' && (byte | 0x20) <= 'f'); }

/// Whether a word may start at `index` (see `csecret_scan_member.starts_word`): what
/// SecretGuard's `SecretText.startsWord` says without glue words, byte for byte. Tested here, in
/// the kernels, for the rows whose tokens start a word: PERF(guard-text), the two-byte
/// literals of Discord's bot tokens (`NT`, `ND`, `OT`…) are in every upper-case word of code
/// and prose (about 1,100 a MiB of the bench's), and each went to the Swift side to be turned
/// away by this test.
static int starts_word(const uint8_t *text, size_t index) {
    if (index == 0) return 1;
    uint8_t previous = text[index - 1];
    if (!is_alphanumeric(previous)) return 1;
    // ECMA-48 control sequence: ESC [ parameters final-byte, e.g. `\e[1;32m`.
    if (previous >= 0x40 && previous <= 0x7e) {
        ptrdiff_t position = (ptrdiff_t)index - 2;
        while (position >= 0 && (ptrdiff_t)index - position < 24
               && (is_digit(text[position]) || text[position] == ';')) {
            position--;
        }
        if (position >= 1 && text[position] == '[' && text[position - 1] == 0x1b) return 1;
    }
    // `\n`, `\r`, `\t` written as escapes in JSON or source code.
    if (index >= 2 && text[index - 2] == '\\' && (previous == 'n' || previous == 'r' || previous == 't')) return 1;
    // `%3D` and the like: a URL-encoded separator.
    if (index >= 3 && text[index - 3] == '%' && is_hex(text[index - 2]) && is_hex(previous)) return 1;
    return 0;
}

static inline int is_key(uint8_t byte) { return is_alphanumeric(byte) || byte == '_' || byte == '-' || byte == '.'; }

static inline int is_quote(uint8_t byte) { return byte == '"' || byte == '\'' || byte == '`'; }

static inline int is_blank(uint8_t byte) { return byte == ' ' || byte == '\t'; }

static inline int is_space(uint8_t byte) { return is_blank(byte) || byte == '\n' || byte == '\r'; }

/// The longest key name looked at before a trigger word (SecretGuard's
/// `SecretRule.maximumKeyLength`).
#define MAXIMUM_KEY_LENGTH 64

/// Whether the key ending at or after `index` is the first argument of PHP's `define(`
/// (`define('DB_PASSWORD', '…')`): SecretGuard's `SecretRule.isDefine`, byte for byte.
static int is_define(const uint8_t *text, size_t index) {
    size_t position = index;
    while (position > 0 && index - position < MAXIMUM_KEY_LENGTH && is_key(text[position - 1])) position--;
    if (position == 0 || !is_quote(text[position - 1])) return 0;
    position--;
    while (position > 0 && is_blank(text[position - 1])) position--;
    if (position < 7) return 0;
    static const char define[] = "define(";
    for (size_t i = 0; i < 7; i++) {
        uint8_t byte = text[position - 7 + i];
        if (byte >= 'A' && byte <= 'Z') byte += 32;
        if (byte != (uint8_t)define[i]) return 0;
    }
    return 1;
}

/// Whether the key ending at `end` (its trigger word starting at `start`) is a string literal
/// (in `"` or `'`) and the first of a call's arguments, the second a literal too, `comma` the
/// `,` between them
/// (`.option("password", "…")`, `setProperty("db.password", "…")`): SecretGuard's
/// `SecretRule.isArgumentPair`, byte for byte.
static int is_argument_pair(const uint8_t *text, size_t count, size_t start, size_t end, size_t comma) {
    size_t position = start;
    while (position > 0 && start - position < MAXIMUM_KEY_LENGTH && is_key(text[position - 1])) position--;
    if (position == 0 || end >= count || text[end] != text[position - 1]) return 0;
    uint8_t quote = text[position - 1];
    if (quote != '"' && quote != '\'') return 0;
    position--;
    while (position > 0 && is_blank(text[position - 1])) position--;
    if (position == 0 || text[position - 1] != '(') return 0;
    size_t index = comma + 1;
    while (index < count && is_blank(text[index])) index++;
    return index < count && (text[index] == '"' || text[index] == '\'');
}

/// Whether a key name may end at `end`, its trigger word starting at `start` (see
/// `csecret_scan_member.ends_key`; `end < count` and `text[end]` no key name's byte, tested
/// first by `ends_key`): SecretGuard's `SecretRule.mayAssign`, byte for byte. A byte
/// follows that is none of a key name's, then (past a quote, a `]` and a quote, and blanks) a
/// separator: `=`, `:`, `>` of `<key>`, R's `<-`, `|` of a table, `,` of PHP's `define('KEY', …)`, or a
/// value after a blank when the key is a `--flag` or a C macro's name (`#define KEY "…"`), or after
/// two blanks or more (a two-column table's row) or a quoted one (a game server's cvar) when it
/// starts its line. PERF(guard-text): `key`, `token` and `auth`
/// in source code are as often the start of a longer name (`keys`, `tokenize`, `author`) or a
/// word of an expression (`key)`, `for key in`) as a key of their own: only the first byte was
/// tested here, and three in four of the rest went to the Swift side to be turned away by this
/// test (57 thousand `key` candidates per 256 MiB of the bench's source code).
__attribute__((noinline)) static int separator_follows(const uint8_t *text, size_t count, size_t start,
                                                       size_t end) {
    size_t index = end;
    if (is_quote(text[index])) index++;
    if (index < count && text[index] == ']') index++;
    if (index < count && is_quote(text[index])) index++;
    size_t blanks_start = index;
    while (index < count && is_blank(text[index])) index++;
    if (index >= count) return 0;
    uint8_t byte = text[index];
    if (byte == '=' || byte == ':' || byte == '>') return 1;
    if (byte == '<' && index + 1 < count && text[index + 1] == '-') return 1;
    if (byte == ',' && (is_define(text, start) || is_argument_pair(text, count, start, end, index))) return 1;
    if (byte == '|') return 1;
    if (!(index > blanks_start && blanks_start == end && !is_space(byte))) return 0;
    size_t key_start = start;
    while (key_start > 0 && end - key_start < MAXIMUM_KEY_LENGTH && is_key(text[key_start - 1])) key_start--;
    if (count - key_start >= 2 && text[key_start] == '-' && text[key_start + 1] == '-') return 1;
    if (key_start >= 8 && memcmp(text + key_start - 8, "#define ", 8) == 0) return 1;
    return (index - blanks_start >= 2 || is_quote(byte)) && (key_start == 0 || text[key_start - 1] == '\n');
}

/// `separator_follows` after its first test, here in line: most literals that fit are the start
/// of a longer name (`keys`, `keyword`, `token_type`).
__attribute__((always_inline)) static inline int ends_key(const uint8_t *text, size_t count, size_t start,
                                                          size_t end) {
    return end < count && !is_key(text[end]) && separator_follows(text, count, start, end);
}

/// Whether the text from `start` has `member`'s shape, or ends before it is decided.
__attribute__((always_inline)) static inline int shape_fits(const csecret_scan *scan, const csecret_scan_member *member,
                                                            const uint8_t *text, size_t count, size_t start) {
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

/// Whether `member` fits the text with its pair at `p`: the literal lies in the text, its first
/// eight bytes (or all, when fewer) are there, it starts a word and ends a key if the member
/// says so, and the
/// text from its start has its shape (or ends before the shape is decided: then the rule
/// decides).
__attribute__((always_inline)) static inline int member_fits(const csecret_scan *scan, const csecret_scan_member *member,
                                                             const uint8_t *text, size_t count, size_t p) {
    return literal_fits(member, text, count, p) && (!member->starts_word || starts_word(text, p - member->offset))
           && (!member->ends_key || ends_key(text, count, p - member->offset, p - member->offset + member->length))
           && shape_fits(scan, member, text, count, p - member->offset);
}

/// Whether the byte after the pair at `p` may follow group `group`'s pair (or the text ends
/// before it).
__attribute__((always_inline)) static inline int follows(const csecret_scan *scan, const uint8_t *text, size_t count,
                                                         size_t p, unsigned group) {
    if (p + 2 >= count) return 1;
    uint8_t next = text[p + 2];
    return (scan->followers[4 * group + (next >> 6)] >> (next & 63)) & 1;
}

/// Whether the pair at `p` (`p + 1 < count`) of group `group` (not 0) is a candidate.
__attribute__((always_inline)) static inline int fits(const csecret_scan *scan, const uint8_t *text, size_t count, size_t p, unsigned group) {
    if (!follows(scan, text, count, p, group)) return 0;
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

/// The table kernel from `p`, with `n` candidates already in the output (see
/// `csecret_scan_find`).
static size_t find_portable(const csecret_scan *scan, const uint8_t *text, size_t count, size_t p, size_t end,
                            size_t to, size_t *positions, uint8_t *groups, size_t capacity, size_t n, size_t *found) {
    const uint8_t *table = scan->groups;
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

/// Whether some member of `group` fits at `p` (`fits` without the follower), with each
/// member's quick shape test (`may_fit`, a vector kernel's: see `struct shape_test`) before its
/// full one. Inlined into each kernel with its own test.
__attribute__((always_inline)) static inline int members_fit(
    const csecret_scan *scan, const uint8_t *text, size_t count, size_t p, unsigned group,
    int (*may_fit)(const struct shape_test *, const uint8_t *, size_t, size_t)) {
    // The key separator test's verdict for the last literal asked (members of several rows share
    // one: `key` is in three).
    size_t asked_start = SIZE_MAX, asked_end = SIZE_MAX;
    int asked = 0;
    for (uint32_t m = scan->member_starts[group]; m < scan->member_starts[group + 1]; m++) {
        const csecret_scan_member *member = scan->members + m;
        if (!literal_fits(member, text, count, p)) continue;
        size_t start = p - member->offset;
        if (member->starts_word && !starts_word(text, start)) continue;
        if (member->ends_key) {
            if (start != asked_start || start + member->length != asked_end) {
                asked_start = start;
                asked_end = start + member->length;
                asked = ends_key(text, count, start, asked_end);
            }
            if (!asked) continue;
        }
        int32_t test = scan->shape_test_of[m];
        if (test >= 0 && !may_fit(scan->shape_tests + test, text, count, start)) continue;
        if (shape_fits(scan, member, text, count, start)) return 1;
    }
    return 0;
}

/// The quick shape test's verdict from the 64 bytes' masks of the alphabet and the counted set.
static inline int shape_verdict(const struct shape_test *test, uint64_t alphabet, uint64_t counted) {
    if (alphabet == ~0ull) return 1;
    uint64_t run = (1ull << __builtin_ctzll(~alphabet)) - 1;  // the alphabet's run from the start
    return (uint32_t)__builtin_popcountll(counted & run) >= test->need;
}

/// What a vector kernel's filter saw of NUL bytes (`csecret_scan_find`'s `nul`): its steps read
/// every byte of `from..<filtered` (their first stage's), and `seen` says whether one was 0.
/// PERF(stream): the NUL check of text sent as text was a `memchr` of its own over every byte
/// (0.05 s of CPU a GiB piped); the filter has the bytes in its registers already.
struct nul_watch {
    size_t filtered;
    int seen;
};

/// Adds a vector kernel's 64 filter verdicts to its block's list (`passed`, `listed` long):
/// the positions `base + i` whose bit `i` of `pass` (not 0) is set, in order. Eight are written
/// at once whatever their number (past the last pass the entry is written but not counted, so
/// the list has room for eight past the block's last position), more one by one only where
/// more pass: no branch depends on how many there are. Returns the list's new length.
__attribute__((always_inline)) static inline unsigned list_passes(uint32_t *passed, unsigned listed, uint32_t base,
                                                                  uint64_t pass) {
    unsigned passing = (unsigned)__builtin_popcountll(pass);
    for (unsigned i = 0; i < 8; i++) {
        passed[listed + i] = base + (uint32_t)__builtin_ctzll(pass | 1ull << 63);
        pass &= pass - 1;
    }
    for (unsigned i = 8; pass != 0; i++) {
        passed[listed + i] = base + (uint32_t)__builtin_ctzll(pass);
        pass &= pass - 1;
    }
    return listed + passing;
}

/// The rest of a vector kernel's block once its filter listed the `listed` positions of
/// `passed` (from `start`; the block ends two bytes before the text does): 2. the pair table
/// and the follower for each, without a branch (a position is kept by advancing the list's end
/// past it or not, its group into `kept_groups`), first the pair bits alone where `pair_bits_first`
/// (the AVX2 kernel's: most of its passes are no trigger's pair); 3. the members' literals and
/// shapes, with the kernel's quick shape test (`may_fit`), at the few kept. Appends the
/// candidates to the output (`*written` of `capacity`); returns SIZE_MAX, or the candidate the
/// full output has no room for. Inlined into each kernel with its own test.
__attribute__((always_inline)) static inline size_t test_listed(
    const csecret_scan *scan, const uint8_t *text, size_t count, size_t start, uint32_t *passed,
    uint8_t *kept_groups, unsigned listed, int pair_bits_first,
    int (*may_fit)(const struct shape_test *, const uint8_t *, size_t, size_t), size_t *positions, uint8_t *groups,
    size_t capacity, size_t *written) {
    const uint8_t *table = scan->groups;
    unsigned kept = 0;
    COUNT(listed, listed);
    if (pair_bits_first) {
        // PERF(guard-text): of the AVX2 filter's passes on log lines four in five are no
        // trigger's pair; a bit each in 8 KiB turns them away before the 64 KiB table, which
        // the first-level cache does not hold (kernel alone, Zen 3: 194 -> 170 ms a 256 MiB).
        unsigned paired = 0;
        for (unsigned i = 0; i < listed; i++) {
            unsigned pair = pair_at(text, start + passed[i]);
            passed[paired] = passed[i];
            paired += (unsigned)(scan->pair_bits[pair >> 6] >> (pair & 63)) & 1;
        }
        listed = paired;
    }
    COUNT(paired, listed);
    for (unsigned i = 0; i < listed; i++) {
        size_t q = start + passed[i];
        unsigned group = table[pair_at(text, q)];
        uint8_t next = text[q + 2];
        unsigned follows_here = (unsigned)(scan->followers[4 * group + (next >> 6)] >> (next & 63)) & 1;
        passed[kept] = passed[i];
        kept_groups[kept] = (uint8_t)group;
        kept += follows_here;
    }
    size_t n = *written;
    COUNT(kept, kept);
    for (unsigned i = 0; i < kept; i++) {
        size_t q = start + passed[i];
        unsigned group = kept_groups[i];
        COUNT_GROUP(kept, group);
        if (!members_fit(scan, text, count, q, group, may_fit)) continue;
        if (n == capacity) {
            *written = n;
            return q;
        }
        COUNT(candidates, 1);
        COUNT_GROUP(candidates, group);
        positions[n] = q;
        groups[n] = (uint8_t)group;
        n++;
    }
    *written = n;
    return SIZE_MAX;
}

#ifdef CSECRET_SCAN_X86
#define AVX512_KERNEL __attribute__((target("avx512f,avx512bw,avx512vbmi")))
#define AVX2_KERNEL __attribute__((target("avx2")))

/// Whether the text from `start` may have the shape `test` stands for (see `struct shape_test`):
/// 0 only when it cannot; 1 also when the 64 bytes from `start` do not decide it (the text ends
/// sooner, or they are all of the alphabet).
AVX512_KERNEL static int shape_may_fit_avx512(const struct shape_test *test, const uint8_t *text, size_t count,
                                              size_t start) {
    if (count - start < 64) return 1;
    __m512i bytes = _mm512_loadu_si512(text + start);
    __m512i classes = _mm512_maskz_permutex2var_epi8(
        ~_mm512_movepi8_mask(bytes), _mm512_loadu_si512(test->classes), bytes,
        _mm512_loadu_si512(test->classes + 64));
    uint64_t alphabet = _mm512_test_epi8_mask(classes, _mm512_set1_epi8(1));
    uint64_t counted = _mm512_test_epi8_mask(classes, _mm512_set1_epi8(2));
    return shape_verdict(test, alphabet, counted);
}

/// The positions the AVX-512 kernel takes at once: its filter's passes are listed for a block of
/// this many, then tested (as the AVX2 kernel's, `AVX2_BLOCK`).
#define AVX512_BLOCK 1024

/// The AVX-512 kernel, in blocks of `AVX512_BLOCK` positions, each in three passes as the AVX2
/// kernel's: first the filter, 64 positions a step through the buckets' classes (three byte
/// lookups of 128 entries, `vpermt2b`, for each half of the buckets), its passing positions
/// listed eight at once whatever their number; then the pair table and the follower for each
/// listed position without a branch (a position is kept by advancing the list's end past it or
/// not); then the rest of the test at the few kept. PERF(guard-text): the passes were tested
/// one by one, with a branch on each pass's group and follower, mispredicted as often as not;
/// issue 42's triggers let more through in code and prose (13-14 thousand per MiB), and the
/// branches made those texts' search slower than the log lines' (25 thousand, more regular).
/// Listed, the kernel's time over the bench's 256 MiB of prose went from about 160 to 125 ms,
/// of source code from 140 to 120 ms, of log lines unchanged (a harness running the kernel
/// alone, CPU time, best of seven). Stops where fewer than 66 bytes are left (the step reads
/// the two after its last position), or at the candidate the full output has no room for:
/// returns where it stopped, with the output's count in `*n`.
AVX512_KERNEL static size_t find_avx512(const csecret_scan *scan, const uint8_t *text, size_t count, size_t p,
                                        size_t end, size_t *positions, uint8_t *groups, size_t capacity, size_t *n,
                                        struct nul_watch *watch) {
    __m512i low[3][2], high[3][2], beyond[3][2];
    for (int stage = 0; stage < 3; stage++) {
        for (int half = 0; half < 2; half++) {
            low[stage][half] = _mm512_loadu_si512(scan->classes[stage][half]);
            high[stage][half] = _mm512_loadu_si512(scan->classes[stage][half] + 64);
            beyond[stage][half] = _mm512_set1_epi8((char)scan->high[stage][half]);
        }
    }
    size_t written = *n;
    // The block's listed positions (from its start), room for eight past the last.
    uint32_t passed[AVX512_BLOCK + 8];
    uint8_t kept_groups[AVX512_BLOCK + 8];
    while (p + 64 <= end && p + 66 <= count) {
        size_t start = p;
        size_t block_end = start + AVX512_BLOCK;
        if (block_end > end) block_end = end;
        if (block_end > count - 2) block_end = count - 2;
        // 1. The filter, and the NUL watch: the smallest byte of the steps' first stage.
        unsigned listed = 0;
        __m512i least = _mm512_set1_epi8(-1);
        for (; p + 64 <= block_end; p += 64) {
            __m512i bytes[3];
            for (int stage = 0; stage < 3; stage++) bytes[stage] = _mm512_loadu_si512(text + p + stage);
            least = _mm512_min_epu8(least, bytes[0]);
            __mmask64 pass = 0;
            // The first and third stages' bytes hold the second's: when none is from 128 up
            // (ASCII text, nearly every step), the lookups need no blend with the high buckets.
            if (_mm512_movepi8_mask(_mm512_or_si512(bytes[0], bytes[2])) == 0) {
                for (int half = 0; half < 2; half++) {
                    __m512i classes[3];
                    for (int stage = 0; stage < 3; stage++) {
                        classes[stage] = _mm512_permutex2var_epi8(low[stage][half], bytes[stage], high[stage][half]);
                    }
                    pass |= _mm512_test_epi8_mask(_mm512_and_si512(classes[0], classes[1]), classes[2]);
                }
            } else {
                __mmask64 non_ascii[3];
                for (int stage = 0; stage < 3; stage++) non_ascii[stage] = _mm512_movepi8_mask(bytes[stage]);
                for (int half = 0; half < 2; half++) {
                    __m512i classes[3];
                    for (int stage = 0; stage < 3; stage++) {
                        __m512i ascii = _mm512_permutex2var_epi8(low[stage][half], bytes[stage], high[stage][half]);
                        classes[stage] = _mm512_mask_blend_epi8(non_ascii[stage], ascii, beyond[stage][half]);
                    }
                    pass |= _mm512_test_epi8_mask(_mm512_and_si512(classes[0], classes[1]), classes[2]);
                }
            }
            if (pass != 0) listed = list_passes(passed, listed, (uint32_t)(p - start), pass);
        }
        watch->filtered = p;
        watch->seen |= _mm512_testn_epi8_mask(least, least) != 0;
        // 2. and 3. The pair table, the follower, the members' literals and shapes.
        size_t stop = test_listed(scan, text, count, start, passed, kept_groups, listed, 0, shape_may_fit_avx512,
                                  positions, groups, capacity, &written);
        if (stop != SIZE_MAX) {
            *n = written;
            return stop;
        }
    }
    *n = written;
    return p;
}

/// The 32 bytes' mask of the ASCII set whose bitmaps by low nibble are `bitmaps` (see
/// `struct shape_test`): the bitmap of each byte's low nibble, tested at its high nibble's bit.
AVX2_KERNEL static inline uint32_t ascii_set_mask(__m256i bitmaps, __m256i low, __m256i high_bits) {
    __m256i hit = _mm256_and_si256(_mm256_shuffle_epi8(bitmaps, low), high_bits);
    return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, _mm256_setzero_si256()));
}

/// `shape_may_fit_avx512` with AVX2: each set's bitmaps looked up by the low nibbles.
AVX2_KERNEL static int shape_may_fit_avx2(const struct shape_test *test, const uint8_t *text, size_t count,
                                          size_t start) {
    if (count - start < 64) return 1;
    __m256i alphabet_maps = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)test->alphabet));
    __m256i counted_maps = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)test->counted));
    // The bit of each high nibble 0...7; bytes from 128 up get none (their nibble's top bit).
    __m256i bits = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64,
                                    -128, 0, 0, 0, 0, 0, 0, 0, 0);
    __m256i nibble = _mm256_set1_epi8(0x0f);
    uint64_t alphabet = 0, counted = 0;
    for (int part = 0; part < 2; part++) {
        __m256i bytes = _mm256_loadu_si256((const __m256i *)(text + start + 32 * part));
        __m256i low = _mm256_and_si256(bytes, nibble);
        __m256i high_bits = _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16(bytes, 4), nibble));
        alphabet |= (uint64_t)ascii_set_mask(alphabet_maps, low, high_bits) << (32 * part);
        counted |= (uint64_t)ascii_set_mask(counted_maps, low, high_bits) << (32 * part);
    }
    return shape_verdict(test, alphabet, counted);
}

/// The positions the AVX2 kernel takes at once: its filter's passes are listed for a block of
/// this many, then tested.
#define AVX2_BLOCK 1024
/// Where more than this many of a block's positions pass the filter, the table kernel takes the
/// next `AVX2_TABLE_RUN` positions: past one in four the filter and its passes cost more than
/// the table at every position. Measured on Zen 1 over the bench's clipboard text, a line of
/// the alphabet (15 % pass), with one in seven: 82 ms the AVX2 kernel alone, 48 ms with the
/// table. Since the pair bits (`test_listed`) a pass costs less: on Zen 3 the AVX2 kernel alone
/// takes that text in 33 ms and the table in 38-39, and 3.7 % of the source code's blocks,
/// which passed one in seven, went to the table for no gain (docs/performance.md, session 15).
#define AVX2_DENSE 256
#define AVX2_TABLE_RUN 16384

/// Which of its plans the AVX2 kernel runs (`NIBBLE_NARROW` or `NIBBLE_WIDE` halves), by what
/// the narrow one lets through: the narrow plan runs a window of `AVX2_WINDOW` blocks, and when
/// more than `AVX2_WIDE_LIMIT` of their positions passed, the wide plan runs the next
/// `AVX2_WIDE_RUN` blocks (a MiB), then the narrow one is tried again. Kept per thread, across calls: a
/// file or a stream is searched in chunks of 64 KiB to 1 MiB, one call each (or fewer where
/// the output fills), and a thread searches one text at a time. Either plan finds the same
/// candidates; only the time differs.
/// PERF(guard-text), Zen 3: past about one position in eleven that the narrow plan passes, the
/// wide plan's six `vpshufb` cost less than the passes they turn away. The bench's log lines pass
/// 9-11 % in every window, prose 6-8 %, source code mostly 3-8 % (docs/performance.md, session 16).
struct avx2_width {
    int wide;
    unsigned blocks;
    unsigned passes;
    /// The blocks filtered with each plan (`csecret_scan_avx2_blocks`).
    size_t filtered[2];
};
#define AVX2_WINDOW 16
#define AVX2_WIDE_LIMIT (AVX2_WINDOW * AVX2_BLOCK * 9 / 100)
#define AVX2_WIDE_RUN 1024
static _Thread_local struct avx2_width avx2_width;

/// The width for the next block, `listed` of this one's positions having passed.
static inline void choose_width(struct avx2_width *width, unsigned listed) {
    width->filtered[width->wide]++;
    width->blocks++;
    if (width->wide) {
        if (width->blocks < AVX2_WIDE_RUN) return;
        width->wide = 0;
    } else {
        width->passes += listed;
        if (width->blocks < AVX2_WINDOW) return;
        width->wide = width->passes > AVX2_WIDE_LIMIT;
    }
    width->blocks = 0;
    width->passes = 0;
}

/// The AVX2 kernel's filter over one block's steps, `p` to `block_end`, with the plan of
/// `halves` halves (`tables_of`; `halves` a constant at each call, so each plan gets its own loop): 64
/// positions a step, for each of a position's three bytes and each half of the buckets, one
/// lookup (`vpshufb`) by its low nibble and one by its high nibble, as Teddy does; the passing
/// positions go into `passed` (from `start`), eight written at once whatever their number (more
/// only when more pass), so that no branch depends on how many there are. Keeps the smallest
/// byte of the steps' first stage in `*least` (the NUL watch); returns where it stopped, with
/// the list's length in `*listed`.
AVX2_KERNEL __attribute__((always_inline)) static inline size_t filter_avx2(
    const uint8_t tables_of[3][NIBBLE_WIDE][2][16], int halves, const uint8_t *text, size_t p, size_t start,
    size_t block_end, uint32_t *passed, unsigned *listed, __m256i *least) {
    __m256i tables[3][NIBBLE_WIDE][2];
    for (int stage = 0; stage < 3; stage++) {
        for (int half = 0; half < halves; half++) {
            for (int which = 0; which < 2; which++) {
                tables[stage][half][which] =
                    _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)tables_of[stage][half][which]));
            }
        }
    }
    __m256i nibble = _mm256_set1_epi8(0x0f);
    unsigned count = 0;
    __m256i smallest = *least;
    for (; p + 64 <= block_end; p += 64) {
        uint64_t pass = 0;
        for (int part = 0; part < 2; part++) {
            __m256i classes[NIBBLE_WIDE];
            for (int half = 0; half < halves; half++) classes[half] = _mm256_set1_epi8(-1);
            for (int stage = 0; stage < 3; stage++) {
                __m256i bytes = _mm256_loadu_si256((const __m256i *)(text + p + 32 * part + stage));
                if (stage == 0) smallest = _mm256_min_epu8(smallest, bytes);
                __m256i low = _mm256_and_si256(bytes, nibble);
                __m256i high = _mm256_and_si256(_mm256_srli_epi16(bytes, 4), nibble);
                for (int half = 0; half < halves; half++) {
                    classes[half] = _mm256_and_si256(classes[half], _mm256_shuffle_epi8(tables[stage][half][0], low));
                    classes[half] = _mm256_and_si256(classes[half], _mm256_shuffle_epi8(tables[stage][half][1], high));
                }
            }
            __m256i any = classes[0];
            for (int half = 1; half < halves; half++) any = _mm256_or_si256(any, classes[half]);
            uint32_t mask = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(any, _mm256_setzero_si256()));
            pass |= (uint64_t)mask << (32 * part);
        }
        if (pass != 0) count = list_passes(passed, count, (uint32_t)(p - start), pass);
    }
    *least = smallest;
    *listed = count;
    return p;
}

/// The AVX2 kernel, in blocks of `AVX2_BLOCK` positions, each in three passes. First the filter
/// (`filter_avx2`, with the plan `struct avx2_width` chooses). Then the pair table and the
/// follower for each listed position, again without a branch: a position is kept by advancing
/// the list's end past it or not. Then the rest of the test, at the few kept. (On log lines one
/// position in ten passes the narrow filter and more than half of those are no trigger's pair:
/// a branch for each, mispredicted as often as not, cost more than the filter.) Stops where fewer than 66
/// bytes are left, or at the candidate the full output has no room for: returns where it
/// stopped, with the output's count in `*n`.
AVX2_KERNEL static size_t find_avx2(const csecret_scan *scan, const uint8_t *text, size_t count, size_t p,
                                    size_t end, size_t *positions, uint8_t *groups, size_t capacity, size_t *n,
                                    struct nul_watch *watch) {
    struct avx2_width *width = &avx2_width;
    size_t written = *n;
    // The block's listed positions (from its start), room for eight past the last.
    uint32_t passed[AVX2_BLOCK + 8];
    uint8_t kept_groups[AVX2_BLOCK + 8];
    while (p + 64 <= end && p + 66 <= count) {
        size_t start = p;
        size_t block_end = start + AVX2_BLOCK;
        if (block_end > end) block_end = end;
        if (block_end > count - 2) block_end = count - 2;
        // 1. The filter, and the NUL watch: the smallest byte of the steps' first stage.
        unsigned listed = 0;
        __m256i least = _mm256_set1_epi8(-1);
        if (width->wide) {
            p = filter_avx2(scan->nibbles[NIBBLE_WIDE - NIBBLE_NARROW], NIBBLE_WIDE, text, p, start, block_end, passed,
                            &listed, &least);
        } else {
            p = filter_avx2(scan->nibbles[0], NIBBLE_NARROW, text, p, start, block_end, passed, &listed, &least);
        }
        choose_width(width, listed);
        watch->filtered = p;
        watch->seen |= _mm256_movemask_epi8(_mm256_cmpeq_epi8(least, _mm256_setzero_si256())) != 0;
        // 2. and 3. The pair table, the follower, the members' literals and shapes.
        size_t stop = test_listed(scan, text, count, start, passed, kept_groups, listed, 1, shape_may_fit_avx2,
                                  positions, groups, capacity, &written);
        if (stop != SIZE_MAX) {
            *n = written;
            return stop;
        }
        // 4. Where the filter passed too much (text whose bytes the nibbles mix up, as a line of
        // the alphabet), the table kernel is cheaper: it takes the next positions, then the
        // filter tries again.
        if (listed > AVX2_DENSE) {
            size_t until = end - p > AVX2_TABLE_RUN ? p + AVX2_TABLE_RUN : end;
            size_t next = find_portable(scan, text, count, p, until, until, positions, groups, capacity, written,
                                        &written);
            if (next < until) {
                *n = written;
                return next;
            }
            // (The NUL watch goes on past the table kernel's positions.)
            watch->seen |= memchr(text + p, 0, until - p) != NULL;
            p = until;
            watch->filtered = p;
        }
    }
    *n = written;
    return p;
}
#endif

/// The range's end and the common checks of both entry points: 0 when there is nothing to do.
static int prepare(size_t count, size_t from, size_t to, size_t *end, size_t *found) {
    *found = 0;
    if (count < 2 || from >= to || from >= count - 1) return 0;
    *end = to < count - 1 ? to : count - 1;
    return 1;
}

/// The first NUL byte in `text[from..<to]`, or SIZE_MAX.
static size_t first_nul(const uint8_t *text, size_t from, size_t to) {
    if (from >= to) return SIZE_MAX;
    const uint8_t *found = memchr(text + from, 0, to - from);
    return found == NULL ? SIZE_MAX : (size_t)(found - text);
}

/// The range `from..<to` with `kernel` (see `csecret_scan_find`).
static size_t find_with(const csecret_scan *scan, csecret_scan_kernel kernel, const uint8_t *text, size_t count,
                        size_t from, size_t to, size_t *positions, uint8_t *groups, size_t capacity, size_t *found,
                        size_t *nul) {
    size_t end;
    // The bytes the NUL watch answers for when the range is done.
    size_t bytes_end = to < count ? to : count;
    if (!prepare(count, from, to, &end, found)) {
        if (nul != NULL) *nul = first_nul(text, from, bytes_end);
        return to;
    }
    size_t p = from;
    size_t n = 0;
    // What the vector kernels' filters read: no NUL in `from..<watch.filtered` unless `seen`.
    struct nul_watch watch = {from, 0};
#ifdef CSECRET_SCAN_X86
    // A vector kernel takes the steps that fit; where the output filled, the table kernel takes
    // no step and returns that place.
    if (kernel == CSECRET_SCAN_AVX512_VBMI) {
        p = find_avx512(scan, text, count, p, end, positions, groups, capacity, &n, &watch);
    } else if (kernel == CSECRET_SCAN_AVX2) {
        p = find_avx2(scan, text, count, p, end, positions, groups, capacity, &n, &watch);
    }
#endif
    size_t next = find_portable(scan, text, count, p, end, to, positions, groups, capacity, n, found);
    if (nul != NULL) {
        // Only the bytes the filters did not read are looked at again (all of them, once one was
        // 0: then its place is wanted).
        size_t stop = next < to ? next : bytes_end;
        *nul = first_nul(text, watch.seen ? from : watch.filtered, stop);
    }
    return next;
}

/// How many bytes `csecret_scan_find` searches with the portable kernel before it makes the
/// vector kernels' plans and goes on with the fastest: planning costs about as much as the
/// portable kernel spends on 1 MiB (1.2-1.4 ms), and what the vector kernel saves on a text that
/// small is less than that. So a hotkey's text, a form field, a few files never plan; a large
/// clipboard, a stream or a big file plans after its first 256 KiB and runs the vector kernel
/// from there (the same candidates either way).
#define PLAN_AFTER (256u << 10)

size_t csecret_scan_find(const csecret_scan *scan, const uint8_t *text, size_t count, size_t from, size_t to,
                         size_t *positions, uint8_t *groups, size_t capacity, size_t *found, size_t *nul) {
    csecret_scan_kernel kernel = scan->fastest;
    if (kernel != CSECRET_SCAN_PORTABLE && !atomic_load_explicit(&scan->planned, memory_order_acquire)) {
        csecret_scan *counted = (csecret_scan *)scan;  // the counter only, an atomic
        size_t range = to > from ? to - from : 0;
        if (atomic_fetch_add_explicit(&counted->portable_bytes, range, memory_order_relaxed) + range < PLAN_AFTER) {
            kernel = CSECRET_SCAN_PORTABLE;
        } else {
            plan(scan);
        }
    }
    return find_with(scan, kernel, text, count, from, to, positions, groups, capacity, found, nul);
}

size_t csecret_scan_find_with(const csecret_scan *scan, csecret_scan_kernel kernel, const uint8_t *text,
                              size_t count, size_t from, size_t to, size_t *positions, uint8_t *groups,
                              size_t capacity, size_t *found, size_t *nul) {
    if (!(scan->kernels & 1u << kernel)) kernel = CSECRET_SCAN_PORTABLE;
    if (kernel != CSECRET_SCAN_PORTABLE) plan(scan);
    return find_with(scan, kernel, text, count, from, to, positions, groups, capacity, found, nul);
}

unsigned csecret_scan_kernels(const csecret_scan *scan) { return scan->kernels; }

csecret_scan_kernel csecret_scan_fastest(const csecret_scan *scan) { return scan->fastest; }

void csecret_scan_avx2_blocks(size_t counts[2]) {
#ifdef CSECRET_SCAN_X86
    counts[0] = avx2_width.filtered[0];
    counts[1] = avx2_width.filtered[1];
#else
    counts[0] = counts[1] = 0;
#endif
}

int csecret_scan_planned(const csecret_scan *scan) {
    return atomic_load_explicit(&((csecret_scan *)scan)->planned, memory_order_acquire);
}
