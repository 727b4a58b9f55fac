import Foundation
import Testing
import TestSupport

/// What was copied last is what goes up (issue 41, item 2; docs/design.md, "Two clipboards, one
/// last copy"), on Debian 12's sway (1.7, wlroots 0.16), whose bridge carries nothing while no
/// X window has had the focus.
extension WaylandEndToEndTests {
    /// The line and hint of a clipboard paste cannot tell the order of.
    static let undecidedLines =
        "paste: the clipboard differs between X and Wayland, and paste cannot tell which was copied last "
        + "(an X program holds the X side and no X window has the focus); nothing was uploaded\n"
        + "paste: copy it again, or pick the X side with clipboard = x11 (paste-config(5))\n"

    /// Copies `text` with xclip through XWayland (xclip stays as the owner, given a file and
    /// nothing of ours) and waits until xclip reads it back.
    func xCopy(_ text: String) throws {
        try spawnXclipOwner(Data(text.utf8), environment: sway.toolEnvironment)
        try waitUntil("xclip to own the clipboard", timeout: 20) { try sway.xClipboard().out == text }
    }

    @Test(
        "no X window ever focused: an X program's copy after a Wayland one: paste cannot tell, says so, uploads neither"
    )
    func newerXCopyUndecided() throws {
        try sway.waylandCopy(Data("the older Wayland copy".utf8))
        try xCopy("the newer X copy")
        // What the issue saw: sway carried neither copy to the other side.
        #expect(try sway.waylandClipboard().out == "the older Wayland copy")
        let result = try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true)
        #expect(result.out == "")
        #expect(result.err == Self.undecidedLines)
        #expect(result.status == 66)
        #expect(try mock.posts().isEmpty)
    }

    @Test("the same two copies in the other order (Wayland last) look the same from outside: refused alike")
    func newerWaylandCopyUndecided() throws {
        try xCopy("the older X copy")
        try sway.waylandCopy(Data("the newer Wayland copy".utf8))
        let result = try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true)
        #expect(result.err == Self.undecidedLines)
        #expect(result.status == 66)
        #expect(try mock.posts().isEmpty)
    }

    @Test("an X program's copy and nothing on the Wayland side: the X text goes up, the URL back for both readers")
    func onlyXCopy() throws {
        try xCopy("only X has it")
        let url = try expectURL(try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("only X has it".utf8))
        try waitUntil("xclip to read the URL", timeout: 10) { try sway.xClipboard().out == url }
        #expect(try sway.waylandClipboard().out == url)
    }

    @Test(
        "once an X window had the focus, a later Wayland copy is carried to X by the bridge: the Wayland text goes up")
    func bridgedWaylandCopyWins() throws {
        let window = try sway.focusedXWindow()
        try xCopy("the older X copy")
        window.send(SIGKILL)
        _ = window.wait(seconds: 10)
        try sway.waylandCopy(Data("the newer Wayland copy".utf8))
        let url = try expectURL(try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("the newer Wayland copy".utf8))
    }

    @Test("an X window focused: an X program's copy goes up (the bridge carries it, or X holds the later copy)")
    func focusedXCopyWins() throws {
        try sway.waylandCopy(Data("the older Wayland copy".utf8))
        let window = try sway.focusedXWindow()
        defer { window.send(SIGKILL) }
        try xCopy("the newer X copy")
        let url = try expectURL(try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: true))
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("the newer X copy".utf8))
    }

    @Test("-v's one line is unchanged by the X side's check, and a dry run of the undecided case refuses too")
    func undecidedDryRun() throws {
        try sway.waylandCopy(Data("Wayland".utf8))
        try xCopy("X")
        let result = try paste(["-v", "-n", "-c", "--url", mock.url("/pastes/create")], withX: true)
        #expect(
            result.err
                == "paste: clipboard: native Wayland (data-control at \(sway.socketPath)) "
                + "(the compositor offers zwlr_data_control_manager_v1)\n" + Self.undecidedLines)
        #expect(result.status == 66)
    }
}
