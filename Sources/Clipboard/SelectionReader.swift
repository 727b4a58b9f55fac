import SystemInterop
import X11Interop

/// Reads a selection's text as an ICCCM requestor (ICCCM §2.4–2.7), on its own connection.
///
/// The steps, as xsel writes them down, arranged to cost as few round trips to the server as
/// they can (each is a wait at the hotkey; `scripts/bench`):
/// 0. Every atom the steps may need is interned in one round trip, with the reader's window and
///    the request for step 2's timestamp, whose answer rides on that round trip.
/// 1. No owner (`XGetSelectionOwner` = None) → the selection is empty. Asked only when step 3
///    is refused (the server refuses at once when nobody owns the selection).
/// 2. A server timestamp (ICCCM §2.1 asks requestors for a real time, not `CurrentTime`).
/// 3. Convert to `UTF8_STRING`, the best text target and the one nearly every owner offers.
///    An answer of another type (some owners send what they hold whatever was asked) counts
///    as a refusal.
///    `TARGETS` is asked first (into a second property), and answered before `UTF8_STRING` is
///    asked (the request that reads TARGETS' answer carries it): one round trip more, since
///    two conversions asked at once are too much for some owners (mutter 43's XWayland bridge
///    answers one of them and drops the other, so the read timed out: GNOMEEndToEndTests'
///    image case). An owner that offers the
///    password manager's mark with the value `secret` (`PasswordManagerHint`) is refused
///    (`ClipboardError.markedSecret`) and its text never read.
/// 4. Only when the owner refuses that: look at its `TARGETS` and pick the best text target it
///    offers (`TextTarget`), or report what it offers instead of text; an owner that refuses
///    `TARGETS` too (some very old clients) is asked for `STRING`, blind.
/// 5. The owner answers with `SelectionNotify`: property None means refused; otherwise the data
///    is in our property, which we read *and delete* in one request. If its type is `INCR`, the
///    data comes in chunks (§2.7.2): the value is a lower bound on the size (we reserve it);
///    every deletion asks the owner for the next chunk, which arrives as a `PropertyNotify`
///    (new value); a zero-length chunk ends the transfer.
/// 6. No text at the end: an owner that is there and refused every request is a refusal
///    (`ClipboardError.ownerRefused`, naming the targets), one that answered with data of
///    another type (INTEGER for UTF8_STRING) says so (`.nonTextReply`); only no owner, or zero
///    bytes, is an empty selection.
///
/// Every wait for the owner has the same deadline length: an owner that never answers costs at
/// most `timeout` per step. An INCR transfer keeps a pace as a whole too (`ReadPace`): past
/// `timeout`, one that averages less than 64 KiB/s (an owner trickling a little before each
/// deadline) is left with `ClipboardError.tooSlow`, while a large one that keeps moving is never
/// cut short.
///
/// `readContent` may end in an image instead (`ImageTarget`), with no step added for text:
/// - step 3's answer may already be the image (`xclip -t image/png` answers every target with
///   what it holds, typed as it is): it is kept, not asked for again;
/// - at step 4, an owner offering no text target but an image target is asked for the image;
/// - when the caller prefers an image (`--image`), step 4 comes first, and an image target
///   wins; its answer then saves step 4 on the text path.
/// An image (any reply not text, once `readContent` reads) is read up to a limit: an owner that
/// sends more is left mid-transfer with `ClipboardError.tooLarge`. Any reply at all is read up
/// to `readLimit` (paste's `max-clipboard`), past which it is left with `.exceedsLimit`: an
/// owner that never stops cannot fill memory.
///
/// With an `observer`, an INCR transfer of text (`UTF8_STRING`, `STRING`) is shown to it as it
/// arrives, on this thread, between one increment and the next (see `TextObserver`); a reply in
/// one piece is not.
struct SelectionReader {
    let display: Display
    let selection: Selection
    /// How long each wait for the server or the owner lasts; set again by a read that continues
    /// one begun before the configuration gave its timeout (`askTargetsAhead`).
    var timeout: Duration
    /// Our unmapped window: the requestor, listening to its own property changes.
    let window: Window
    /// The property on `window` where owners put their answers.
    let property: Atom
    /// The property for the answer to `TARGETS` (and the hint), asked beside step 3's.
    let targetsProperty: Atom
    /// `x-kde-passwordManagerHint` (`PasswordManagerHint`).
    let hint: Atom
    /// The selection's atom, and the atoms of the targets and types met on the way.
    let selectionAtom, utf8String, string, compoundText, incr, targets: Atom
    /// The most bytes of any reply: past it the transfer is left with `.exceedsLimit`.
    var readLimit = ContentPreferences.defaultReadLimit
    /// Sees the text of an INCR transfer as it arrives (each conversion starts from this state).
    var observer: (any ChunkObserving)?
    /// Work that needs no text, run once while the owner answers the first conversion of a
    /// read (`ReadRequest.whileOwnerAnswers`: the hotkey's upload set-up).
    var whileOwnerAnswers: (@Sendable () -> Void)?
    /// The server time `TARGETS` was asked with by `askTargetsAhead`, before the read itself
    /// began; nil when the read asks it (every read asks `TARGETS` first, and once).
    private(set) var targetsAskedAt: Timestamp?

