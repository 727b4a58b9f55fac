// CSystemShims: the few POSIX and glibc names Swift cannot reach through its Glibc module.
//
// Why this target exists: Swift's Glibc module is built without `_GNU_SOURCE`, so the GNU
// extensions paste relies on are not declared there (`O_DIRECT`, `POSIX_SPAWN_SETSID`,
// `gettid`, `unshare`), glibc's allocator tuning (<malloc.h>) and `getrandom` (<sys/random.h>)
// live in headers that module does not include (they come through this header unchanged), and a
// signal handler must be a plain C function (a Swift closure may touch the runtime, which is
// not async-signal-safe). Each shim is one line, compiled with `_GNU_SOURCE`, and only
// SystemInterop imports this module. The design follows swift-nio's CNIOLinux: prefixed, one
// per symbol.
#ifndef CSYSTEM_SHIMS_H
#define CSYSTEM_SHIMS_H

#include <malloc.h>
#include <spawn.h>
#include <sys/random.h>

/// `prctl(PR_SET_NAME, name)`: the thread's name, which `ps` and `top` show as the command
/// (up to 15 bytes). A shim because `prctl` is variadic, which Swift cannot call.
int csystem_set_thread_name(const char *name);

/// `O_DIRECT` (fcntl.h under `_GNU_SOURCE`): writes that bypass the page cache.
int csystem_o_direct(void);

/// `F_GETPIPE_SZ` (fcntl.h under `_GNU_SOURCE`): a pipe's capacity.
int csystem_f_getpipe_sz(void);

/// `F_SETPIPE_SZ` (fcntl.h under `_GNU_SOURCE`, Linux >= 2.6.35): sets a pipe's capacity.
int csystem_f_setpipe_sz(void);

/// `POSIX_SPAWN_SETSID` (spawn.h under `_GNU_SOURCE`, glibc >= 2.26): the child leads a new session.
short csystem_posix_spawn_setsid(void);

/// `posix_spawn_file_actions_addclosefrom_np` (glibc >= 2.34): the child closes every descriptor
/// from `from` up, so it inherits none a concurrent thread opened without close-on-exec.
int csystem_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

/// `posix_spawn_file_actions_addchdir_np` (glibc >= 2.29): the child starts in `path`.
int csystem_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// Installs a handler for `signal` that counts arrivals and does not set `SA_RESTART`, so a
/// blocking call the signal interrupts returns `EINTR`; a signal the process ignores (`SIG_IGN`,
/// as under nohup, or for a background job) is left ignored. Returns 0 when caught, 1 when left
/// ignored, -1 (errno set) when `sigaction` failed.
int csystem_catch_signal(int signal);

/// How many times `signal` arrived since `csystem_catch_signal` (read atomically).
long csystem_signal_count(int signal);

/// Gives every signal `csystem_catch_signal` caught its default disposition back (`SIG_DFL`):
/// for a forked child, which must not inherit a handler that only counts (it would then never
/// end on SIGTERM). Async-signal-safe (only `sigaction`), so a child may call it right after
/// `fork`.
void csystem_restore_caught_signals(void);

/// `gettid` (unistd.h under `_GNU_SOURCE`, glibc >= 2.30): the calling thread's kernel id, the
/// name of its entry in `/proc/self/task`.
int csystem_gettid(void);

/// Whether the process runs one thread, in one system call: `unshare(CLONE_VM)` (sched.h under
/// `_GNU_SOURCE`) changes nothing in a process whose address space no other thread or process
/// shares, and fails with `EINVAL` in any other (unshare(2): "these flags have no effect ... If
/// the process is multithreaded, then the use of these flags results in an error"). 1: one
/// thread; 0: more (or a `vfork`ed child still shares the memory); -1: not known (a seccomp
/// filter that refuses `unshare` with `EPERM`, as container runtimes' default ones do).
int csystem_is_single_threaded(void);

/// Removes `path` in a detached process once this process lets go of it: a grandchild (double
/// `fork`, its own session, default signal dispositions and no signal blocked, stdin/stdout/
/// stderr on /dev/null, no other inherited descriptor) opens the file, waits for an exclusive
/// `flock` on it (so until every lock this process holds on the file is released, at the
/// latest when it exits), truncates it to nothing, then unlinks and closes it: the file system
/// frees its blocks in that process, not in this one, and before the name goes. C, not
/// `CurrentProcess.fork`: the caller may run several threads, so only async-signal-safe calls
/// run between `fork` and `_exit`. Returns 0 once the grandchild exists, -1 (errno set) when a
/// `fork` failed; the caller then removes the file itself.
int csystem_unlink_when_released(const char *path);

/// `splice` (fcntl.h under `_GNU_SOURCE`) from the pipe `in` to `out` at its own offset, with no
/// flags: bytes move from the pipe to a file in the kernel, so none is ever only in this
/// process's memory (the outbox's journal of stdin). Returns what `splice` returns.
long csystem_splice(int in, int out, unsigned long length);

/// How many bytes the pipe (or FIFO) `fd` still holds once every writer has closed it: all it
/// will ever give. `fstat` (a pipe?), then `poll` with no wait (`POLLHUP`: no writer left), then
/// `ioctl(FIONREAD)`, in that order, so nothing is written after the count. -1 while a writer
/// may still write, for what is not a pipe, or on a failure (errno set). A shim: `ioctl` is
/// variadic, which Swift does not import.
long csystem_final_pipe_bytes(int fd);

#endif
