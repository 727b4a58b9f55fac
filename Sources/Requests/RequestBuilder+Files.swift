import PasteCore

extension RequestBuilder {
    /// Builds the request for a file or an image: the content goes byte-exact, with its own
    /// name and type, as the multipart file part (`content-field`) or as a raw body.
    ///
    /// Everything else is as `build(content:options:)` makes it (fields, options, size
    /// limit, headers, result); only the content's file name and Content-Type change. Text
    /// pastes keep using `build(content:options:)`.
    ///
    /// - Parameters:
    ///   - content: where the bytes come from (in memory, a file, a stream).
    ///   - fileName: the part's `filename=`: the `-f` file's own name, or
    ///     `MediaType.clipboardFileName(at:)` for a clipboard image.
    ///   - type: the content's type (`MediaType.detect`), sent as the part's (or the raw
    ///     body's) Content-Type.
    ///   - options: title, language, private, expiry.
    /// - Throws: `ContentRefusal.cannotCarryFiles` when the service's format has no place for
    ///   a file (form, json, tcp, privatebin), and what `build(content:options:)` throws (each
    ///   as a `PartError`).
    public mutating func build(
        file content: ContentSource, named fileName: String, type: MediaType, options: PasteOptions
    ) throws(PartError) -> UploadRequest {
        guard profile.format.canCarryFiles else {
            throw PartError(ContentRefusal.cannotCarryFiles(service: profile.name, format: profile.format.rawValue))
        }
        // The real name fills `{filename}` too (a ShareX `Arguments` value, a URL, a header).
        var request = try build(content: content, options: options, fileName: fileName)
        // A file goes as it is: a NUL or bytes that are not UTF-8 are no reason to refuse it.
        request.contentChecks = .none
        switch request.body {
        case .multipart(let fields):
            request.body = .multipart(
                fields.map { field in
                    guard case .content(let source, _, _) = field.value else { return field }
                    return FormField(
                        name: field.name, value: .content(source, fileName: fileName, contentType: type.name))
                })
        case .raw(let source, _):
            request.body = .raw(source, contentType: type.name)
        case .form, .rendered, .embedded:
            preconditionFailure("formats that cannot carry a file are refused above")
        }
        return request
    }
}
