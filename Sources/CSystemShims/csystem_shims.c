// One line per shim (the handler aside); see include/csystem_shims.h for why each exists.
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "csystem_shims.h"

int csystem_set_thread_name(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }
int csystem_o_direct(void) { return O_DIRECT; }
int csystem_f_getpipe_sz(void) { return F_GETPIPE_SZ; }
int csystem_f_setpipe_sz(void) { return F_SETPIPE_SZ; }
short csystem_posix_spawn_setsid(void) { return POSIX_SPAWN_SETSID; }
int csystem_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
int csystem_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}
int csystem_gettid(void) { return gettid(); }
int csystem_is_single_threaded(void) { return unshare(CLONE_VM) == 0 ? 1 : errno == EINVAL ? 0 : -1; }

/// Arrivals per signal number. Only the handler writes them, with an atomic add: a signal may
/// arrive on any thread, and atomic operations on lock-free integers are async-signal-safe.
static long arrivals[_NSIG];
/// Which signals `csystem_catch_signal` caught (set once each, never cleared but by a restore).
static int caught[_NSIG];
static void count_arrival(int signal) { __atomic_fetch_add(&arrivals[signal], 1, __ATOMIC_RELAXED); }

int csystem_catch_signal(int signal) {
    struct sigaction current;
    if (sigaction(signal, NULL, &current) != 0) return -1;
    if (current.sa_handler == SIG_IGN) return 1;
    struct sigaction action = {0};
    action.sa_handler = count_arrival;
    sigemptyset(&action.sa_mask);
    int result = sigaction(signal, &action, NULL);
    if (result == 0) __atomic_store_n(&caught[signal], 1, __ATOMIC_RELAXED);
    return result;
}
long csystem_signal_count(int signal) { return __atomic_load_n(&arrivals[signal], __ATOMIC_RELAXED); }

void csystem_restore_caught_signals(void) {
    struct sigaction action = {0};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    for (int signal = 1; signal < _NSIG; signal++) {
        if (!__atomic_load_n(&caught[signal], __ATOMIC_RELAXED)) continue;
        sigaction(signal, &action, NULL);
        __atomic_store_n(&caught[signal], 0, __ATOMIC_RELAXED);
    }
}

int csystem_unlink_when_released(const char *path) {
    pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        pid_t grandchild = fork();
        if (grandchild == 0) {
            // As `CurrentProcess.fork` does for its children: the default disposition of every
            // signal this process counts, and none blocked, so SIGTERM ends the remover.
            csystem_restore_caught_signals();
            sigset_t none;
            sigemptyset(&none);
            sigprocmask(SIG_SETMASK, &none, NULL);
            setsid();
            int null = open("/dev/null", O_RDWR | O_CLOEXEC);
            if (null >= 0) {
                dup2(null, 0);
                dup2(null, 1);
                dup2(null, 2);
            }
            // Every other descriptor goes, the parent's lock on the file among them.
            close_range(3, ~0U, 0);
            int file = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
            if (file >= 0) {
                while (flock(file, LOCK_EX) != 0 && errno == EINTR) {}
                // The blocks are freed while the name is still there: once it is gone, so is
                // the work (what a caller waiting for the name may rely on).
                while (ftruncate(file, 0) != 0 && errno == EINTR) {}
                unlink(path);
                close(file);
            }
            _exit(0);
        }
        _exit(grandchild < 0 ? 1 : 0);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        errno = EAGAIN;
        return -1;
    }
    return 0;
}

long csystem_splice(int in, int out, unsigned long length) { return splice(in, NULL, out, NULL, length, 0); }

long csystem_final_pipe_bytes(int fd) {
    struct stat status;
    if (fstat(fd, &status) != 0) return -1;
    if (!S_ISFIFO(status.st_mode)) return -1;
    struct pollfd entry = {.fd = fd, .events = POLLIN, .revents = 0};
    if (poll(&entry, 1, 0) < 0) return -1;
    if (!(entry.revents & POLLHUP)) return -1;
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) != 0) return -1;
    return count;
}
