import Foundation
import Glibc

/// A running `paste-mock`, started for one test and stopped by it.
///
/// Starts the built binary with `--port 0`, learns its URL from the first stdout line (with a
/// deadline), and talks to its control routes (`/_requests`, `/_pastes/ID`, `/_faults`) with a
/// tiny raw-socket HTTP client, so tests depend neither on FoundationNetworking nor on curl.
///
/// The listings carry each value (a field, a paste's content, a raw body) by size and SHA-256,
/// and its bytes only up to 64 KiB: compare a large one by `fingerprint` (as strong as
/// comparing the bytes), and fetch its bytes with `data(_:)`/`body(_:)` only to look inside.
public final class MockServer: @unchecked Sendable {
    // Safe: every stored property is set in init and never changed, except `stopped`, which
    // `lock` guards; `StreamCollector` has its own lock.

    /// `http://127.0.0.1:PORT`, no trailing slash.
    public let baseURL: String
    /// The HTTP port.
    public let port: Int
    /// The termbin-style TCP port, when started with `tcp: true`.
    public let tcpPort: Int?
    /// The child's process id.
    public let processIdentifier: Int32

    private let process: SpawnedProcess
    private let stderrText: StreamCollector
    private let lock = NSLock()
    private var stopped: Int32?

    /// Raised when the mock does not start or stop as it should.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `paste-mock --port 0` plus `arguments` (e.g. `["--fault", "status:status=503"]`).
    ///
    /// - Parameters:
    ///   - tcp: also open the termbin-style listener (`--tcp-port 0`).
    ///   - timeout: seconds to wait for the banner lines.
    public init(arguments: [String] = [], tcp: Bool = false, timeout: Double = 10) throws {
        let outPipe = Pipe()
        let errPipe = Pipe()
        let stdoutText = StreamCollector()
        let stderrText = StreamCollector()
        stdoutText.drain(outPipe.fileHandleForReading)
        stderrText.drain(errPipe.fileHandleForReading)
        let process = try SpawnedProcess(
            BuiltProducts.path(of: "paste-mock"), ["--port", "0"] + (tcp ? ["--tcp-port", "0"] : []) + arguments,
            standardOutput: .handle(outPipe.fileHandleForWriting), standardError: .handle(errPipe.fileHandleForWriting))
        try? outPipe.fileHandleForWriting.close()
        try? errPipe.fileHandleForWriting.close()
        self.process = process
        self.stderrText = stderrText
        processIdentifier = process.id

        let linesNeeded = tcp ? 2 : 1
        let lines = stdoutText.waitForLines(linesNeeded, timeout: timeout)
        guard lines.count >= linesNeeded, lines[0].hasPrefix("listening on http://") else {
            process.send(SIGTERM)
            throw Failure(
                description: "paste-mock did not start: stdout \(lines), stderr \(stderrText.text)")
        }
        baseURL = String(lines[0].dropFirst("listening on ".count))
        guard let p = baseURL.split(separator: ":").last.flatMap({ Int($0) }) else {
            process.send(SIGTERM)
            throw Failure(description: "bad banner '\(lines[0])'")
        }
        port = p
        if tcp {
            guard lines[1].hasPrefix("tcp listening on "),
                let t = lines[1].split(separator: ":").last.flatMap({ Int($0) })
            else {
                process.send(SIGTERM)
                throw Failure(description: "bad tcp banner '\(lines[1])'")
            }
            tcpPort = t
        } else {
            tcpPort = nil
        }
    }

    deinit {
        _ = try? stop(timeout: 5)
    }

    /// Everything the mock wrote to stderr so far (`--verbose` lines, errors).
    public var stderr: String { stderrText.text }

