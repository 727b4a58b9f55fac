import SystemInterop

/// One desktop notification, as `org.freedesktop.Notifications.Notify` takes it.
///
/// The Desktop Notifications Specification 1.2: app name, replaced id, icon, summary, body,
/// actions, hints and expiry (section "org.freedesktop.Notifications.Notify"). Knows nothing of
/// what paste did; PasteCLI fills it in.
public struct DesktopNotification: Equatable, Sendable {
    /// Who sends it (`app_name`): `paste`.
    public var applicationName = "paste"
    /// The notification it replaces, or 0 for a new one (`replaces_id`).
    public var replacesID: UInt32 = 0
    /// An icon name from the icon theme, or "" for none (`app_icon`).
    public var icon = ""
    /// The one-line summary (`summary`): "Copied", "Paste failed".
    public var summary: String
    /// The body (`body`), sent as it is. Servers with the `body-markup` capability read it as
    /// markup (spec: "Markup", a subset of XML), so for them the caller escapes it first
    /// (PasteCLI does with PasteCore's `Escaping.xml`: one escaper in the project, and Notify
    /// knows nothing of PasteCore).
    public var body: String
    /// The buttons, when the server has the `actions` capability; their keys come back in
    /// `ActionInvoked`.
    public var actions: [NotificationAction] = []
    /// How urgent it is (the `urgency` hint).
    public var urgency = Urgency.normal
    /// The desktop entry of the sender (the `desktop-entry` hint, without `.desktop`).
    public var desktopEntry: String? = "paste"
    /// A picture shown with it (the `image-data` hint).
    public var image: NotificationImage?
    /// Whether it stays after an action is invoked (the `resident` hint).
    public var isResident = false
    /// When it goes away.
    public var expiry = Expiry.serverDefault

    /// A notification with a summary and a body; everything else as the defaults above.
    public init(summary: String, body: String) {
        self.summary = summary
        self.body = body
    }

    /// The `urgency` hint's levels (spec: "Urgency Levels").
    public enum Urgency: UInt8, Sendable {
        case low = 0
        case normal = 1
        case critical = 2
    }

    /// The `expire_timeout` argument.
    public enum Expiry: Equatable, Sendable {
        /// The server decides (-1).
        case serverDefault
        /// It stays until the person closes it (0).
        case never
        /// It goes after this long (whole milliseconds, at least 1).
        case after(Duration)

        /// The value sent: milliseconds, -1 or 0.
        var milliseconds: Int32 {
            switch self {
            case .serverDefault: return -1
            case .never: return 0
            case .after(let duration):
                return Int32(clamping: max(1, duration.wholeMilliseconds))
            }
        }
    }
}

/// One button of a notification: the key that comes back when it is invoked, and its label.
///
/// The key `default` is the spec's default action (a click on the notification itself).
public struct NotificationAction: Equatable, Sendable {
    /// Sent back in `ActionInvoked`.
    public var key: String
    /// What the button says.
    public var label: String

    /// An action with its key and label.
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// Raw pixels for the `image-data` hint: the spec's `(iiibiiay)` (width, height, row stride,
/// has alpha, bits per sample, channels, data), 8 bits per sample, RGB or RGBA.
///
/// Codable: PasteCLI hands it, inside its notice, to the notifier that outlives the run. Decoding
/// checks what `init` requires, so a bad value never reaches the bus.
public struct NotificationImage: Codable, Equatable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Whether there is a fourth, alpha, channel.
    public var hasAlpha: Bool
    /// The rows, top first, each `rowStride` bytes.
    public var pixels: [UInt8]

    /// Bytes per row: width × channels (no padding).
    public var rowStride: Int { width * (hasAlpha ? 4 : 3) }

    /// An image of `width` × `height` pixels, `pixels` in RGBA (or RGB) order.
    public init(width: Int, height: Int, hasAlpha: Bool, pixels: [UInt8]) {
        precondition(pixels.count == width * height * (hasAlpha ? 4 : 3), "the pixels do not fill the image")
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.pixels = pixels
    }

    private enum CodingKeys: String, CodingKey {
        case width, height, hasAlpha, pixels
    }

    /// Decodes an image, refused when its pixels do not fill it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let width = try container.decode(Int.self, forKey: .width)
        let height = try container.decode(Int.self, forKey: .height)
        let hasAlpha = try container.decode(Bool.self, forKey: .hasAlpha)
        let pixels = try container.decode([UInt8].self, forKey: .pixels)
        guard width >= 0, height >= 0, pixels.count == width * height * (hasAlpha ? 4 : 3) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath, debugDescription: "the pixels do not fill the image"))
        }
        self.init(width: width, height: height, hasAlpha: hasAlpha, pixels: pixels)
    }
}

/// What happened to a notification, from the server's signals.
public enum NotificationEvent: Equatable, Sendable {
    /// `ActionInvoked`: the person chose the action with this key.
    case actionInvoked(String)
    /// `NotificationClosed`, and why.
    case closed(CloseReason)

    /// `NotificationClosed`'s reasons (spec: "org.freedesktop.Notifications.NotificationClosed").
    public enum CloseReason: Equatable, Sendable {
        /// 1: it expired.
        case expired
        /// 2: the person dismissed it.
        case dismissed
        /// 3: `CloseNotification` closed it.
        case closedByCall
        /// 4 or any other number.
        case undefined(UInt32)

        init(code: UInt32) {
            switch code {
            case 1: self = .expired
            case 2: self = .dismissed
            case 3: self = .closedByCall
            default: self = .undefined(code)
            }
        }
    }
}
