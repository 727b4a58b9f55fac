import Synchronization

/// Collects what a callback hands over (a verbose line, a progress report), from any thread,
/// for the test to read afterwards.
public final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    /// An empty recorder.
    public init() {}

    /// Records `element` after the others.
    public func append(_ element: Element) { storage.withLock { $0.append(element) } }

    /// Everything recorded so far, oldest first.
    public var all: [Element] { storage.withLock { $0 } }
}
