import SystemInterop

/// A selection owner started as a process of its own (spawned, or forked before any connection),
/// waiting for its text on a socket.
///
/// `complete(with:)` sends the text, closes the socket (end of file: the owner takes the
/// selection now), then waits for the status byte that says it owns it. Released without
/// `complete`, the sockets close with no text, and the owner leaves without touching the
/// selection.
final class OwnerLaunch: PreparedClipboardWrite {
    /// The owner process; it stays our child (tests reap it).
    let child: ChildProcess
    /// Our end of the owner's stdin: the text, then end of file. Nil once sent.
    private var payload: FileDescriptor?
    /// Our end of the owner's stdout: one status byte.
    private let status: FileDescriptor
    private let displayName: String
    private let timeout: Duration

    init(
        child: ChildProcess, payload: consuming FileDescriptor, status: consuming FileDescriptor, displayName: String,
        timeout: Duration
    ) {
        self.child = child
        self.payload = consume payload
        self.status = status
        self.displayName = displayName
        self.timeout = timeout
    }

    /// The mark is offered when asked for: both owners that start this way (X11's and
    /// data-control's) offer it beside the text (`OwnerPayload`'s flag).
    @discardableResult
    func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError) -> SecretMark {
        _ = try hand(text, isSecret: isSecret)
        return .offerable(isSecret)
    }

    /// Sends the text (`OwnerPayload`), then waits for the status byte that says the helper
    /// owns the selection.
    ///
    /// - Returns: the owner process.
    func hand(_ text: [UInt8], isSecret: Bool = false) throws(ClipboardError) -> ChildProcess {
        let deadline = ContinuousClock.now + timeout
        guard let payload = payload.take() else { preconditionFailure("the text was handed over already") }
        let sent: Errno?
        do {
            try payload.setNonBlocking()
            try payload.sendAll(OwnerPayload.encode(text, isSecret: isSecret), before: deadline)
            sent = nil
        } catch {
            sent = error
        }
        try? payload.close()
        if let error = sent {
            // EPIPE: the helper is gone already (it may have said why first: no display);
            // anything else: it is stuck, so end it.
            if error == .brokenPipe, let byte = (try? status.readByte(before: deadline)) ?? nil {
                _ = child.waitForExit()
                // `owning` before the text arrived is no status an owner sends: a broken helper.
                throw Self.failure(reported: byte, displayName: displayName) ?? .helperFailed(.reported(status: byte))
            }
            if error != .brokenPipe { try? child.send(.kill) }
            let exit = child.waitForExit()
            switch error {
            case .brokenPipe: throw .helperFailed(.exited(status: exit))
            case .timedOut: throw .helperFailed(.noAnswer)
            default: throw .helperFailed(.payloadNotDelivered(errno: error))
            }
        }

        let answer: UInt8?
        do {
            answer = try status.readByte(before: deadline)
        } catch {
            try? child.send(.kill)
            _ = child.waitForExit()
            throw .helperFailed(.noAnswer)
        }
        guard let byte = answer else { throw .helperFailed(.exited(status: child.waitForExit())) }
        guard let failure = Self.failure(reported: byte, displayName: displayName) else { return child }
        _ = child.waitForExit()
        throw failure
    }

    /// The one map from an owner's status byte (`SelectionOwnerProcess.Status`, which the X11
    /// and the Wayland owners both send, and `InheritedOwner` gets from its own server) to the
    /// error it means; nil for `owning`.
    static func failure(reported byte: UInt8, displayName: String) -> ClipboardError? {
        switch SelectionOwnerProcess.Status(rawValue: byte) {
        case .owning: nil
        case .noDisplay: .noDisplay
        case .cannotOpenDisplay: .cannotOpenDisplay(name: displayName)
        case .notOwner: .helperFailed(.notOwner)
        // The server never gave the time that taking the selection needs: no answer.
        case .noTimestamp: .helperFailed(.noAnswer)
        default: .helperFailed(.reported(status: byte))
        }
    }
}

@available(*, unavailable)
extension OwnerLaunch: Sendable {}
