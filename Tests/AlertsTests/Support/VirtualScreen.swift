import Foundation
import Synchronization
import Testing
import TestSupport

extension Tag {
    /// Tests that need an X server (each starts its own Xvfb).
    @Tag static var x11: Self
}

/// An Xvfb server started for one test, on a display it picks itself (`-displayfd`), stopped
/// when released. Fails loudly when Xvfb cannot start.
final class VirtualScreen {
    /// The display name, e.g. `:3`.
    let name: String
    private let process: Process

    /// The screen size every X test runs at; DPI is pinned so layout sizes are exact.
    static let width = 1280
    static let height = 800
    static let dotsPerInch = 96

    init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "Xvfb", "-displayfd", "1", "-screen", "0", "\(Self.width)x\(Self.height)x24", "-dpi",
            "\(Self.dotsPerInch)", "-nolisten", "tcp", "-noreset",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Xvfb writes the display number and a newline to -displayfd once it accepts clients.
        let number = Mutex<String?>(nil)
        let reader = out.fileHandleForReading
        Thread.detachNewThread {
            var text = ""
            while let byte = try? reader.read(upToCount: 1), let first = byte.first {
                if first == UInt8(ascii: "\n") { break }
                text.append(Character(UnicodeScalar(first)))
            }
            number.withLock { $0 = text }
        }
        do {
            try waitUntil("Xvfb to report its display number", timeout: 20) {
                number.withLock { $0 != nil } || !process.isRunning
            }
        } catch {
            kill(process.processIdentifier, SIGKILL)
            throw error
        }
        guard let text = number.withLock({ $0 }), let display = Int(text) else {
            kill(process.processIdentifier, SIGKILL)
            throw XvfbDidNotStart(status: process.isRunning ? nil : process.terminationStatus)
        }
        name = ":\(display)"
    }

    deinit { stop() }

    /// Stops the server. Tests call it in a `defer`, so the server lives until the test ends
    /// (ARC may release a value after its last use, which could be before the alert finished).
    func stop() {
        guard process.isRunning else { return }
        // SIGKILL, not SIGTERM: Process spawns from a test thread whose signal mask (set by
        // libdispatch) blocks SIGTERM, and the child inherits it, so Xvfb would never see it.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // A killed Xvfb leaves its lock and socket behind; they are ours to remove.
        let number = name.dropFirst()
        unlink("/tmp/.X\(number)-lock")
        unlink("/tmp/.X11-unix/X\(number)")
    }

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
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = name
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
        try waitUntil("a window of class paste on \(name)", timeout: timeout) {
            found = visiblePasteWindows().first
            return found != nil
        }
        return try #require(found)
    }

    /// Waits until a `paste` window holds the input focus (a dialog after its keyboard grab).
    func waitForFocusedPasteWindow(timeout: Double = 15) throws -> String {
        var found: String?
        try waitUntil("a focused window of class paste on \(name)", timeout: timeout) {
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
        URL(fileURLWithPath: #filePath)  // Tests/AlertsTests/Support/VirtualScreen.swift
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

/// Xvfb exited or never printed its display number.
struct XvfbDidNotStart: Error, CustomStringConvertible {
    var status: Int32?
    var description: String { "Xvfb did not start (exit status \(status.map(String.init) ?? "none"))" }
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
