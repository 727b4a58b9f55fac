import X11Interop

/// Serves one selection as its ICCCM owner (ICCCM §2.1–2.7), with INCR to many requestors.
///
/// The protocol, step by step (as xsel writes it down beside its code):
///
/// Taking ownership (§2.1):
/// 1. Get a server timestamp: a zero-length append to a property of our own window makes the
///    server send a PropertyNotify with its time. `CurrentTime` is forbidden: two clients racing
///    for the selection must be ordered by the server's clock.
/// 2. `XSetSelectionOwner(selection, window, time)`, then `XGetSelectionOwner` to confirm: the
///    request fails silently when someone took it with a later time.
///
/// Answering a `SelectionRequest` (§2.2):
/// 3. Refuse (reply with property None) when the request is for another selection, or for a time
///    before we took ownership (unless `CurrentTime`), or comes after we lost it.
/// 4. Property None in the request means an obsolete requestor: use the target atom as property.
/// 5. Convert: write the data into the requestor's property, then send it a `SelectionNotify`
///    naming that property (None when refused). Targets: TARGETS (our list), TIMESTAMP (the
///    ownership time), MULTIPLE (§2.6.2: a list of (target, property) pairs, each converted; a
///    failed pair gets its target replaced by None), and the text targets.
///
/// INCR (§2.7.2), when the data does not fit one request:
/// 6. Select PropertyChangeMask on the requestor's window *before* anything else, write a
///    property of type INCR holding the size, and send the SelectionNotify.
/// 7. Each time the requestor deletes the property (PropertyNotify, state Deleted), append the
///    next chunk. After the last chunk, write a zero-length property; its deletion ends the
///    transfer. Transfers are keyed by (requestor window, property), so many run at once.
///    A requestor that vanishes or stalls (`transferIdleLimit`) is forgotten.
///
/// Ending:
/// 8. SelectionClear means another client owns the selection now: refuse new requests, finish
///    transfers already running, and return.
/// 9. Clipboard manager hand-off (freedesktop ClipboardManager spec): when a manager owns
///    CLIPBOARD_MANAGER, convert CLIPBOARD_MANAGER to SAVE_TARGETS, with our text targets in the
///    property. The manager then requests our targets like any requestor and answers with a
///    SelectionNotify; a non-None property means it says it saved them. Its word is not enough
///    (wlroots' XWayland window manager says yes to every SAVE_TARGETS and keeps nothing), so:
///    the hand-off counts only once the manager owns the selection (the managers that save
///    take it before they answer, as gnome-settings-daemon's and xfce's do) and answers one
///    conversion to UTF8_STRING with our very text, within `handOffTimeout`. Then we go.
///    Otherwise we keep serving: still the owner when the manager did not take the selection;
///    owner again (with a new server time) when it took it and cannot serve the text. A
///    refusal leaves us owning as before.
final class SelectionServer {
    let display: Display
    let selection: Selection
    /// The text, UTF-8.
    private(set) var text: [UInt8]
    /// The text in ISO Latin-1 for `STRING`, or nil when it has characters beyond U+00FF.
    private(set) var latin1Text: [UInt8]?
    /// Whether the text is offered with the password manager's mark (`PasswordManagerHint`: a
    /// URL that carries its own key), so clipboard managers leave it out of their history; a
    /// manager is then never asked to save it either.
    private(set) var isSecret = false
    /// Whether the text is a bridged copy's X side (`BridgedWrite`): `BridgeWatch.mark` is then
    /// one of the targets, so a bridge's Wayland copy of it is known as ours.
    var isBridged = false
    /// A server timestamp fetched before the text came, used to take ownership (§2.1).
    private var earlyTimestamp: Timestamp?
    /// Our unmapped window, the owner.
    let window: Window
    /// The largest property value we write in one request; larger data goes by INCR.
    let chunkSize: Int
    /// When we took ownership (§2.1), for TIMESTAMP and for refusing older requests.
    private(set) var ownershipTime = Timestamp.current
    private let atoms: Atoms
    private var transfers: [TransferKey: IncrementalTransfer] = [:]
    private var hasLostOwnership = false
    /// Where the hand-off to a clipboard manager stands (step 9).
    private var handOff = HandOff.none

