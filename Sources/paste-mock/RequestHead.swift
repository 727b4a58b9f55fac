/// A parsed HTTP/1.x request line and header section (RFC 9112 §3, §5).
struct RequestHead: Sendable {
    var method: String
    /// The request target as sent (`/pastes/1.txt?x=1`).
    var target: String
    /// The path part of the target, percent-decoding left to the routes.
    var path: String
    /// The query string without `?`, or "" when there is none.
    var query: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    var version: String
    /// Header fields in arrival order, names as sent.
    var headers: [(name: String, value: String)]
    /// How many bytes the head took on the wire, CRLF CRLF included.
    var wireSize: Int

    /// The first value of a header, matched case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// All values of a header.
    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// Parses head bytes (without the terminating blank line).
    init(bytes: [UInt8]) throws(ReadError) {
        wireSize = bytes.count + 4
        // Header values may carry obs-text; decode leniently so a byte never rejects a request.
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        guard !lines.isEmpty else { throw .malformed("empty request") }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
            parts[2].hasPrefix("HTTP/1.")
        else { throw .malformed("bad request line '\(requestLine)'") }
        method = String(parts[0])
        target = String(parts[1])
        version = String(parts[2])
        var pathPart = target
        // An absolute-form target (proxies) still names a path.
        if let range = pathPart.range(of: "://") {
            let rest = pathPart[range.upperBound...]
            pathPart = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        }
        if let q = pathPart.firstIndex(of: "?") {
            path = String(pathPart[..<q])
            query = String(pathPart[pathPart.index(after: q)...])
        } else {
            path = pathPart
            query = ""
        }
        headers = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw .malformed("header line without colon '\(line)'")
            }
            let name = String(line[..<colon])
            guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else {
                throw .malformed("bad header name '\(name)'")
            }
            let value = line[line.index(after: colon)...].trimmingSpacesAndTabs()
            headers.append((name, value))
        }
    }

    /// Whether the connection stays open after this exchange (RFC 9112 §9.3).
    var wantsKeepAlive: Bool {
        let tokens = headerValues("Connection").flatMap { $0.lowercased().split(separator: ",") }
            .map { String($0).trimmingSpacesAndTabs() }
        if tokens.contains("close") { return false }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return true
    }

    /// Whether the client waits for `100 Continue` before sending its body (RFC 9110 §10.1.1).
    var expectsContinue: Bool {
        header("Expect")?.lowercased() == "100-continue"
    }
}

/// How a request body is delimited on the wire.
enum BodyFraming: Sendable, Equatable {
    case none
    case length(Int)
    case chunked

    /// Works out the framing from the headers (RFC 9112 §6.3): chunked wins over a length.
    init(head: RequestHead) throws(ReadError) {
        if let te = head.header("Transfer-Encoding") {
            guard te.lowercased().split(separator: ",").last.map({ String($0).trimmingSpacesAndTabs() }) == "chunked"
            else { throw .malformed("unsupported transfer-encoding '\(te)'") }
            self = .chunked
            return
        }
        let lengths = Set(head.headerValues("Content-Length"))
        if lengths.isEmpty {
            self = .none
            return
        }
        guard lengths.count == 1, let text = lengths.first, let n = Int(text), n >= 0 else {
            throw .malformed("bad content-length")
        }
        self = n == 0 ? .none : .length(n)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP optional whitespace).
    func trimmingSpacesAndTabs() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

/// Splits a header value like `form-data; name="a"; filename="b"` into its main value and its
/// parameters (names lowercased, quoted strings unquoted, backslash escapes resolved).
func parseHeaderParameters(_ value: String) -> (value: String, parameters: [String: String]) {
    var pieces: [String] = []
    var current = ""
    var inQuotes = false
    var escaped = false
    for ch in value {
        if escaped {
            current.append(ch)
            escaped = false
        } else if inQuotes && ch == "\\" {
            current.append(ch)
            escaped = true
        } else if ch == "\"" {
            inQuotes.toggle()
            current.append(ch)
        } else if ch == ";" && !inQuotes {
            pieces.append(current)
            current = ""
        } else {
            current.append(ch)
        }
    }
    pieces.append(current)
    let main = pieces.removeFirst().trimmingSpacesAndTabs()
    var parameters: [String: String] = [:]
    for piece in pieces {
        guard let eq = piece.firstIndex(of: "=") else { continue }
        let name = piece[..<eq].trimmingSpacesAndTabs().lowercased()
        var raw = piece[piece.index(after: eq)...].trimmingSpacesAndTabs()
        if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") {
            raw = String(raw.dropFirst().dropLast())
            var unescaped = ""
            var isEscape = false
            for ch in raw {
                if isEscape {
                    unescaped.append(ch)
                    isEscape = false
                } else if ch == "\\" {
                    isEscape = true
                } else {
                    unescaped.append(ch)
                }
            }
            raw = unescaped
        }
        if parameters[name] == nil { parameters[name] = raw }
    }
    return (main, parameters)
}
