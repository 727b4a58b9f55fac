/// Resolving a relative URL reference against a base URL, as RFC 3986 section 5 says.
///
/// Servers answer with relative URLs (`{"path": "/abc"}` from wastebin, `Location: /upload/abc`
/// from MicroBin): every URL a result yields is resolved against the URL of the answer it came
/// from before it is checked and shown. This is the strict algorithm of section 5.2.2 with
/// `remove_dot_segments` (5.2.4); it works on the text as written (no percent-decoding, no
/// normalisation beyond what the algorithm does), so a resolved URL is exactly what a browser
/// would request.
public enum URLReference {
    /// The five components of a URI reference (RFC 3986 section 3); nil means "undefined",
    /// which differs from empty (`http://h?` has an empty query).
    struct Components: Equatable {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?
        var fragment: String?
    }

    /// Splits a reference into its components, the way the regular expression of RFC 3986
    /// appendix B does, except that a scheme must be a letter followed by letters, digits,
    /// `+`, `-` or `.` (section 3.1): `12:30` is a path, not a scheme.
    static func split(_ text: String) -> Components {
        var rest = Substring(text)
        var parts = Components(path: "")
        if let hash = rest.firstIndex(of: "#") {
            parts.fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            parts.query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/"), isScheme(rest[..<colon]) {
            parts.scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            parts.authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        parts.path = String(rest)
        return parts
    }

    /// Whether `text` is a scheme: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
        }
    }

    /// Whether two absolute URLs share their origin: the same scheme and authority (user
    /// information, host and port as written), compared without regard to case.
    public static func isSameOrigin(_ first: String, _ second: String) -> Bool {
        let (a, b) = (split(first), split(second))
        guard let scheme = a.scheme, let authority = a.authority else { return false }
        return scheme.lowercased() == b.scheme?.lowercased() && authority.lowercased() == b.authority?.lowercased()
    }

    /// Whether `text` is an absolute URI (it has a scheme), so needs no base.
    public static func isAbsolute(_ text: String) -> Bool { split(text).scheme != nil }

    /// `reference` resolved against `base` (RFC 3986 section 5.2.2, strict parser).
    ///
    /// An absolute reference comes back as it is (after dot-segment removal); a base without a
    /// scheme cannot anchor anything, so the reference then comes back unchanged.
    public static func resolve(_ reference: String, against base: String) -> String {
        let relative = split(reference)
        let anchor = split(base)
        guard anchor.scheme != nil || relative.scheme != nil else { return reference }
        var target = Components(path: "")
        if relative.scheme != nil {
            target.scheme = relative.scheme
            target.authority = relative.authority
            target.path = removeDotSegments(relative.path)
            target.query = relative.query
        } else {
            if relative.authority != nil {
                target.authority = relative.authority
                target.path = removeDotSegments(relative.path)
                target.query = relative.query
            } else {
                if relative.path.isEmpty {
                    target.path = anchor.path
                    target.query = relative.query ?? anchor.query
                } else {
                    if relative.path.hasPrefix("/") {
                        target.path = removeDotSegments(relative.path)
                    } else {
                        target.path = removeDotSegments(merge(base: anchor, path: relative.path))
                    }
                    target.query = relative.query
                }
                target.authority = anchor.authority
            }
            target.scheme = anchor.scheme
        }
        target.fragment = relative.fragment
        return recompose(target)
    }

    /// Merges a relative path with the base's (section 5.2.3).
    static func merge(base: Components, path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return base.path[...slash] + path
    }

    /// Removes `.` and `..` segments (section 5.2.4), step by step as the RFC writes it.
    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output = ""
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") || input == "/.." {
                input = input == "/.." ? "/" : input.dropFirst(3)
                if let slash = output.lastIndex(of: "/") {
                    output.removeSubrange(slash...)
                } else {
                    output = ""
                }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                // The first segment, with its leading "/" if any, up to the next "/".
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }

    /// Puts components back together (section 5.3).
    static func recompose(_ parts: Components) -> String {
        var result = ""
        if let scheme = parts.scheme { result += scheme + ":" }
        if let authority = parts.authority { result += "//" + authority }
        result += parts.path
        if let query = parts.query { result += "?" + query }
        if let fragment = parts.fragment { result += "#" + fragment }
        return result
    }
}

extension Unicode.Scalar {
    /// `A`–`Z` or `a`–`z`.
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
