import Foundation
import PasteCore
import SecretGuard
import Synchronization
import SystemInterop
import Testing
import TestSupport

@testable import Clipboard

/// Reads with an observer and a limit (`Clipboard.readContent(_:timeout:preferences:observer:)`): a large
/// selection is shown to the observer increment by increment, on the reading thread, with no
/// thread started; a small one is not observed at all; an owner that keeps sending is stopped
/// at the limit.
@Suite("Observed and limited reads", .tags(.x11), .needsXServer, .sharedXvfb, .serialized)
struct ObservedReadTests: ScopedSuite {
    static let timeout = Duration.seconds(10)

    /// A text read, a content read and one that prefers an image (which asks TARGETS first), of
    /// the clipboard, each named.
    static var readKinds: [(String, ReadRequest<Never>)] {
        [
            ("text", ReadRequest(.clipboard, timeout: timeout, acceptsImage: false)),
            ("content", ReadRequest(.clipboard, timeout: timeout)),
            (
                "image first",
                ReadRequest(.clipboard, timeout: timeout, preferences: ContentPreferences(prefersImage: true))
            ),
        ]
    }
    static let noLimit = ContentPreferences.defaultReadLimit

    /// What an observer saw: the pieces' sizes, the pieces joined, and the threads it ran on.
    struct Recording: Sendable {
        var pieces: [Int] = []
        var joined: [UInt8] = []
        var threads: Set<Int32> = []
    }

    static func recorder() -> TextObserver<Recording> {
        TextObserver(Recording()) { recording, piece in
            recording.pieces.append(piece.count)
            piece.withUnsafeBufferPointer { recording.joined += $0 }
            recording.threads.insert(CurrentProcess.currentThreadKernelID)
        }
    }

    /// The secret guard's scanner as paste makes it for a clipboard (lines placed after the
    /// read, over the text), with the sizes of the pieces it was fed.
    struct Scan: Sendable {
        var scanner = SecretGuard().makeScanner(countingLines: false)
        var pieces: [Int] = []
    }

    static func scanner() -> TextObserver<Scan> {
        TextObserver(Scan()) { scan, piece in
            scan.scanner.feed(piece)
            scan.pieces.append(piece.count)
        }
    }

