import PasteCore

/// Reading PrivateBin's answer (see `PrivateBin`).
extension ResultExtractor {
    /// The link to a new PrivateBin paste: the answer's `url` (relative to the endpoint, as
    /// PrivateBin sends it) resolved against the request URL, then the request's key fragment.
    /// A `url` off the service's own origin (scheme, host and port of the request URL) is not
    /// used: the link is then the web client's own, `endpoint?id`, so the key never goes to a
    /// host the server named.
    /// A `status` 1 answer is a refusal with the server's message; the deletion token is
    /// `deletetoken`.
    static func extractPrivateBin(
        from response: UploadResponse, request: UploadRequest, profile: ServiceProfile
    ) throws(ServiceError) -> Outcome {
        let service = profile.name
        switch PrivateBin.answer(parsing: response.body) {
        case nil:
            throw .noURL(service: service, status: response.status, excerpt: readableExcerpt(response))
        case .refused(let message)?:
            throw .refused(service: service, message: Sanitizer.printable(message, limit: Sanitizer.excerptLength))
        case .accepted(let id, let url, let token)?:
            // Without a `url` (no server omits it), the web client's own link: endpoint?id.
            let endpoint = String(response.effectiveURL.prefix { $0 != "?" && $0 != "#" })
            // The key goes only to the service's own origin: an answer's `url` on another
            // host (absolute or scheme-relative) would hand it the key, so it is not used.
            let answered = url.map { URLReference.resolve($0, against: response.effectiveURL) }.flatMap {
                URLReference.isSameOrigin($0, request.url) ? $0 : nil
            }
            let link = answered ?? endpoint + "?" + id
            switch Sanitizer.validateURL(link + (request.linkFragment ?? "")) {
            case .success(let valid):
                let deletion = token.map { Sanitizer.printable($0, limit: 512) }.flatMap { $0.isEmpty ? nil : $0 }
                return Outcome(url: valid, deletion: deletion)
            case .failure(let problem):
                throw .unsafeURL(service: service, problem: problem)
            }
        }
    }
}
