import Foundation
import Testing
import TestSupport

/// The outbox heals by itself (issue 25, item 3): after a paste to a service works, the entries
/// waiting for that service are sent in the background, each once, even with a `--retry`
/// running at the same moment.
@Suite("Self-healing outbox: a good paste sends what waited", .temporaryHome, .mock)
struct SelfHealTests: ScopedSuite {
    /// Leaves `texts` in the outbox for service `m` while it is down, then points `m` at the mock.
    func backlog(_ texts: [String]) throws {
        let dead = try FaultRetryTests.freePort()
        try paste.writeConfig(RetryNowTests.config(port: dead))
        for text in texts {
            let result = try paste.run(["-S", "m", "--no-copy"], stdin: text)
            #expect(result.status == 75, "stderr: \(result.err)")
        }
        try paste.writeConfig(RetryNowTests.config(port: mock.port))
    }

    @Test("a paste that works sends the service's waiting entries in the background, into history")
    func goodPasteFlushes() throws {
        let texts = ["waited 1\n", "waited 2\n", "waited 3\n"]
        try backlog(texts)
        let result = try paste.run(["-S", "m", "--no-copy"], stdin: "works now\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        #expect(result.out.hasPrefix(mock.baseURL + "/pastes/"))
        try waitUntil("the backlog to be sent", timeout: 30) { (try? paste.outboxContents().isEmpty) == true }
        try waitUntil("history to hold all four", timeout: 30) { (try? paste.historyLines().count) == 4 }
        let bodies = try mock.posts().compactMap { $0.field("paste[body]")?.text }
        #expect(bodies.sorted() == (texts + ["works now\n"]).sorted())
    }

    @Test("a background flush and a --retry racing send each entry exactly once")
    func flushAndRetryRace() throws {
        let texts = (1...8).map { "backlog \($0)\n" }
        try backlog(texts)
        // A slow server widens the window in which both look at the same entries.
        try mock.addFault(.delay(seconds: 0.2), count: 0, path: "/pastes/create")
        let fresh = try RunningPaste(paste, ["-S", "m", "--no-copy"], stdin: "the trigger\n")
        let retry = try RunningPaste(paste, ["--retry"], stdin: "")
        let first = try fresh.finish()
        let second = try retry.finish()
        #expect(first.status == 0, "stderr: \(fresh.err)")
        #expect([0, 75].contains(second.status), "stderr: \(retry.err)")
        try waitUntil("the backlog to be sent", timeout: 60) { (try? paste.outboxContents().isEmpty) == true }
        try waitUntil("every paste in history", timeout: 30) { (try? paste.historyLines().count) == texts.count + 1 }
        let bodies = try mock.posts().compactMap { $0.field("paste[body]")?.text }
        #expect(bodies.count == texts.count + 1, "posts: \(bodies)")
        #expect(bodies.sorted() == (texts + ["the trigger\n"]).sorted())
    }

    @Test("with a history it cannot write, the flush keeps each entry held with its paste's link")
    func flushWithoutHistoryKeepsLinks() throws {
        let texts = ["waited 1\n", "waited 2\n"]
        try backlog(texts)
        // A folder where the history file should be stops root as well as anyone.
        let history = paste.home.stateHome.appendingPathComponent("paste/history")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        let result = try paste.run(["-S", "m", "--no-copy"], stdin: "works now\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out.hasPrefix(mock.baseURL + "/pastes/") && result.out.hasSuffix("\n"))
        try waitUntil("all three pastes made", timeout: 30) { (try? mock.posts().count) == 3 }
        try waitUntil("the flush to settle every entry", timeout: 30) {
            (try? paste.outboxStates()) == ["held", "held", "held"]
        }
        let items = try paste.outboxListing()
        let links = items.compactMap { $0["pasted_url"] as? String }
        #expect(links.count == 3 && Set(links).count == 3, "\(items)")
        #expect(links.allSatisfy { $0.hasPrefix(mock.baseURL + "/pastes/") })
        #expect(links.contains(String(result.out.dropLast())))
        let trigger = try #require(items.first { $0["pasted_url"] as? String == String(result.out.dropLast()) })
        let id = try #require(trigger["id"] as? String)
        #expect(
            result.err
                == "paste: could not record the paste in history: '\(history.path)' is a folder, not a regular file; "
                + "outbox entry \(id) keeps its link ('paste --outbox' shows it)\n")
        // `--retry` sends none of them again; the listing shows each link.
        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0 && retry.out == "", "stderr: \(retry.err)")
        let listing = try paste.run(["--outbox"])
        #expect(listing.status == 0)
        for link in links { #expect(listing.out.contains("  pasted as \(link)  last error: pasted, but")) }
        #expect(try mock.posts().count == 3)
        // Nor does `--outbox send ID`: it gives the link it made and says why nothing was sent.
        let sent = try paste.run(["--outbox", "send", id])
        #expect(sent.status == 0)
        #expect(sent.out == result.out)
        #expect(
            sent.err
                == "paste: outbox entry \(id) was pasted already (the link above; the history could not record it "
                + "then), so it is not sent again; 'paste --outbox drop \(id)' drops it once the link is kept\n")
        #expect(try mock.posts().count == 3)
        #expect(try paste.outboxStates() == ["held", "held", "held"])
    }
}
