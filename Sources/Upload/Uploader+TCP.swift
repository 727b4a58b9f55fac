import CurlInterop
import PasteCore
import SystemInterop

extension Uploader {
    /// Sends a `tcp://host:port` request, netcat style (termbin, fiche): connect, send the
    /// content, close the sending side, read the answer until the server closes.
    ///
    /// The answer is bounded by `UploadResponse.maximumBodyBytes`; each wait is bounded by the
    /// stall timeout, the answer by the response timeout from the end of the text, and the whole
    /// exchange by the total timeout (an hour when none is set). Content read as it is sent is
    /// inspected on the way; a refusal resets the connection (see `RawConnection.send`).
    ///
    /// A transfer `TransportOptions.shouldStop` ends is `UploadError.interrupted`, held as soon
    /// as a byte went out: a netcat-style server makes a paste of whatever arrived when the
    /// connection closes.
    func sendOverTCP(
        _ request: UploadRequest, streamObserver: ((Span<UInt8>) -> Void)? = nil, streamEnd: (() -> Void)? = nil
    ) throws(UploadError) -> UploadResponse {
        let endpoint = Endpoint(request.url)
        guard endpoint.scheme == "tcp", let port = endpoint.port, !endpoint.host.isEmpty else {
            throw .unsupportedURL(request.url)
        }
        let source: BodySource
        switch request.body {
        case .raw(let content, _): source = BodySource(content)
        case .rendered(let bytes, _): source = .bytes(bytes)
        case .multipart, .form, .embedded: throw .bodyNotSendableOverTCP(url: request.url)
        }
        let inspection = InspectionHook.make(for: request)
        let deadline = ContinuousClock.now + (options.timeouts.total ?? .seconds(Self.tcpDefaultLimitSeconds))
        let connection: RawConnection
        let proxy = request.connection.proxy(for: request.url)
        do {
            connection = try RawConnection(
                host: endpoint.bareHost, port: port,
                connectTimeoutMilliseconds: options.timeouts.connect.roundedUpMilliseconds, proxy: proxy?.url,
                tunnels: proxy.map { $0.kind == .http || $0.kind == .https } ?? false)
        } catch {
            throw classify(error, nil, request, proxy: proxy)
        }
        let progress = options.progress
        let total = source.knownLength
        let shouldStop = options.shouldStop
        var sentSoFar: Int64 = 0
        var answerDeadline: ContinuousClock.Instant?
        do {
            let sent = try connection.send(
                source, idleTimeout: options.timeouts.stall, deadline: deadline, inspector: inspection,
                onProgress: { sent in
                    sentSoFar = sent
                    progress?(sent, total)
                }, streamObserver: streamObserver, onStreamEnd: streamEnd, isStopped: shouldStop)
            sentSoFar = sent
            answerDeadline = min(deadline, .now + responseTimeout(for: request))
            let answer = try connection.receive(
                maximumBytes: UploadResponse.maximumBodyBytes, idleTimeout: options.timeouts.stall,
                deadline: answerDeadline!)
            return UploadResponse(status: 0, effectiveURL: request.url, body: answer, bytesSent: sent)
        } catch {
            if error.localFailure == .refused, let refusal = inspection?.refusal { throw .contentRefused(refusal) }
            if error.code == .abortedByCallback, shouldStop?() == true {
                throw .interrupted(url: request.url, bodySent: sentSoFar > 0)
            }
            if error.code == .operationTimedOut {
                if let answerDeadline, answerDeadline < deadline, ContinuousClock.now >= answerDeadline {
                    throw .timedOut(
                        url: request.url, phase: .response(seconds: responseTimeout(for: request).timeInterval),
                        requestSent: true)
                }
                throw .timedOut(url: request.url, phase: .stalled(seconds: stallSeconds), requestSent: true)
            }
            var info = connection.info
            info.headerBytesSent = 1  // the connection was open: bytes may have gone out
            throw classify(error, info, request, proxy: proxy)
        }
    }

    /// The bound on a whole TCP exchange when no total timeout is set: one hour.
    static let tcpDefaultLimitSeconds: Int64 = 3600
}
