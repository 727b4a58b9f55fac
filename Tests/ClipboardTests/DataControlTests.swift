import Foundation
import SystemInterop
import Synchronization
import Testing
import TestSupport

@testable import Clipboard
@testable import WaylandInterop

/// Which data-control protocol is bound, and which backend a session gets: pure logic, no
/// compositor.
@Suite("Choosing data-control and the clipboard backend")
struct DataControlChoiceTests {
    static let seat = WaylandGlobal(name: 1, interface: "wl_seat", version: 8)
    static let wlr = WaylandGlobal(name: 7, interface: "zwlr_data_control_manager_v1", version: 2)
    static let ext = WaylandGlobal(name: 9, interface: "ext_data_control_manager_v1", version: 1)

    @Test("ext-data-control wins where both are offered, whatever their order")
    func extWins() throws {
        let chosen = try #require(DataControlProtocol.choose(among: [Self.seat, Self.wlr, Self.ext]))
        #expect(chosen.protocol == .ext)
        #expect(chosen.global == Self.ext)
    }

    @Test("wlr-data-control where it is the only one, bound at most at version 2")
    func wlrAlone() throws {
        var newer = Self.wlr
        newer.version = 5
        let chosen = try #require(DataControlProtocol.choose(among: [Self.seat, newer]))
        #expect(chosen.protocol == .wlr)
        #expect(chosen.global == WaylandGlobal(name: 7, interface: "zwlr_data_control_manager_v1", version: 2))
        let older = try #require(
            DataControlProtocol.choose(among: [WaylandGlobal(name: 3, interface: newer.interface, version: 1)]))
        #expect(older.global.version == 1)
    }

    @Test("no data-control among a compositor's globals (GNOME's mutter)")
    func noneOffered() {
        #expect(DataControlProtocol.choose(among: [Self.seat]) == nil)
    }

    static let both = ["DISPLAY": ":7", "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/5"]

    @Test("a compositor with data-control gets the native backend, even with DISPLAY set")
    func nativeEvenWithDisplay() {
        var asked: [String] = []
        let choice = ClipboardBackend.choose(environment: Self.both, preference: .auto) { socket in
            asked.append(socket)
            return .wlr
        }
        #expect(asked == ["/run/user/5/wayland-1"])
        #expect(
            choice
                == ClipboardBackend.Choice(
                    backend: .dataControl(socketPath: "/run/user/5/wayland-1"),
                    reason: "the compositor offers zwlr_data_control_manager_v1"))
    }

    @Test("a Wayland session without data-control (GNOME) goes through XWayland")
    func gnomeGoesThroughX() {
        let choice = ClipboardBackend.choose(environment: Self.both, preference: .auto) { _ in nil }
        #expect(
            choice
                == ClipboardBackend.Choice(
                    backend: .x11(displayName: ":7"), reason: "the compositor offers no data-control; DISPLAY is set"))
    }

    @Test("clipboard = x11 never asks the compositor; clipboard = wayland never takes X11")
    func preferences() {
        let x11 = ClipboardBackend.choose(environment: Self.both, preference: .x11) { _ in
            Issue.record("asked the compositor")
            return .ext
        }
        #expect(x11.backend == .x11(displayName: ":7"))
        let wayland = ClipboardBackend.choose(
            environment: Self.both.merging(["PATH": "/nonexistent"]) { $1 }, preference: .wayland
        ) { _ in nil }
        #expect(wayland == ClipboardBackend.Choice(backend: .none, reason: "the compositor offers no data-control"))
    }

    @Test("an absolute WAYLAND_DISPLAY is the socket itself; without XDG_RUNTIME_DIR a name is none")
    func socketPaths() {
        #expect(WaylandSocket.path(in: ["WAYLAND_DISPLAY": "/tmp/w/wayland-3"]) == "/tmp/w/wayland-3")
        #expect(WaylandSocket.path(in: ["WAYLAND_DISPLAY": "wayland-3"]) == nil)
        #expect(WaylandSocket.path(in: ["XDG_RUNTIME_DIR": "/run/user/1"]) == nil)
    }

    @Test("one map from an owner's status byte to an error, for the X11 and the Wayland owner alike")
    func statusBytes() {
        #expect(OwnerLaunch.failure(reported: 0, displayName: "w") == nil)
        #expect(OwnerLaunch.failure(reported: 1, displayName: "w") == .noDisplay)
        #expect(OwnerLaunch.failure(reported: 2, displayName: "/run/w") == .cannotOpenDisplay(name: "/run/w"))
        #expect(OwnerLaunch.failure(reported: 3, displayName: "w") == .helperFailed(.notOwner))
        #expect(OwnerLaunch.failure(reported: 5, displayName: "w") == .helperFailed(.reported(status: 5)))
    }

    @Test("text MIME types in preference order, in the owner's spelling")
    func textPreference() {
        #expect(DataControlClipboard.preferredText(among: ["STRING", "TEXT", "UTF8_STRING"]) == "UTF8_STRING")
        #expect(
            DataControlClipboard.preferredText(among: ["text/plain", "text/plain;charset=UTF-8"])
                == "text/plain;charset=UTF-8")
        #expect(DataControlClipboard.preferredText(among: ["image/png"]) == nil)
    }
}

