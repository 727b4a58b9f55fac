import Foundation
import SystemInterop

/// A child process the tests started, reaped on a thread of its own so every wait has a
/// deadline.
///
/// Started with `ChildProcess.spawn` (`posix_spawn`, every descriptor but the three closed in
/// the child), never with Foundation's `Process`: on this toolchain `Process.run` reads 256
/// bytes past each `/proc/self/fd` entry while it counts descriptors, and now and then crashes
/// the whole test process when it has many descriptors open (swift-corelibs-foundation pull
/// request 5472). The suite starts thousands of children, many at once.
public final class SpawnedProcess: @unchecked Sendable {
    // Safe: `status` is written once, before `done` is signalled, and read only after a wait
    // on `done` succeeded (which signals it again for the next waiter).
    /// The child's pid.
    public let id: Int32
    private var status: Int32?
    private let done = DispatchSemaphore(value: 0)

    /// What one of the child's standard descriptors is.
    public enum Stream {
        /// `/dev/null`.
        case null
        /// Not open.
        case closed
        /// This handle's descriptor.
        case handle(FileHandle)
    }

    /// Starts `executable` with `arguments` (argv[0] is added), in `environment` (ours when nil).
    ///
    /// The parent's copies of the descriptors handed to the child are closed here, so a pipe
    /// ends when the child (and whatever it started) is gone.
    /// - Throws: `CocoaError(.fileNoSuchFile)` when the program cannot be started.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, standardInput: Stream = .null, standardOutput: Stream = .null,
        standardError: Stream = .null
    ) throws {
        func redirection(_ stream: Stream) -> ChildProcess.Redirection {
            switch stream {
            case .null: .null
            case .closed: .closed
            case .handle(let handle): .descriptor(handle.fileDescriptor)
            }
        }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                executable, arguments: [executable] + arguments,
                environment: environment ?? ProcessInfo.processInfo.environment,
                standardInput: redirection(standardInput), standardOutput: redirection(standardOutput),
                standardError: redirection(standardError), newSession: false, currentDirectory: currentDirectory)
        } catch {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: executable, NSUnderlyingErrorKey: error])
        }
        id = child.id
        Thread.detachNewThread { [self] in
            status = child.waitForExit()
            done.signal()
        }
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool {
        guard done.wait(timeout: .now()) == .success else { return true }
        done.signal()
        return false
    }

    /// Waits for the child's end: its exit status (128 + N for signal N), or nil when it
    /// outlived `seconds`.
    public func wait(seconds: Double) -> Int32? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        done.signal()
        return status
    }

    /// Sends `signal` (a signal number) to the child while it runs.
    public func send(_ signal: Int32) {
        if isRunning { kill(id, signal) }
    }
}
