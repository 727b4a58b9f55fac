import PasteCore
import Requests
import Stores
import Upload

/// Where a fresh text goes when its service is down: the service's `fallback`, then that one's,
/// and so on (issue 25, item 4).
///
/// The chain is resolved once, with the plan (`chain(from:among:)`): no loops, each service at
/// most once. A text falls back when its failure's disposition says so (`Disposition.fallsBack`:
/// its service unreachable, or timed out before the body went out), or its service answered 5xx
/// or 429; then it is built again for the next service with the same title and options where
/// that service has them (a title, language or expiry it lacks is left out; `-p` and `--burn`
/// never are), through the same guard (the content was checked already; the values are checked
/// for the new service: its literal fields masked as the run's own are when the run masks on it,
/// `GuardStage.maskFields`, said on stderr and listed by `--json` and the history as theirs are,
/// else refused; under `--force`, sent as they are, as the run's own service's are), sent once,
/// and recorded as that service's paste (history and `--json` name it). A service that encrypts
/// or keeps pastes private (`ServiceProfile.protectsContent`) never falls back to one that does
/// not, unless `fallback-public` names that service. A text piped in as a stream cannot be read
/// twice: it never falls back (it waits in the outbox). An outbox entry sent by `--retry` or the
/// background flush falls back the same way, from its own service's chain
/// (`resend(_:response:options:send:request:)`, its content read again from the entry), its
/// values masked where the run that wrote it would have masked them (`RetryPlan.masking(of:)`).
struct FallbackStage {
    /// The services after the run's own, in the order they are tried.
    var chain: [ServiceProfile]
    var pasteConnection: ConnectionSettings
    var isInsecure: Bool
    var context: Context
    var output: Output
    /// How the run masks (`RunPlan.fallbackMasking`; for an outbox entry sent again,
    /// `RetryPlan.masking(of:)`): a fallback it masks on has its literal fields masked; nil
    /// masks nothing.
    var masking: RunPlan.Masking?
    /// Whether a fallback's values (its literal fields, the title, the language) are checked
    /// by the guard (`GuardStage.checkValues`): not under `--force`, which sends the run's own
    /// service's values as they are too.
    var checksValues = true

    /// Where a text that fell back went, and why: for stderr and the window.
    struct Detour {
        /// The service that failed first.
        var from: String
        /// The service that made the paste.
        var to: String
        /// Why the first one failed.
        var reason: String
    }

    /// The fallback chain of `service`: its `fallback`, that one's, and so on, each at most once.
    ///
    /// - Throws: `ConfigError.unknownService` for a `fallback` that names no service.
    static func chain(from service: ServiceProfile, among services: [ServiceProfile]) throws(ConfigError)
        -> [ServiceProfile]
    {
        var chain: [ServiceProfile] = []
        var seen: Set<String> = [service.name]
        var next = service.fallback
        while let name = next, !seen.contains(name) {
            let profile = try services.named(name)
            chain.append(profile)
            seen.insert(name)
            next = profile.fallback
        }
        return chain
    }

    /// Why `response` sends the text on to the fallback, or nil when it does not.
    static func reason(
        for response: Result<UploadResponse, UploadError>, service: ServiceProfile
    ) -> String? {
        switch response {
        case .failure(let error):
            return error.disposition.fallsBack ? error.message : nil
        case .success(let answer):
            // 429 and 503 say the server did nothing with it; another 5xx after the whole body
            // went out may have made the paste: the text is held, never sent to a second service.
            let didNothing =
                answer.status == 429 || answer.status == 503
                || RefusedBeforeBody.applies(status: answer.status, isBodyTaken: answer.isBodyTaken)
            guard didNothing else { return nil }
            return "\(shown: service.name) answered HTTP \(answer.status)"
        }
    }

    /// Sends `job`'s text on along the chain when its answer calls for it.
    ///
    /// - Returns: the job for the service that took it and its answer, with the detour; nil
    ///   when the text does not fall back or no service in the chain took it (the first
    ///   failure then stands: the text waits for its own service).
    func resend(
        _ job: PasteJob, response: Result<UploadResponse, UploadError>, input: PasteInput, options: PasteOptions,
        send: SendStage
    ) -> (job: PasteJob, response: Result<UploadResponse, UploadError>, detour: Detour)? {
        resend(job, response: response, options: options, send: send) { build, route, adapted in
            try build.build(input, route: route, options: adapted)
        }
    }

