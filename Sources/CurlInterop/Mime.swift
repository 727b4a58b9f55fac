internal import CCurlShims

/// The owner of a multipart/form-data body (`curl_mime`), built part by part.
///
/// Made for one `EasyHandle` (libcurl ties a mime to a handle); give it to that handle with
/// `setMultipartBody`, which keeps it alive for the transfer. Parts that stream from a file or
/// a descriptor are read in chunks through `BodyReader`s this object owns.
public final class Mime {
    let raw: OpaquePointer
    /// The handle this body belongs to; it owns us once attached, hence unowned.
    unowned let easy: EasyHandle
    /// The readers of the parts that are not plain bytes.
    private(set) var readers: [BodyReader] = []

    /// Makes an empty body for `easy`. Wraps `curl_mime_init`.
    public init(for easy: EasyHandle) throws(CurlError) {
        guard let raw = curl_mime_init(easy.raw) else {
            throw CurlError(code: .outOfMemory, detail: "curl_mime_init failed")
        }
        self.raw = raw
        self.easy = easy
    }

    deinit { curl_mime_free(raw) }

    /// The failure of one of the part readers, if any aborted the transfer.
    var readerFailure: CurlError.LocalFailure? { readers.lazy.compactMap(\.anyFailure).first }

    /// Writes out what the part readers' tees still stage (`BodyReader.finishTee`).
    func finishTees() {
        for reader in readers { reader.finishTee() }
    }

    /// Adds a part.
    ///
    /// Wraps `curl_mime_addpart`, `curl_mime_name`, `curl_mime_filename`, `curl_mime_type`, and
    /// `curl_mime_data` (bytes, copied once by libcurl) or `curl_mime_data_cb` (segments and
    /// files with their size; streams with size -1, which makes libcurl send the whole body
    /// chunked).
    /// - Parameters:
    ///   - name: the field name, sent as UTF-8.
    ///   - source: the part's content.
    ///   - fileName: the `filename=` of the part's Content-Disposition, if any.
    ///   - contentType: the part's Content-Type, if any.
    ///   - inspector: sees the part's content before libcurl does, and may stop the transfer
    ///     (`BodyInspector`); for a part that is not plain bytes.
    /// - Throws: `CurlError` when libcurl refuses, or a file/tee cannot be opened.
    public func addPart(
        name: String, source: BodySource, fileName: String? = nil, contentType: String? = nil,
        inspector: (any BodyInspector)? = nil
    ) throws(CurlError) {
        guard let part = curl_mime_addpart(raw) else {
            throw CurlError(code: .outOfMemory, detail: "curl_mime_addpart failed")
        }
        try check(curl_mime_name(part, name))
        switch source {
        case .bytes(let bytes):
            if bytes.isEmpty {
                try check(curl_mime_data(part, "", 0))  // NULL would mean "no data set"
            } else {
                try check(
                    bytes.withUnsafeBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) { curl_mime_data(part, $0.baseAddress, $0.count) }
                    })
            }
        case .segments, .file, .stream, .encoded:
            let reader = try BodyReader(source)
            reader.streamObserver = easy.onStreamChunk
            reader.inspector = inspector
            reader.onStreamEnd = easy.onStreamEnd
            reader.isStopped = easy.isStopped
            readers.append(reader)
            try check(
                curl_mime_data_cb(
                    part, curl_off_t(source.knownLength ?? -1), bodyReadTrampoline, bodySeekTrampoline,
                    nil, Unmanaged.passUnretained(reader).toOpaque()))
        }
        if let fileName { try check(curl_mime_filename(part, fileName)) }
        if let contentType { try check(curl_mime_type(part, contentType)) }
    }

    private func check(_ code: CURLcode) throws(CurlError) {
        guard code != CURLE_OK else { return }
        throw CurlError(code: CurlError.Code(code), detail: "")
    }
}

@available(*, unavailable, message: "a libcurl mime belongs to one thread")
extension Mime: Sendable {}
