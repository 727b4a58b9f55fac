import Foundation
import Synchronization

/// A stored paste.
struct Paste: Sendable {
    var id: Int
    /// Which API created it: `pastie`, `dpaste`, `paste.rs`, `0x0`, `sprunge`, `pinnwand`,
    /// `json`, `location`, `termbin`, `privatebin`.
    var service: String
    /// The content; empty when not kept (`--discard-bodies`).
    var content: [UInt8]
    var size: Int
    var hash: SHA256Stream
    var isKept: Bool
    var filename: String?
    var contentType: String?
    /// Every field of the creating request.
    var fields: [FormField]
    /// The deletion token (0x0 `X-Token`, pinnwand removal id), if any.
    var token: String?
    /// Whether the `partial` fault cut it.
    var isPartial = false
    var created = Date()
    /// How many times an update route replaced its content.
    var updates = 0

    /// Builds a paste from a field (or raw bytes), copying size, hash and kept-ness.
    init(id: Int, service: String, content: FormField, fields: [FormField]) {
        self.id = id
        self.service = service
        self.content = content.value
        self.size = content.size
        self.hash = content.hash
        self.isKept = content.isKept
        self.filename = content.filename
        self.contentType = content.contentType
        self.fields = fields
    }

    /// The paste as JSON for `/_pastes` and `/_pastes/ID`: its content by size and SHA-256, and
    /// its bytes only when small (`Listed`); all of them at `/_pastes/ID/body`.
    var jsonObject: [String: Any] {
        func field(_ name: String) -> Any { fields.first { $0.name == name }?.text ?? NSNull() }
        var object = Listed.value(
            content, size: size, hash: hash, isKept: isKept, href: "/_pastes/\(id)/body",
            keys: (value: "content", encoding: "encoding", size: "size", sha256: "sha256", kept: "kept", href: "href"))
        object.merge([
            "id": id,
            "service": service,
            "filename": filename ?? NSNull(),
            "content_type": contentType ?? NSNull(),
            "fields": fields.enumerated().map { $1.jsonObject(href: "/_pastes/\(id)/fields/\($0)") },
            "token": token ?? NSNull(),
            "partial": isPartial,
            "created": created.timeIntervalSince1970,
            "updates": updates,
            "parser": field("paste[parser]"),
            "title": field("paste[title]"),
            "restricted": field("paste[restricted]"),
        ]) { _, new in new }
        return object
    }
}

/// One request as the mock saw it, for `/_requests`.
struct RequestRecord: Sendable {
    var seq = 0
    /// `http` or `tcp`.
    var listener = "http"
    var method = ""
    var target = ""
    var path = ""
    var query = ""
    var version = ""
    var headers: [(name: String, value: String)] = []
    var body = CollectedBody()
    var expectsContinue = false
    /// The status answered; nil when the connection was dropped or broke first.
    var status: Int?
    /// The fault applied, by name.
    var fault: String?
    var pasteID: Int?
    var isDropped = false
    var time = Date()
    /// The client's port: requests with the same one came on the same connection.
    var peerPort = 0

    init(listener: String = "http") { self.listener = listener }

    init(head: RequestHead) {
        method = head.method
        target = head.target
        path = head.path
        query = head.query
        version = head.version
        headers = head.headers
        expectsContinue = head.expectsContinue
    }

    var jsonObject: [String: Any] {
        var object: [String: Any] = [
            "seq": seq,
            "listener": listener,
            "method": method,
            "target": target,
            "path": path,
            "query": query,
            "version": version,
            "headers": headers.map { [$0.name, $0.value] },
            "fields": body.fields.enumerated().map { $1.jsonObject(href: "/_requests/\(seq)/fields/\($0)") },
            "body_kind": body.kind.rawValue,
            "body_size": body.size,
            "chunked": body.isChunked,
            "expect_continue": expectsContinue,
            "status": status ?? NSNull(),
            "fault": fault ?? NSNull(),
            "paste_id": pasteID ?? NSNull(),
            "dropped": isDropped,
            "time": time.timeIntervalSince1970,
            "peer_port": peerPort,
        ]
        if body.kind != .multipart {
            let listed = Listed.value(
                body.raw, size: body.size, hash: body.hash, isKept: body.isRawKept, href: "/_requests/\(seq)/body",
                keys: (
                    value: "body", encoding: "body_encoding", size: "body_size", sha256: "body_sha256", kept: nil,
                    href: "body_href"
                ))
            object.merge(listed) { _, new in new }
        }
        return object
    }
}

