import Foundation
import Testing
import TestSupport

/// One row of the fault table in man/paste.1 (FAILURES) and the README: what the server does
/// wrong, which service shape meets it, and what `paste` must say and return.
struct FaultRow: CustomTestStringConvertible, Sendable {
    /// The row's name in the table.
    var name: String
    var fault: MockFault
    /// Only requests to this path are faulted (so a redirect's target answers normally).
    var path: String
    /// `pastie` (`--url …/pastes/create`, result redirect), `rs` (raw body, URL in the body) or
    /// `json` (URL at /data/url of a JSON answer).
    var service: String
    var extraArguments: [String] = []
    /// Lines added to the config's `[paste]` section for this row.
    var extraSettings = ""
    var status: Int32
    /// The start of stderr's first line, after `paste: `; `PORT` stands for the mock's port.
    var message: String
    /// Whether the server may have made the paste, so its text is held (sent again only by
    /// `paste --outbox send ID`) rather than retryable.
    var isHeld = true

    var testDescription: String { name }

    static let all: [FaultRow] = [
        FaultRow(
            name: "HTTP 500", fault: .status(500), path: "/pastes/create", service: "pastie", status: 69,
            message: "127.0.0.1:PORT answered HTTP 500: 500 Internal Server Error"),
        FaultRow(
            name: "HTTP 503 with Retry-After", fault: .status(503, retryAfter: 1), path: "/pastes/create",
            service: "pastie", status: 75, message: "127.0.0.1:PORT answered HTTP 503: 503 Service Unavailable",
            isHeld: false),
        FaultRow(
            name: "HTTP 429 with Retry-After", fault: .status(429, retryAfter: 1), path: "/pastes/create",
            service: "pastie", status: 75, message: "127.0.0.1:PORT answered HTTP 429: 429 Too Many Requests",
            isHeld: false),
        FaultRow(
            name: "delay past --timeout", fault: .delay(seconds: 4), path: "/pastes/create", service: "pastie",
            extraArguments: ["--timeout", "1"], status: 75, message: "transfer with 127.0.0.1:PORT timed out after 1s"),
        FaultRow(
            name: "connection dropped after 10 bytes of the request", fault: .dropRequest(afterBytes: 10),
            path: "/pastes/create", service: "pastie", status: 75,
            message: "no usable answer from 127.0.0.1:PORT: Empty reply from server"),
        FaultRow(
            name: "connection dropped after 100 bytes of the response", fault: .dropResponse(afterBytes: 100),
            path: "/json", service: "json", status: 75,
            message: "no usable answer from 127.0.0.1:PORT: transfer closed with"),
        FaultRow(
            name: "redirect loop", fault: .redirectLoop, path: "/pastes/create", service: "pastie", status: 69,
            message: "too many redirects (more than 10)"),
        FaultRow(
            name: "redirect to file:///etc/passwd", fault: .redirectToFile, path: "/pastes/create",
            service: "pastie", status: 69,
            message: "refusing redirect to 'file:///etc/passwd': only well-formed http and https URLs are followed"),
        FaultRow(
            name: "redirect back to the form page", fault: .redirectToRoot(location: "/"), path: "/pastes/create",
            service: "pastie", status: 69,
            message: "127.0.0.1:PORT sent back to http://127.0.0.1:PORT/, not to a new paste"),
        FaultRow(
            name: "huge response", fault: .huge(bytes: 20 << 20), path: "/pasters/", service: "rs", status: 69,
            message: "rs gave no paste URL (HTTP 200): paste-mock huge response filler line"),
        FaultRow(
            name: "response without a URL", fault: .noURL, path: "/pasters/", service: "rs", status: 69,
            message: "rs gave no paste URL (HTTP 200): Error error Something went wrong."),
        FaultRow(
            name: "URL with escape sequences", fault: .escapeURL(), path: "/pasters/", service: "rs", status: 69,
            message: "rs gave an unusable URL: it holds control characters"),
        FaultRow(
            name: "javascript: URL", fault: .javascriptURL(), path: "/pasters/", service: "rs", status: 69,
            message: "rs gave an unusable URL: scheme 'javascript' is not http(s)"),
        FaultRow(
            name: "URL with a right-to-left override", fault: .spoofURL(spoof: "bidi"), path: "/pasters/",
            service: "rs",
            status: 69,
            message:
                "rs gave an unusable URL: it holds the bidirectional control U+202E, which makes it read as another address"
        ),
        FaultRow(
            name: "206 Partial Content", fault: .partial(), path: "/pasters/", service: "rs", status: 69,
            message: "rs gave a partial answer (HTTP 206)"),
        FaultRow(
            name: "a trickle of one byte a second", fault: .trickle(bytes: 1, seconds: 1), path: "/pastes/create",
            service: "pastie", status: 75, message: "transfer with 127.0.0.1:PORT stalled: under 10 bytes/s for 1s"),
        FaultRow(
            name: "an answer trickled at 20 bytes a second", fault: .trickle(bytes: 2, seconds: 0.1),
            path: "/pastes/create", service: "pastie", extraSettings: "response-timeout = 2\n", status: 75,
            message: "no complete answer from 127.0.0.1:PORT within 2s of sending the text (response-timeout)"),
    ]
}

