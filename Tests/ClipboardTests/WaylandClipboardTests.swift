import Foundation
import Testing
import TestSupport

@testable import Clipboard

/// The Wayland backend drives wl-clipboard's tools. No compositor runs here, so the tools are
/// stand-ins with wl-paste's and wl-copy's command lines and exit statuses, keeping the
/// "clipboard" in files: what is tested is our side (detection, spawning without a shell, the
/// text through a pipe byte-exact, and how failures are told apart).
@Suite("Wayland backend through wl-clipboard's command lines", .temporaryHome)
struct WaylandClipboardTests: ScopedSuite {
    let folder: URL
    let environment: [String: String]

    init() throws {
        folder = TemporaryHome.current.root.appendingPathComponent("wl")
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // wl-copy [--primary]: stores stdin. wl-paste [--primary] [--no-newline] [--type T] | --list-types.
        let copy = """
            #!/bin/sh
            store="$FAKE_WL_STORE/clipboard"
            [ "$1" = --primary ] && store="$FAKE_WL_STORE/primary"
            cat > "$store.data" && echo text/plain > "$store.types"
            """
        let paste = """
            #!/bin/sh
            store="$FAKE_WL_STORE/clipboard"; list=no
            for argument in "$@"; do
              case "$argument" in --primary) store="$FAKE_WL_STORE/primary";; --list-types) list=yes;; esac
            done
            [ -f "$store.types" ] || { echo "No selection" >&2; exit 1; }
            if [ $list = yes ]; then cat "$store.types"; exit 0; fi
            grep -q '^text/' "$store.types" || { echo "No suitable type of content copied" >&2; exit 1; }
            cat "$store.data"
            """
        for (name, text) in [("wl-copy", copy), ("wl-paste", paste)] {
            // Written through a close-on-exec descriptor: one that a process forked meanwhile by
            // a parallel test inherited would keep the file "busy" and make its exec fail
            // (ETXTBSY), which reads as a missing tool.
            let path = bin.appendingPathComponent(name).path
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
            try #require(descriptor >= 0)
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            try #require(written == bytes.count)
        }
        environment = [
            "PATH": bin.path + ":/usr/bin:/bin", "WAYLAND_DISPLAY": "wayland-test", "FAKE_WL_STORE": folder.path,
        ]
    }

    func clipboard() throws -> WaylandClipboard { try WaylandClipboard(environment: environment) }

    @Test("WAYLAND_DISPLAY without DISPLAY picks wl-clipboard; DISPLAY wins when both are set")
    func detection() {
        #expect(ClipboardBackend.detect(environment: environment) == .wayland)
        var both = environment
        both["DISPLAY"] = ":5"
        #expect(ClipboardBackend.detect(environment: both) == .x11(displayName: ":5"))
        var missing = environment
        missing["PATH"] = "/nonexistent"
        #expect(ClipboardBackend.detect(environment: missing) == .none)
        #expect(throws: ClipboardError.waylandToolMissing(tool: "wl-paste")) {
            try WaylandClipboard(environment: missing)
        }
    }

    @Test("what we write is what we read, byte-exact, on both selections", arguments: Selection.allCases)
    func roundTrip(_ selection: Selection) throws {
        let text = Array("Wayland «text» with 'quotes' $(not run) 日本語 🎉\r\nno trailing newline".utf8)
        try clipboard().write(text, to: selection)
        #expect(try clipboard().read(selection, timeout: .seconds(5)) == text)
    }

    @Test("nothing copied is empty; only an image is 'no text', naming the type")
    func failures() throws {
        #expect(throws: ClipboardError.empty(.clipboard)) { try clipboard().read(.clipboard, timeout: .seconds(5)) }
        try Data("image/png\n".utf8).write(to: folder.appendingPathComponent("clipboard.types"))
        try Data([0x89, 0x50]).write(to: folder.appendingPathComponent("clipboard.data"))
        #expect(throws: ClipboardError.noTextTarget(.clipboard, available: ["image/png"])) {
            try clipboard().read(.clipboard, timeout: .seconds(5))
        }
    }

    @Test("paste under Wayland copies the URL with wl-copy", .mock)
    func pasteUsesWlCopy() throws {
        var env = home.environment(["DISPLAY": String?.none])
        for (key, value) in environment { env[key] = value }
        let result = try runProcess(
            BuiltProducts.path(of: "paste"), ["--url", mock.url("/pastes/create")],
            input: .bytes(Data("from wayland\n".utf8)),
            environment: env)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err.isEmpty)
        let copied = try Data(contentsOf: folder.appendingPathComponent("clipboard.data"))
        #expect(String(decoding: copied, as: UTF8.self) + "\n" == result.out)
    }
}
