/// Who owns an X selection beside a Wayland one (XWayland under a compositor with
/// data-control), which decides which side holds what was copied last (`DataControlClipboard`;
/// the rule and its cases: docs/design.md, "Two clipboards, one last copy").
///
/// A compositor's bridge copies between the two sides, but not always: sway's xwm handles no
/// selection until an X window has had the focus, and no bridge carries an X program's copy to
/// Wayland while no X window has the focus. What X shows a client, at no cost:
/// the selection's owner (`XGetSelectionOwner`), the owner's targets, the window manager's own
/// window (`_NET_SUPPORTING_WM_CHECK` on the root; the bridge belongs to the compositor, the
/// client that made that window), and the focused window (`_NET_ACTIVE_WINDOW`).
enum XSelectionHolder: Equatable, Sendable {
    /// Nobody owns the X selection: the Wayland side is all there is.
    case nobody
    /// paste's own bridged owner (its targets carry `BridgeWatch.mark`), or a bridge's copy of
    /// it: the same text as the Wayland side.
    case paste
    /// The compositor's bridge: a copy of the Wayland selection, made when it changed.
    case bridge
    /// An X program, with or without an X window focused now; `windowManager` is the name the
    /// window manager's window gives itself (`_NET_WM_NAME`: "KWin", "wlroots wm", "Mutter"),
    /// nil when it gives none.
    case program(isXWindowFocused: Bool, windowManager: String?)

    /// kwin's name for itself (`_NET_WM_NAME` of its `_NET_SUPPORTING_WM_CHECK` window).
    static let kwin = "KWin"
}
