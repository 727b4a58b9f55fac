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

    /// The clipboard, or why there is none.
    func get() throws(ClipboardError) -> any Clipboard {
        switch self {
        case .available(let clipboard): return clipboard
        case .unavailable(let error): throw error
        }
    }
}
