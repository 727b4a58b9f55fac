import Foundation

/// One form field as received (multipart part or urlencoded pair).
struct FormField: Sendable {
    var name: String
    /// The value's bytes; empty when not kept (see `isKept`).
    var value: [UInt8] = []
    /// The multipart `filename` parameter, if any.
    var filename: String?
    /// The part's `Content-Type`, if any.
    var contentType: String?
    /// How many bytes the value had on the wire (after decoding).
    var size = 0
    /// SHA-256 of the value.
    var hash = SHA256Stream()
    /// False when `--discard-bodies` dropped the value (only size and hash remain).
    var isKept = true

    /// The value as UTF-8 text, or nil when it is not valid UTF-8 or not kept.
    var text: String? { isKept ? String(validating: value, as: UTF8.self) : nil }

    /// The value as `/_…/fields/N` serves it.
    var received: (bytes: [UInt8], size: Int, isKept: Bool) { (value, size, isKept) }
}

/// How a request body was encoded.
enum BodyKind: String, Sendable {
    case none, multipart, urlencoded, json, raw
}

/// Everything kept from a request body.
struct CollectedBody: Sendable {
    var kind: BodyKind = .none
    /// Bytes of body received (after de-chunking).
    var size = 0
    /// SHA-256 over the whole body (not computed for multipart, whose fields carry their own).
    var hash = SHA256Stream()
    /// The raw body for non-multipart requests.
    var raw: [UInt8] = []
    /// False when the raw body was cut (discard mode) or not kept at all (multipart).
    var isRawKept = true
    /// Parsed form fields, in order.
    var fields: [FormField] = []
    /// The body passed `--max-body`.
    var isTooLarge = false
    /// Whether the body came chunked.
    var isChunked = false

    /// The first field with this name.
    func field(_ name: String) -> FormField? { fields.first { $0.name == name } }

    /// The first field with this name, as text.
    func text(_ name: String) -> String? { field(name)?.text }
}

/// Builds a `CollectedBody` from body bytes as they stream in.
struct BodyCollector {
    /// Under `--discard-bodies`, values up to this size are still kept, so small fields
    /// (authorization, titles) can be checked while a gigabyte of content is only counted.
    static let discardKeepLimit = 64 * 1024

    private(set) var body = CollectedBody()
    private var multipart: MultipartParser?
    private var current: FormField?
    private let maxBody: Int
    private let discards: Bool
    /// Set when the body cannot be parsed; the rest is still read (and counted) so the
    /// connection stays in step, then the answer is 400.
    private var failure: MultipartParser.Failure?

    /// Prepares for a body of the given `Content-Type`.
    init(contentType: String?, maxBody: Int, discards: Bool) {
        self.maxBody = maxBody
        self.discards = discards
        let (type, parameters) = parseHeaderParameters(contentType ?? "")
        switch type.lowercased() {
        case "multipart/form-data":
            body.kind = .multipart
            body.isRawKept = false
            if let boundary = parameters["boundary"], !boundary.isEmpty, boundary.utf8.count <= 200 {
                multipart = MultipartParser(boundary: boundary)
            } else {
                failure = .malformed("multipart/form-data without a boundary")
            }
        case "application/x-www-form-urlencoded": body.kind = .urlencoded
        case "application/json": body.kind = .json
        default: body.kind = .raw
        }
    }

