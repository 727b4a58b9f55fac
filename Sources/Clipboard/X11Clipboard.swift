import Glibc
import X11Interop

/// The X11 selections: read as an ICCCM requestor, written through a detached owner process.
public struct X11Clipboard: Clipboard, Sendable {
    /// The display to use; nil means the `DISPLAY` of `environment`.
    public let displayName: String?
    /// The executable that runs `SelectionOwnerProcess` for its hidden subcommand (normally
    /// `paste` itself, `/proc/self/exe`).
    public let helperExecutable: String
    /// The environment the helper is started with (it needs `XAUTHORITY` and the like).
    public let environment: [String: String]
    /// How long `write` waits for the helper to report that it owns the selection.
    public let ownershipTimeout: Duration

    /// Describes the X11 clipboard of a display.
    ///
    /// - Parameters:
    ///   - displayName: `:0` and the like; nil to use `environment["DISPLAY"]`.
    ///   - helperExecutable: the program that serves the selection after we return (see
    ///     `SelectionOwnerProcess`).
    ///   - environment: the caller's environment, passed to the helper (libraries never read it
    ///     from the process themselves).
    ///   - ownershipTimeout: how long `write` waits for the helper.
    public init(
        displayName: String?, helperExecutable: String, environment: [String: String] = [:],
        ownershipTimeout: Duration = .seconds(5)
    ) {
        self.displayName = displayName
        self.helperExecutable = helperExecutable
        self.environment = environment
        self.ownershipTimeout = ownershipTimeout
    }

    /// The display name in effect, or nil when there is none.
    var resolvedDisplayName: String? {
        guard let name = displayName ?? environment["DISPLAY"], !name.isEmpty else { return nil }
        return name
    }

    /// Reads `selection` as UTF-8 text (see `SelectionReader` for the ICCCM steps).
    public func read(_ selection: Selection, timeout: Duration) throws(ClipboardError) -> [UInt8] {
        guard let name = resolvedDisplayName else { throw .noDisplay }
        let display: Display
        do { display = try Display(name: name) } catch { throw .cannotOpenDisplay(name: name) }
        defer { display.close() }
        return try SelectionReader(display: display, selection: selection, timeout: timeout).read()
    }

    /// Makes `text` the content of `selection`, returning once the helper owns it.
    public func write(_ text: [UInt8], to selection: Selection) throws(ClipboardError) {
        _ = try startOwner(of: text, for: selection)
    }

    /// Starts the detached owner of `text` and waits until it owns `selection`.
    ///
    /// The helper is `helperExecutable --internal-selection-owner clipboard|primary`, spawned
    /// (not forked) in a new session. Its stdin carries the text, then end of file; its stdout
    /// carries back one status byte once it owns the selection (`SelectionOwnerProcess.Status`),
    /// then closes; its stderr is /dev/null. It holds none of our descriptors afterwards, so
    /// `url=$(paste …)` returns at once.
    /// - Returns: the helper's pid. It stays our child: the caller may reap it (tests do).
    @discardableResult
    public func startOwner(of text: [UInt8], for selection: Selection) throws(ClipboardError) -> Int32 {
        try spawnOwner(for: selection).hand(text)
    }

    /// Starts the owner ahead of the text: the helper starts up while the caller still works
    /// (the upload), and `complete(with:)` then only hands over the text. Released without
    /// `complete`, the helper sees end of file with no text and leaves without owning anything.
    public func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite {
        try spawnOwner(for: selection)
    }