    init(display: Display, selection: Selection, timeout: Duration) {
        self.display = display
        self.selection = selection
        self.timeout = timeout
        window = display.createWindow(events: .propertyChange)
        // Step 2's request goes out with the atoms': the time arrives on their round trip.
        display.requestServerTime(using: window)
        let names = [
            "PASTE_SELECTION", selection.atomName, TextTarget.utf8String.rawValue, TextTarget.string.rawValue,
            TextTarget.compoundText.rawValue, "INCR", "TARGETS", "PASTE_TARGETS", PasswordManagerHint.name,
        ]
        // With them, the atoms an owner on this connection needs (`SelectionServer`, for either
        // selection), in the same round trip: a hotkey that reads and then owns the clipboard
        // interns once (the display caches them).
        let atoms = display.atoms(names + ["CLIPBOARD", "PRIMARY"] + SelectionServer.atomNames)
        (property, selectionAtom, utf8String, string, compoundText, incr, targets) = (
            atoms[0], atoms[1], atoms[2], atoms[3], atoms[4], atoms[5], atoms[6]
        )
        (targetsProperty, hint) = (atoms[7], atoms[8])
    }

    /// Asks the owner for `TARGETS` now, ahead of the read that will come (the first request
    /// of every read, see `readText` and `readContent`), when the server time asked in `init`
    /// is here already: it came before the atoms' reply, so it is, unless the server sends
    /// events late. Flushed, not waited for: the owner answers while the caller works (a hotkey
    /// run loads its configuration and plans the run meanwhile, `X11Clipboard.beginRead`).
    /// Nothing is asked when the time is not here: the read then asks as it always does.
    mutating func askTargetsAhead() {
        guard let time = try? display.awaitServerTime(using: window, before: .now) else { return }
        sendConversion(to: targets, into: targetsProperty, time: time)
        display.flush()
        targetsAskedAt = time
    }

    /// Waits, until `deadline` at most, for the owner's answer to the `TARGETS` that
    /// `askTargetsAhead` asked, when the read that was to follow never came: an owner writes
    /// its answer on our window, and one that finds the window gone may die of it (xclip:
    /// Xlib's default handler exits on its `BadWindow`, and the clipboard's text goes with it).
    /// Once its `SelectionNotify` is here, the owner is done with the window.
    func awaitTargetsAskedAhead(before deadline: ContinuousClock.Instant) {
        guard targetsAskedAt != nil else { return }
        _ = display.waitForEvent(before: deadline) { [window, selectionAtom, targets] event in
            guard case .selectionNotify(let notify) = event else { return false }
            return notify.requestor == window && notify.selection == selectionAtom && notify.target == targets
        }
    }

    /// Runs steps 1–5 and returns the text as UTF-8.
    func read() throws(ClipboardError) -> [UInt8] {
        try readWithTime().text
    }

    /// Runs steps 1–5 and returns the text as UTF-8, with the server time the requests used
    /// (good for taking a selection on this connection right after).
    func readWithTime() throws(ClipboardError) -> (text: [UInt8], time: Timestamp) {
        let time = try awaitTime()
        guard case .text(let text) = try readText(time: time, imageLimit: nil).content else {
            preconditionFailure("readText returns text when images are not read")
        }
        return (text, time)
    }

