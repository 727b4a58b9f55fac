import Clipboard
import Testing

@testable import PasteCLI

/// "Copied" follows what the clipboard's owner reported: said only when the copy completed
/// (the owner's status byte said it holds the selection), never when it failed or was not asked.
@Suite("Deliver: \"Copied\" only when the URL is on the clipboard")
struct DeliverCopyTests {
    /// A copy that ends as told: done, or failed with this error.
    final class FakeWrite: PreparedClipboardWrite {
        let failure: ClipboardError?
        private(set) var handed: [UInt8]?
        private(set) var isSecret: Bool?
        init(failure: ClipboardError?) { self.failure = failure }
        func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError) {
            handed = text
            self.isSecret = isSecret
            if let failure { throw failure }
        }
    }

    func stage(_ write: FakeWrite) -> DeliverStage {
        var output = Output(environment: [:])
        output.isQuiet = true
        return DeliverStage(
            copy: .clipboard, preparedCopy: write, windows: DesktopWindows(plan: .none, output: output),
            output: output)
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