    /// The hand-off to a clipboard manager (step 9), by the manager's window.
    private enum HandOff {
        /// Not begun, or settled: we serve until the selection is taken.
        case none
        /// SAVE_TARGETS sent; waiting for the manager's answer until the deadline.
        case asked(manager: Window, deadline: ContinuousClock.Instant)
        /// The manager said it saved the text, but we still own the selection: a manager
        /// that takes it later is checked then (a SelectionClear).
        case accepted(manager: Window)
        /// The manager owns the selection now; our one conversion to UTF8_STRING is on its way.
        case checking(manager: Window, deadline: ContinuousClock.Instant)

        var deadline: ContinuousClock.Instant? {
            switch self {
            case .asked(_, let deadline), .checking(_, let deadline): deadline
            case .none, .accepted: nil
            }
        }
    }

    /// How long an INCR requestor may stall before we give up on it.
    static let transferIdleLimit = Duration.seconds(30)
    /// Bytes left out of `maxRequestBytes` for the ChangeProperty request's own header (24 bytes),
    /// with room to spare.
    static let requestHeaderAllowance = 256
    /// How long to wait for the server to answer our own timestamp request.
    static let timestampTimeout = Duration.seconds(5)
    /// How long a clipboard manager may take to answer SAVE_TARGETS, and then our check that it
    /// serves the text (step 9): past it, we keep serving.
    static let handOffTimeout = Duration.seconds(2)

    /// The atoms an owner interns besides its selection's (see `Atoms.names`).
    static var atomNames: [String] { Atoms.names }

    /// - Parameters:
    ///   - window: a window of ours that selects `PropertyChangeMask` (a reader's, kept for
    ///     owning); nil makes one.
    ///   - timestamp: a server time already fetched on this connection, used to take ownership.
    init(
        display: Display, selection: Selection, text: [UInt8], chunkSize: Int? = nil, window: Window? = nil,
        timestamp: Timestamp? = nil
    ) {
        self.display = display
        self.selection = selection
        self.text = text
        latin1Text = TextEncoding.latin1(fromUTF8: text)
        self.window = window ?? display.createWindow(events: .propertyChange)
        earlyTimestamp = timestamp
        atoms = Atoms(display: display, selection: selection)
        self.chunkSize = chunkSize ?? (display.maxRequestBytes - Self.requestHeaderAllowance)
    }

    // MARK: - Steps 1–2: taking ownership

    /// Sets the text to serve (before ownership is taken).
    func setText(_ newText: [UInt8], isSecret: Bool = false) {
        text = newText
        latin1Text = TextEncoding.latin1(fromUTF8: newText)
        self.isSecret = isSecret
    }

    /// Gets the server timestamp ahead of the text (ICCCM §2.1 asks for a real server time, not
    /// CurrentTime; one taken a moment before is as good: should another client take the
    /// selection in between, the server rightly ignores our older claim and we report it).
    func fetchTimestamp() {
        earlyTimestamp = try? display.serverTime(
            using: window, before: .now + Self.timestampTimeout, selectsPropertyChanges: true)
    }

    /// Takes the selection with a server timestamp and confirms it.
    func takeOwnership() -> SelectionOwnerProcess.Status {
        if let earlyTimestamp {
            ownershipTime = earlyTimestamp
        } else {
            do {
                ownershipTime = try display.serverTime(
                    using: window, before: .now + Self.timestampTimeout, selectsPropertyChanges: true)
            } catch {
                return .noTimestamp
            }
        }
        display.setSelectionOwner(atoms.selection, to: window, at: ownershipTime)
        return display.selectionOwner(atoms.selection) == window ? .owning : .notOwner
    }

    /// Leaves the selection with no owner (`XSetSelectionOwner(selection, None, time)` with a
    /// server timestamp: any client may, ICCCM §2.1), so it holds nothing; its owner is told
    /// by `SelectionClear` (paste's own owner then exits).
    /// - Returns: whether nobody owns it now.
    func clearOwnership() -> Bool {
        guard
            let time = earlyTimestamp
                ?? (try? display.serverTime(
                    using: window, before: .now + Self.timestampTimeout, selectsPropertyChanges: true))
        else { return false }
        display.setSelectionOwner(atoms.selection, to: nil, at: time)
        return display.selectionOwner(atoms.selection) == nil
    }

    // MARK: - Step 9: clipboard manager

    /// Asks a running clipboard manager to save our targets (CLIPBOARD only).
    func askClipboardManagerToSave() {
        guard selection == .clipboard, !isSecret, let manager = display.selectionOwner(atoms.clipboardManager) else {
            return
        }
        display.changeProperty(atoms.saveTargetsProperty, of: window, type: atoms.atom, atoms: textTargets)
        display.convertSelection(
            atoms.clipboardManager, to: atoms.saveTargets, property: atoms.saveTargetsProperty, requestor: window,
            time: ownershipTime)
        display.flush()
        handOff = .asked(manager: manager, deadline: .now + Self.handOffTimeout)
    }

