import Foundation

/// A private X server for a test or a suite (see the `.xvfb` trait): `Xvfb` on a free display
/// number, killed on `stop()`.
///
/// Xvfb picks the first free display number itself and writes it to the descriptor named by
/// `-displayfd` once it accepts connections, so no sleep and no guessed number is needed: we pass
/// `-displayfd 1` and read stdout.
public final class Xvfb: @unchecked Sendable {
    // Safe: `process` and `display` are set once in init; `stop` is idempotent.
    /// The display name, `:N`.
    public let display: String
    private let process: SpawnedProcess

    /// The screen every X test runs on; the DPI is pinned so the alerts' layout sizes are exact.
    public static let screenWidth = 1280
    public static let screenHeight = 800
    public static let dotsPerInch = 96

    /// The installed Xvfb, if any.
    public static let executable = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Starts Xvfb and waits (at most `timeout` seconds) until it accepts connections.
    /// - Throws: `XvfbError` when it cannot start; tests should fail loudly then.
    public init(timeout: Double = 20) throws {
        guard let executable = Self.executable else {
            throw XvfbError(reason: "Xvfb is not installed (apt install xvfb)")
        }
        let output = Pipe()
        let errors = Pipe()
        process = try SpawnedProcess(
            executable,
            [
                "-displayfd", "1", "-screen", "0", "\(Self.screenWidth)x\(Self.screenHeight)x24", "-dpi",
                "\(Self.dotsPerInch)", "-nolisten", "tcp", "-noreset",
            ], standardOutput: .handle(output.fileHandleForWriting), standardError: .handle(errors.fileHandleForWriting)
        )
        // The server has its copies: ours would keep its pipes open past its end.
        try? output.fileHandleForWriting.close()
        try? errors.fileHandleForWriting.close()

        // Read the display number on a thread, so the wait has a deadline.
        let box = LineBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var line = Data()
            while true {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            box.line = String(decoding: line, as: UTF8.self)
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut || box.line.isEmpty {
            process.send(SIGKILL)
            _ = process.wait(seconds: 10)
            let log = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
            throw XvfbError(reason: "Xvfb did not report a display within \(timeout)s: \(log)")
        }
        display = ":" + box.line.trimmingCharacters(in: .whitespaces)
        // Keep draining stderr so a chatty server never blocks on a full pipe.
        Thread.detachNewThread { _ = errors.fileHandleForReading.readDataToEndOfFile() }
    }

    deinit { stop() }

    /// The environment for a child process on this display (the caller's, with `DISPLAY` set and
    /// `WAYLAND_DISPLAY` removed).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["WAYLAND_DISPLAY"] = nil
        return environment
    }

    /// Kills the server (every client's connection drops with it) and waits for it.
    ///
    /// SIGKILL: at once, whatever the server is doing.
    public func stop() {
        guard process.isRunning else { return }
        process.send(SIGKILL)
        _ = process.wait(seconds: 10)
        // A killed Xvfb leaves its lock and socket behind; they are ours to remove.
        let number = display.dropFirst()
        unlink("/tmp/.X\(number)-lock")
        unlink("/tmp/.X11-unix/X\(number)")
    }
}

/// Why Xvfb could not be started.
public struct XvfbError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

private final class LineBox: @unchecked Sendable {
    // Safe: written by one thread before the semaphore is signalled, read after it.
    var line = ""
}