    /// Spawns the helper with its two sockets; nothing is sent yet.
    func spawnOwner(for selection: Selection) throws(ClipboardError) -> OwnerLaunch {
        guard let name = resolvedDisplayName else { throw .noDisplay }
        let payload: (ours: FileDescriptor, theirs: FileDescriptor)
        let status: (ours: FileDescriptor, theirs: FileDescriptor)
        switch FileDescriptor.socketPair() {
        case .success(let pair): payload = pair
        case .failure(let error): throw .helperFailed(.payloadNotDelivered(errno: error.rawValue))
        }
        switch FileDescriptor.socketPair() {
        case .success(let pair): status = pair
        case .failure(let error): throw .helperFailed(.payloadNotDelivered(errno: error.rawValue))
        }
        var childEnvironment = environment
        childEnvironment["DISPLAY"] = name
        let spawned = ChildProcess.spawn(
            helperExecutable,
            arguments: [helperExecutable, SelectionOwnerProcess.subcommand, selection.rawValue],
            environment: childEnvironment, stdin: .descriptor(payload.theirs.rawValue),
            stdout: .descriptor(status.theirs.rawValue), stderr: .null, newSession: true)
        payload.theirs.close()
        status.theirs.close()
        switch spawned {
        case .success(let child):
            return OwnerLaunch(
                pid: child, payload: payload.ours, status: status.ours, displayName: name, timeout: ownershipTimeout)
        case .failure(let error):
            throw .helperFailed(.cannotSpawn(path: helperExecutable, errno: error.rawValue))
        }
    }
}

/// A write whose slow part already began (the X11 owner process is starting up).
public protocol PreparedClipboardWrite: AnyObject {
    /// Hands over the text and returns once it is in the selection.
    func complete(with text: [UInt8]) throws(ClipboardError)
}

/// A spawned selection owner waiting for its text.
final class OwnerLaunch: PreparedClipboardWrite {
    let pid: pid_t
    private let payload: FileDescriptor
    private let status: FileDescriptor
    private let displayName: String
    private let timeout: Duration

    init(pid: pid_t, payload: FileDescriptor, status: FileDescriptor, displayName: String, timeout: Duration) {
        self.pid = pid
        self.payload = payload
        self.status = status
        self.displayName = displayName
        self.timeout = timeout
    }

    func complete(with text: [UInt8]) throws(ClipboardError) {
        _ = try hand(text)
    }

    /// Sends the text, then waits for the status byte that says the helper owns the selection.
    func hand(_ text: [UInt8]) throws(ClipboardError) -> Int32 {
        let deadline = ContinuousClock.now + timeout
        payload.setNonBlocking()
        if case .failure(let error) = payload.sendAll(text, before: deadline) {
            // EPIPE: the helper is gone already (it may have said why first: no display);
            // anything else: it is stuck, so end it.
            if error.rawValue == EPIPE, case .success(let byte?) = status.readByte(before: deadline) {
                _ = ChildProcess.waitForExit(pid)
                switch SelectionOwnerProcess.Status(rawValue: byte) {
                case .noDisplay: throw .noDisplay
                case .cannotOpenDisplay: throw .cannotOpenDisplay(name: displayName)
                default: throw .helperFailed(.reported(status: byte))
                }
            }
            if error.rawValue != EPIPE { kill(pid, SIGKILL) }
            let exit = ChildProcess.waitForExit(pid)
            switch error.rawValue {
            case EPIPE: throw .helperFailed(.exited(status: exit))
            case ETIMEDOUT: throw .helperFailed(.noAnswer)
            default: throw .helperFailed(.payloadNotDelivered(errno: error.rawValue))
            }
        }
        payload.close()

        switch status.readByte(before: deadline) {
        case .success(let byte?):
            switch SelectionOwnerProcess.Status(rawValue: byte) {
            case .owning: return pid
            case .noDisplay:
                _ = ChildProcess.waitForExit(pid)
                throw .noDisplay
            case .cannotOpenDisplay:
                _ = ChildProcess.waitForExit(pid)
                throw .cannotOpenDisplay(name: displayName)
            case .notOwner:
                _ = ChildProcess.waitForExit(pid)
                throw .helperFailed(.notOwner)
            default:
                _ = ChildProcess.waitForExit(pid)
                throw .helperFailed(.reported(status: byte))
            }
        case .success(nil):
            throw .helperFailed(.exited(status: ChildProcess.waitForExit(pid)))
        case .failure:
            kill(pid, SIGKILL)
            _ = ChildProcess.waitForExit(pid)
            throw .helperFailed(.noAnswer)
        }
    }
}

@available(*, unavailable)
extension OwnerLaunch: Sendable {}
