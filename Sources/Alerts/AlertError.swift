public import X11Interop

/// Why an alert window could not be shown.
///
/// X11Interop's own error, passed on as it is: the windows run on X, and nothing is gained by
/// translating one enum into a copy of itself. PasteCLI maps it to its user-facing errors (no
/// display → exit 69, "unavailable").
public typealias AlertError = AlertWindowError
