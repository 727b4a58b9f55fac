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

    @Test("a secret's write says the mark is offered, and the owner lists it beside the text")
    func secretMarked() throws {
        let url = Array("https://privatebin.example/?f468483c313401e8#9qWEnKDF2ktaWzZMhXW7o4".utf8)
        let write = try Selections.clipboard(xvfb).prepareWrite(to: .clipboard)
        #expect(try write.complete(with: url, isSecret: true) == .offered)
        let targets = try Selections.readWithTool(
            ["/usr/bin/xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"], on: xvfb)
        #expect(String(decoding: targets, as: UTF8.self).contains(PasswordManagerHint.name))
        let plain = try Selections.clipboard(xvfb).prepareWrite(to: .clipboard)
        #expect(try plain.complete(with: Array("plain".utf8), isSecret: false) == .notAsked)
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

    @Test(
        "clear leaves the selection with no owner: the helper exits and a read finds it empty",
        arguments: Selection.allCases)
    func clearEmpties(selection: Selection) throws {
        let pid = try Selections.clipboard(xvfb).startOwner(of: Array("a dead link".utf8), for: selection)
        #expect(!Selections.hasExited(pid))
        try ClipboardBackend.x11(displayName: xvfb.display).clear(selection, environment: xvfb.environment)
        try waitUntil("the helper to exit") { Selections.hasExited(pid) }
        #expect(throws: ClipboardError.empty(selection)) { try Selections.clipboard(xvfb).read(selection) }
    }

    @Test("the helper hands the text to a clipboard manager and exits; the text stays readable")
    func handOffToClipboardManager() throws {
        let manager = try TestClipboardManager(displayName: xvfb.display)
        defer { manager.stop() }
        let text = Array("saved by the manager — ✓".utf8)
        let pid = try Selections.clipboard(xvfb).startOwner(of: text, for: .clipboard)
        try waitUntil("the helper to exit after the hand-off") { Selections.hasExited(pid) }
        #expect(manager.ownsClipboard)
        #expect(manager.savedText == text)
        #expect(manager.clipboardRequests == ["UTF8_STRING"], "the helper asked the manager once for the text")
        #expect(try Selections.clipboard(xvfb).read(.clipboard) == text)
    }

    @Test("a manager that says yes and keeps nothing (wlroots' XWayland): the helper stays owner and serves")
    func lyingClipboardManager() throws {
        let manager = try TestClipboardManager(displayName: xvfb.display, behaviour: .saysYesKeepsNothing)
        defer { manager.stop() }
        let text = Array("https://paste.example/lost-no-more".utf8)
        let pid = try Selections.clipboard(xvfb).startOwner(of: text, for: .clipboard)
        // The yes reached the server before xclip's request does, so the helper reads it first.
        try waitUntil("the manager to say it saved the text") { manager.answers > 0 }
        #expect(try readWithDeadline(["/usr/bin/xclip", "-o", "-selection", "clipboard"]) == text)
        #expect(try readWithDeadline(["/usr/bin/xsel", "-b", "-o"]) == text)
        #expect(!Selections.hasExited(pid), "still the owner until another client takes the selection")
        try Selections.startOwnerTool(
            ["/usr/bin/xclip", "-i", "-selection", "clipboard"], input: Array("next".utf8), on: xvfb,
            selection: .clipboard)
        try waitUntil("the helper to exit once another client owns the clipboard") { Selections.hasExited(pid) }
    }

    @Test("a manager that takes the selection and cannot serve the text: the helper takes it back and serves")
    func emptyHandedClipboardManager() throws {
        let manager = try TestClipboardManager(displayName: xvfb.display, behaviour: .takesSelectionServesNothing)
        defer { manager.stop() }
        let text = Array("https://paste.example/taken-back".utf8)
        let pid = try Selections.clipboard(xvfb).startOwner(of: text, for: .clipboard)
        try waitUntil("the manager to say it saved the text") { manager.answers > 0 }
        try waitUntil("the helper to own the clipboard again") { !manager.ownsClipboardNow }
        #expect(try readWithDeadline(["/usr/bin/xclip", "-o", "-selection", "clipboard"]) == text)
        #expect(manager.clipboardRequests == ["UTF8_STRING"], "asked once, then taken back")
        #expect(!Selections.hasExited(pid))
        try Selections.startOwnerTool(
            ["/usr/bin/xclip", "-i", "-selection", "clipboard"], input: Array("next".utf8), on: xvfb,
            selection: .clipboard)
        try waitUntil("the helper to exit") { Selections.hasExited(pid) }
    }

    @Test("a manager that takes the selection serving other text (a bridge's later copy): the helper lets it go")
    func managerCarryingLaterCopy() throws {
        let manager = try TestClipboardManager(displayName: xvfb.display, behaviour: .takesSelectionServesOther)
        defer { manager.stop() }
        let pid = try Selections.clipboard(xvfb).startOwner(of: Array("https://paste.example/1".utf8), for: .clipboard)
        try waitUntil("the manager to say it saved the text") { manager.answers > 0 }
        try waitUntil("the helper to exit") { Selections.hasExited(pid) }
        #expect(manager.ownsClipboardNow)
        #expect(
            try readWithDeadline(["/usr/bin/xclip", "-o", "-selection", "clipboard"]) == TestClipboardManager.otherText)
    }

    @Test("a manager that serves a part of the text: the helper takes it back and serves the whole")
    func managerSavingPart() throws {
        let manager = try TestClipboardManager(displayName: xvfb.display, behaviour: .savesPart)
        defer { manager.stop() }
        let text = Array("https://paste.example/whole-url".utf8)
        let pid = try Selections.clipboard(xvfb).startOwner(of: text, for: .clipboard)
        try waitUntil("the manager to say it saved the text") { manager.answers > 0 }
        try waitUntil("the helper to own the clipboard again") { !manager.ownsClipboardNow }
        #expect(try readWithDeadline(["/usr/bin/xclip", "-o", "-selection", "clipboard"]) == text)
        #expect(!Selections.hasExited(pid))
    }

    /// Runs a reading tool with a deadline well under the tests' own: a helper that left would
    /// leave xclip waiting for an answer that never comes.
    func readWithDeadline(_ arguments: [String]) throws -> [UInt8] {
        let result = try runProcess(
            arguments[0], Array(arguments.dropFirst()), environment: xvfb.environment, timeout: 10)
        #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.err)")
        return [UInt8](result.stdout)
    }
}

