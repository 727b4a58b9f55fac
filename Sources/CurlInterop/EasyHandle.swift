internal import CCurlShims
internal import Glibc

/// One libcurl transfer: the owner of a `CURL *` easy handle.
///
/// It also owns everything libcurl borrows during the transfer: the `CURLOPT_ERRORBUFFER`
/// buffer, the header list, the mime body, the body reader, and the response it collects
/// (status line reset, headers of the last answer, a bounded body). Callbacks reach it through
/// `Unmanaged` user data (unretained: the handle outlives its transfer). One handle per transfer;
/// a handle belongs to one thread.
public final class EasyHandle {
    /// The `CURL *`; valid from init to deinit.
    let raw: UnsafeMutableRawPointer
    /// `CURLOPT_ERRORBUFFER`: libcurl writes the specific reason for a failure here.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    // Things libcurl borrows; kept alive as long as the handle.
    private var headerList: HeaderList?
    private var mime: Mime?
    private var bodyReader: BodyReader?

    /// The header lines of the answer being received; reset at each new status line, so after a
    /// redirect it holds only the last answer's headers.
    public private(set) var responseHeaders: [(name: String, value: String)] = []
    /// The start of the response body, at most `maximumBodyBytes`.
    public private(set) var responseBody: [UInt8] = []
    /// Response body bytes received beyond `maximumBodyBytes` (counted, then discarded).
    public private(set) var discardedBodyBytes: Int64 = 0
    /// The most body bytes kept in `responseBody`.
    public var maximumBodyBytes = 1 << 20
    /// When set, the transfer stops once the body of its answer passes this many bytes, and
    /// still counts as complete (`stoppedAtAllowance` tells it happened). Nil: read it all.
    ///
    /// What a caller wants of a page is sometimes only that it was reached (a pastie-style
    /// service redirects to the new paste's page, which holds the whole paste again as HTML):
    /// small pages are still read to the end, so the connection stays reusable.
    public var bodyAllowance: Int?
    /// Body bytes of the current answer so far.
    private var currentBodyBytes = 0
    /// Whether the last transfer was stopped on purpose at `bodyAllowance`.
    public private(set) var stoppedAtAllowance = false

    /// Called with (bytes sent, total to send or 0 when unknown); return false to abort.
    public var onProgress: ((Int64, Int64) -> Bool)? {
        didSet { updateProgressCalls() }
    }
    /// The longest the answer may take once the request is sent (nil: no bound but the stall
    /// and total timeouts). The clock starts when the body's last byte has been handed to
    /// libcurl (at once for a request without one, see `sendsBody`); past it the transfer is
    /// aborted with the local failure `answerTimedOut`. Checked in the progress callback, which
    /// libcurl calls at least once a second while a transfer waits (the stall check's timer), so
    /// it fires within about a second of the deadline.
    ///
    /// A server trickling its answer just above the stall limit can otherwise keep a transfer
    /// alive for ever; libcurl has no option for "time after the upload" (CURLOPT_TIMEOUT_MS
    /// bounds the whole transfer, upload included).
    public var answerTimeout: Duration? {
        didSet { updateProgressCalls() }
    }
    /// Whether the request being sent carries a body (false for the GET of a redirect's
    /// target): without one, the answer's clock starts with the transfer.
    public var sendsBody = true
    /// When the request's body was seen all handed over, in this transfer.
    private var requestSentAt: ContinuousClock.Instant?
    /// Whether `answerTimeout` aborted the last transfer.
    private var answerTimedOut = false
    /// Sees every byte of a streamed body (`BodySource.stream`, as the body or as a multipart
    /// part) once, in order, as it is read. Set it before `setBody` or `Mime.addPart`.
    public var onStreamChunk: ((Span<UInt8>) -> Void)?
    /// Called once when a streamed body (`BodySource.stream`) has been read to its end and its
    /// tee file flushed, before libcurl sends the end of the body. Set it before `setBody` or
    /// `Mime.addPart`.
    public var onStreamEnd: (() -> Void)?
    /// Asked when a signal interrupts a read of a streamed body (`EINTR`): true aborts the
    /// transfer (`CURLE_ABORTED_BY_CALLBACK`), false reads on. Set it before `setBody` or
    /// `Mime.addPart`.
    public var isStopped: (() -> Bool)?
    /// Called with libcurl's verbose trace (CURLOPT_VERBOSE + CURLOPT_DEBUGFUNCTION).
    public var onDebug: ((DebugEvent) -> Void)? {
        didSet {
            _ = ccurl_easy_setopt_long(raw, CURLOPT_VERBOSE, onDebug == nil ? 0 : 1)
            // The trace shows OpenSSL's errors as they happen: its text is loaded first.
            if onDebug != nil { ccurl_load_tls_error_text() }
        }
    }

