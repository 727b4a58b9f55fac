import Clipboard
import Testing

@testable import PasteCLI

/// "Copied" follows what the clipboard's owner reported: said only when the copy completed
/// (the owner's status byte said it holds the selection), never when it failed or was not asked.
@Suite("Deliver: \"Copied\" only when the URL is on the clipboard")
struct DeliverCopyTests {
    /// A copy that ends as told: done (with what it did about a secret's mark), or failed with
    /// this error.
    final class FakeWrite: PreparedClipboardWrite {
        let failure: ClipboardError?
        let secretMark: SecretMark
        private(set) var handed: [UInt8]?
        private(set) var isSecret: Bool?
        init(failure: ClipboardError?, secretMark: SecretMark = .offered) {
            self.failure = failure
            self.secretMark = secretMark
        }
        func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError) -> SecretMark {
            handed = text
            self.isSecret = isSecret
            if let failure { throw failure }
            return isSecret ? secretMark : .notAsked
        }
    }

    func stage(_ write: FakeWrite) -> DeliverStage {
        var output = Output(environment: [:])
        output.isQuiet = true
        return DeliverStage(
            copy: .clipboard, preparedCopy: write, windows: DesktopWindows(plan: .none, output: output),
            output: output)
    }

    /// Delivers a key-bearing URL with `-v` and copies it through `write`, with no clipboard of
    /// the session's (no backend whose type could tell anything): what stderr then gets is the
    /// write's word alone.
    static func copyKeyBearing(through write: FakeWrite) {
        var stage = DeliverStage(
            copy: .clipboard, preparedCopy: write, isVerbose: true,
            windows: DesktopWindows(plan: .none, output: Output(environment: [:])), output: Output(environment: [:]))
        stage.deliver(
            .success(
                PasteResult(
                    url: "https://bin.example/?a1b2#KEY", service: "keyed", byteCount: 4, sha256: "", isKeyBearing: true
                )),
            fileName: nil)
        _ = stage.copyToClipboard("https://bin.example/?a1b2#KEY", to: .clipboard, clipboard: .unavailable(.noDisplay))
    }

    @Test("a key-bearing URL the write could not mark: -v says so, naming the writer the write named")
    func unmarkedSaid() async {
        let run = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            DeliverCopyTests.copyKeyBearing(
                through: FakeWrite(failure: nil, secretMark: .unavailable(writer: "a-copier")))
        }
        let stderr = String(decoding: run?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr == "paste: " + DeliverStage.unmarkedLine(writer: "a-copier") + "\n")
        #expect(DeliverStage.unmarkedLine(writer: "wl-copy") == DeliverStage.unmarkedLine)
    }

    @Test("a key-bearing URL the write marked: -v says nothing about a mark")
    func markedQuiet() async {
        let run = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            DeliverCopyTests.copyKeyBearing(through: FakeWrite(failure: nil, secretMark: .offered))
        }
        #expect(run?.standardErrorContent == [])
    }

    @Test("the owner took the selection: copied, and the window says Copied")
    func copied() {
        let write = FakeWrite(failure: nil)
        let outcome = stage(write).copyToClipboard(
            "https://x.example/1", to: .clipboard, clipboard: .unavailable(.noDisplay))
        #expect(outcome == .copied)
        #expect(write.handed == Array("https://x.example/1".utf8))
        #expect(
            DeliverStage.successWindow(url: "https://x.example/1", copy: outcome) == ("Copied", "https://x.example/1"))
    }

    @Test("the owner reported a failure (another client won, no answer): not Copied, and why")
    func failed() {
        for failure in [ClipboardError.helperFailed(.notOwner), .helperFailed(.noAnswer), .noDisplay] {
            let outcome = stage(FakeWrite(failure: failure)).copyToClipboard(
                "https://x.example/2", to: .clipboard, clipboard: .unavailable(.noDisplay))
            guard case .failed(let reason) = outcome else {
                Issue.record("\(failure): \(outcome)")
                continue
            }
            let window = DeliverStage.successWindow(url: "https://x.example/2", copy: outcome)
            #expect(window.title == "Pasted, not copied")
            #expect(window.body == "https://x.example/2\n" + reason)
        }
        let reason = DeliverStage.CopyOutcome.failed(
            "the URL was not copied: cannot take the clipboard: another client took the selection first")
        #expect(
            stage(FakeWrite(failure: .helperFailed(.notOwner))).copyToClipboard(
                "u", to: .clipboard, clipboard: .unavailable(.noDisplay)) == reason)
    }

    @Test("no copy asked for (--no-copy): the window says Pasted")
    func notAsked() {
        #expect(
            DeliverStage.successWindow(url: "https://x.example/3", copy: .notAsked) == ("Pasted", "https://x.example/3")
        )
    }
}
