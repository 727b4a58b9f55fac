import DBusInterop

/// The desktop's notification server, reached over the session bus: shows notifications and
/// reports what the person did with them.
///
/// The Desktop Notifications Specification 1.2 (`org.freedesktop.Notifications` at
/// `/org/freedesktop/Notifications`): `GetCapabilities`, `Notify`, `CloseNotification`, and
/// the signals `ActionInvoked` and `NotificationClosed`. Owns its bus connection; like it, it
/// belongs to one thread and every call has a deadline.
public final class NotificationServer {
    private let connection: BusConnection
    /// Whether the signals are routed to this connection yet (`watchSignals`).
    private var isWatching = false
    /// For each notification shown on this connection, the unique name of the server's
    /// connection that answered its `Notify` (nil where the bus named none): the only sender
    /// whose signals about it count (`nextEvent`).
    private var answerers: [UInt32: String?] = [:]
    /// For each notification, the action keys already reported (`nextEvent`): each once.
    private var reportedActions: [UInt32: Set<String>] = [:]

    /// The server's bus name, object path and interface.
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    /// Connects to the session bus at `address`.
    ///
    /// Only connects: whether a server is there shows at the first call (`capabilities`).
    /// - Throws: `NotifyError.bus` when the bus cannot be reached before `deadline`.
    public init(busAddress address: String, before deadline: ContinuousClock.Instant) throws(NotifyError) {
        do {
            connection = try BusConnection.open(address: address, before: deadline)
        } catch {
            throw .bus(error)
        }
    }

    /// Connects to the session bus at `address` and asks what the server can do, both before
    /// `deadline`: the first two steps of every notification (the first call is what tells that
    /// a server is there).
    ///
    /// - Throws: `NotifyError`, as `init(busAddress:before:)` and `capabilities(before:)`.
    public static func connect(
        busAddress address: String, before deadline: ContinuousClock.Instant
    ) throws(NotifyError) -> (server: NotificationServer, capabilities: Set<String>) {
        let server = try NotificationServer(busAddress: address, before: deadline)
        return (server, try server.capabilities(before: deadline))
    }

    /// What the server can do (`GetCapabilities`): `actions`, `body`, `body-markup`,
    /// `body-images`, `persistence`, `icon-static`…
    ///
    /// - Throws: `NotifyError.bus` (`.failed` with `ServiceUnknown` when no server owns the
    ///   name and none can be started, `.timedOut` when it does not answer in time).
    public func capabilities(before deadline: ContinuousClock.Instant) throws(NotifyError) -> Set<String> {
        let reply = try call("GetCapabilities", [], before: deadline)
        guard let elements = reply.first?.arrayElements else { throw .unexpectedReply(member: "GetCapabilities") }
        return Set(elements.compactMap(\.stringValue))
    }

    /// Shows a notification (`Notify`).
    ///
    /// Call `watchSignals` first when its actions or its closing matter: a signal sent before
    /// the match rule is in place is not routed here. The server's unique name, the sender of
    /// the reply, is kept: only its signals about this notification count (`nextEvent`).
    /// - Returns: its id, which `ActionInvoked`, `NotificationClosed` and `close` name.
    public func show(_ notification: DesktopNotification, before deadline: ContinuousClock.Instant)
        throws(NotifyError) -> UInt32
    {
        let reply = try reply("Notify", Self.arguments(of: notification), before: deadline)
        guard let id = reply.arguments.first?.uint32Value else { throw .unexpectedReply(member: "Notify") }
        let replaced = notification.replacesID
        if replaced != 0 {
            // What the server said about the notification replaced before it answered (the
            // closing that follows a click, queued while the action ran) was said of what it
            // showed then: it must not end what it shows now. The bus keeps one sender's
            // messages in order, so those signals are exactly the ones queued by now.
            connection.discardQueuedSignals(where: { $0.arguments.first?.uint32Value == replaced })
        }
        answerers[id] = .some(reply.sender)
        // What it shows now is a notification of its own (a click that retried a failure may
        // open the success that replaced it): its keys count afresh. What was signalled about
        // the one replaced before the reply has been dropped above.
        reportedActions[id] = []
        return id
    }

    /// Closes a notification (`CloseNotification`); the server then says `NotificationClosed`
    /// with reason 3.
    public func close(_ id: UInt32, before deadline: ContinuousClock.Instant) throws(NotifyError) {
        _ = try call("CloseNotification", [.uint32(id)], before: deadline)
    }

