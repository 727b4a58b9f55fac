// CSecretScan: the secret guard's candidate search, in C.
//
// Why this target exists: the search is the guard's inner loop (every byte of every paste goes
// through it), and in C it is a plain loop over raw bytes that the optimizer unrolls without
// bounds checks, with the processor's vector instructions where it has them; in SecretGuard it
// would be unsafe code. The kernel only finds positions; what they mean (the trigger literals,
// the rules) stays in Swift: SecretGuard plans the pair table, the follower sets, the members'
// literal prefixes and shapes and the byte frequencies (SecretPrefilter.Plan), and SecretScanInterop,
// the only Swift that imports this module, wraps these calls. The built-in table's plan is made at
// build time: `swift run paste-gen` writes it as the static constants of csecret_scan_builtin.h
// (`csecret_scan_create_builtin`), so paste plans nothing at start-up; a search of other tables
// (the tests') is planned at run time and copied in by `csecret_scan_create`.
//
// Three kernels find the same positions; the fastest the processor runs is chosen at creation.
// The AVX-512 VBMI one tests 64 positions a step against sixteen buckets of the groups: for
// each of a position's three bytes one 128-entry lookup per eight buckets, exact byte classes.
// The AVX2 one tests 64 a step against buckets of its own, by the bytes' two nibbles (as Teddy,
// the SIMD search of Hyperscan and ripgrep, does): a looser filter, so its buckets are planned
// by what the nibbles let through, sixteen and twenty-four (it runs the twenty-four only where
// the sixteen let through about one position in eleven or more), and the positions that pass
// are listed a block at a time and taken to the pair table without a branch each. Only the positions that pass go
// on to the pair table. The portable one looks the pair table up at every position, eight a step.
#ifndef CSECRET_SCAN_H
#define CSECRET_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// The entries of the pair table: one group number for every two-byte pair (first | second << 8).
#define CSECRET_SCAN_PAIRS 65536
/// The most candidates one step can emit; `csecret_scan_find` stops early, to be called again,
/// when fewer places than this are left in its output.
#define CSECRET_SCAN_STEP 8


/// One run of a member's shape: from where the previous run ended, at least `min` and at most
/// `max` bytes of the set (bit `b` of `set[b >> 6]`; bytes from 128 up are never in it), as
/// many as there are (greedy).
typedef struct csecret_scan_run {
    uint64_t set[2];
    uint32_t min;
    uint32_t max;
} csecret_scan_run;

/// One trigger literal of a group (its pair is the group's): where the pair sits in it, its
/// length, its first eight bytes (text fits when `(word | fold) & mask == prefix`, `word` the
/// eight bytes from the literal's start, little-endian), its shape: `shape_count` runs from
/// `runs[shape_start]` that the text must have from the literal's start (0: none), and whether
/// the literal must start a word (`starts_word`, not 0): no ASCII letter or digit before it,
/// unless that ends a terminal colour code (`ESC [ 1;32m`), a `\n`, `\r` or `\t` escape or a
/// `%XX` escape (SecretGuard's `SecretText.startsWord` without glue words), and whether it must
/// end a key (`ends_key`, not 0): a byte follows the literal, it is no key name's (not an ASCII
/// letter, digit, `_`, `-` or `.`), and a separator comes after it (SecretGuard's
/// `SecretRule.mayAssign`, byte for byte: `=`, `:`, `>`, `|`, `,` of PHP's `define(`, or a value
/// after a `--flag` and a blank).
typedef struct csecret_scan_member {
    uint64_t prefix;
    uint64_t mask;
    uint64_t fold;
    uint32_t offset;
    uint32_t length;
    uint32_t shape_start;
    uint32_t shape_count;
    uint32_t starts_word;
    uint32_t ends_key;
} csecret_scan_member;

/// One trigger literal of the built-in table, as the caller's scanner looks at it once the search
/// has found its pair: where its bytes start in the built-in literals and how many there are,
/// whether it ignores case, where its pair sits in it, the row (or decoder) it belongs to
/// (`owner`, the caller's number), the caller's quick test (`quick_test`: 0 none, 1 the literal
/// starts a word, 2 it ends a key) and its first eight bytes as `csecret_scan_member` has them.
typedef struct csecret_scan_trigger {
    uint64_t prefix;
    uint64_t mask;
    uint64_t fold;
    uint32_t literal_start;
    uint32_t literal_count;
    uint32_t pair_offset;
    uint32_t owner;
    uint8_t ignores_case;
    uint8_t quick_test;
} csecret_scan_trigger;

/// The kernels, slowest first: the portable one (the pair table at every position, eight a
/// step), AVX2 (64 positions a step through nibble tables) and AVX-512 VBMI (64 a step through
/// exact byte classes).
typedef enum csecret_scan_kernel {
    CSECRET_SCAN_PORTABLE = 0,
    CSECRET_SCAN_AVX2 = 1,
    CSECRET_SCAN_AVX512_VBMI = 2,
} csecret_scan_kernel;

