import Foundation
import Testing
import TestSupport

/// What the desktop tests share: a compositor's session (`CompositorSuite`), and readers with
/// deadlines.
protocol DesktopSuite: CompositorSuite {}

extension DesktopSuite {
    func sessionEnvironment(_ base: [String: String], withX: Bool) -> [String: String] {
        desktop.environment(base, withX: withX)
    }

    /// What wl-paste and xclip (through XWayland) read off the clipboard, each with a deadline
    /// (a hung reader reads nothing).
    func readers() throws -> (wayland: String?, x: String?) {
        let wayland = try desktop.waylandClipboard()
        let x = try desktop.xClipboard()
        return (wayland.status == 0 ? wayland.out : nil, x.status == 0 ? x.out : nil)
    }

    /// Checks that wl-paste (and xclip, when `andX`) get `url` now and go on getting it for
    /// `seconds`, five unless told (a clock-bounded loop of reads, not a sleep).
    func expectReaders(
        _ url: String, andX: Bool = true, within seconds: TimeInterval = 5,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        func holds(_ read: (wayland: String?, x: String?)) -> Bool { read.wayland == url && (!andX || read.x == url) }
        let first = try readers()
        #expect(first.wayland == url, "wl-paste", sourceLocation: sourceLocation)
        if andX { #expect(first.x == url, "xclip", sourceLocation: sourceLocation) }
        let end = Date().addingTimeInterval(seconds)
        var rounds = 0
        while Date() < end {
            let read = try readers()
            #expect(holds(read), "round \(rounds): \(read)", sourceLocation: sourceLocation)
            rounds += 1
            // One failed round says it all; the rest would repeat it hundreds of times.
            guard holds(read) else { break }
        }
        #expect(seconds == 0 || rounds > 0, sourceLocation: sourceLocation)
    }

    /// Points `image-service` at the mock's 0x0 route.
    func configureImageService() throws {
        _ = try home.write(
            "[paste]\n    image-service = 0x0\n[service \"0x0\"]\n    url = \(mock.url("/0x0/"))\n",
            to: "config/paste/config")
    }
}

/// `paste` on KDE's compositor (kwin_wayland 5.27, headless, XWayland): data-control, so the
/// native backend, with wl-paste, wl-copy and xclip as independent peers.
@Suite(
    "paste on KDE (kwin_wayland)", .tags(.desktops), .needsDesktop(.kde), .desktop(.kde), .temporaryHome, .mock,
    .serialized)
struct KDEEndToEndTests: DesktopSuite {
    @Test("pure Wayland, no wl-clipboard on PATH: read and written natively")
    func pureWayland() throws {
        try desktop.waylandCopy(Data("copied in a KDE app ✓".utf8))
        let url = try expectURL(try paste(["-c", "--url", mock.url("/pastes/create")], withX: false))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("copied in a KDE app ✓".utf8))
        #expect(try desktop.waylandClipboard().out == url)
    }

    @Test("-v: data-control chosen even with DISPLAY set")
    func verboseChoice() throws {
        try desktop.waylandCopy(Data("dry".utf8))
        let result = try paste(["-v", "-n", "-c", "--url", mock.url("/pastes/create")], withX: true)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(
            result.err
                == "paste: clipboard: native Wayland (data-control at \(desktop.socketPath)) "
                + "(the compositor offers zwlr_data_control_manager_v1)\n")
    }

