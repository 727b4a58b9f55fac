import SystemInterop

/// Starts a detached selection owner, one way or the other, with the same two sockets
/// (`DetachedChild`, which the desktop notifier shares): the set-up every backend's owner
/// shares whatever it speaks (`SelectionOwnerProcess` for X11, `DataControlOwnerProcess` for
/// Wayland).
///
/// The owner's stdin carries the text, then end of file; its stdout carries back one status
/// byte once it owns the selection (`SelectionOwnerProcess.Status`), then closes; its stderr
/// is /dev/null; it runs in a session of its own and holds none of the caller's descriptors,
/// so `url=$(paste …)` returns at once. `OwnerLaunch` then hands over the text and maps the
/// status byte to an error.
struct DetachedOwner {
    /// The program that runs the owner for the hidden subcommand (`/proc/self/exe`).
    let executable: String
    /// The owner's argv, `arguments[0]` included.
    let arguments: [String]
    /// The owner's environment.
    let environment: [String: String]
    /// How the status byte's failures name the display (`ClipboardError.cannotOpenDisplay`).
    let displayName: String
    /// How long `OwnerLaunch` waits for the owner.
    let timeout: Duration
    /// What a forked child runs (the spawned program runs the same for `arguments`).
    let run: @Sendable ([String], [String: String]) -> Int32

    /// Forks while the process has one thread (the child has every library loaded: ready in
    /// well under a millisecond), else spawns `executable` (STYLE rule 21).
    func start() throws(ClipboardError) -> OwnerLaunch {
        if CurrentProcess.isSingleThreaded, let forked = fork() { return forked }
        return try spawn()
    }

    /// Spawns `executable` with `arguments` (`DetachedChild.spawn`).
    func spawn() throws(ClipboardError) -> OwnerLaunch {
        let launched: DetachedChild
        do {
            launched = try DetachedChild.spawn(executable, arguments: arguments, environment: environment)
        } catch {
            switch error {
            case .sockets(let errno): throw .helperFailed(.payloadNotDelivered(errno: errno))
            case .spawn(let errno): throw .helperFailed(.cannotSpawn(path: executable, errno: errno))
            }
        }
        return OwnerLaunch(
            child: launched.process, payload: launched.input, status: launched.status, displayName: displayName,
            timeout: timeout)
    }

    /// Forks the owner (`DetachedChild.fork`); nil when a socket or `fork` fails (the caller
    /// then spawns). The child never returns into the caller's code.
    func fork() -> OwnerLaunch? {
        let (run, arguments, environment) = (run, arguments, environment)
        guard let launched = DetachedChild.fork(running: { run(arguments, environment) }) else { return nil }
        return OwnerLaunch(
            child: launched.process, payload: launched.input, status: launched.status, displayName: displayName,
            timeout: timeout)
    }
}
