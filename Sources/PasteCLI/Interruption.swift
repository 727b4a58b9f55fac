import PasteCore
import SystemInterop

/// SIGINT, SIGTERM and SIGHUP while paste sends: caught from just before the first transfer,
/// so a run stops its transfer, settles the text's outbox entry and says where the text is,
/// instead of dying with the text nowhere.
///
/// The handler only counts (`Signal.catchArrivals`: async-signal-safe, no `SA_RESTART`, so the
/// wait it interrupts returns at once); libcurl's progress callback asks `hasArrived` and stops
/// the transfer. Caught only around sending and recording: reading the input, the windows and
/// the copy keep the default dispositions (a forked clipboard owner gets them back at once, see
/// `CurrentProcess.fork`), and the hotkey path pays three `sigaction` calls, after its read.
struct Interruption: Sendable {
    /// The signals that stop an upload, in the order one is reported when several arrived.
    static let signals: [Signal] = [.interrupt, .terminate, .hangup]

    /// Each signal's arrival count when catching began.
    private let baseline: [Int]
    /// A test's signal, seen as if it had arrived (`Seams.signals`); nil in a real run.
    private var simulated: SimulatedSignals?

    /// Starts catching the signals, and unblocks them on this thread (a process may start with
    /// them blocked, inherited from the thread that spawned it). One the process ignores stays
    /// ignored (`nohup`); one that cannot be caught keeps its default action.
    ///
    /// - Parameter simulated: a test's signals (`Seams.signals`), seen beside the process's.
    static func begin(simulated: SimulatedSignals? = nil) -> Interruption {
        var caught: [Signal] = []
        for signal in signals where (try? signal.catchArrivals()) == true { caught.append(signal) }
        // Counted from here: one that was blocked and pending arrives (and counts) on unblocking.
        let interruption = Interruption(baseline: signals.map(\.arrivalCount), simulated: simulated)
        try? Signal.unblock(caught)
        return interruption
    }

    /// Gives the signals their default action back, once sending and recording are over.
    func end() {
        Signal.restoreCaughtToDefault()
    }

    /// The first of the signals (in `signals`' order) that arrived since `begin()`; nil when none.
    var signal: Signal? {
        if let delivered = simulated?.signal { return delivered }
        return zip(Self.signals, baseline).first { signal, count in signal.arrivalCount > count }?.0
    }

    /// Whether any of them arrived since `begin()`.
    var hasArrived: Bool { signal != nil }

    /// The exit status of a run a signal stopped: 128 + its number, as shells report it.
    static func exitStatus(for signal: Signal) -> ExitStatus {
        switch signal {
        case .terminate: .terminated
        case .hangup: .hungUp
        default: .cancelled
        }
    }
}
