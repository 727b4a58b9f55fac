extension UploadError {
    /// Whether the service could not be reached at all: its name did not resolve, the
    /// connection was refused or timed out, or the proxy in front of it was down, all before
    /// any request byte went out.
    ///
    /// `paste --retry` tries such a service once per run (its other entries wait for the next
    /// run: one connect timeout per dead service, not one per entry), and a service's
    /// `fallback` takes the text.
    public var isUnreachable: Bool {
        guard !mayHaveReachedServer else { return false }
        switch self {
        case .couldNotResolve, .couldNotConnect, .proxyUnreachable: return true
        case .timedOut(_, .connect, _): return true
        default: return false
        }
    }
}
