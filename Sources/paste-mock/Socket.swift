import Glibc

// MARK: - Errors

/// A socket call failed; carries the Glibc call's name and its `errno`.
struct SocketError: Error, CustomStringConvertible {
    /// The Glibc function that failed (`bind`, `recv`, ...).
    var call: String
    /// The `errno` it left.
    var code: Int32

    var description: String { "\(call): \(String(cString: strerror(code)))" }
}

// MARK: - Listening

/// A bound, listening IPv4 TCP socket.
///
/// Owns its descriptor for the whole run (the process exits with it), so there is no `deinit`.
final class ListeningSocket: Sendable {
    /// The descriptor.
    let fd: Int32
    /// The port actually bound (useful with port 0).
    let port: Int

    /// How many pending connections the kernel may queue; tests open bursts of a few dozen.
    private static let backlog: Int32 = 256

    /// Binds and listens. Wraps `socket`, `setsockopt(SO_REUSEADDR)`, `bind`, `listen`, `getsockname`.
    init(host: String, port: Int) throws(SocketError) {
        let address = host == "localhost" ? "127.0.0.1" : host
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        guard inet_pton(AF_INET, address, &addr.sin_addr) == 1 else {
            close(fd)
            throw SocketError(call: "inet_pton(\(host))", code: EINVAL)
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw SocketError(call: "bind", code: code)
        }
        guard listen(fd, Self.backlog) == 0 else {
            let code = errno
            close(fd)
            throw SocketError(call: "listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: actual.sin_port))
    }

    /// Waits for the next connection. Wraps `accept` and `fcntl(FD_CLOEXEC)` (`accept4` is a GNU
    /// extension the Glibc module does not export); retries `EINTR` and per-connection failures
    /// (`ECONNABORTED`, `EPROTO`, `EMFILE` after a short pause).
    func accept() -> Int32 {
        while true {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                var one: Int32 = 1
                setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return client
            }
            if errno == EMFILE || errno == ENFILE || errno == ENOMEM || errno == ENOBUFS {
                usleep(10_000)  // out of descriptors: let other connections finish first
            }
        }
    }
}

// MARK: - Connection I/O

/// Why reading from a connection stopped.
enum ReadError: Error {
    /// The peer closed before a complete message arrived.
    case closed
    /// A `drop-request` fault reached its byte budget.
    case dropped
    /// A head or line was longer than allowed.
    case tooLong
    /// The bytes were not HTTP/1.1 as we read it; the payload says where.
    case malformed(String)
    /// `recv` failed (including the idle timeout).
    case io(SocketError)
}

/// One accepted connection: a descriptor plus a read buffer.
///
/// Owned by the thread serving it; closed in `deinit`.
final class Connection {
    /// The descriptor.
    let fd: Int32
    private var storage: [UInt8]
    private var lo = 0
    private var hi = 0
    /// Bytes consumed since `startRequest()` (head and body), for the `drop-request` fault.
    private(set) var consumed = 0
    /// When set, reading stops with `.dropped` once `consumed` reaches it.
    var dropAt: Int?
    /// When set (the `slow-read` fault), a body is read this many bytes at a time, with this
    /// wait between pieces.
    var readPace: (bytes: Int, seconds: Double)?
    /// Body bytes read since the last wait of `readPace`.
    private var pacedBytes = 0
    private var isClosed = false

    /// Size of the read buffer; also bounds request heads and chunk-size lines.
    static let bufferSize = 256 * 1024

    /// The client's TCP port (`getpeername`): distinct for each live connection, so the request
    /// log shows which requests shared one (benchmarks and batch tests count them).
    let peerPort: Int

    init(fd: Int32) {
        self.fd = fd
        storage = [UInt8](repeating: 0, count: Self.bufferSize)
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        peerPort = named == 0 ? Int(UInt16(bigEndian: address.sin_port)) : 0
    }

    deinit { closeNow() }

    /// Closes the descriptor now (idempotent). Wraps `close`.
    func closeNow() {
        if !isClosed {
            isClosed = true
            close(fd)
        }
    }

