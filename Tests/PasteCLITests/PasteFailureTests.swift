import FoundationEssentials
import PasteCore
import SecretGuard
import Stores
import SystemInterop
import Testing

@testable import PasteCLI

/// `PasteFailure`'s lines, the one place stderr, `--json` and the windows get what a failed
/// paste says: why, and where its text is.
@Suite("Paste failure")
struct PasteFailureTests {
    static let refused = ServiceError.httpStatus(service: "pastie", status: 500, excerpt: "down")
    static let guardHeld = GuardError.secretsFound(
        [SecretFinding(pattern: .gitHubToken, line: 1, column: 1, excerpt: "ghp_…YC")], source: nil)

    @Test("a retryable entry: the failure, then where the text waits, as a hint")
    func retryable() {
        let failure = PasteFailure(cause: Self.refused, text: .outbox(id: "a1", state: .retryable))
        #expect(
            failure.terminalLines() == [
                .error(Self.refused.message),
                .hint("the text waits in the outbox (a1); 'paste --retry' sends it again"),
            ])
        #expect(
            failure.windowLines() == [
                Self.refused.message, "The text waits in the outbox (a1): paste --retry sends it.",
            ])
        #expect(failure.exitStatus == Self.refused.exitStatus)
    }

    @Test("an entry the guard holds says only --force sends it, in the window too")
    func heldByGuard() {
        let failure = PasteFailure(cause: Self.guardHeld, text: .outbox(id: "b2", state: .held))
        #expect(failure.isHeldByGuard)
        #expect(
            failure.terminalLines().last
                == .hint(
                    "the text is held in the outbox (b2): 'paste --outbox send b2 --force' sends it anyway, "
                        + "'paste --outbox drop b2' drops it"))
        #expect(
            failure.windowLines().last
                == "The text is held in the outbox (b2): only 'paste --outbox send b2 --force' sends it.")
        #expect(!failure.windowLines().joined().contains("may have been made"))
    }

    @Test("a held entry the server may have made says so")
    func heldByServer() {
        let failure = PasteFailure(cause: Self.refused, text: .outbox(id: "c3", state: .held))
        #expect(!failure.isHeldByGuard)
        #expect(failure.windowLines().last == "The text is held in the outbox (c3): the paste may have been made.")
    }

    @Test("text the outbox could not take: both errors, status 74, the clipboard named")
    func notSaved() {
        let notSaved = TextNotSaved(failure: .cannotWrite(path: "/x", errno: .noSpace), isOnClipboard: true)
        let failure = PasteFailure(cause: Self.refused, text: .notSaved(notSaved))
        #expect(
            failure.terminalLines().filter { if case .error = $0 { true } else { false } } == [
                .error(Self.refused.message), .error(notSaved.message),
            ])
        #expect(failure.exitStatus == .ioError)
        #expect(failure.windowLines().last == notSaved.message + "; the clipboard still holds it.")
    }

    @Test("a run a signal stopped says where the text is in one line, and exits 128 + N")
    func interrupted() {
        let kept = PasteFailure(cause: Self.refused, text: .outbox(id: "d4", state: .retryable), signal: .interrupt)
        #expect(
            kept.terminalLines() == [.error("interrupted; the text waits in the outbox (d4); 'paste --retry' sends it")]
        )
        #expect(kept.exitStatus == .cancelled)
        let cut = PasteFailure(cause: Self.refused, text: .cutShort, signal: .terminate)
        #expect(
            cut.terminalLines() == [
                .error("interrupted; the piped text was cut short before its end, so none of it was kept")
            ])
        #expect(cut.exitStatus == .terminated)
    }

    @Test("an entry whose service left the config: one line, status 78")
    func serviceGone() {
        let failure = PasteFailure(
            cause: ConfigError.unknownService(name: "gone", known: ["pastie"]), text: .outbox(id: "e5", state: .held))
        #expect(
            failure.terminalLines() == [
                .error(
                    "outbox entry e5 is held: its service 'gone' is not configured any more; "
                        + "'paste --outbox send e5' sends it once it is, 'paste --outbox drop e5' drops it")
            ])
        #expect(failure.exitStatus == .config)
    }

    @Test("deletion data: a link and a token, both ways through the history record")
    func deletion() {
        #expect(Deletion(answered: "https://x.test/remove/a") == .link("https://x.test/remove/a"))
        #expect(Deletion(answered: "tok123") == .token("tok123"))
        var record = HistoryRecord(time: .now, service: "s", url: "https://x.test/a", byteCount: 1, sha256: "")
        record.deletion = .link("https://x.test/remove/a")
        #expect(record.deletionURL == "https://x.test/remove/a" && record.deletionToken == nil)
        record.deletion = .token("t")
        #expect(record.deletionToken == "t" && record.deletionURL == nil && record.deletion == .token("t"))
    }
}