    /// After the manager said yes, or took the selection after saying it: checks that it owns
    /// the selection, and asks it once for our text (one round trip, answered in `handle`).
    private func checkHandOff(to manager: Window) {
        let owner = display.selectionOwner(atoms.selection)
        if owner == window {
            // It did not take the selection (wlroots' never does): we stay the owner.
            handOff = .accepted(manager: manager)
            return
        }
        // Another client took the selection: the usual end (step 8).
        guard owner == manager else {
            handOff = .none
            return
        }
        // CurrentTime, which ICCCM §2.4 leaves to requestors that mean "whoever owns it now":
        // the manager took the selection after our timestamp.
        display.convertSelection(
            atoms.selection, to: atoms.utf8String, property: atoms.handOffProperty, requestor: window, time: .current)
        display.flush()
        handOff = .checking(manager: manager, deadline: .now + Self.handOffTimeout)
    }

    /// The manager's answer to our check: our text means it serves the text, and we may go.
    private func finishHandOff(to manager: Window, answered: Bool) {
        var served: [UInt8] = []
        let header =
            answered ? display.readProperty(atoms.handOffProperty, of: window, delete: true, appendingTo: &served) : nil
        if let header, header.type == atoms.utf8String, served == text {
            handOff = .none
            return
        }
        // Other text, and not a part of ours: no save of ours, but a later copy it carries
        // (sway's xwm is the CLIPBOARD_MANAGER and the bridge: it takes the selection for a
        // Wayland copy made after ours). The selection is rightly its; taking it back would
        // end that copy for every reader.
        if let header, header.type == atoms.utf8String, !served.isEmpty, !text.starts(with: served) {
            handOff = .none
            return
        }
        reclaim(from: manager)
    }

    /// Takes the selection back from a manager that took it and cannot serve the text (or
    /// never answered), with a new server time (ICCCM §2.1); another client's later claim wins.
    private func reclaim(from manager: Window) {
        handOff = .none
        guard display.selectionOwner(atoms.selection) == manager,
            let time = try? display.serverTime(
                using: window, before: .now + Self.timestampTimeout, selectsPropertyChanges: true)
        else { return }
        ownershipTime = time
        display.setSelectionOwner(atoms.selection, to: window, at: time)
        if display.selectionOwner(atoms.selection) == window { hasLostOwnership = false }
    }

    /// A hand-off step whose deadline passed: no answer to SAVE_TARGETS (we serve on), or none
    /// to our check (the selection is taken back).
    private func expireHandOff() {
        guard let deadline = handOff.deadline, deadline <= .now else { return }
        switch handOff {
        case .asked(let manager, _) where hasLostOwnership: checkHandOff(to: manager)
        case .checking(let manager, _): reclaim(from: manager)
        default: handOff = .none
        }
    }

    // MARK: - The event loop

    /// Serves requests until the selection is taken (a hand-off to a clipboard manager that
    /// serves the text included), running transfers end, and no hand-off step is under way.
    ///
    /// - Parameter givesUp: asked whenever a caught signal wakes the wait (`BridgeWatch` sends
    ///   one): true gives the selection up (with our ownership time, so a later owner's claim
    ///   stays), then running transfers finish as after any loss.
    func serve(givesUp: (() -> Bool)? = nil) {
        while !(hasLostOwnership && transfers.isEmpty && handOff.deadline == nil) {
            if let givesUp, !hasLostOwnership, givesUp() { giveUp() }
            let deadline = (transfers.values.map(\.deadline) + [handOff.deadline].compactMap { $0 }).min()
            guard let event = display.nextEvent(before: deadline, returnsOnSignal: givesUp != nil) else {
                dropStalledTransfers()
                expireHandOff()
                continue
            }
            handle(event)
            // A deadline passes even while requests keep coming.
            expireHandOff()
            display.flush()
        }
    }

    /// Leaves the selection to nobody as of our ownership time: the server ignores it when
    /// another client took the selection since (ICCCM §2.1's times). Wraps nothing of Xlib's
    /// beyond `setSelectionOwner`.
    private func giveUp() {
        display.setSelectionOwner(atoms.selection, to: nil, at: ownershipTime)
        display.flush()
        hasLostOwnership = true
    }

