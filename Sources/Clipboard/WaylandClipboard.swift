import SystemInterop

/// The Wayland clipboard through wl-clipboard's `wl-paste` and `wl-copy`.
///
/// The tools are started with `posix_spawn` (no shell); the text goes through a socket, never
/// the command line. Every run has a hard deadline, past which the tool is killed: without a
/// data-control protocol, wl-clipboard falls back to a window that waits for keyboard focus,
/// and at a hotkey that focus never comes.
public struct WaylandClipboard: Clipboard, Sendable {
    /// The path of `wl-paste`.
    public let pasteTool: String
    /// The path of `wl-copy`.
    public let copyTool: String
    /// The environment the tools run in (`WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR`).
    public let environment: [String: String]

    /// How long `wl-copy` may take to own the selection before it is killed.
    public let copyTimeout: Duration

    /// Finds wl-clipboard on the `PATH` of `environment`.
    ///
    /// - Parameter copyTimeout: the deadline of a `wl-copy` run (reads get theirs from their
    ///   `timeout`, paste's `clipboard-timeout`); `Clipboard.defaultReadTimeout` by default.
    /// - Throws: `ClipboardError.waylandToolMissing` when either tool is absent.
    public init(environment: [String: String], copyTimeout: Duration = Self.defaultReadTimeout) throws(ClipboardError) {
        self.copyTimeout = copyTimeout
        guard let paste = ExecutableSearch.find("wl-paste", in: environment) else {
            throw .waylandToolMissing(tool: "wl-paste")
        }
        guard let copy = ExecutableSearch.find("wl-copy", in: environment) else {
            throw .waylandToolMissing(tool: "wl-copy")
        }
        pasteTool = paste
        copyTool = copy
        self.environment = environment
    }

    /// Reads the request's selection: text as `readText` does, or with `acceptsImage` text or
    /// an image as `readContent` does. The text comes in one piece, so the observer is never
    /// called (the caller looks at the whole text); with a `copyTarget` the write is prepared
    /// after the read.
    public func read<State: Sendable>(_ request: ReadRequest<State>) throws(ClipboardError) -> ReadResult<State> {
        let content =
            request.acceptsImage
            ? try readContent(request.selection, request.timeout, request.preferences)
            : .text(try readText(request.selection, request.timeout, limit: request.preferences.readLimit))
        let write = try request.copyTarget.map { target throws(ClipboardError) in try prepareWrite(to: target) }
        return ReadResult(content: content, observation: nil, write: write)
    }

    /// Reads the selection with `wl-paste --no-newline --type text`, up to `limit` bytes.
    private func readText(_ selection: Selection, _ timeout: Duration, limit: Int) throws(ClipboardError) -> [UInt8] {
        let primary = selection == .primary ? ["--primary"] : []
        let (status, text) = try capture(
            [pasteTool, "--no-newline", "--type", "text"] + primary, selection, timeout, limit: limit)
        if status == 0 {
            guard !text.isEmpty else { throw .empty(selection) }
            return text
        }
        // wl-paste fails both for "nothing is copied" and "no text type": tell them apart.
        let (listStatus, list) = try capture([pasteTool, "--list-types"] + primary, selection, timeout)
        let types = String(decoding: list, as: UTF8.self).split(separator: "\n").map(String.init)
        guard listStatus == 0, !types.isEmpty else { throw .empty(selection) }
        throw .noTextTarget(selection, available: types)
    }

    /// Reads the text as `readText` does, or an image: `wl-paste --list-types` tells what the owner
    /// offers, and `wl-paste --type TYPE` reads the image (`ImageTarget`: PNG first).
    ///
    /// Text costs what `readText` costs: the list is asked only when there is no text, or first
    /// when an image is preferred. An image is read up to `preferences.imageLimit` bytes;
    /// past it `wl-paste` is killed.
    private func readContent(
        _ selection: Selection, _ timeout: Duration, _ preferences: ContentPreferences
    ) throws(ClipboardError) -> ClipboardContent {
        let primary = selection == .primary ? ["--primary"] : []
        var types: [String]?
        if preferences.prefersImage {
            types = try offeredTypes(selection, timeout)
            guard let offered = types, !offered.isEmpty else { throw .empty(selection) }
            if let image = try readImage(among: offered, selection, timeout, preferences) {
                return image
            }
        }
        let (status, text) = try capture(
            [pasteTool, "--no-newline", "--type", "text"] + primary, selection, timeout, limit: preferences.readLimit)
        if status == 0 {
            guard !text.isEmpty else { throw .empty(selection) }
            return .text(text)
        }
        if types == nil { types = try offeredTypes(selection, timeout) }
        guard let offered = types, !offered.isEmpty else { throw .empty(selection) }
        if !preferences.prefersImage,
            let image = try readImage(among: offered, selection, timeout, preferences)
        {
            return image
        }
        throw .noContentTarget(selection, available: offered)
    }

