// The secret guard's candidate search alone, over a file: what scripts/guard-kernel runs.
//
//   kernel FILE KERNEL ROUNDS TOP
//
// KERNEL is portable, avx2, avx512 or fastest. The file is mapped and its pages read in before
// the clock starts, so only the search is timed (no read's copy, no page faults); it is searched
// in ranges of 256 KiB, as paste scans a file (SecretGuard.fileChunkBytes), each range's
// candidates taken in batches as CandidateSearch takes them. Prints the best CPU time of ROUNDS
// searches of the whole file and the candidates found. Built with CSECRET_SCAN_COUNTS (one more
// build, run once: its counters cost time), it prints instead what each stage let through and
// the TOP groups by the positions that reached their members' test, with their literals (the
// pair the search looks for between « and »).
//
// It includes the search's source whole, so it measures what paste runs, with the built-in table
// that paste-gen made (Sources/CSecretScan/csecret_scan_builtin.h).

#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../Sources/CSecretScan/csecret_scan.c"

enum { RANGE = 256 << 10, BATCH = 4096 };

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/// Searches the whole text once; returns the candidates found.
static size_t search(const csecret_scan *scan, csecret_scan_kernel kernel, const uint8_t *text, size_t size) {
    static size_t positions[BATCH];
    static uint8_t groups[BATCH];
    size_t total = 0;
    for (size_t from = 0; from < size; from += RANGE) {
        size_t to = size - from > RANGE ? from + RANGE : size;
        size_t p = from;
        while (p < to) {
            size_t found = 0, nul = 0;
            p = csecret_scan_find_with(scan, kernel, text, size, p, to, positions, groups, BATCH, &found, &nul);
            total += found;
        }
    }
    return total;
}

#ifdef CSECRET_SCAN_COUNTS
/// Prints a trigger literal with its pair (at `pair`) between « and », control bytes escaped.
static void print_literal(uint32_t trigger, uint32_t pair) {
    const csecret_scan_trigger *t = builtin_triggers + trigger;
    putchar('"');
    for (uint32_t i = 0; i < t->literal_count; i++) {
        if (i == pair) fputs("«", stdout);
        if (i == pair + 2) fputs("»", stdout);
        uint8_t byte = builtin_literals[t->literal_start + i];
        if (byte == '\n') {
            fputs("\\n", stdout);
        } else if (byte < 0x20 || byte >= 0x7f) {
            printf("\\x%02x", byte);
        } else {
            if (byte == '"' || byte == '\\') putchar('\\');
            putchar(byte);
        }
    }
    if (t->literal_count == pair + 2) fputs("»", stdout);
    putchar('"');
}

static void print_counts(size_t size, int top) {
    double positions = (double)size / 100;
    printf("  filter passed %zu positions (%.2f %%), %zu with a trigger's pair (%.2f %%), %zu with its follower "
           "(%.2f %%), %zu candidates\n",
           csecret_scan_counts.listed, csecret_scan_counts.listed / positions, csecret_scan_counts.paired,
           csecret_scan_counts.paired / positions, csecret_scan_counts.kept, csecret_scan_counts.kept / positions,
           csecret_scan_counts.candidates);
    size_t blocks[2];
    csecret_scan_avx2_blocks(blocks);
    if (blocks[0] + blocks[1] > 0) printf("  AVX2 blocks: %zu on 16 buckets, %zu on 24\n", blocks[0], blocks[1]);
    // The groups by the positions that reached their members, most first.
    for (int shown = 0; shown < top; shown++) {
        size_t most = 0;
        unsigned which = 0;
        for (unsigned g = 1; g < 256; g++) {
            if (csecret_scan_counts.kept_by_group[g] > most) {
                most = csecret_scan_counts.kept_by_group[g];
                which = g;
            }
        }
        if (most == 0) break;
        printf("  group %3u: %9zu (%4.1f %% of those with a follower), %6zu candidates:", which, most,
               100.0 * (double)most / (double)csecret_scan_counts.kept, csecret_scan_counts.candidates_by_group[which]);
        for (uint32_t m = builtin_member_starts[which]; m < builtin_member_starts[which + 1]; m++) {
            putchar(' ');
            print_literal(builtin_member_triggers[m], builtin_members[m].offset);
        }
        putchar('\n');
        csecret_scan_counts.kept_by_group[which] = 0;
    }
}
#endif

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s FILE portable|avx2|avx512|fastest ROUNDS TOP\n", argv[0]);
        return 64;
    }
    int file = open(argv[1], O_RDONLY);
    struct stat status;
    if (file < 0 || fstat(file, &status) != 0 || status.st_size < 2) {
        fprintf(stderr, "kernel: cannot read %s (or it holds under two bytes)\n", argv[1]);
        return 66;
    }
    size_t size = (size_t)status.st_size;
    const uint8_t *text = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, file, 0);
    if (text == MAP_FAILED) {
        perror("kernel: mmap");
        return 74;
    }
    csecret_scan *scan = csecret_scan_create_builtin();
    csecret_scan_kernel kernel = csecret_scan_fastest(scan);
    if (strcmp(argv[2], "portable") == 0) kernel = CSECRET_SCAN_PORTABLE;
    if (strcmp(argv[2], "avx2") == 0) kernel = CSECRET_SCAN_AVX2;
    if (strcmp(argv[2], "avx512") == 0) kernel = CSECRET_SCAN_AVX512_VBMI;
    if (kernel != CSECRET_SCAN_PORTABLE && !(csecret_scan_kernels(scan) & 1u << kernel)) {
        fprintf(stderr, "kernel: %s does not run on this processor\n", argv[2]);
        return 69;
    }
    // The vector kernels' plans, made before the clock starts (paste makes them once a search has
    // seen 256 KiB: about 2 ms, not the search's).
    if (kernel != CSECRET_SCAN_PORTABLE) plan(scan);
    static const char *names[] = {"portable", "avx2", "avx512"};
    int rounds = atoi(argv[3]);
#ifdef CSECRET_SCAN_COUNTS
    (void)rounds;
    size_t found = search(scan, kernel, text, size);
    printf("%s (%s kernel, counted): %zu candidates\n", argv[1], names[kernel], found);
    print_counts(size, atoi(argv[4]));
#else
    double best = INFINITY;
    size_t found = 0;
    for (int round = 0; round < (rounds > 0 ? rounds : 1); round++) {
        double start = cpu_seconds();
        found = search(scan, kernel, text, size);
        double seconds = cpu_seconds() - start;
        if (seconds < best) best = seconds;
    }
    printf("%s (%s kernel): best of %d %.2f ms CPU, %.0f MB/s, %zu candidates\n", argv[1], names[kernel],
           rounds > 0 ? rounds : 1, best * 1e3, (double)size / best / 1e6, found);
#endif
    csecret_scan_destroy(scan);
    return 0;
}