    func handle(_ event: Event) {
        switch event {
        case .selectionRequest(let request):
            answer(request)
        case .selectionClear(let owner, let cleared, _) where owner == window && cleared == atoms.selection:
            hasLostOwnership = true  // Step 8.
            // Step 9: a manager that said yes and takes the selection only now is checked now.
            if case .accepted(let manager) = handOff { checkHandOff(to: manager) }
        case .propertyNotify(let change) where change.state == .deleted:
            continueTransfer(TransferKey(requestor: change.window, property: change.property))
        case .destroyNotify(let gone):
            transfers = transfers.filter { $0.key.requestor != gone }
        case .selectionNotify(let notify)
        where notify.requestor == window && notify.selection == atoms.clipboardManager
            && notify.target == atoms.saveTargets:
            // Step 9: it says it saved the text; see whether it serves it.
            guard case .asked(let manager, _) = handOff else { break }
            if notify.property != nil { checkHandOff(to: manager) } else { handOff = .none }
        case .selectionNotify(let notify)
        where notify.requestor == window && notify.selection == atoms.selection && notify.target == atoms.utf8String:
            guard case .checking(let manager, _) = handOff else { break }
            finishHandOff(to: manager, answered: notify.property == atoms.handOffProperty)
        default:
            break
        }
    }

    // MARK: - Steps 3–5: answering requests

    private func answer(_ request: SelectionRequest) {
        // Step 4.
        let property = request.property.isNone ? request.target : request.property
        // Step 3.
        let isTimely = request.time == .current || !(request.time < ownershipTime)
        guard request.selection == atoms.selection, request.owner == window, !hasLostOwnership, isTimely else {
            refuse(request)
            return
        }
        let converted: Bool
        if request.target == atoms.multiple {
            converted = !request.property.isNone && convertMultiple(for: request.requestor, property: property)
        } else {
            converted = convert(request.target, for: request.requestor, into: property)
        }
        // Step 5 (for INCR, step 6: the property now holds the INCR size).
        display.sendSelectionNotify(
            to: request.requestor, selection: request.selection, target: request.target,
            property: converted ? property : nil, time: request.time)
    }

    private func refuse(_ request: SelectionRequest) {
        display.sendSelectionNotify(
            to: request.requestor, selection: request.selection, target: request.target, property: nil,
            time: request.time)
    }

    /// The text targets we can convert to, best first, as atoms.
    var textTargets: [Atom] {
        var targets = [atoms.utf8String, atoms.textPlainUTF8, atoms.textPlain, atoms.text]
        if latin1Text != nil { targets.append(atoms.string) }
        return targets
    }

    /// Writes `target`'s conversion into `property` of `requestor`.
    /// - Returns: false when we cannot convert to `target`.
    private func convert(_ target: Atom, for requestor: Window, into property: Atom) -> Bool {
        switch target {
        case atoms.targets:
            let list =
                [atoms.targets, atoms.timestamp, atoms.multiple] + textTargets + (isSecret ? [atoms.hint] : [])
                + (isBridged ? [atoms.bridgeMark] : [])
            display.changeProperty(property, of: requestor, type: atoms.atom, atoms: list)
        case atoms.hint where isSecret:
            send(PasswordManagerHint.secret, type: atoms.hint, to: requestor, property: property)
        case atoms.timestamp:
            display.changeProperty(property, of: requestor, type: atoms.integer, values: [ownershipTime.rawValue])
        case atoms.utf8String, atoms.textPlainUTF8, atoms.textPlain:
            send(text, type: target, to: requestor, property: property)
        case atoms.bridgeMark where isBridged:
            // The mark's value is the text too: a bridge or client that asks for it gets that.
            send(text, type: atoms.utf8String, to: requestor, property: property)
        case atoms.text:
            // TEXT lets the owner choose the encoding (§2.6.2); we choose UTF8_STRING.
            send(text, type: atoms.utf8String, to: requestor, property: property)
        case atoms.string:
            guard let latin1Text else { return false }
            send(latin1Text, type: atoms.string, to: requestor, property: property)
        default:
            return false
        }
        return true
    }

