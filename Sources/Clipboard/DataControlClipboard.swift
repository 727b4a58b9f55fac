import SystemInterop
import WaylandInterop

/// The Wayland selections, natively: read and written through the compositor's data-control
/// protocol (`DataControlSession`: ext-data-control-v1 where offered, else wlr-data-control),
/// with no wl-clipboard process anywhere.
///
/// Reading connects, learns the selection's offer and MIME types (two round trips; one where
/// the backend's probe left its connection, `ClipboardBackend.probeDataControl`), asks for
/// the best type (`textTypes`, or an image as `ImageTarget` orders them), after the password
/// manager's mark on each side it can see (the offer's, and with `DISPLAY` the X selection's,
/// asked first: `xHolder`), and reads the owner's answer from a socket, with the same deadline per
/// wait, pace, limits and observer as the X11 reader: a read that goes past `ContentPreferences.readLimit` stops with `.exceedsLimit`, an
/// image past `imageLimit` with `.tooLarge`, and text larger than `handOverBytes` is shown to a
/// `TextObserver` while it arrives, on a thread joined before the read returns.
///
/// Writing after a read (the hotkey's copy, `ReadRequest.copyTarget`) goes through the read's
/// own session, served by a child forked once the selection is ours, as on X11
/// (`DataControlInheritedOwner`); any other write goes through a detached owner
/// (`DataControlOwnerProcess`): forked while the process has one thread, spawned as
/// `helperExecutable` with the hidden subcommand otherwise (`DetachedOwner`). Either returns
/// once the compositor has made our source the selection.
public struct DataControlClipboard: Clipboard, Sendable {
    /// The compositor's socket, absolute (`WaylandSocket.path(in:)`).
    public let socketPath: String
    /// The executable that runs `DataControlOwnerProcess` (normally `/proc/self/exe`).
    public let helperExecutable: String
    /// The environment the spawned owner gets.
    public let environment: [String: String]
    /// How long `write` waits for the owner to report that it owns the selection.
    public let ownershipTimeout: Duration

    /// Describes the data-control clipboard of the compositor at `socketPath`.
    public init(
        socketPath: String, helperExecutable: String, environment: [String: String] = [:],
        ownershipTimeout: Duration = .seconds(5)
    ) {
        self.socketPath = socketPath
        self.helperExecutable = helperExecutable
        self.environment = environment
        self.ownershipTimeout = ownershipTimeout
    }

    /// The text MIME types asked for, best first: the freedesktop name of UTF-8 text, then the
    /// X names XWayland bridges carry (`UTF8_STRING`), then the vaguer ones.
    static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"]

    /// How many bytes are gathered before a hand-over to an observer's thread (the X11
    /// reader's figure: a read smaller than this starts no thread and is not observed).
    static let handOverBytes = SelectionReader.handOverBytes

    /// What the owner offers, in preference order: every text type (with `STRING` only when
    /// the text is Latin-1).
    static func offeredTypes(latin1: Bool) -> [String] {
        latin1 ? textTypes : textTypes.filter { $0 != "STRING" }
    }

    /// The best text type among `offered`, in its offered spelling (MIME parameters compare
    /// without regard to case).
    static func preferredText(among offered: [String]) -> String? {
        for type in textTypes {
            if let name = offered.first(where: { $0 == type || $0.lowercased() == type.lowercased() }) { return name }
        }
        return nil
    }

    // MARK: - Reading

    /// Reads the request's selection: the best of `textTypes` its owner offers, or with
    /// `acceptsImage` its image (`ImageTarget`'s order) when it offers no text or
    /// `preferences.prefersImage`; a large text goes to the observer as it arrives (past
    /// `handOverBytes`), on a thread joined before this returns. With a `copyTarget` the owner
    /// is started after the read (forked: the observer's thread is joined by then).
    ///
    /// With `DISPLAY` set too, the X side decides first whether it holds the later copy
    /// (`XSelectionHolder`; docs/design.md, "Two clipboards, one last copy"): an X program's copy
    /// that no bridge carried to Wayland is read from X, and when nothing tells which side was
    /// copied last the read fails with `.undecidedCopy`.
    public func read<State: Sendable>(_ request: ReadRequest<State>) throws(ClipboardError) -> ReadResult<State> {
        try read(request, continuing: nil, askedType: nil, answer: nil)
    }

