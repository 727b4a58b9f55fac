/// Which X selection (or its Wayland equivalent) to read or write.
public enum Selection: String, Sendable, CaseIterable {
    /// `CLIPBOARD`: what Ctrl+C / Ctrl+V use.
    case clipboard
    /// `PRIMARY`: the last text selected with the mouse, pasted with the middle button.
    case primary

    /// The X atom name of the selection.
    var atomName: String {
        switch self {
        case .clipboard: "CLIPBOARD"
        case .primary: "PRIMARY"
        }
    }
}

/// A place text can be read from and written to: the X11 selections, wl-clipboard, ...
///
/// Text is UTF-8 bytes in both directions.
public protocol Clipboard {
    /// The text currently in `selection`.
    ///
    /// - Parameter timeout: how long to wait for the owner at each step before giving up.
    /// - Throws: `ClipboardError.empty` when nobody owns it or it holds no bytes,
    ///   `.noTextTarget` when it holds only non-text data, `.timedOut` when the owner never answers.
    func read(_ selection: Selection, timeout: Duration) throws(ClipboardError) -> [UInt8]

    /// Puts `text` into `selection` and returns once something owns it on our behalf.
    func write(_ text: [UInt8], to selection: Selection) throws(ClipboardError)

    /// Begins a write before the text is known, so its slow start overlaps the caller's work.
    func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite
}

extension Clipboard {
    /// By default nothing can start early: the write happens when the text comes.
    public func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite {
        DeferredWrite(write: { text throws(ClipboardError) in try self.write(text, to: selection) })
    }
}

/// A write that simply happens on `complete`.
final class DeferredWrite: PreparedClipboardWrite {
    private let write: (([UInt8]) throws(ClipboardError) -> Void)
    init(write: @escaping ([UInt8]) throws(ClipboardError) -> Void) { self.write = write }
    func complete(with text: [UInt8]) throws(ClipboardError) { try write(text) }
}

extension Clipboard {
    /// The default time to wait for a selection owner's answer before `ClipboardError.timedOut`.
    public static var defaultReadTimeout: Duration { .seconds(2) }

    /// `read(_:timeout:)` with `defaultReadTimeout`.
    public func read(_ selection: Selection) throws(ClipboardError) -> [UInt8] {
        try read(selection, timeout: Self.defaultReadTimeout)
    }
}
