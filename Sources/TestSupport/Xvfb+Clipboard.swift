import Foundation

extension Xvfb {
    /// The CLIPBOARD as `xclip -o` reads it on this display.
    public func clipboardText() throws -> String {
        try runProcess("/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: environment, timeout: 20).out
    }

    /// Starts `xclip -i` owning the CLIPBOARD with `data` (as `type`, UTF8_STRING by default) and
    /// waits until it offers that target.
    ///
    /// xclip forks a server that keeps whatever stdio it got: it gets a file and /dev/null,
    /// nothing of ours, and is not waited for.
    public func startXclip(_ data: Data, type: String? = nil) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("clip-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let input = try FileHandle(forReadingFrom: file)
        _ = try SpawnedProcess(
            "/usr/bin/xclip", ["-i", "-selection", "clipboard"] + (type.map { ["-t", $0] } ?? []),
            environment: environment, standardInput: .handle(input))
        try? input.close()
        try waitUntil("xclip to own the clipboard") {
            let targets = try? runProcess(
                "/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"], environment: environment,
                timeout: 20)
            return targets?.out.contains(type ?? "UTF8_STRING") == true
        }
    }

    /// Puts `text` on the CLIPBOARD with xclip and waits until it is readable.
    public func putOnClipboard(_ text: String) throws {
        try startXclip(Data(text.utf8))
        try waitUntil("the clipboard to hold the text") { try clipboardText() == text }
    }
}
