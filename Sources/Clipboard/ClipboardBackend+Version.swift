import X11Interop

extension ClipboardBackend {
    /// The Xlib release compiled against, for `paste --version`.
    public static var xlibVersion: String { XlibVersion.text }
}