    /// ASCII lines, exactly `count` bytes.
    static func filler(_ count: Int) -> [UInt8] {
        let line = Array("an ordinary line of the clipboard, nothing secret in it at all\n".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(count + line.count)
        while text.count < count { text += line }
        return Array(text[..<count])
    }

    /// What an observed read of CLIPBOARD on `server` gets: its text (an image fails the test)
    /// and the observation.
    static func read<State: Sendable>(
        on server: Xvfb, limit: Int = noLimit, observer: TextObserver<State>?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (text: [UInt8], observation: State?) {
        let read = try Selections.clipboard(server).read(
            ReadRequest(
                .clipboard, timeout: timeout, preferences: ContentPreferences(readLimit: limit), observer: observer))
        guard case .text(let text) = read.content else {
            Issue.record("an image, not text", sourceLocation: sourceLocation)
            return ([], nil)
        }
        return (text, read.observation)
    }

    static func putWithXclip(_ text: [UInt8], on server: Xvfb) throws {
        try Selections.startOwnerTool(
            ["/usr/bin/xclip", "-i", "-selection", "clipboard"], input: text, on: server, selection: .clipboard)
    }

    // MARK: - Observed

    @Test("xclip's large text is observed increment by increment, on the reading thread, with no thread started")
    func largeTextObserved() throws {
        let server = xvfb
        let text = Selections.text(size: 3 << 20)
        try Self.putWithXclip(text, on: server)
        let read = try Self.read(on: server, observer: Self.recorder())
        #expect(read.text == text)
        let recording = try #require(read.observation)
        #expect(recording.joined == text, "the pieces joined are the text, byte-exact")
        #expect(recording.pieces.count >= 2, "\(recording.pieces)")
        // Every piece was shown on this thread: the read started none for it. (The process's
        // thread count is no witness: the in-process suites run beside this one.)
        #expect(recording.threads == [CurrentProcess.currentThreadKernelID], "observed where the read runs")
        // The same text with no observer: the same bytes, nothing observed.
        let plain = try Self.read(on: server, observer: TextObserver<Recording>?.none)
        #expect(plain.text == text)
        #expect(plain.observation == nil)
    }

    @Test("the caller's work that needs no text runs once while xclip answers, on the reading thread")
    func whileOwnerAnswers() throws {
        let server = xvfb
        let text = Array("asked for, then read\n".utf8)
        try Self.putWithXclip(text, on: server)
        for (name, var request) in Self.readKinds {
            let threads = Mutex<[Int32]>([])
            request.whileOwnerAnswers = { threads.withLock { $0.append(CurrentProcess.currentThreadKernelID) } }
            let read = try Selections.clipboard(server).read(request)
            #expect(read.content == .text(text), "\(name)")
            #expect(threads.withLock { $0 } == [CurrentProcess.currentThreadKernelID], "\(name): once, here")
        }
    }

    @Test("secrets split across xclip's increments are found as in the whole text, at the same offsets")
    func secretsAcrossIncrements() throws {
        let server = xvfb
        // Where xclip's increments fall on this display: the pieces handed over are its
        // increments (each over `handOverBytes`).
        try Self.putWithXclip(Self.filler(3 << 20), on: server)
        let probe = try #require(
            try Self.read(on: server, observer: Self.recorder()).observation)
        try #require(probe.pieces.count >= 3, "\(probe.pieces)")
        let first = probe.pieces[0]
        let second = first + probe.pieces[1]
        // A GitHub token across the first boundary, an AWS key across the second, and one
        // more token in the last bytes (found only when the scan finishes).
        let token = Array("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".utf8)
        let key = Array("AKIAY026A4N7VAPKLNWR".utf8)
        let space = Array(" ".utf8)
        var text = Self.filler(first - 18) + space + token + space
        text += Self.filler(second - 10 - text.count) + space + key + space
        text += Self.filler((3 << 20) - 201 - text.count) + space + token + Array("\n".utf8)
        try Self.putWithXclip(text, on: server)

        let read = try Self.read(on: server, observer: Self.scanner())
        #expect(read.text == text)
        let scan = try #require(read.observation)
        #expect(Array(scan.pieces.prefix(2)) == Array(probe.pieces.prefix(2)), "split where the probe was")
        let findings = SecretGuard().findings(of: scan.scanner, in: read.text.span)
        #expect(findings == SecretGuard().scan(text), "offsets, lines and columns as in the whole text")
        #expect(findings.map(\.pattern) == [.gitHubToken, .awsAccessKeyID, .gitHubToken])
        #expect(findings.map(\.offset) == [first - 17, second - 9, (3 << 20) - 200])
    }

    @Test("STRING (Latin-1) in increments is observed as the UTF-8 the read returns")
    func latin1Observed() throws {
        let server = xvfb
        // Every Latin-1 byte, over and over: é and friends land on every piece boundary.
        let latin1 = (0..<(700 << 10)).map { UInt8(truncatingIfNeeded: $0 % 224 + 32) }
        let owner = try ScriptedOwner(on: server, answers: ["UTF8_STRING": .bytes(latin1, type: "STRING")])
        defer { owner.stop() }
        let read = try Self.read(on: server, observer: Self.recorder())
        let utf8 = try #require(String(data: Data(latin1), encoding: .isoLatin1))
        #expect(read.text == Array(utf8.utf8))
        let recording = try #require(read.observation)
        #expect(recording.joined == read.text)
        #expect(recording.pieces.count >= 2, "\(recording.pieces)")
    }

    @Test("a small clipboard (a hotkey's kilobyte) is not observed: the observer never runs")
    func smallNotObserved() throws {
        let server = xvfb
        let text = Selections.text(size: 1024)
        try Self.putWithXclip(text, on: server)
        let calls = Mutex(0)
        let observer = TextObserver(0) { _, _ in calls.withLock { $0 += 1 } }
        let read = try Self.read(on: server, observer: observer)
        #expect(read.text == text)
        #expect(read.observation == nil)
        #expect(calls.withLock { $0 } == 0)
        // Keeping the connection for the copy: the same.
        let kept = try Selections.clipboard(server).read(
            ReadRequest(.clipboard, timeout: Self.timeout, observer: observer, copyTarget: .clipboard))
        #expect(kept.content == .text(text))
        #expect(kept.observation == nil)
        #expect(kept.write != nil)
        #expect(calls.withLock { $0 } == 0)
    }

    // MARK: - The read limit

    @Test("an owner that sends text without end is stopped at the limit, observed or not", arguments: [false, true])
    func endlessTextStops(observed: Bool) throws {
        let server = xvfb
        let owner = try ScriptedOwner(on: server, answers: ["UTF8_STRING": .endless(type: "UTF8_STRING")])
        defer { owner.stop() }
        // 4 MiB: sixteen batches of 256 KiB before the limit, so the observer has surely run
        // when the read stops.
        let limit = 4 << 20
        #expect(limit / SelectionReader.handOverBytes > 1)
        let threads = Mutex<Set<Int32>>([])
        let observer = TextObserver(0) { count, piece in
            count += piece.count
            threads.withLock { _ = $0.insert(CurrentProcess.currentThreadKernelID) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: ClipboardError.self) {
            try Self.read(on: server, limit: limit, observer: observed ? observer : nil)
        }
        #expect(error == .exceedsLimit(.clipboard, limit: limit))
        #expect(error?.kind == .badInput)
        #expect(error?.detail == "the clipboard holds more than 4 MiB")
        // Stopped by the limit, not by a deadline.
        #expect(clock.now - start < Self.timeout)
        let seen = threads.withLock { $0 }
        #expect(seen == (observed ? [CurrentProcess.currentThreadKernelID] : []), "observed on the reading thread")
    }

    @Test("readContent keeps the read limit for text, and for an image when it is below the image limit")
    func contentReadLimit() throws {
        let server = xvfb
        let limit = 1 << 20
        for (target, type) in [("UTF8_STRING", "UTF8_STRING"), ("image/png", "image/png")] {
            let owner = try ScriptedOwner(on: server, answers: [target: .endless(type: type)])
            defer { owner.stop() }
            #expect(throws: ClipboardError.exceedsLimit(.clipboard, limit: limit), "\(type)") {
                try Selections.clipboard(server).readContent(
                    .clipboard, timeout: Self.timeout,
                    preferences: ContentPreferences(imageLimit: 4 * limit, readLimit: limit))
            }
        }
    }

    @Test("a reply in one piece over the limit is refused too; one at the limit is read")
    func oneReplyLimit() throws {
        let server = xvfb
        let text = Self.filler(40_000)
        let owner = try ScriptedOwner(on: server, answers: ["UTF8_STRING": .bytes(text, type: "UTF8_STRING")])
        defer { owner.stop() }
        #expect(throws: ClipboardError.exceedsLimit(.clipboard, limit: text.count - 1)) {
            try Self.read(on: server, limit: text.count - 1, observer: Self.recorder())
        }
        let read = try Self.read(on: server, limit: text.count, observer: Self.recorder())
        #expect(read.text == text)
    }

