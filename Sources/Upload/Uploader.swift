import CurlInterop
import PasteCore
import SystemInterop

/// Runs `UploadRequest`s: HTTP(S) through libcurl, `tcp://` over a plain connection.
///
/// Blocking: each call runs on the calling thread (never inside the Swift concurrency pool).
/// Every transfer removes `Expect:` (no 100-continue round trip), allows only http and https,
/// for the request and for redirects, verifies TLS unless `insecure`, uses no signals, and
/// follows redirects only when the result rule reads the final URL.
public final class Uploader {
    /// The options every transfer uses.
    public let options: TransportOptions

    /// Makes an uploader. Calls `Curl.globalInit()`, which only the first call performs.
    public init(options: TransportOptions = TransportOptions()) {
        self.options = options
        try? Curl.globalInit()  // a failure resurfaces, typed, when the first handle is made
    }

    /// Sends one request and returns the server's answer, whatever its HTTP status.
    ///
    /// - Throws: `UploadError` when no answer could be had (network, timeout, TLS, redirect
    ///   policy, local read failure).
    /// - Parameter streamObserver: sees every byte of a streamed body once, in order, as it is
    ///   sent (to hash it on the way instead of reading the outbox copy again afterwards).
    public func send(
        _ request: UploadRequest, streamObserver: ((Span<UInt8>) -> Void)? = nil
    ) throws(UploadError) -> UploadResponse {
        if request.isTCP { return try sendOverTCP(request) }
        let transfer = try makeTransfer(for: request, streamObserver: streamObserver)
        do {
            try transfer.perform()
        } catch {
            throw classify(
                error, transfer.info, request,
                location: transfer.responseHeaders.last { $0.name.lowercased() == "location" }?.value)
        }
        return makeResponse(transfer)
    }

    /// Sends several requests at once on one multi handle (sharing its connections), at most
    /// `maxConcurrent` in flight, and returns their outcomes in the order given.
    ///
    /// `tcp://` requests are sent one after another once the HTTP ones are done.
    public func sendAll(
        _ requests: [UploadRequest], maxConcurrent: Int
    ) -> [Result<UploadResponse, UploadError>] {
        var results = [Result<UploadResponse, UploadError>?](repeating: nil, count: requests.count)
        let multi: MultiHandle
        do {
            multi = try MultiHandle()
            try multi.setMaximumHostConnections(max(1, maxConcurrent))
        } catch {
            return requests.map { _ in .failure(.curl(error, requestSent: false)) }
        }
        var pending = requests.indices.filter { !requests[$0].isTCP }[...]
        var inFlight: [(index: Int, transfer: EasyHandle)] = []
        while !pending.isEmpty || !inFlight.isEmpty {
            while inFlight.count < max(1, maxConcurrent), let index = pending.popFirst() {
                do throws(UploadError) {
                    let transfer = try makeTransfer(for: requests[index])
                    do {
                        try multi.add(transfer)
                    } catch {
                        throw UploadError.curl(error, requestSent: false)
                    }
                    inFlight.append((index, transfer))
                } catch {
                    results[index] = .failure(error)
                }
            }
            guard !inFlight.isEmpty else { continue }
            let finished: [(EasyHandle, Result<Void, CurlError>)]
            do {
                finished = try multi.performUntilSomeFinish()
            } catch {
                for (index, transfer) in inFlight {
                    results[index] = .failure(.curl(error, requestSent: transfer.info.headerBytesSent > 0))
                }
                inFlight = []
                continue
            }
            for (transfer, outcome) in finished {
                guard let position = inFlight.firstIndex(where: { $0.transfer === transfer }) else { continue }
                let index = inFlight.remove(at: position).index
                switch outcome {
                case .success: results[index] = .success(makeResponse(transfer))
                case .failure(let error):
                    let location = transfer.responseHeaders.last { $0.name.lowercased() == "location" }?.value
                    results[index] = .failure(classify(error, transfer.info, requests[index], location: location))
                }
            }
        }
        for index in requests.indices where requests[index].isTCP {
            do throws(UploadError) {
                results[index] = .success(try sendOverTCP(requests[index]))
            } catch {
                results[index] = .failure(error)
            }
        }
        return results.map { $0! }
    }

    // MARK: - Building a transfer

    /// The schemes allowed for requests and redirects (CURLOPT_PROTOCOLS_STR, CURLOPT_REDIR_PROTOCOLS_STR).
    static let allowedSchemes = "http,https"

