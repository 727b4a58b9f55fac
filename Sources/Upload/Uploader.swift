import CurlInterop
import PasteCore
import SystemInterop

/// Runs `UploadRequest`s: HTTP(S) through libcurl, `tcp://` over a plain connection.
///
/// Blocking: each call runs on the calling thread (never inside the Swift concurrency pool).
/// Every transfer removes `Expect:` (no 100-continue round trip), allows only http and https,
/// verifies TLS unless `insecure`, uses no signals, connects as the request's
/// `ConnectionPolicy` says (trust, client certificate, proxy), and follows redirects itself,
/// request by request, when the result rule reads the final URL (`RedirectChain`).
public final class Uploader {
    /// The options every transfer uses.
    public let options: TransportOptions

    /// Makes an uploader. Calls `prepare()`.
    public init(options: TransportOptions = TransportOptions()) {
        self.options = options
        Self.prepare()
    }

    /// Sets libcurl and OpenSSL up (`Curl.globalInit()`, which only the first call performs):
    /// done by the first uploader made, or earlier by a caller with time to spare (the hotkey,
    /// while the clipboard's owner answers). It must run while the process has one thread.
    public static func prepare() {
        try? Curl.globalInit()  // a failure resurfaces, typed, when the first handle is made
    }

    /// Sends one request and returns the server's answer, whatever its HTTP status.
    ///
    /// - Throws: `UploadError` when no answer could be had (network, timeout, TLS, proxy,
    ///   redirect policy, local read failure).
    /// - Parameters:
    ///   - streamObserver: sees every byte of a streamed body once, in order, as it is sent (to
    ///     hash it on the way instead of reading the outbox copy again afterwards).
    ///   - streamEnd: called once when a streamed body has been read to its end and its tee
    ///     file flushed, before the end goes out.
    public func send(
        _ request: UploadRequest, streamObserver: ((Span<UInt8>) -> Void)? = nil, streamEnd: (() -> Void)? = nil
    ) throws(UploadError) -> UploadResponse {
        if request.isTCP { return try sendOverTCP(request, streamObserver: streamObserver, streamEnd: streamEnd) }
        let transfer = try makeTransfer(for: request, streamObserver: streamObserver, streamEnd: streamEnd)
        while true {
            let outcome: Result<Void, CurlError>
            do {
                try transfer.handle.perform()
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            if case .finished(let result) = advance(transfer, after: outcome) { return try result.get() }
        }
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
        var inFlight: [(index: Int, transfer: Transfer)] = []
        while !pending.isEmpty || !inFlight.isEmpty {
            while inFlight.count < max(1, maxConcurrent), let index = pending.popFirst() {
                do throws(UploadError) {
                    let transfer = try makeTransfer(for: requests[index])
                    do {
                        try multi.add(transfer.handle)
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
                    let sent = transfer.chain.redirectCount > 0 || transfer.handle.info.headerBytesSent > 0
                    results[index] = .failure(.curl(error, requestSent: sent))
                }
                inFlight = []
                continue
            }
            for (handle, outcome) in finished {
                guard let position = inFlight.firstIndex(where: { $0.transfer.handle === handle }) else { continue }
                let (index, transfer) = inFlight[position]
                switch advance(transfer, after: outcome) {
                case .finished(let result):
                    inFlight.remove(at: position)
                    results[index] = result
                case .again:
                    // The next request of its redirect chain, on the same handle and connections.
                    do {
                        try multi.add(handle)
                    } catch {
                        inFlight.remove(at: position)
                        results[index] = .failure(.curl(error, requestSent: true))
                    }
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

    // MARK: - One upload, request by request

    /// One upload in progress: its easy handle, its redirect chain, and the header lines each
    /// request is built from.
    final class Transfer {
        let handle: EasyHandle
        let request: UploadRequest
        var chain: RedirectChain
        /// `Expect:` and the lines that describe the body (its type, chunked framing).
        var bodyHeaders: [String] = []
        /// The service's configured header lines (credentials, cookies): for its origin only.
        var configuredHeaders: [String] = []
        /// The proxy of the request being sent, if any.
        var proxy: Proxy?
        /// Body bytes of the last request that carried the body.
        var bytesSent: Int64 = 0
        /// When the first request started: the total timeout bounds the whole chain.
        let started = ContinuousClock.now
        /// What was left of the total timeout when the current request started.
        var budget: Duration?
        /// Watches the content as it is read (nil when it is in memory or needs no checks).
        var inspection: InspectionHook?
        /// Body bytes of the current request sent, and its length (0 when unknown), as the
        /// progress callback last saw them.
        var bodyBytesSent: Int64 = 0
        var bodyLength: Int64 = 0
        /// Whether a streamed body was read to its end.
        var hasStreamEnded = false
        /// Whether `TransportOptions.shouldStop` stopped the transfer.
        var wasStopped = false
        /// Whether the last request that carried the body sent all of it (`UploadResponse.isBodyTaken`).
        var isBodyTaken = true

        /// Whether the whole body went out (or an earlier request of the chain carried it):
        /// then the server may have made the paste.
        var isBodySent: Bool {
            if chain.redirectCount > 0 { return true }
            return bodyLength > 0 ? bodyBytesSent >= bodyLength : hasStreamEnded
        }

        init(handle: EasyHandle, request: UploadRequest, chain: RedirectChain) {
            self.handle = handle
            self.request = request
            self.chain = chain
        }
    }

    /// What comes after one request of a transfer.
    enum Step {
        /// The upload is over.
        case finished(Result<UploadResponse, UploadError>)
        /// The handle is set up for the next request of the redirect chain: perform it again.
        case again
    }

    /// Reads one request's outcome: the upload's result, or the next request set up.
    func advance(_ transfer: Transfer, after outcome: Result<Void, CurlError>) -> Step {
        let hop = transfer.chain.current
        let info = transfer.handle.info
        switch outcome {
        case .failure(let error) where error.localFailure == .refused:
            // Refused as it was read: the request never completed, whatever stage it was at.
            if let refusal = transfer.inspection?.refusal { return .finished(.failure(.contentRefused(refusal))) }
            return .finished(.failure(classify(error, info, transfer.request, hop: hop)))
        case .failure(let error):
            let failure =
                transfer.wasStopped && error.code == .abortedByCallback
                ? .interrupted(url: hop.url, bodySent: transfer.isBodySent)
                : classify(error, info, transfer.request, hop: hop, proxy: transfer.proxy, budget: transfer.budget)
            // The body was accepted with a redirect: the paste exists even if its page fails.
            if transfer.chain.bodyAccepted, failure.isPageFailure {
                var response = UploadResponse(
                    status: 0, effectiveURL: hop.url, redirectCount: transfer.chain.redirectCount,
                    bytesSent: transfer.bytesSent)
                response.unreadPage = "did not load: " + failure.message
                return .finished(.success(response))
            }
            return .finished(.failure(failure))
        case .success:
            if hop.sendsBody {
                transfer.bytesSent = info.bodyBytesSent
                transfer.isBodyTaken = hop.number > 0 || Self.wasBodyTaken(info, transfer: transfer)
            }
            // An HTTP proxy's own refusal of an absolute-form request arrives as the answer.
            if let proxy = transfer.proxy, proxy.kind == .http || proxy.kind == .https, info.responseCode == 407 {
                return .finished(
                    .failure(.proxyRefused(proxy: proxy.authority, status: 407, requestSent: hop.number > 0)))
            }
            let location =
                (300...399).contains(info.responseCode)
                ? transfer.handle.responseHeaders.last { $0.name.lowercased() == "location" }?.value : nil
            do throws(UploadError) {
                if let next = try transfer.chain.next(
                    status: info.responseCode, location: location, target: info.redirectURL)
                {
                    try prepare(transfer, for: next)
                    return .again
                }
            } catch {
                return .finished(.failure(error))
            }
            var response = makeResponse(transfer, info)
            if transfer.chain.bodyAccepted, !(200...299).contains(info.responseCode) {
                response.unreadPage = "answered HTTP \(info.responseCode)"
            }
            return .finished(.success(response))
        }
    }

    // MARK: - Building a transfer

    /// The schemes allowed for requests (CURLOPT_PROTOCOLS_STR); redirects are checked by
    /// `RedirectChain` before they are followed.
    static let allowedSchemes = "http,https"

    /// A transfer configured for `request`'s first request, body attached, not yet started.
    func makeTransfer(
        for request: UploadRequest, streamObserver: ((Span<UInt8>) -> Void)? = nil, streamEnd: (() -> Void)? = nil
    ) throws(UploadError) -> Transfer {
        let scheme = Endpoint(request.url).scheme
        guard scheme == "http" || scheme == "https" else { throw .unsupportedURL(request.url) }
        let transfer: Transfer
        do {
            let handle = try EasyHandle()
            transfer = Transfer(
                handle: handle, request: request, chain: RedirectChain(request: request, limit: options.maxRedirects))
            try configureTransport(handle, for: request)
            handle.onStreamChunk = streamObserver
            transfer.inspection = InspectionHook.make(for: request)
            handle.onStreamEnd = { [unowned transfer] in
                transfer.hasStreamEnded = true
                streamEnd?()
            }
            if let shouldStop = options.shouldStop {
                // A read of a streamed body that a signal interrupts asks too.
                handle.isStopped = { [unowned transfer] in
                    if shouldStop() { transfer.wasStopped = true }
                    return transfer.wasStopped
                }
            }
            try attachBody(request, to: transfer)
        } catch {
            throw classify(error, nil, request)
        }
        try prepare(transfer, for: transfer.chain.current)
        return transfer
    }

    /// Sets what changes from one request of a chain to the next: the URL, the method, the
    /// header lines and TLS identity its origin may see, its proxy, how much of its answer is read.
    func prepare(_ transfer: Transfer, for hop: RedirectChain.Hop) throws(UploadError) {
        let handle = transfer.handle
        let connection = transfer.request.connection
        do {
            try handle.set(.url, hop.url)
            if hop.number > 0 && !hop.sendsBody {
                try handle.set(.httpGet, true)
                try handle.clear(.customRequest)
            }
            var lines = hop.sendsBody ? transfer.bodyHeaders : ["Expect:"]
            if hop.isAtHome {
                lines +=
                    hop.sendsBody
                    ? transfer.configuredHeaders : transfer.configuredHeaders.filter { !Self.isContentType($0) }
            }
            try handle.setHeaders(HeaderList(lines))
            // The answer's own deadline: from the end of the body (the start, for a GET).
            handle.answerTimeout = responseTimeout(for: transfer.request)
            handle.sendsBody = hop.sendsBody
            if let total = options.timeouts.total {
                // One bound for the whole chain: each request gets what the earlier ones left.
                let left = max(total - (ContinuousClock.now - transfer.started), .milliseconds(1))
                transfer.budget = left
                try handle.set(.timeoutMilliseconds, left.roundedUpMilliseconds)
            }
            // The client certificate and the pin are the service's: not shown to, nor asked of, others.
            if let certificate = connection.clientCertificate {
                if hop.isAtHome {
                    try handle.set(.clientCertificate, certificate)
                } else {
                    try handle.clear(.clientCertificate)
                }
            }
            if let key = connection.clientKey {
                if hop.isAtHome { try handle.set(.clientKey, key) } else { try handle.clear(.clientKey) }
            }
            if let pin = connection.pinnedPublicKey {
                if hop.isAtHome { try handle.set(.pinnedPublicKey, pin) } else { try handle.clear(.pinnedPublicKey) }
            }
            // Always set: "" also stops libcurl reading the proxy variables from the process
            // environment; the policy has read them from the run's context.
            transfer.proxy = connection.proxy(for: hop.url)
            try handle.set(.proxy, transfer.proxy?.url ?? "")
            handle.bodyAllowance = hop.bodyAllowance
        } catch {
            throw classify(error, nil, transfer.request)
        }
        if hop.number > 0 && hop.sendsBody && !handle.rewindBody() {
            throw .sendFailed(
                url: hop.url, detail: "the redirect asks for the text again, and a stream cannot be read twice")
        }
        let progress = hop.sendsBody ? options.progress : nil
        let shouldStop = options.shouldStop
        if progress != nil || shouldStop != nil {
            let sendsBody = hop.sendsBody
            handle.onProgress = { [unowned transfer] sent, total in
                if sendsBody {
                    transfer.bodyBytesSent = sent
                    transfer.bodyLength = total
                }
                progress?(sent, total > 0 ? total : nil)
                if let shouldStop, shouldStop() { transfer.wasStopped = true }
                return !transfer.wasStopped
            }
        } else {
            handle.onProgress = nil
        }
    }

    /// How long `request`'s answer may take once it is sent: its service's own, else ours.
    func responseTimeout(for request: UploadRequest) -> Duration {
        request.responseTimeout ?? options.timeouts.response
    }

    /// Whether a header line is a `Content-Type` (dropped when a redirect turns the request
    /// into a GET: it has no body to describe).
    static func isContentType(_ line: String) -> Bool {
        line.lowercased().hasPrefix("content-type:")
    }

    private func configureTransport(_ transfer: EasyHandle, for request: UploadRequest) throws(CurlError) {
        try transfer.set(.noSignal, true)
        try transfer.set(.protocols, Self.allowedSchemes)
        try transfer.set(.connectTimeoutMilliseconds, options.timeouts.connect.roundedUpMilliseconds)
        // "Too slow" = under `stallBytesPerSecond` for the stall time; libcurl counts whole seconds.
        try transfer.set(.lowSpeedLimit, Self.stallBytesPerSecond)
        try transfer.set(.lowSpeedTime, stallSeconds)
        let insecure = options.insecure || request.connection.isInsecure
        try transfer.set(.verifyPeer, !insecure)
        try transfer.set(.verifyHost, insecure ? 0 : 2)
        // Only the CAs resolved (named, or the system's store as found where the distribution
        // keeps it): libcurl's own built-in bundle and folder (Debian's paths, where it was
        // built) are replaced, for the servers and for an https:// proxy alike. None found
        // means none trusted: verification stays on.
        let trust = request.connection.trust
        for (option, value) in [
            (StringOption.caFile, trust.file), (.caFolder, trust.folder), (.proxyCAFile, trust.file),
            (.proxyCAFolder, trust.folder),
        ] {
            if let value { try transfer.set(option, value) } else { try transfer.clear(option) }
        }
        try transfer.set(.userAgent, options.userAgent)
        transfer.maximumBodyBytes = UploadResponse.maximumBodyBytes
        if let verbose = options.verbose {
            let connection = request.connection
            let proxies = [connection.httpProxy, connection.httpsProxy].compactMap { $0 }
            let secrets = Set(proxies.flatMap(\.secrets)).filter { $0.count >= HeaderRedaction.shortestSecret }
            // libcurl's own trace does not say that a proxy was chosen, nor why: name it (by
            // its authority, never its credentials) and the key or variable that chose it.
            if let proxy = connection.proxy(for: request.url) {
                let scheme =
                    Endpoint.schemeSeparator(in: request.url).map { request.url[..<$0.lowerBound].lowercased() } ?? ""
                let source = connection.proxySources[scheme].map { " (from \($0))" } ?? ""
                verbose(
                    "* paste: through proxy \(proxy.kind.rawValue)://\(proxy.authority)\(source) "
                        + "to \(ConnectionPolicy.host(of: request.url))")
            }
            transfer.onDebug = { event in
                let prefix: String
                switch event.kind {
                case .text: prefix = "* "
                case .headerIn: prefix = "< "
                case .headerOut: prefix = "> "
                }
                for line in event.text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
                    verbose(prefix + HeaderRedaction.redact(HeaderRedaction.redact(String(line), secrets: secrets)))
                }
            }
        }
    }

    /// The stall limit in whole seconds, at least 1 (0 would switch it off), at most a day
    /// (bounded before the conversion, so no duration can trap it).
    var stallSeconds: Int { Int(min(max(options.timeouts.stall.timeInterval, 1), Self.longestStall).rounded(.up)) }

    /// The longest stall limit passed to libcurl, in seconds (`stall-timeout`'s own bound).
    static let longestStall = 86_400.0

    /// Attaches the body to the handle and records the header lines it needs in `transfer`
    /// (`prepare` sets them for each request).
    private func attachBody(_ request: UploadRequest, to owner: Transfer) throws(CurlError) {
        let transfer = owner.handle
        // Only the content read as it is sent is inspected (`RequestBody.streamedContent`).
        let inspector = owner.inspection
        if request.body.streamedContent != nil {
            // PERF(stream): a pipe or a large file goes out in reads of this size, not libcurl's
            // default 64 KiB: a sixteenth of the reads, sends and wake-ups per gigabyte.
            try transfer.set(.uploadBufferSize, Self.streamBufferSize)
        }
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
                        contentType: contentType, inspector: content.isReadAsSent ? inspector : nil)
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
        case .embedded(let prefix, let content, let escaping, let suffix, let contentType):
            source = .encoded(
                prefix: prefix, content: BodySource(content), encoding: escaping.bodyEncoding, suffix: suffix)
            if !hasContentType { headers.append("Content-Type: \(contentType)") }
        }
        let length = source?.knownLength ?? -1
        if let source {
            let isContent: Bool
            switch request.body {
            case .raw, .embedded: isContent = true
            case .multipart, .form, .rendered: isContent = false
            }
            try transfer.setBody(source, inspector: isContent ? inspector : nil)
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
        owner.bodyHeaders = headers
        owner.configuredHeaders = userHeaders
    }

    // MARK: - Reading the outcome

    private func makeResponse(_ transfer: Transfer, _ info: TransferInfo) -> UploadResponse {
        UploadResponse(
            status: info.responseCode, headers: transfer.handle.responseHeaders,
            effectiveURL: info.effectiveURL.isEmpty ? transfer.chain.current.url : info.effectiveURL,
            redirectCount: transfer.chain.redirectCount, body: transfer.handle.responseBody,
            bytesSent: transfer.bytesSent, isBodyTaken: transfer.isBodyTaken)
    }

    /// Whether a request that was answered had sent its whole body first.
    ///
    /// libcurl stops sending a body when an error status arrives before its end ("HTTP error
    /// before end of send, stop sending"): then fewer bytes went out than the body holds, or a
    /// streamed body of unknown length was never read to its end. Where nothing says it was
    /// cut short (a body of unknown length that is not a stream), it counts as taken: a
    /// retry must never risk a second paste.
    static func wasBodyTaken(_ info: TransferInfo, transfer: Transfer) -> Bool {
        if info.bodyLength >= 0 { return info.bodyBytesSent >= info.bodyLength }
        if case .stream = transfer.request.body.streamedContent { return transfer.hasStreamEnded }
        return true
    }

    /// The upload buffer (CURLOPT_UPLOAD_BUFFERSIZE) for content read as it is sent: half of
    /// the stdin pipe's grown capacity (`PasteInput.streamPipeCapacity`), so the writer fills
    /// one half while a read takes the other.
    static let streamBufferSize = 512 << 10

    /// Below this many bytes a second a transfer counts as stalled (CURLOPT_LOW_SPEED_LIMIT).
    ///
    /// Not 1: a server trickling one byte a second (a tarpit, or a broken proxy) averages
    /// exactly 1 B/s and would never trip a limit of 1. No working link is this slow.
    static let stallBytesPerSecond = 10

    /// Turns a libcurl failure into an `UploadError`, using what the handle saw.
    ///
    /// - Parameters:
    ///   - hop: the request of the redirect chain that failed (nil before the first is sent).
    ///   - proxy: the proxy that request went through: connection failures are the proxy's.
    ///   - budget: what was left of the total timeout when that request started.
    func classify(
        _ error: CurlError, _ info: TransferInfo?, _ request: UploadRequest, hop: RedirectChain.Hop? = nil,
        proxy: Proxy? = nil, budget: Duration? = nil
    ) -> UploadError {
        let earlier = (hop?.number ?? 0) > 0
        let sent = earlier || (info?.headerBytesSent ?? 0) > 0 || (info?.bodyBytesSent ?? 0) > 0
        let url = info.flatMap { $0.effectiveURL.isEmpty ? nil : $0.effectiveURL } ?? hop?.url ?? request.url
        switch error.localFailure {
        case .read(let path, let code)?: return .readFailed(path: path, errno: code, requestSent: sent)
        case .tee(let path, let code)?: return .teeFailed(path: path, errno: code, requestSent: sent)
        case .answerTimedOut?:
            return .timedOut(
                url: url, phase: .response(seconds: responseTimeout(for: request).timeInterval), requestSent: true)
        case .refused?, nil: break
        }
        if let proxy {
            if let status = info?.connectCode, status >= 300 {
                return .proxyRefused(proxy: proxy.authority, status: status, requestSent: earlier)
            }
            switch error.code {
            case .couldNotResolveProxy:
                return .proxyUnreachable(
                    proxy: proxy.authority, detail: "cannot resolve '\(proxy.host)'", requestSent: earlier)
            case .couldNotConnect:
                let errno = info?.osErrno ?? 0
                return .proxyUnreachable(
                    proxy: proxy.authority, detail: errno != 0 ? Errno(rawValue: errno).message : error.reason,
                    requestSent: earlier)
            case .operationTimedOut where timeoutPhase(info, budget: budget) == .connect:
                return .proxyUnreachable(proxy: proxy.authority, detail: "timed out", requestSent: earlier)
            // The proxy works and says the server behind it is down: as a direct connection
            // refused, so fallback and the outbox treat it the same.
            case .proxyHandshake where info?.proxyTargetFailure == .unresolved:
                return .couldNotResolve(host: Endpoint(url).bareHost, requestSent: earlier)
            case .proxyHandshake where info?.proxyTargetFailure != nil:
                let reason = info?.proxyTargetFailure?.reason ?? ""
                return .couldNotConnect(
                    url: url, detail: "\(reason) (said proxy \(proxy.authority))", requestSent: earlier)
            case .proxyHandshake:
                return .proxyFailed(proxy: proxy.authority, detail: error.reason, requestSent: earlier)
            // No answer to a CONNECT yet (or none asked for): the TLS that failed was the proxy's.
            case let code where proxy.kind == .https && code.isTLS && (info?.connectCode ?? 0) == 0:
                return .proxyTLS(
                    proxy: proxy.authority, detail: error.reason, trust: request.connection.trust,
                    source: request.connection.trustSource)
            default: break
            }
        }
        switch error.code {
        case .couldNotResolveHost:
            return .couldNotResolve(host: Endpoint(url).bareHost, requestSent: sent)
        case .couldNotConnect, .couldNotResolveProxy:
            let errno = info?.osErrno ?? 0
            let detail = errno != 0 ? Errno(rawValue: errno).message : error.reason
            return .couldNotConnect(url: url, detail: detail, requestSent: sent)
        case .operationTimedOut:
            return .timedOut(url: url, phase: timeoutPhase(info, budget: budget), requestSent: sent)
        case .unsupportedProtocol where sent:
            // The URL's scheme was checked before: after a request, this is an HTTP/0.9 reply.
            return .badAnswer(url: url, detail: "not an HTTP/1.x or HTTP/2 answer")
        case .unsupportedProtocol, .malformedURL:
            return .unsupportedURL(request.url)
        case .weirdServerReply:
            return .badAnswer(url: url, detail: error.reason)
        case .outOfMemory where sent:
            // libcurl gives up on an answer's header line past CURL_MAX_HTTP_HEADER (100 KiB)
            // with "out of memory"; nothing else this small runs out of it.
            return .badAnswer(url: url, detail: "a header line longer than 100 KiB")
        case .tooManyRedirects:
            return .tooManyRedirects(options.maxRedirects)
        case .sendError, .sendFailRewind:
            return .sendFailed(url: url, detail: error.reason)
        case let code
        where (code == .receiveError || code.isTLS) && error.reason.contains("alert certificate required"):
            // The server wants a client certificate. Under TLS 1.3 its refusal arrives as an
            // alert on the first read, after the handshake looked complete (OpenSSL's text).
            return .clientCertificateRequired(url: url, detail: error.reason)
        case .receiveError, .gotNothing, .partialFile, .http2:
            return .receiveFailed(url: url, detail: error.reason)
        case .peerFailedVerification:
            return .certificateNotTrusted(
                url: url, detail: error.reason, trust: request.connection.trust,
                source: request.connection.trustSource)
        case let code where code.isTLS:
            return .tls(url: url, detail: error.reason, requestSent: sent)
        default:
            return .curl(error, requestSent: sent)
        }
    }

    /// Which limit a `CURLE_OPERATION_TIMEDOUT` came from: no connection yet means the connect
    /// timeout; having run the whole total timeout means that; otherwise the stall limit.
    ///
    /// - Parameter budget: what was left of the total timeout when the failed request started
    ///   (the whole of it for the first request of a chain).
    private func timeoutPhase(_ info: TransferInfo?, budget: Duration? = nil) -> UploadError.TimeoutPhase {
        // A reused connection has no connect time of its own: a request sent on it is past connecting.
        guard let info, info.connectSeconds > 0 || info.headerBytesSent > 0 else { return .connect }
        if let total = options.timeouts.total, info.totalSeconds >= (budget ?? total).timeInterval * 0.99 {
            return .total(seconds: total.timeInterval)
        }
        return .stalled(seconds: stallSeconds)
    }
}

@available(*, unavailable, message: "an Uploader runs transfers on one thread")
extension Uploader: Sendable {}