    /// MULTIPLE (§2.6.2): converts each (target, property) pair listed in the requestor's
    /// property, and writes the list back with failed targets replaced by None.
    private func convertMultiple(for requestor: Window, property: Atom) -> Bool {
        guard let pairs = display.property(property, of: requestor, delete: false), pairs.format == 32 else {
            return false
        }
        var values = pairs.values
        var hasFailures = false
        for index in stride(from: 0, to: values.count - 1, by: 2) {
            let target = Atom(rawValue: values[index])
            let pairProperty = Atom(rawValue: values[index + 1])
            if target == atoms.multiple || pairProperty.isNone || !convert(target, for: requestor, into: pairProperty) {
                values[index] = Atom.none.rawValue
                hasFailures = true
            }
        }
        if hasFailures { display.changeProperty(property, of: requestor, type: pairs.type, values: values) }
        return true
    }

    /// Writes `data` at once when it fits one request, else starts an INCR transfer (step 6).
    private func send(_ data: [UInt8], type: Atom, to requestor: Window, property: Atom) {
        guard data.count > chunkSize else {
            display.changeProperty(property, of: requestor, type: type, bytes: data[...])
            return
        }
        let key = TransferKey(requestor: requestor, property: property)
        transfers[key] = IncrementalTransfer(data: data, type: type, deadline: .now + Self.transferIdleLimit)
        display.selectEvents([.propertyChange, .structureNotify], on: requestor)
        display.changeProperty(property, of: requestor, type: atoms.incr, values: [UInt(data.count)])
    }

    // MARK: - Step 7: INCR chunks

    /// Sends the next chunk after the requestor deleted the property, or ends the transfer.
    private func continueTransfer(_ key: TransferKey) {
        guard var transfer = transfers[key] else { return }
        if transfer.isComplete {
            // The requestor deleted the zero-length property: done.
            transfers[key] = nil
            if !transfers.keys.contains(where: { $0.requestor == key.requestor }) {
                display.selectEvents([], on: key.requestor)
            }
            return
        }
        let end = min(transfer.offset + chunkSize, transfer.data.count)
        display.changeProperty(
            key.property, of: key.requestor, type: transfer.type, bytes: transfer.data[transfer.offset..<end],
            mode: .append)
        transfer.isComplete = transfer.offset == end  // A zero-length chunk was just written.
        transfer.offset = end
        transfer.deadline = .now + Self.transferIdleLimit
        transfers[key] = transfer
    }

    private func dropStalledTransfers() {
        let now = ContinuousClock.now
        transfers = transfers.filter { $0.value.deadline > now }
    }
}

/// Identifies an INCR transfer: requestors are told apart by window and property.
struct TransferKey: Hashable {
    let requestor: Window
    let property: Atom
}

/// One INCR transfer in progress (§2.7.2).
struct IncrementalTransfer {
    /// The whole value; chunks are slices of it (no copies).
    let data: [UInt8]
    /// The type of each chunk.
    let type: Atom
    /// How far the requestor has been sent.
    var offset = 0
    /// Whether the terminating zero-length chunk was written.
    var isComplete = false
    /// When we give up on a silent requestor.
    var deadline: ContinuousClock.Instant

    init(data: [UInt8], type: Atom, deadline: ContinuousClock.Instant) {
        self.data = data
        self.type = type
        self.deadline = deadline
    }
}

/// The atoms the owner uses, interned in one round trip.
private struct Atoms {
    let selection, targets, timestamp, multiple, integer, atom, incr: Atom
    let utf8String, textPlainUTF8, textPlain, text, string: Atom
    let clipboardManager, saveTargets, saveTargetsProperty, handOffProperty: Atom
    let hint, bridgeMark: Atom

    /// The names after the selection's, in order. `SelectionReader` interns them in its own batch
    /// (the display caches atoms), so that a reader's connection that goes on to own the
    /// selection makes no second round trip for them (issue 44: one atom batch).
    static let names = [
        "TARGETS", "TIMESTAMP", "MULTIPLE", "INTEGER", "ATOM", "INCR",
        "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "TEXT", "STRING",
        "CLIPBOARD_MANAGER", "SAVE_TARGETS", "PASTE_SAVE_TARGETS", "PASTE_HAND_OFF", PasswordManagerHint.name,
        BridgeWatch.mark,
    ]

    init(display: Display, selection: Selection) {
        let a = display.atoms([selection.atomName] + Self.names)
        (self.selection, targets, timestamp, multiple, integer, atom, incr) = (a[0], a[1], a[2], a[3], a[4], a[5], a[6])
        (utf8String, textPlainUTF8, textPlain, text, string) = (a[7], a[8], a[9], a[10], a[11])
        (clipboardManager, saveTargets, saveTargetsProperty, handOffProperty) = (a[12], a[13], a[14], a[15])
        (hint, bridgeMark) = (a[16], a[17])
    }
}
