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

    /// The shared cases in sway's session.
    var passwordHint: PasswordHintCases {
        PasswordHintCases(
            home: home, mock: mock, paste: { try paste($0, withX: false) }, copy: { try sway.waylandCopy($0) },
            read: { type in
                try runProcess(
                    "/usr/bin/wl-paste", ["--no-newline"] + (type.map { ["--type", $0] } ?? []),
                    environment: sway.toolEnvironment, timeout: 10)
            }, offeredTypes: offeredTypes)
    }

    @Test("a password marked x-kde-passwordManagerHint on Wayland: one line, 77, with --force too, nothing sent")
    func markedPasswordRefused() throws {
        try dataControl.prepareWrite(to: .clipboard).complete(
            with: Array("correct horse battery staple".utf8), isSecret: true)
        try passwordHint.expectMarkedPasswordRefused()
    }

    @Test("a PrivateBin URL is copied natively with the mark; an ordinary URL without it")
    func keyBearingURLMarked() throws {
        try passwordHint.expectKeyBearingURLMarked()
    }
}
