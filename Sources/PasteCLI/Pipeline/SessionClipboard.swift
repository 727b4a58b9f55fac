import Clipboard

/// The clipboard of this session, made once for the run from the backend detected once
/// (`PlanResolver`), or why there is none.
///
/// Not a `Result<any Clipboard, ClipboardError>`: a generic type whose metadata the runtime
/// would build on the hotkey path, where this one's is laid out by the compiler.
enum SessionClipboard {
    /// A clipboard to read and write.
    case available(any Clipboard)
    /// None: no display (`noDisplay`), or its backend could not be set up.
    case unavailable(ClipboardError)

    /// Lets go of the clipboard, and with it of a read begun on it (`Clipboard.beginRead`) that
    /// will not be used: its connection closes (on X11 once the owner has answered its first
    /// request, at most 250 ms: an owner left writing to a window that is gone dies, and the
    /// clipboard loses its text). What is left says there is no clipboard.
    mutating func release() {
        self = .unavailable(.noDisplay)
    }

    /// The clipboard, or why there is none.
    func get() throws(ClipboardError) -> any Clipboard {
        switch self {
        case .available(let clipboard): return clipboard
        case .unavailable(let error): throw error
        }
    }
}