/// Every fault of paste-mock, end to end under a real X server: the clipboard holds the text,
/// `paste -c` meets the fault through real libcurl, and must exit with the documented status and
/// one line (plus the outbox hint, with the entry's id), leave the clipboard alone and the text
/// byte-exact in the outbox.
///
/// What comes after, against the healed server (`paste --retry` sends a retryable entry, a held
/// one waits for `paste --outbox send ID`), is the pipeline's decision, the same whatever the
/// fault's bytes were: `InProcessRetryTests.heals` checks it for every row of the table in
/// process, and `OutboxEndToEndTests` and `OutboxCommandTests` keep `--retry` and `--outbox send`
/// end to end against paste-mock. Each row has its own X server, mock and home (the traits are
/// per test case), so the rows run side by side.
@Suite(
    "Faults: exit status, one line, clipboard kept, outbox byte-exact", .tags(.x11), .needsXServer,
    .xvfb, .temporaryHome, .mock)
struct FaultTableTests: ScopedSuite {

    /// The config naming the mock's body and JSON services; no retries, a 1 s stall limit, and
    /// the row's own settings.
    static func config(_ mock: MockServer, extraSettings: String = "") -> String {
        """
        [paste]
        retries = 0
        stall-timeout = 1
        \(extraSettings)
        [service "rs"]
        url = \(mock.url("/pasters/"))
        format = raw
        result = body
        [service "json"]
        url = \(mock.url("/json"))
        format = raw
        result = json:/data/url

        """
    }

    @Test("a fault of the server", arguments: FaultRow.all)
    func fault(_ row: FaultRow) throws {
        try paste.writeConfig(Self.config(mock, extraSettings: row.extraSettings))
        let text = "fault row '\(row.name)': 日本語 \"quotes\" $(not run)\r\nsecond line\n"
        try xvfb.putOnClipboard(text)
        try mock.addFault(row.fault, count: 0, path: row.path)

        let service = row.service == "pastie" ? ["--url", mock.url("/pastes/create")] : ["-S", row.service]
        let result = try paste.run(["-c", "--no-notify"] + service + row.extraArguments)

        #expect(result.status == row.status, "stderr: \(result.err)")
        #expect(result.out.isEmpty)
        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let message = "paste: " + row.message.replacingOccurrences(of: "PORT", with: String(mock.port))
        #expect(lines.count == 2, "stderr: \(result.err)")
        #expect(lines.first?.hasPrefix(message) == true, "stderr: \(result.err)")
        let listing = try paste.outboxListing()
        let id = try #require(listing.first?["id"] as? String)
        #expect(lines.last.map(String.init) == keptLine(id: id, isHeld: row.isHeld))
        #expect(listing.compactMap { $0["state"] as? String } == [row.isHeld ? "held" : "retryable"])
        #expect(!result.err.unicodeScalars.contains("\u{1B}"), "an escape reached stderr")
        #expect(try xvfb.clipboardText() == text)
        #expect(try paste.outboxContents() == [Data(text.utf8)])
    }
}
