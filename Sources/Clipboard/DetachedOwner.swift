import SystemInterop

/// Starts a detached selection owner, one way or the other, with the same two sockets: the
/// set-up a backend's owner shares whatever it speaks (so far the native Wayland one,
/// `DataControlOwnerProcess`; the X11 owner has its own in `X11Clipboard+Owner`).
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

    /// Spawns `executable` with `arguments`.
    func spawn() throws(ClipboardError) -> OwnerLaunch {
        let payload = try Self.makeSockets()
        let status = try Self.makeSockets()
        let payloadOurs = payload.first
        let payloadTheirs = payload.second
        let statusOurs = status.first
        let statusTheirs = status.second
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                executable, arguments: arguments, environment: environment,
                standardInput: .descriptor(payloadTheirs.rawValue), standardOutput: .descriptor(statusTheirs.rawValue),
                standardError: .null, newSession: true)
        } catch {
            throw .helperFailed(.cannotSpawn(path: executable, errno: error))
        }
        _ = consume payloadTheirs
        _ = consume statusTheirs
        return OwnerLaunch(
            child: child, payload: payloadOurs, status: statusOurs, displayName: displayName, timeout: timeout)
    }

    /// A socket pair for talking to the owner; a failure means the text cannot reach it.
    private static func makeSockets() throws(ClipboardError) -> SocketPair {
        do {
            return try FileDescriptor.makeSocketPair()
        } catch {
            throw .helperFailed(.payloadNotDelivered(errno: error))
        }
    }

    /// Forks the owner; nil when a socket or `fork` fails (the caller then spawns). The child
    /// never returns into the caller's code.
    func fork() -> OwnerLaunch? {
        guard let payload = try? FileDescriptor.makeSocketPair(), let status = try? FileDescriptor.makeSocketPair()
        else { return nil }
        let payloadOurs = payload.first
        let payloadTheirs = payload.second
        let statusOurs = status.first
        let statusTheirs = status.second
        switch try? CurrentProcess.fork() {
        case .child:
            // Only the steps that make it a process of its own, then the owner's code, then
            // _exit (never the parent's atexit handlers or stdio buffers).
            _ = consume payloadOurs
            _ = consume statusOurs
            try? payloadTheirs.duplicate(onto: .input)
            try? statusTheirs.duplicate(onto: .output)
            StandardStream.error.redirectToNull()
            // Its command line is the parent's: none of the run's arguments stays readable there.
            CurrentProcess.eraseArguments()
            CurrentProcess.startSession()
            CurrentProcess.exitImmediately(run(arguments, environment))
        case .parent(let child):
            return OwnerLaunch(
                child: child, payload: payloadOurs, status: statusOurs, displayName: displayName, timeout: timeout)
        case nil:
            return nil
        }
    }
}
