import Clipboard
import Foundation
import Testing
import TestSupport

/// The password manager's mark on Wayland (issue 26, items 1-2): wl-clipboard 2.1 has no
/// `--sensitive`, so the marked offer is our own data-control owner's.
extension WaylandEndToEndTests {
    /// The clipboard through data-control, from the test process.
    var dataControl: DataControlClipboard {
        DataControlClipboard(
            socketPath: sway.socketPath, helperExecutable: BuiltProducts.path(of: "paste"),
            environment: ["PATH": "/nonexistent"])
    }

    /// The MIME types the clipboard's offer lists (`wl-paste --list-types`).
    func offeredTypes() throws -> [String] {
        let listed = try runProcess(
            "/usr/bin/wl-paste", ["--list-types"], environment: sway.toolEnvironment, timeout: 10)
        return listed.out.split(whereSeparator: \.isNewline).map(String.init)
    }

    @Test("a password marked x-kde-passwordManagerHint on Wayland: one line, 77, with --force too, nothing sent")
    func markedPasswordRefused() throws {
        try dataControl.prepareWrite(to: .clipboard).complete(
            with: Array("correct horse battery staple".utf8), isSecret: true)
        for force in [false, true] {
            let result = try paste(
                ["-c", "--no-notify", "--url", mock.url("/pastes/create")] + (force ? ["--force"] : []), withX: false)
            #expect(result.out == "")
            #expect(
                result.err
                    == "paste: the clipboard holds a password (the program it was copied from marks it secret), "
                    + "so it is never uploaded, not even with --force\n")
            #expect(result.status == 77)
        }
        #expect(try mock.posts().isEmpty)
    }

    @Test("a PrivateBin URL is copied natively with the mark; an ordinary URL without it")
    func keyBearingURLMarked() throws {
        try home.write("[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n", to: "config/paste/config")
        try sway.waylandCopy(Data("a note for PrivateBin".utf8))
        let result = try paste(["-c", "--no-notify", "-S", "privatebin"], withX: false)
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.contains("#"))
        #expect(try sway.waylandClipboard().out == url)
        #expect(try offeredTypes().contains("x-kde-passwordManagerHint"))
        let hint = try runProcess(
            "/usr/bin/wl-paste", ["--no-newline", "--type", "x-kde-passwordManagerHint"],
            environment: sway.toolEnvironment, timeout: 10)
        #expect(hint.out == "secret")

        try sway.waylandCopy(Data("an ordinary note".utf8))
        let ordinary = try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: false)
        #expect(ordinary.status == 0, "stderr: \(ordinary.err)")
        #expect(try sway.waylandClipboard().out == ordinary.out.trimmingCharacters(in: .newlines))
        #expect(try !offeredTypes().contains("x-kde-passwordManagerHint"))
    }
}