    /// Sends `job`'s text on along the chain, its request for each service made by `request`
    /// (a fresh input's, or an outbox entry's content for `--retry` and the background flush).
    func resend(
        _ job: PasteJob, response: Result<UploadResponse, UploadError>, options: PasteOptions, send: SendStage,
        request makeRequest: (inout BuildStage, RunPlan.Route, PasteOptions) throws -> UploadRequest
    ) -> (job: PasteJob, response: Result<UploadResponse, UploadError>, detour: Detour)? {
        guard !chain.isEmpty, job.request.isReplayable,
            var why = Self.reason(for: response, service: job.service)
        else { return nil }
        let first = job.service
        var tried = [first]
        for candidate in chain {
            if let keeper = tried.first(where: { Self.forbids($0, candidate) }) {
                output.notice(PasteFailure.fallbackRefusedLine(from: keeper.name, to: candidate.name))
                return nil
            }
            guard let adapted = Self.options(options, for: candidate, context: context) else {
                output.notice(PasteFailure.fallbackSkippedLine(to: candidate.name))
                tried.append(candidate)
                continue
            }
            var next = job
            var target = candidate
            do {
                let secrets = masking?.masks(on: candidate) == true ? try GuardStage.maskFields(of: &target) : []
                if let line = GuardStage.maskedLine(GuardStage.MaskedValues(byService: [target.name: secrets])) {
                    output.note(line)
                }
                next.carryMasked(fields: secrets, from: first, options: adapted)
                if checksValues { try GuardStage.checkValues(adapted, services: [target]) }
                let (connection, warning) = try PlanResolver.connection(
                    for: target, paste: pasteConnection, context: context, isInsecure: isInsecure)
                if let warning { output.warning(warning) }
                var build = BuildStage(service: target, context: context)
                next.request = try makeRequest(
                    &build, RunPlan.Route(service: target, connection: connection, warning: warning), adapted)
            } catch {
                output.notice(PasteFailure.fallbackFailedLine(to: candidate.name, error: error))
                return nil
            }
            next.request.contentChecks = job.request.contentChecks
            next.service = target
            next.title = adapted.title
            next.optionsKey = adapted.repeatKey
            let answer = Result { () throws(UploadError) in try send.perform(next) }
            guard let again = Self.reason(for: answer, service: candidate) else {
                return (next, answer, Detour(from: first.name, to: candidate.name, reason: why))
            }
            why = why + "; " + again
            tried.append(candidate)
        }
        return nil
    }

    /// Whether text meant for `source` may not go to `target`: `source` protects what it is
    /// sent, `target` does not, and `source` does not allow the pair (`fallback-public`).
    static func forbids(_ source: ServiceProfile, _ target: ServiceProfile) -> Bool {
        source.protectsContent && !target.protectsContent && !source.publicFallbacks.contains(target.name)
    }

    /// `options` as `service` can honour them: a title, language or expiry it lacks is left
    /// out; nil when it cannot honour the rest (`-p`, `--burn`, a size over its limit).
    static func options(_ options: PasteOptions, for service: ServiceProfile, context: Context) -> PasteOptions? {
        let builder = RequestBuilder(profile: service, context: context)
        // Fewest left out first: everything, then one of the three, then two, then all three.
        let drops: [(title: Bool, language: Bool, expiry: Bool)] = [
            (false, false, false), (true, false, false), (false, true, false), (false, false, true),
            (true, true, false), (true, false, true), (false, true, true), (true, true, true),
        ]
        for drop in drops {
            var candidate = options
            if drop.title { candidate.title = nil }
            if drop.language { candidate.language = nil }
            if drop.expiry {
                candidate.expirySeconds = nil
                candidate.neverExpires = false
            }
            if (try? builder.validate(candidate, size: nil)) != nil { return candidate }
        }
        return nil
    }
}
