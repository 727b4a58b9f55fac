import Foundation
import Testing
import TestSupport

/// The masking a person asked for survives the outbox (issue 42, item 3), end to end with the
/// built binary and the mock: the hotkey's answer "Upload with secrets masked" is kept with the
/// entry of an upload that failed, as `--redact` is, and `--retry` sends the masked text;
/// `--retry --redact` (and `--outbox send ID --redact`) masks an entry whose run did not; and a
/// retried entry the guard holds is named as paste's other messages name an entry.
@Suite("--retry keeps the masking asked for: the hotkey's answer, and --redact on the retry", .temporaryHome, .mock)
struct MaskedRetryTests: ScopedSuite {
    /// A text with a private key on its second line.
    static let text = "before\n" + DesktopNotificationTests.privateKey + "after\n"
    /// `text` as it goes up masked.
    static let masked = "before\n[redacted: private-key]\nafter\n"
    /// The key's body, which no request and no file may hold once it is masked.
    static let keyBody = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"

    /// The texts (`paste[body]`) the mock was sent on its create route, oldest first: the
    /// failed attempts' too.
    func sentBodies() throws -> [String] {
        try mock.posts().filter { $0.path == "/pastes/create" }.map { post in
            let field = try #require(post.fields.first { $0.name == "paste[body]" })
            return String(decoding: try mock.data(field), as: UTF8.self)
        }
    }

    /// Leaves `text` in the outbox with `--force` (its run did not mask): the mock answers 503
    /// `failures` times. The entry's id.
    func leaveForced(failures: Int = 1) throws -> String {
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        try mock.addFault(.status(503), count: failures, path: "/pastes/create")
        let run = try paste.run(["--force", "--no-copy"], stdin: Self.text)
        #expect(run.status == 75, "stderr: \(run.err)")
        #expect(paste.outboxMetadata().map { $0["redact"] as? Bool } == [false])
        #expect(try paste.outboxContents() == [Data(Self.text.utf8)])
        return try #require(try paste.outboxIDs().first)
    }

    @Test("the hotkey's masked upload fails, waits masked with redact true; --retry sends it masked")
    func hotkeyAnswerKept() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus, answer: "redact")
        let hotkey = try desktopRunner(home: home, bus: bus)
        try hotkey.writeConfig(pastieConfig(mock, isDefault: true))
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        let failed = try hotkey.run(["--notify", "--no-copy"], stdin: Self.text)
        #expect(failed.status == 75, "stderr: \(failed.err)")
        #expect((server.notifications.first?["actions"] as? [String])?.first == "redact")
        // The entry records the masking the person chose, and holds only the masked text.
        #expect(paste.outboxMetadata().map { $0["redact"] as? Bool } == [true])
        #expect(try paste.outboxContents() == [Data(Self.masked.utf8)])

        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.err == "")
        let pasted = try #require(try mock.pastes().first)
        #expect(retry.out == mock.url("/pastes/\(pasted.id)") + "\n")
        #expect(try mock.data(pasted) == Data(Self.masked.utf8))
        #expect(try sentBodies() == [Self.masked, Self.masked])
        #expect(try paste.outboxIDs().isEmpty)
        #expect(try paste.historyLines().allSatisfy { !$0.contains(Self.keyBody) && $0.contains("\"redacted\"") })
    }

    @Test("--retry --redact masks an entry its run did not mask: the masked text arrives, the entry leaves")
    func retryRedacts() throws {
        let id = try leaveForced()
        let retry = try paste.run(["--retry", "--redact"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.err == "paste: masked 1 secret in outbox entry \(id): private-key at line 2, column 1\n")
        let pasted = try #require(try mock.pastes().first)
        #expect(retry.out == mock.url("/pastes/\(pasted.id)") + "\n")
        #expect(try mock.data(pasted) == Data(Self.masked.utf8))
        #expect(try sentBodies() == [Self.text, Self.masked])
        #expect(try paste.outboxIDs().isEmpty)
        let history = try #require(try paste.historyLines().first)
        #expect(history.contains("\"redacted\":[{\"column\":1,\"kind\":\"private-key\",\"line\":2}]"), "\(history)")
        // The digest is the masked text's: the forced text, pasted again, is not a repeat of it.
        #expect(!history.contains(try sha256sum(Data(Self.text.utf8))), "\(history)")
    }

    @Test("--retry --redact that fails again: the entry waits as it was, marked redact; sent later without it, masked")
    func retryRedactKept() throws {
        let id = try leaveForced(failures: 2)
        let retry = try paste.run(["--retry", "--redact"])
        #expect(retry.status == 75, "stderr: \(retry.err)")
        #expect(retry.err.hasPrefix("paste: masked 1 secret in outbox entry \(id): private-key at line 2, column 1\n"))
        #expect(paste.outboxMetadata().map { $0["redact"] as? Bool } == [true])
        #expect(try paste.outboxStates() == ["retryable"])
        #expect(try paste.outboxContents() == [Data(Self.text.utf8)])

        // (Sent now: an unattended `--retry` waits for its backoff first, then does the same.)
        let again = try paste.run(["--outbox", "send", id, "--no-copy"])
        #expect(again.status == 0, "stderr: \(again.err)")
        #expect(again.err == "paste: masked 1 secret in outbox entry \(id): private-key at line 2, column 1\n")
        #expect(try mock.pastes().map(\.data) == [Data(Self.masked.utf8)])
        #expect(try sentBodies() == [Self.text, Self.masked, Self.masked])
        #expect(try paste.outboxIDs().isEmpty)
    }

    @Test("a retried entry the guard holds is named as an entry, unquoted; --outbox send ID --redact sends it masked")
    func heldEntryNamed() throws {
        let id = try leaveForced()
        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(
            retry.err
                == "paste: refusing to upload outbox entry \(id): it looks like it holds a private key (PEM) "
                + "(line 2, column 1); use --force to upload anyway\n"
                + "paste: the text is held in the outbox (\(id)): 'paste --outbox send \(id) --force' sends it "
                + "anyway, 'paste --outbox drop \(id)' drops it\n"
                + "paste: 1 outbox entry is held: 'paste --outbox' lists it; 'paste --outbox send ID' sends one\n")
        #expect(try paste.outboxStates() == ["held"])
        let listed = try #require(try paste.outboxListing().first)
        #expect((listed["last_error"] as? String)?.hasPrefix("refusing to upload outbox entry \(id): ") == true)

        let json = try paste.run(["--outbox", "send", id, "--json"])
        #expect(json.status == 77)
        #expect(
            json.out
                == "{\"error\":\"refused\",\"message\":\"refusing to upload outbox entry \(id): it looks like it "
                + "holds a private key (PEM) (line 2, column 1); use --force to upload anyway\",\"status\":77,"
                + "\"outbox\":{\"id\":\"\(id)\",\"state\":\"held\"},\"file\":null}\n")

        let both = try paste.run(["--outbox", "send", id, "--redact", "--force"])
        #expect(both.status == 64)
        #expect(both.err.hasPrefix("paste: --redact masks what --force would send as it is; choose one\n"))

        let send = try paste.run(["--outbox", "send", id, "--redact", "--no-copy"])
        #expect(send.status == 0, "stderr: \(send.err)")
        #expect(send.err == "paste: masked 1 secret in outbox entry \(id): private-key at line 2, column 1\n")
        #expect(try mock.pastes().map(\.data) == [Data(Self.masked.utf8)])
        #expect(try paste.outboxIDs().isEmpty)
    }
}
