import Foundation
import Testing
import TestSupport

/// What the built `paste` asks of a selection owner, seen from the owner's side: the hotkey's
/// text path must stay one conversion (UTF8_STRING) now that `paste` reads images too, and
/// `--image` must ask for the image (TARGETS, then the image) and upload it byte-exact.
///
/// Here rather than in PasteCLITests because the owner that offers text and an image at once,
/// and records what it is asked, is this target's `ScriptedOwner` (xclip offers one type only).
@Suite(
    "paste's reads of text and images, seen by the owner", .tags(.x11), .needsXServer, .xvfb, .temporaryHome, .mock,
    .serialized)
struct PasteReadTargetsTests: ScopedSuite {
    /// The config: paste-mock's pastie route as the usual service, its 0x0 route for images.
    func writeConfig() throws {
        try home.write(
            """
            [paste]
                service = pastie
                image-service = 0x0
            [service "pastie"]
                url = \(mock.url("/pastes/create"))
                content-field = paste[body]
                field = paste[authorization]=burger
            [service "0x0"]
                url = \(mock.url("/0x0/"))

            """, to: "config/paste/config")
    }

    /// Runs the built `paste` as a launcher would (stdin /dev/null, no terminal) on the test's display.
    func runPaste(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(
            BuiltProducts.path(of: "paste"), ["--no-notify"] + arguments, input: .null,
            environment: home.environment(["DISPLAY": xvfb.display, "WAYLAND_DISPLAY": nil, "NO_COLOR": "1"]),
            timeout: 60)
    }

    @Test("text and an image on the clipboard: text wins, asked as UTF8_STRING (TARGETS in the same round trip)")
    func textWinsInOneStep() throws {
        try writeConfig()
        let text = Array("a caption beside the picture\n".utf8)
        let png = try TestImages.smallPNG()
        let owner = try ScriptedOwner(
            on: xvfb,
            answers: ["UTF8_STRING": .bytes(text, type: "UTF8_STRING"), "image/png": .bytes(png, type: "image/png")])
        defer { owner.stop() }
        let result = try runPaste([])
        #expect(result.status == 0, "stderr: \(result.err)")
        // TARGETS goes out with UTF8_STRING (the password manager's mark is among the targets),
        // so the hotkey's read is still one round trip.
        #expect(owner.requestedTargets == ["TARGETS", "UTF8_STRING"])
        let url = result.out.trimmingCharacters(in: .newlines)
        let id = try #require(url.split(separator: "/").last.flatMap { Int($0) }, "\(url)")
        #expect(try mock.rawPaste(id: id) == Data(text))
        #expect(try xvfb.clipboardText() == url)
    }

    @Test("--image: TARGETS, then the image; it goes to image-service byte-exact and its URL is copied")
    func imageWhenAsked() throws {
        try writeConfig()
        let png = try TestImages.noisePNG(side: 400)
        let owner = try ScriptedOwner(
            on: xvfb,
            answers: [
                "UTF8_STRING": .bytes(Array("caption".utf8), type: "UTF8_STRING"),
                "image/png": .bytes(png, type: "image/png"),
            ])
        defer { owner.stop() }
        let result = try runPaste(["--image"])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(owner.requestedTargets == ["TARGETS", "image/png"])
        let url = result.out.trimmingCharacters(in: .newlines)
        let served = try mock.fetch(url: url)
        #expect(served.body == Data(png))
        #expect(served.header("Content-Type") == "image/png")
        #expect(try xvfb.clipboardText() == url)
    }

    @Test("an owner that refuses every request: 65 and what it refused, nothing sent")
    func refusal() throws {
        try writeConfig()
        let owner = try ScriptedOwner(on: xvfb, answers: [:], refusesTargets: true)
        defer { owner.stop() }
        let result = try runPaste([])
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: the program holding the clipboard would not hand it over (asked for UTF8_STRING, TARGETS, STRING)\n"
        )
        #expect(result.status == 65)
        #expect(try mock.posts().isEmpty)
    }

    @Test("an owner that answers UTF8_STRING with INTEGER data: 65 and what it did")
    func integerReply() throws {
        try writeConfig()
        let integer = ScriptedOwner.Answer.bytes([1, 0, 0, 0], type: "INTEGER")
        let owner = try ScriptedOwner(on: xvfb, answers: ["TARGETS": integer], answeringEveryTarget: integer)
        defer { owner.stop() }
        let result = try runPaste([])
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: the program holding the clipboard answered a request for text (UTF8_STRING) with INTEGER data\n"
        )
        #expect(result.status == 65)
    }

    /// What the outbox holds (nothing, after a failed read).
    func outboxEntries() -> [String] {
        let folder = home.stateHome.appendingPathComponent("paste/outbox")
        return (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    @Test("an owner that trickles INCR without end: stopped after clipboard-timeout, what it did, 69, nothing sent")
    func tricklingOwner() throws {
        try writeConfig()
        // Issue 29, finding 8: 1 KiB every 0.2 s, never the end, each piece inside the deadline.
        let owner = try ScriptedOwner(
            on: xvfb,
            answers: ["UTF8_STRING": .trickle(type: "UTF8_STRING", chunk: 1024, interval: .milliseconds(200))])
        defer { owner.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let result = try runPaste([])
        #expect(clock.now - start < .seconds(10))
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: the program holding the clipboard sent it too slowly (under 64 KiB/s after 2 s); reading stopped\n"
        )
        #expect(result.status == 69)
        #expect(try mock.posts().isEmpty)
        #expect(outboxEntries().isEmpty)
    }

    @Test("an owner that never answers: 69, not 75, since nothing waits in the outbox")
    func silentOwner() throws {
        try writeConfig()
        try home.write(
            try String(contentsOf: home.configHome.appendingPathComponent("paste/config"), encoding: .utf8)
                .replacingOccurrences(of: "[paste]\n", with: "[paste]\n    clipboard-timeout = 0.5\n"),
            to: "config/paste/config")
        let owner = try ScriptedOwner(
            on: xvfb, answers: ["UTF8_STRING": .trickle(type: "UTF8_STRING", chunk: 1024, interval: .seconds(60))])
        defer { owner.stop() }
        let result = try runPaste([])
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: the program holding the clipboard did not hand it over within 0.5 s; copy it again, or allow "
                + "longer with clipboard-timeout\n")
        #expect(result.status == 69)
        #expect(try mock.posts().isEmpty)
        #expect(outboxEntries().isEmpty)
    }
}
