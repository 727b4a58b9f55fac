import Foundation
import PasteCore
@testable import Stores
import SystemInterop
import TestSupport
import Testing

/// The hotkey's look for a background flush (`Outbox.servicesWaiting`): the services the full
/// listing would send something for, found without a lock, a change or a content read.
@Suite("Outbox: the look for a background flush", .temporaryHome)
struct OutboxGlanceTests: OutboxInAHome {
    func metadata(_ service: String, url: String? = nil) -> OutboxEntry.Metadata {
        OutboxEntry.Metadata(service: service, serviceURL: url, created: .distantPast)
    }

    /// What the full listing says (no recovery pass), as `OutboxFlush.launch` used to ask it.
    func sendable(among services: Set<String>) throws -> Set<String> {
        let items = try outbox.listing(recovering: false).items
        return Set(
            items.filter { $0.isSendable && $0.entry.metadata.serviceURL == nil }.map(\.entry.metadata.service)
        ).intersection(services)
    }

    @Test("no folder, an empty folder: nothing waits")
    func nothing() throws {
        #expect(outbox.servicesWaiting(among: ["a"]).isEmpty)
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(outbox.servicesWaiting(among: ["a"]).isEmpty)
        #expect(try files().isEmpty)
    }

    @Test(
        "held, ad-hoc, cut short, dead in flight, other services: only a whole retryable entry of a named service waits"
    )
    func onlyRetryable() throws {
        // Held: the server may have made it.
        try outbox.create(metadata("held"), content: Array("h".utf8)).recordPasted(
            url: "https://example.invalid/1", deletion: nil, message: "history full")
        // Retryable, for the service asked about.
        _ = try outbox.create(metadata("b"), content: Array("b".utf8))
        // Retryable, but an ad-hoc --url upload: `--retry` sends it, the flush does not.
        _ = try outbox.create(metadata("url", url: "http://127.0.0.1:9/"), content: Array("u".utf8))
        // Retryable, not whole: its content is longer than recorded.
        let cut = try outbox.create(metadata("cut"), content: Array("c".utf8)).entry
        let handle = try #require(FileHandle(forWritingAtPath: cut.contentPath))
        handle.seekToEndOfFile()
        handle.write(Data("more".utf8))
        handle.closeFile()
        // In flight when its run died: settled (held) only by a recovery pass.
        _ = try outbox.create(metadata("flying"), content: Array("f".utf8), inFlight: true)
        // Retryable, for a service nobody asked about.
        _ = try outbox.create(metadata("other"), content: Array("o".utf8))
        let before = try files()
        let asked: Set<String> = ["held", "b", "url", "cut", "flying", "absent"]
        #expect(outbox.servicesWaiting(among: asked) == ["b"])
        #expect(try sendable(among: asked) == ["b"], "the full listing agrees")
        #expect(outbox.servicesWaiting(among: ["other", "b"]) == ["other", "b"])
        #expect(outbox.servicesWaiting(among: ["held"]).isEmpty)
        // The look settles nothing: the dead in-flight entry is still in flight.
        #expect(try files() == before)
        #expect(try outbox.listing(recovering: false).items.contains { $0.state == .inFlight })
    }

    @Test("an entry a live run holds counts as waiting: the flush claims under the lock and skips it")
    func busyCounts() throws {
        let claim = try outbox.create(metadata("b"), content: Array("b".utf8))
        #expect(outbox.servicesWaiting(among: ["b"]) == ["b"])
        #expect(try sendable(among: ["b"]).isEmpty, "the full listing sees the lock")
        withExtendedLifetime(claim) {}
    }

    @Test("an entry from before states and lengths is retryable and whole, as the listing reads it")
    func legacyEntry() throws {
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let name = "1738324800000-0000"
        try Data("old text".utf8).write(to: URL(fileURLWithPath: folder + "/" + name + ".content"))
        let json = #"{"service":"old","private":false,"created":"2025-01-31T12:00:00Z","attempts":0}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/" + name + ".json"))
        #expect(outbox.servicesWaiting(among: ["old"]) == ["old"])
        #expect(try sendable(among: ["old"]) == ["old"])
    }

    @Test("metadata that does not decode, or a content that is a link: nothing waits")
    func brokenEntries() throws {
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/1738324800000-0000.content"))
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: folder + "/1738324800000-0000.json"))
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/1738324800000-0001.content", withDestinationPath: "/etc/hostname")
        let json = #"{"service":"a","private":false,"created":"2025-01-31T12:00:00Z","attempts":0,"bytes":1}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/1738324800000-0001.json"))
        #expect(outbox.servicesWaiting(among: ["a"]).isEmpty)
    }
}

@Suite("Outbox: which metadata the look decodes")
struct OutboxGlanceBytesTests {
    @Test(
        "metadata is decoded when it says retryable or has no state key; a held entry's is skipped from its bytes",
        arguments: [
            (#"{"service":"a","state":"retryable","attempts":0}"#, true),
            ("{\n  \"attempts\" : 1,\n  \"state\" : \"held\"\n}", false),
            (#"{"state":"in-flight","service":"a"}"#, false),
            (#"{"service":"a","attempts":0}"#, true),
            // A title that is the key's word is a value, not the key: still read as retryable.
            (#"{"title":"state","attempts":0}"#, true),
            (#"{"title":"state", "state" :"held"}"#, false),
            // The word anywhere lets it through to the decoding, which decides.
            (#"{"state":"held","last_error":"not retryable"}"#, true),
        ])
    func mayBeRetryable(json: String, expected: Bool) {
        #expect(Outbox.Glance.mayBeRetryable(Array(json.utf8)) == expected)
    }
}

@Suite("AtomicFile: a read with a limit")
struct AtomicFileLimitedReadTests {
    @Test("the whole of a small file, the first `limit` bytes of a larger one, nil for none")
    func limitedRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paste-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("small").path
        let large = folder.appendingPathComponent("large").path
        try Data("{\"state\":\"held\"}".utf8).write(to: URL(fileURLWithPath: small))
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        try Data(bytes).write(to: URL(fileURLWithPath: large))
        #expect(try AtomicFile.read(small, limit: 1 << 20) == Array("{\"state\":\"held\"}".utf8))
        #expect(try AtomicFile.read(large, limit: 100_000) == Array(bytes[..<100_000]))
        #expect(try AtomicFile.read(large, limit: 300_000) == bytes)
        #expect(try AtomicFile.read(large) == bytes)
        #expect(try AtomicFile.read(folder.appendingPathComponent("none").path, limit: 10) == nil)
    }
}
