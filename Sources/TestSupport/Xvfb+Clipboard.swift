import Foundation

extension Xvfb {
    /// The CLIPBOARD as `xclip -o` reads it on this display, within `timeout` seconds.
    public func clipboardText(timeout: Double = 20) throws -> String {
        try runProcess("/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: environment, timeout: timeout)
            .out
    }

    /// How long one look at the CLIPBOARD may take while an owner is awaited. xclip -o has no
    /// timeout of its own, and a request that reached an owner as it gave the selection up (the
    /// last test's xclip, leaving as the next one takes over) is never answered: such a look
    /// is given up and the next one asks the new owner.
    static let probeTimeout = 2.0

    /// The CLIPBOARD converted to `target` as `xclip -o -t TARGET` reads it on this display (its
    /// status too: a target the owner does not offer fails).
    public func readClipboard(target: String, timeout: Double = 20) throws -> ProcessResult {
        try runProcess(
            "/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", target], environment: environment,
            timeout: timeout)
    }

    /// The CLIPBOARD's targets as its owner lists them (`xclip -o -t TARGETS`), one a line.
    ///
    /// - Throws: `ClipboardTargetsUnread` when xclip could not read them (nobody owns the
    ///   CLIPBOARD, or its owner does not answer TARGETS).
    public func clipboardTargets(timeout: Double = 20) throws -> [String] {
        let result = try readClipboard(target: "TARGETS", timeout: timeout)
        guard result.status == 0 else { throw ClipboardTargetsUnread(status: result.status, stderr: result.err) }
        return result.out.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// Starts `xclip -i` owning the CLIPBOARD with `data` (as `type`, UTF8_STRING by default) and
    /// waits until it offers that target.
    public func startXclip(_ data: Data, type: String? = nil) throws {
        try spawnXclipOwner(data, type: type, environment: environment)
        try waitUntil("xclip to own the clipboard") {
            (try? clipboardTargets(timeout: Self.probeTimeout))?.contains(type ?? "UTF8_STRING") == true
        }
    }

    /// Puts `text` on the CLIPBOARD with xclip and waits until it is readable.
    public func putOnClipboard(_ text: String) throws {
        try startXclip(Data(text.utf8))
        try waitUntil("the clipboard to hold the text") { (try? clipboardText(timeout: Self.probeTimeout)) == text }
    }
}

/// Why `Xvfb.clipboardTargets()` has no list: xclip's status and what it said.
public struct ClipboardTargetsUnread: Error, CustomStringConvertible {
    public var status: Int32
    public var stderr: String
    public var description: String { "xclip -o -t TARGETS exited \(status): \(stderr)" }
}

/// Starts `xclip -i` owning `selection` ("clipboard" or "primary") with `data` (as `type`,
/// UTF8_STRING by default) on the display `environment` names, and returns without waiting for
/// it to own it: each caller waits for what it needs to see.
///
/// xclip forks a server that keeps whatever stdio it got: it gets a file (already unlinked when
/// this returns) and /dev/null, nothing of ours, and is not waited for.
public func spawnXclipOwner(
    _ data: Data, selection: String = "clipboard", type: String? = nil, environment: [String: String]
) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("clip-\(UUID().uuidString)")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let input = try FileHandle(forReadingFrom: file)
    defer { try? input.close() }
    _ = try SpawnedProcess(
        "/usr/bin/xclip", ["-i", "-selection", selection] + (type.map { ["-t", $0] } ?? []),
        environment: environment, standardInput: .handle(input))
}
