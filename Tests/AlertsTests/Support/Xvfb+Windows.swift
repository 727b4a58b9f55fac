import Foundation
import Synchronization
import Testing
import TestSupport

/// Driving and observing the alert windows on a test's Xvfb (the `.xvfb` trait), as a person would.
extension Xvfb {
    /// Runs `xdotool` on this display; throws when it exits non-zero.
    @discardableResult
    func xdotool(_ arguments: String...) throws -> String {
        try run("xdotool", arguments)
    }

    /// Runs a tool from PATH with `DISPLAY` pointing here, requiring exit status 0.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], input: ProcessInput = .null) throws -> String {
        let result = try runData(tool, arguments, input: input)
        return String(decoding: result, as: UTF8.self)
    }

    private func runData(_ tool: String, _ arguments: [String], input: ProcessInput = .null) throws -> Data {
        let result = try runProcess(
            "/usr/bin/env", [tool] + arguments, input: input, environment: environment, timeout: 20)
        guard result.status == 0 else {
            throw ToolFailed(command: [tool] + arguments, status: result.status, stderr: result.err)
        }
        return result.stdout
    }

    /// Ids of mapped windows whose `WM_CLASS` instance is `paste`.
    func visiblePasteWindows() -> [String] {
        // xdotool search exits 1 when nothing matches: that is "none yet", not an error.
        let output = (try? run("xdotool", ["search", "--onlyvisible", "--classname", "^paste$"])) ?? ""
        return output.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// Waits until a `paste` window is mapped and returns its id.
    func waitForPasteWindow(timeout: Double = 15) throws -> String {
        var found: String?
        try waitUntil("a window of class paste on \(display)", timeout: timeout) {
            found = visiblePasteWindows().first
            return found != nil
        }
        return try #require(found)
    }

    /// Waits until a `paste` window holds the input focus (a dialog after its keyboard grab).
    func waitForFocusedPasteWindow(timeout: Double = 15) throws -> String {
        var found: String?
        try waitUntil("a focused window of class paste on \(display)", timeout: timeout) {
            let windows = visiblePasteWindows()
            guard !windows.isEmpty, let focus = try? xdotool("getwindowfocus") else { return false }
            let id = focus.trimmingCharacters(in: .whitespacesAndNewlines)
            found = windows.contains(id) ? id : nil
            return found != nil
        }
        return try #require(found)
    }

    /// A window's size from `xdotool getwindowgeometry --shell`.
    func size(ofWindow id: String) throws -> (width: Int, height: Int) {
        let shell = try xdotool("getwindowgeometry", "--shell", id)
        var values: [String: Int] = [:]
        for line in shell.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        return (try #require(values["WIDTH"]), try #require(values["HEIGHT"]))
    }

    /// Captures window `id` with `xwd | convert` into `.build/screenshots/NAME.png`.
    ///
    /// - Returns: the PNG's path.
    @discardableResult
    func screenshot(window id: String, name screenshotName: String) throws -> String {
        let directory = Screenshots.directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("\(screenshotName).png").path
        // One shell pipeline rather than feeding xwd's bytes to convert through runProcess's
        // `.bytes` stdin: under load that path closed a descriptor twice and the alert thread's
        // X connection (which had reused the number) read garbage. Arguments go positionally.
        try run("sh", ["-c", "xwd -silent -id \"$1\" | convert xwd:- \"png:$2\"", "sh", id, path])
        return path
    }
}

/// Facts about a PNG, read with ImageMagick.
enum Screenshots {
    /// `.build/screenshots/` under the package root (found from this file's path).
    static var directory: URL {
        URL(fileURLWithPath: #filePath)  // Tests/AlertsTests/Support/Xvfb+Windows.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/screenshots")
    }

    /// Width and height of the image. Wraps `identify -format %wx%h`.
    static func size(of path: String) throws -> (width: Int, height: Int) {
        let text = try runTool("identify", ["-format", "%w %h", path])
        let numbers = text.split(separator: " ").compactMap { Int($0) }
        try #require(numbers.count == 2, "identify printed \(text)")
        return (numbers[0], numbers[1])
    }

    /// How many distinct colours the image holds (1 = blank). Wraps `convert … -format %k info:`.
    static func colourCount(of path: String) throws -> Int {
        let text = try runTool("convert", [path, "-format", "%k", "info:"])
        return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "convert printed \(text)")
    }

    private static func runTool(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try runProcess("/usr/bin/env", [tool] + arguments, timeout: 20)
        guard result.status == 0 else {
            throw ToolFailed(command: [tool] + arguments, status: result.status, stderr: result.err)
        }
        return result.out
    }
}

/// A helper tool exited non-zero.
struct ToolFailed: Error, CustomStringConvertible {
    var command: [String]
    var status: Int32
    var stderr: String
    var description: String { "\(command.joined(separator: " ")) exited \(status): \(stderr)" }
}

/// The outcome of a blocking alert call made on a background thread.
final class BackgroundCall<Value: Sendable>: Sendable {
    private let outcome = Mutex<Result<Value, AlertErrorBox>?>(nil)

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            let result: Result<Value, AlertErrorBox>
            do {
                result = .success(try body())
            } catch {
                result = .failure(AlertErrorBox(description: "\(error)"))
            }
            self.outcome.withLock { $0 = result }
        }
    }

    /// Whether the call has returned.
    var isFinished: Bool { outcome.withLock { $0 != nil } }

    /// Waits for the call to return, then gives its value or rethrows its error.
    func value(timeout: Double = 15) throws -> Value {
        try waitUntil("the alert call to return", timeout: timeout) { isFinished }
        return try outcome.withLock { $0! }.get()
    }
}

/// An error thrown on the background thread, carried back as text.
struct AlertErrorBox: Error, CustomStringConvertible {
    var description: String
}
