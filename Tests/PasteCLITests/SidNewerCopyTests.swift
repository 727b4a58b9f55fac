import Foundation
import Testing
import TestSupport

/// What was copied last is what goes up (issue 41, item 2; docs/design.md, "Two clipboards, one
/// last copy") on sid's sway 1.12 (wlroots 0.20), bound through ext-data-control: the cases of
/// `WaylandEndToEndTests+NewerCopy` on the newer sway; and kwin 6.7's and labwc's bridges, which
/// carry one direction each while no X window has the focus.
@Suite(
    "What was copied last goes up, on sway 1.12", .tags(.desktopsSid), .needsSidRoot, .temporaryHome, .mock,
    .serialized)
struct SidNewerCopyTests: SidSuite {
    @Test(
        "no X window ever focused: an X program's copy after a Wayland one: paste says it cannot tell, uploads neither")
    func undecided() throws {
        try withDesktop(.sway) { desktop in
            try desktop.waylandCopy(Data("the older Wayland copy".utf8))
            try desktop.xCopy(Data("the newer X copy".utf8))
            #expect(try desktop.waylandClipboard().out == "the older Wayland copy")
            let result = try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true)
            #expect(result.out == "")
            #expect(result.err == WaylandEndToEndTests.undecidedLines)
            #expect(result.status == 66)
            #expect(try mock.posts().isEmpty)
        }
    }

    @Test("an X program's copy and nothing on the Wayland side: the X text goes up")
    func onlyX() throws {
        try withDesktop(.sway) { desktop in
            try desktop.xCopy(Data("only X has it".utf8))
            let url = try expectURL(
                try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("only X has it".utf8))
            #expect(try desktop.waylandClipboard().out == url)
        }
    }

    @Test("once an X window had the focus, the bridge carries a later Wayland copy to X: the Wayland text goes up")
    func bridgedWaylandCopyWins() throws {
        try withDesktop(.sway) { desktop in
            let window = try desktop.focusedXWindow()
            try desktop.xCopy(Data("the older X copy".utf8))
            window.send(SIGKILL)
            _ = window.wait(seconds: 10)
            try desktop.waylandCopy(Data("the newer Wayland copy".utf8))
            let url = try expectURL(
                try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("the newer Wayland copy".utf8))
        }
    }

    @Test("an X window focused: an X program's later copy goes up")
    func focusedXCopyWins() throws {
        try withDesktop(.sway) { desktop in
            try desktop.waylandCopy(Data("the older Wayland copy".utf8))
            let window = try desktop.focusedXWindow()
            defer { window.send(SIGKILL) }
            try desktop.xCopy(Data("the newer X copy".utf8))
            let url = try expectURL(
                try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("the newer X copy".utf8))
        }
    }

    @Test("kwin 6.7, no X window focused: an X program's later copy is carried to Wayland and goes up")
    func kwinCarriesXCopy() throws {
        try withDesktop(.kde) { desktop in
            try desktop.waylandCopy(Data("the older Wayland copy".utf8))
            try desktop.xCopy(Data("the newer X copy".utf8))
            let url = try expectURL(
                try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("the newer X copy".utf8))
        }
    }

    @Test("kwin 6.7, no X window focused: a later Wayland copy beside an older X program's goes up")
    func kwinLaterWaylandCopy() throws {
        try withDesktop(.kde) { desktop in
            try desktop.xCopy(Data("the older X copy".utf8))
            try desktop.waylandCopy(Data("the newer Wayland copy".utf8))
            // kwin left the X selection to xclip: the two sides differ.
            #expect(try desktop.xClipboard().out == "the older X copy")
            let url = try expectURL(
                try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("the newer Wayland copy".utf8))
        }
    }

    @Test("labwc: a later Wayland copy takes the X selection through the bridge and goes up")
    func labwcLaterWaylandCopy() throws {
        try withDesktop(.labwc) { desktop in
            try desktop.xCopy(Data("the older X copy".utf8))
            try desktop.waylandCopy(Data("the newer Wayland copy".utf8))
            let url = try expectURL(
                try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
            #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("the newer Wayland copy".utf8))
        }
    }

    @Test("labwc, no X window focused: an X program's copy after a Wayland one is refused as on sway")
    func labwcUndecided() throws {
        try withDesktop(.labwc) { desktop in
            try desktop.waylandCopy(Data("the older Wayland copy".utf8))
            try desktop.xCopy(Data("the newer X copy".utf8))
            let result = try paste(desktop, ["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true)
            #expect(result.err == WaylandEndToEndTests.undecidedLines)
            #expect(result.status == 66)
            #expect(try mock.posts().isEmpty)
        }
    }
}