    /// Reads the text, or an image when there is no text or the caller prefers an image (see
    /// the steps above), with the observer that saw the text arrive (nil when it was not
    /// observed) and the server time the requests used.
    func readContent(preferences: ContentPreferences) throws(ClipboardError) -> (
        content: ClipboardContent, observed: (any ChunkObserving)?, time: Timestamp
    ) {
        let time = try awaitTime()
        let limit = preferences.imageLimit
        guard preferences.prefersImage else {
            let (content, observed) = try readText(time: time, imageLimit: limit)
            return (content, observed, time)
        }
        // Step 4 first: the owner's image, when it offers one.
        let offered = try offeredTargets(time: time, whileOwnerAnswers: whileOwnerAnswers)
        if offered == nil, display.selectionOwner(selectionAtom) == nil { throw .empty(selection) }
        if let offered { try refuseIfMarkedSecret(offered: offered, time: time) }
        if let offered, let (_, name) = ImageTarget.preferred(among: offered) {
            if case .image(let bytes, let type)? = try convert(
                to: display.atom(name), named: name, time: time, imageLimit: limit)
            {
                guard !bytes.isEmpty else { throw .empty(selection) }
                return (.image(bytes, type: type), nil, time)
            }
        }
        let (content, observed) = try readText(time: time, imageLimit: limit, offered: .some(offered))
        return (content, observed, time)
    }

    /// Step 2, asked for in `init` and answered on the atoms' round trip.
    private func awaitTime() throws(ClipboardError) -> Timestamp {
        if let targetsAskedAt { return targetsAskedAt }
        do { return try display.awaitServerTime(using: window, before: .now + timeout) } catch {
            throw .timedOut(selection, seconds: timeout.seconds)
        }
    }

