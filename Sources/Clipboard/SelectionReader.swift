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
/// 4. Only when the owner refuses that: convert to `TARGETS` and pick the best text target it
///    offers (`TextTarget`), or report what it offers instead of text; an owner that refuses
///    `TARGETS` too (some very old clients) is asked for `STRING`, blind.
/// 5. The owner answers with `SelectionNotify`: property None means refused; otherwise the data
///    is in our property, which we read *and delete* in one request. If its type is `INCR`, the
///    data comes in chunks (§2.7.2): the value is a lower bound on the size (we reserve it);
///    every deletion asks the owner for the next chunk, which arrives as a `PropertyNotify`
///    (new value); a zero-length chunk ends the transfer.
///
/// Every wait for the owner has the same deadline length: an owner that never answers costs at
/// most `timeout` per step, and a large INCR transfer that keeps moving is never cut short.
struct SelectionReader {
    let display: Display
    let selection: Selection
    let timeout: Duration
    /// Our unmapped window: the requestor, listening to its own property changes.
    let window: Window
    /// The property on `window` where owners put their answers.
    let property: Atom
    /// The selection's atom, and the atoms of the targets and types met on the way.
    let selectionAtom, utf8String, string, compoundText, incr, targets: Atom

    init(display: Display, selection: Selection, timeout: Duration) {
        self.display = display
        self.selection = selection
        self.timeout = timeout
        window = display.createWindow(events: .propertyChange)
        // Step 2's request goes out with the atoms': the time arrives on their round trip.
        display.requestServerTime(using: window)
        let names = [
            "PASTE_SELECTION", selection.atomName, TextTarget.utf8String.rawValue, TextTarget.string.rawValue,
            TextTarget.compoundText.rawValue, "INCR", "TARGETS",
        ]
        let atoms = display.atoms(names)
        (property, selectionAtom, utf8String, string, compoundText, incr, targets) = (
            atoms[0], atoms[1], atoms[2], atoms[3], atoms[4], atoms[5], atoms[6]
        )
    }

    /// Runs steps 1–5 and returns the text as UTF-8.
    func read() throws(ClipboardError) -> [UInt8] {
        try readWithTime().text
    }

    /// Runs steps 1–5 and returns the text as UTF-8, with the server time the requests used
    /// (good for taking a selection on this connection right after).
    func readWithTime() throws(ClipboardError) -> (text: [UInt8], time: Timestamp) {
        // Step 2 (asked for in `init`, answered on the atoms' round trip).
        let time: Timestamp
        do { time = try display.awaitServerTime(using: window, before: .now + timeout) } catch {
            throw .timedOut(selection, seconds: timeout.seconds)
        }
        // Step 3. With no owner the server itself refuses, and step 1 tells why.
        if let text = try convert(to: utf8String, time: time) {
            guard !text.isEmpty else { throw .empty(selection) }
            return (text, time)
        }
        // Step 1, needed only now.
        guard display.selectionOwner(selectionAtom) != nil else { throw .empty(selection) }
        // Step 4.
        let candidates: [String]
        if let offered = try offeredTargets(time: time) {
            let others = offered.filter { $0 != TextTarget.utf8String.rawValue }
            guard let (_, name) = TextTarget.preferred(among: others) else {
                if offered.isEmpty { throw .empty(selection) }
                if offered.contains(TextTarget.utf8String.rawValue) {
                    throw .ownerRefused(selection, target: TextTarget.utf8String.rawValue)
                }
                throw .noTextTarget(
                    selection, available: offered.filter { !TextTarget.metaTargets.contains($0) })
            }
            candidates = [name]
        } else {
            if display.selectionOwner(selectionAtom) == nil { throw .empty(selection) }
            candidates = [TextTarget.string.rawValue]
        }
        // Step 5, again.
        for name in candidates {
            if let text = try convert(to: display.atom(name), time: time) {
                guard !text.isEmpty else { throw .empty(selection) }
                return (text, time)
            }
        }
        if display.selectionOwner(selectionAtom) == nil { throw .empty(selection) }
        throw .ownerRefused(selection, target: candidates.last ?? "")
    }

