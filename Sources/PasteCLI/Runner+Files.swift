import PasteCore
import SystemInterop

extension Runner {
    /// The size of a file, or nil.
    static func fileSize(_ path: String?) -> Int64? {
        guard let path else { return nil }
        return try? FileSystem.status(ofPath: path).size
    }

    /// The SHA-256 of a file, read in chunks; "" when it cannot be read.
    static func digest(ofFile path: String) -> String {
        var hasher = SHA256()
        do { try FileSystem.forEachChunk(ofFile: path) { hasher.update($0) } } catch { return "" }
        return SHA256.hex(hasher.finalize())
    }

    /// Copies a file into a new outbox entry in chunks (a large `-f` file that failed to send).
    static func store(copyOf path: String, in outbox: Outbox, metadata: OutboxEntry.Metadata, failure: String) throws {
        let writer = try outbox.makeEntry(metadata)
        do {
            try FileSystem.forEachChunk(ofFile: path) { try writer.append(Array($0)) }
        } catch let error as Errno {
            try? writer.discard()
            throw InputError.unreadable(path: path, reason: error.message)
        }
        _ = try writer.commit(failure: failure)
    }
}

/// Waiting between retries (the only sleep in paste: a back-off the server asked for).
enum Pause {
    static func sleep(seconds: Double) {
        CurrentProcess.sleep(for: .seconds(seconds))
    }
}

extension UploadRequest {
    /// Whether the body can be sent again (a stream cannot be read twice).
    var isReplayable: Bool {
        switch body {
        case .multipart(let fields):
            !fields.contains { if case .content(.stream, _, _) = $0.value { true } else { false } }
        case .raw(.stream, _): false
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
        default: break
        }
        return copy
    }
}
