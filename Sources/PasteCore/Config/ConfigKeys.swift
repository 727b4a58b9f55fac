extension Settings {
    /// Every key of `[paste]`, in the order paste-config(5) lists them: what an unknown key
    /// is compared with for its "did you mean" (a test holds it to the keys `apply` accepts).
    public static let configKeys = [
        "service", "notify", "notify-style", "picker", "timeout", "connect-timeout", "stall-timeout",
        "response-timeout", "clipboard-timeout", "clipboard", "max-clipboard", "notify-timeout", "max-retry-after",
        "repeat-window", "retries", "retry-max-attempts", "copy", "image-service", "ca-file", "ca-path", "proxy",
        "no-proxy",
    ]
}

extension ServiceProfile {
    /// Every key of `[service "NAME"]`: what an unknown key is compared with for its "did you
    /// mean" (a test holds it to the keys `apply` accepts).
    public static let configKeys = [
        "base", "sxcu", "url", "format", "method", "content-field", "file-name", "content-type", "field", "query",
        "lang-field", "title-field", "private-field", "always-private", "expiry-field", "expiry-unit", "json", "xml",
        "header", "result", "deletion", "error-message", "accepts", "max-size", "response-timeout", "summary",
        "ca-file", "ca-path", "pinned-pubkey", "insecure", "client-cert", "client-key", "proxy", "no-proxy",
        "fallback", "fallback-public",
    ]
}

/// The section names a config may hold.
enum ConfigSections {
    static let names = ["paste", "service"]
}