    /// `read(_:)`, continuing on `session` when a read was begun (`beginRead`), with the
    /// owner's `answer` to `askedType` already on its way.
    func read<State: Sendable>(
        _ request: ReadRequest<State>, continuing session: DataControlSession?, askedType: String?,
        answer: consuming FileDescriptor?
    ) throws(ClipboardError) -> ReadResult<State> {
        let holder = try xHolder(request.selection, timeout: request.timeout)
        let read: (content: ClipboardContent, observation: State?, session: DataControlSession)
        do {
            read = try readContent(
                request.selection, timeout: request.timeout, preferences: request.preferences,
                observer: request.observer, acceptsImage: request.acceptsImage,
                whileOwnerAnswers: request.whileOwnerAnswers, continuing: session, askedType: askedType,
                answer: answer)
        } catch .empty(let selection) {
            // Nothing on the Wayland side: an X program's copy is the only one.
            guard case .program = holder else { throw .empty(selection) }
            return ReadResult(
                content: try readX(request), observation: nil,
                write: try request.copyTarget.map { target throws(ClipboardError) in try prepareWrite(to: target) })
        }
        var content = read.content
        var observation = read.observation
        if case .program(let isXWindowFocused, let windowManager) = holder {
            let x = try readX(request)
            switch Self.newerSide(
                isXWindowFocused: isXWindowFocused, windowManager: windowManager, protocol: read.session.dataControl,
                isSame: x == content)
            {
            case .wayland: break
            case .x:
                content = x
                observation = nil
            case .undecided: throw .undecidedCopy(request.selection)
            }
        }
        let write = try request.copyTarget.map { target throws(ClipboardError) in
            try prepareWrite(to: target, reusing: read.session)
        }
        return ReadResult(content: content, observation: observation, write: write)
    }

    /// Which side holds the later copy when an X program owns the X selection.
    enum NewerSide: Equatable { case wayland, x, undecided }

    /// The rule for an X program's X selection beside a Wayland one (docs/design.md, "Two
    /// clipboards, one last copy"):
    /// - the same contents: Wayland (either would do);
    /// - an X window focused: X. A bridge carries every later Wayland copy to X once an X window
    ///   has the focus (sway's xwm takes the X selection then, kwin's and labwc's too), so an X
    ///   program still owning it has copied since;
    /// - kwin with ext-data-control (Plasma 6.5 and later): Wayland. kwin 6 carries every X
    ///   program's copy to Wayland, focused or not, so a Wayland text that differs came later
    ///   (kwin 5.27, wlr-data-control, carries it only while an X window has the focus);
    /// - else (sway, labwc, other wlroots compositors, kwin 5): nothing tells the order.
    static func newerSide(
        isXWindowFocused: Bool, windowManager: String?, protocol bound: DataControlProtocol, isSame: Bool
    ) -> NewerSide {
        if isSame { return .wayland }
        if isXWindowFocused { return .x }
        if windowManager == XSelectionHolder.kwin, bound == .ext { return .wayland }
        return .undecided
    }

    /// The X side's holder (`XSelectionHolder`) where `DISPLAY` is set and can be opened, else
    /// nil; a text its owner marks a secret is refused here, before anything is read: a
    /// password manager running under XWayland marks its copy on the X selection, and the
    /// compositor's bridge may carry the text to Wayland without the mark (sway's carries
    /// `text/plain;charset=utf-8` alone), so the Wayland offer says nothing of it.
    private func xHolder(_ selection: Selection, timeout: Duration) throws(ClipboardError) -> XSelectionHolder? {
        guard let display = environment["DISPLAY"], !display.isEmpty else { return nil }
        return try X11Clipboard(displayName: display, helperExecutable: helperExecutable, environment: environment)
            .holderBesideWayland(selection, timeout: timeout)
    }

    /// What the X side holds, read as `request` asks (unobserved, with no copy after it).
    private func readX<State: Sendable>(_ request: ReadRequest<State>) throws(ClipboardError) -> ClipboardContent {
        let x = X11Clipboard(
            displayName: environment["DISPLAY"], helperExecutable: helperExecutable, environment: environment)
        return try x.read(
            ReadRequest(
                request.selection, timeout: request.timeout, preferences: request.preferences,
                acceptsImage: request.acceptsImage)
        ).content
    }

