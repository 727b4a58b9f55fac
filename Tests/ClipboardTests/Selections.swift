import Foundation
import Testing
import TestSupport
import X11Interop

@testable import Clipboard

/// Helpers for driving the selections from tests.
enum Selections {
    /// The built `paste`, which runs the selection owner for `--internal-selection-owner`.
    static var pasteExecutable: String { BuiltProducts.path(of: "paste") }

    /// Our clipboard on `server`.
    static func clipboard(_ server: Xvfb) -> X11Clipboard {
        X11Clipboard(displayName: server.display, helperExecutable: pasteExecutable, environment: server.environment)
    }

    /// Text of about `size` bytes with multi-byte UTF-8 (2-, 3- and 4-byte characters), cut at
    /// a character boundary so it stays valid.
    static func text(size: Int) -> [UInt8] {
        let pattern = Array("héllo wörld ✓ € 😀 \u{1F469}\u{200D}\u{1F4BB} ß\n".utf8)
        if size < 4 { return Array(repeating: UInt8(ascii: "a"), count: size) }
        var result: [UInt8] = []
        result.reserveCapacity(size + pattern.count)
        while result.count < size { result.append(contentsOf: pattern) }
        var end = size
        while end > 0 && result[end] & 0xC0 == 0x80 { end -= 1 }  // Not inside a character.
        return Array(result[0..<end])
    }

    /// Whether two byte arrays are equal, at `memcmp`'s speed: in a debug build `Array`'s generic
    /// `==` compares byte by byte through witness calls.
    static func sameBytes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        Data(left) == Data(right)
    }

    /// Gives `selection` to nobody, so the next owner is the one we wait for.
    static func clear(_ selection: Selection, on server: Xvfb) throws {
        let display = try Display(name: server.display)
        defer { display.close() }
        let window = display.createWindow(events: .propertyChange)
        let time = try display.serverTime(using: window, before: .now + .seconds(5))
        display.setSelectionOwner(display.atom(selection.atomName), to: nil, at: time)
        try display.sync()
    }

    /// Whether `selection` has an owner.
    static func hasOwner(_ selection: Selection, on server: Xvfb) throws -> Bool {
        let display = try Display(name: server.display)
        defer { display.close() }
        return display.selectionOwner(display.atom(selection.atomName)) != nil
    }

    /// Starts a tool that takes the selection and forks a server into the background
    /// (`xclip -i`, `xsel -i`), feeding it `input`, and waits until the selection has an owner.
    static func startOwnerTool(_ arguments: [String], input: [UInt8], on server: Xvfb, selection: Selection) throws {
        try clear(selection, on: server)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("clip-\(UUID().uuidString)")
        try Data(input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // The forked server keeps whatever stdio it got: give it nothing of ours.
        let stdin = try FileHandle(forReadingFrom: file)
        _ = try SpawnedProcess(
            arguments[0], Array(arguments.dropFirst()), environment: server.environment, standardInput: .handle(stdin))
        try? stdin.close()
        try waitUntil("\(arguments[0]) to take the \(selection)", timeout: 60) {
            try hasOwner(selection, on: server)
        }
    }

    /// Runs a reading tool (`xclip -o`, `xsel -o`) and returns its stdout.
    static func readWithTool(_ arguments: [String], on server: Xvfb) throws -> [UInt8] {
        let result = try runProcess(
            arguments[0], Array(arguments.dropFirst()), environment: server.environment, timeout: 120)
        #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.err)")
        return [UInt8](result.stdout)
    }

    /// Whether our child `pid` has exited (and reaps it).
    static func hasExited(_ pid: Int32) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }
}

/// `xclip` arguments for a selection.
func xclipSelection(_ selection: Selection) -> [String] { ["-selection", selection.rawValue] }

/// `xsel` flag for a selection.
func xselFlag(_ selection: Selection) -> String { selection == .clipboard ? "-b" : "-p" }
