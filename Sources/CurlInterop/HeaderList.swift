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
}

@available(*, unavailable, message: "a libcurl header list belongs to one thread")
extension HeaderList: Sendable {}
