extension Alerts {
    /// A toast telling the person what happened, e.g. "Copied" with the URL.
    ///
    /// Nested in `Alerts` so it never clashes with Foundation's `Notification`.
    public struct Notification: Hashable, Sendable {
        /// Whether the job worked: decides the accent colour.
        public enum Style: Hashable, Sendable {
            /// Green accent.
            case success
            /// Red accent.
            case failure
        }

        /// An image shown beside the text: what was uploaded, as its bytes and MIME type.
        ///
        /// A PNG is decoded (libpng) and shrunk into a thumbnail; any other type (JPEG, WebP,
        /// GIF, BMP, ...), data that does not decode, and a PNG of more than 64 megapixels get
        /// a drawn placeholder labelled with the type's short name ("JPEG").
        public struct Image: Hashable, Sendable {
            /// The file's bytes, exactly as uploaded.
            public var bytes: [UInt8]
            /// Its MIME type, e.g. `image/png`.
            public var mimeType: String

            /// Makes an image attachment.
            public init(bytes: [UInt8], mimeType: String) {
                self.bytes = bytes
                self.mimeType = mimeType
            }
        }

        /// A QR code (of the URL) shown in a window of its own when the toast is clicked, or
        /// Enter or Space pressed on it: for moving the link to a phone.
        public struct Code: Hashable, Sendable {
            /// Modules on a side.
            public var size: Int
            /// Whether each module is dark, row by row (`size` × `size` of them).
            public var isDark: [Bool]

            /// Makes a code from its modules, row by row.
            public init(size: Int, isDark: [Bool]) {
                precondition(isDark.count == size * size, "a QR code has size × size modules")
                self.size = size
                self.isDark = isDark
            }
        }

        /// How long a notification stays up unless a value is given.
        public static let defaultTimeout = Duration.seconds(4)

        /// The bold first line ("Copied", "Upload failed").
        public var title: String
        /// The text under it: the URL, or the reason and "the text waits in the outbox".
        public var body: String
        /// Success or failure.
        public var style: Style
        /// How long the toast stays before it closes by itself.
        public var timeout: Duration
        /// The uploaded image, shown as a thumbnail beside the text; nil for text.
        public var image: Image?
        /// The QR code a click shows (`--qr`); nil: a click closes the toast (or, when
        /// `isClickable`, is reported to the caller).
        public var code: Code?
        /// The toast's buttons, left to right: their labels. A press on one is reported to the
        /// caller by its index (`Alerts.notify(_:displayName:app:onAction:)`).
        public var actions: [String] = []
        /// Whether a click on the toast itself is reported to the caller (its default action)
        /// rather than closing it; a toast with a `code` shows the code instead.
        public var isClickable = false

        /// Makes a notification.
        public init(
            title: String, body: String, style: Style, timeout: Duration = defaultTimeout, image: Image? = nil,
            code: Code? = nil
        ) {
            self.title = title
            self.body = body
            self.style = style
            self.timeout = timeout
            self.image = image
            self.code = code
        }
    }

    /// What the person did on a toast with actions.
    public enum ToastChoice: Hashable, Sendable {
        /// Clicked the toast itself (or pressed Enter on it).
        case click
        /// Pressed the button at this index of `Notification.actions`.
        case button(Int)
    }
}