    /// Steps 1 and 3–5: the text, and the observer that saw it arrive; with an `imageLimit` (a
    /// content read), an image when the owner's only answer is one.
    ///
    /// - Parameter known: the targets when step 4 was already asked (nil inside: refused).
    private func readText(
        time: Timestamp, imageLimit: Int?, offered known: [String]?? = nil
    ) throws(ClipboardError) -> (content: ClipboardContent, observed: (any ChunkObserving)?) {
        // What the owner did with each request that brought no text, for the error: the
        // targets it refused (property None), and the first answer that was not text.
        var refused: [String] = []
        var nonText: (target: String, type: String)?
        func failure() -> ClipboardError {
            if let nonText { return .nonTextReply(selection, target: nonText.target, type: nonText.type) }
            return .ownerRefused(selection, targets: refused)
        }
        // Step 3, after TARGETS (on its own property, answered before UTF8_STRING is asked,
        // see above): the password manager's mark is among the targets, and must be seen
        // before any text is read. With no owner the server itself refuses both, and step 1 tells why.
        let step3: Reply?
        let offered: [String]?
        if let known {
            // Asked by `readContent`, which looked for the mark then.
            offered = known
            step3 = try convert(to: utf8String, time: time, imageLimit: imageLimit)
        } else {
            let isAskedAhead = targetsAskedAt != nil
            if !isAskedAhead {
                sendConversion(to: targets, into: targetsProperty, time: time)
                display.flush()
                // The owner is asked: the caller's work that needs no text runs while it answers.
                whileOwnerAnswers?()
            }
            let targetsAnswered = try awaitConversion(to: targets, into: targetsProperty)
            // The owner has answered TARGETS: UTF8_STRING is asked now, and the request rides
            // with the one that reads TARGETS' answer (one round trip for both; still one
            // conversion at a time for the owner).
            sendConversion(to: utf8String, into: property, time: time)
            offered = targetsAnswered ? readTargets() : nil
            display.flush()
            // TARGETS asked ahead had the caller's own work to hide its answer (the
            // configuration's load): this work waits for UTF8_STRING's instead.
            if isAskedAhead { whileOwnerAnswers?() }
            let isAnswered = try awaitConversion(to: utf8String, into: property)
            if let offered { try refuseIfMarkedSecret(offered: offered, time: time) }
            step3 = isAnswered ? try collect(target: utf8String, targetName: nil, imageLimit: imageLimit) : nil
        }
        switch step3 {
        case .text(let text, let observed)?:
            guard !text.isEmpty else { throw .empty(selection) }
            return (.text(text), observed)
        case .image(let bytes, let type)? where imageLimit != nil:
            // The owner answered with its image (xclip does): the bytes are here, keep them.
            guard !bytes.isEmpty else { throw .empty(selection) }
            return (.image(bytes, type: type), nil)
        case .image(_, let type)?: nonText = (TextTarget.utf8String.rawValue, type)
        case .other(let type)?: nonText = (TextTarget.utf8String.rawValue, type)
        case nil: refused.append(TextTarget.utf8String.rawValue)
        }
        // Step 1, needed only now.
        guard display.selectionOwner(selectionAtom) != nil else { throw .empty(selection) }
        // Step 4, asked already.
        let candidates: [String]
        if let offered {
            let others = offered.filter { $0 != TextTarget.utf8String.rawValue }
            guard let (_, name) = TextTarget.preferred(among: others) else {
                // It refused UTF8_STRING, and offers it or nothing at all: a refusal, not an
                // empty selection (nobody owning it, or zero bytes, is one).
                if offered.isEmpty || offered.contains(TextTarget.utf8String.rawValue) { throw failure() }
                let available = offered.filter { !TextTarget.metaTargets.contains($0) }
                guard let imageLimit else { throw .noTextTarget(selection, available: available) }
                guard let (_, image) = ImageTarget.preferred(among: offered) else {
                    throw .noContentTarget(selection, available: available)
                }
                switch try convert(to: display.atom(image), named: image, time: time, imageLimit: imageLimit) {
                case .image(let bytes, let type)?:
                    guard !bytes.isEmpty else { throw .empty(selection) }
                    return (.image(bytes, type: type), nil)
                case .text?: nonText = nonText ?? (image, "text")
                case .other(let type)?: nonText = nonText ?? (image, type)
                case nil: refused.append(image)
                }
                if display.selectionOwner(selectionAtom) == nil { throw .empty(selection) }
                throw failure()
            }
            candidates = [name]
        } else {
            refused.append("TARGETS")
            if display.selectionOwner(selectionAtom) == nil { throw .empty(selection) }
            candidates = [TextTarget.string.rawValue]
        }
        // Step 5, again.
        for name in candidates {
            switch try convert(to: display.atom(name), time: time, imageLimit: imageLimit) {
            case .text(let text, let observed)?:
                guard !text.isEmpty else { throw .empty(selection) }
                return (.text(text), observed)
            case .image(_, let type)?: nonText = nonText ?? (name, type)
            case .other(let type)?: nonText = nonText ?? (name, type)
            case nil: refused.append(name)
            }
        }
        if display.selectionOwner(selectionAtom) == nil { throw .empty(selection) }
        throw failure()
    }

    /// The names of the targets the owner offers, or nil when it refuses `TARGETS`.
    private func offeredTargets(
        time: Timestamp, whileOwnerAnswers: (@Sendable () -> Void)? = nil
    ) throws(ClipboardError) -> [String]? {
        if targetsAskedAt == nil {
            sendConversion(to: targets, into: targetsProperty, time: time)
            display.flush()
        }
        whileOwnerAnswers?()
        guard try awaitConversion(to: targets, into: targetsProperty) else { return nil }
        return readTargets()
    }

    /// The answer to `TARGETS` in `targetsProperty`, read but not deleted: the owner may be
    /// sending step 3's answer by INCR already, and some owners (xclip) take any deletion on our
    /// window for the deletion of a chunk, and send the next over the one we have not read. The
    /// property goes with our window.
    private func readTargets() -> [String]? {
        guard let reply = display.property(targetsProperty, of: window, delete: false), reply.format == 32 else {
            return nil
        }
        return display.names(of: reply.atoms.filter { !$0.isNone })
    }

    /// Asks the owner's `TARGETS` only, and throws `.markedSecret` when they offer the password
    /// manager's mark meaning a secret (`refuseIfMarkedSecret(offered:time:)`); no text is read.
    /// The X side of a clipboard read on Wayland (`DataControlClipboard`): two round trips, the
    /// atoms' (with the server time) and `TARGETS`', and a third only when the mark is offered.
    /// An owner that refuses `TARGETS` (nobody owns the selection; wlroots' bridge while no X
    /// window has the focus) offers no mark.
    ///
    /// - Throws: `.markedSecret`; `.timedOut` when the server or the owner does not answer.
    func refuseIfMarkedSecret() throws(ClipboardError) {
        let time = try awaitTime()
        guard let offered = try offeredTargets(time: time) else { return }
        try refuseIfMarkedSecret(offered: offered, time: time)
    }

