internal import CCurlShims
internal import Glibc
internal import SystemInterop

/// A plain TCP exchange for netcat-style pastebins (termbin, fiche): connect, send the content,
/// close the sending side, read the answer.
///
/// libcurl makes the connection (`CURLOPT_CONNECT_ONLY`: its resolver, connect timeout and
/// IPv4/IPv6 fallback) and moves the bytes (`curl_easy_send`, `curl_easy_recv`); the socket it
/// reports (`CURLINFO_ACTIVESOCKET`) is waited on with `poll` and half-closed with `shutdown`.
/// The easy handle owns the socket and closes it in its `deinit`.
public final class RawConnection {
    private let easy: EasyHandle
    private let socket: Int32
    /// Asked when a signal interrupts a wait: true ends the exchange (see `send`).
    private var isStopped: (() -> Bool)?
    /// The size of one chunk read from the source and sent.
    private static let chunkSize = 64 * 1024

    /// Connects to `host:port`, directly or through a proxy.
    ///
    /// - Parameters:
    ///   - proxy: a proxy URL (`CURLOPT_PROXY`), nil for a direct connection (then "" is set, so
    ///     libcurl never takes one from the process environment).
    ///   - tunnels: ask an HTTP proxy for a CONNECT tunnel (`CURLOPT_HTTPPROXYTUNNEL`): without
    ///     it, a connect-only transfer would stop at the proxy. Not needed for SOCKS.
    /// - Throws: `CurlError` (`couldNotResolveHost`, `couldNotConnect`, `operationTimedOut`,
    ///   the proxy's failures).
    public init(
        host: String, port: Int, connectTimeoutMilliseconds: Int, proxy: String? = nil, tunnels: Bool = false
    ) throws(CurlError) {
        easy = try EasyHandle()
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        try easy.set(.url, "http://\(authority)/")
        try easy.set(.noSignal, true)
        try easy.set(.connectOnly, true)
        try easy.set(.connectTimeoutMilliseconds, connectTimeoutMilliseconds)
        try easy.set(.proxy, proxy ?? "")
        if tunnels { try easy.set(.proxyTunnel, true) }
        try easy.perform()
        var socket: curl_socket_t = -1
        _ = ccurl_easy_getinfo_socket(easy.raw, CURLINFO_ACTIVESOCKET, &socket)
        guard socket >= 0 else { throw CurlError(code: .couldNotConnect, detail: "no socket after connect") }
        self.socket = socket
    }

    /// What libcurl knows of the connection (the IP connected to, connect time).
    public var info: TransferInfo { easy.info }