    /// The one read behind `read(_:)`: text, or an image when `acceptsImage`.
    private func readContent<State: Sendable>(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, observer: TextObserver<State>?,
        acceptsImage: Bool, whileOwnerAnswers: (@Sendable () -> Void)? = nil, continuing: DataControlSession?,
        askedType: String?, answer: consuming FileDescriptor?
    ) throws(ClipboardError) -> (content: ClipboardContent, observation: State?, session: DataControlSession) {
        let session: DataControlSession
        if let continuing { session = continuing } else { session = try connect(selection, timeout: timeout) }
        guard let offered = session.offeredTypes(selection.seatSelection), !offered.isEmpty else {
            throw .empty(selection)
        }
        // The password manager's mark (`PasswordManagerHint`) is one of the offer's types,
        // known already: its value costs a receive only when it is there.
        if offered.contains(PasswordManagerHint.name) {
            let value = try? receive(
                PasswordManagerHint.name, from: session, selection, timeout: timeout, limits: preferences,
                imageType: nil, observer: TextObserver<State>?.none)
            // An owner that cannot say what its mark means (no answer, or it closed the pipe
            // without writing) is taken at its word: a secret.
            if PasswordManagerHint.marksSecret(value?.bytes) { throw .markedSecret(selection) }
        }
        let image = acceptsImage ? ImageTarget.preferred(among: offered) : nil
        let text = Self.preferredText(among: offered)
        if let image, preferences.prefersImage || text == nil {
            let bytes = try receive(
                image.name, from: session, selection, timeout: timeout, limits: preferences, imageType: image.target,
                observer: TextObserver<State>?.none
            ).bytes
            guard !bytes.isEmpty else { throw .empty(selection) }
            return (.image(bytes, type: image.target.rawValue), nil, session)
        }
        guard let text else {
            if acceptsImage { throw .noContentTarget(selection, available: offered) }
            throw .noTextTarget(selection, available: offered)
        }
        // The answer asked for by `beginRead`, when it is the type this read wants (it is unless
        // an image won); any other is dropped, and its owner sees the reader go.
        if askedType != text { _ = answer.take() }
        let (bytes, observed) = try receive(
            text, from: session, selection, timeout: timeout, limits: preferences, imageType: nil, observer: observer,
            decodesLatin1: text == "STRING", whileOwnerAnswers: whileOwnerAnswers, asked: answer.take())
        guard !bytes.isEmpty else { throw .empty(selection) }
        let utf8 = text == "STRING" ? TextEncoding.utf8(fromLatin1: bytes) : bytes
        return (.text(utf8), (observed as? TextObserver<State>)?.state, session)
    }

    /// The session with its device: the one the backend's probe kept, else a new connection
    /// (`DataControlSession.open`); failures as clipboard errors.
    private func connect(_ selection: Selection, timeout: Duration) throws(ClipboardError) -> DataControlSession {
        do {
            return try DataControlSession.open(socketPath: socketPath, before: .now + timeout)
        } catch {
            throw ClipboardError(error, selection: selection, timeout: timeout)
        }
    }

    /// Asks for `type` and reads the owner's answer to its end: each wait within `timeout`,
    /// the whole at `ReadPace`'s rate and within the limits; text of a large answer goes to `observer` as it comes.
    private func receive<State: Sendable>(
        _ type: String, from session: DataControlSession, _ selection: Selection, timeout: Duration,
        limits: ContentPreferences, imageType: ImageTarget?, observer: TextObserver<State>?,
        decodesLatin1: Bool = false, whileOwnerAnswers: (@Sendable () -> Void)? = nil,
        asked: consuming FileDescriptor? = nil
    ) throws(ClipboardError) -> (bytes: [UInt8], observed: (any ChunkObserving)?) {
        var received: FileDescriptor? = asked.take()
        if received == nil {
            do {
                received = try session.receive(selection.seatSelection, as: type, before: .now + timeout)
            } catch {
                throw ClipboardError(error, selection: selection, timeout: timeout)
            }
        }
        guard let pipe = received else { throw .empty(selection) }
        // The request is on its way to the owner: the caller's work that needs no text runs now.
        whileOwnerAnswers?()
        // An image stops at the lower of its own limit and the read limit, each with its message.
        let imageLimited = imageType != nil && limits.imageLimit <= limits.readLimit
        let limit = imageLimited ? limits.imageLimit : limits.readLimit
        var data: [UInt8] = []
        var transfer: ObservedTransfer?
        var handedOver = 0
        // The whole answer keeps a pace, not only each wait (`ReadPace`).
        let pace = ReadPace(start: .now, timeout: timeout)
        // A first read as large as a usual text; once one fills its buffer, `readChunk`.
        var chunk = Self.firstReadChunk
        while true {
            let ready: Bool
            let wait = pace.nextWait(afterReceiving: data.count, now: .now)
            do { ready = try pipe.wait(for: .readable, before: wait.deadline) } catch {
                throw .timedOut(selection, seconds: timeout.seconds)
            }
            guard ready else { throw pace.expired(selection, received: data.count, isPaceLimit: wait.isPaceLimit) }
            let piece: [UInt8]
            do { piece = try pipe.readAvailable(upTo: chunk) } catch { throw .empty(selection) }
            if piece.isEmpty { break }
            if piece.count == chunk { chunk = Self.readChunk }
            data.append(contentsOf: piece)
            if data.count > limit {
                if imageLimited, let imageType {
                    throw .tooLarge(selection, type: imageType.rawValue, limit: limit)
                }
                throw .exceedsLimit(selection, limit: limit)
            }
            if let observer, imageType == nil, data.count - handedOver >= Self.handOverBytes {
                if transfer == nil {
                    transfer = try? ObservedTransfer(observer: observer, decodesLatin1: decodesLatin1)
                }
                guard let transfer else { continue }
                transfer.hand(Array(data[handedOver...]))
                handedOver = data.count
            }
        }
        guard let transfer else { return (data, nil) }
        if handedOver < data.count { transfer.hand(Array(data[handedOver...])) }
        return (data, transfer.finish())
    }

