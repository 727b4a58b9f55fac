internal import CX11Shims
internal import CX11

/// What `paste --version` says about Xlib.
public enum XlibVersion {
    /// The Xlib specification release and X protocol version compiled against
    /// (`XlibSpecificationRelease`, `X_PROTOCOL`, `X_PROTOCOL_REVISION` from <X11/Xlib.h>).
    ///
    /// libX11 has no run-time version call; the package version is what `dpkg -s libx11-6` says.
    public static var text: String {
        "Xlib specification R\(XlibSpecificationRelease), X protocol \(X_PROTOCOL).\(X_PROTOCOL_REVISION)"
    }
}