    /// Adds more body bytes.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        if bytes.isEmpty { return }
        body.size += bytes.count
        if !discards, body.size > maxBody { body.isTooLarge = true }
        if body.isTooLarge || failure != nil { return }  // the answer is 413 or 400: count only
        if body.kind == .multipart {
            guard var parser = multipart else { return }
            multipart = nil
            do {
                try parser.feed(bytes) { event in handle(event) }
                multipart = parser
            } catch {
                failure = error as? MultipartParser.Failure ?? .malformed("\(error)")
            }
            return
        }
        body.hash.update(bytes)
        if body.isRawKept {
            if discards, body.raw.count + bytes.count > Self.discardKeepLimit {
                body.isRawKept = false
                body.raw = []
            } else {
                body.raw.append(contentsOf: bytes)
            }
        }
    }

    private mutating func handle(_ event: MultipartParser.Event) {
        switch event {
        case .begin(let headers):
            var field = FormField(name: "")
            for (name, value) in headers {
                switch name.lowercased() {
                case "content-disposition":
                    let (_, parameters) = parseHeaderParameters(value)
                    field.name = parameters["name"] ?? ""
                    field.filename = parameters["filename"]
                case "content-type":
                    field.contentType = value
                default: break
                }
            }
            current = field
        case .data(let slice):
            guard var field = current else { return }
            current = nil
            field.size += slice.count
            field.hash.update(slice)
            if field.isKept {
                if discards, field.value.count + slice.count > Self.discardKeepLimit {
                    field.isKept = false
                    field.value = []
                } else {
                    field.value.append(contentsOf: slice)
                }
            }
            current = field
        case .end:
            if let field = current { body.fields.append(field) }
            current = nil
        }
    }

    /// Completes the body: checks multipart framing and parses urlencoded pairs.
    mutating func finish(isChunked: Bool) throws(MultipartParser.Failure) -> CollectedBody {
        body.isChunked = isChunked
        if body.isTooLarge { return body }
        if let failure { throw failure }
        if let multipart { try multipart.finish() }
        if body.kind == .urlencoded {
            for (name, value) in parseURLEncoded(body.raw) {
                var field = FormField(name: String(decoding: name, as: UTF8.self), value: value)
                field.size = value.count
                field.hash.update(value[...])
                body.fields.append(field)
            }
        }
        return body
    }
}

// MARK: - JSON rendering helpers

/// How the listings (`/_requests`, `/_pastes`) show a value: a field's, a paste's content, a raw
/// body. Every value by its size and SHA-256; its bytes too when it was kept and is at most
/// `limit`, so a test reads small fields (titles, tokens, short texts) from the listing, while a
/// listing after uploads of many MiB stays a few KiB: whole bodies made the listings most of a
/// streaming suite's CPU (JSON-escaped here, decoded in the test), and under load the test's
/// read timed out while the mock still wrote them. A larger value's bytes are at its `href`.
enum Listed {
    /// The largest value listed with its bytes: the size `--discard-bodies` still keeps.
    static let limit = BodyCollector.discardKeepLimit

    /// `value` and `encoding` (both null when not kept or over `limit`), `size`, `sha256`,
    /// `kept` and `href` (null when not kept), under these key names.
    static func value(
        _ bytes: [UInt8], size: Int, hash: SHA256Stream, isKept: Bool, href: String,
        keys: (value: String, encoding: String, size: String, sha256: String, kept: String?, href: String)
    ) -> [String: Any] {
        var object: [String: Any] = [
            keys.size: size, keys.sha256: hash.hex, keys.href: isKept ? href : NSNull(),
        ]
        if let kept = keys.kept { object[kept] = isKept }
        if isKept, bytes.count <= limit {
            let (value, encoding) = encodedValue(bytes)
            object[keys.value] = value
            object[keys.encoding] = encoding
        } else {
            object[keys.value] = NSNull()
            object[keys.encoding] = NSNull()
        }
        return object
    }

    /// The keys of a field's value and of a paste's content.
    static let fieldKeys = (
        value: "value", encoding: "encoding", size: "size", sha256: "sha256", kept: Optional("kept"), href: "href"
    )
}

/// Bytes as a JSON string value: UTF-8 text when valid, else base64.
func encodedValue(_ bytes: [UInt8]) -> (value: String, encoding: String) {
    if let text = String(validating: bytes, as: UTF8.self) { return (text, "utf8") }
    return (Data(bytes).base64EncodedString(), "base64")
}

extension FormField {
    /// The field as a JSON object for `/_requests` and `/_pastes`; `href` serves its bytes.
    func jsonObject(href: String) -> [String: Any] {
        var object = Listed.value(value, size: size, hash: hash, isKept: isKept, href: href, keys: Listed.fieldKeys)
        object["name"] = name
        object["filename"] = filename ?? NSNull()
        object["content_type"] = contentType ?? NSNull()
        return object
    }
}

/// Serialises a JSON object with stable key order and a final newline.
func jsonBytes(_ object: Any) -> [UInt8] {
    let data =
        (try? JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("null".utf8)
    return [UInt8](data) + [10]
}
