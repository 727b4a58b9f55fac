internal import CCurlShims

/// The owner of a libcurl header list (`struct curl_slist`).
///
/// libcurl does not copy the list: it must outlive every transfer that uses it, so an
/// `EasyHandle` keeps a reference to the list it was given.
public final class HeaderList {
    /// The list's head; nil while empty (libcurl's empty list).
    private(set) var head: UnsafeMutablePointer<curl_slist>?

    /// Makes a list holding these lines, in order.
    ///
    /// - Parameter lines: header lines, `Name: value`; `Name:` removes a header libcurl would add.
    /// - Throws: `CurlError` (out of memory) when `curl_slist_append` fails.
    public init(_ lines: [String] = []) throws(CurlError) {
        for line in lines { try append(line) }
    }

    deinit { curl_slist_free_all(head) }

    /// Appends one line; libcurl copies the text. Wraps `curl_slist_append`.
    public func append(_ line: String) throws(CurlError) {
        guard let newHead = curl_slist_append(head, line) else {
            throw CurlError(code: .outOfMemory, detail: "cannot append header")
        }
        head = newHead
    }

    /// Empties, in place, every line for the header `name` (any case): `Name: value` becomes
    /// `Name:`, a line libcurl leaves out of the requests it builds from the list afterwards.
    ///
    /// libcurl reads the list anew for each request of a transfer (lib/http.c,
    /// `Curl_add_custom_headers`), so this may run between two requests of one transfer (from
    /// the header callback, which calls no libcurl function). The text only gets shorter, inside
    /// the buffer `curl_slist_append` allocated.
    func blankLines(named name: String) {
        let wanted = Array(name.lowercased().utf8)
        var node = head
        while let current = node {
            if let text = current.pointee.data {
                var matches = true
                for (index, byte) in wanted.enumerated() {
                    let found = UInt8(bitPattern: text[index])
                    // A NUL ends the line early and matches nothing in `wanted`.
                    guard found | (found >= 0x41 && found <= 0x5A ? 0x20 : 0) == byte else {
                        matches = false
                        break
                    }
                }
                let separator = matches ? UInt8(bitPattern: text[wanted.count]) : 0
                if separator == UInt8(ascii: ":") || separator == UInt8(ascii: ";") {
                    text[wanted.count] = CChar(bitPattern: UInt8(ascii: ":"))
                    text[wanted.count + 1] = 0
                }
            }
            node = current.pointee.next
        }
    }
}

@available(*, unavailable, message: "a libcurl header list belongs to one thread")
extension HeaderList: Sendable {}
