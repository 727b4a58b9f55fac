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
}