    /// Throws `.markedSecret` when the owner offers the password manager's mark with the value
    /// `secret` (`PasswordManagerHint`). The value costs a round trip only when the mark is
    /// offered; an owner that then cannot say what it means is taken at its word, a secret
    /// (`PasswordManagerHint.marksSecret`): one that refuses it or never answers, answers
    /// with zero bytes, or by `INCR` (a value of six letters needs no increments, and reading
    /// one would hand the owner the pace of the hotkey).
    private func refuseIfMarkedSecret(offered: [String], time: Timestamp) throws(ClipboardError) {
        guard offered.contains(PasswordManagerHint.name) else { return }
        sendConversion(to: hint, into: targetsProperty, time: time)
        display.flush()
        let isAnswered: Bool
        do { isAnswered = try awaitConversion(to: hint, into: targetsProperty) } catch {
            throw .markedSecret(selection)
        }
        guard isAnswered else { throw .markedSecret(selection) }
        var value: [UInt8] = []
        let header = display.readProperty(targetsProperty, of: window, delete: false, appendingTo: &value)
        let answer = header.flatMap { $0.type == incr ? nil : value }
        if PasswordManagerHint.marksSecret(answer) { throw .markedSecret(selection) }
    }

    /// Who owns the selection, seen from X beside a Wayland clipboard (`XSelectionHolder`), after
    /// the password manager's mark as `refuseIfMarkedSecret()` looks for it (the same round
    /// trips), then the owner, the window manager's window, the focused window and the window
    /// manager's name (four more, and the three atoms' once per connection).
    ///
    /// - Throws: `.markedSecret`; `.timedOut` when the server or the owner does not answer.
    func holderBesideWayland() throws(ClipboardError) -> XSelectionHolder {
        let time = try awaitTime()
        let offered = try offeredTargets(time: time)
        if let offered { try refuseIfMarkedSecret(offered: offered, time: time) }
        guard let owner = display.selectionOwner(selectionAtom) else { return .nobody }
        if offered?.contains(BridgeWatch.mark) == true { return .paste }
        let names = display.atoms(["_NET_SUPPORTING_WM_CHECK", "_NET_ACTIVE_WINDOW", "_NET_WM_NAME"])
        let root = display.rootWindow
        let manager = display.property(names[0], of: root, delete: false)?.values.first.flatMap {
            $0 == 0 ? nil : Window(rawValue: $0)
        }
        if let manager, display.isSameClient(owner, manager) { return .bridge }
        let active = display.property(names[1], of: root, delete: false)?.values.first ?? 0
        let name = manager.flatMap { display.property(names[2], of: $0, delete: false) }.map {
            String(decoding: $0.bytes, as: UTF8.self)
        }
        return .program(isXWindowFocused: active != 0, windowManager: name)
    }

    /// What an owner answered to one conversion.
    private enum Reply {
        /// Text, decoded to UTF-8, and the observer that saw it arrive (nil: not observed).
        case text([UInt8], observed: (any ChunkObserving)?)
        /// An image (`ImageTarget`), its bytes as sent; `type` is the MIME type in lower case.
        case image([UInt8], type: String)
        /// Bytes of some other type (its name): no answer to a request for text or an image.
        case other(type: String)
    }

    /// Converts the selection to `target` and collects the data (INCR included), or nil when
    /// the owner refused.
    ///
    /// - Parameters:
    ///   - targetName: the target's name when the caller knows it (saves asking the server
    ///     for the name of a reply in that type).
    ///   - imageLimit: for a content read, the most bytes of a reply that is not text:
    ///     past it the transfer is abandoned with `ClipboardError.tooLarge`. Nil (a text
    ///     read) collects everything, as before images were read.
    private func convert(
        to target: Atom, named targetName: String? = nil, time: Timestamp, imageLimit: Int?
    ) throws(ClipboardError) -> Reply? {
        guard try requestConversion(to: target, time: time) else { return nil }
        return try collect(target: target, targetName: targetName, imageLimit: imageLimit)
    }

