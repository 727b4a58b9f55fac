import PasteCore

extension RunPlan {
    /// Whether the guard's findings are masked rather than refused (issue 42, item 3).
    ///
    /// `--redact` on the command line masks on every service; without it, a service's own
    /// `redact` key decides, else `[paste]`'s. `--force` sends the text as it is: with
    /// `--redact` on the same command line it is a usage error (`Invocation`), and it beats a
    /// `redact = true` from the config.
    struct Masking: Sendable, Equatable {
        /// `--redact`.
        var isRequested: Bool
        /// `redact` of `[paste]`.
        var byDefault: Bool
    }

    /// Whether a text for `service` that the guard flags goes up masked.
    func redacts(on service: ServiceProfile) -> Bool {
        !isForced && (masking.isRequested || (service.redacts ?? masking.byDefault))
    }
}
