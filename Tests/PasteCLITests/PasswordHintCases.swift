import Foundation
import Testing
import TestSupport

/// The password manager's mark (`x-kde-passwordManagerHint`) end to end on a compositor paste
/// reads natively: Debian 12's sway (WaylandEndToEndTests+PasswordManagerHint) and sid's
/// compositors (SidDesktopTests) run these bodies, each in its own session, passed in.
struct PasswordHintCases {
    let home: TemporaryHome
    let mock: MockServer
    /// Runs the built paste in the session, `WAYLAND_DISPLAY` alone.
    var paste: ([String]) throws -> ProcessResult
    /// Copies text with wl-copy and waits until wl-paste reads it.
    var copy: (Data) throws -> Void
    /// What `wl-paste --no-newline` reads, as the type given (nil: the offer's first).
    var read: (_ type: String?) throws -> ProcessResult
    /// The MIME types the clipboard's offer lists (`wl-paste --list-types`).
    var offeredTypes: () throws -> [String]

    /// With a marked password on the clipboard: one line and 77, with `--force` too, and
    /// nothing sent.
    func expectMarkedPasswordRefused() throws {
        for force in [false, true] {
            let result = try paste(
                ["-c", "--no-notify", "--url", mock.url("/pastes/create")] + (force ? ["--force"] : []))
            #expect(result.out == "")
            #expect(
                result.err
                    == "paste: the clipboard holds a password (the program it was copied from marks it secret), "
                    + "so it is never uploaded, not even with --force\n")
            #expect(result.status == 77)
        }
        #expect(try mock.posts().isEmpty)
    }

    /// A PrivateBin URL (its key after `#`) is copied back with the mark; an ordinary URL
    /// without it.
    func expectKeyBearingURLMarked() throws {
        try home.write("[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n", to: "config/paste/config")
        try copy(Data("a note for PrivateBin".utf8))
        let result = try paste(["-c", "--no-notify", "-S", "privatebin"])
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.contains("#"))
        #expect(try read(nil).out == url)
        #expect(try offeredTypes().contains("x-kde-passwordManagerHint"))
        #expect(try read("x-kde-passwordManagerHint").out == "secret")

        try copy(Data("an ordinary note".utf8))
        let ordinary = try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")])
        #expect(ordinary.status == 0, "stderr: \(ordinary.err)")
        #expect(try read(nil).out == ordinary.out.trimmingCharacters(in: .newlines))
        #expect(try !offeredTypes().contains("x-kde-passwordManagerHint"))
    }
}
