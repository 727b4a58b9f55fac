// One line per shim (the handler aside); see include/csystem_shims.h for why each exists.
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>
#include "csystem_shims.h"

int csystem_o_direct(void) { return O_DIRECT; }
short csystem_posix_spawn_setsid(void) { return POSIX_SPAWN_SETSID; }
int csystem_gettid(void) { return gettid(); }

/// Arrivals per signal number. Only the handler writes them, with an atomic add: a signal may
/// arrive on any thread, and atomic operations on lock-free integers are async-signal-safe.
static long arrivals[_NSIG];
static void count_arrival(int signal) { __atomic_fetch_add(&arrivals[signal], 1, __ATOMIC_RELAXED); }

int csystem_catch_signal(int signal) {
    struct sigaction action = {0};
    action.sa_handler = count_arrival;
    sigemptyset(&action.sa_mask);
    return sigaction(signal, &action, NULL);
}
long csystem_signal_count(int signal) { return __atomic_load_n(&arrivals[signal], __ATOMIC_RELAXED); }
