import PasteCore
import SystemInterop

/// Building requests for `format = privatebin` (see `PrivateBin`).
extension RequestBuilder {
    /// Checks the options a PrivateBin paste can carry: no title, an expiry PrivateBin offers
    /// exactly, and the service's size limit. Every paste is unlisted, `-l` picks the
    /// formatter, `--burn` and `-e never` are honoured.
    func validatePrivateBin(_ options: PasteOptions, size: Int64?) throws(RequestError) {
        let name = profile.name
        if options.title != nil { throw .unsupportedOption(service: name, option: "a title (-t)") }
        if PrivateBin.expire(for: options) == nil {
            let offered = PrivateBin.expiries.map(\.name) + [PrivateBin.never]
            let spellings = PrivateBin.expiries.map { Self.durationText($0.seconds) } + [PrivateBin.never]
            throw .expiryNotOffered(
                service: name, requested: Self.durationText(options.expirySeconds ?? 0), offered: offered,
                spellings: spellings)
        }
        if let size, let limit = profile.maximumBytes, size > limit {
            throw .tooLarge(service: name, bytes: size, limit: limit)
        }
    }

    /// Encrypts the content and builds the POST; the key travels only in `linkFragment`. The
    /// preview is the body with the ciphertext left out, for `--dry-run`.
    func buildPrivateBin(
        url: String, headers: [String], content: ContentSource, options: PasteOptions, contentName: String?
    ) throws(PartError) -> (request: UploadRequest, preview: BodyPreview) {
        guard let cryptography else {
            preconditionFailure("RequestBuilder.cryptography must be set for format = privatebin")
        }
        // The paste is a JSON string once decrypted: only UTF-8 text survives byte for byte.
        let bytes = try Self.bytes(of: content, checks: .text(in: .privatebin, naming: contentName))
        let text = String(decoding: bytes, as: UTF8.self)
        let sealed = try PartError.lift { () throws(CryptographyError) in
            try PrivateBin.seal(
                text, formatter: PrivateBin.Formatter(language: options.language),
                burnsAfterReading: options.burnsAfterReading, expire: PrivateBin.expire(for: options)!,
                using: cryptography)
        }
        var request = UploadRequest(
            url: url, method: profile.method, headers: [PrivateBin.requestedWithHeader] + headers,
            body: .rendered(sealed.body, contentType: "application/json"), result: profile.result)
        request.linkFragment = sealed.fragment
        request.contentChecks = .text(in: .privatebin, naming: contentName)
        request.responseTimeout = profile.responseTimeout
        return (request, BodyPreview(text: sealed.preview, contentBytes: bytes.count))
    }

    /// A duration as `-e` takes it, in its largest whole unit: `1w`, `30d`, `2h`, `90s`.
    static func durationText(_ seconds: Int) -> String {
        for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60)] where seconds % size == 0 {
            if seconds >= size { return "\(seconds / size)\(unit)" }
        }
        return "\(seconds)s"
    }
}
