import Foundation
import Testing
import TestSupport

/// A 5xx before the body was taken (issue 25, item 2): a server that answers an error before it
/// reads the upload (paste-mock's `early-status`) made no paste, so the text is retryable (75),
/// retried within the run, and sent by `paste --retry`; the same answer once the whole body had
/// gone out may come from a server that made the paste, so the text is held (69).
@Suite("A 5xx before the body was taken is retryable; after it, held", .temporaryHome, .mock)
struct EarlyRefusalTests: ScopedSuite {
    /// A text larger than the loopback socket buffers hold, so that the answer comes while paste
    /// is still sending it (libcurl then stops sending).
    static let largeSize = 12 << 20

    /// Writes a plain text of `size` bytes (no secrets, lines of 64) and returns its path.
    func writeText(size: Int, name: String) throws -> String {
        let line = String(repeating: "early refusal ", count: 5).prefix(63) + "\n"
        var text = String(repeating: String(line), count: size / line.utf8.count + 1)
        text = String(text.utf8.prefix(size))!
        return try paste.home.write(text, to: name)
    }

    @Test("HTTP 500 before the body was taken: 75, retryable, and 'paste --retry' sends it")
    func beforeBodyRetryable() throws {
        try paste.writeConfig(pastieConfig(mock))
        let file = try writeText(size: Self.largeSize, name: "large.txt")
        try mock.addFault(.earlyStatus(500), path: "/pastes/create")
        let result = try paste.run(["-S", "m", "--no-copy", "-f", file])
        let id = try #require(try paste.outboxIDs().first)
        #expect(result.status == 75)
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: m answered HTTP 500 before taking the text: 500 Internal Server Error\n"
                + keptLine(id: id, isHeld: false) + "\n")
        #expect(try paste.outboxStates() == ["retryable"])
        #expect(try mock.pastes().isEmpty)

        let retry = try paste.run(["--retry"])
        let pastes = try mock.pastes()
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.err == "")
        #expect(pastes.count == 1)
        #expect(retry.out == mock.url("/pastes/\(pastes.first?.id ?? 0)") + "\n")
        #expect(pastes.first?.size == Self.largeSize)
        #expect(try paste.outboxIDs().isEmpty)
    }

    @Test("HTTP 502 before the body was taken is sent again within the run (retries = 1)")
    func beforeBodyRetriedInRun() throws {
        try paste.writeConfig(pastieConfig(mock).replacing("retries = 0", with: "retries = 1"))
        let file = try writeText(size: Self.largeSize, name: "large.txt")
        try mock.addFault(.earlyStatus(502), path: "/pastes/create")
        let result = try paste.run(["-S", "m", "--no-copy", "-f", file])
        let pastes = try mock.pastes()
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(pastes.count == 1)
        #expect(result.out == mock.url("/pastes/\(pastes.first?.id ?? 0)") + "\n")
        let delays = retryDelays(result.err)
        #expect(delays.count == 1 && (0.5...1.0).contains(delays[0]), "stderr: \(result.err)")
        #expect(result.err == "paste: retrying in \(String(format: "%.1f", delays.first ?? 0))s (attempt 2 of 2)\n")
        #expect(try mock.posts().map(\.status) == [502, 302])
        #expect(try paste.outboxIDs().isEmpty)
    }

    @Test("the same 500 answered once the whole body was read: 69, held, not sent by --retry")
    func afterBodyHeld() throws {
        try paste.writeConfig(pastieConfig(mock))
        let file = try writeText(size: Self.largeSize, name: "large.txt")
        try mock.addFault(.status(500), path: "/pastes/create")
        let result = try paste.run(["-S", "m", "--no-copy", "-f", file])
        let id = try #require(try paste.outboxIDs().first)
        #expect(result.status == 69)
        #expect(
            result.err
                == "paste: m answered HTTP 500: 500 Internal Server Error\n" + keptLine(id: id, isHeld: true) + "\n")
        #expect(try paste.outboxStates() == ["held"])
        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0)
        #expect(
            retry.err
                == "paste: 1 outbox entry is held: 'paste --outbox' lists it; 'paste --outbox send ID' sends one\n")
        #expect(try mock.pastes().isEmpty)
    }
}
