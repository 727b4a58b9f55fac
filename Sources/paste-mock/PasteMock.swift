import Foundation
import Glibc

/// The mock pastebin: listeners, the store, and the per-connection HTTP/1.1 loop.
///
/// Each accepted connection gets its own thread (`Thread.detachNewThread`), which reads requests
/// one after another (keep-alive) until the peer closes or asks to close.
final class PasteMock: Sendable {
    let options: MockOptions
    let store: MockStore
    let http: ListeningSocket
    let tcp: ListeningSocket?

    /// Largest request head we read (RFC 9112 leaves it to the server; 64 KiB is generous).
    static let headLimit = 64 * 1024
    /// A keep-alive connection idle this long is closed, so abandoned clients free their thread.
    static let idleSeconds = 120.0
    /// How long to keep reading (and discarding) after an early error answer before closing.
    static let drainSeconds = 2.0

    init(options: MockOptions) throws(SocketError) {
        self.options = options
        store = MockStore(faults: options.faults)
        http = try ListeningSocket(host: options.host, port: options.port)
        tcp = try options.tcpPort.map { (port) throws(SocketError) in
            try ListeningSocket(host: options.host, port: port)
        }
    }

    /// `http://HOST:PORT` of the HTTP listener, for answers to requests without `Host`.
    var listenerBase: String { "http://\(options.host):\(http.port)" }

    /// Accepts HTTP connections forever, one thread each.
    func serveHTTP() {
        while true {
            let fd = http.accept()
            Thread.detachNewThread { [self] in
                serveConnection(Connection(fd: fd))
            }
        }
    }

    /// Accepts termbin-style TCP connections forever, one thread each.
    func serveTCP() {
        guard let tcp else { return }
        while true {
            let fd = tcp.accept()
            Thread.detachNewThread { [self] in
                serveTCPConnection(Connection(fd: fd))
            }
        }
    }

    // MARK: - HTTP connection

    private func serveConnection(_ connection: Connection) {
        connection.setReceiveTimeout(seconds: Self.idleSeconds)
        while true {
            connection.startRequest()
            let bytes: [UInt8]?
            do {
                bytes = try connection.readHead(limit: Self.headLimit)
            } catch .tooLong {
                reject(431, "request head too large\n", on: connection, record: RequestRecord())
                return
            } catch {
                return
            }
            guard let bytes else { return }
            let head: RequestHead
            do {
                head = try RequestHead(bytes: bytes)
            } catch {
                var record = RequestRecord()
                record.target = String(decoding: bytes.prefix(200), as: UTF8.self)
                reject(400, "bad request\n", on: connection, record: record)
                return
            }
            guard serveRequest(head, on: connection) else { return }
        }
    }

    /// Answers an unreadable request and closes, reading a little more first so the peer sees
    /// the answer rather than a reset.
    private func reject(_ status: Int, _ text: String, on connection: Connection, record: RequestRecord) {
        var record = record
        record.status = status
        finish(record)
        var response = Response.text(status, text)
        response.closesConnection = true
        try? ResponseWriter().write(response, to: connection, keepsAlive: false, includesBody: true)
        connection.shutdownWrite()
        connection.drain(seconds: Self.drainSeconds)
    }