    /// Sends all of `source`, then shuts the sending side (`shutdown(SHUT_WR)`) so the server
    /// sees the end of the paste.
    ///
    /// - Parameters:
    ///   - idleTimeout: the longest wait for the socket to accept more bytes.
    ///   - deadline: when the whole exchange must be over.
    ///   - inspector: sees the content before it is sent and may refuse it (`BodyInspector`):
    ///     then the connection is reset (`SO_LINGER` 0, so closing sends RST, not FIN), the
    ///     closest a raw TCP exchange has to "this paste is not complete". A netcat-style server
    ///     may still keep what it received before.
    ///   - onProgress: called with the bytes sent so far after each chunk.
    ///   - streamObserver: sees every byte of a `.stream` source once, as it is read.
    ///   - onStreamEnd: called once when a `.stream` source was read to its end (tee flushed).
    ///   - isStopped: asked when a signal interrupts a wait (or a read of a stream): true ends
    ///     the exchange with `abortedByCallback`.
    /// - Returns: the number of bytes sent.
    /// - Throws: `CurlError` (`sendError`, `operationTimedOut`, `abortedByCallback`, or a local
    ///   read/tee failure).
    public func send(
        _ source: BodySource, idleTimeout: Duration, deadline: ContinuousClock.Instant,
        inspector: (any BodyInspector)? = nil, onProgress: ((Int64) -> Void)? = nil,
        streamObserver: ((Span<UInt8>) -> Void)? = nil, onStreamEnd: (() -> Void)? = nil,
        isStopped: (() -> Bool)? = nil
    ) throws(CurlError) -> Int64 {
        self.isStopped = isStopped
        let reader = try BodyReader(source)
        reader.inspector = inspector
        reader.streamObserver = streamObserver
        reader.onStreamEnd = onStreamEnd
        reader.isStopped = isStopped
        // No framing: what goes out before a refusal may be kept, so each chunk is inspected
        // before it is sent (as `BodyReader` does for every stream).
        // However the exchange ends, the tee holds every byte read, and its thread (which may run
        // the observer: `BodyReader`) is done, before the caller looks.
        defer { reader.finishTee() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            let got = reader.read(into: buffer)
            if got < 0 {
                if reader.anyFailure == .refused { resetOnClose() }
                // No failure of its own: the read stopped because the run was told to.
                throw CurlError(
                    code: reader.anyFailure == nil ? .abortedByCallback : .readError, detail: "",
                    localFailure: reader.anyFailure)
            }
            if got == 0 { break }
            var sent = 0
            while sent < got {
                var count = 0
                let code = curl_easy_send(easy.raw, buffer.baseAddress! + sent, got - sent, &count)
                if code == CURLE_AGAIN {
                    try wait(for: .writable, until: min(deadline, .now + idleTimeout), doing: "sending")
                    continue
                }
                guard code == CURLE_OK else { throw easy.makeError(code) }
                sent += count
            }
            total += Int64(got)
            onProgress?(total)
        }
        if shutdown(socket, Int32(SHUT_WR)) != 0 {
            throw CurlError(code: .sendError, detail: "shutdown: " + Errno(rawValue: errno).message)
        }
        return total
    }

    /// Makes closing the socket reset the connection (RST) instead of ending it (FIN): a
    /// `linger` of zero seconds (socket(7), SO_LINGER).
    private func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Reads the answer until the server closes, `maximumBytes` arrived, or the deadline.
    ///
    /// - Returns: at most `maximumBytes` bytes of the answer.
    /// - Throws: `CurlError` (`receiveError`, or `operationTimedOut` when the server neither
    ///   answers nor closes in time).
    ///   `idleTimeout` is the longest wait for the next bytes.
    public func receive(
        maximumBytes: Int, idleTimeout: Duration, deadline: ContinuousClock.Instant
    ) throws(CurlError) -> [UInt8] {
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while answer.count < maximumBytes {
            var count = 0
            let code = chunk.withUnsafeMutableBytes { curl_easy_recv(easy.raw, $0.baseAddress, $0.count, &count) }
            if code == CURLE_AGAIN {
                try wait(for: .readable, until: min(deadline, .now + idleTimeout), doing: "waiting for the answer")
                continue
            }
            guard code == CURLE_OK else { throw easy.makeError(code) }
            if count == 0 { break }  // the server closed: the answer is complete
            answer.append(contentsOf: chunk[0..<min(count, maximumBytes - answer.count)])
        }
        return answer
    }

    /// Waits until the socket is ready, or throws a timeout at the deadline (SystemInterop's
    /// poll loop; a signal ends the wait when `isStopped` says so).
    private func wait(
        for readiness: FileDescriptor.Readiness, until deadline: ContinuousClock.Instant, doing what: String
    ) throws(CurlError) {
        let ready: PollEvents?
        do {
            ready = try FileDescriptor.poll(
                rawDescriptor: socket, for: readiness, before: deadline, stopsOnInterrupt: { isStopped?() == true })
        } catch  where error == .interrupted {
            throw CurlError(code: .abortedByCallback, detail: "interrupted \(what)")
        } catch {
            throw CurlError(code: .receiveError, detail: "poll: " + error.message)
        }
        if ready == nil { throw CurlError(code: .operationTimedOut, detail: "timed out \(what)") }
    }
}

@available(*, unavailable, message: "a connection belongs to one thread")
extension RawConnection: Sendable {}