    /// The size of one read from the owner's socket.
    static let readChunk = 256 << 10

    /// The size of the first read: a usual clipboard text fits in it. Each read's buffer is
    /// made and zeroed anew (`readAvailable`), and two reads of `readChunk` (the text, then end
    /// of file) zeroed half a megabyte, in pages first touched, for a kilobyte of text.
    static let firstReadChunk = 16 << 10

    // MARK: - Reading begun early

    /// Begins a read of `selection` before the request that says how to read it
    /// (`DataControlBegunRead`): the session (the probe's, once its device answered) and, when
    /// the offer has a text type and no password manager's mark, the `receive` of its best text
    /// type, flushed: the owner writes while the caller loads its configuration. Nothing is
    /// begun with `DISPLAY` set (the X side is asked first, `xHolder`), nor when the session
    /// cannot be had: the read then connects and fails as it would have.
    public func beginRead(_ selection: Selection) -> any Clipboard {
        if let display = environment["DISPLAY"], !display.isEmpty { return self }
        let deadline = ContinuousClock.now + Self.defaultReadTimeout
        guard let session = try? DataControlSession.open(socketPath: socketPath, before: deadline) else { return self }
        let begun = DataControlBegunRead(clipboard: self, selection: selection, session: session)
        guard let offered = session.offeredTypes(selection.seatSelection),
            !offered.contains(PasswordManagerHint.name), let text = Self.preferredText(among: offered)
        else { return begun }
        do {
            begun.answer = try session.receive(selection.seatSelection, as: text, before: deadline)
            begun.askedType = text
        } catch {
            // The read meets the connection's failure itself, and says it as it would have.
        }
        return begun
    }

    // MARK: - Writing

    /// The write after a read (the hotkey's copy): through the read's own session, served by a
    /// child forked once the selection is ours (`DataControlInheritedOwner`). With `DISPLAY` in
    /// `environment` the copy is bridged as `prepareWrite(to:)` makes it, and the session closes.
    func prepareWrite(to selection: Selection, reusing session: DataControlSession) throws(ClipboardError)
        -> any PreparedClipboardWrite
    {
        if let display = environment["DISPLAY"], !display.isEmpty { return try prepareWrite(to: selection) }
        return DataControlInheritedOwner(session: session, selection: selection, clipboard: self)
    }

    /// Starts the owner ahead of the text (it connects and makes its device meanwhile);
    /// `complete(with:)` hands the text over and returns once it owns the selection.
    /// With `DISPLAY` in `environment` the X selection is owned as well (`BridgedWrite`).
    public func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite {
        guard let display = environment["DISPLAY"], !display.isEmpty else {
            return try owner(for: selection, isBridged: false).start()
        }
        let launch = try owner(for: selection, isBridged: true).start()
        var x11 = X11Clipboard(displayName: display, helperExecutable: helperExecutable, environment: environment)
        x11.bridgeSocketPath = socketPath
        return BridgedWrite(wayland: launch, waylandClipboard: self, x11: x11, selection: selection)
    }

    /// The owner's start-up: `helperExecutable --internal-wayland-selection-owner SELECTION SOCKET`,
    /// and `bridged` for the Wayland side of a bridged copy (its offer carries `BridgeWatch.mark`).
    func owner(for selection: Selection, isBridged: Bool) -> DetachedOwner {
        DetachedOwner(
            executable: helperExecutable,
            arguments: [helperExecutable, DataControlOwnerProcess.subcommand, selection.rawValue, socketPath]
                + (isBridged ? [DataControlOwnerProcess.bridgedArgument] : []),
            environment: environment, displayName: socketPath, timeout: ownershipTimeout,
            run: DataControlOwnerProcess.run)
    }
}

extension ClipboardError {
    /// A data-control failure as a clipboard error.
    init(_ error: WaylandError, selection: Selection, timeout: Duration) {
        switch error {
        case .cannotConnect(let socket, _): self = .cannotOpenDisplay(name: socket)
        case .timedOut: self = .timedOut(selection, seconds: timeout.seconds)
        default: self = .compositorFailed(error)
        }
    }
}

/// Where a Wayland compositor listens, from an environment passed in.
public enum WaylandSocket {
    /// `$WAYLAND_DISPLAY` when it is absolute, else `$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY` (what
    /// `wl_display_connect` does with the process environment); nil without either.
    public static func path(in environment: [String: String]) -> String? {
        guard let name = environment["WAYLAND_DISPLAY"], !name.isEmpty else { return nil }
        if name.hasPrefix("/") { return name }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        return runtime + "/" + name
    }
}
