import Foundation
import PasteCore
import Stores
import Testing
import TestSupport

@testable import PasteCLI

/// Clipboard images through the whole pipeline: real PNGs put on the CLIPBOARD with
/// `xclip -t image/png` under Xvfb, uploaded by the built `paste` to paste-mock's 0x0 route (and
/// to a ShareX image uploader), fetched back byte-exact, the URL read back with xclip.
@Suite("Clipboard images, end to end", .tags(.x11), .needsXServer, .xvfb, .temporaryHome, .mock, .serialized)
struct ImageEndToEndTests: ScopedSuite {
    /// The config: paste-mock's 0x0 route as the image service, plus `extra`.
    func useImageService(_ extra: String = "") throws {
        try paste.writeConfig(
            """
            [paste]
                image-service = 0x0
            [service "0x0"]
                url = \(mock.url("/0x0/"))

            """ + extra)
    }

    /// Puts `image` on the CLIPBOARD as `type` with xclip, which then offers nothing else.
    func putOnClipboard(_ image: [UInt8], type: String = "image/png") throws {
        try xvfb.startXclip(Data(image), type: type)
    }

    @Test(
        "a PNG on the clipboard goes to image-service byte-exact; the URL is printed and copied; history says image/png"
    )
    func clipboardImage() throws {
        // Random noise does not compress: about 480 KB, past the size where owners switch to INCR.
        let png = try TestImages.noisePNG(side: 400)
        try useImageService()
        try putOnClipboard(png)
        let result = try paste.run(["--no-notify"])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.url("/0x0/")) && url.hasSuffix(".png"), "\(url)")

        let served = try mock.fetch(url: url)
        #expect(served.status == 200)
        #expect(served.body == Data(png), "\(served.body.count) bytes served of \(png.count)")
        #expect(served.header("Content-Type") == "image/png")
        #expect(try xvfb.clipboardText() == url)

        // One request: the image as the file part, named after the time, with its type.
        let posts = try mock.posts()
        #expect(posts.count == 1)
        let part = try #require(posts.first?.field("file"))
        #expect(part.contentType == "image/png")
        let name = try #require(part.filename)
        #expect(name.wholeMatch(of: /clipboard-\d{8}-\d{6}\.png/) != nil, "\(name)")

        let record = try #require(try historyRecords().last)
        #expect(record["type"] as? String == "image/png")
        #expect(record["bytes"] as? Int == png.count)
        #expect(record["sha256"] as? String == (try sha256sum(Data(png))))
        #expect(record["url"] as? String == url)
        #expect(record["preview"] == nil)
    }

    @Test("--json names the type and the file name; the same image again within the window reuses the URL")
    func jsonAndRepeat() throws {
        let png = try TestImages.make(["-size", "120x90", "gradient:orange-purple"], as: "png")
        try useImageService()
        try putOnClipboard(png)
        let first = try paste.run(["--no-notify", "--json", "--no-copy"])
        #expect(first.status == 0, "stderr: \(first.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])
        #expect(object["type"] as? String == "image/png")
        #expect(object["bytes"] as? Int == png.count)
        #expect(object["repeat"] as? Bool == false)
        #expect((object["file"] as? String)?.wholeMatch(of: /clipboard-\d{8}-\d{6}\.png/) != nil)

        // Dedupe works on the bytes: the same image is answered from history, no second POST.
        let second = try paste.run(["--no-notify", "--no-copy"])
        #expect(second.status == 0, "stderr: \(second.err)")
        #expect(second.out.trimmingCharacters(in: .newlines) == object["url"] as? String)
        #expect(second.err.contains("the same image went to 0x0 moments ago; reusing its URL"))
        #expect(try mock.posts().count == 1)
        // --new makes another.
        let third = try paste.run(["--no-notify", "--no-copy", "--new"])
        #expect(third.status == 0, "stderr: \(third.err)")
        #expect(third.out.trimmingCharacters(in: .newlines) != object["url"] as? String)
        #expect(try mock.posts().count == 2)
    }

    @Test("a ShareX image uploader (MultipartFormData, FileFormName file) as image-service takes the image")
    func shareXImageUploader() throws {
        let definition = """
            {
              "Version": "15.0.0",
              "Name": "Screenshots",
              "DestinationType": "ImageUploader",
              "RequestMethod": "POST",
              "RequestURL": "\(mock.url("/sx/text"))",
              "Body": "MultipartFormData",
              "FileFormName": "file",
              "URL": "{response}"
            }
            """
        let file = try paste.home.write(definition, to: "sharex/screenshots.sxcu")
        try paste.writeConfig(
            """
            [paste]
                image-service = shots
            [service "shots"]
                sxcu = \(file)

            """)
        let jpeg = try TestImages.make(["-size", "160x100", "gradient:red-blue"], as: "jpeg")
        try putOnClipboard(jpeg, type: "image/jpeg")
        let result = try paste.run(["--no-notify"])
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        let stored = try mock.paste(id: try #require(pasteID(url)))
        #expect(stored.data == Data(jpeg))
        #expect(stored.contentType == "image/jpeg")
        #expect(stored.filename?.wholeMatch(of: /clipboard-\d{8}-\d{6}\.jpg/) != nil, "\(stored.filename ?? "none")")
        #expect(try mock.posts().first?.field("file")?.filename == stored.filename)
        #expect(try xvfb.clipboardText() == url)

        // The same uploader takes no text: text on the clipboard is refused, nothing sent. (With
        // -S it is the run's service; without, text goes to the usual one.)
        try xvfb.putOnClipboard("some text")
        try mock.clearRequests()
        let text = try paste.run(["--no-notify", "-S", "shots"])
        #expect(text.status == 65)
        #expect(
            text.err
                == "paste: service 'shots' takes images only, not text, so nothing was uploaded: name a service that "
                + "takes text with -S NAME\n"
        )
        #expect(try mock.requests().isEmpty)
    }

    @Test("a text-only service refuses the image in one line naming image-service (65); nothing is sent")
    func textOnlyRefuses() throws {
        let png = try TestImages.smallPNG()
        // No image-service; the usual service is a pastebin on the mock that takes text only.
        try paste.writeConfig(pastieConfig(mock, name: "pastie", isDefault: true))
        try putOnClipboard(png)
        let unset = try paste.run(["--no-notify"])
        #expect(unset.status == 65)
        #expect(
            unset.err
                == "paste: the clipboard holds an image (PNG), and no service for images is chosen, so nothing was "
                + "uploaded: name one with -S NAME, or add 'image-service = NAME' under [paste] in the config "
                + "('paste --list-services' lists them)\n")
        // Named with -S, a text-only service refuses it too, naming accepts and image-service.
        let named = try paste.run(["--no-notify", "-S", "pastie"])
        #expect(named.status == 65)
        #expect(
            named.err
                == "paste: the clipboard holds an image (PNG), but service 'pastie' takes text only, so nothing was "
                + "uploaded: name a service that takes images with -S NAME, or add 'image-service = NAME' under "
                + "[paste] in the config\n")
        #expect(try mock.requests().isEmpty)
        // The clipboard keeps the image.
        let targets = try runProcess(
            "/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"], environment: xvfb.environment,
            timeout: 20)
        #expect(targets.out.contains("image/png"))
    }

    @Test("--image with only text on the clipboard is refused (65): that text is not what was meant; nothing sent")
    func imageAskedButTextOnly() throws {
        try useImageService()
        try xvfb.putOnClipboard("a note, not a picture")
        let result = try paste.run(["--no-notify", "--image"], stdin: "stdin is not read with --image")
        #expect(result.status == 65)
        #expect(
            result.err
                == "paste: the clipboard holds text but no image, and --image sends only an image\n"
                + "paste: copy an image, or leave out --image to send the text\n")
        #expect(try mock.requests().isEmpty)
        #expect(try xvfb.clipboardText() == "a note, not a picture")
    }

    @Test("a PNG over the image service's max-size is refused while it is read (65), with a hint")
    func tooLarge() throws {
        let png = try TestImages.noisePNG(side: 300)
        try useImageService("    max-size = 100k\n")
        try putOnClipboard(png)
        let result = try paste.run(["--no-notify"])
        #expect(result.status == 65)
        let lines = result.err.split(separator: "\n")
        #expect(lines.first == "paste: the clipboard's image/png is over the limit of 102400 bytes; reading stopped")
        #expect(lines.count == 2 && lines[1].contains("max-size"), "\(result.err)")
        #expect(try mock.requests().isEmpty)
    }

    /// The history file's records, as JSON objects.
    func historyRecords() throws -> [[String: Any]] {
        try paste.historyLines().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }
}