    /// Logs a record (and prints it under `--verbose`). Control routes (`/_…`) are not logged,
    /// so a test's own inspection never shows up in what it inspects.
    private func finish(_ record: RequestRecord) {
        if !record.path.hasPrefix("/_") { store.log(record) }
        if options.isVerbose {
            var line = "paste-mock: \(record.method) \(record.target) -> \(record.status.map(String.init) ?? "dropped")"
            line += " (\(record.body.size) body bytes)"
            if let fault = record.fault { line += " [fault \(fault)]" }
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    /// Serves one request; returns whether the connection stays open for another.
    private func serveRequest(_ head: RequestHead, on connection: Connection) -> Bool {
        var record = RequestRecord(head: head)
        record.peerPort = connection.peerPort
        let framing: BodyFraming
        do {
            framing = try BodyFraming(head: head)
        } catch {
            reject(400, "bad body framing\n", on: connection, record: record)
            return false
        }
        let isControl = head.path.hasPrefix("/_")
        if !isControl { store.beginRequest() }
        defer { if !isControl { store.endRequest() } }
        let fault = isControl ? nil : store.takeFault(method: head.method, path: head.path)
        record.fault = fault?.kind.rawValue

        if let fault, fault.kind == .dropRequest {
            let budget = fault.bytes ?? 0
            if budget <= head.wireSize {
                record.isDropped = true
                finish(record)
                connection.closeNow()
                return false
            }
            connection.dropAt = budget
        }

        if let fault, fault.kind == .earlyStatus {
            answerEarly(fault, framing: framing, on: connection, record: record)
            return false
        }

        if let fault, fault.kind == .slowRead {
            connection.readPace = (max(1, fault.bytes ?? 64 << 10), fault.seconds ?? 1)
        }

        // Refuse a declared oversize body before it is sent (no 100 Continue).
        if !options.discardsBodies, case .length(let n) = framing, n > options.maxBody {
            if head.expectsContinue {
                record.status = 413
                finish(record)
                var response = Response.text(413, "body of \(n) bytes exceeds \(options.maxBody)\n")
                response.closesConnection = true
                try? ResponseWriter().write(response, to: connection, keepsAlive: false, includesBody: true)
                return false
            }
            reject(413, "body of \(n) bytes exceeds \(options.maxBody)\n", on: connection, record: record)
            return false
        }

        var collector = BodyCollector(
            contentType: head.header("Content-Type"), maxBody: options.maxBody,
            discards: options.discardsBodies)
        do {
            if framing != .none, head.expectsContinue {
                try connection.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            }
            switch framing {
            case .none: break
            case .length(let n): try connection.readBody(count: n) { collector.consume($0) }
            case .chunked: try readChunked(from: connection, into: &collector)
            }
        } catch ReadError.malformed {
            record.body = collector.body
            reject(400, "bad chunked framing\n", on: connection, record: record)
            return false
        } catch {
            // Dropped by a fault, or the peer went away mid-body: log what arrived.
            record.body = collector.body
            record.isDropped = true
            finish(record)
            connection.closeNow()
            return false
        }
        var body: CollectedBody
        do {
            body = try collector.finish(isChunked: framing == .chunked)
            if framing == .none { body.kind = .none }
        } catch {
            record.body = collector.body
            record.status = 400
            finish(record)
            return answer(
                Response.text(400, "bad multipart body: \(error)\n"), head: head, fault: nil, on: connection)
        }
        record.body = body
        if body.isTooLarge {
            record.status = 413
            finish(record)
            return answer(
                Response.text(413, "body exceeds \(options.maxBody) bytes\n"), head: head, fault: nil, on: connection)
        }

        if let fault, fault.kind == .delay {
            usleep(useconds_t((fault.seconds ?? 1) * 1_000_000))
        }
        let request = MockRequest(
            head: head, body: body, base: head.header("Host").map { "\(options.urlScheme)://\($0)" } ?? listenerBase)
        let response: Response
        if let fault, let faulty = faultResponse(fault, for: request) {
            response = faulty
        } else {
            response = route(request)
        }
        record.status = response.status
        record.pasteID = response.pasteID
        finish(record)
        return answer(response, head: head, fault: fault, on: connection)
    }

    /// The `early-status` fault: the answer goes out before any of the body is read, framed
    /// for keep-alive (libcurl stops sending a body on an error answer only on a connection it
    /// may keep; on one the answer says it closes, it sends on), and the rest of the body is
    /// read slowly, so that the client is still sending when the answer comes, until it closes.
    private func answerEarly(_ fault: Fault, framing: BodyFraming, on connection: Connection, record: RequestRecord) {
        var record = record
        let status = fault.status ?? 500
        record.status = status
        finish(record)
        let response = Response.text(status, fault.body ?? "\(status) \(Response.reason(status))\n")
        try? ResponseWriter().write(response, to: connection, keepsAlive: true, includesBody: true)
        connection.drain(
            seconds: Self.earlyDrainSeconds, pace: (max(1, fault.bytes ?? 64 << 10), fault.seconds ?? 0.05))
    }

    /// The longest an `early-status` answer waits for the client to close.
    static let earlyDrainSeconds = 10.0

    /// Writes the answer; returns whether the connection stays open.
    private func answer(_ response: Response, head: RequestHead, fault: Fault?, on connection: Connection) -> Bool {
        let keepsAlive = head.wantsKeepAlive && !response.closesConnection
        var writer = ResponseWriter()
        if let fault {
            switch fault.kind {
            case .dropResponse: writer.dropAfter = fault.bytes ?? 0
            case .trickle: writer.trickle = (fault.bytes ?? 1, fault.seconds ?? 1)
            default: break
            }
        }
        do {
            try writer.write(response, to: connection, keepsAlive: keepsAlive, includesBody: head.method != "HEAD")
        } catch {
            connection.closeNow()
            return false
        }
        return keepsAlive
    }

    /// Reads a chunked body (RFC 9112 §7.1): size line, data, CRLF; then trailers to a blank line.
    private func readChunked(from connection: Connection, into collector: inout BodyCollector) throws {
        while true {
            let line = try connection.readLine(limit: 4096)
            let sizeText = String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
                .trimmingSpacesAndTabs()
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                throw ReadError.malformed("bad chunk size '\(sizeText)'")
            }
            if size == 0 {
                while !(try connection.readLine(limit: 8192)).isEmpty {}
                return
            }
            try connection.readBody(count: size) { collector.consume($0) }
            guard try connection.readLine(limit: 2).isEmpty else {
                throw ReadError.malformed("chunk not followed by CRLF")
            }
        }
    }

    // MARK: - TCP (termbin/fiche)

    /// Reads a paste until the client half-closes (or falls silent for `--tcp-idle` seconds, as
    /// fiche does), stores it, answers `URL\n` and closes.
    private func serveTCPConnection(_ connection: Connection) {
        connection.setReceiveTimeout(seconds: options.tcpIdleSeconds)
        var record = RequestRecord(listener: "tcp")
        record.method = "TCP"
        var collector = BodyCollector(contentType: nil, maxBody: options.maxBody, discards: options.discardsBodies)
        do {
            try connection.readToEnd { collector.consume($0) }
        } catch {
            // A timeout ends the paste like fiche; anything else has already been counted.
        }
        let body = (try? collector.finish(isChunked: false)) ?? collector.body
        record.body = body
        if body.isTooLarge {
            record.status = 413
            finish(record)
            try? connection.write(Array("error: paste exceeds \(options.maxBody) bytes\n".utf8))
            return
        }
        var content = FormField(name: "", value: body.raw)
        content.size = body.size
        content.hash = body.hash
        content.isKept = body.isRawKept
        let paste = store.addPaste { Paste(id: $0, service: "termbin", content: content, fields: []) }
        record.status = 200
        record.pasteID = paste.id
        finish(record)
        try? connection.write(Array("\(listenerBase)/t/\(paste.id)\n".utf8))
    }
}
