internal import CX11

extension Display {
    /// The window owning `selection`, or nil when it has no owner. Wraps `XGetSelectionOwner`.
    public func selectionOwner(_ selection: Atom) -> Window? {
        let owner = XGetSelectionOwner(pointer, selection.rawValue)
        return owner == 0 ? nil : Window(rawValue: owner)
    }

    /// Makes `window` (or nobody, for nil) the owner of `selection` as of `time`.
    ///
    /// Wraps `XSetSelectionOwner`. `time` must be a real server timestamp (see `serverTime`):
    /// ICCCM §2.1 forbids `CurrentTime` here. The call can silently fail (a later owner's time);
    /// check with `selectionOwner` afterwards, as ICCCM §2.1 requires.
    public func setSelectionOwner(_ selection: Atom, to window: Window?, at time: Timestamp) {
        XSetSelectionOwner(pointer, selection.rawValue, window?.rawValue ?? 0, time.rawValue)
    }

    /// Asks the owner of `selection` to convert it to `target` and put the result in `property`
    /// of `requestor`; the answer is a `SelectionNotify` event. Wraps `XConvertSelection`.
    public func convertSelection(
        _ selection: Atom, to target: Atom, property: Atom, requestor: Window, time: Timestamp
    ) {
        XConvertSelection(
            pointer, selection.rawValue, target.rawValue, property.rawValue, requestor.rawValue, time.rawValue)
    }

    /// Answers a `SelectionRequest`: tells `requestor` the conversion is in `property`, or that
    /// it was refused (`property` nil is sent as `None`). ICCCM §2.2.
    ///
    /// Wraps `XSendEvent` of a `SelectionNotify` with an empty event mask (delivered to the
    /// window's creator) and no propagation.
    public func sendSelectionNotify(
        to requestor: Window, selection: Atom, target: Atom, property: Atom?, time: Timestamp
    ) {
        var event = XEvent()
        event.xselection = XSelectionEvent(
            type: CX11.SelectionNotify, serial: 0, send_event: 1, display: pointer,
            requestor: requestor.rawValue, selection: selection.rawValue, target: target.rawValue,
            property: property?.rawValue ?? 0, time: time.rawValue)
        XSendEvent(pointer, requestor.rawValue, 0, 0, &event)
    }
}
