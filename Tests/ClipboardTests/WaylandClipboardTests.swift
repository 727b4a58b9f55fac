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
            try Self.installScript(text, at: bin.appendingPathComponent(name).path)
        }
        environment = [
            "PATH": bin.path + ":/usr/bin:/bin", "WAYLAND_DISPLAY": "wayland-test", "FAKE_WL_STORE": folder.path,
        ]
    }

    func clipboard() throws -> WaylandClipboard { try WaylandClipboard(environment: environment) }

    /// Writes an executable script at `path`, through a close-on-exec descriptor: one that a
    /// process forked meanwhile by a parallel test inherited would keep the file "busy" and
    /// make its exec fail (ETXTBSY), which reads as a missing tool.
    static func installScript(_ text: String, at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try #require(written == bytes.count)
    }

    /// Replaces the fake `tool` with one that hangs as wl-clipboard's focus-popup fallback does
    /// (it waits for a keyboard focus that never comes), writing its pid to `tool.pid` first.
    func installHanging(_ tool: String) throws -> URL {
        let pidFile = folder.appendingPathComponent("\(tool).pid")
        try Self.installScript(
            "#!/bin/sh\necho $$ > \"$FAKE_WL_STORE/\(tool).pid\"\nexec sleep 600\n",
            at: folder.appendingPathComponent("bin/\(tool)").path)
        return pidFile
    }

    /// The pid a hanging tool wrote, once it did.
    func hungPid(_ file: URL) throws -> Int32 {
        try #require(
            Int32(
                String(decoding: try Data(contentsOf: file), as: UTF8.self).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
    }

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

    @Test("wl-copy cannot mark a secret: the write says so, naming wl-copy, and copies the text")
    func secretUnmarked() throws {
        let url = Array("https://privatebin.example/?f468483c313401e8#9qWEnKDF2ktaWzZMhXW7o4".utf8)
        #expect(
            try clipboard().prepareWrite(to: .clipboard).complete(with: url, isSecret: true)
                == .unavailable(writer: "wl-copy"))
        #expect(try clipboard().read(.clipboard, timeout: .seconds(5)) == url)
        #expect(
            try clipboard().prepareWrite(to: .clipboard).complete(with: Array("plain".utf8), isSecret: false)
                == .notAsked)
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

    @Test("a wl-paste that hangs is killed at the clipboard timeout: one error, no process left")
    func hangingPaste() throws {
        let pidFile = try installHanging("wl-paste")
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: ClipboardError.waylandToolTimedOut(tool: "wl-paste", seconds: 0.5)) {
            try clipboard().read(.clipboard, timeout: .milliseconds(500))
        }
        #expect(clock.now - start < .seconds(5))
        let pid = try hungPid(pidFile)
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "wl-paste \(pid) is gone (killed and reaped)")
        let message = ClipboardError.waylandToolTimedOut(tool: "wl-paste", seconds: 0.5).message
        #expect(message == "wl-paste did not finish within 0.5 s and was stopped")
    }

    @Test("a wl-copy that hangs is killed at its deadline: one error, no process left")
    func hangingCopy() throws {
        let pidFile = try installHanging("wl-copy")
        let clipboard = try WaylandClipboard(environment: environment, copyTimeout: .milliseconds(500))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: ClipboardError.waylandToolTimedOut(tool: "wl-copy", seconds: 0.5)) {
            try clipboard.write(Array("https://paste.example/1".utf8), to: .clipboard)
        }
        #expect(clock.now - start < .seconds(5))
        let pid = try hungPid(pidFile)
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "wl-copy \(pid) is gone (killed and reaped)")
    }

    /// Runs the built `paste` as a launcher would under Wayland: stdin /dev/null, no DISPLAY.
    func runPaste(_ extra: [String: String?], config: String? = nil) throws -> ProcessResult {
        if let config { try home.write(config, to: "config/paste/config") }
        var env = home.environment(["DISPLAY": String?.none, "NO_COLOR": "1"])
        for (key, value) in environment { env[key] = value }
        for (key, value) in extra { env[key] = value }
        return try runProcess(
            BuiltProducts.path(of: "paste"), ["--no-notify", "--url", "http://127.0.0.1:9/none"], input: .null,
            environment: env, timeout: 60)
    }

    @Test("paste with a hanging wl-paste: the clipboard-timeout stops it, exit 69 (nothing waits), one line")
    func pasteWithHangingTool() throws {
        let pidFile = try installHanging("wl-paste")
        let result = try runPaste([:], config: "[paste]\n    clipboard-timeout = 0.5\n")
        #expect(result.out == "")
        #expect(result.err == "paste: wl-paste did not finish within 0.5 s and was stopped\n")
        #expect(result.status == 69)
        let pid = try hungPid(pidFile)
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "wl-paste \(pid) is gone")
    }

    @Test(
        "the missing-clipboard line says 'no data-control' only when the compositor answered so",
        arguments: [(Bool?.some(false), true), (nil, false), (true, false)])
    func missingDataControl(answer: Bool?, namesDataControl: Bool) throws {
        let environment = ["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000", "PATH": "/nonexistent"]
        var asked: [String] = []
        let missing = try #require(
            MissingClipboard.detect(environment: environment) { socket in
                asked.append(socket)
                return answer
            })
        #expect(asked == ["/run/user/1000/wayland-1"])
        #expect(missing.hasDataControl == answer)
        #expect(missing.message.contains("the compositor offers no data-control") == namesDataControl)
        // With DISPLAY set, X11 (XWayland) is the way: nothing is missing, nobody is asked.
        var withX = environment
        withX["DISPLAY"] = ":1"
        #expect(
            MissingClipboard.detect(environment: withX) { _ in
                Issue.record("asked")
                return nil
            } == nil)
    }

    @Test("paste under Wayland with no wl-clipboard on PATH names what is missing, exit 69")
    func pasteWithoutTools() throws {
        let empty = folder.appendingPathComponent("empty-bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try runPaste(["PATH": empty.path])
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: no clipboard: WAYLAND_DISPLAY is set, DISPLAY is not, and wl-clipboard is not installed "
                + "(no wl-copy and wl-paste on PATH)\n")
        #expect(result.status == 69)
        // Piped text is uploaded elsewhere; here only the copy would need the clipboard, and the
        // note says why it was not made.
        #expect(
            MissingClipboard(waylandDisplay: "wayland-1", hasDataControl: false, missingTools: ["wl-copy"]).message
                == "no clipboard: WAYLAND_DISPLAY is set, DISPLAY is not, and the compositor offers no data-control "
                + "and wl-clipboard is not installed (no wl-copy on PATH)")
    }
}
