import PasteCore

extension UploadError: OutboxClassifiable {
    /// Held when any request byte may have reached the server (`mayHaveReachedServer`): a
    /// timeout or drop after the body went out, a send or receive failure, a bad answer, a
    /// refused or endless redirect. Retryable when nothing did: DNS, a refused connection, a
    /// connect timeout, TLS, the proxy, an unsupported URL (see `OutboxFailure`'s table). Held
    /// too when the content was refused as it streamed: sending it again cannot work.
    ///
    /// An unsupported URL (an entry whose URL was edited to `file:///…`) is held as well: it
    /// can never be sent as it is, so `--retry` must not keep trying it.
    public var outboxVerdict: OutboxFailure.Verdict {
        if case .contentRefused = self { return .held }
        if case .unsupportedURL = self { return .held }
        return mayHaveReachedServer ? .held : .retryable
    }
}
