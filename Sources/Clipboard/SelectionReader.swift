import X11Interop

/// Reads a selection's text as an ICCCM requestor (ICCCM §2.4–2.7), on its own connection.
///
/// The steps, as xsel writes them down:
/// 1. No owner (`XGetSelectionOwner` = None) → the selection is empty.
/// 2. Get a server timestamp (ICCCM §2.1 asks requestors for a real time, not `CurrentTime`).
/// 3. Convert to `TARGETS` into our property; pick the best text target (`TextTarget`).
///    An owner that refuses `TARGETS` (some very old clients) is asked for `UTF8_STRING`, then
///    `STRING`, blind.
/// 4. Convert to that target. The owner answers with `SelectionNotify`: property None means
///    refused; otherwise the data is in our property, which we read *and delete* in one request.
/// 5. If its type is `INCR`, the data comes in chunks (§2.7.2): the value is a lower bound on the
///    size (we reserve it); every deletion asks the owner for the next chunk, which arrives as a
///    `PropertyNotify` (new value); a zero-length chunk ends the transfer.
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

    init(display: Display, selection: Selection, timeout: Duration) {
        self.display = display
        self.selection = selection
        self.timeout = timeout
        window = display.createWindow(events: .propertyChange)
        property = display.atom("PASTE_SELECTION")
    }

    /// Runs steps 1–5 and returns the text as UTF-8.
    func read() throws(ClipboardError) -> [UInt8] {
        let selectionAtom = display.atom(selection.atomName)
        // Step 1.
        guard display.selectionOwner(selectionAtom) != nil else { throw .empty(selection) }
        // Step 2.
        let time: Timestamp
        do { time = try display.serverTime(using: window, before: .now + timeout) } catch {
            throw .timedOut(selection, seconds: timeout.seconds)
        }
        // Step 3.
        var candidates: [String]
        if let offered = try targets(of: selectionAtom, time: time) {
            guard let (_, name) = TextTarget.preferred(among: offered) else {
                if offered.isEmpty { throw .empty(selection) }
                throw .noTextTarget(
                    selection, available: offered.filter { !TextTarget.metaTargets.contains($0) })
            }
            candidates = [name]
        } else {
            if display.selectionOwner(selectionAtom) == nil { throw .empty(selection) }
            candidates = [TextTarget.utf8String.rawValue, TextTarget.string.rawValue]
        }
        // Steps 4 and 5.
        for name in candidates {
            if let text = try convert(selectionAtom, to: display.atom(name), time: time) {
                guard !text.isEmpty else { throw .empty(selection) }
                return text
            }
        }
        if display.selectionOwner(selectionAtom) == nil { throw .empty(selection) }
        throw .ownerRefused(selection, target: candidates.last ?? "")
    }

    /// The names of the targets the owner offers, or nil when it refuses `TARGETS`.
    private func targets(of selectionAtom: Atom, time: Timestamp) throws(ClipboardError) -> [String]? {
        guard try requestConversion(selectionAtom, to: display.atom("TARGETS"), time: time) else { return nil }
        guard let reply = display.property(property, of: window, delete: true), reply.format == 32 else {
            return nil
        }
        return display.names(of: reply.atoms.filter { !$0.isNone })
    }

    /// Converts the selection to `target` and collects the data (INCR included) as UTF-8, or
    /// nil when the owner refused.
    private func convert(_ selectionAtom: Atom, to target: Atom, time: Timestamp) throws(ClipboardError) -> [UInt8]? {
        guard try requestConversion(selectionAtom, to: target, time: time) else { return nil }
        var data: [UInt8] = []
        guard let header = display.readProperty(property, of: window, delete: true, appendingTo: &data) else {
            return nil
        }
        var type = header.type
        if type == display.atom("INCR") {
            // §2.7.2: the deletion above (in the same request) told the owner to start.
            if let sizeHint = header.values.first { data.reserveCapacity(Int(clamping: sizeHint)) }
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
        return decode(data, type: type)
    }

    /// Sends `ConvertSelection` and waits for the owner's `SelectionNotify`.
    /// - Returns: whether the owner put an answer in our property (false: refused).
    private func requestConversion(_ selectionAtom: Atom, to target: Atom, time: Timestamp) throws(ClipboardError)
        -> Bool
    {
        display.convertSelection(selectionAtom, to: target, property: property, requestor: window, time: time)
        display.flush()
        let event = display.waitForEvent(before: .now + timeout) { [window] event in
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
        switch display.name(of: type) {
        case TextTarget.string.rawValue: TextEncoding.utf8(fromLatin1: data)
        case TextTarget.compoundText.rawValue: display.utf8Text(fromEncoded: data, type: type) ?? data
        default: data  // UTF8_STRING, text/plain;charset=utf-8, and owners that mislabel UTF-8.
        }
    }
}
