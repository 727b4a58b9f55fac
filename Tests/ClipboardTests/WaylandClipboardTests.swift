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
        // --type text reads STORE.data; --type TYPE (a type listed) reads STORE.TYPE with / as _
        // (or writes zeros forever when STORE.endless exists). Every call is logged to calls.
        let paste = """
            #!/bin/sh
            echo "$*" >> "$FAKE_WL_STORE/calls"
            store="$FAKE_WL_STORE/clipboard"; list=no; type=text; previous=
            for argument in "$@"; do
              case "$argument" in --primary) store="$FAKE_WL_STORE/primary";; --list-types) list=yes;; esac
              [ "$previous" = --type ] && type="$argument"
              previous="$argument"
            done
            [ -f "$store.types" ] || { echo "No selection" >&2; exit 1; }
            if [ $list = yes ]; then cat "$store.types"; exit 0; fi
            if [ "$type" = text ]; then
              grep -q '^text/' "$store.types" || { echo "No suitable type of content copied" >&2; exit 1; }
              cat "$store.data"; exit 0
            fi
            grep -qx "$type" "$store.types" || { echo "No suitable type of content copied" >&2; exit 1; }
            [ -f "$store.endless" ] && exec cat /dev/zero
            cat "$store.$(echo "$type" | tr / _)"
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

    /// Makes the fake clipboard offer `types`, with `text` as its text and `files` by type.
    func offer(_ types: [String], text: [UInt8] = [], files: [String: [UInt8]] = [:]) throws {
        try Data((types.joined(separator: "\n") + "\n").utf8).write(
            to: folder.appendingPathComponent("clipboard.types"))
        try Data(text).write(to: folder.appendingPathComponent("clipboard.data"))
        for (type, bytes) in files {
            let name = "clipboard." + type.replacingOccurrences(of: "/", with: "_")
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
    }

    /// The wl-paste command lines run so far.
    func calls() throws -> [String] {
        let url = folder.appendingPathComponent("calls")
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("an image-only clipboard: text refused, --list-types, then --type image/png, byte-exact")
    func imageOnly() throws {
        let png = try TestImages.noisePNG(side: 300)
        try offer(["image/jpeg", "image/png"], files: ["image/png": png, "image/jpeg": [0xFF, 0xD8, 0xFF]])
        let content = try clipboard().readContent(.clipboard, timeout: .seconds(10), preferences: ContentPreferences())
        #expect(content == .image(png, type: "image/png"))
        #expect(try calls() == ["--no-newline --type text", "--list-types", "--type image/png"])
    }

    @Test("text and an image: text in one call; the image first when preferred")
    func textAndImage() throws {
        let png = try TestImages.smallPNG()
        let text = Array("caption".utf8)
        try offer(["text/plain", "image/png"], text: text, files: ["image/png": png])
        #expect(
            try clipboard().readContent(.clipboard, timeout: .seconds(10), preferences: ContentPreferences())
                == .text(text))
        #expect(try calls() == ["--no-newline --type text"])
        let preferred = try clipboard().readContent(
            .clipboard, timeout: .seconds(10), preferences: ContentPreferences(prefersImage: true))
        #expect(preferred == .image(png, type: "image/png"))
        #expect(try calls() == ["--no-newline --type text", "--list-types", "--type image/png"])
        // On the primary selection too, with --primary on every call.
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("clipboard.types"), to: folder.appendingPathComponent("primary.types"))
        try Data(png).write(to: folder.appendingPathComponent("primary.image_png"))
        #expect(
            try clipboard().readContent(
                .primary, timeout: .seconds(10), preferences: ContentPreferences(prefersImage: true))
                == .image(png, type: "image/png"))
        #expect(try calls().suffix(2) == ["--list-types --primary", "--type image/png --primary"])
    }

    @Test("a wl-paste that writes without end is killed at the limit; neither text nor image is named")
    func limitsAndFailures() throws {
        try offer(["image/png"])
        try Data().write(to: folder.appendingPathComponent("clipboard.endless"))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: ClipboardError.tooLarge(.clipboard, type: "image/png", limit: 1 << 20)) {
            try clipboard().readContent(
                .clipboard, timeout: .seconds(10), preferences: ContentPreferences(imageLimit: 1 << 20))
        }
        #expect(clock.now - start < .seconds(10))
        try offer(["application/pdf"])
        #expect(throws: ClipboardError.noContentTarget(.clipboard, available: ["application/pdf"])) {
            try clipboard().readContent(.clipboard, timeout: .seconds(10), preferences: ContentPreferences())
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("clipboard.types"))
        #expect(throws: ClipboardError.empty(.clipboard)) {
            try clipboard().readContent(
                .clipboard, timeout: .seconds(10), preferences: ContentPreferences(prefersImage: true))
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
