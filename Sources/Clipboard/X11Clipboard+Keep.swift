import X11Interop

extension X11Clipboard {
    /// Reads `selection` and keeps the connection for putting text on `target` afterwards: the
    /// hotkey path, where the text read is uploaded and its URL copied.
    ///
    /// Owning a selection needs a connection, a window and a server timestamp; the reader has
    /// all three. `complete(with:)` of the returned write takes `target` on that connection and
    /// forks the process that serves it, so no second connection is opened, no helper starts
    /// up, and nothing runs beside the read and the upload (see `InheritedOwner`).
    public func readKeepingConnection(
        _ selection: Selection, timeout: Duration, ownerOf target: Selection
    ) throws(ClipboardError) -> (text: [UInt8], write: any PreparedClipboardWrite) {
        let display = try openDisplay()
        let reader = SelectionReader(display: display, selection: selection, timeout: timeout)
        let (text, time) = try reader.readWithTime()
        let owner = InheritedOwner(
            display: display, window: reader.window, time: time, target: target, fallback: self)
        return (text, owner)
    }

    /// `readKeepingConnection` for text or an image (`readContent`): the URL of either goes
    /// back through the reader's connection.
    public func readContentKeepingConnection(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, ownerOf target: Selection
    ) throws(ClipboardError) -> (content: ClipboardContent, write: any PreparedClipboardWrite) {
        let display = try openDisplay()
        var reader = SelectionReader(display: display, selection: selection, timeout: timeout)
        reader.readLimit = preferences.readLimit
        let (content, _, time) = try reader.readContent(preferences: preferences)
        let owner = InheritedOwner(
            display: display, window: reader.window, time: time, target: target, fallback: self)
        return (content, owner)
    }

    /// `readContentKeepingConnection`, showing a large text transfer to `observer` as it
    /// arrives (see `TextObserver`). The observer's thread is joined before this returns, so the
    /// owner is still forked from the reader's connection when the process was single-threaded
    /// before the read.
    public func readContentKeepingConnection<State: Sendable>(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, observer: TextObserver<State>?,
        ownerOf target: Selection
    ) throws(ClipboardError) -> (content: ObservedContent<State>, write: any PreparedClipboardWrite) {
        let display = try openDisplay()
        var reader = SelectionReader(display: display, selection: selection, timeout: timeout)
        reader.readLimit = preferences.readLimit
        reader.observer = observer
        let (content, observed, time) = try reader.readContent(preferences: preferences)
        let owner = InheritedOwner(
            display: display, window: reader.window, time: time, target: target, fallback: self)
        return (ObservedContent(content: content, observation: (observed as? TextObserver<State>)?.state), owner)
    }
}