    /// Sends SIGTERM and waits for the exit; returns the exit status (128 + signal if killed).
    ///
    /// Idempotent: later calls return the same status. Past the deadline the child is killed
    /// and `Failure` thrown.
    @discardableResult
    public func stop(timeout: Double = 5) throws -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let stopped { return stopped }
        process.send(SIGTERM)
        guard let status = process.wait(seconds: timeout) else {
            process.send(SIGKILL)
            _ = process.wait(seconds: 5)
            stopped = 128 + SIGKILL
            throw Failure(description: "paste-mock ignored SIGTERM for \(timeout)s")
        }
        stopped = status
        return status
    }

    /// `baseURL` + `path` (path starts with `/`).
    public func url(_ path: String) -> String { baseURL + path }

    // MARK: - Control routes

    /// Every request the mock received, oldest first (`GET /_requests`); the control routes are
    /// never logged.
    public func requests() throws -> [MockRecordedRequest] {
        try decode([MockRecordedRequest].self, from: request("GET", "/_requests"))
    }

    /// The POST requests the mock received, oldest first: the uploads.
    public func posts() throws -> [MockRecordedRequest] {
        try requests().filter { $0.method == "POST" }
    }

    /// Forgets the request log (`DELETE /_requests`).
    public func clearRequests() throws { _ = try request("DELETE", "/_requests") }

    /// How many requests the mock has begun and not yet answered or dropped (`GET /_busy`).
    public func requestsInProgress() throws -> Int {
        struct Busy: Decodable { var requests: Int }
        return try decode(Busy.self, from: request("GET", "/_busy")).requests
    }

    /// A stored paste with all its fields (`GET /_pastes/ID`).
    public func paste(id: Int) throws -> MockStoredPaste {
        try decode(MockStoredPaste.self, from: request("GET", "/_pastes/\(id)"))
    }

    /// Every stored paste (`GET /_pastes`).
    public func pastes() throws -> [MockStoredPaste] {
        try decode([MockStoredPaste].self, from: request("GET", "/_pastes"))
    }

    /// A field's bytes: from the listing when it carried them (64 KiB or less), else from the
    /// field's own route (`GET /_requests/SEQ/fields/N`, `/_pastes/ID/fields/N`).
    public func data(_ field: MockField) throws -> Data {
        try bytes(field.data, at: field.href, of: "field \(field.name)")
    }

    /// A paste's content: from the listing when it carried it (64 KiB or less), else from
    /// `GET /_pastes/ID/body`.
    public func data(_ paste: MockStoredPaste) throws -> Data {
        try bytes(paste.data, at: paste.href, of: "paste \(paste.id)")
    }

    /// A request's raw body (not multipart): from the listing when it carried it (64 KiB or
    /// less), else from `GET /_requests/SEQ/body`.
    public func body(_ request: MockRecordedRequest) throws -> Data {
        try bytes(request.bodyData, at: request.bodyHref, of: "the body of request \(request.seq)")
    }

    private func bytes(_ listed: Data?, at href: String?, of what: String) throws -> Data {
        if let listed { return listed }
        guard let href else { throw Failure(description: "\(what) was not kept (--discard-bodies, or multipart)") }
        let response = try request("GET", href)
        guard response.status == 200 else {
            throw Failure(description: "\(what): GET \(href) answered \(response.status)")
        }
        return response.body
    }

    /// A paste's raw bytes (`GET /pastes/ID.txt`); throws when it does not exist.
    public func rawPaste(id: Int) throws -> Data {
        let response = try request("GET", "/pastes/\(id).txt")
        guard response.status == 200 else { throw Failure(description: "no paste \(id): \(response.status)") }
        return response.body
    }

    /// What a paste URL the mock answered serves (`GET` of its path): for a 0x0 file, the
    /// bytes as uploaded, with the Content-Type of their part.
    public func fetch(url: String) throws -> MockHTTPResponse {
        guard url.hasPrefix(baseURL + "/") else { throw Failure(description: "not a URL of this mock: \(url)") }
        return try request("GET", String(url.dropFirst(baseURL.count)))
    }

    /// Arms a fault for the next `count` matching requests (0: until cleared).
    public func addFault(_ fault: MockFault, count: Int = 1, path: String? = nil, method: String? = nil) throws {
        var object = fault.jsonObject
        object["count"] = count
        if let path { object["path"] = path }
        if let method { object["method"] = method }
        let body = try JSONSerialization.data(withJSONObject: object)
        let response = try request("POST", "/_faults", body: body, contentType: "application/json")
        guard response.status == 200 else {
            throw Failure(description: "fault refused: \(String(decoding: response.body, as: UTF8.self))")
        }
    }

    /// Disarms every fault (`DELETE /_faults`).
    public func clearFaults() throws { _ = try request("DELETE", "/_faults") }

    /// Sends `data` to the termbin-style listener, half-closes, and returns its answer.
    public func tcpPaste(_ data: Data, timeout: Double = 10) throws -> String {
        guard let tcpPort else { throw Failure(description: "started without tcp: true") }
        let socket = try RawSocket(port: tcpPort, timeout: timeout, exchange: "a paste to the tcp listener")
        try socket.send(data)
        socket.shutdownWrite()
        return String(decoding: try socket.receiveAll(), as: UTF8.self)
    }

    /// One HTTP/1.1 exchange on a fresh connection (`Connection: close`).
    public func request(
        _ method: String, _ path: String, body: Data? = nil, contentType: String? = nil,
        headers: [(String, String)] = [], timeout: Double = 10
    ) throws -> MockHTTPResponse {
        let socket = try RawSocket(port: port, timeout: timeout, exchange: "\(method) \(path)")
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try socket.send(Data(head.utf8) + (body ?? Data()))
        return try MockHTTPResponse(parsing: socket.receiveAll())
    }

    private func decode<T: Decodable>(_ type: T.Type, from response: MockHTTPResponse) throws -> T {
        guard response.status == 200 else {
            throw Failure(description: "status \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(type, from: response.body)
    }
}

// MARK: - Faults

/// The faults `paste-mock` can inject (see paste-mock(1), FAULTS).
public enum MockFault: Sendable {
    /// Answer `status`, with optional `Retry-After` and body.
    case status(Int, retryAfter: Int? = nil, body: String? = nil)
    /// Wait before answering normally.
    case delay(seconds: Double)
    /// Close once this many request bytes (head included) were read.
    case dropRequest(afterBytes: Int)
    /// Close after this many bytes of the (normal) answer.
    case dropResponse(afterBytes: Int)
    /// 302 to a URL that redirects to itself forever.
    case redirectLoop
    /// 302 to `file:///etc/passwd`.
    case redirectToFile
    /// A redirect (302 unless `status` says otherwise) to `location`: by default back to the
    /// site root / form page; any URL, another origin's included.
    case redirectToRoot(location: String = "/", status: Int = 302)
    /// 200 with `bytes` of generated body.
    case huge(bytes: Int)
    /// 200 with an HTML error page and no URL.
    case noURL
    /// Location and body URL carrying terminal escapes; `json` shapes the body as JSON.
    case escapeURL(status: Int = 200, json: Bool = false)
    /// Location and body URL that are `javascript:`.
    case javascriptURL(status: Int = 200, json: Bool = false)
    /// Location and body URL that look like a paste's but are spoofed: `bidi` (U+202E),
    /// `zero-width` (U+200B) or `userinfo` (`http://bank.example@HOST/…`).
    case spoofURL(spoof: String, status: Int = 200, json: Bool = false)
    /// 206 with the URL of a paste holding only `keptBytes` (default: half) of the content.
    case partial(keptBytes: Int? = nil)
    /// The normal answer, `bytes` every `seconds`.
    case trickle(bytes: Int = 1, seconds: Double = 1)
    /// PrivateBin's refusal: 200 with `{"status":1,"message":…}`.
    case privateBinError(message: String)
    /// The request body read `bytes` at a time, `seconds` apart: an upload still sending.
    case slowRead(bytes: Int = 64 << 10, seconds: Double = 1)
    /// `status` answered before any of the body is read; the rest then read slowly.
    case earlyStatus(Int = 500)

    var jsonObject: [String: Any] {
        switch self {
        case .status(let status, let retryAfter, let body):
            var object: [String: Any] = ["fault": "status", "status": status]
            if let retryAfter { object["retry_after"] = retryAfter }
            if let body { object["body"] = body }
            return object
        case .delay(let seconds): return ["fault": "delay", "seconds": seconds]
        case .dropRequest(let bytes): return ["fault": "drop-request", "bytes": bytes]
        case .dropResponse(let bytes): return ["fault": "drop-response", "bytes": bytes]
        case .redirectLoop: return ["fault": "redirect-loop"]
        case .redirectToFile: return ["fault": "redirect-file"]
        case .redirectToRoot(let location, let status):
            return ["fault": "redirect-root", "location": location, "status": status]
        case .huge(let bytes): return ["fault": "huge", "size": bytes]
        case .noURL: return ["fault": "no-url"]
        case .escapeURL(let status, let json):
            return ["fault": "escape-url", "status": status, "format": json ? "json" : "text"]
        case .javascriptURL(let status, let json):
            return ["fault": "javascript-url", "status": status, "format": json ? "json" : "text"]
        case .spoofURL(let spoof, let status, let json):
            return ["fault": "spoof-url", "spoof": spoof, "status": status, "format": json ? "json" : "text"]
        case .partial(let kept):
            var object: [String: Any] = ["fault": "partial"]
            if let kept { object["bytes"] = kept }
            return object
        case .trickle(let bytes, let seconds): return ["fault": "trickle", "bytes": bytes, "seconds": seconds]
        case .privateBinError(let message): return ["fault": "privatebin-error", "body": message]
        case .slowRead(let bytes, let seconds): return ["fault": "slow-read", "bytes": bytes, "seconds": seconds]
        case .earlyStatus(let status): return ["fault": "early-status", "status": status]
        }
    }
}

// MARK: - Decoded records

/// A form field as the mock recorded it.
public struct MockField: Decodable, Sendable {
    public var name: String
    /// UTF-8 text or base64 (see `encoding`); nil when not kept or over 64 KiB (`href` then has
    /// the bytes: `MockServer.data(_:)`).
    public var value: String?
    /// `utf8` or `base64`.
    public var encoding: String?
    public var filename: String?
    public var contentType: String?
    public var size: Int
    /// SHA-256 of the value, 64 hex digits.
    public var sha256: String
    public var kept: Bool
    /// Where the value's bytes are served (`/_requests/SEQ/fields/N`); nil when not kept.
    public var href: String?

    /// The value's bytes, when the listing carried them (see `MockServer.data(_:)`).
    public var data: Data? { decodeValue(value, encoding) }
    /// The value as text (nil when it was not UTF-8, or not listed).
    public var text: String? { encoding == "utf8" ? value : nil }

    /// The value's size and digest.
    public var fingerprint: Fingerprint { Fingerprint(size: size, sha256: sha256) }
}

/// One request in `/_requests`.
public struct MockRecordedRequest: Decodable, Sendable {
    public var seq: Int
    /// `http` or `tcp`.
    public var listener: String
    public var method: String
    public var target: String
    public var path: String
    public var query: String
    public var version: String
    /// `[name, value]` pairs in arrival order.
    public var headers: [[String]]
    public var fields: [MockField]
    /// `none`, `multipart`, `urlencoded`, `json` or `raw`.
    public var bodyKind: String
    public var bodySize: Int
    public var chunked: Bool
    public var expectContinue: Bool
    public var status: Int?
    public var fault: String?
    public var pasteId: Int?
    public var dropped: Bool
    /// The raw body (non-multipart only, 64 KiB or less): text or base64 per `bodyEncoding`.
    public var body: String?
    public var bodyEncoding: String?
    /// SHA-256 of the raw body (non-multipart only).
    public var bodySha256: String?
    /// Where the raw body is served (`/_requests/SEQ/body`); nil when multipart or not kept.
    public var bodyHref: String?

    /// The first value of a header, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.first?.lowercased() == name.lowercased() }?.last
    }

    /// The first field with this name.
    public func field(_ name: String) -> MockField? { fields.first { $0.name == name } }

    /// The raw body's bytes, when the listing carried them (see `MockServer.body(_:)`).
    public var bodyData: Data? { decodeValue(body, bodyEncoding) }

    /// The raw body's size and digest (non-multipart requests).
    public var bodyFingerprint: Fingerprint? { bodySha256.map { Fingerprint(size: bodySize, sha256: $0) } }
}

