import Synchronization
import SystemInterop
import WaylandInterop

/// Ends a bridged copy's X owner when a later Wayland copy takes the selection (`BridgedWrite`).
///
/// paste's X owner serves X readers beside the Wayland owner. A compositor's bridge may not
/// carry a later Wayland copy to X: sway's xwm handles no selection at all while no X window
/// has had the focus ("not handling selection events: no seat assigned to xwayland" in its
/// log), kwin's only while one has it. Without this watch X readers would keep paste's old URL
/// after a person copied something else in a Wayland app.
///
/// So the X owner watches the Wayland selection through data-control, on a thread of its own
/// (its own `wl_display`; the X connection stays on the serving thread). Both of paste's owners
/// mark what they offer with `mark` (a MIME type on Wayland, a target on X, which a bridge
/// copies with the other targets), so a change to an offer carrying the mark is paste's own
/// copy (or a bridge's copy of it) and is let be. A change to an offer without it is another
/// client's copy. Then the watch waits `bridgeGrace` for the bridge to take the X selection
/// itself (sway's xwm does once an X window has had the focus: the serving thread loses the
/// selection and stops the watch). The grace matters: had the owner cleared the selection
/// while xwm was taking it, xwm would read the clearing as the X copy going away and clear the
/// new Wayland selection too. When nobody took it, the watch tells the serving thread to give
/// the selection up (`isGivingUp`, and `SIGUSR1` to wake its wait: Xlib stays on that thread,
/// STYLE rule 19); the thread leaves the selection to nobody between two events, so no reader
/// is left waiting for an answer, finishes its transfers and stops the watch. Should that not
/// happen within `giveUpTimeout` (the signal came just before the thread began to wait), the
/// owner process ends, and the X server gives the selection up with its window.
///
/// A selection that becomes empty is let be (an owner that went away, not a copy).
final class BridgeWatch {
    /// The MIME type (Wayland) and target name (X) that marks an offer as paste's bridged copy.
    static let mark = "application/x-paste-bridged-copy"
    /// How long a bridge may take to take the X selection for a later Wayland copy before the
    /// X owner ends: a bridge does it at once, in the compositor's handling of the copy.
    static let bridgeGrace = Duration.milliseconds(500)
    /// How long the serving thread may take to give the selection up once told.
    static let giveUpTimeout = Duration.seconds(1)
    /// How long the watch's connection may take to set up.
    static let setUpTimeout = Duration.seconds(5)

    private let interrupter: DataControlInterrupter
    private let thread: JoinableThread<Void>
    private let verdict: Verdict

    /// Whether the serving thread is to give the selection up, set by the watch's thread.
    final class Verdict: Sendable {
        let isGivingUp = Mutex(false)
    }

    /// Whether the watch has told the serving thread to give the selection up.
    var isGivingUp: Bool { verdict.isGivingUp.withLock { $0 } }

    /// Starts watching the compositor at `socketPath`; nil when no thread can be started (the
    /// owner then serves as before, unwatched).
    init?(socketPath: String, selection: Selection) {
        let interrupter = DataControlInterrupter()
        let verdict = Verdict()
        let seatSelection = selection.seatSelection
        let serving = ThreadID.current
        // The serving thread's wait returns on this signal (`SelectionServer.serve(givesUp:)`).
        guard (try? Signal.user1.catchArrivals()) != nil else { return nil }
        try? Signal.unblock([.user1])
        do {
            thread = try JoinableThread {
                Self.watch(
                    socketPath: socketPath, selection: seatSelection, interrupter: interrupter, verdict: verdict,
                    serving: serving)
            }
        } catch {
            return nil
        }
        self.interrupter = interrupter
        self.verdict = verdict
    }

    /// Ends the watch (the X selection was taken, by a bridge or a client) and joins its thread.
    func stop() {
        interrupter.interrupt()
        thread.join()
    }

    /// The watch's thread: returns when interrupted or the connection fails; ends the process
    /// when another client's copy is not carried to X within `bridgeGrace`.
    private static func watch(
        socketPath: String, selection: SeatSelection, interrupter: DataControlInterrupter, verdict: Verdict,
        serving: ThreadID
    ) {
        guard let session = try? DataControlSession(socketPath: socketPath, before: .now + setUpTimeout),
            session.attach(interrupter)
        else { return }
        // The selection as the watch first sees it counts too: under load the watch may connect
        // only after a later copy was made.
        var deadline = session.offeredTypes(selection).flatMap(laterCopyDeadline)
        while true {
            let types: [String]?
            do {
                types = try session.awaitSelectionChange(selection, before: deadline)
            } catch .timedOut {
                // Told already, and the serving thread did not stop the watch: end the owner.
                if verdict.isGivingUp.withLock({ $0 }) { CurrentProcess.exitImmediately(0) }
                // Nobody took the X selection for the later copy: X readers would keep ours.
                verdict.isGivingUp.withLock { $0 = true }
                try? serving.send(.user1)
                deadline = .now + giveUpTimeout
                continue
            } catch {
                return
            }
            guard let types else { continue }
            deadline = laterCopyDeadline(types)
        }
    }

    /// When an offer of `types` ends the X owner unless a bridge takes the X selection first:
    /// nil for one of ours (or a bridge's copy of ours: no later copy is waiting any more).
    private static func laterCopyDeadline(_ types: [String]) -> ContinuousClock.Instant? {
        types.contains(mark) ? nil : .now + bridgeGrace
    }
}