    /// An easy handle configured for `request`, body attached, not yet started.
    func makeTransfer(
        for request: UploadRequest, streamObserver: ((Span<UInt8>) -> Void)? = nil
    ) throws(UploadError) -> EasyHandle {
        let scheme = Endpoint(request.url).scheme
        guard scheme == "http" || scheme == "https" else { throw .unsupportedURL(request.url) }
        do {
            let transfer = try EasyHandle()
            try configureTransport(transfer, for: request)
            transfer.onStreamChunk = streamObserver
            try attachBody(request, to: transfer)
            return transfer
        } catch {
            throw classify(error, nil, request)
        }
    }

    private func configureTransport(_ transfer: EasyHandle, for request: UploadRequest) throws(CurlError) {
        try transfer.set(.url, request.url)
        try transfer.set(.noSignal, true)
        try transfer.set(.protocols, Self.allowedSchemes)
        try transfer.set(.redirectProtocols, Self.allowedSchemes)
        try transfer.set(.followLocation, request.result.followsRedirects)
        try transfer.set(.maximumRedirects, options.maxRedirects)
        try transfer.set(.connectTimeoutMilliseconds, options.connectTimeout.roundedUpMilliseconds)
        if let total = options.totalTimeout {
            try transfer.set(.timeoutMilliseconds, total.roundedUpMilliseconds)
        }
        // "Too slow" = under `stallBytesPerSecond` for the stall time; libcurl counts whole seconds.
        try transfer.set(.lowSpeedLimit, Self.stallBytesPerSecond)
        try transfer.set(.lowSpeedTime, stallSeconds)
        try transfer.set(.verifyPeer, !options.insecure)
        try transfer.set(.verifyHost, options.insecure ? 0 : 2)
        try transfer.set(.userAgent, options.userAgent)
        transfer.maximumBodyBytes = UploadResponse.maximumBodyBytes
        // The URL of a redirect result is where the redirects end; the page there is not read.
        transfer.stopsLargeFollowedBodies = request.result == .redirect
        if let progress = options.progress {
            transfer.onProgress = { sent, total in
                progress(sent, total > 0 ? total : nil)
                return true
            }
        }
        if let verbose = options.verbose {
            transfer.onDebug = { event in
                let prefix: String
                switch event.kind {
                case .text: prefix = "* "
                case .headerIn: prefix = "< "
                case .headerOut: prefix = "> "
                }
                for line in event.text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
                    verbose(prefix + HeaderRedaction.redact(String(line)))
                }
            }
        }
    }

    /// The stall limit in whole seconds, at least 1 (0 would switch it off).
    var stallSeconds: Int { max(1, Int(options.stallTimeout.inSeconds.rounded(.up))) }

    private func attachBody(_ request: UploadRequest, to transfer: EasyHandle) throws(CurlError) {
        // `Expect:` with no value stops libcurl adding `Expect: 100-continue` to large bodies.
        var headers = ["Expect:"]
        let hasContentType = request.headers.contains {
            $0.lowercased().hasPrefix("content-type:")
        }
        var userHeaders = request.headers
        // A multipart body encoded here is POSTed like libcurl's MIME post, even for PUT.
        var isMultipart = false
        let source: BodySource?
        switch request.body {
        case .multipart(let fields):
            var generator = SystemRandomNumberGenerator()
            if let parts = MultipartBody.inMemoryParts(fields),
                let body = MultipartBody(
                    parts: parts, contentType: MultipartBody.contentType(userHeaders: userHeaders), using: &generator)
            {
                source = .segments(body.segments)
                headers.append(body.contentTypeHeader)
                userHeaders = MultipartBody.otherHeaders(userHeaders)
                isMultipart = true
                transfer.dropsContentTypeOnSwitchToGet = true
                break
            }
            let mime = try Mime(for: transfer)
            for field in fields {
                switch field.value {
                case .text(let text):
                    try mime.addPart(name: field.name, source: .bytes(Array(text.utf8)))
                case .content(let content, let fileName, let contentType):
                    try mime.addPart(
                        name: field.name, source: BodySource(content), fileName: fileName,
                        contentType: contentType)
                }
            }
            try transfer.setMultipartBody(mime)
            source = nil
        case .form(let pairs):
            source = .bytes(FormEncoding.encode(pairs))
            if !hasContentType { headers.append("Content-Type: application/x-www-form-urlencoded") }
        case .raw(let content, let contentType):
            source = BodySource(content)
            if !hasContentType { headers.append("Content-Type: \(contentType)") }
        case .rendered(let bytes, let contentType):
            source = .bytes(bytes)
            if !hasContentType { headers.append("Content-Type: \(contentType)") }
        }
        let length = source?.knownLength ?? -1
        if let source {
            try transfer.setBody(source)
            if length < 0 { headers.append("Transfer-Encoding: chunked") }
        }
        switch request.method.uppercased() {
        case "PUT" where source != nil && !isMultipart:
            try transfer.set(.upload, true)
            try transfer.set(.uploadSize, length)
        case let method:
            if source != nil {
                try transfer.set(.post, true)
                try transfer.set(.postBodySize, length)
            }
            if method != "POST" { try transfer.set(.customRequest, method) }
        }
        try transfer.setHeaders(HeaderList(headers + userHeaders))
    }

    // MARK: - Reading the outcome

    private func makeResponse(_ transfer: EasyHandle) -> UploadResponse {
        let info = transfer.info
        return UploadResponse(
            status: info.responseCode, headers: transfer.responseHeaders,
            effectiveURL: info.effectiveURL, redirectCount: info.redirectCount,
            body: transfer.responseBody, bytesSent: info.bodyBytesSent)
    }

    /// Below this many bytes a second a transfer counts as stalled (CURLOPT_LOW_SPEED_LIMIT).
    ///
    /// Not 1: a server trickling one byte a second (a tarpit, or a broken proxy) averages
    /// exactly 1 B/s and would never trip a limit of 1. No working link is this slow.
    static let stallBytesPerSecond = 10

    /// Turns a libcurl failure into an `UploadError`, using what the handle saw.
    ///
    /// - Parameter location: the last `Location` header received, named in a refused redirect
    ///   when libcurl could not parse it into CURLINFO_REDIRECT_URL (`javascript:…`).
    func classify(_ error: CurlError, _ info: TransferInfo?, _ request: UploadRequest, location: String? = nil)
        -> UploadError
    {
        let sent = (info?.headerBytesSent ?? 0) > 0 || (info?.bodyBytesSent ?? 0) > 0
        let url = info.map { $0.effectiveURL.isEmpty ? request.url : $0.effectiveURL } ?? request.url
        switch error.localFailure {
        case .read(let path, let code)?: return .readFailed(path: path, errno: code, requestSent: sent)
        case .tee(let path, let code)?: return .teeFailed(path: path, errno: code, requestSent: sent)
        case nil: break
        }
        switch error.code {
        case .couldNotResolveHost:
            return .couldNotResolve(host: Endpoint(url).bareHost, requestSent: sent)
        case .couldNotConnect, .couldNotResolveProxy:
            let errno = info?.osErrno ?? 0
            let detail = errno != 0 ? Errno(rawValue: errno).message : error.reason
            return .couldNotConnect(url: url, detail: detail, requestSent: sent)
        case .operationTimedOut:
            return .timedOut(url: url, phase: timeoutPhase(info), requestSent: sent)
        case .unsupportedProtocol:
            if let info, info.redirectCount > 0 || info.redirectURL != nil {
                return .redirectRefused(url: info.redirectURL ?? location ?? info.effectiveURL)
            }
            if let location { return .redirectRefused(url: location) }
            return .unsupportedURL(request.url)
        case .malformedURL:
            // The request URL was checked before: a malformed one now is the server's Location
            // (control characters, escape sequences).
            if let location, request.result.followsRedirects { return .redirectRefused(url: location) }
            return .unsupportedURL(request.url)
        case .tooManyRedirects:
            return .tooManyRedirects(options.maxRedirects)
        case .sendError, .sendFailRewind:
            return .sendFailed(url: url, detail: error.reason)
        case .receiveError, .gotNothing, .weirdServerReply, .partialFile, .http2:
            return .receiveFailed(url: url, detail: error.reason)
        case let code where code.isTLS:
            return .tls(url: url, detail: error.reason, requestSent: sent)
        default:
            return .curl(error, requestSent: sent)
        }
    }

    /// Which limit a `CURLE_OPERATION_TIMEDOUT` came from: no connection yet means the connect
    /// timeout; having run the whole total timeout means that; otherwise the stall limit.
    private func timeoutPhase(_ info: TransferInfo?) -> UploadError.TimeoutPhase {
        guard let info, info.connectSeconds > 0 else { return .connect }
        if let total = options.totalTimeout, info.totalSeconds >= total.inSeconds * 0.99 {
            return .total(seconds: total.inSeconds)
        }
        return .stalled(seconds: stallSeconds)
    }
}

@available(*, unavailable, message: "an Uploader runs transfers on one thread")
extension Uploader: Sendable {}

extension BodySource {
    /// The libcurl-side body source for a paste's content.
    init(_ content: ContentSource) {
        switch content {
        case .bytes(let bytes): self = .bytes(bytes)
        case .file(let path, let size): self = .file(path: path, size: size)
        case .stream(let fd, let prefix, let teePath):
            self = .stream(fileDescriptor: fd, prefix: prefix, teePath: teePath)
        }
    }
}