/// Binary files and images from files and stdin, no display needed.
@Suite("Binary files and images from -f and stdin", .temporaryHome, .mock)
struct BinaryFileTests: ScopedSuite {
    /// 0x0 pointed at the mock (and, with `asImageService`, the image service).
    func useFileHost(asImageService: Bool = false, _ extra: String = "") throws {
        try paste.writeConfig(
            (asImageService ? "[paste]\n    image-service = 0x0\n" : "")
                + "[service \"0x0\"]\n    url = \(mock.url("/0x0/"))\n" + extra)
    }

    /// Writes `bytes` to `name` in the test's home; returns the path.
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let url = paste.home.root.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Random bytes that are certainly not text (a NUL near the start).
    static func randomBinary(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[3] = 0
        return bytes
    }

    @Test("-f of a 300 KB binary to a file host goes byte-exact as a file part; a text-only service refuses it")
    func binaryFile() throws {
        try useFileHost()
        let bytes = Self.randomBinary(count: 300_000)
        let path = try write(bytes, to: "blob.bin")
        let result = try paste.run(["-S", "0x0", "-f", path, "--json", "--no-copy"])
        #expect(result.status == 0, "stderr: \(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["type"] as? String == "application/octet-stream")
        #expect(object["bytes"] as? Int == 300_000)
        #expect(object["file"] as? String == "blob.bin")
        let url = try #require(object["url"] as? String)
        #expect(try mock.fetch(url: url).body == Data(bytes))
        let part = try #require(try mock.posts().first?.field("file"))
        #expect(part.filename == "blob.bin")
        #expect(part.contentType == "application/octet-stream")

        // The usual service (dpaste, pointed at the mock) takes text only: one line, nothing sent.
        try mock.clearRequests()
        try paste.writeConfig("[service \"dpaste\"]\n    url = \(mock.url("/api/v2/"))\n")
        let refused = try paste.run(["-f", path, "--no-copy", "-S", "dpaste"])
        #expect(refused.status == 65)
        #expect(
            refused.err
                == "paste: '\(path)' holds binary data (application/octet-stream), but service 'dpaste' takes text "
                + "only, so nothing was uploaded: name a service that takes files with -S NAME\n")
        #expect(try mock.requests().isEmpty)
    }

    @Test("-f of an image needs an image service or -S; -f shot.png -S 0x0 sends it with its type")
    func imageFile() throws {
        let png = try TestImages.smallPNG()
        let path = try write(png, to: "shot.png")
        try useFileHost()
        let unset = try paste.run(["-f", path, "--no-copy"])
        #expect(unset.status == 65)
        #expect(
            unset.err.hasPrefix(
                "paste: '\(path)' holds an image (PNG), and no service for images is chosen, so nothing "))
        #expect(try mock.requests().isEmpty)

        let named = try paste.run(["-f", path, "-S", "0x0", "--no-copy"])
        #expect(named.status == 0, "stderr: \(named.err)")
        let served = try mock.fetch(url: named.out.trimmingCharacters(in: .newlines))
        #expect(served.body == Data(png))
        #expect(served.header("Content-Type") == "image/png")
        #expect(try mock.posts().first?.field("file")?.filename == "shot.png")
    }

    @Test("a PNG piped in goes to image-service as stdin.png; binary stdin goes only to a file host")
    func standardInput() throws {
        let png = try TestImages.smallPNG()
        try useFileHost(asImageService: true)
        let image = try paste.run(["--no-copy"], input: .bytes(Data(png)))
        #expect(image.status == 0, "stderr: \(image.err)")
        #expect(try mock.fetch(url: image.out.trimmingCharacters(in: .newlines)).body == Data(png))
        #expect(try mock.posts().last?.field("file")?.filename == "stdin.png")

        let blob = Self.randomBinary(count: 5000)
        let refused = try paste.run(["--no-copy"], input: .bytes(Data(blob)))
        #expect(refused.status == 65)
        #expect(
            refused.err.hasPrefix("paste: stdin holds binary data (application/octet-stream), but service 'dpaste'"))
        let sent = try paste.run(["--no-copy", "-S", "0x0"], input: .bytes(Data(blob)))
        #expect(sent.status == 0, "stderr: \(sent.err)")
        #expect(try mock.fetch(url: sent.out.trimmingCharacters(in: .newlines)).body == Data(blob))
        #expect(try mock.posts().last?.field("file")?.filename == "stdin")
    }

    @Test(
        "text that is not UTF-8 (Latin-1) is still text, not binary: multipart sends it byte-exact, form refuses it"
    )
    func latin1IsText() throws {
        try paste.writeConfig("[service \"dpaste\"]\n    url = \(mock.url("/api/v2/"))\n")
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(" cr".utf8) + [0xE8, 0x6D, 0x65, 0x0A]
        let path = try write(latin1, to: "menu.txt")
        let sent = try paste.run(["-f", path, "--no-copy", "--url", mock.url("/pastes/create")])
        #expect(sent.status == 0, "stderr: \(sent.err)")
        #expect(try mock.posts().last?.field("paste[body]")?.data == Data(latin1))
        // Form carries only UTF-8: refused as text that is not UTF-8 (issue 16), never as binary.
        let refused = try paste.run(["-f", path, "--no-copy", "-S", "dpaste"])
        #expect(refused.status == 65)
        #expect(
            refused.err.hasPrefix("paste: the text is not UTF-8 (byte offset 3), and format = form"),
            "stderr: \(refused.err)")
        #expect(try mock.posts().count == 1)
    }

    @Test("the secret guard reads text only: a PNG whose comment holds a token goes up; the token as text does not")
    func guardSkipsImages() throws {
        let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
        let png = try TestImages.make(["-size", "16x16", "xc:red", "-set", "comment", "deploy \(token)"], as: "png")
        #expect(String(decoding: png, as: UTF8.self).contains(token))
        let path = try write(png, to: "tokened.png")
        try useFileHost()
        let image = try paste.run(["-f", path, "-S", "0x0", "--no-copy"])
        #expect(image.status == 0, "stderr: \(image.err)")
        let text = try paste.run(["-S", "0x0", "--no-copy"], stdin: "deploy \(token)\n")
        #expect(text.status == 77)
        #expect(try mock.posts().count == 1)
    }

    @Test("a failed image upload is kept in the outbox byte-exact with its type; sent again as the same file")
    func outbox() throws {
        let png = try TestImages.make(["-size", "64x64", "gradient:green-yellow"], as: "png")
        let path = try write(png, to: "diagram.png")
        try useFileHost(asImageService: true, "[paste]\n    retries = 0\n")
        try mock.addFault(.status(500), count: 0, path: "/0x0/")
        let failed = try paste.run(["-f", path, "--no-copy"])
        #expect(failed.status != 0)
        // A 500 may have made the paste: held, and sent again only when asked.
        let id = try #require(try paste.outboxIDs().first)
        #expect(failed.err.hasSuffix(keptLine(id: id, isHeld: true) + "\n"), "stderr: \(failed.err)")
        #expect(try paste.outboxContents() == [Data(png)])
        let metadata = try #require(try outboxMetadata().first)
        #expect(metadata["type"] as? String == "image/png")
        #expect(metadata["file_name"] as? String == "diagram.png")
        try mock.clearFaults()
        try mock.clearRequests()

        #expect(try paste.run(["--retry"]).status == 0)
        #expect(try mock.posts().isEmpty)
        let retry = try paste.run(["--outbox", "send", id, "--json"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: retry.stdout) as? [String: Any])
        #expect(object["type"] as? String == "image/png")
        let url = try #require(object["url"] as? String)
        let served = try mock.fetch(url: url)
        #expect(served.body == Data(png))
        #expect(served.header("Content-Type") == "image/png")
        #expect(try mock.posts().first?.field("file")?.filename == "diagram.png")
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("--history shows an image's type; --pick's row says type and size when there is no title")
    func historyAndPick() throws {
        let png = try TestImages.smallPNG()
        let path = try write(png, to: "shot.png")
        try useFileHost()
        #expect(try paste.run(["-f", path, "-S", "0x0", "--no-copy"]).status == 0)
        #expect(try paste.run(["-S", "0x0", "--no-copy"], stdin: "a text paste\n").status == 0)
        let history = try paste.run(["--history"])
        let lines = history.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix(" \(png.count) B image/png"), "\(lines[0])")
        #expect(lines[1].hasSuffix(" 13 B"), "\(lines[1])")
        let json = try paste.run(["--history", "--json"])
        #expect(json.out.split(separator: "\n").first?.contains(#""type":"image/png""#) == true)

        // --pick's rows (drawn in a window): an image without a title says what it is.
        let record = HistoryRecord(
            time: Date(), service: "0x0", url: "u", byteCount: 123_456, sha256: "", type: "image/png")
        #expect(Runner.contentSummary(of: record) == "image/png · 120.6 KiB")
        var text = record
        text.type = "text/plain"
        #expect(Runner.contentSummary(of: text) == nil)
        text.type = nil
        #expect(Runner.contentSummary(of: text) == nil)
    }

    @Test("--image reads the clipboard: with -f it is a usage error (64)")
    func imageWithFile() throws {
        let result = try paste.run(["--image", "-f", "x.png"])
        #expect(result.status == 64)
        #expect(result.err.hasPrefix("paste: --image reads the clipboard; it cannot be combined with -f\n"))
    }

    /// The outbox's metadata files, as JSON objects, oldest first.
    func outboxMetadata() throws -> [[String: Any]] {
        let folder = paste.home.stateHome.appendingPathComponent("paste/outbox")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map {
            try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent($0)))
                    as? [String: Any])
        }
    }
}
