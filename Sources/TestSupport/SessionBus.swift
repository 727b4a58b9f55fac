import Foundation
import Glibc

/// A private D-Bus session bus for a test: `dbus-daemon` with a config that names no service
/// folders, so no notification server installed on the machine (dunst, mako) is activated behind
/// the test's back; stopped on `stop()` or when the value goes away.
///
/// dbus-daemon writes its address to the descriptor given by `--print-address` once it listens,
/// so no sleep is needed: stdout is a file and the test waits for its first line.
public final class SessionBus: @unchecked Sendable {
    // Safe: every stored property is set once in init; `stop` is idempotent.
    /// The bus address (`unix:path=…`), for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    private let process: SpawnedProcess
    private let folder: URL

    /// Starts the bus and waits until it reports its address.
    public init(timeout: Double = 20) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("session.conf")
        try Data(
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(folder.path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.utf8
        ).write(to: config)
        let output = folder.appendingPathComponent("address")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process = try SpawnedProcess(
            "/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--print-address=1"],
            standardOutput: .handle(handle), standardError: .null)
        try? handle.close()
        var found = ""
        let process = process
        do {
            try waitUntil("dbus-daemon to listen", timeout: timeout) {
                guard process.isRunning else { throw ServerProcess.Failure(description: "dbus-daemon exited") }
                let text = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
                guard let line = text.split(separator: "\n").first, text.hasSuffix("\n") else { return false }
                found = String(line)
                return true
            }
        } catch {
            process.send(SIGKILL)
            _ = process.wait(seconds: 5)
            throw error
        }
        address = found
    }

    deinit { stop() }

    /// Kills the bus and removes its folder.
    public func stop() {
        if process.isRunning {
            process.send(SIGKILL)
            _ = process.wait(seconds: 10)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Calls a method with `dbus-send` (a client independent of paste's): `arguments` in its
    /// notation (`uint32:1`, `string:copy`).
    public func send(destination: String, path: String, method: String, _ arguments: [String]) throws {
        let result = try runProcess(
            "/usr/bin/dbus-send",
            ["--bus=\(address)", "--print-reply", "--dest=\(destination)", path, method] + arguments, timeout: 20)
        guard result.status == 0 else {
            throw ServerProcess.Failure(description: "dbus-send \(method) failed: \(result.err)")
        }
    }

    /// Sends a signal with `dbus-send` from a connection of its own (not the name's owner):
    /// `member` is `interface.name`; with a `destination`, to that connection alone (unicast);
    /// `arguments` as `send` takes them.
    public func emit(
        _ member: String, path: String, destination: String? = nil, _ arguments: [String]
    ) throws {
        let result = try runProcess(
            "/usr/bin/dbus-send",
            ["--bus=\(address)", "--type=signal"] + (destination.map { ["--dest=\($0)"] } ?? []) + [path, member]
                + arguments, timeout: 20)
        guard result.status == 0 else {
            throw ServerProcess.Failure(description: "dbus-send \(member) failed: \(result.err)")
        }
    }

    /// Whether `name` (a unique name such as `:1.7`) has an owner on the bus: false once the
    /// connection that had it closed (`org.freedesktop.DBus.NameHasOwner`).
    public func hasOwner(_ name: String) throws -> Bool {
        let result = try runProcess(
            "/usr/bin/dbus-send",
            [
                "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
            ], timeout: 20)
        guard result.status == 0 else {
            throw ServerProcess.Failure(description: "dbus-send NameHasOwner failed: \(result.err)")
        }
        return result.out.contains("boolean true")
    }
}

/// The recording notification server of `Tests/PasteCLITests/Fixtures/notification_server.py`
/// (Python with jeepney, from `.build/venv`) on a `SessionBus`.
public final class RecordingNotificationServer: @unchecked Sendable {
    // Safe: every stored property is set once in init.
    private let process: SpawnedProcess
    private let record: URL
    private let log: URL
    private let bus: SessionBus

    /// Starts it and waits until it owns `org.freedesktop.Notifications`.
    ///
    /// - Parameters:
    ///   - capabilities: what `GetCapabilities` answers.
    ///   - answer: an action key invoked on each notification that offers it, right away.
    ///   - expires: each notification is closed at once as expired.
    ///   - unicast: signals go to the notification's sender only (as GNOME Shell sends them).
    public init(
        on bus: SessionBus, capabilities: [String] = ["actions", "body"], answer: String? = nil,
        expires: Bool = false, unicast: Bool = false
    ) throws {
        self.bus = bus
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)")
        record = base.appendingPathExtension("jsonl")
        log = base.appendingPathExtension("log")
        _ = FileManager.default.createFile(atPath: record.path, contents: nil)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let python = ServerProcess.packageRoot.appendingPathComponent(".build/venv/bin/python").path
        var arguments = [
            FixtureServer.folder.appendingPathComponent("notification_server.py").path, "--address", bus.address,
            "--record", record.path, "--capabilities", capabilities.joined(separator: ","),
        ]
        if let answer { arguments += ["--answer", answer] }
        if expires { arguments.append("--expire") }
        if unicast { arguments.append("--unicast") }
        process = try SpawnedProcess(python, arguments, standardOutput: .handle(handle), standardError: .handle(handle))
        try? handle.close()
        let process = process
        let log = log
        do {
            try waitUntil("the notification server to own its name", timeout: 20) {
                let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
                guard process.isRunning else {
                    throw ServerProcess.Failure(description: "notification_server.py exited: \(text)")
                }
                return text.contains("ready\n")
            }
        } catch {
            process.send(SIGKILL)
            _ = process.wait(seconds: 5)
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: record)
        try? FileManager.default.removeItem(at: log)
    }

    /// Kills the server (its name goes with its connection) and waits for it; its record stays
    /// readable.
    public func stop() {
        if process.isRunning {
            process.send(SIGKILL)
            _ = process.wait(seconds: 10)
        }
    }

    /// The Notify calls received so far, each a JSON object (`id`, `app_name`, `replaces_id`,
    /// `app_icon`, `summary`, `body`, `actions`, `hints`, `expire_timeout`; `image-data` as its
    /// six numbers and its pixels' length, and then `image-centre`, the centre pixel's channels).
    public var notifications: [[String: Any]] {
        records.filter { $0["call"] == nil }
    }

    /// The ids named by `CloseNotification` calls so far (a client closing a notification it
    /// showed), in order.
    public var closedByCall: [Int] {
        records.filter { $0["call"] as? String == "CloseNotification" }.compactMap { $0["id"] as? Int }
    }

    /// Every line of the record, Notify and CloseNotification calls alike.
    private var records: [[String: Any]] {
        let text = String(decoding: (try? Data(contentsOf: record)) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// What the server wrote on stdout and stderr.
    public var output: String { String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self) }

    /// Invokes action `key` of notification `id`, as a click would: ActionInvoked, then
    /// NotificationClosed with reason 2.
    public func invoke(_ key: String, on id: Int) throws {
        try bus.send(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            method: "org.paste.TestServer.Invoke", ["uint32:\(id)", "string:\(key)"])
    }

    /// Invokes action `key` of notification `id` `count` times over, with no closing: a
    /// server (or a person) repeating it.
    public func repeatAction(_ key: String, on id: Int, count: Int) throws {
        try bus.send(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            method: "org.paste.TestServer.Repeat", ["uint32:\(id)", "string:\(key)", "uint32:\(count)"])
    }

    /// Closes notification `id` with `reason` (1 expired, 2 dismissed).
    public func close(_ id: Int, reason: Int) throws {
        try bus.send(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            method: "org.paste.TestServer.Close", ["uint32:\(id)", "uint32:\(reason)"])
    }
}