    /// Makes a handle with the callbacks that collect the response installed.
    ///
    /// Wraps `curl_easy_init`, and sets CURLOPT_ERRORBUFFER, CURLOPT_WRITEFUNCTION,
    /// CURLOPT_HEADERFUNCTION, CURLOPT_XFERINFOFUNCTION and CURLOPT_DEBUGFUNCTION with this
    /// handle as their user data.
    /// - Throws: `CurlError` when libcurl cannot make a handle.
    public init() throws(CurlError) {
        try Curl.globalInit()
        guard let raw = curl_easy_init() else {
            throw CurlError(code: .failedInit, detail: "curl_easy_init failed")
        }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = ccurl_easy_setopt_pointer(raw, CURLOPT_PRIVATE, me)
        _ = ccurl_easy_setopt_pointer(raw, CURLOPT_WRITEDATA, me)
        _ = ccurl_easy_setopt_write_callback(raw) { data, size, count, userData in
            let handle = Unmanaged<EasyHandle>.fromOpaque(userData!).takeUnretainedValue()
            return handle.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = ccurl_easy_setopt_pointer(raw, CURLOPT_HEADERDATA, me)
        _ = ccurl_easy_setopt_header_callback(raw) { data, size, count, userData in
            let handle = Unmanaged<EasyHandle>.fromOpaque(userData!).takeUnretainedValue()
            handle.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        _ = ccurl_easy_setopt_pointer(raw, CURLOPT_XFERINFODATA, me)
        _ = ccurl_easy_setopt_xferinfo_callback(raw) { userData, _, _, uploadTotal, uploaded in
            let handle = Unmanaged<EasyHandle>.fromOpaque(userData!).takeUnretainedValue()
            return handle.progressed(uploaded: Int64(uploaded), total: Int64(uploadTotal)) ? 0 : 1
        }
        _ = ccurl_easy_setopt_pointer(raw, CURLOPT_DEBUGDATA, me)
        _ = ccurl_easy_setopt_debug_callback(raw) { _, type, data, size, userData in
            let handle = Unmanaged<EasyHandle>.fromOpaque(userData!).takeUnretainedValue()
            handle.receiveDebug(type, UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    // MARK: - Options

    /// Sets an option taking a number. Wraps `curl_easy_setopt` (CURLOPTTYPE_LONG).
    public func set(_ option: LongOption, _ value: Int) throws(CurlError) {
        try check(ccurl_easy_setopt_long(raw, CURLoption(rawValue: option.rawValue), value))
    }

    /// Sets an on/off option. Wraps `curl_easy_setopt` (CURLOPTTYPE_LONG, 0 or 1).
    public func set(_ option: LongOption, _ value: Bool) throws(CurlError) {
        try set(option, value ? 1 : 0)
    }

    /// Sets an option taking a size. Wraps `curl_easy_setopt` (CURLOPTTYPE_OFF_T).
    public func set(_ option: SizeOption, _ value: Int64) throws(CurlError) {
        try check(ccurl_easy_setopt_off_t(raw, CURLoption(rawValue: option.rawValue), curl_off_t(value)))
    }

    /// Sets an option taking text; libcurl copies it. Wraps `curl_easy_setopt` (CURLOPTTYPE_STRINGPOINT).
    public func set(_ option: StringOption, _ value: String) throws(CurlError) {
        try check(ccurl_easy_setopt_string(raw, CURLoption(rawValue: option.rawValue), value))
    }

    /// Sets a text option back to libcurl's "none" (NULL): no custom method, no CA file, no
    /// client certificate. Wraps `curl_easy_setopt` (CURLOPTTYPE_STRINGPOINT) with NULL.
    public func clear(_ option: StringOption) throws(CurlError) {
        try check(ccurl_easy_setopt_string(raw, CURLoption(rawValue: option.rawValue), nil))
    }

    /// Sets the request header lines (CURLOPT_HTTPHEADER); the handle keeps the list alive.
    public func setHeaders(_ list: HeaderList) throws(CurlError) {
        headerList = list
        try check(ccurl_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, list.head))
    }

    /// Sends a multipart body (CURLOPT_MIMEPOST); the handle keeps the mime alive.
    ///
    /// - Precondition: `mime` was made for this handle.
    public func setMultipartBody(_ mime: Mime) throws(CurlError) {
        precondition(mime.easy === self, "a Mime belongs to the handle it was made for")
        self.mime = mime
        try check(ccurl_easy_setopt_mime(raw, CURLOPT_MIMEPOST, mime.raw))
    }

    /// Supplies the request body from `source` through CURLOPT_READFUNCTION (and
    /// CURLOPT_SEEKFUNCTION, so files and memory can be resent after a 307/308).
    ///
    /// Set the method and the length (CURLOPT_POST + CURLOPT_POSTFIELDSIZE_LARGE, or
    /// CURLOPT_UPLOAD + CURLOPT_INFILESIZE_LARGE) separately.
    /// - Parameters:
    ///   - inspector: sees the content (of an `.encoded` source: before the encoding) before
    ///     libcurl does, and may stop the transfer; only for a body that is the content.
    /// - Throws: `CurlError` with a local failure when the file or tee cannot be opened.
    public func setBody(_ source: BodySource, inspector: (any BodyInspector)? = nil) throws(CurlError) {
        let reader = try BodyReader(source)
        reader.streamObserver = onStreamChunk
        reader.inspector = inspector
        reader.onStreamEnd = onStreamEnd
        reader.isStopped = isStopped
        bodyReader = reader
        let data = Unmanaged.passUnretained(reader).toOpaque()
        try check(ccurl_easy_setopt_pointer(raw, CURLOPT_READDATA, data))
        try check(ccurl_easy_setopt_read_callback(raw, bodyReadTrampoline))
        try check(ccurl_easy_setopt_pointer(raw, CURLOPT_SEEKDATA, data))
        try check(ccurl_easy_setopt_seek_callback(raw, bodySeekTrampoline))
    }

    /// Moves the body set with `setBody` back to its start, for a request that sends it again
    /// (a 307 or 308 redirect followed by the caller). A multipart body (`setMultipartBody`)
    /// needs nothing: libcurl rewinds its parts itself at the start of every request.
    ///
    /// - Returns: false when the body is a stream, which cannot be read twice.
    public func rewindBody() -> Bool {
        bodyReader?.rewind(to: 0) ?? true
    }

    // MARK: - Running

    /// Runs the transfer to its end on this thread.
    ///
    /// Wraps `curl_easy_perform`.
    /// - Throws: `CurlError` with the error buffer's text, and the local failure of a body
    ///   reader when one caused the abort.
    public func perform() throws(CurlError) {
        resetResponse()
        try finish(curl_easy_perform(raw))
    }

    /// Clears what a previous run collected and the error buffer.
    func resetResponse() {
        requestSentAt = nil
        answerTimedOut = false
        responseHeaders = []
        responseBody = []
        discardedBodyBytes = 0
        currentBodyBytes = 0
        stoppedAtAllowance = false
        errorBuffer[0] = 0
    }

    /// Turns a transfer's final code into success or a `CurlError`.
    func finish(_ code: CURLcode) throws(CurlError) {
        // A transfer that stopped early leaves a stream's last bytes staged in its tee.
        bodyReader?.finishTee()
        mime?.finishTees()
        guard code != CURLE_OK else { return }
        // A write "error" we caused ourselves to skip the rest of a body is a success.
        if code == CURLE_WRITE_ERROR && stoppedAtAllowance { return }
        throw makeError(code)
    }

    /// The `CurlError` for a code, with the error buffer and any reader failure.
    func makeError(_ code: CURLcode) -> CurlError {
        let failure =
            bodyReader?.anyFailure ?? mime?.readerFailure
            ?? (answerTimedOut ? .answerTimedOut : nil)
        return CurlError(
            code: CurlError.Code(code), detail: TLSErrorText.readable(String(cString: errorBuffer)),
            localFailure: failure)
    }

    /// Throws when a setopt-style call did not return CURLE_OK.
    private func check(_ code: CURLcode) throws(CurlError) {
        guard code != CURLE_OK else { return }
        throw CurlError(code: CurlError.Code(code), detail: "")
    }

    // MARK: - Callbacks (called from the trampolines, on the transfer's thread)

    /// CURLOPT_NOPROGRESS off when someone needs the progress callback.
    private func updateProgressCalls() {
        _ = ccurl_easy_setopt_long(raw, CURLOPT_NOPROGRESS, onProgress == nil && answerTimeout == nil ? 1 : 0)
    }

    /// The progress callback: starts and checks the answer's clock, then tells `onProgress`;
    /// false aborts the transfer.
    private func progressed(uploaded: Int64, total: Int64) -> Bool {
        if let answerTimeout {
            let now = ContinuousClock.now
            if requestSentAt == nil, isRequestSent(uploaded: uploaded, total: total) { requestSentAt = now }
            if let sent = requestSentAt, now - sent > answerTimeout {
                answerTimedOut = true
                return false
            }
        }
        return onProgress?(uploaded, total) ?? true
    }

    /// Whether the whole request has been handed to libcurl: no body, a body of known length
    /// all sent, or every reader of unknown length at its end (what follows a multipart
    /// stream part, its closing boundary, is a few bytes in memory).
    private func isRequestSent(uploaded: Int64, total: Int64) -> Bool {
        guard sendsBody else { return true }
        let readers = (bodyReader.map { [$0] } ?? []) + (mime?.readers ?? [])
        if readers.contains(where: { $0.isUnknownLength }) {
            return readers.allSatisfy(\.isFinished)
        }
        return total <= 0 || uploaded >= total
    }

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        currentBodyBytes += chunk.count
        if let bodyAllowance, currentBodyBytes > bodyAllowance {
            stoppedAtAllowance = true
            return 0
        }
        let room = max(0, maximumBodyBytes - responseBody.count)
        let kept = min(room, chunk.count)
        if kept > 0 { responseBody.append(contentsOf: chunk[0..<kept]) }
        discardedBodyBytes += Int64(chunk.count - kept)
        return chunk.count
    }

    private func receiveHeaderLine(_ chunk: UnsafeRawBufferPointer) {
        // Trim CR LF as bytes: as a String, "\r\n" is one Character and matches neither alone.
        var end = chunk.count
        while end > 0, chunk[end - 1] == 0x0A || chunk[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: chunk[0..<end], as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new answer (after a 100 Continue, or a proxy's answer to CONNECT): only the
            // last answer's headers describe the result.
            responseHeaders = []
            currentBodyBytes = 0
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        responseHeaders.append((name: name, value: String(value)))
    }

    private func receiveDebug(_ type: curl_infotype, _ data: UnsafeRawBufferPointer) {
        guard let onDebug else { return }
        let kind: DebugEvent.Kind
        switch type {
        case CURLINFO_TEXT: kind = .text
        case CURLINFO_HEADER_IN: kind = .headerIn
        case CURLINFO_HEADER_OUT: kind = .headerOut
        default: return  // body data and TLS records are never traced
        }
        onDebug(DebugEvent(kind: kind, text: String(decoding: data, as: UTF8.self)))
    }
}

@available(*, unavailable, message: "a libcurl easy handle belongs to one thread")
extension EasyHandle: Sendable {}

/// One piece of libcurl's verbose trace.
public struct DebugEvent: Sendable {
    /// What the text is.
    public enum Kind: Sendable {
        /// libcurl's own commentary (`Trying 127.0.0.1:8080...`).
        case text
        /// Header lines received (may hold several lines).
        case headerIn
        /// Header lines sent (the whole request head, several lines).
        case headerOut
    }

    /// What the text is.
    public var kind: Kind
    /// The text as libcurl gave it, line endings included.
    public var text: String
}
