import Foundation
import PasteCore
import Testing
import TestSupport

/// The second adversarial round's findings (issue 29), each as the person sees it: exact
/// stdout, stderr, status and files.
@Suite("Second adversarial round: what still broke it", .temporaryHome, .mock, .serialized)
struct AdversarialRoundTests: ScopedSuite {
    /// The URL of the mock's newest paste.
    func newestPasteURL() throws -> String {
        let id = try #require(try mock.pastes().map(\.id).max())
        return mock.url("/pastes/\(id)")
    }

    // MARK: - Finding 2: redaction by value

    @Test("a plain configured header value never erases the link: stdout, --json and history keep /pastes/N whole")
    func plainHeaderKeepsLink() throws {
        try paste.writeConfig(pastieConfig(mock, extra: "header = X-Client: pastes\nheader = X-Kind: plain\n"))
        let result = try paste.run(["-S", "m", "--no-copy"], stdin: "a link to keep\n")
        let url = try newestPasteURL()
        #expect(result.status == 0)
        #expect(result.out == url + "\n")
        #expect(result.err == "")
        let json = try paste.run(["-S", "m", "--no-copy", "--json", "--new"], stdin: "a link to keep, as JSON\n")
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["url"] as? String == (try newestPasteURL()))
        let records = try paste.historyLines().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.compactMap { $0["url"] as? String } == [url, try newestPasteURL()])
        #expect(try paste.run(["--history"]).out.contains("  \(url)  "))
    }

    // MARK: - Finding 5: a PrivateBin server picks the host

    @Test(
        "a PrivateBin answer whose url is on another host never gets the key: the link is the service's own",
        arguments: ["http://evil.example/?0123456789abcdef", "//evil.example/?0123456789abcdef"])
    func privateBinOtherHost(_ url: String) throws {
        try paste.writeConfig("[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n")
        let answer = #"{"status":0,"id":"0123456789abcdef","url":"\#(url)","deletetoken":"token"}"#
        try mock.addFault(.status(200, body: answer), path: "/privatebin/")
        let result = try paste.run(["-S", "privatebin", "--no-copy"], stdin: "a secret note\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        let prefix = mock.url("/privatebin/?0123456789abcdef#")
        #expect(result.out.hasPrefix(prefix), "\(result.out)")
        #expect(!result.out.contains("evil"))
        #expect(try paste.historyLines().allSatisfy { !$0.contains("evil") })
    }
}
