import Foundation
import Testing
import TestSupport

/// A desktop of Debian sid, and how paste reaches its clipboard there: the rows of
/// SidDesktopTests' per-desktop cases.
enum SidCompositor: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// sway 1.12 (wlroots 0.20).
    case sway
    /// kwin_wayland 6.7 (KDE Plasma 6): ext-data-control only.
    case kde
    /// labwc 0.20 (wlroots 0.20).
    case labwc
    /// GNOME 51 (mutter): no data-control, so paste goes through XWayland.
    case gnome

    var kind: Desktop.Kind {
        switch self {
        case .sway: .sway
        case .kde: .kde
        case .labwc: .labwc
        case .gnome: .gnome
        }
    }

    var testDescription: String {
        switch self {
        case .sway: "sway 1.12"
        case .kde: "kwin 6.7"
        case .labwc: "labwc"
        case .gnome: "GNOME 51"
        }
    }

    /// The compositors that offer data-control (ext-data-control): paste reads and writes the
    /// clipboard natively there, `WAYLAND_DISPLAY` alone.
    static let dataControl: [SidCompositor] = [.sway, .kde, .labwc]

    /// Whether paste reaches the clipboard through XWayland: mutter offers no data-control, so
    /// paste needs `DISPLAY`, and what it copies reaches Wayland only once mutter carries it.
    var isThroughXWayland: Bool { self == .gnome }
}

/// What the sid suites share: paste (this build) run in a session of a compositor started from
/// the sid root, with nothing on `PATH`; the tools that read and copy are the root's (wl-clipboard
/// 2.3, xclip), so the peers are the ones that desktop ships.
protocol SidSuite: ScopedSuite {}

extension SidSuite {
    /// paste's environment in `desktop`'s session: `WAYLAND_DISPLAY`, and `DISPLAY` (with
    /// `XAUTHORITY`) when `withX`; a `PATH` with nothing on it.
    func environment(_ desktop: Desktop, withX: Bool, path: String = "/nonexistent") -> [String: String] {
        desktop.environment(home.environment(["PATH": path, "NO_COLOR": "1"]), withX: withX)
    }

    func paste(_ desktop: Desktop, _ arguments: [String], withX: Bool) throws -> ProcessResult {
        try runProcess(
            BuiltProducts.path(of: "paste"), arguments, input: .null, environment: environment(desktop, withX: withX),
            timeout: 60)
    }

    /// The URL the run printed, checked to be the only stdout and stderr empty, status 0.
    func expectURL(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(result.status == 0, "stderr: \(result.err)", sourceLocation: sourceLocation)
        #expect(result.err == "", sourceLocation: sourceLocation)
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(result.out == url + "\n", sourceLocation: sourceLocation)
        #expect(url.hasPrefix(mock.url("/pastes/")), "\(url)", sourceLocation: sourceLocation)
        return url
    }

    /// `expectURL`, and the paste behind the URL checked to hold `text` byte for byte: the URL.
    func expectUpload(
        of text: String, _ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let url = try expectURL(result, sourceLocation: sourceLocation)
        let id = try #require(pasteID(url), sourceLocation: sourceLocation)
        #expect(try mock.rawPaste(id: id) == Data(text.utf8), sourceLocation: sourceLocation)
        return url
    }

    /// What wl-paste and xclip (through XWayland) read, each with a deadline.
    func readers(_ desktop: Desktop) throws -> (wayland: String?, x: String?) {
        let wayland = try desktop.waylandClipboard()
        let x = try desktop.xClipboard()
        return (wayland.status == 0 ? wayland.out : nil, x.status == 0 ? x.out : nil)
    }

