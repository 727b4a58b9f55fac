import Foundation
import Testing
import TestSupport

/// `paste --outbox` and `paste --retry` by entry state, end to end: what is held waits for the
/// person, what is retryable goes when the server heals, `-n` sends nothing, a vanished service
/// holds only its own entries, and the state folder's leftovers are reported.
///
/// End to end against paste-mock: a 503's entry waits, `--retry -n` sends nothing, `--retry`
/// sends it once the server heals. Held entries, backoff and attempts, a vanished service,
/// private repeats, `--outbox show`/`--json`/`drop`, the guard on retry, a swapped content and
/// stranded files are `InProcessOutboxCommandTests`'s.
@Suite("paste --outbox and --retry by state", .temporaryHome, .mock)
struct OutboxCommandTests: ScopedSuite {
    /// The mock as service `m` (and, unless `withGone` is false, a service `gone` on it too).
    static func config(_ mock: MockServer, withGone: Bool = true) -> String {
        var text = pastieConfig(mock, extra: "private-field = paste[restricted]=1\n")
        if withGone {
            text += """
                [service "gone"]
                url = \(mock.url("/pastes/create"))
                content-field = paste[body]

                """
        }
        return text
    }

    @Test("a 503 entry waits (75) and is sent once the server heals; --retry -n sends nothing")
    func retryableHeals() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.status(503), count: 0, path: "/pastes/create")
        let failed = try paste.run(["-S", "m"], stdin: "come back later\n")
        #expect(failed.status == 75)
        let id = try #require(try paste.outboxIDs().first)
        #expect(try paste.outboxStates() == ["retryable"])

        try mock.clearFaults()
        try mock.clearRequests()
        let dry = try paste.run(["--retry", "-n"])
        #expect(dry.status == 0)
        #expect(dry.out == "would send \(id)  m  16 B  \"come back later\"\n")
        #expect(try mock.requests().isEmpty)
        #expect(try paste.outboxIDs() == [id])

        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        let url = retry.out.trimmingCharacters(in: .newlines)
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("come back later\n".utf8))
        #expect(paste.outboxFiles().isEmpty)
        #expect(try mock.posts().count == 1)
        // History keeps it, like any paste.
        #expect(try paste.historyLines().last?.contains(url) == true)
    }
}