    /// Sets the receive timeout. Wraps `setsockopt(SO_RCVTIMEO)`.
    func setReceiveTimeout(seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Starts counting bytes for a new request.
    func startRequest() {
        consumed = 0
        dropAt = nil
        readPace = nil
        pacedBytes = 0
    }

    /// Whether unread bytes are already buffered.
    var hasBufferedBytes: Bool { lo < hi }

    /// Reads more bytes into the buffer; false at end of file. Wraps `recv`, retrying `EINTR`.
    private func fill() throws(ReadError) -> Bool {
        if lo == hi {
            lo = 0
            hi = 0
        } else if hi == storage.count {
            guard lo > 0 else { throw .tooLong }
            storage.withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!
                memmove(base, base + lo, hi - lo)
            }
            hi -= lo
            lo = 0
        }
        while true {
            let n = storage.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress! + hi, raw.count - hi, 0)
            }
            if n > 0 {
                hi += n
                return true
            }
            if n == 0 { return false }
            if errno == EINTR { continue }
            throw .io(SocketError(call: "recv", code: errno))
        }
    }

    /// Marks `n` buffered bytes as consumed.
    private func consume(_ n: Int) {
        lo += n
        consumed += n
    }

    /// Reads a request head up to and including the blank line.
    ///
    /// - Returns: the head bytes without the final CRLF CRLF, or nil when the peer closed cleanly
    ///   before sending anything (the end of a keep-alive connection).
    func readHead(limit: Int) throws(ReadError) -> [UInt8]? {
        var scanned = 0  // bytes after `lo` already searched (stays valid when fill() compacts)
        while true {
            // Tolerate stray CRLFs between pipelined requests (RFC 9112 §2.2).
            while lo + 1 < hi, storage[lo] == 13, storage[lo + 1] == 10 {
                lo += 2
                scanned = 0
            }
            if let end = find(Self.crlfcrlf, from: lo + max(0, scanned - 3)) {
                let head = Array(storage[lo..<end])
                consume(end + 4 - lo)
                return head
            }
            scanned = hi - lo
            if hi - lo > limit { throw .tooLong }
            guard try fill() else {
                if lo == hi { return nil }
                throw .closed
            }
        }
    }

    /// Reads one CRLF-terminated line (chunked framing); returns it without the CRLF.
    func readLine(limit: Int) throws(ReadError) -> [UInt8] {
        while true {
            if let end = find(Self.crlf, from: lo) {
                let line = Array(storage[lo..<end])
                try consumeChecked(end + 2 - lo)
                return line
            }
            if hi - lo > limit { throw .tooLong }
            guard try fill() else { throw .closed }
        }
    }

    private func consumeChecked(_ n: Int) throws(ReadError) {
        consume(n)
        if let dropAt, consumed >= dropAt { throw .dropped }
    }

    /// Reads exactly `count` bytes, handing them to `sink` in pieces straight from the buffer.
    func readBody(
        count: Int, _ sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var remaining = count
        while remaining > 0 {
            if lo == hi {
                guard try fill() else { throw ReadError.closed }
            }
            var take = min(remaining, hi - lo)
            if let dropAt { take = min(take, max(0, dropAt - consumed)) }
            if let readPace { take = min(take, max(1, readPace.bytes - pacedBytes)) }
            if take > 0 {
                try storage.withUnsafeBytes { raw in
                    try sink(UnsafeRawBufferPointer(rebasing: raw[lo..<(lo + take)]))
                }
            }
            remaining -= take
            try consumeChecked(take)
            if let readPace {
                pacedBytes += take
                if pacedBytes >= readPace.bytes {
                    pacedBytes = 0
                    usleep(useconds_t(readPace.seconds * 1_000_000))
                }
            }
        }
    }

    /// Reads until the peer half-closes, handing each piece to `sink` straight from the buffer.
    func readToEnd(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        while true {
            if lo < hi {
                try storage.withUnsafeBytes { raw in
                    try sink(UnsafeRawBufferPointer(rebasing: raw[lo..<hi]))
                }
                consume(hi - lo)
            }
            guard try fill() else { return }
        }
    }

    /// Reads and throws away whatever the peer still sends, for at most `seconds`, so that
    /// closing does not reset a connection whose answer the peer has not read yet.
    func drain(seconds: Double) {
        setReceiveTimeout(seconds: seconds)
        lo = 0
        hi = 0
        while (try? fill()) == true { lo = hi }
    }

    /// Reads and throws away what the peer sends, `pace.bytes` at a time with `pace.seconds`
    /// between reads, until it closes or `seconds` pass: a server that takes a body slowly
    /// after answering early (the `early-status` fault).
    func drain(seconds: Double, pace: (bytes: Int, seconds: Double)) {
        setReceiveTimeout(seconds: seconds)
        var piece = [UInt8](repeating: 0, count: pace.bytes)
        var waited = 0.0
        while waited < seconds {
            waited += pace.seconds
            let n = piece.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n == 0 || (n < 0 && errno != EINTR) { return }
            usleep(useconds_t(pace.seconds * 1_000_000))
        }
    }

    // MARK: Writing

    /// Writes all of `bytes`. Wraps `send(MSG_NOSIGNAL)`, retrying `EINTR` and short writes.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            let n = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if n < 0 {
                if errno == EINTR { continue }
                throw SocketError(call: "send", code: errno)
            }
            offset += n
        }
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(SocketError) {
        if bytes.isEmpty { return }
        var failure: SocketError?
        bytes.withUnsafeBytes { raw in
            do throws(SocketError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Half-closes the sending side. Wraps `shutdown(SHUT_WR)`.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    // MARK: Searching

    private static let crlf: [UInt8] = [13, 10]
    private static let crlfcrlf: [UInt8] = [13, 10, 13, 10]

    /// Index in `storage` of `needle` within `[from, hi)`.
    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard from <= hi else { return nil }
        return storage.withUnsafeBytes { hay in
            searchBytes(needle, in: UnsafeRawBufferPointer(rebasing: hay[from..<hi])).map { $0 + from }
        }
    }
}

/// Index of `needle` in `haystack` at or after `from`.
func findBytes(_ needle: [UInt8], in haystack: [UInt8], from: Int = 0) -> Int? {
    guard from <= haystack.count else { return nil }
    return haystack.withUnsafeBytes { hay in
        searchBytes(needle, in: UnsafeRawBufferPointer(rebasing: hay[from...])).map { $0 + from }
    }
}

/// Index of `needle` in `hay`: `memchr` for the first byte, `memcmp` for the rest (`memmem` is a
/// GNU extension the Glibc module does not export; `memchr` is vectorised, so this stays fast).
func searchBytes(_ needle: [UInt8], in hay: UnsafeRawBufferPointer) -> Int? {
    guard !needle.isEmpty, hay.count >= needle.count, let base = hay.baseAddress else { return nil }
    return needle.withUnsafeBytes { pin in
        let last = hay.count - needle.count
        var i = 0
        while i <= last {
            guard let hit = memchr(base + i, Int32(needle[0]), last - i + 1) else { return nil }
            let j = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + j, pin.baseAddress!, pin.count) == 0 { return j }
            i = j + 1
        }
        return nil
    }
}
