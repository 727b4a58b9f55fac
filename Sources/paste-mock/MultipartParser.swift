/// A streaming multipart/form-data parser (RFC 7578 over RFC 2046 §5.1.1).
///
/// Bytes arrive in any pieces; events come out as soon as they are certain. Only the last
/// `delimiter.count - 1` bytes of a part are held back (they might start a boundary), so a
/// gigabyte part passes through in constant memory.
struct MultipartParser {
    /// What the parser found.
    enum Event {
        /// A part starts; its header fields.
        case begin([(name: String, value: String)])
        /// More bytes of the current part's content.
        case data(ArraySlice<UInt8>)
        /// The current part is complete.
        case end
    }

    /// Why a body is not valid multipart.
    enum Failure: Error {
        case malformed(String)
    }

    private enum State {
        case preamble, afterDelimiter, headers, body, epilogue
    }

    /// CRLF "--" boundary: every delimiter, the first one included thanks to the CRLF we prepend.
    private let delimiter: [UInt8]
    private var pending: [UInt8] = [13, 10]
    private var state = State.preamble

    /// The longest part header section we accept.
    private static let headerLimit = 16 * 1024

    init(boundary: String) {
        delimiter = [13, 10, 45, 45] + Array(boundary.utf8)
    }

    /// Whether the closing delimiter has been seen.
    var isComplete: Bool { state == .epilogue }

    /// Feeds more body bytes.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws {
        if state == .epilogue { return }
        pending.append(contentsOf: bytes)
        try process(handle)
    }

    /// Ends the body; fails unless the closing delimiter was seen.
    func finish() throws(Failure) {
        guard state == .epilogue else { throw .malformed("multipart body ends before its closing boundary") }
    }

    private mutating func process(_ handle: (Event) throws -> Void) throws {
        var pos = 0
        loop: while true {
            switch state {
            case .preamble, .body:
                if let found = findBytes(delimiter, in: pending, from: pos) {
                    if state == .body {
                        if found > pos { try handle(.data(pending[pos..<found])) }
                        try handle(.end)
                    }
                    pos = found + delimiter.count
                    state = .afterDelimiter
                } else {
                    let safe = max(pos, pending.count - (delimiter.count - 1))
                    if state == .body, safe > pos { try handle(.data(pending[pos..<safe])) }
                    pos = safe
                    break loop
                }
            case .afterDelimiter:
                guard pending.count - pos >= 2 else { break loop }
                if pending[pos] == 45, pending[pos + 1] == 45 {
                    state = .epilogue
                    pos = pending.count
                    break loop
                }
                // Transport padding (spaces, tabs) may follow a boundary before its CRLF.
                guard let crlf = findBytes([13, 10], in: pending, from: pos) else {
                    if pending.count - pos > 256 { throw Failure.malformed("garbage after boundary") }
                    break loop
                }
                guard pending[pos..<crlf].allSatisfy({ $0 == 32 || $0 == 9 }) else {
                    throw Failure.malformed("garbage after boundary")
                }
                pos = crlf + 2
                state = .headers
            case .headers:
                if pending.count - pos >= 2, pending[pos] == 13, pending[pos + 1] == 10 {
                    try handle(.begin([]))
                    pos += 2
                    state = .body
                    continue
                }
                guard let end = findBytes([13, 10, 13, 10], in: pending, from: pos) else {
                    if pending.count - pos > Self.headerLimit {
                        throw Failure.malformed("part headers too long")
                    }
                    break loop
                }
                let text = String(decoding: pending[pos..<end], as: UTF8.self)
                var headers: [(name: String, value: String)] = []
                for line in text.split(separator: "\r\n") {
                    guard let colon = line.firstIndex(of: ":") else {
                        throw Failure.malformed("part header without colon")
                    }
                    headers.append(
                        (
                            line[..<colon].trimmingSpacesAndTabs(),
                            line[line.index(after: colon)...].trimmingSpacesAndTabs()
                        ))
                }
                try handle(.begin(headers))
                pos = end + 4
                state = .body
            case .epilogue:
                pos = pending.count
                break loop
            }
        }
        pending.removeFirst(pos)
    }
}

/// Parses an application/x-www-form-urlencoded body (WHATWG URL §5.1) into name/value bytes.
///
/// `+` is a space and `%XX` a byte; a `%` not followed by two hex digits stays literal.
func parseURLEncoded(_ bytes: [UInt8]) -> [(name: [UInt8], value: [UInt8])] {
    var result: [(name: [UInt8], value: [UInt8])] = []
    for piece in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
        if let eq = piece.firstIndex(of: UInt8(ascii: "=")) {
            result.append((percentDecode(piece[piece.startIndex..<eq]), percentDecode(piece[(eq + 1)...])))
        } else {
            result.append((percentDecode(piece), []))
        }
    }
    return result
}

/// Decodes `+` and `%XX` escapes.
func percentDecode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b - 48
        case 65...70: b - 55
        case 97...102: b - 87
        default: nil
        }
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = bytes.startIndex
    while i < bytes.endIndex {
        let b = bytes[i]
        if b == UInt8(ascii: "+") {
            out.append(32)
        } else if b == UInt8(ascii: "%"), i + 2 < bytes.endIndex, let h = hex(bytes[i + 1]),
            let l = hex(bytes[i + 2])
        {
            out.append(h << 4 | l)
            i += 3
            continue
        } else {
            out.append(b)
        }
        i += 1
    }
    return out
}
