import PasteCore
import Synchronization
import SystemInterop
import Upload

/// What a run reaches beyond its process through, beside its `Context` (whose `streams` carry
/// its output, its stdin and the terminal facts): the transport its requests go through, the
/// wait of a retry's backoff, the background flush it starts once a service worked, and the
/// way out of a run whose clipboard owner was just forked.
///
/// `live` is the real world: libcurl, `nanosleep`, a detached `paste --internal-outbox-flush`,
/// `_exit`.
/// The in-process harness (`PipelineHarness` in PasteCLITests) swaps each for a recording: a
/// scripted transport that answers each request as its test says, a wait that only notes how
/// long it was asked for, a flush that only notes which services it would have sent for. So
/// the pipeline's decisions (retry within the run, fallback, hold, the outbox's verdicts, the
/// exit status, `--json`, history) are tested in process, with no spawn, no network and no
/// sleep. Held by `Runner` and `UploadPipeline`, handed to every `SendStage`.
struct Seams: Sendable {
    /// Makes the run's transport from its options (`SendStage`).
    var transport: TransportFactory
    /// Waits out a retry's backoff unless told to stop; false when cut short.
    var sleep: @Sendable (Duration, _ unless: () -> Bool) -> Bool
    /// Starts the background flush for the services that just worked (`OutboxFlush.launch`).
    var launchFlush: @Sendable (_ services: [String], _ configPath: String?, _ context: Context) -> Void
    /// A signal a test delivers to the run (`Interruption`); nil in a real run, whose signals
    /// are the process's.
    var signals: SimulatedSignals?
    /// Ends the process with a status once the URL is copied and nothing is left to show
    /// (`DeliverStage.finish`): stdio flushed, then `_exit`, without unwinding the run. nil in
    /// process (the harness), where the run returns its status as every other run does.
    ///
    /// PERF(hotkey): the parent of a just-forked owner shares every written page with it
    /// copy-on-write; unwinding the pipeline (releases, `free`, metadata caches) copied ~45 of
    /// them and was ~0.15 ms of a 5 ms run between the `fork` and the exit (docs/performance.md,
    /// "The parent leaves at the fork"). The one exit outside main.swift, as `Coreutils.exec`
    /// is the one `exec`.
    var leave: (@Sendable (ExitStatus) -> Never)? = nil

    /// The real world.
    static let live = Seams(
        transport: Uploader.factory, sleep: { CurrentProcess.sleep(for: $0, unless: $1) },
        launchFlush: { OutboxFlush.launch(for: $0, configPath: $1, context: $2) }, signals: nil,
        leave: { CurrentProcess.exit($0.rawValue) })
}

/// A signal delivered by a test to an in-process run: its `Interruption` sees it as if it had
/// arrived, without a real signal reaching the test process (which would stop every run in it).
final class SimulatedSignals: Sendable {
    private let arrived = Mutex<Signal?>(nil)

    init() {}

    /// Delivers `signal` (the first one stays).
    func deliver(_ signal: Signal) {
        arrived.withLock { if $0 == nil { $0 = signal } }
    }

    /// The signal delivered, if any.
    var signal: Signal? { arrived.withLock { $0 } }
}
