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

        /// Makes a notification.
        public init(title: String, body: String, style: Style, timeout: Duration = defaultTimeout) {
            self.title = title
            self.body = body
            self.style = style
            self.timeout = timeout
        }
    }
}
