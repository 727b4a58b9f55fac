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
        return try owner(for: selection, displayName: name).spawn()
    }

    /// Forks the owner before any connection, for a caller that will copy but not read (a
    /// pipeline's URL): the child already has every library loaded, so it is ready in well
    /// under a millisecond, where a spawned helper first pays the whole start-up of `paste`
    /// again (about 13 ms here, most of the hotkey budget).
    ///
    /// Call only while the process has one thread (`prepareWrite` checks). The child runs
    /// `SelectionOwnerProcess` exactly as a spawned helper would (`DetachedOwner.fork`).
    /// - Returns: nil when there is no display name or a socket or `fork` fails (the caller
    ///   then spawns).
    func forkOwner(for selection: Selection) -> OwnerLaunch? {
        guard let name = resolvedDisplayName else { return nil }
        return owner(for: selection, displayName: name).fork()
    }

    /// The owner's start-up, shared with the Wayland backend (`DetachedOwner`).
    private func owner(for selection: Selection, displayName name: String) -> DetachedOwner {
        DetachedOwner(
            executable: helperExecutable, arguments: ownerArguments(for: selection),
            environment: ownerEnvironment(name),
            displayName: name, timeout: ownershipTimeout,
            run: { SelectionOwnerProcess.run(arguments: $0, environment: $1) })
    }

    /// The helper's argv: `[helperExecutable, subcommand, "clipboard" | "primary"]`.
    private func ownerArguments(for selection: Selection) -> [String] {
        [helperExecutable, SelectionOwnerProcess.subcommand, selection.rawValue] + (bridgeSocketPath.map { [$0] } ?? [])
    }

    /// The helper's environment: ours, with `DISPLAY` set to the display in effect.
    private func ownerEnvironment(_ displayName: String) -> [String: String] {
        var childEnvironment = environment
        childEnvironment["DISPLAY"] = displayName
        return childEnvironment
    }
}
