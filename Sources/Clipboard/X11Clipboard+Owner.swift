import SystemInterop

extension X11Clipboard {
    /// Spawns the detached owner of `text` and waits until it owns `selection` (the path a
    /// threaded process takes; tests call it to get a helper whatever their threads).
    ///
    /// - Returns: the helper's pid. It stays our child: the caller may reap it (tests do).
    @discardableResult
    func startOwner(of text: [UInt8], for selection: Selection) throws(ClipboardError) -> Int32 {
        try spawnOwner(for: selection).hand(text).id
    }

    /// Spawns the helper with its two sockets; nothing is sent yet.
    ///
    /// The helper is `helperExecutable --internal-selection-owner clipboard|primary`, spawned
    /// in a new session. Its stdin carries the text, then end of file; its stdout carries back
    /// one status byte once it owns the selection (`SelectionOwnerProcess.Status`), then
    /// closes; its stderr is /dev/null. It holds none of our descriptors afterwards, so
    /// `url=$(paste …)` returns at once.
    func spawnOwner(for selection: Selection) throws(ClipboardError) -> OwnerLaunch {
        guard let name = resolvedDisplayName else { throw .noDisplay }
        let payload = try makeOwnerSockets()
        let status = try makeOwnerSockets()
        let payloadOurs = payload.first
        let payloadTheirs = payload.second
        let statusOurs = status.first
        let statusTheirs = status.second
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                helperExecutable, arguments: ownerArguments(for: selection), environment: ownerEnvironment(name),
                standardInput: .descriptor(payloadTheirs.rawValue), standardOutput: .descriptor(statusTheirs.rawValue),
                standardError: .null, newSession: true)
        } catch {
            throw .helperFailed(.cannotSpawn(path: helperExecutable, errno: error))
        }
        _ = consume payloadTheirs
        _ = consume statusTheirs
        return OwnerLaunch(
            child: child, payload: payloadOurs, status: statusOurs, displayName: name, timeout: ownershipTimeout)
    }

    /// Forks the owner before any connection, for a caller that will copy but not read (a
    /// pipeline's URL): the child already has every library loaded, so it is ready in well
    /// under a millisecond, where a spawned helper first pays the whole start-up of `paste`
    /// again (about 13 ms here, most of the hotkey budget).
    ///
    /// Call only while the process has one thread (`prepareWrite` checks). The child gets the
    /// two sockets as stdin and stdout, /dev/null as stderr, its own session, and runs
    /// `SelectionOwnerProcess` exactly as a spawned helper would; it never returns into the
    /// caller's code. The parent gets the same `OwnerLaunch` a spawn gives.
    /// - Returns: nil when there is no display name or a socket or `fork` fails (the caller
    ///   then spawns).
    func forkOwner(for selection: Selection) -> OwnerLaunch? {
        guard let name = resolvedDisplayName, let payload = try? FileDescriptor.makeSocketPair(),
            let status = try? FileDescriptor.makeSocketPair()
        else { return nil }
        let payloadOurs = payload.first
        let payloadTheirs = payload.second
        let statusOurs = status.first
        let statusTheirs = status.second
        let arguments = ownerArguments(for: selection)
        let environment = ownerEnvironment(name)
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
            CurrentProcess.exitImmediately(SelectionOwnerProcess.run(arguments: arguments, environment: environment))
        case .parent(let child):
            return OwnerLaunch(
                child: child, payload: payloadOurs, status: statusOurs, displayName: name, timeout: ownershipTimeout)
        case nil:
            return nil
        }
    }

    /// A socket pair for talking to the helper; a failure means the text cannot reach it.
    private func makeOwnerSockets() throws(ClipboardError) -> SocketPair {
        do {
            return try FileDescriptor.makeSocketPair()
        } catch {
            throw .helperFailed(.payloadNotDelivered(errno: error))
        }
    }

    /// The helper's argv: `[helperExecutable, subcommand, "clipboard" | "primary"]`.
    private func ownerArguments(for selection: Selection) -> [String] {
        [helperExecutable, SelectionOwnerProcess.subcommand, selection.rawValue]
    }

    /// The helper's environment: ours, with `DISPLAY` set to the display in effect.
    private func ownerEnvironment(_ displayName: String) -> [String: String] {
        var childEnvironment = environment
        childEnvironment["DISPLAY"] = displayName
        return childEnvironment
    }
}
