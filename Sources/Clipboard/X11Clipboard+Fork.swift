import Glibc

extension X11Clipboard {
    /// Starts the selection owner by `fork()`, for the hotkey path: the child already has every
    /// library loaded, so it is ready in well under a millisecond, where a spawned helper first
    /// pays the whole start-up of `paste` again (about 13 ms here, most of the hotkey budget).
    ///
    /// Forking a threaded process is unsafe (STYLE rule 21), so this must be called while the
    /// process is still single-threaded: at the start of `main`, before any Dispatch or `Task`
    /// use and before any `Display` is opened. The child gets the two sockets as stdin and
    /// stdout, /dev/null as stderr, its own session, and runs `SelectionOwnerProcess` exactly as
    /// a spawned helper would; it never returns into the caller's code. The parent gets the same
    /// `PreparedClipboardWrite` as `prepareWrite(to:)` gives.
    ///
    /// - Returns: nil when there is no display name or `fork` fails (the caller then writes the
    ///   usual way, by spawning).
    public func forkOwner(for selection: Selection) -> (any PreparedClipboardWrite)? {
        guard let name = resolvedDisplayName,
            case .success(let payloadPair) = FileDescriptor.socketPair(),
            case .success(let statusPair) = FileDescriptor.socketPair()
        else { return nil }
        let payload = (ours: payloadPair.0, theirs: payloadPair.1)
        let status = (ours: statusPair.0, theirs: statusPair.1)
        var childEnvironment = environment
        childEnvironment["DISPLAY"] = name
        let arguments = [helperExecutable, SelectionOwnerProcess.subcommand, selection.rawValue]
        let pid = fork()
        if pid == 0 {
            // The child: only async-signal-safe steps until it is a process of its own, then
            // the owner's code, then _exit (never the parent's atexit handlers or buffers).
            payload.ours.close()
            status.ours.close()
            _ = dup2(payload.theirs.rawValue, 0)
            _ = dup2(status.theirs.rawValue, 1)
            let null = unsafe open("/dev/null", O_RDWR)
            if null >= 0 { _ = dup2(null, 2) }
            _ = setsid()
            _exit(SelectionOwnerProcess.run(arguments: arguments, environment: childEnvironment))
        }
        payload.theirs.close()
        status.theirs.close()
        guard pid > 0 else { return nil }
        return OwnerLaunch(
            pid: pid, payload: payload.ours, status: status.ours, displayName: name, timeout: ownershipTimeout)
    }
}
