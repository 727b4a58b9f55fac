import PasteCore
import SecretGuard

/// Mask instead of refuse, for the words that go with the text (issue 42, item 3): a title
/// (`-t`, or the one asked for), a language, and a service's literal `field` values hold a
/// secret as readily as the text does, and `--redact` masks them the same way
/// (`[redacted: github-token]`), reported with the text's, their place named
/// (`MaskedSecret.field`: `title`, `language`, `field NAME`). A value going to a service that
/// does not mask is still refused by `checkValues`.
extension GuardStage {
    /// What `maskValues` masked: the run's own values (the title, the language: every paste
    /// carries them) and each service's fields (only its pastes carry them).
    struct MaskedValues {
        var everyPaste: [MaskedSecret] = []
        var byService: [String: [MaskedSecret]] = [:]

        /// What the pastes to `service` carry.
        func carried(to service: String) -> [MaskedSecret] { everyPaste + byService[service, default: []] }

        var isEmpty: Bool { everyPaste.isEmpty && byService.values.allSatisfy(\.isEmpty) }
    }

    /// Masks the title and the language when a service the run uses masks (`RunPlan.redacts`),
    /// and the literal fields (as `checkValues` reads them) of each such service, in `options`,
    /// `reading`'s routes and `plan`'s (whose profile the build starts from).
    ///
    /// - Throws: `RedactionError.stillFound` when a masked value still holds what the guard
    ///   finds (77).
    static func maskValues(
        _ options: inout PasteOptions, reading: inout ReadStage.Reading, plan: inout RunPlan
    ) throws(RedactionError) -> MaskedValues {
        var result = MaskedValues()
        let services = reading.routesUsed.map(\.service)
        if services.contains(where: plan.redacts(on:)) { result.everyPaste = try maskTitleAndLanguage(&options) }
        for service in services where plan.redacts(on: service) {
            var masked = service
            let secrets = try maskFields(of: &masked)
            guard !secrets.isEmpty else { continue }
            result.byService[service.name] = secrets
            let fields = masked.fields
            if reading.route.service.name == service.name { reading.route.service.fields = fields }
            if reading.imageRoute?.service.name == service.name { reading.imageRoute?.service.fields = fields }
            if plan.route.service.name == service.name { plan.route.service.fields = fields }
        }
        return result
    }

    /// Masks the title, the language and the literal fields of `service` (as `checkValues`
    /// reads them), in `options` and `service`: the values of an outbox entry sent again to a
    /// service its masking masks on (`RetryStage`), as `maskValues` masks a fresh text's.
    ///
    /// - Throws: `RedactionError.stillFound` when a masked value still holds what the guard
    ///   finds (77).
    static func maskValues(
        _ options: inout PasteOptions, service: inout ServiceProfile
    ) throws(RedactionError) -> MaskedValues {
        var result = MaskedValues(everyPaste: try maskTitleAndLanguage(&options))
        let secrets = try maskFields(of: &service)
        if !secrets.isEmpty { result.byService[service.name] = secrets }
        return result
    }

    /// Masks the title and the language in `options`; what was masked, placed as `title` and
    /// `language`.
    private static func maskTitleAndLanguage(_ options: inout PasteOptions) throws(RedactionError) -> [MaskedSecret] {
        var secrets: [MaskedSecret] = []
        if let title = options.title, let masked = try maskValue(title, field: titlePlace) {
            options.title = masked.text
            secrets += masked.secrets
        }
        if let language = options.language, let masked = try maskValue(language, field: languagePlace) {
            options.language = masked.text
            secrets += masked.secrets
        }
        return secrets
    }

    /// Masks the literal fields of `service` (as `checkValues` reads them: those not named like
    /// a credential, with no reference), for the run's own services (`maskValues`) and for a
    /// fallback that masks (`FallbackStage`); what was masked, each placed as `field NAME`.
    ///
    /// - Throws: `RedactionError.stillFound` when a masked value still holds what the guard
    ///   finds (77).
    static func maskFields(of service: inout ServiceProfile) throws(RedactionError) -> [MaskedSecret] {
        var secrets: [MaskedSecret] = []
        for index in service.fields.indices
        where !service.fields[index].value.hasReference && !Redaction.isSensitiveField(service.fields[index].name) {
            let field = service.fields[index]
            guard let masked = try maskValue(field.value.raw, field: fieldPlace(field.name)) else { continue }
            service.fields[index].value = ConfigValue(masked.text, origin: field.value.origin)
            secrets += masked.secrets
        }
        return secrets
    }

    /// How a masked secret in a service's field `name` is placed (`MaskedSecret.field`).
    static func fieldPlace(_ name: String) -> String { "field \(name)" }

    /// How a masked secret in the title is placed (`MaskedSecret.field`).
    static let titlePlace = "title"

    /// How a masked secret in the language is placed (`MaskedSecret.field`).
    static let languagePlace = "language"

    /// `value` masked, with what was masked in it; nil when the guard finds nothing there.
    private static func maskValue(
        _ value: String, field: String
    ) throws(RedactionError) -> (text: String, secrets: [MaskedSecret])? {
        let bytes = Array(value.utf8)
        let findings = SecretGuard().scan(bytes)
        guard !findings.isEmpty else { return nil }
        let masking = SecretMasking(masking: bytes, findings: findings)
        guard masking.remaining.isEmpty else { throw .stillFound(masking.remaining, source: "the \(field)") }
        let secrets = masking.masked.map {
            MaskedSecret(pattern: $0.pattern, line: $0.line, column: $0.column, field: field)
        }
        return (String(decoding: masking.text, as: UTF8.self), secrets)
    }

    /// The line stderr says of masked values (nothing under `-q` or `--json`):
    /// `masked 1 secret in the title: github-token at column 7`.
    static func maskedLine(_ values: MaskedValues) -> String? {
        let all = values.everyPaste + values.byService.keys.sorted().flatMap { values.byService[$0] ?? [] }
        guard !all.isEmpty else { return nil }
        var places: [String] = []
        for secret in all where !places.contains(secret.field ?? "") { places.append(secret.field ?? "") }
        let shown = all.prefix(Self.maskedListed).map { secret in
            (places.count > 1 ? "\(secret.pattern.rawValue) in the \(secret.field ?? "")" : secret.pattern.rawValue)
                + (secret.line > 1 ? " at line \(secret.line), column \(secret.column)" : " at column \(secret.column)")
        }
        let more = all.count > Self.maskedListed ? ", and \(all.count - Self.maskedListed) more" : ""
        return "masked \(all.count == 1 ? "1 secret" : "\(all.count) secrets") in "
            + places.map { "the \($0)" }.joined(separator: ", ") + ": " + shown.joined(separator: ", ") + more
    }
}