    /// Checks that wl-paste (and xclip, when `andX`) get `url` now and go on getting it for five
    /// seconds (a clock-bounded loop of reads, not a sleep).
    func expectReaders(
        _ desktop: Desktop, _ url: String, andX: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        func holds(_ read: (wayland: String?, x: String?)) -> Bool { read.wayland == url && (!andX || read.x == url) }
        let first = try readers(desktop)
        #expect(first.wayland == url, "wl-paste", sourceLocation: sourceLocation)
        if andX { #expect(first.x == url, "xclip", sourceLocation: sourceLocation) }
        let end = Date().addingTimeInterval(5)
        var rounds = 0
        while Date() < end {
            let read = try readers(desktop)
            #expect(holds(read), "round \(rounds): \(read)", sourceLocation: sourceLocation)
            rounds += 1
            guard holds(read) else { break }
        }
        #expect(rounds > 0, sourceLocation: sourceLocation)
    }

    /// On GNOME, where paste writes the X clipboard and mutter 51 carries it to Wayland a moment
    /// after paste has returned (a wl-paste at once may still get the old offer, or nothing):
    /// waits for wl-paste to give `url` (5 s at most), then `expectReaders`.
    func expectReadersAfterBridge(
        _ desktop: Desktop, _ url: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try waitUntil("mutter to carry paste's X copy to Wayland", timeout: 5) {
            try desktop.waylandClipboard().out == url
        }
        try expectReaders(desktop, url, sourceLocation: sourceLocation)
    }

    /// Checks the readers get `url` on `compositor`, now and for five seconds: wl-paste (and
    /// xclip, when `andX`) at once where paste writes natively; both, once mutter has carried
    /// paste's X copy to Wayland, on GNOME.
    func expectReaders(
        _ compositor: SidCompositor, _ desktop: Desktop, _ url: String, andX: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if compositor.isThroughXWayland {
            try expectReadersAfterBridge(desktop, url, sourceLocation: sourceLocation)
        } else {
            try expectReaders(desktop, url, andX: andX, sourceLocation: sourceLocation)
        }
    }

    /// paste as a hotkey runs it on `compositor`: `WAYLAND_DISPLAY` alone where it writes
    /// natively; on GNOME with `DISPLAY` too (mutter offers no data-control) and `--no-notify`
    /// (with a display, paste would show its result in a window).
    func hotkeyPaste(_ compositor: SidCompositor, _ desktop: Desktop, _ arguments: [String]) throws -> ProcessResult {
        try compositor.isThroughXWayland
            ? paste(desktop, ["--no-notify"] + arguments, withX: true) : paste(desktop, arguments, withX: false)
    }

    /// Starts `kind` from the sid root for `body`, stopped after it whatever happens.
    func withDesktop(_ kind: Desktop.Kind, _ body: (Desktop) throws -> Void) throws {
        let desktop = try Desktop(kind, root: try #require(RootFileSystem.sid))
        defer { desktop.stop() }
        try body(desktop)
    }

    /// The MIME types the clipboard's offer lists (`wl-paste --list-types`, the root's).
    func offeredTypes(_ desktop: Desktop) throws -> [String] {
        let listed = try desktop.runTool("/usr/bin/wl-paste", ["--list-types"], timeout: 10)
        return listed.out.split(whereSeparator: \.isNewline).map(String.init)
    }
}

/// The Debian 12 matrix (WaylandEndToEndTests, KDEEndToEndTests, GNOMEEndToEndTests) on Debian
/// sid's desktops: sway 1.12, kwin_wayland 6.7 and labwc through ext-data-control, GNOME 51
/// (mutter) through XWayland; each compositor headless from the sid root, one per test. GNOME is
/// a row of each table where it behaves alike; its own cases are those where it does not.
@Suite(
    "paste on Debian sid's desktops", .tags(.desktopsSid), .needsSidRoot, .temporaryHome, .mock, .serialized)
struct SidDesktopTests: SidSuite {
    @Test("-v: ext-data-control is bound, even with DISPLAY set; on GNOME X11", arguments: SidCompositor.allCases)
    func verboseChoice(_ compositor: SidCompositor) throws {
        try withDesktop(compositor.kind) { desktop in
            let choice: String
            if compositor.isThroughXWayland {
                try desktop.xCopy(Data("dry".utf8))
                choice = "X11 (DISPLAY \(desktop.xDisplay)) (the compositor offers no data-control; DISPLAY is set)"
            } else {
                try desktop.waylandCopy(Data("dry".utf8))
                choice =
                    "native Wayland (data-control at \(desktop.socketPath)) "
                    + "(the compositor offers ext_data_control_manager_v1)"
            }
            let result = try paste(desktop, ["-v", "-n", "-c", "--url", mock.url("/pastes/create")], withX: true)
            #expect(result.status == 0, "stderr: \(result.err)")
            #expect(result.err == "paste: clipboard: \(choice)\n")
        }
    }

    @Test(
        "pure Wayland, nothing on PATH: read and written natively, now and 5 s later",
        arguments: SidCompositor.dataControl)
    func pureWayland(_ compositor: SidCompositor) throws {
        try withDesktop(compositor.kind) { desktop in
            let text = "copied in a \(compositor) app ✓"
            try desktop.waylandCopy(Data(text.utf8))
            let url = try expectUpload(
                of: text, try paste(desktop, ["-c", "--url", mock.url("/pastes/create")], withX: false))
            try expectReaders(desktop, url, andX: false)
        }
    }

    @Test(
        "both variables, no X window focused: a Wayland app's text is read; both readers get the URL, now and 5 s later",
        arguments: SidCompositor.allCases)
    func bothVariablesUnfocused(_ compositor: SidCompositor) throws {
        try withDesktop(compositor.kind) { desktop in
            let text = "copied in a \(compositor) app, no X window focused ✓"
            try desktop.waylandCopy(Data(text.utf8))
            let url = try expectUpload(
                of: text, try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            try expectReaders(compositor, desktop, url)
        }
    }

    @Test(
        "both variables: an X app's text is read; both readers get the URL, now and 5 s later",
        arguments: SidCompositor.allCases)
    func bothVariablesXApp(_ compositor: SidCompositor) throws {
        try withDesktop(compositor.kind) { desktop in
            // wlroots and kwin carry an X selection to Wayland only while an X window has the
            // focus; mutter carries it all the same (and wl-paste, which needs a surface of its
            // own with the focus on mutter, gets none while an X window holds it).
            let window = try compositor.isThroughXWayland ? nil : desktop.focusedXWindow()
            defer { window?.send(SIGKILL) }
            try desktop.xCopy(Data("copied in an X app".utf8))
            if window != nil {
                try waitUntil("the bridge to carry xclip's text to Wayland", timeout: 20) {
                    try desktop.waylandClipboard().out == "copied in an X app"
                }
            }
            let url = try expectUpload(
                of: "copied in an X app",
                try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            try expectReaders(compositor, desktop, url)
        }
    }

    @Test(
        "an image from a Wayland app goes to image-service byte-exact, its URL back on the clipboard",
        arguments: SidCompositor.allCases)
    func image(_ compositor: SidCompositor) throws {
        try withDesktop(compositor.kind) { desktop in
            let png = try TestImages.noisePNG(side: 300)
            try desktop.waylandCopy(Data(png), type: "image/png")
            _ = try home.write(
                "[paste]\n    image-service = 0x0\n[service \"0x0\"]\n    url = \(mock.url("/0x0/"))\n",
                to: "config/paste/config")
            let result = try hotkeyPaste(compositor, desktop, [])
            #expect(result.status == 0, "stderr: \(result.err)")
            #expect(result.err == "")
            let url = result.out.trimmingCharacters(in: .newlines)
            #expect(url.hasPrefix(mock.url("/0x0/")) && url.hasSuffix(".png"), "\(url)")
            #expect(try mock.fetch(url: url).body == Data(png))
            if compositor.isThroughXWayland {
                try expectReadersAfterBridge(desktop, url)
            } else {
                #expect(try desktop.waylandClipboard().out == url)
            }
        }
    }

    @Test(
        "the hotkey path: the clipboard up to the mock, the URL back, now and 5 s later",
        arguments: SidCompositor.allCases)
    func hotkey(_ compositor: SidCompositor) throws {
        try withDesktop(compositor.kind) { desktop in
            let text = "hotkey text on \(compositor)"
            try desktop.waylandCopy(Data(text.utf8))
            let url = try expectUpload(
                of: text, try hotkeyPaste(compositor, desktop, ["--url", mock.url("/pastes/create")]))
            try expectReaders(compositor, desktop, url, andX: false)
        }
    }

    /// The password-hint cases (PasswordHintCases) in `desktop`'s session.
    func passwordHint(_ desktop: Desktop, _ compositor: SidCompositor) -> PasswordHintCases {
        PasswordHintCases(
            home: home, mock: mock,
            paste: { try paste(desktop, $0, withX: compositor.isThroughXWayland) },
            copy: { try desktop.waylandCopy($0) }, read: { try desktop.waylandClipboard(type: $0) },
            offeredTypes: { try offeredTypes(desktop) })
    }

    @Test(
        "a password wl-copy 2.3 marks --sensitive: one line, 77, with --force too, nothing sent (on GNOME through XWayland)",
        arguments: SidCompositor.allCases)
    func markedPasswordRefused(_ compositor: SidCompositor) throws {
        try withDesktop(compositor.kind) { desktop in
            try desktop.waylandCopy(Data("correct horse battery staple".utf8), extraArguments: ["--sensitive"])
            #expect(try offeredTypes(desktop).contains("x-kde-passwordManagerHint"))
            try passwordHint(desktop, compositor).expectMarkedPasswordRefused()
        }
    }

    @Test(
        "a PrivateBin URL is copied natively with the mark; an ordinary URL without it",
        arguments: SidCompositor.dataControl)
    func keyBearingURLMarked(_ compositor: SidCompositor) throws {
        try withDesktop(compositor.kind) { desktop in
            try passwordHint(desktop, compositor).expectKeyBearingURLMarked()
        }
    }

    @Test(
        "no X window focused: a later wl-copy takes the Wayland reader, a later xclip the X reader",
        arguments: SidCompositor.dataControl)
    func laterCopiesWin(_ compositor: SidCompositor) throws {
        try withDesktop(compositor.kind) { desktop in
            try desktop.waylandCopy(Data("first".utf8))
            let url = try expectURL(
                try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            #expect(try desktop.waylandClipboard().out == url)
            try desktop.waylandCopy(Data("a later Wayland copy".utf8))
            try waitUntil("wl-paste to give the later Wayland copy", timeout: 10) {
                try desktop.waylandClipboard().out == "a later Wayland copy"
            }
            // paste's X owner (beside the Wayland one) ends for a copy no bridge carried.
            try waitUntil("xclip to stop getting paste's URL", timeout: 10) {
                try desktop.xClipboard().out != url
            }
            try desktop.xCopy(Data("a later X copy".utf8))
            try waitUntil("xclip to give the later X copy", timeout: 10) {
                try desktop.xClipboard().out == "a later X copy"
            }
        }
    }

    // MARK: - GNOME 51 (mutter) alone: what differs from the compositors with data-control

    @Test("GNOME 51: a later wl-copy reaches both readers, paste's URL neither")
    func gnomeLaterCopy() throws {
        try withDesktop(.gnome) { desktop in
            try desktop.waylandCopy(Data("first".utf8))
            let url = try expectURL(
                try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            try expectReadersAfterBridge(desktop, url)
            try desktop.waylandCopy(Data("a later Wayland copy".utf8))
            try waitUntil("both readers to give the later copy", timeout: 10) {
                let read = try readers(desktop)
                return read.wayland == "a later Wayland copy" && read.x == "a later Wayland copy"
            }
        }
    }

    @Test("GNOME 51, pure Wayland, no wl-clipboard: one line naming what is missing, status 69")
    func gnomePureWaylandFails() throws {
        try withDesktop(.gnome) { desktop in
            let result = try paste(desktop, ["-c", "--url", mock.url("/pastes/create")], withX: false)
            #expect(result.status == 69)
            #expect(result.out == "")
            #expect(
                result.err
                    == "paste: no clipboard: WAYLAND_DISPLAY is set, DISPLAY is not, and the compositor offers no "
                    + "data-control and wl-clipboard is not installed (no wl-copy and wl-paste on PATH)\n")
            #expect(try mock.posts().isEmpty)
        }
    }
}
