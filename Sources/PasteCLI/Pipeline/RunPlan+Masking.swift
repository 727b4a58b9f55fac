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

        /// Whether what goes to `service` is masked, unless the run is forced: `--redact`,
        /// else the service's `redact`, else `[paste]`'s.
        func masks(on service: ServiceProfile) -> Bool {
            isRequested || (service.redacts ?? byDefault)
        }
    }

    /// Whether a text for `service` that the guard flags goes up masked.
    func redacts(on service: ServiceProfile) -> Bool {
        !isForced && masking.masks(on: service)
    }

    /// How the run masks, for the fallback services (`FallbackStage.masking`); nil when it
    /// sends everything as it is (`--force`).
    var fallbackMasking: Masking? { isForced ? nil : masking }
}
