import CurlInterop
import PasteCore
import SecretGuard

/// Runs a request's `ContentInspection` inside libcurl's read callback (CurlInterop's
/// `BodyInspector`): every chunk of content read as it is sent is inspected before libcurl has
/// it, and a refusal aborts the transfer before the request is complete.
///
/// One per transfer, made from the request's `contentChecks` (nothing when it has none); the
/// transfer's owner asks `refusal` when the transfer failed with `LocalFailure.refused`.
final class InspectionHook: BodyInspector {
    /// The inspectors and the first refusal.
    let inspection: ContentInspection

    /// The hook for `request`, or nil when its content needs no checks.
    static func make(for request: UploadRequest) -> InspectionHook? {
        guard let source = request.body.streamedContent else { return nil }
        // A teed stream's copy holds every byte read once the transfer is over: the guard counts
        // its lines only from a finding on, and places it there (`SecretInspector.settle`).
        let copyPath: String? = if case .stream(_, _, let teePath?, _) = source { teePath } else { nil }
        let inspection = ContentInspection(request.contentChecks, source: request.contentChecks.name(of: source)) {
            name, scanned in
            SecretInspector(source: name, alreadyScanned: scanned, copyPath: copyPath)
        }
        return inspection.isEmpty ? nil : InspectionHook(inspection)
    }

    init(_ inspection: ContentInspection) {
        self.inspection = inspection
    }

    /// Why the content was refused, once it was; read after the transfer (a stream's tee
    /// flushed: `EasyHandle.finish`, `RawConnection.send`), which settles it.
    var refusal: InspectionRefusal? {
        inspection.settleRefusal()
        return inspection.refusal
    }

    func inspect(_ chunk: Span<UInt8>) -> Bool { inspection.inspect(chunk) }
    func finish() -> Bool { inspection.finish() }
    func restart() { inspection.restart() }
}

@available(*, unavailable, message: "an inspection belongs to the transfer's thread")
extension InspectionHook: Sendable {}

extension RequestBody {
    /// The content when it is read as it is sent (a file or a pipe): what the inspection
    /// watches. Content in memory was checked whole when the request was built.
    var streamedContent: ContentSource? {
        let content: ContentSource?
        switch self {
        case .multipart(let fields):
            content =
                fields.lazy.compactMap {
                    if case .content(let source, _, _) = $0.value { source } else { nil }
                }.first
        case .raw(let source, _), .embedded(_, let source, _, _, _): content = source
        case .form, .rendered: content = nil
        }
        return content?.isReadAsSent == true ? content : nil
    }
}

extension BodyEncoding {
    /// The inside of a JSON string, escaped byte by byte (`JSONText.appendEscaped`).
    static let jsonString = BodyEncoding(name: "json-string") { chunk, output in
        JSONText.appendEscaped(chunk, to: &output)
    }
}

extension ContentEscaping {
    /// The CurlInterop encoding that writes content this way.
    var bodyEncoding: BodyEncoding {
        switch self {
        case .jsonString: .jsonString
        }
    }
}
