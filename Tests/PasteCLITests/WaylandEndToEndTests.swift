import Foundation
import Testing
import TestSupport

/// `paste` on a real Wayland compositor (headless sway with XWayland): the native data-control
/// backend, read and written with no wl-clipboard on `PATH`, against wl-paste, wl-copy and
/// xclip as independent peers.
@Suite("paste on Wayland (sway)", .tags(.wayland), .needsCompositor, .sway, .temporaryHome, .mock, .serialized)
struct WaylandEndToEndTests: CompositorSuite {
    func sessionEnvironment(_ base: [String: String], withX: Bool) -> [String: String] {
        sway.environment(base, withX: withX)
    }

    /// Whether wl-paste (and xclip through XWayland, when `andX`) read `url` off the clipboard.
    func readersGet(_ url: String, andX: Bool) throws -> Bool {
        let wayland = try sway.waylandClipboard()
        guard wayland.status == 0, wayland.out == url else { return false }
        guard andX else { return true }
        let x = try sway.xClipboard()
        return x.status == 0 && x.out == url
    }

    @Test("pure Wayland, no wl-clipboard on PATH: the clipboard is read and the URL copied natively")
    func pureWayland() throws {
        try sway.waylandCopy(Data("copied in a Wayland app ✓".utf8))
        let url = try expectURL(try paste(["-c", "--url", mock.url("/pastes/create")], withX: false))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("copied in a Wayland app ✓".utf8))
        #expect(try readersGet(url, andX: false))
    }

    @Test("with DISPLAY set too, what wl-copy holds is read natively (it was 'the clipboard is empty', 66)")
    func bothVariablesRead() throws {
        try sway.waylandCopy(Data("no X window has the focus".utf8))
        let url = try expectURL(
            try paste(["-c", "--no-copy", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("no X window has the focus".utf8))
    }

    @Test("an X window focused, both variables set: Wayland and X clients read the URL at once and for 5 s")
    func urlStaysForBothReaders() throws {
        let window = try sway.focusedXWindow()
        defer { window.send(SIGKILL) }
        try sway.waylandCopy(Data("text to share".utf8))
        let url = try expectURL(
            try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try readersGet(url, andX: true))
        // The old X11 path handed the URL to sway's clipboard manager, which keeps nothing, and
        // left: readers lost it within a moment. Keep asking both for five seconds.
        let end = Date().addingTimeInterval(5)
        var rounds = 0
        while Date() < end {
            #expect(try readersGet(url, andX: true), "round \(rounds)")
            rounds += 1
        }
        #expect(rounds > 0)
    }

    @Test("no X window focused, both variables set: Wayland and X clients read the URL at once and for 5 s")
    func urlStaysForBothReadersUnfocused() throws {
        try sway.waylandCopy(Data("nothing of X has the focus".utf8))
        let url = try expectURL(try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("nothing of X has the focus".utf8))
        // sway's bridge refuses X readers while no X window has the focus: paste owns the X
        // selection beside the Wayland one, and the bridge's copy of it back into the Wayland
        // selection (which ends paste's Wayland owner) is served by paste's X owner.
        #expect(try readersGet(url, andX: true))
        let end = Date().addingTimeInterval(5)
        var rounds = 0
        while Date() < end {
            let holds = try readersGet(url, andX: true)
            #expect(holds, "round \(rounds)")
            rounds += 1
            guard holds else { break }
        }
        #expect(rounds > 0)
    }

    @Test("no X window focused: a later wl-copy ends paste's X owner too; wl-paste keeps the later copy")
    func laterWaylandCopyEndsBoth() throws {
        try sway.waylandCopy(Data("first".utf8))
        let url = try expectURL(try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try readersGet(url, andX: true))
        try sway.waylandCopy(Data("a later Wayland copy".utf8))
        try waitUntil("wl-paste to give the later copy", timeout: 10) {
            try sway.waylandClipboard().out == "a later Wayland copy"
        }
        // sway's bridge takes no selection while no X window has had the focus: paste's X owner
        // sees the later copy through data-control and ends, so X readers no longer get the URL.
        try waitUntil("xclip to stop getting paste's URL", timeout: 10) {
            try sway.xClipboard(timeout: 5).out != url
        }
        let x = try sway.xClipboard(timeout: 5)
        #expect(x.out == "")
        #expect(x.status != 0)
        // And ending it left the later copy alone.
        let wayland = try sway.waylandClipboard()
        #expect(wayland.out == "a later Wayland copy")
        #expect(wayland.status == 0)
    }

    @Test("an X window focused once, then closed: a later wl-copy ends paste's X owner, and stays for wl-paste")
    func laterWaylandCopyAfterFocus() throws {
        // Once an X window had the focus, sway's bridge handles selections: it takes the X
        // selection for the later copy but refuses X readers while no X window has the focus.
        let window = try sway.focusedXWindow()
        window.send(SIGKILL)
        _ = window.wait(seconds: 10)
        try sway.waylandCopy(Data("first".utf8))
        let url = try expectURL(try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try readersGet(url, andX: true))
        try sway.waylandCopy(Data("a later Wayland copy".utf8))
        try waitUntil("xclip to stop getting paste's URL", timeout: 10) {
            try sway.xClipboard(timeout: 5).out != url
        }
        // paste's X owner neither takes the selection back from the bridge nor ends the later copy.
        let end = Date().addingTimeInterval(2)
        while Date() < end {
            let x = try sway.xClipboard(timeout: 5)
            let wayland = try sway.waylandClipboard()
            #expect(x.out != url)
            #expect(wayland.out == "a later Wayland copy")
            guard x.out != url, wayland.out == "a later Wayland copy" else { break }
        }
    }

    @Test("an X window focused: a later wl-copy reaches both readers through the bridge, paste's URL none")
    func laterWaylandCopyFocused() throws {
        let window = try sway.focusedXWindow()
        defer { window.send(SIGKILL) }
        try sway.waylandCopy(Data("first".utf8))
        let url = try expectURL(try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try readersGet(url, andX: true))
        try sway.waylandCopy(Data("a later Wayland copy".utf8))
        // The bridge takes the X selection for it: paste's X owner loses it and does not end
        // the later copy on its way out (its watch lets the bridge do it).
        try waitUntil("both readers to give the later copy", timeout: 10) {
            try readersGet("a later Wayland copy", andX: true)
        }
        let end = Date().addingTimeInterval(2)
        while Date() < end {
            let holds = try readersGet("a later Wayland copy", andX: true)
            #expect(holds)
            guard holds else { break }
        }
    }

    @Test("the hotkey path: the clipboard up to the mock, the URL back on the clipboard")
    func hotkey() throws {
        try sway.waylandCopy(Data("hotkey text".utf8))
        let url = try expectURL(try paste(["--url", mock.url("/pastes/create")], withX: false))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("hotkey text".utf8))
        #expect(try readersGet(url, andX: false))
    }

    @Test("an image on the Wayland clipboard goes to image-service byte-exact, its URL back on the clipboard")
    func image() throws {
        let png = try TestImages.noisePNG(side: 400)
        try sway.waylandCopy(Data(png), type: "image/png")
        _ = try home.write(
            "[paste]\n    image-service = 0x0\n[service \"0x0\"]\n    url = \(mock.url("/0x0/"))\n",
            to: "config/paste/config")
        let result = try paste([], withX: false)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.url("/0x0/")) && url.hasSuffix(".png"), "\(url)")
        #expect(try mock.fetch(url: url).body == Data(png))
        #expect(try readersGet(url, andX: false))
    }

    @Test("[paste] clipboard = x11 keeps to X11 (XWayland) with data-control there, and -v says so")
    func configuredX11() throws {
        // An X owner, which X readers reach without any focus.
        try xCopy("owned by an X client")
        _ = try home.write("[paste]\n    clipboard = x11\n", to: "config/paste/config")
        let result = try paste(["-v", "-n", "-c", "--url", mock.url("/pastes/create")], withX: true)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "paste: clipboard: X11 (DISPLAY \(sway.xDisplay)) (clipboard = x11: DISPLAY is set)\n")
        #expect(result.out.contains("<the clipboard, 20 bytes>"), "\(result.out)")
    }

    @Test("-v says which clipboard was chosen and why, in one line")
    func verboseChoice() throws {
        try sway.waylandCopy(Data("dry".utf8))
        let result = try paste(["-v", "-n", "-c", "--url", mock.url("/pastes/create")], withX: true)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(
            result.err
                == "paste: clipboard: native Wayland (data-control at \(sway.socketPath)) "
                + "(the compositor offers zwlr_data_control_manager_v1)\n")
    }
}
