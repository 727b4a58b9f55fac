import Synchronization

/// The values paste must never show or store, and the masking of them, for `Output`.
///
/// Values are registered as they become known (a request's expanded secrets are known only
/// once the request is built), and every copy of an `Output` shares this one instance, so a
/// value registered by one stage is masked in what any other prints afterwards. Until
/// something registers a value, `redact` returns its text unchanged after one atomic load: no
/// lock, so no system call (a first lock costs a `gettid`) on the hotkey path.
final class Redactor: Sendable {
    /// What stands in for a masked value.
    static let mask = "[redacted]"
    /// Values shorter than this are not masked: masking `a` or `1` would garble every line
    /// and hide nothing worth hiding.
    static let shortestValue = 4

    // Written and read on the main thread, read from libcurl's (the `-v` trace); the Mutex
    // makes that a checked fact.
    private let values = Mutex<[String]>([])
    /// Whether `values` holds anything: read without the lock.
    private let hasValues = Atomic<Bool>(false)

    init() {}

    /// Masks `value` from now on wherever it appears.
    func register(_ value: String) {
        guard value.count >= Self.shortestValue else { return }
        values.withLock { values in
            guard !values.contains(value) else { return }
            values.append(value)
            // Longest first, so a value that contains another is masked whole.
            values.sort { $0.count > $1.count }
        }
        hasValues.store(true, ordering: .releasing)
    }

    /// `text` with every registered value replaced by `mask`.
    func redact(_ text: String) -> String {
        guard hasValues.load(ordering: .acquiring) else { return text }
        let values = self.values.withLock { $0 }
        var result = text
        for value in values where result.contains(value) {
            result = result.replacing(value, with: Self.mask)
        }
        return result
    }
}