/// A stored paste from `/_pastes/ID`.
public struct MockStoredPaste: Decodable, Sendable {
    public var id: Int
    public var service: String
    /// UTF-8 text or base64 (see `encoding`); nil when not kept or over 64 KiB (`href` then has
    /// the bytes: `MockServer.data(_:)`).
    public var content: String?
    public var encoding: String?
    public var size: Int
    /// SHA-256 of the content, 64 hex digits.
    public var sha256: String
    public var kept: Bool
    /// Where the content is served (`/_pastes/ID/body`); nil when not kept.
    public var href: String?
    public var filename: String?
    public var contentType: String?
    public var fields: [MockField]
    public var token: String?
    public var partial: Bool
    public var parser: String?
    public var title: String?
    public var restricted: String?
    /// How many times an update route (a gist's PATCH, a snippet's PUT) replaced its content.
    public var updates: Int?

    /// The content's bytes, when the listing carried them (see `MockServer.data(_:)`).
    public var data: Data? { decodeValue(content, encoding) }

    /// The content's size and digest.
    public var fingerprint: Fingerprint { Fingerprint(size: size, sha256: sha256) }

    /// The first field with this name.
    public func field(_ name: String) -> MockField? { fields.first { $0.name == name } }
}

private func decodeValue(_ value: String?, _ encoding: String?) -> Data? {
    guard let value else { return nil }
    return encoding == "base64" ? Data(base64Encoded: value) : Data(value.utf8)
}