    @Test("the limit's message names sizes in binary units when they are whole")
    func limitMessage() {
        #expect(
            ClipboardError.exceedsLimit(.clipboard, limit: 1 << 30).detail == "the clipboard holds more than 1 GiB")
        #expect(
            ClipboardError.exceedsLimit(.primary, limit: 64 << 10).detail
                == "the primary selection holds more than 64 KiB")
        #expect(
            ClipboardError.exceedsLimit(.clipboard, limit: 1000).detail == "the clipboard holds more than 1000 bytes")
    }

    @Test("paste with a small max-clipboard stops an endless owner: exit 65 and one line naming the setting")
    func pasteStopsEndlessOwner() throws {
        let server = xvfb
        let owner = try ScriptedOwner(on: server, answers: ["UTF8_STRING": .endless(type: "UTF8_STRING")])
        defer { owner.stop() }
        let home = try TemporaryHome()
        try home.write("[paste]\n    max-clipboard = 1M\n", to: "config/paste/config")
        var environment = home.environment()
        environment["DISPLAY"] = server.display
        environment["XAUTHORITY"] = server.environment["XAUTHORITY"]
        for extra in [[String](), ["--force"]] {
            let result = try runProcess(
                Selections.pasteExecutable,
                ["-c", "-n", "--no-notify", "--url", "http://127.0.0.1:9/pastes/create"] + extra,
                environment: environment, timeout: 60)
            #expect(result.status == 65, "\(extra): \(result.err)")
            #expect(
                result.err == "paste: the clipboard holds more than 1 MiB; paste reads at most max-clipboard = 1M\n")
            #expect(result.out.isEmpty)
        }
    }
}