    @Test("both variables set, no X window focused: a Wayland app's text is read natively; both readers get the URL")
    func bothVariablesUnfocused() throws {
        try desktop.waylandCopy(Data("no X window has the focus".utf8))
        let url = try expectURL(try paste(["-c", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("no X window has the focus".utf8))
        // kwin's bridge serves X clients the Wayland selection only while an X window has the
        // focus: paste owns the X selection beside the Wayland one (BridgedWrite).
        try expectReaders(url)
    }

    @Test("no X window focused: a later wl-copy takes the Wayland reader, a later xclip the X reader")
    func laterCopiesWin() throws {
        try desktop.waylandCopy(Data("first".utf8))
        let url = try expectURL(try paste(["-c", "--url", mock.url("/pastes/create")], withX: true))
        try expectReaders(url, within: 0)
        try desktop.waylandCopy(Data("a later Wayland copy".utf8))
        try waitUntil("wl-paste to give the later Wayland copy", timeout: 10) {
            try desktop.waylandClipboard().out == "a later Wayland copy"
        }
        try desktop.xCopy(Data("a later X copy".utf8))
        try waitUntil("xclip to give the later X copy", timeout: 10) {
            try desktop.xClipboard().out == "a later X copy"
        }
    }

    @Test(
        "both variables set, an X window focused: an X app's text is read; both readers get the URL, now and 5 s later")
    func bothVariablesFocused() throws {
        let window = try desktop.focusedXWindow()
        defer { window.send(SIGKILL) }
        try desktop.xCopy(Data("copied in an X app".utf8))
        // kwin carries an X selection to Wayland clients while an X window has the focus, a
        // moment after it was taken: paste reads it natively once wl-paste does.
        try waitUntil("kwin's bridge to carry xclip's text to Wayland", timeout: 20) {
            try desktop.waylandClipboard().out == "copied in an X app"
        }
        let url = try expectURL(try paste(["-c", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("copied in an X app".utf8))
        try expectReaders(url)
    }

    @Test("an image on the Wayland clipboard goes to image-service byte-exact, its URL back on the clipboard")
    func image() throws {
        let png = try TestImages.noisePNG(side: 300)
        try desktop.waylandCopy(Data(png), type: "image/png")
        try configureImageService()
        let result = try paste([], withX: false)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.url("/0x0/")) && url.hasSuffix(".png"), "\(url)")
        #expect(try mock.fetch(url: url).body == Data(png))
        #expect(try desktop.waylandClipboard().out == url)
    }

    @Test("the hotkey path, pure Wayland: the clipboard up to the mock, the URL back, now and 5 s later")
    func hotkey() throws {
        try desktop.waylandCopy(Data("hotkey text on KDE".utf8))
        let url = try expectURL(try paste(["--url", mock.url("/pastes/create")], withX: false))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("hotkey text on KDE".utf8))
        try expectReaders(url, andX: false)
    }
}

/// `paste` on GNOME's compositor (mutter 43, headless, XWayland): no data-control, so paste
/// takes X11 through XWayland, and mutter's bridge carries the clipboard both ways.
@Suite(
    "paste on GNOME (mutter)", .tags(.desktops), .needsDesktop(.gnome), .desktop(.gnome), .temporaryHome, .mock,
    .serialized)
struct GNOMEEndToEndTests: DesktopSuite {
    @Test("-v: X11 through XWayland, since mutter offers no data-control")
    func verboseChoice() throws {
        try desktop.xCopy(Data("dry".utf8))
        let result = try paste(["-v", "-n", "-c", "--url", mock.url("/pastes/create")], withX: true)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(
            result.err
                == "paste: clipboard: X11 (DISPLAY \(desktop.xDisplay)) "
                + "(the compositor offers no data-control; DISPLAY is set)\n")
    }

    @Test("a Wayland app's text is read through XWayland; both readers get the URL, now and 5 s later")
    func waylandToX() throws {
        try desktop.waylandCopy(Data("copied in a GNOME app ✓".utf8))
        let url = try expectURL(try paste(["-c", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("copied in a GNOME app ✓".utf8))
        try expectReaders(url)
    }

    @Test("an X app's text is read; both readers get the URL")
    func xToWayland() throws {
        try desktop.xCopy(Data("copied in an X app".utf8))
        let url = try expectURL(try paste(["-c", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("copied in an X app".utf8))
        let read = try readers()
        #expect(read.wayland == url)
        #expect(read.x == url)
    }

    @Test("an image from a Wayland app goes to image-service byte-exact, its URL back for both readers")
    func image() throws {
        let png = try TestImages.noisePNG(side: 300)
        try desktop.waylandCopy(Data(png), type: "image/png")
        try configureImageService()
        let result = try paste([], withX: true)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.url("/0x0/")) && url.hasSuffix(".png"), "\(url)")
        #expect(try mock.fetch(url: url).body == Data(png))
        let read = try readers()
        #expect(read.wayland == url)
        #expect(read.x == url)
    }

    @Test("the hotkey path: the clipboard up to the mock, the URL back for both readers")
    func hotkey() throws {
        try desktop.waylandCopy(Data("hotkey text on GNOME".utf8))
        let url = try expectURL(try paste(["--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("hotkey text on GNOME".utf8))
        try expectReaders(url)
    }

    @Test("pure Wayland on GNOME, no wl-clipboard: one line naming what is missing (no data-control), status 69")
    func pureWaylandFails() throws {
        let result = try paste(["-c", "--url", mock.url("/pastes/create")], withX: false)
        #expect(result.status == 69)
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: no clipboard: WAYLAND_DISPLAY is set, DISPLAY is not, and the compositor offers no "
                + "data-control and wl-clipboard is not installed (no wl-copy and wl-paste on PATH)\n")
        #expect(try mock.pastes().isEmpty)
    }
}