    /// The data of a conversion the owner granted (in `property`), INCR included: `convert`'s
    /// second half.
    private func collect(target: Atom, targetName: String?, imageLimit: Int?) throws(ClipboardError) -> Reply? {
        var data: [UInt8] = []
        guard let header = display.readProperty(property, of: window, delete: true, appendingTo: &data) else {
            return nil
        }
        var type = header.type
        // The reply's type, judged as soon as it is known when a limit must be kept.
        var judgement: (isText: Bool, name: String?)?
        // The observer that saw the reply arrive, if one did.
        var observed: (any ChunkObserving)?
        if type == incr {
            // §2.7.2: the deletion above (in the same request) told the owner to start.
            // Room for the whole transfer before it starts: the owner's size when it gives one
            // (a lower bound; capped, since any client can claim any size), else
            // `incrReservation`. Growing as chunks come copies all that arrived so far at each
            // step (once the whole 64 MiB, for one last 64-byte chunk).
            data.reserveCapacity(
                min(header.values.first.map { Int(clamping: $0) } ?? Self.incrReservation, 1 << 30, readLimit))
            // In 2 MiB pages: far fewer faults as the transfer fills it (`Memory`).
            Memory.adviseHugePages(forCapacityOf: &data)
            // The whole transfer keeps a pace, not only each wait (`ReadPace`).
            let pace = ReadPace(start: .now, timeout: timeout)
            var chunk = try nextIncrement(appendingTo: &data, pace: pace)
            type = chunk.type
            if imageLimit != nil { judgement = judge(type, target: target, targetName: targetName) }
            // Text in increments, with an observer: each piece is shown to it once read, in
            // place, while the owner and the server make the next (the read deleted the
            // property, which asks for it).
            var observing = chunk.byteCount > 0 && (type == utf8String || type == string) ? observer : nil
            var handedOver = 0
            /// Shows the text from `handedOver` to the observer, as UTF-8.
            func observeArrived() {
                guard observing != nil, handedOver < data.count else { return }
                if type == string {
                    observing!.take(TextEncoding.utf8(fromLatin1: Array(data[handedOver...])).span)
                } else {
                    observing!.take(data.span.extracting(handedOver...))
                }
                handedOver = data.count
            }
            while chunk.byteCount > 0 {
                if let imageLimit, let judgement, !judgement.isText, data.count > imageLimit {
                    // Stop here: the owner waits for a deletion that never comes, and our
                    // window goes with the connection.
                    throw .tooLarge(selection, type: judgement.name ?? "data", limit: imageLimit)
                }
                try checkReadLimit(data.count)
                if data.count - handedOver >= Self.handOverBytes { observeArrived() }
                chunk = try nextIncrement(appendingTo: &data, pace: pace)
            }
            observeArrived()
            observed = observing
            discardPropertyNotifications()
        }
        try checkReadLimit(data.count)
        let (isText, typeName) = judgement ?? judge(type, target: target, targetName: targetName)
        // An owner may answer any target with what it has (`xclip -t image/png` does): bytes
        // of another type are no answer to a request for text.
        if isText { return .text(decode(data, type: type), observed: observed) }
        if let imageLimit, data.count > imageLimit {
            throw .tooLarge(selection, type: typeName ?? "data", limit: imageLimit)
        }
        guard let typeName, let image = ImageTarget(typeName: typeName) else {
            return .other(type: typeName ?? "an unnamed type's")
        }
        return .image(data, type: image.rawValue)
    }

    /// Waits for the owner's next INCR increment and appends it to `buffer` (§2.7.2: each one
    /// is a new value of our property; reading it deletes it, which asks for the next). A
    /// zero-length increment ends the transfer.
    ///
    /// Each wait lasts `timeout` at most, and less when the transfer as a whole would fall below
    /// its `pace` first: an owner that stops is `.timedOut`, one that trickles `.tooSlow`.
    private func nextIncrement(appendingTo buffer: inout [UInt8], pace: ReadPace) throws(ClipboardError)
        -> PropertyHeader
    {
        while true {
            let wait = pace.nextWait(afterReceiving: buffer.count, now: .now)
            let arrived = display.waitForEvent(before: wait.deadline) { [window, property] event in
                guard case .propertyNotify(let change) = event else { return false }
                return change.window == window && change.property == property && change.state == .newValue
            }
            guard arrived != nil else {
                throw pace.expired(selection, received: buffer.count, isPaceLimit: wait.isPaceLimit)
            }
            if let increment = display.readProperty(property, of: window, delete: true, appendingTo: &buffer) {
                return increment
            }
            // A stale notification for a value we already consumed: wait for the next.
        }
    }