/// Bytes by their size and SHA-256, as the mock lists every value it received: two equal
/// fingerprints are as good as equal bytes, without sending the bytes.
public struct Fingerprint: Hashable, Sendable, CustomStringConvertible {
    public var size: Int
    /// 64 lowercase hex digits.
    public var sha256: String

    public init(size: Int, sha256: String) {
        self.size = size
        self.sha256 = sha256
    }

    /// The fingerprint of `data`, its digest by coreutils' `sha256sum` (not the mock's, nor
    /// paste's, SHA-256).
    public init(of data: Data) throws {
        let result = try runProcess("/usr/bin/sha256sum", ["-"], input: .bytes(data), timeout: 60)
        let digest = String(result.out.prefix(64))
        guard result.status == 0, digest.count == 64 else {
            throw MockServer.Failure(description: "sha256sum failed (\(result.status)): \(result.err)")
        }
        self.init(size: data.count, sha256: digest)
    }

    public var description: String { "\(size) bytes, sha256 \(sha256)" }
}

// MARK: - Raw HTTP

/// An answer read by `MockServer.request`.
public struct MockHTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    /// The first value of a header, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    init(parsing data: Data) throws {
        let bytes = [UInt8](data)
        guard
            let split = (0..<max(0, bytes.count - 3)).first(where: {
                bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
            })
        else { throw MockServer.Failure(description: "no HTTP head in \(bytes.count) bytes") }
        let lines = String(decoding: bytes[..<split], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw MockServer.Failure(description: "bad status line '\(lines[0])'")
        }
        self.status = status
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(bytes[(split + 4)...])
        if let length = headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap({ Int($0.value) }),
            body.count > length
        {
            body = body.prefix(length)
        }
        self.body = body
    }
}

