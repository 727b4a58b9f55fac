import Foundation
import SystemInterop
import Testing
import TestSupport
import X11Interop

@testable import Clipboard

/// How reading fails: no owner, an owner with no text, an owner that never answers.
@Suite("Reading failures", .tags(.x11), .needsXServer, .sharedXvfb, .serialized)
struct ReaderFailureTests: ScopedSuite {
    @Test("no owner reads as empty", arguments: Selection.allCases)
    func noOwnerIsEmpty(selection: Selection) throws {
        try Selections.clear(selection, on: xvfb)
        #expect(throws: ClipboardError.empty(selection)) {
            try Selections.clipboard(xvfb).read(selection)
        }
    }

    @Test("an image-only owner is noTextTarget naming image/png")
    func imageOnlyOwner() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]
        try Selections.startOwnerTool(
            ["/usr/bin/xclip", "-i", "-selection", "clipboard", "-t", "image/png"], input: png, on: xvfb,
            selection: .clipboard)
        let error = #expect(throws: ClipboardError.self) { try Selections.clipboard(xvfb).read(.clipboard) }
        guard case .noTextTarget(.clipboard, let available)? = error else {
            Issue.record("expected noTextTarget, got \(String(describing: error))")
            return
        }
        #expect(available.contains("image/png"))
        #expect(!available.contains("TARGETS"))
        #expect(error?.kind == .badInput)
    }

    @Test("an owner that refuses UTF8_STRING, TARGETS and STRING is a refusal naming them, not an empty clipboard")
    func refusingOwner() throws {
        let owner = try ScriptedOwner(on: xvfb, answers: [:], refusesTargets: true)
        defer { owner.stop() }
        let error = #expect(
            throws: ClipboardError.ownerRefused(.clipboard, targets: ["UTF8_STRING", "TARGETS", "STRING"])
        ) {
            try Selections.clipboard(xvfb).read(.clipboard)
        }
        #expect(error?.kind == .badInput)
        #expect(
            error?.message
                == "the program holding the clipboard would not hand it over (asked for UTF8_STRING, TARGETS, STRING)")
        // TARGETS and UTF8_STRING share a round trip; the message keeps the order of the steps.
        #expect(owner.requestedTargets == ["TARGETS", "UTF8_STRING", "STRING"])
    }

    @Test("an owner that answers UTF8_STRING with INTEGER data is told as that", arguments: [false, true])
    func nonTextReply(answersEveryTargetSo: Bool) throws {
        let integer = ScriptedOwner.Answer.bytes([1, 0, 0, 0], type: "INTEGER")
        // Either it lists UTF8_STRING in TARGETS, or it answers TARGETS itself with INTEGER
        // data (and STRING, asked blind then, too).
        let owner =
            answersEveryTargetSo
            ? try ScriptedOwner(on: xvfb, answers: ["TARGETS": integer], answeringEveryTarget: integer)
            : try ScriptedOwner(on: xvfb, answers: ["UTF8_STRING": integer])
        defer { owner.stop() }
        let error = #expect(throws: ClipboardError.nonTextReply(.clipboard, target: "UTF8_STRING", type: "INTEGER")) {
            try Selections.clipboard(xvfb).read(.clipboard)
        }
        #expect(error?.kind == .badInput)
        #expect(
            error?.message
                == "the program holding the clipboard answered a request for text (UTF8_STRING) with INTEGER data")
    }

    @Test("an owner that answers with zero bytes is an empty clipboard")
    func zeroBytes() throws {
        let owner = try ScriptedOwner(on: xvfb, answers: ["UTF8_STRING": .bytes([], type: "UTF8_STRING")])
        defer { owner.stop() }
        #expect(throws: ClipboardError.empty(.clipboard)) { try Selections.clipboard(xvfb).read(.clipboard) }
    }

    @Test("an owner that never answers times out within the deadline")
    func stuckOwnerTimesOut() throws {
        // Takes CLIPBOARD and then never reads its events.
        let stuck = try Display(name: xvfb.display)
        defer { stuck.close() }
        let window = stuck.createWindow(events: .propertyChange)
        let time = try stuck.serverTime(using: window, before: .now + .seconds(5))
        stuck.setSelectionOwner(stuck.atom("CLIPBOARD"), to: window, at: time)
        try stuck.sync()

        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: ClipboardError.timedOut(.clipboard, seconds: 0.5)) {
            try Selections.clipboard(xvfb).read(.clipboard, timeout: .milliseconds(500))
        }
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(500))
        #expect(elapsed < .seconds(2))
    }

    @Test("an owner that trickles INCR without end is stopped by the pace, not held for as long as it lives")
    func tricklingOwnerIsStopped() throws {
        // 1 KiB every 0.1 s: each increment well inside the deadline per wait (issue 29, finding 8).
        let owner = try ScriptedOwner(
            on: xvfb,
            answers: ["UTF8_STRING": .trickle(type: "UTF8_STRING", chunk: 1024, interval: .milliseconds(100))])
        defer { owner.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: ClipboardError.tooSlow(.clipboard, seconds: 0.5, minimumRate: 64 << 10)) {
            try Selections.clipboard(xvfb).read(.clipboard, timeout: .milliseconds(500))
        }
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(500))
        #expect(elapsed < .seconds(2))
        #expect(error?.kind == .unavailable)
        #expect(
            error?.message
                == "the program holding the clipboard sent it too slowly (under 64 KiB/s after 0.5 s); reading stopped")
        #expect(owner.requestedTargets == ["TARGETS", "UTF8_STRING"])
    }

    @Test("an INCR owner that sends no increment did not answer: a stall, not a trickle")
    func stalledIncrementsTimeOut() throws {
        // The first increment only after far longer than the deadline.
        let owner = try ScriptedOwner(
            on: xvfb, answers: ["UTF8_STRING": .trickle(type: "UTF8_STRING", chunk: 1024, interval: .seconds(30))])
        defer { owner.stop() }
        #expect(throws: ClipboardError.timedOut(.clipboard, seconds: 0.5)) {
            try Selections.clipboard(xvfb).read(.clipboard, timeout: .milliseconds(500))
        }
    }

    @Test("no display and an unreachable display are told apart")
    func displayErrors() {
        #expect(throws: ClipboardError.noDisplay) {
            try X11Clipboard(displayName: nil, helperExecutable: "/bin/false").read(.clipboard)
        }
        #expect(throws: ClipboardError.cannotOpenDisplay(name: ":4242")) {
            try X11Clipboard(displayName: ":4242", helperExecutable: "/bin/false").read(.clipboard)
        }
    }

    @Test("a helper that cannot start is reported, not hung on")
    func helperCannotStart() throws {
        let clipboard = X11Clipboard(displayName: xvfb.display, helperExecutable: "/nonexistent/paste")
        #expect(
            throws: ClipboardError.helperFailed(.cannotSpawn(path: "/nonexistent/paste", errno: .noSuchFileOrDirectory))
        ) {
            try clipboard.write(Array("x".utf8), to: .clipboard)
        }
        let exits = X11Clipboard(displayName: xvfb.display, helperExecutable: "/bin/true")
        #expect(throws: ClipboardError.self) { try exits.write(Array("x".utf8), to: .clipboard) }
    }
}
