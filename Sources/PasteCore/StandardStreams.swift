import SystemInterop

/// Where a run's output goes, where its stdin comes from, and what they are attached to.
///
/// `Output` (PasteCLI's one funnel for what paste shows) writes every line through the run's
/// streams (`Context.streams`), and the run asks them whether stderr is a terminal (colour, a
/// person watching) instead of asking the process. `ProcessStreams` is the process's own
/// descriptors 0, 1 and 2; a test hands in a recording of its own (`RecordingStreams` in
/// PasteCLITests), so formatting, redaction and a whole run's words are checked without a
/// process, the way swift-log's `StreamLogHandler` takes its stream.
public protocol StandardStreams: Sendable {
    /// Writes all of `text` to `stream` (`.output` or `.error`), ignoring failures (a closed
    /// stderr must not end the run).
    func write(_ text: String, to stream: StandardStream)

    /// Writes `bytes` to stdout exactly as they are.
    ///
    /// - Throws: `Errno` when stdout cannot take them.
    func writeRaw(_ bytes: [UInt8]) throws(Errno)

    /// Whether `stream` (`.input`, `.output` or `.error`) is a terminal.
    func isTerminal(_ stream: StandardStream) -> Bool

    /// The descriptor stdin is read from: descriptor 0 for the process.
    var input: StandardStream { get }
}

/// The process's standard streams: descriptors 0, 1 and 2.
public struct ProcessStreams: StandardStreams {
    public init() {}

    public func write(_ text: String, to stream: StandardStream) { stream.write(text) }

    public func writeRaw(_ bytes: [UInt8]) throws(Errno) {
        try StandardStream.output.withDescriptor { (descriptor) throws(Errno) in try descriptor.writeAll(bytes) }
    }

    public func isTerminal(_ stream: StandardStream) -> Bool { stream.isTerminal }

    public var input: StandardStream { .input }
}
