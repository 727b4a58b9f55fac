import SystemInterop
import X11Interop

/// The X11 selections: read as an ICCCM requestor, written through a detached owner process.
///
/// The owner is started in one of three ways, chosen here and never by callers:
/// - after a read with a `copyTarget` (`ReadRequest`), forked from the reader's own connection,
///   window and server time (`InheritedOwner`): no second connection, no start-up at all;
/// - for `prepareWrite` (and so `write`), forked before any connection (`forkOwner`): the child
///   opens its own and runs `SelectionOwnerProcess`, ready long before a spawned one would be;
/// - whenever the process runs more than one thread, spawned as `helperExecutable` with the
///   hidden subcommand (`spawnOwner`): a forked copy of a threaded process may deadlock (STYLE rule 21).
public struct X11Clipboard: Clipboard, Sendable {
    /// The display to use; nil means the `DISPLAY` of `environment`.
    public let displayName: String?
    /// The executable that runs `SelectionOwnerProcess` for its hidden subcommand (normally
    /// `paste` itself, `/proc/self/exe`).
    public let helperExecutable: String
    /// The environment the helper is started with (it needs `XAUTHORITY` and the like).
    public let environment: [String: String]
    /// How long `write` waits for the helper to report that it owns the selection.
    public let ownershipTimeout: Duration
    /// The compositor's socket when this is the X side of a bridged copy (`BridgedWrite`): the
    /// owner then marks its targets and watches the Wayland selection (`BridgeWatch`).
    var bridgeSocketPath: String?

    /// Describes the X11 clipboard of a display.
    ///
    /// - Parameters:
    ///   - displayName: `:0` and the like; nil to use `environment["DISPLAY"]`.
    ///   - helperExecutable: the program that serves the selection after we return (see
    ///     `SelectionOwnerProcess`).
    ///   - environment: the caller's environment, passed to the helper (libraries never read it
    ///     from the process themselves).
    ///   - ownershipTimeout: how long `write` waits for the helper.
    public init(
        displayName: String?, helperExecutable: String, environment: [String: String] = [:],
        ownershipTimeout: Duration = .seconds(5)
    ) {
        self.displayName = displayName
        self.helperExecutable = helperExecutable
        self.environment = environment
        self.ownershipTimeout = ownershipTimeout
    }

    /// The display name in effect, or nil when there is none.
    var resolvedDisplayName: String? {
        guard let name = displayName ?? environment["DISPLAY"], !name.isEmpty else { return nil }
        return name
    }

    /// Reads the request's selection (see `SelectionReader` for the ICCCM steps): text, or with
    /// `acceptsImage` an image too; a large text transfer goes to the observer as it arrives, on
    /// this thread (see `TextObserver`).
    ///
    /// With a `copyTarget` the connection is kept for the copy: owning a selection needs a
    /// connection, a window and a server timestamp, and the reader has all three.
    /// `complete(with:)` of the result's write takes the target on that connection and forks
    /// the process that serves it, so no second connection is opened, no helper starts up, and
    /// nothing runs beside the read and the upload (see `InheritedOwner`). The read starts no
    /// thread, so the owner is still forked when the process was single-threaded before it.
    public func read<State: Sendable>(_ request: ReadRequest<State>) throws(ClipboardError) -> ReadResult<State> {
        try read(request, continuing: nil)
    }

