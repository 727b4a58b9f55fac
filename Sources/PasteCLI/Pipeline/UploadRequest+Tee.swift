import PasteCore

extension UploadRequest {
    /// Whether the body can be sent again (a stream cannot be read twice).
    var isReplayable: Bool {
        switch body {
        case .multipart(let fields):
            !fields.contains { if case .content(.stream, _, _) = $0.value { true } else { false } }
        case .raw(.stream, _), .embedded(_, .stream, _, _, _): false
        default: true
        }
    }

    /// The request with its streamed content teed into `path` as it is sent.
    func teeing(to path: String) -> UploadRequest {
        var copy = self
        func tee(_ source: ContentSource) -> ContentSource {
            if case .stream(let descriptor, let prefix, _) = source {
                return .stream(fileDescriptor: descriptor, prefix: prefix, teePath: path)
            }
            return source
        }
        switch body {
        case .multipart(let fields):
            copy.body = .multipart(
                fields.map { field in
                    guard case .content(let source, let name, let type) = field.value else { return field }
                    return FormField(name: field.name, value: .content(tee(source), fileName: name, contentType: type))
                })
        case .raw(let source, let type): copy.body = .raw(tee(source), contentType: type)
        case .embedded(let prefix, let source, let escaping, let suffix, let type):
            copy.body = .embedded(
                prefix: prefix, content: tee(source), escaping: escaping, suffix: suffix, contentType: type)
        default: break
        }
        return copy
    }
}
