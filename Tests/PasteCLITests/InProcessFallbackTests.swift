import Foundation
import PasteCore
import SystemInterop
import Testing
import TestSupport
import Upload

@testable import PasteCLI

/// `FallbackStage` in process: when a text goes on to its service's fallback, what it says,
/// where the paste is recorded, and when it stays put.
@Suite("In process: fallback", .temporaryHome)
struct InProcessFallbackTests: ScopedSuite {
    static let text = "fall back 日本語\n"

    @Test("a refused connection hands over at once (no in-run retries): the line, the URL, history name the fallback")
    func refusedHandsOver() throws {
        try harness.writeConfig(harnessConfig(retries: 3, fallbacks: ["b"]))
        let run = try harness.run(
            ["--no-copy", "--json"], stdin: .text(Self.text), answers: [.refused(), .created("https://b.test/p/1")])
        #expect(run.status == 0)
        #expect(
            run.err
                == "paste: m failed (cannot connect to m.test:443: connection refused): the text went to 'b' instead\n")
        #expect(run.requests.map(\.url) == ["https://m.test/upload", "https://b.test/upload"])
        #expect(run.requests.map(\.text) == [Self.text, Self.text])
        #expect(run.waits.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(object["service"] as? String == "b")
        #expect(object["url"] as? String == "https://b.test/p/1")
        #expect(try harness.history().map { $0["service"] as? String } == ["b"])
        #expect(try harness.outboxEntries().isEmpty)
        #expect(run.flushed == ["b"])
    }

    @Test("a 503 or a 429 falls back with the same title; the reason names the status", arguments: [503, 429])
    func statusFallsBack(_ status: Int) throws {
        try harness.writeConfig(harnessConfig(fallbacks: ["b"]))
        let run = try harness.run(
            ["--no-copy", "-t", "notes"], stdin: .text(Self.text),
            answers: [.http(status, body: "no"), .created("https://b.test/p/2")])
        #expect(run.status == 0)
        #expect(run.out == "https://b.test/p/2\n")
        #expect(run.err == "paste: m failed (m answered HTTP \(status)): the text went to 'b' instead\n")
        #expect(run.requests.map(\.url) == ["https://m.test/upload", "https://b.test/upload"])
        #expect(run.requests.map { $0.fields["title"] } == ["notes", "notes"])
        #expect(run.requests.last?.text == Self.text)
    }

    @Test(
        "what may have made a paste (or was refused) never reaches the fallback: held, its status and lines",
        arguments: [InProcessFault.all[0], InProcessFault.all[4], InProcessFault.all[3]])
    func heldNotFallenBack(_ row: InProcessFault) throws {
        try harness.writeConfig(harnessConfig(fallbacks: ["b"]))
        let run = try harness.run(["--no-copy"], stdin: .text(Self.text), answers: [row.answer])
        #expect(run.requests.map(\.url) == ["https://m.test/upload"])
        #expect(run.status == row.status)
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        #expect(
            run.err == "paste: \(row.message)\n\(whereLine(id: id, isHeld: true, isRefusal: row.isRefusal))\n")
        #expect(try harness.outboxStates() == ["held"])
    }

    @Test("a chain: each service once, in order; the reason gathers every failure")
    func chain() throws {
        try harness.writeConfig(harnessConfig(fallbacks: ["b", "c"]))
        let run = try harness.run(
            ["--no-copy"], stdin: .text(Self.text),
            answers: [.refused(), .http(503, body: "down too"), .created("https://c.test/p/3")])
        #expect(run.status == 0)
        #expect(run.out == "https://c.test/p/3\n")
        #expect(run.requests.map(\.url) == ["https://m.test/upload", "https://b.test/upload", "https://c.test/upload"])
        #expect(
            run.err
                == "paste: m failed (cannot connect to m.test:443: connection refused; b answered HTTP 503): "
                + "the text went to 'c' instead\n")
        #expect(try harness.history().map { $0["service"] as? String } == ["c"])
    }

    @Test("every service of the chain down: the first failure stands and the text waits for its own service")
    func allDown() throws {
        try harness.writeConfig(harnessConfig(fallbacks: ["b"]))
        let run = try harness.run(
            ["--no-copy"], stdin: .text(Self.text), answers: [.refused(), .http(503, body: "down too")])
        #expect(run.status == 75)
        let entry = try #require(try harness.outboxEntries().first)
        let id = try #require(entry["id"] as? String)
        #expect(entry["service"] as? String == "m")
        #expect(
            run.err == "paste: cannot connect to m.test:443: connection refused\n\(whereLine(id: id, isHeld: false))\n")
        #expect(run.requests.count == 2)
    }

    @Test("a loop of fallbacks tries each service once")
    func loop() throws {
        try harness.writeConfig(
            harnessConfig(fallbacks: ["b"]).replacingOccurrences(
                of: "url = https://b.test/upload\n", with: "url = https://b.test/upload\nfallback = m\n"))
        let run = try harness.run(
            ["--no-copy"], stdin: .text(Self.text), answers: [.refused(), .http(503, body: "down")])
        #expect(run.status == 75)
        #expect(run.requests.map(\.url) == ["https://m.test/upload", "https://b.test/upload"])
        // The text waits for its own service, under the first failure.
        let entry = try #require(try harness.outboxEntries().first)
        let id = try #require(entry["id"] as? String)
        #expect(entry["service"] as? String == "m")
        #expect(
            run.err == "paste: cannot connect to m.test:443: connection refused\n\(whereLine(id: id, isHeld: false))\n")
    }

    @Test("a private service never falls back to a public one, unless fallback-public names it")
    func privateStaysPrivate() throws {
        let secret = privateServiceSection
        try harness.writeConfig(harnessConfig() + secret)
        let down = ScriptedTransport.Answer.refused("secret")
        let kept = try harness.run(["--no-copy", "-S", "secret"], stdin: .text(Self.text), answers: [down])
        #expect(kept.status == 75)
        #expect(kept.requests.map(\.url) == ["https://secret.test/upload"])
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        #expect(kept.err == privateFallbackRefusedLines(id: id))

        try harness.writeConfig(harnessConfig() + secret + "fallback-public = m\n")
        let allowed = try harness.run(
            ["--no-copy", "-S", "secret"], stdin: .text("allowed to go\n"),
            answers: [down, .created("https://m.test/p/9")])
        #expect(allowed.status == 0, "stderr: \(allowed.err)")
        #expect(allowed.out == "https://m.test/p/9\n")
    }

    @Test("the same text again while the primary is down reuses the fallback's paste")
    func repeatAcrossFallback() throws {
        try harness.writeConfig(harnessConfig(fallbacks: ["b"]))
        let first = try harness.run(
            ["--no-copy"], stdin: .text(Self.text), answers: [.refused(), .created("https://b.test/p/4")])
        #expect(first.status == 0)
        let second = try harness.run(["--no-copy"], stdin: .text(Self.text))
        #expect(second.status == 0)
        #expect(second.out == "https://b.test/p/4\n")
        #expect(second.requests.isEmpty)
        #expect(second.err == "paste: the same text went to b moments ago; reusing its URL (--new makes another)\n")
    }

    @Test("with two files, the batch's refused one goes to the fallback alone")
    func batchFallsBack() throws {
        try harness.writeConfig(harnessConfig(fallbacks: ["b"]))
        let first = try home.write("one\n", to: "files/one.txt")
        let second = try home.write("two\n", to: "files/two.txt")
        let run = try harness.run(
            ["--no-copy", "-f", first, "-f", second],
            answers: [.created("https://m.test/p/one"), .refused(), .created("https://b.test/p/two")])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out == "https://m.test/p/one\nhttps://b.test/p/two\n")
        #expect(run.requests.map(\.url) == ["https://m.test/upload", "https://m.test/upload", "https://b.test/upload"])
        #expect(Set(try harness.history().compactMap { $0["service"] as? String }) == ["m", "b"])
    }
}