    /// The MIME types the owner offers (`wl-paste --list-types`), or nil when nothing is copied.
    private func offeredTypes(_ selection: Selection, _ timeout: Duration) throws(ClipboardError) -> [String]? {
        let primary = selection == .primary ? ["--primary"] : []
        let (status, list) = try capture([pasteTool, "--list-types"] + primary, selection, timeout)
        guard status == 0 else { return nil }
        return String(decoding: list, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The best image among `offered`, read with `wl-paste --type` up to the image limit (or
    /// the read limit, when lower); nil when none is offered.
    private func readImage(
        among offered: [String], _ selection: Selection, _ timeout: Duration, _ preferences: ContentPreferences
    ) throws(ClipboardError) -> ClipboardContent? {
        guard let (image, name) = ImageTarget.preferred(among: offered) else { return nil }
        let primary = selection == .primary ? ["--primary"] : []
        let isImageLimit = preferences.imageLimit <= preferences.readLimit
        let (status, bytes) = try capture(
            [pasteTool, "--type", name] + primary, selection, timeout,
            limit: min(preferences.imageLimit, preferences.readLimit), typeName: isImageLimit ? image.rawValue : nil)
        guard status == 0 else { throw .ownerRefused(selection, targets: [name]) }
        guard !bytes.isEmpty else { throw .empty(selection) }
        return .image(bytes, type: image.rawValue)
    }

    /// A write that runs `wl-copy` when the text comes: nothing of it can start early. A secret
    /// (a URL carrying its key) goes with the password manager's mark where this wl-copy can
    /// offer it (`--sensitive`, wl-clipboard 2.3 and later: `isSensitiveCopyAvailable`), else
    /// unmarked, and the write says so.
    public func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite {
        DeferredWrite { text, isSecret throws(ClipboardError) in
            guard isSecret else {
                try self.copy(text, to: selection, marked: false)
                return .notAsked
            }
            let canMark = self.isSensitiveCopyAvailable(timeout: self.copyTimeout)
            try self.copy(text, to: selection, marked: canMark)
            return canMark ? .offered : .unavailable(writer: "wl-copy")
        }
    }

    /// The first wl-clipboard whose wl-copy has `--sensitive` (it offers
    /// `x-kde-passwordManagerHint` = `secret` beside the text): 2.3.0.
    static let sensitiveSince = [2, 3]

    /// Whether this wl-copy has `--sensitive`, from `wl-copy --version` ("wl-clipboard 2.3.0");
    /// a version it does not print, or a run that fails, counts as no.
    func isSensitiveCopyAvailable(timeout: Duration) -> Bool {
        guard let (status, output) = try? capture([copyTool, "--version"], .clipboard, timeout), status == 0 else {
            return false
        }
        return Self.hasSensitiveCopy(versionOutput: String(decoding: output, as: UTF8.self))
    }

    /// Whether `wl-copy --version`'s output names a version with `--sensitive`.
    static func hasSensitiveCopy(versionOutput: String) -> Bool {
        guard let line = versionOutput.split(whereSeparator: \.isNewline).first,
            let word = line.split(separator: " ").first(where: { $0.first?.isNumber == true })
        else { return false }
        let parts = word.split(separator: ".").map { Int($0) ?? 0 }
        return parts.lexicographicallyPrecedes(sensitiveSince) == false
    }

    /// Writes with `wl-copy`, which forks a server and exits once it owns the selection;
    /// `marked` adds `--sensitive`.
    private func copy(_ text: [UInt8], to selection: Selection, marked: Bool) throws(ClipboardError) {
        let arguments =
            [copyTool] + (selection == .primary ? ["--primary"] : []) + (marked ? ["--sensitive"] : [])
        guard let pair = try? FileDescriptor.makeSocketPair() else {
            throw .waylandToolFailed(tool: "wl-copy", status: -1)
        }
        let ours = pair.first
        let theirs = pair.second
        let spawned = try? ChildProcess.spawn(
            copyTool, arguments: arguments, environment: environment, standardInput: .descriptor(theirs.rawValue),
            standardOutput: .null, standardError: .null, newSession: true)
        _ = consume theirs
        guard let child = spawned else { throw .waylandToolMissing(tool: "wl-copy") }
        let deadline = ContinuousClock.now + copyTimeout
        try? ours.setNonBlocking()
        try? ours.sendAll(text, before: deadline)
        _ = consume ours
        guard let status = Self.waitForExit(of: child, before: deadline) else {
            // Its group: a server it forked meanwhile goes too (it leads a session of its own).
            try? child.sendToGroup(.kill)
            _ = child.waitForExit()
            throw .waylandToolTimedOut(tool: "wl-copy", seconds: copyTimeout.seconds)
        }
        guard status == 0 else { throw .waylandToolFailed(tool: "wl-copy", status: status) }
    }

    /// The interval at which `waitForExit(of:before:)` looks at a child that has not ended: a
    /// wl-copy that works is gone within a few of them.
    static let exitPollInterval = Duration.milliseconds(2)

    /// Waits until `child` ends or `deadline` passes. `waitpid` has no deadline, so this looks
    /// again every `exitPollInterval` (wl-copy's end is the condition; nothing else tells it).
    ///
    /// - Returns: its exit status, or nil when it still runs at the deadline (not reaped).
    static func waitForExit(of child: ChildProcess, before deadline: ContinuousClock.Instant) -> Int32? {
        while true {
            if let status = child.exitStatusIfEnded() { return status }
            let now = ContinuousClock.now
            guard now < deadline else { return nil }
            CurrentProcess.sleep(for: min(exitPollInterval, deadline - now))
        }
    }

    /// Runs a tool and collects its stdout; with a `limit`, a tool that writes more is killed
    /// and the read fails with `ClipboardError.tooLarge` naming `typeName` (an image's limit),
    /// or with `.exceedsLimit` when there is no `typeName` (the read limit).
    private func capture(
        _ arguments: [String], _ selection: Selection, _ timeout: Duration, limit: Int? = nil,
        typeName: String? = nil
    ) throws(ClipboardError) -> (Int32, [UInt8]) {
        guard let pair = try? FileDescriptor.makeSocketPair() else {
            throw .waylandToolFailed(tool: "wl-paste", status: -1)
        }
        let ours = pair.first
        let theirs = pair.second
        let spawned = try? ChildProcess.spawn(
            arguments[0], arguments: arguments, environment: environment, standardInput: .null,
            standardOutput: .descriptor(theirs.rawValue), standardError: .null, newSession: false)
        _ = consume theirs
        guard let child = spawned else { throw .waylandToolMissing(tool: "wl-paste") }
        let deadline = ContinuousClock.now + timeout
        let output = Self.readAll(from: ours, before: deadline, limit: limit)
        let isTooLarge = limit.map { (output?.count ?? 0) > $0 } ?? false
        if output == nil || isTooLarge { try? child.send(.kill) }
        // Killed, or done writing: it ends now, or is made to at the deadline.
        let exited = Self.waitForExit(of: child, before: deadline)
        if exited == nil {
            try? child.send(.kill)
            _ = child.waitForExit()
        }
        // Past the limit it was killed on purpose: its status says nothing.
        if !isTooLarge, output == nil || exited == nil {
            throw .waylandToolTimedOut(tool: "wl-paste", seconds: timeout.seconds)
        }
        let bytes = output ?? []
        let status = exited ?? -1
        if isTooLarge, let limit {
            guard let typeName else { throw .exceedsLimit(selection, limit: limit) }
            throw .tooLarge(selection, type: typeName, limit: limit)
        }
        return (status, bytes)
    }
}

extension WaylandClipboard {
    /// Reads `descriptor` to its end, or until more than `limit` bytes are in; nil when the end
    /// has not come by `deadline` (a hard deadline: a writer that trickles does not move it).
    static func readAll(
        from descriptor: borrowing FileDescriptor, before deadline: ContinuousClock.Instant, limit: Int?
    )
        -> [UInt8]?
    {
        var result: [UInt8] = []
        while true {
            if let limit, result.count > limit { return result }
            guard (try? descriptor.wait(for: .readable, before: deadline)) == true,
                let piece = try? descriptor.readAvailable(upTo: readChunk)
            else { return nil }
            if piece.isEmpty { return result }
            result.append(contentsOf: piece)
        }
    }

    /// The most bytes one read of a tool's output takes.
    static let readChunk = 1 << 20
}

/// Finds executables on a `PATH` given as data.
enum ExecutableSearch {
    /// The first executable file called `name` in `environment["PATH"]`.
    static func find(_ name: String, in environment: [String: String]) -> String? {
        FileSystem.firstExecutable(named: name, inPath: environment["PATH"] ?? FileSystem.defaultExecutablePath)
    }
}