/// A clipboard manager (freedesktop ClipboardManager spec), on its own thread and connection: it
/// owns CLIPBOARD_MANAGER and answers SAVE_TARGETS as `behaviour` says.
final class TestClipboardManager: Sendable {
    /// How the manager answers SAVE_TARGETS.
    enum Behaviour: Sendable {
        /// As gnome-settings-daemon's and xfce's managers do: it reads CLIPBOARD (on another
        /// connection, as any requestor), takes CLIPBOARD, then answers yes, and serves the
        /// saved text (TARGETS, UTF8_STRING).
        case saves
        /// As wlroots' XWayland window manager does: yes at once, nothing read, nothing taken.
        case saysYesKeepsNothing
        /// It takes CLIPBOARD and answers yes, but refuses every request for it.
        case takesSelectionServesNothing
        /// It takes CLIPBOARD and answers yes, and serves `otherText`: a bridge that is the
        /// manager too (sway's xwm) taking the selection for a later Wayland copy.
        case takesSelectionServesOther
        /// It saves the text, takes CLIPBOARD, answers yes, and serves only its first half.
        case savesPart
    }

    /// What `takesSelectionServesOther` serves.
    static let otherText = Array("a later copy, not the URL".utf8)

    private struct State {
        var isStopping = false
        var savedText: [UInt8]?
        var ownsClipboard = false
        var answers = 0
        var clipboardRequests: [String] = []
        var failure: String?
    }
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)
    private let ready = DispatchSemaphore(value: 0)
    private let displayName: String

    init(displayName: String, behaviour: Behaviour = .saves) throws {
        self.displayName = displayName
        Thread.detachNewThread { [self] in
            run(behaviour: behaviour)
            finished.signal()
        }
        if ready.wait(timeout: .now() + 10) == .timedOut { throw ManagerFailed(reason: "did not start") }
        if let failure = state.withLock({ $0.failure }) { throw ManagerFailed(reason: failure) }
    }

    var savedText: [UInt8]? { state.withLock { $0.savedText } }
    /// Whether it took CLIPBOARD (it may have lost it since).
    var ownsClipboard: Bool { state.withLock { $0.ownsClipboard } }
    /// How many SAVE_TARGETS it answered yes to (each answer was synced with the server).
    var answers: Int { state.withLock { $0.answers } }
    /// The targets asked of it for CLIPBOARD, in order.
    var clipboardRequests: [String] { state.withLock { $0.clipboardRequests } }

    /// Whether it owns CLIPBOARD right now (asked on a connection of its own).
    var ownsClipboardNow: Bool {
        guard let display = try? Display(name: displayName) else { return false }
        defer { display.close() }
        let owner = display.selectionOwner(display.atom("CLIPBOARD"))
        return owner != nil && owner == display.selectionOwner(display.atom("CLIPBOARD_MANAGER"))
    }

    func stop() {
        state.withLock { $0.isStopping = true }
        _ = finished.wait(timeout: .now() + 10)
    }

    private func run(behaviour: Behaviour) {
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
        while !state.withLock({ $0.isStopping }) {
            guard case .selectionRequest(let request)? = display.nextEvent(before: .now + .milliseconds(20)) else {
                continue
            }
            var answered: Atom?
            var isYes = false
            if request.selection == atoms["CLIPBOARD_MANAGER"], request.target == atoms["SAVE_TARGETS"] {
                if behaviour == .saves || behaviour == .savesPart {
                    // Save: read CLIPBOARD (on another connection) as any requestor would.
                    let saved = try? X11Clipboard(displayName: displayName, helperExecutable: "/nonexistent")
                        .read(.clipboard, timeout: .seconds(5))
                    let kept = behaviour == .savesPart ? saved.map { Array($0.prefix($0.count / 2)) } : saved
                    state.withLock { $0.savedText = kept }
                    isYes = saved != nil
                } else {
                    isYes = true
                }
                if isYes, behaviour != .saysYesKeepsNothing,
                    let now = try? display.serverTime(using: window, before: .now + .seconds(5))
                {
                    // Takes CLIPBOARD before it answers, as the real managers do.
                    display.setSelectionOwner(atoms["CLIPBOARD"]!, to: window, at: now)
                    let owns = display.selectionOwner(atoms["CLIPBOARD"]!) == window
                    state.withLock { $0.ownsClipboard = owns }
                }
                if isYes { answered = request.property }
            } else if request.selection == atoms["CLIPBOARD"] {
                let name = display.name(of: request.target) ?? "?"
                state.withLock { $0.clipboardRequests.append(name) }
                let served = behaviour == .takesSelectionServesOther ? Self.otherText : savedText
                if behaviour != .takesSelectionServesNothing, let saved = served {
                    let property = request.property.isNone ? request.target : request.property
                    if request.target == atoms["TARGETS"] {
                        display.changeProperty(
                            property, of: request.requestor, type: atoms["ATOM"]!,
                            atoms: [atoms["TARGETS"]!, atoms["UTF8_STRING"]!])
                        answered = property
                    } else if request.target == atoms["UTF8_STRING"] {
                        display.changeProperty(property, of: request.requestor, type: request.target, bytes: saved[...])
                        answered = property
                    }
                }
            }
            display.sendSelectionNotify(
                to: request.requestor, selection: request.selection, target: request.target, property: answered,
                time: request.time)
            try? display.sync()
            if isYes { state.withLock { $0.answers += 1 } }
        }
        display.close()
    }
}

/// The test clipboard manager could not start.
struct ManagerFailed: Error {
    var reason: String
}
