import Testing

@testable import Clipboard

/// Target negotiation, encodings, error classes and backend choice: no X needed.
@Suite("Clipboard logic")
struct LogicTests {
    @Test(
        "the best text target is chosen",
        arguments: [
            (["TARGETS", "STRING", "UTF8_STRING"], "UTF8_STRING"),
            (["text/plain;charset=UTF-8", "STRING"], "text/plain;charset=UTF-8"),
            (["TEXT", "STRING"], "STRING"),
            (["COMPOUND_TEXT", "TEXT"], "TEXT"),
            (["COMPOUND_TEXT"], "COMPOUND_TEXT"),
        ])
    func preferredTarget(offered: [String], expected: String) {
        #expect(TextTarget.preferred(among: offered)?.name == expected)
    }

    @Test("no text target among images")
    func noTextTarget() {
        #expect(TextTarget.preferred(among: ["TARGETS", "image/png", "text/html"]) == nil)
    }

    @Test(
        "the best image target is chosen, PNG first, MIME case aside",
        arguments: [
            (["TARGETS", "image/bmp", "image/png", "image/jpeg"], "image/png"),
            (["image/gif", "image/webp", "image/jpeg"], "image/jpeg"),
            (["image/gif", "image/webp"], "image/webp"),
            (["image/bmp", "image/gif"], "image/gif"),
            (["Image/BMP"], "Image/BMP"),
        ])
    func preferredImage(offered: [String], expected: String) {
        #expect(ImageTarget.preferred(among: offered)?.name == expected)
        #expect(ImageTarget.preferred(among: offered)?.target.rawValue == expected.lowercased())
    }

    @Test("no image target among text and other types")
    func noImageTarget() {
        #expect(
            ImageTarget.preferred(among: ["UTF8_STRING", "image/svg+xml", "image/x-xcf", "application/pdf"]) == nil)
    }

    @Test("Latin-1 becomes UTF-8 and back")
    func latin1() {
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20, 0xFF]
        let utf8 = Array("café ÿ".utf8)
        #expect(TextEncoding.utf8(fromLatin1: latin1) == utf8)
        #expect(TextEncoding.latin1(fromUTF8: utf8) == latin1)
        #expect(TextEncoding.latin1(fromUTF8: Array("✓".utf8)) == nil)
    }

    @Test(
        "errors map to kinds the CLI turns into exit statuses",
        arguments: [
            (ClipboardError.empty(.clipboard), ClipboardError.Kind.noInput),
            (.noTextTarget(.clipboard, available: ["image/png"]), .badInput),
            (.noContentTarget(.clipboard, available: ["application/pdf"]), .badInput),
            (.tooLarge(.clipboard, type: "image/png", limit: 10), .badInput),
            // Nothing waits in the outbox after a failed read: not 75 (issue 29, finding 8).
            (.timedOut(.primary, seconds: 2), .unavailable),
            (.tooSlow(.clipboard, seconds: 2, minimumRate: 64 << 10), .unavailable),
            (.waylandToolTimedOut(tool: "wl-paste", seconds: 2), .unavailable),
            (.noDisplay, .unavailable),
            (.cannotOpenDisplay(name: ":9"), .unavailable),
            (.waylandToolMissing(tool: "wl-copy"), .unavailable),
        ])
    func kinds(error: ClipboardError, kind: ClipboardError.Kind) {
        #expect(error.kind == kind)
    }

    @Test("messages name the selection and the reason")
    func messages() {
        #expect(ClipboardError.empty(.clipboard).message == "the clipboard is empty")
        #expect(
            ClipboardError.noTextTarget(.primary, available: ["image/png", "text/html"]).message
                == "the primary selection holds no text (it offers: image/png, text/html)")
        #expect(
            ClipboardError.timedOut(.clipboard, seconds: 2).message
                == "the program holding the clipboard did not hand it over within 2 s; copy it again, or allow longer "
                + "with clipboard-timeout")
    }

    @Test("the backend follows the environment")
    func detect() {
        #expect(
            ClipboardBackend.detect(environment: ["DISPLAY": ":1", "WAYLAND_DISPLAY": "w"]) == .x11(displayName: ":1"))
        #expect(ClipboardBackend.detect(environment: [:]) == .none)
        #expect(ClipboardBackend.detect(environment: ["DISPLAY": ""]) == .none)
        // wl-copy is not on an empty PATH: Wayland without wl-clipboard is no clipboard.
        #expect(
            ClipboardBackend.detect(environment: ["WAYLAND_DISPLAY": "wayland-0", "PATH": "/nonexistent"]) == .none)
    }

    @Test("the owner subcommand is the hidden argument paste's main dispatches")
    func subcommand() {
        #expect(SelectionOwnerProcess.subcommand == "--internal-selection-owner")
        #expect(
            SelectionOwnerProcess.run(arguments: ["paste", "--internal-selection-owner", "nowhere"], environment: [:])
                == 64)
    }
}
