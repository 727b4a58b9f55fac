import PasteCore

extension RunPlan.Transfer {
    /// The longest a hotkey's upload waits for a connection before it gives up and says the
    /// text waits: a person pressed a key and looks for an answer, and a connection on a working
    /// network takes milliseconds (a refused one fails at once; a dead host would otherwise be
    /// `connect-timeout`, ten seconds, of nothing on screen). With start-up and the window
    /// itself, the failure is on screen within 1.5 s of the press.
    static let hotkeyConnectTimeout = Duration.milliseconds(1200)

    /// How a run at a hotkey (windows, no terminal) sends: giving up on each connection after
    /// `hotkeyConnectTimeout`, so that whatever happens the person sees something at once
    /// (issue 25, item 5). A failure that is retried shows "Retrying…" before its backoff
    /// (`RetryFeedback`), and the final word then takes the same window or notification; never
    /// retries and backoffs run silently first.
    ///
    /// A text that could not go waits in the outbox, retryable, and the window says so; `paste
    /// --retry` (a timer, or the person) sends it. Behind a proxy (a SOCKS proxy such as Tor
    /// makes the remote connection inside curl's connect phase) the connect timeout is kept.
    ///
    /// - Parameter hasProxy: whether the run's service goes through a proxy.
    func forHotkey(hasProxy: Bool) -> RunPlan.Transfer {
        var transfer = self
        if !hasProxy {
            transfer.transport.timeouts.connect = min(transport.timeouts.connect, Self.hotkeyConnectTimeout)
        }
        return transfer
    }
}

extension ConnectionPolicy {
    /// Whether any of its proxies is set.
    var hasProxy: Bool { httpProxy != nil || httpsProxy != nil || tcpProxy != nil }
}