    /// Routes the server's `ActionInvoked` and `NotificationClosed` signals to this connection
    /// (one `AddMatch` on the bus, limited to the server's name as sender).
    ///
    /// Servers that send these signals to the notification's sender alone (GNOME Shell does)
    /// reach this connection without a rule; the others broadcast them.
    public func watchSignals(before deadline: ContinuousClock.Instant) throws(NotifyError) {
        guard !isWatching else { return }
        do {
            try connection.addMatch(
                "type='signal',sender='\(Self.name)',path='\(Self.path)',interface='\(Self.name)'", before: deadline)
        } catch {
            throw .bus(error)
        }
        isWatching = true
    }

    /// The next thing that happens to notification `id` (shown on this connection): an action
    /// invoked, or its closing.
    ///
    /// Only the server that showed it speaks for the person: a signal counts only when its
    /// sender is the unique name that answered the notification's `Notify`. Any client on the
    /// bus may send a signal to this connection's unique name, and such a unicast signal passes
    /// every match rule; and a server started again later (unique names are never reused on a
    /// bus) never showed this notification. Each action key is reported once: the same key
    /// again is passed over, so a flood of `ActionInvoked` acts once, except for the keys in
    /// `repeatable` (an action that does no harm done again, such as copying the link once
    /// more: still only from the server that showed it). Signals about other notifications are
    /// passed over too. An `ActionInvoked` is usually followed by a `NotificationClosed`
    /// (unless the notification is resident).
    /// - Parameters:
    ///   - repeatable: the keys reported each time the server sends them.
    ///   - deadline: when to stop waiting; nil waits as long as the bus is there.
    /// - Returns: the event, or nil at the deadline.
    public func nextEvent(
        of id: UInt32, repeatable: Set<String> = [], before deadline: ContinuousClock.Instant?
    ) throws(NotifyError) -> NotificationEvent? {
        guard let answerer = answerers[id] else {
            preconditionFailure("notification \(id) was not shown on this connection")
        }
        while true {
            let signal: BusSignal?
            do {
                signal = try connection.nextSignal(before: deadline)
            } catch {
                throw .bus(error)
            }
            guard let signal else { return nil }
            guard signal.sender == answerer, signal.path == Self.path, signal.interface == Self.name,
                signal.arguments.first?.uint32Value == id
            else { continue }
            switch (signal.member, signal.arguments.count > 1 ? signal.arguments[1] : nil) {
            case ("ActionInvoked", .string(let key)?):
                guard reportedActions[id, default: []].insert(key).inserted || repeatable.contains(key) else {
                    continue
                }
                return .actionInvoked(key)
            case ("NotificationClosed", .uint32(let reason)?): return .closed(.init(code: reason))
            default: continue
            }
        }
    }

    // MARK: - Arguments

    private func call(_ member: String, _ arguments: [BusValue], before deadline: ContinuousClock.Instant)
        throws(NotifyError) -> [BusValue]
    {
        try reply(member, arguments, before: deadline).arguments
    }

    /// Calls `member` on the server and returns its reply, with the sender.
    private func reply(_ member: String, _ arguments: [BusValue], before deadline: ContinuousClock.Instant)
        throws(NotifyError) -> BusReply
    {
        do {
            return try connection.reply(
                to: BusMethodCall(
                    destination: Self.name, path: Self.path, interface: Self.name, member: member,
                    arguments: arguments),
                before: deadline)
        } catch {
            throw .bus(error)
        }
    }

    /// `Notify`'s eight arguments, `susssasa{sv}i`, for a notification.
    static func arguments(of notification: DesktopNotification) -> [BusValue] {
        var hints: [(String, BusValue)] = [("urgency", .byte(notification.urgency.rawValue))]
        if let entry = notification.desktopEntry { hints.append(("desktop-entry", .string(entry))) }
        if notification.isResident { hints.append(("resident", .boolean(true))) }
        if let image = notification.image {
            // (iiibiiay): width, height, rowstride, has_alpha, bits_per_sample, channels, data.
            hints.append(
                (
                    "image-data",
                    .structure([
                        .int32(Int32(image.width)), .int32(Int32(image.height)), .int32(Int32(image.rowStride)),
                        .boolean(image.hasAlpha), .int32(8), .int32(image.hasAlpha ? 4 : 3), .bytes(image.pixels),
                    ])
                ))
        }
        return [
            .string(notification.applicationName), .uint32(notification.replacesID), .string(notification.icon),
            .string(notification.summary), .string(notification.body),
            .strings(notification.actions.flatMap { [$0.key, $0.label] }), .stringDictionary(hints),
            .int32(notification.expiry.milliseconds),
        ]
    }
}

@available(*, unavailable, message: "its bus connection belongs to the thread that uses it")
extension NotificationServer: Sendable {}
