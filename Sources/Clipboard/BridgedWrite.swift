/// A native Wayland copy that X clients (XWayland apps) can read too, whatever the compositor's
/// bridge does: the Wayland owner (`DataControlOwnerProcess`) and, beside it, the X11 owner
/// (`SelectionOwnerProcess`) of the same selection on `DISPLAY`, each a detached process of its
/// own, each serving the same text targets.
///
/// Two processes, not one serving both: each owner's code stays as it is, tested on its own,
/// and `DetachedOwner`'s set-up is shared unchanged (another engineer reworks it).
///
/// The order is the point. The Wayland owner takes its selection first; a bridge may copy it to
/// X (sway's xwm takes the X selection at once, kwin's only while an X window has the focus,
/// and either serves X readers only while an X window has the focus). Then the X owner,
/// started only now (so its server timestamp is later than the bridge's), takes the X
/// selection from the bridge; a bridge may copy that back into the Wayland selection, which
/// ends the Wayland owner: its readers then read through the bridge from our X owner, the same
/// text. The rule each owner keeps: it serves until another client takes *its* selection; the
/// loss of one never ends the other, so a bridge's copy of our own content leaves both readers
/// served, and a client's later copy on the same side ends that side's owner. The X owner also
/// watches the Wayland side (`BridgeWatch`): with no X window focused, neither sway's nor
/// kwin's bridge carries a later Wayland copy to X, so the X owner ends when another client's
/// copy appears there and no bridge took the X selection for it. Both owners mark their offers
/// (`BridgeWatch.mark`), so a bridge's copy of ours is not taken for a later copy. Not done:
/// the other way, a later X copy that a bridge does not carry leaves Wayland readers our URL.
///
/// `complete(with:isSecret:)` returns only once both readers were seen to get the text: a data-control
/// read and an X read of the selection, each retried within `verifyTimeout` (a bridge's copy
/// arrives a moment later), and the X owner started again when a bridge took the X selection
/// after it. When `DISPLAY` cannot be opened the copy is the Wayland one alone.
final class BridgedWrite: PreparedClipboardWrite {
    private let wayland: any PreparedClipboardWrite
    private let waylandClipboard: DataControlClipboard
    private let x11: X11Clipboard
    private let selection: Selection

    /// How long each reader may take to show the text.
    static let verifyTimeout = Duration.seconds(2)
    /// How often the X owner is started when a bridge keeps taking the selection after it.
    static let xAttempts = 3

    init(
        wayland: any PreparedClipboardWrite, waylandClipboard: DataControlClipboard, x11: X11Clipboard,
        selection: Selection
    ) {
        self.wayland = wayland
        self.waylandClipboard = waylandClipboard
        self.x11 = x11
        self.selection = selection
    }

    /// The mark is what the Wayland side's write says, unless the X side could not offer it.
    @discardableResult
    func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError) -> SecretMark {
        var mark = try wayland.complete(with: text, isSecret: isSecret)
        var lastFailure: ClipboardError = .helperFailed(.notOwner)
        var owned = false
        for _ in 0..<Self.xAttempts {
            do {
                let xMark = try x11.prepareWrite(to: selection).complete(with: text, isSecret: isSecret)
                if case .unavailable = xMark { mark = xMark }
            } catch .noDisplay, .cannotOpenDisplay {
                // DISPLAY is set but not reachable: the Wayland copy is the copy.
                return mark
            } catch {
                lastFailure = error
                continue
            }
            if Self.reads(
                text, within: Self.verifyTimeout, marked: isSecret,
                { () throws(ClipboardError) in
                    try x11.read(selection, timeout: Self.verifyTimeout)
                })
            {
                owned = true
                break
            }
        }
        guard owned else { throw lastFailure }
        guard
            Self.reads(
                text, within: Self.verifyTimeout, marked: isSecret,
                { () throws(ClipboardError) in
                    try waylandClipboard.read(selection, timeout: Self.verifyTimeout)
                })
        else { throw .helperFailed(.notOwner) }
        return mark
    }

    /// Whether `read` gives `text` before `within` has passed: reads again after a failed or a
    /// different answer (each read waits on its owner, with its own deadline; no sleeps).
    ///
    /// A `marked` text (a URL carrying its key) goes with the password manager's mark, which
    /// every read of ours refuses without taking the text: for it, a refusal for that mark is
    /// the sign that the owner serving the reader is ours.
    static func reads(
        _ text: [UInt8], within: Duration, marked: Bool = false, _ read: () throws(ClipboardError) -> [UInt8]
    ) -> Bool {
        let deadline = ContinuousClock.now + within
        repeat {
            do {
                if try read() == text { return true }
            } catch .markedSecret where marked {
                return true
            } catch {}
        } while ContinuousClock.now < deadline
        return false
    }
}