/// The native Wayland clipboard on a real compositor (headless sway), against wl-clipboard as
/// the independent peer.
@Suite("Data-control on sway", .tags(.wayland), .needsCompositor, .sway, .serialized)
struct DataControlSwayTests: ScopedSuite {
    static let timeout = Duration.seconds(10)

    var clipboard: DataControlClipboard {
        DataControlClipboard(
            socketPath: sway.socketPath, helperExecutable: BuiltProducts.path(of: "paste"),
            environment: ["PATH": "/nonexistent"])
    }

    @Test("reads what wl-copy holds, and tells its MIME types")
    func readsWlCopy() throws {
        try sway.waylandCopy(Data("from wl-copy ✓".utf8))
        #expect(try clipboard.read(.clipboard, timeout: Self.timeout) == Array("from wl-copy ✓".utf8))
        let session = try DataControlSession(socketPath: sway.socketPath, before: .now + Self.timeout)
        #expect(session.dataControl == .wlr)
        #expect(session.offeredTypes(.regular)?.contains("text/plain;charset=utf-8") == true)
    }

    @Test("the backend's probe leaves its connection to the read, which still sees a copy made after the probe")
    func probeConnectionIsRead() throws {
        try sway.waylandCopy(Data("before the probe".utf8))
        #expect(ClipboardBackend.probeDataControl(socketPath: sway.socketPath) == .wlr)
        // The device's first events (the old copy) are in the socket; the later copy's follow.
        try sway.waylandCopy(Data("after the probe".utf8))
        #expect(try clipboard.read(.clipboard, timeout: Self.timeout) == Array("after the probe".utf8))
        // That read took the kept connection: the next one connects anew.
        let fresh = try DataControlSession.open(socketPath: sway.socketPath, before: .now + Self.timeout)
        #expect(!fresh.isFromProbe)
        #expect(fresh.offeredTypes(.regular)?.contains("text/plain;charset=utf-8") == true)

        // Kept per socket, taken once: another socket's open leaves it where it is.
        #expect(ClipboardBackend.probeDataControl(socketPath: sway.socketPath) == .wlr)
        let elsewhere = sway.socketPath + "-nonexistent"
        #expect(throws: WaylandError.self) {
            try DataControlSession.open(socketPath: elsewhere, before: .now + Self.timeout)
        }
        let kept = try DataControlSession.open(socketPath: sway.socketPath, before: .now + Self.timeout)
        #expect(kept.isFromProbe)
        #expect(kept.dataControl == .wlr)
        #expect(kept.offeredTypes(.regular)?.contains("text/plain;charset=utf-8") == true)
        #expect(!(try DataControlSession.open(socketPath: sway.socketPath, before: .now + Self.timeout).isFromProbe))
    }

    @Test("texts at the first read's size and past it arrive whole (the reads grow)")
    func firstReadSize() throws {
        for size in [DataControlClipboard.firstReadChunk, DataControlClipboard.firstReadChunk + 1, 100_000] {
            let text = (0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            try sway.waylandCopy(Data(text))
            #expect(try clipboard.read(.clipboard, timeout: Self.timeout) == text, "\(size) bytes")
        }
    }

    @Test("a protocol error sway reports ends the session with one line naming the object")
    func protocolError() throws {
        let session = try DataControlSession(socketPath: sway.socketPath, before: .now + Self.timeout)
        let error = try #require(
            #expect(throws: WaylandError.self) { try session.provokeProtocolError(before: .now + Self.timeout) })
        // libwayland-server reports a request an interface does not have against wl_display
        // (code 1, invalid_method), naming the object in its words: "invalid method 99, object
        // zwlr_data_control_device_v1@6" on sway 1.7 (the shape varies by version).
        guard case .protocolError(let interface, let code, let message) = error else {
            Issue.record("not a protocol error: \(error)")
            return
        }
        #expect(interface == "wl_display")
        #expect(code == 1)
        #expect(message.contains("invalid method \(DataControlSession.undefinedOpcode)"))
        #expect(message.contains("zwlr_data_control_device_v1"))
        #expect(
            ClipboardError.compositorFailed(error).message
                == "the Wayland compositor's clipboard failed: it reported a protocol error on wl_display (code 1): "
                + message)
        // The connection is over: a later wait says so at once, with the same error.
        #expect(throws: error) { try session.clearSelection(.regular, before: .now + Self.timeout) }
    }

    @Test("a kept connection the compositor closed meanwhile gives way to a new one")
    func keptConnectionLost() throws {
        try sway.waylandCopy(Data("still here".utf8))
        #expect(ClipboardBackend.probeDataControl(socketPath: sway.socketPath) == .wlr)
        // Its socket shut down, the kept session's first read fails, and `open` connects again.
        #expect(DataControlSession.shutDownKept(socketPath: sway.socketPath))
        #expect(try clipboard.read(.clipboard, timeout: Self.timeout) == Array("still here".utf8))
    }

    @Test("the caller's work that needs no text runs once while the owner answers, and not for an empty clipboard")
    func whileOwnerAnswers() throws {
        let calls = Mutex(0)
        var request = ReadRequest(.clipboard, timeout: Self.timeout, acceptsImage: false)
        request.whileOwnerAnswers = { calls.withLock { $0 += 1 } }
        #expect(throws: ClipboardError.empty(.clipboard)) { try clipboard.read(request) }
        #expect(calls.withLock { $0 } == 0)
        try sway.waylandCopy(Data("asked for, then read".utf8))
        #expect(try clipboard.read(request).content == .text(Array("asked for, then read".utf8)))
        #expect(calls.withLock { $0 } == 1)
    }

    @Test("an empty clipboard is empty; an image is read as an image")
    func emptyAndImage() throws {
        #expect(throws: ClipboardError.empty(.clipboard)) { try clipboard.read(.clipboard, timeout: Self.timeout) }
        let png = try TestImages.noisePNG(side: 400)
        try sway.waylandCopy(Data(png), type: "image/png")
        #expect(throws: ClipboardError.noTextTarget(.clipboard, available: ["image/png"])) {
            try clipboard.read(.clipboard, timeout: Self.timeout)
        }
        let content = try clipboard.readContent(.clipboard, timeout: Self.timeout, preferences: ContentPreferences())
        #expect(content == .image(png, type: "image/png"))
        #expect(throws: ClipboardError.tooLarge(.clipboard, type: "image/png", limit: 1000)) {
            try clipboard.readContent(
                .clipboard, timeout: Self.timeout, preferences: ContentPreferences(imageLimit: 1000))
        }
    }

    @Test("a large text is shown to the observer while it arrives, and stopped at the read limit")
    func observedAndLimited() throws {
        let line = Array("an ordinary line of the clipboard, nothing secret in it\n".utf8)
        var text: [UInt8] = []
        while text.count < 3 << 20 { text += line }
        try sway.waylandCopy(Data(text))
        let observer = TextObserver([UInt8]()) { seen, piece in piece.withUnsafeBufferPointer { seen += $0 } }
        let read = try clipboard.read(ReadRequest(.clipboard, timeout: Self.timeout, observer: observer))
        #expect(read.content == .text(text))
        #expect(read.observation == text)
        #expect(throws: ClipboardError.exceedsLimit(.clipboard, limit: 1 << 20)) {
            try clipboard.read(
                ReadRequest(
                    .clipboard, timeout: Self.timeout, preferences: ContentPreferences(readLimit: 1 << 20),
                    observer: observer))
        }
    }

    @Test("a write is served to any number of readers until another client copies")
    func writeServesUntilReplaced() throws {
        try clipboard.write(Array("the URL ✓".utf8), to: .clipboard)
        for _ in 0..<3 {
            let read = try sway.waylandClipboard()
            #expect(read.status == 0)
            #expect(read.out == "the URL ✓")
        }
        try sway.waylandCopy(Data("later copy".utf8))
        #expect(try clipboard.read(.clipboard, timeout: Self.timeout) == Array("later copy".utf8))
    }

    @Test("a key-bearing URL is offered with the password manager's mark; content so marked is refused")
    func passwordManagerMark() throws {
        let url = "https://privatebin.example/?f468483c313401e8#9qWEnKDF2ktaWzZMhXW7o4"
        #expect(try clipboard.prepareWrite(to: .clipboard).complete(with: Array(url.utf8), isSecret: true) == .offered)
        let types = try runProcess(
            "/usr/bin/wl-paste", ["--list-types"], environment: sway.toolEnvironment, timeout: 10)
        let listed = types.out.split(whereSeparator: \.isNewline).map(String.init)
        #expect(listed.contains(PasswordManagerHint.name), "\(listed)")
        #expect(listed.contains("text/plain;charset=utf-8"), "\(listed)")
        let hint = try runProcess(
            "/usr/bin/wl-paste", ["--no-newline", "--type", PasswordManagerHint.name],
            environment: sway.toolEnvironment, timeout: 10)
        #expect(hint.out == "secret")
        #expect(try sway.waylandClipboard().out == url)
        // Read back through data-control, the mark is a refusal (issue 26, item 1).
        #expect(throws: ClipboardError.markedSecret(.clipboard)) {
            try clipboard.read(.clipboard, timeout: Self.timeout)
        }
        // An ordinary URL is not marked.
        try clipboard.write(Array("https://paste.example/1".utf8), to: .clipboard)
        let plain = try runProcess(
            "/usr/bin/wl-paste", ["--list-types"], environment: sway.toolEnvironment, timeout: 10)
        #expect(!plain.out.contains(PasswordManagerHint.name), "\(plain.out)")
        #expect(try clipboard.read(.clipboard, timeout: Self.timeout) == Array("https://paste.example/1".utf8))
    }

    @Test("the primary selection is read and written apart from the clipboard")
    func primary() throws {
        try clipboard.write(Array("primary text".utf8), to: .primary)
        let read = try runProcess(
            "/usr/bin/wl-paste", ["--primary", "--no-newline"], environment: sway.toolEnvironment, timeout: 10)
        #expect(read.out == "primary text")
        #expect(try clipboard.read(.primary, timeout: Self.timeout) == Array("primary text".utf8))
        #expect(throws: ClipboardError.empty(.clipboard)) { try clipboard.read(.clipboard, timeout: Self.timeout) }
    }
}