/// Everything the mock remembers: pastes, the request log and pending faults.
///
/// Shared by every connection thread; one `Mutex` guards it, held only for copies in and out.
final class MockStore: Sendable {
    private struct Contents {
        var nextPasteID = 1
        var nextSeq = 1
        var pastes: [Int: Paste] = [:]
        var requests: [RequestRecord] = []
        var faults: [Fault] = []
        /// Requests (not control routes) read and not yet answered or dropped.
        var inProgress = 0
    }

    private let contents: Mutex<Contents>

    init(faults: [Fault]) {
        contents = Mutex(Contents(faults: faults))
    }

    // MARK: Pastes

    /// Stores a paste built by `make` from a fresh id.
    @discardableResult
    func addPaste(_ make: (Int) -> Paste) -> Paste {
        contents.withLock { c in
            let paste = make(c.nextPasteID)
            c.nextPasteID += 1
            c.pastes[paste.id] = paste
            return paste
        }
    }

    func paste(id: Int) -> Paste? { contents.withLock { $0.pastes[id] } }

    /// Changes a stored paste in place; nil when it does not exist.
    @discardableResult
    func replacePaste(id: Int, _ change: (inout Paste) -> Void) -> Paste? {
        contents.withLock { c in
            guard var paste = c.pastes[id] else { return nil }
            change(&paste)
            c.pastes[id] = paste
            return paste
        }
    }

    /// Removes a paste; false when it did not exist.
    func removePaste(id: Int) -> Bool { contents.withLock { $0.pastes.removeValue(forKey: id) != nil } }

    func allPastes() -> [Paste] { contents.withLock { $0.pastes.values.sorted { $0.id < $1.id } } }

    // MARK: Requests

    /// Appends to the log, numbering the record.
    func log(_ record: RequestRecord) {
        contents.withLock { c in
            var record = record
            record.seq = c.nextSeq
            c.nextSeq += 1
            c.requests.append(record)
        }
    }

    func requests() -> [RequestRecord] { contents.withLock { $0.requests } }

    /// The logged request numbered `seq`, if still in the log.
    func request(seq: Int) -> RequestRecord? { contents.withLock { c in c.requests.first { $0.seq == seq } } }

    func clearRequests() { contents.withLock { $0.requests.removeAll() } }

    /// Counts a request from its head until it is answered or dropped (`GET /_busy`), so a
    /// test can wait until the mock is done with a client it killed.
    func beginRequest() { contents.withLock { $0.inProgress += 1 } }
    func endRequest() { contents.withLock { $0.inProgress -= 1 } }
    func requestsInProgress() -> Int { contents.withLock { $0.inProgress } }

    // MARK: Faults

    /// The first active fault matching a request, its count taken down by one.
    func takeFault(method: String, path: String) -> Fault? {
        contents.withLock { c in
            guard let index = c.faults.firstIndex(where: { $0.matches(method: method, path: path) }) else {
                return nil
            }
            let fault = c.faults[index]
            if let remaining = fault.remaining {
                if remaining <= 1 {
                    c.faults.remove(at: index)
                } else {
                    c.faults[index].remaining = remaining - 1
                }
            }
            return fault
        }
    }

    func addFaults(_ faults: [Fault]) { contents.withLock { $0.faults.append(contentsOf: faults) } }

    func clearFaults() { contents.withLock { $0.faults.removeAll() } }

    func faults() -> [Fault] { contents.withLock { $0.faults } }
}