/// A search: the tables, copied in at creation and never changed.
typedef struct csecret_scan csecret_scan;

/// A new search (malloc'd; NULL when out of memory):
/// - `groups` (`CSECRET_SCAN_PAIRS` entries, 0 = no trigger) and `followers` (4 words per
///   group, group 0 included: the 256-bit set of the bytes that may follow the group's pair);
/// - `member_starts` (`group_count + 1` entries: group `g`'s members are
///   `members[member_starts[g]..<member_starts[g + 1]]`) and `members`;
/// - `runs`, the members' shapes;
/// - `byte_frequencies` (256 entries), how often each byte is expected in ordinary text, to put
///   the groups into the vector kernel's buckets where they let the fewest positions through
///   (kept, and read only when the vector kernel first runs: its plans are made then, once,
///   under a lock, not here; creating a search costs copies only).
csecret_scan *csecret_scan_create(const uint8_t *groups, const uint64_t *followers, size_t group_count,
                                  const uint32_t *member_starts, const csecret_scan_member *members,
                                  size_t member_count, const csecret_scan_run *runs, size_t run_count,
                                  const float *byte_frequencies);

/// The search of the secret guard's built-in table (malloc'd; NULL when out of memory): its tables
/// are static constants made at build time (csecret_scan_builtin.h, written by `swift run
/// paste-gen` from SecretGuard's rule table), read where they lie; nothing is copied or planned
/// here. What the vector kernels plan is planned as for any search, on first use.
csecret_scan *csecret_scan_create_builtin(void);

/// The built-in table's triggers, the member starts of its groups (`group_count + 1`), which
/// trigger each member is (the members in the search's order) and the triggers' literals, one
/// after another: static constants, with their counts in `*count`.
const csecret_scan_trigger *csecret_scan_builtin_triggers(size_t *count);
const uint32_t *csecret_scan_builtin_member_starts(size_t *count);
const uint32_t *csecret_scan_builtin_member_triggers(size_t *count);
const uint8_t *csecret_scan_builtin_literals(size_t *count);

/// Frees a search.
void csecret_scan_destroy(csecret_scan *scan);

/// Finds the candidates `p` in `from..<to` (with `p + 1 < count`): the positions whose pair has
/// a group, whose next byte (when `p + 2 < count`) is in that group's follower set, and where
/// some member of the group fits: its literal lies in the text with its first eight bytes there,
/// it starts a word and ends a key where the member says so, and the text from the literal's
/// start has the member's shape (or ends before it is decided).
/// Writes each `p` to `positions` and its group to `groups`, in order, at most `capacity`, and
/// the number written to `*found`. Returns where to go on: `to` when the range is done, less
/// when the output filled. Runs the portable kernel until the search has been asked for 256 KiB
/// in all, then makes the vector kernels' plans and runs the fastest (a small text never pays
/// for planning). Threads may search at once.
/// With `nul` (may be NULL: not looked for), also where the first NUL byte of the bytes
/// `from..<stop` is, SIZE_MAX when there is none: `stop` is the place returned when the output
/// filled, else `to` (or `count`, when less). The vector kernels' filters see every byte
/// anyway: text sent as text is refused for a NUL without another pass over it.
size_t csecret_scan_find(const csecret_scan *scan, const uint8_t *text, size_t count, size_t from, size_t to,
                         size_t *positions, uint8_t *groups, size_t capacity, size_t *found, size_t *nul);

/// `csecret_scan_find` with one kernel (`CSECRET_SCAN_PORTABLE` when `kernel` does not run
/// here), whatever the text's size (a vector kernel's plans are made on its first call): the
/// same positions whichever runs (the tests hold the kernels to each other).
size_t csecret_scan_find_with(const csecret_scan *scan, csecret_scan_kernel kernel, const uint8_t *text,
                              size_t count, size_t from, size_t to, size_t *positions, uint8_t *groups,
                              size_t capacity, size_t *found, size_t *nul);

/// The kernels that run on this processor: bit `k` for kernel `k` (the portable one always).
unsigned csecret_scan_kernels(const csecret_scan *scan);

/// Whether the vector kernels' plans are made (always, where none runs): 0 until a search needs
/// them.
int csecret_scan_planned(const csecret_scan *scan);

/// The kernel `csecret_scan_find` runs once planned: the fastest of those that run here.
csecret_scan_kernel csecret_scan_fastest(const csecret_scan *scan);

/// How many blocks of 1,024 positions the AVX2 kernel has filtered on the calling thread with
/// each of its plans, since the thread began: `counts[0]` with the narrow one (16 buckets),
/// `counts[1]` with the wide one (24). It chooses between them by what the text lets through.
void csecret_scan_avx2_blocks(size_t counts[2]);

#endif
