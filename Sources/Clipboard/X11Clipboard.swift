import SystemInterop
import X11Interop

/// The X11 selections: read as an ICCCM requestor, written through a detached owner process.
///
/// The owner is started in one of three ways, chosen here and never by callers:
/// - after `readKeepingConnection`, forked from the reader's own connection, window and server
///   time (`InheritedOwner`): no second connection, no start-up at all;
/// - for `prepareWrite` and `write`, forked before any connection (`forkOwner`): the child
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

    /// Reads `selection` as UTF-8 text (see `SelectionReader` for the ICCCM steps).
    public func read(_ selection: Selection, timeout: Duration) throws(ClipboardError) -> [UInt8] {
        let display = try openDisplay()
        defer { display.close() }
        return try SelectionReader(display: display, selection: selection, timeout: timeout).read()
    }

    /// Reads `selection`'s text, or its image (see `SelectionReader` for the steps).
    public func readContent(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences
    ) throws(ClipboardError) -> ClipboardContent {
        let display = try openDisplay()
        defer { display.close() }
        var reader = SelectionReader(display: display, selection: selection, timeout: timeout)
        reader.readLimit = preferences.readLimit
        return try reader.readContent(preferences: preferences).content
    }

    /// `readContent`, showing a large text transfer to `observer` as it arrives, on a second
    /// thread that is joined before this returns (see `TextObserver`).
    public func readContent<State: Sendable>(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, observer: TextObserver<State>?
    ) throws(ClipboardError) -> ObservedContent<State> {
        let display = try openDisplay()
        defer { display.close() }
        var reader = SelectionReader(display: display, selection: selection, timeout: timeout)
        reader.readLimit = preferences.readLimit
        reader.observer = observer
        let read = try reader.readContent(preferences: preferences)
        return ObservedContent(content: read.content, observation: (read.observed as? TextObserver<State>)?.state)
    }

    /// Makes `text` the content of `selection`, returning once the owner holds it.
    public func write(_ text: [UInt8], to selection: Selection) throws(ClipboardError) {
        try prepareWrite(to: selection).complete(with: text)
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

    /// Opens the display in effect.
    func openDisplay() throws(ClipboardError) -> Display {
        guard let name = resolvedDisplayName else { throw .noDisplay }
        do { return try Display(name: name) } catch { throw .cannotOpenDisplay(name: name) }
    }
}