/// A TCP client socket to 127.0.0.1 for one exchange, with one deadline for all of it; closed
/// on release.
///
/// Every send and receive is non-blocking: when the kernel has no room or no bytes yet
/// (`EAGAIN`), the socket waits in `poll` for it, up to what is left of the deadline, and past
/// the deadline throws saying which exchange timed out and how far it got. (It used to block
/// with `SO_RCVTIMEO`, whose expiry surfaced as a bare "recv: errno 11" while paste-mock was
/// still writing a listing of whole bodies under load.)
private final class RawSocket {
    let fd: Int32
    /// What this exchange is, for messages (`GET /_requests`).
    private let exchange: String
    private let port: Int
    private let timeout: Double
    private let deadline: ContinuousClock.Instant

    init(port: Int, timeout: Double, exchange: String) throws {
        self.exchange = exchange
        self.port = port
        self.timeout = timeout
        deadline = .now + .milliseconds(Int64(timeout * 1000))
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw MockServer.Failure(description: "\(exchange): socket: errno \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port)).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Blocking: a connection to a listening port on the loopback completes at once (the
        // kernel queues it for accept); a port nobody listens on is refused at once.
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw MockServer.Failure(description: "\(exchange): connect to port \(port): errno \(code)")
        }
    }

    deinit { close(fd) }

    /// Waits until the socket is ready for `events` (`POLLIN`, `POLLOUT`) or the deadline
    /// passes; `progress` says how far the exchange got, for the message.
    private func wait(for events: Int16, _ progress: @autoclosure () -> String) throws {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw MockServer.Failure(
                    description:
                        "\(exchange): paste-mock (port \(port)) did not answer within \(timeout) s: \(progress())")
            }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR {
                throw MockServer.Failure(description: "\(exchange): poll: errno \(errno)")
            }
        }
    }

    func send(_ data: Data) throws {
        let bytes = [UInt8](data)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n >= 0 {
                offset += n
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), "it took \(offset) of the \(bytes.count) bytes sent")
            } else if errno != EINTR {
                throw MockServer.Failure(
                    description: "\(exchange): send: errno \(errno) after \(offset) of \(bytes.count) bytes")
            }
        }
    }

    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until the peer closes (the requests ask for `Connection: close`); past the deadline
    /// it throws.
    func receiveAll() throws -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                result.append(contentsOf: buffer[..<n])
            } else if n == 0 {
                return result
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN), "\(result.count) bytes of its answer arrived")
            } else if errno != EINTR {
                throw MockServer.Failure(description: "\(exchange): recv: errno \(errno) after \(result.count) bytes")
            }
        }
    }
}

/// Collects a child's output stream on its own thread and lets a caller wait for lines.
private final class StreamCollector: @unchecked Sendable {
    // Safe: `data` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var data = Data()
    private var isFinished = false

    /// Starts a thread reading `handle` to end of file.
    func drain(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                data.append(chunk)
                if chunk.isEmpty { isFinished = true }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits until `count` complete lines arrived (or end of file, or the deadline).
    func waitForLines(_ count: Int, timeout: Double) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let complete = lines.dropLast().map(String.init)
            if complete.count >= count || isFinished { return complete }
            if !condition.wait(until: deadline) { return complete }
        }
    }
}
