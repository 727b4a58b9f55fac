import Testing

@testable import PasteCore

@Suite("Relative URL resolution (RFC 3986 section 5)")
struct URLReferenceTests {
    /// The base of RFC 3986 section 5.4.
    static let base = "http://a/b/c/d;p?q"

    /// Section 5.4.1, normal examples, in the RFC's order.
    static let normal: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ]

    /// Section 5.4.2, abnormal examples (strict parser).
    static let abnormal: [(String, String)] = [
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
    ]

    @Test("the RFC's normal examples", arguments: normal)
    func normalExamples(_ example: (String, String)) {
        #expect(URLReference.resolve(example.0, against: Self.base) == example.1)
    }

    @Test("the RFC's abnormal examples", arguments: abnormal)
    func abnormalExamples(_ example: (String, String)) {
        #expect(URLReference.resolve(example.0, against: Self.base) == example.1)
    }

    @Test("what pastebins answer: a path, a bare key, a query, a host-relative URL")
    func pastebinAnswers() {
        #expect(URLReference.resolve("/abc.rs", against: "https://bin.example/") == "https://bin.example/abc.rs")
        #expect(URLReference.resolve("abc", against: "https://haste.example/documents") == "https://haste.example/abc")
        #expect(
            URLReference.resolve("/upload/x", against: "http://127.0.0.1:8080/microbin/upload")
                == "http://127.0.0.1:8080/upload/x")
        #expect(URLReference.resolve("//cdn.example/x", against: "https://a.example/b") == "https://cdn.example/x")
        #expect(URLReference.resolve("https://other/x", against: "https://a/b") == "https://other/x")
        // A time is not a scheme: it is a path.
        #expect(URLReference.resolve("12:30", against: "https://a/b/c") == "https://a/b/12:30")
        // No base to anchor to: unchanged.
        #expect(URLReference.resolve("/x", against: "not a url") == "/x")
    }
}
