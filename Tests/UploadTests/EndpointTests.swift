import Testing

@testable import Upload

@Suite("Endpoint: a URL's host and port for messages")
struct EndpointTests {
    @Test(
        "the scheme ends at the first '://', found byte by byte",
        arguments: [
            ("http://127.0.0.1:9/pastes", "http", "127.0.0.1:9"),
            ("HTTPS://user:pw@paste.example/x", "https", "paste.example:443"),
            ("https://[::1]:8443/a?b#c", "https", "[::1]:8443"),
            // A colon before the scheme's end (no '//' after it) is not the separator.
            ("a:b://host:1/", "a:b", "host:1"),
            ("host:80", "", "host:80"),
        ])
    func endpoint(url: String, scheme: String, authority: String) {
        let endpoint = Endpoint(url)
        #expect(endpoint.scheme == scheme)
        #expect(endpoint.authority == authority)
    }

    @Test("no separator: nil, whatever colons and slashes there are")
    func noSeparator() {
        #expect(Endpoint.schemeSeparator(in: "") == nil)
        #expect(Endpoint.schemeSeparator(in: "a:/b:") == nil)
        #expect(Endpoint.schemeSeparator(in: ":/") == nil)
        let url = "x://"
        #expect(Endpoint.schemeSeparator(in: url).map { url[$0] } == "://")
    }
}