    /// The names of the targets the owner offers, or nil when it refuses `TARGETS`.
    private func offeredTargets(time: Timestamp) throws(ClipboardError) -> [String]? {
        guard try requestConversion(to: targets, time: time) else { return nil }
        guard let reply = display.property(property, of: window, delete: true), reply.format == 32 else {
            return nil
        }
        return display.names(of: reply.atoms.filter { !$0.isNone })
    }

    /// Converts the selection to `target` and collects the data (INCR included) as UTF-8, or
    /// nil when the owner refused.
    private func convert(to target: Atom, time: Timestamp) throws(ClipboardError) -> [UInt8]? {
        guard try requestConversion(to: target, time: time) else { return nil }
        var data: [UInt8] = []
        guard let header = display.readProperty(property, of: window, delete: true, appendingTo: &data) else {
            return nil
        }
        var type = header.type
        if type == incr {
            // §2.7.2: the deletion above (in the same request) told the owner to start.
            // Room for the whole transfer before it starts: the owner's size when it gives one
            // (a lower bound; capped, since any client can claim any size), else
            // `incrReservation`. Growing as chunks come copies all that arrived so far at each
            // step (once the whole 64 MiB, for one last 64-byte chunk).
            data.reserveCapacity(
                header.values.first.map { min(Int(clamping: $0), 1 << 30) } ?? Self.incrReservation)
            var isFirstChunk = true
            while true {
                let deadline = ContinuousClock.now + timeout
                let arrived = display.waitForEvent(before: deadline) { [window, property] event in
                    guard case .propertyNotify(let change) = event else { return false }
                    return change.window == window && change.property == property && change.state == .newValue
                }
                guard arrived != nil else { throw .timedOut(selection, seconds: timeout.seconds) }
                guard let chunk = display.readProperty(property, of: window, delete: true, appendingTo: &data)
                else { continue }  // A stale notification for a value we already consumed.
                if isFirstChunk {
                    type = chunk.type
                    isFirstChunk = false
                }
                if chunk.byteCount == 0 { break }
            }
            discardPropertyNotifications()
        }
        // An owner may answer any target with what it has (`xclip -t image/png` does): bytes
        // of another type are no answer to a request for text.
        guard isText(type) else { return nil }
        return decode(data, type: type)
    }

    /// Whether a reply of `type` holds text: the text targets, and any `text/…` type (owners
    /// label UTF-8 in several ways). Asks the server for the name only for a rare type.
    private func isText(_ type: Atom) -> Bool {
        if type == utf8String || type == string || type == compoundText { return true }
        guard let name = display.name(of: type) else { return false }
        return TextTarget(rawValue: name) != nil || name.lowercased().hasPrefix("text/")
    }

    /// The room reserved for an INCR transfer whose owner gives no size (xclip gives none):
    /// address space, not memory, until chunks are written into it, so a large reservation
    /// costs nothing and spares the copies of growing. Beyond it, the buffer grows eight-fold
    /// (`Display.readProperty`).
    static let incrReservation = 256 << 20

    /// Sends `ConvertSelection` and waits for the owner's `SelectionNotify`.
    /// - Returns: whether the owner put an answer in our property (false: refused).
    private func requestConversion(to target: Atom, time: Timestamp) throws(ClipboardError) -> Bool {
        display.convertSelection(selectionAtom, to: target, property: property, requestor: window, time: time)
        display.flush()
        let event = display.waitForEvent(before: .now + timeout) { [window, selectionAtom] event in
            guard case .selectionNotify(let notify) = event else { return false }
            return notify.requestor == window && notify.selection == selectionAtom && notify.target == target
        }
        guard case .selectionNotify(let notify) = event else {
            throw .timedOut(selection, seconds: timeout.seconds)
        }
        return notify.property == property
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
