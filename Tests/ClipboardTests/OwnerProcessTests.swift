import Foundation
import Synchronization
import Testing
import TestSupport
import X11Interop

@testable import Clipboard

/// The detached selection owner: it outlives `write`, holds none of the caller's stdio, leaves
/// when another client takes the selection, and hands off to a clipboard manager.
@Suite("Detached selection owner", .tags(.x11), .needsXServer, .sharedXvfb, .serialized)
struct OwnerProcessTests: ScopedSuite {
    @Test("write returns while the helper keeps owning, with stdio on /dev/null")
    func writeReturnsWhileHelperOwns() throws {
        let text = Array("owned by the helper ✓".utf8)
        let pid = try Selections.clipboard(xvfb).startOwner(of: text, for: .clipboard)
        #expect(!Selections.hasExited(pid))
        #expect(try Selections.readWithTool(["/usr/bin/xclip", "-o", "-selection", "clipboard"], on: xvfb) == text)
        try waitUntil("the helper to let go of the caller's stdio") {
            (0...2).allSatisfy {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == "/dev/null"
            }
        }
        #expect(getsid(pid) == pid, "the helper leads its own session")
        #expect(!Selections.hasExited(pid))
    }

    @Test("the helper exits when another client takes the selection", arguments: Selection.allCases)
    func helperExitsOnSelectionClear(selection: Selection) throws {
        let pid = try Selections.clipboard(xvfb).startOwner(of: Array("first".utf8), for: selection)
        #expect(!Selections.hasExited(pid))
        try Selections.startOwnerTool(
            ["/usr/bin/xclip", "-i"] + xclipSelection(selection), input: Array("second".utf8), on: xvfb,
            selection: selection)
        try waitUntil("the helper to exit") { Selections.hasExited(pid) }
        #expect(try Selections.clipboard(xvfb).read(selection) == Array("second".utf8))
    }

    @Test("the helper hands the text to a clipboard manager and exits; the text stays readable")
    func handOffToClipboardManager() throws {
        let manager = try TestClipboardManager(displayName: xvfb.display)
        defer { manager.stop() }
        let text = Array("saved by the manager — ✓".utf8)
        let pid = try Selections.clipboard(xvfb).startOwner(of: text, for: .clipboard)
        try waitUntil("the helper to exit after the hand-off") { Selections.hasExited(pid) }
        try waitUntil("the manager to own CLIPBOARD") { manager.ownsClipboard }
        #expect(manager.savedText == text)
        #expect(try Selections.clipboard(xvfb).read(.clipboard) == text)
    }
}

/// A minimal clipboard manager (freedesktop ClipboardManager spec), on its own thread and
/// connection: it owns CLIPBOARD_MANAGER; on SAVE_TARGETS it reads CLIPBOARD, answers, and once
/// the old owner is gone takes CLIPBOARD itself and serves the saved text (TARGETS, UTF8_STRING).
final class TestClipboardManager: Sendable {
    private struct State {
        var isStopping = false
        var savedText: [UInt8]?
        var ownsClipboard = false
        var failure: String?
    }
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)
    private let ready = DispatchSemaphore(value: 0)

    init(displayName: String) throws {
        Thread.detachNewThread { [self] in
            run(displayName: displayName)
            finished.signal()
        }
        if ready.wait(timeout: .now() + 10) == .timedOut { throw ManagerFailed(reason: "did not start") }
        if let failure = state.withLock({ $0.failure }) { throw ManagerFailed(reason: failure) }
    }

    var savedText: [UInt8]? { state.withLock { $0.savedText } }
    var ownsClipboard: Bool { state.withLock { $0.ownsClipboard } }

    func stop() {
        state.withLock { $0.isStopping = true }
        _ = finished.wait(timeout: .now() + 10)
    }

    private func run(displayName: String) {
        let display: Display
        do { display = try Display(name: displayName) } catch {
            state.withLock { $0.failure = "manager cannot open \(displayName)" }
            ready.signal()
            return
        }
        let window = display.createWindow(events: .propertyChange)
        let names = ["CLIPBOARD_MANAGER", "SAVE_TARGETS", "CLIPBOARD", "TARGETS", "UTF8_STRING", "ATOM"]
        let atoms = Dictionary(uniqueKeysWithValues: zip(names, display.atoms(names)))
        guard let time = try? display.serverTime(using: window, before: .now + .seconds(5)) else {
            state.withLock { $0.failure = "manager got no timestamp" }
            ready.signal()
            return
        }
        display.setSelectionOwner(atoms["CLIPBOARD_MANAGER"]!, to: window, at: time)
        ready.signal()
        var isWaitingForOwnerToLeave = false
        while !state.withLock({ $0.isStopping }) {
            if isWaitingForOwnerToLeave, display.selectionOwner(atoms["CLIPBOARD"]!) == nil,
                let now = try? display.serverTime(using: window, before: .now + .seconds(5))
            {
                display.setSelectionOwner(atoms["CLIPBOARD"]!, to: window, at: now)
                isWaitingForOwnerToLeave = false
                state.withLock { $0.ownsClipboard = display.selectionOwner(atoms["CLIPBOARD"]!) == window }
            }
            guard case .selectionRequest(let request)? = display.nextEvent(before: .now + .milliseconds(20)) else {
                continue
            }
            var answered: Atom?
            if request.selection == atoms["CLIPBOARD_MANAGER"], request.target == atoms["SAVE_TARGETS"] {
                // Save: read CLIPBOARD (on another connection) as any requestor would.
                let saved = try? X11Clipboard(displayName: displayName, helperExecutable: "/nonexistent")
                    .read(.clipboard, timeout: .seconds(5))
                state.withLock { $0.savedText = saved }
                if saved != nil {
                    answered = request.property
                    isWaitingForOwnerToLeave = true
                }
            } else if request.selection == atoms["CLIPBOARD"], let saved = savedText {
                if request.target == atoms["TARGETS"] {
                    display.changeProperty(
                        request.property, of: request.requestor, type: atoms["ATOM"]!,
                        atoms: [atoms["TARGETS"]!, atoms["UTF8_STRING"]!])
                    answered = request.property
                } else if request.target == atoms["UTF8_STRING"] {
                    display.changeProperty(
                        request.property, of: request.requestor, type: request.target, bytes: saved[...])
                    answered = request.property
                }
            }
            display.sendSelectionNotify(
                to: request.requestor, selection: request.selection, target: request.target, property: answered,
                time: request.time)
            display.flush()
        }
        display.close()
    }
}

/// The test clipboard manager could not start.
struct ManagerFailed: Error {
    var reason: String
}
