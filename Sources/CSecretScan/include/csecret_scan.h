// CSecretScan: the secret guard's candidate search, vectorised (Teddy, as in Hyperscan and
// BurntSushi/aho-corasick's src/packed/teddy).
//
// Why this target exists: the search needs a byte shuffle (`pshufb`, `vpshufb`) to look up
// sixteen or thirty-two nibbles at once, and a choice of code by what the processor offers at
// run time. Swift's portable `SIMD` types have no runtime shuffle (a `swizzle` with a varying
// index is lowered to scalar loads), and Swift cannot compile one function for AVX2 and another
// for SSSE3 in the same module (`-Xcc -mavx2` would make the whole module need AVX2). In C each
// kernel carries its own `__attribute__((target(...)))` and `__builtin_cpu_supports` picks one
// once. The kernel only finds positions; what they mean (the trigger literals, the rules) stays
// in Swift: SecretGuard builds the masks and the pair table, and SecretScanInterop, the only
// Swift that imports this module, wraps these calls.
#ifndef CSECRET_SCAN_H
#define CSECRET_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// The bytes of a search's Teddy masks: three fingerprint positions, each a table for the low
/// nibble and one for the high nibble, each 32 bytes (buckets 0-7 in bytes 0-15, buckets 8-15
/// in bytes 16-31, indexed by the nibble's value).
#define CSECRET_SCAN_MASK_BYTES 192
/// The entries of the pair table: one group number for every two-byte pair (first | second << 8).
#define CSECRET_SCAN_PAIRS 65536
/// The most candidates one vector step can emit (one per lane); `csecret_scan_find` stops
/// early, to be called again, when fewer places than this are left in its output.
#define CSECRET_SCAN_STEP 16

/// The kernels, best last.
enum csecret_scan_kernel {
    CSECRET_SCAN_SCALAR = 0,
    CSECRET_SCAN_SSSE3 = 1,
    CSECRET_SCAN_AVX2 = 2,
};

/// A search: masks, pair table and follower sets, copied in at creation and never changed.
typedef struct csecret_scan csecret_scan;

/// The best kernel this processor runs (`__builtin_cpu_supports`).
int csecret_scan_best_kernel(void);

/// A new search (malloc'd; NULL when out of memory): `masks` (`CSECRET_SCAN_MASK_BYTES`),
/// `groups` (`CSECRET_SCAN_PAIRS`, 0 = no trigger), `followers` (4 words per group: the
/// 256-bit set of the bytes that may follow the group's pair) and which kernel to run.
csecret_scan *csecret_scan_create(const uint8_t *masks, const uint8_t *groups, const uint64_t *followers,
                                  size_t group_count, int kernel);

/// Frees a search.
void csecret_scan_destroy(csecret_scan *scan);

/// Finds the positions `p` in `from..<to` (with `p + 1 < count`) whose pair has a group and
/// whose next byte (when `p + 2 < count`) is in that group's follower set: writes each `p` to
/// `positions` and its group to `groups`, in order, at most `capacity`, and the number written
/// to `*found`. Returns where to go on: `to` when the range is done, less when the output filled.
size_t csecret_scan_find(const csecret_scan *scan, const uint8_t *text, size_t count, size_t from, size_t to,
                         size_t *positions, uint8_t *groups, size_t capacity, size_t *found);

#endif
