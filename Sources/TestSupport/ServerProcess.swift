import Foundation
import Glibc

/// A server started for one test (a Python pastebin, pinnwand, librarypaste) and stopped by it.
///
/// It is ready when it prints `listening on URL` (servers we write) or when its port accepts a
/// connection (servers we do not control, started on a free port found beforehand).
public final class ServerProcess: @unchecked Sendable {
    // Safe: all stored properties are set in init; `process` is only signalled.
    /// `http://127.0.0.1:PORT`, or the URL the server printed (`https://…`, `socks5://…`).
    public let baseURL: String
    /// Its port on 127.0.0.1.
    public let port: Int
    private let process: SpawnedProcess
    private let output: URL

    /// Raised when the server does not come up.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `executable arguments…`; when `port` is nil the server must print
    /// `listening on SCHEME://127.0.0.1:PORT` as a line of stdout.
    public init(
        _ executable: String, _ arguments: [String], port: Int? = nil, environment: [String: String]? = nil,
        currentDirectory: String? = nil, timeout: Double = 30
    ) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = try SpawnedProcess(
            executable, arguments, environment: environment, currentDirectory: currentDirectory,
            standardOutput: .handle(handle), standardError: .handle(handle))
        try? handle.close()
        self.process = process
        var found: Int? = port
        var printed: String?
        let log = output
        do {
            try waitUntil("\(executable) to listen", timeout: timeout) {
                guard process.isRunning else {
                    throw Failure(
                        description:
                            "\(executable) exited: \(String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self))"
                    )
                }
                if let port = found { return Self.accepts(port: port) }
                let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
                guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                    line.contains("://"), let number = line.split(separator: ":").last.flatMap({ Int($0) })
                else { return false }
                found = number
                printed = String(line.dropFirst("listening on ".count))
                return true
            }
        } catch {
            process.send(SIGKILL)
            _ = process.wait(seconds: 5)
            throw error
        }
        self.port = found!
        baseURL = printed ?? "http://127.0.0.1:\(found!)"
    }

    deinit { stop() }

    /// Kills the server (SIGKILL: a test runner's children may inherit a blocked SIGTERM) and
    /// waits for it.
    public func stop() {
        if process.isRunning {
            process.send(SIGKILL)
            _ = process.wait(seconds: 30)
        }
        try? FileManager.default.removeItem(at: output)
    }

    /// What the server printed so far.
    public var log: String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }

    /// A port on 127.0.0.1 that nothing listens on right now (for servers that cannot take 0).
    public static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw Failure(description: "bind: \(errno)") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to 127.0.0.1:port succeeds.
    static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// The package root (for fixtures and `.build/venv`).
    public static var packageRoot: URL {
        BuiltProducts.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// Fetches a URL with /usr/bin/curl (a real, independent client) and returns the body bytes.
public func fetch(_ url: String) throws -> Data {
    let result = try runProcess("/usr/bin/curl", ["-sS", "--fail", "--max-time", "20", url], timeout: 30)
    guard result.status == 0 else {
        throw ServerProcess.Failure(description: "curl \(url) failed (\(result.status)): \(result.err)")
    }
    return result.stdout
}
