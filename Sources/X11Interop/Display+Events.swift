internal import CX11
internal import Glibc
internal import SystemInterop

extension Display {
    /// The next event, waiting at most until `deadline` (nil: no limit).
    ///
    /// Never blocks in `XNextEvent` without data: it `poll`s the connection's socket with the
    /// time left, then lets `XPending` read what arrived. Events set aside by `waitForEvent`
    /// come first. Wraps `XPending`, `XNextEvent` and `poll(2)` (EINTR retried here).
    /// - Parameter returnsOnSignal: return nil as well when a caught signal interrupts the wait
    ///   (`Signal.catchArrivals`), so the caller can look at why (a selection owner told to give
    ///   its selection up by a thread of its own); by default the wait goes on.
    /// - Returns: nil when the deadline passed first (or, with `returnsOnSignal`, a signal came).
    public func nextEvent(before deadline: ContinuousClock.Instant?, returnsOnSignal: Bool = false) -> Event? {
        if !queuedEvents.isEmpty { return queuedEvents.removeFirst() }
        while true {
            if XPending(pointer) > 0 {
                var event = XEvent()
                XNextEvent(pointer, &event)
                return Event(&event)
            }
            let ready: PollEvents?
            do {
                ready = try FileDescriptor.poll(
                    rawDescriptor: connectionFileDescriptor, for: .readable, before: deadline,
                    stopsOnInterrupt: { returnsOnSignal })
            } catch  where error == .interrupted {
                return nil
            } catch {
                // The socket itself failed; XPending will find out and the I/O handler ends us.
                _ = XPending(pointer)
                continue
            }
            // At the deadline, what arrived meanwhile still counts.
            if ready == nil, XPending(pointer) == 0 { return nil }
        }
    }

    /// Waits until `deadline` for an event that `matches`, keeping the others for `nextEvent`.
    /// - Returns: nil when the deadline passed first.
    public func waitForEvent(
        before deadline: ContinuousClock.Instant?, matching matches: (Event) -> Bool
    ) -> Event? {
        var setAside: [Event] = []
        defer { queuedEvents.insert(contentsOf: setAside, at: 0) }
        while true {
            // Read only from the connection: the queue holds events already judged elsewhere.
            let saved = queuedEvents
            queuedEvents = []
            let event = nextEvent(before: deadline)
            queuedEvents = saved
            guard let event else { return nil }
            if matches(event) { return event }
            setAside.append(event)
        }
    }

    /// Obtains the current server time, as ICCCM §2.1 prescribes for taking ownership.
    ///
    /// Appends zero bytes to a property of `window` (which changes nothing but makes the server
    /// send a `PropertyNotify` carrying its time) and waits for that event. `window` must be
    /// ours; `PropertyChangeMask` is added to what we select on it (pass
    /// `selectsPropertyChanges: true` when the window was made with it, to save the round trip
    /// that asks).
    /// - Throws: `XError.timedOut` when the notification does not come by `deadline`.
    public func serverTime(
        using window: Window, before deadline: ContinuousClock.Instant, selectsPropertyChanges: Bool = false
    ) throws(XError) -> Timestamp {
        if !selectsPropertyChanges {
            var attributes = XWindowAttributes()
            XGetWindowAttributes(pointer, window.rawValue, &attributes)
            let mask = EventMask(rawValue: attributes.your_event_mask)
            if !mask.contains(.propertyChange) { selectEvents(mask.union(.propertyChange), on: window) }
        }
        requestServerTime(using: window)
        flush()
        return try awaitServerTime(using: window, before: deadline)
    }

    /// The first half of `serverTime`: queues the zero-length append that makes the server
    /// report its time, without flushing or waiting. Requests sent after it are answered after
    /// it, so a caller can overlap the wait with a request it needs anyway (a reply to that
    /// request means the notification has already arrived). `window` must select
    /// `PropertyChangeMask`.
    public func requestServerTime(using window: Window) {
        changeProperty(Self.timestampProperty, of: window, type: Atom(rawValue: 19), bytes: [], mode: .append)
    }

    /// The second half of `serverTime`: waits for the notification `requestServerTime` asked for.
    /// - Throws: `XError.timedOut` when it does not come by `deadline`.
    public func awaitServerTime(using window: Window, before deadline: ContinuousClock.Instant) throws(XError)
        -> Timestamp
    {
        let (wholeSeconds, attoseconds) = (deadline - .now).components
        let waited = Double(wholeSeconds) + Double(attoseconds) / 1e18
        let property = Self.timestampProperty
        flush()
        let event = waitForEvent(before: deadline) { event in
            if case .propertyNotify(let change) = event, change.window == window, change.property == property {
                return true
            }
            return false
        }
        guard case .propertyNotify(let change) = event else {
            throw .timedOut(waitingFor: "PropertyNotify for a server timestamp", seconds: waited)
        }
        return change.time
    }

    /// The property `serverTime` touches on our own window: a predefined atom (`CUT_BUFFER7`,
    /// 16; cut buffers live on the root window, never on ours), so asking for the time needs
    /// no round trip to intern a name first and can ride on the next request that has a reply.
    /// The value appended is zero `INTEGER`s (predefined atom 19).
    static let timestampProperty = Atom(rawValue: 16)
}