    /// `read(_:)`, continuing on `begun`'s connection when one was begun (`beginRead`): its
    /// window, atoms, server time and `TARGETS` asked already.
    func read<State: Sendable>(
        _ request: ReadRequest<State>, continuing begun: SelectionReader?
    ) throws(ClipboardError) -> ReadResult<State> {
        var reader: SelectionReader
        if var begun {
            begun.timeout = request.timeout
            reader = begun
        } else {
            reader = SelectionReader(display: try openDisplay(), selection: request.selection, timeout: request.timeout)
        }
        let display = reader.display
        reader.readLimit = request.preferences.readLimit
        reader.observer = request.observer
        reader.whileOwnerAnswers = request.whileOwnerAnswers
        let read: (content: ClipboardContent, observed: (any ChunkObserving)?, time: Timestamp)
        do {
            if request.acceptsImage {
                read = try reader.readContent(preferences: request.preferences)
            } else {
                let (text, time) = try reader.readWithTime()
                read = (.text(text), nil, time)
            }
        } catch {
            display.close()
            throw error
        }
        let observation = (read.observed as? TextObserver<State>)?.state
        guard let target = request.copyTarget else {
            display.close()
            return ReadResult(content: read.content, observation: observation, write: nil)
        }
        let owner = InheritedOwner(
            display: display, window: reader.window, time: read.time, target: target, fallback: self)
        return ReadResult(content: read.content, observation: observation, write: owner)
    }

    /// Begins a read of `selection` now, ahead of the request that will say how to read it
    /// (`X11BegunRead`): connects, makes the window, interns the atoms with the server time (one
    /// round trip) and asks the owner for `TARGETS`, flushed and not waited for, so the server
    /// and the owner answer while the caller loads its configuration. A display that cannot be
    /// opened is kept as the read's error, thrown as the read would have thrown it.
    public func beginRead(_ selection: Selection) -> any Clipboard {
        let begun: X11BegunRead.Begun
        do throws(ClipboardError) {
            var reader = SelectionReader(
                display: try openDisplay(), selection: selection, timeout: Self.defaultReadTimeout)
            reader.askTargetsAhead()
            begun = .reading(reader)
        } catch {
            begun = .failed(error)
        }
        return X11BegunRead(clipboard: self, selection: selection, begun: begun)
    }

    /// Throws `ClipboardError.markedSecret` when the owner of `selection` offers the password
    /// manager's mark meaning a secret, reading no text (`SelectionReader.refuseIfMarkedSecret()`):
    /// the X side of a read on Wayland, where a compositor's bridge may carry the text without
    /// the mark. A display that cannot be opened is a side paste cannot see: no mark.
    ///
    /// - Throws: `.markedSecret`; `.timedOut` when the server or the owner does not answer in
    ///   `timeout`.
    func refuseIfMarkedSecret(_ selection: Selection, timeout: Duration) throws(ClipboardError) {
        guard let display = try? openDisplay() else { return }
        defer { display.close() }
        try SelectionReader(display: display, selection: selection, timeout: timeout).refuseIfMarkedSecret()
    }

    /// Who owns `selection` beside a Wayland clipboard (`SelectionReader.holderBesideWayland`),
    /// after refusing a text the owner marks a secret, as `refuseIfMarkedSecret` does. A display
    /// that cannot be opened is a side paste cannot see: nil.
    ///
    /// - Throws: `.markedSecret`; `.timedOut` when the server or the owner does not answer.
    func holderBesideWayland(_ selection: Selection, timeout: Duration) throws(ClipboardError) -> XSelectionHolder? {
        guard let display = try? openDisplay() else { return nil }
        defer { display.close() }
        return try SelectionReader(display: display, selection: selection, timeout: timeout).holderBesideWayland()
    }

    /// Starts the owner ahead of the text: forked now while the process has one thread, else
    /// spawned. It connects, makes its window and gets a server timestamp while the caller
    /// still works (the upload); `complete(with:)` then only hands over the text. Released
    /// without `complete`, the owner sees end of file with no text and leaves without owning
    /// anything.
    public func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite {
        if CurrentProcess.isSingleThreaded, let forked = forkOwner(for: selection) { return forked }
        return try spawnOwner(for: selection)
    }

    /// Opens the display in effect, without the keyboard extension: a clipboard connection
    /// reads no key (two round trips fewer, `Display(name:keyboard:)`).
    func openDisplay() throws(ClipboardError) -> Display {
        guard let name = resolvedDisplayName else { throw .noDisplay }
        do { return try Display(name: name, keyboard: false) } catch { throw .cannotOpenDisplay(name: name) }
    }
}
