import PasteCore

/// What sends a run's requests: libcurl and plain TCP (`Uploader`), or a test's script.
///
/// The pipeline's send stage holds one `any Transport`, made once per run by a
/// `TransportFactory` from the run's `TransportOptions` (its timeouts, its `-v` trace, its
/// progress bar and its stop signal); the upload, `--retry`, a fallback and `--delete` all
/// send through it. Tests hand the pipeline a transport of their own that records each request
/// and answers what its script says (`PipelineHarness` in PasteCLITests), so a whole run is
/// driven in process, the way swift-nio's `EmbeddedChannel` drives a channel.
public protocol Transport {
    /// Sends one request and returns the server's answer, whatever its HTTP status.
    ///
    /// - Parameters:
    ///   - streamObserver: sees every byte of a streamed body once, in order, as it is sent.
    ///   - streamEnd: called once when a streamed body has been read to its end and its tee
    ///     file flushed, before the end goes out.
    /// - Throws: `UploadError` when no answer could be had.
    func send(
        _ request: UploadRequest, streamObserver: ((Span<UInt8>) -> Void)?, streamEnd: (() -> Void)?
    ) throws(UploadError) -> UploadResponse

    /// Sends several requests at once (at most `maxConcurrent` in flight) and returns their
    /// outcomes in the order given.
    func sendAll(_ requests: [UploadRequest], maxConcurrent: Int) -> [Result<UploadResponse, UploadError>]
}

/// Makes a run's transport from the options its transfers use.
public typealias TransportFactory = @Sendable (TransportOptions) -> any Transport

extension Uploader: Transport {
    /// The real transport: libcurl (and plain TCP for `tcp://` services).
    public static let factory: TransportFactory = { Uploader(options: $0) }
}