    /// How many bytes are gathered before they are shown to an observer: small increments
    /// (xsel sends 4 KiB) go together, one call of the observer (and one seam of the secret
    /// guard's scan) each, while xclip's (about 1 MiB under Xvfb) go one by one.
    static let handOverBytes = 256 << 10

    /// Stops a reply that has grown past `readLimit`: the owner waits for a deletion that never
    /// comes, and our window goes with the connection.
    private func checkReadLimit(_ count: Int) throws(ClipboardError) {
        if count > readLimit { throw .exceedsLimit(selection, limit: readLimit) }
    }

    /// Whether a reply of `type` holds text (the text targets, and any `text/…` type: owners
    /// label UTF-8 in several ways), and the type's name when it is not one of the three text
    /// atoms. Asks the server for the name only for such a rare type.
    private func judge(_ type: Atom, target: Atom, targetName: String?) -> (isText: Bool, name: String?) {
        if type == utf8String || type == string || type == compoundText { return (true, nil) }
        // An image asked for by name and answered in its own type needs no round trip.
        guard let name = type == target ? targetName ?? display.name(of: type) : display.name(of: type) else {
            return (false, nil)
        }
        return (TextTarget(rawValue: name) != nil || name.lowercased().hasPrefix("text/"), name)
    }

    /// The room reserved for an INCR transfer whose owner gives no size (xclip gives none):
    /// address space, not memory, until chunks are written into it, so a large reservation
    /// costs nothing and spares the copies of growing. Beyond it, the buffer grows eight-fold
    /// (`Display.readProperty`).
    static let incrReservation = 256 << 20

    /// Sends `ConvertSelection` and waits for the owner's `SelectionNotify`.
    /// - Returns: whether the owner put an answer in our property (false: refused).
    private func requestConversion(to target: Atom, time: Timestamp) throws(ClipboardError) -> Bool {
        sendConversion(to: target, into: property, time: time)
        display.flush()
        return try awaitConversion(to: target, into: property)
    }

    /// Sends `ConvertSelection` for `target` into `destination` (unflushed: several may share
    /// a round trip).
    private func sendConversion(to target: Atom, into destination: Atom, time: Timestamp) {
        display.convertSelection(selectionAtom, to: target, property: destination, requestor: window, time: time)
    }

    /// Waits for the owner's `SelectionNotify` for `target`.
    /// - Returns: whether the owner put an answer in `destination` (false: refused).
    private func awaitConversion(to target: Atom, into destination: Atom) throws(ClipboardError) -> Bool {
        let event = display.waitForEvent(before: .now + timeout) { [window, selectionAtom] event in
            guard case .selectionNotify(let notify) = event else { return false }
            return notify.requestor == window && notify.selection == selectionAtom && notify.target == target
        }
        guard case .selectionNotify(let notify) = event else {
            throw .timedOut(selection, seconds: timeout.seconds)
        }
        return notify.property == destination
    }

    /// Drops queued `PropertyNotify` events (our own deletions), so a later conversion on the
    /// same window does not mistake them for new chunks.
    private func discardPropertyNotifications() {
        while let event = display.waitForEvent(
            before: .now,
            matching: { event in
                if case .propertyNotify = event { return true }
                return false
            })
        {
            _ = event
        }
    }

    /// Turns the bytes of a reply of `type` into UTF-8.
    private func decode(_ data: [UInt8], type: Atom) -> [UInt8] {
        switch type {
        case string: TextEncoding.utf8(fromLatin1: data)
        case compoundText: display.utf8Text(fromEncoded: data, type: type) ?? data
        default: data  // UTF8_STRING, text/plain;charset=utf-8, and owners that mislabel UTF-8.
        }
    }
}
