import PasteCore
import Upload

/// Why a paste cannot be deleted.
enum DeleteError: PasteError {
    case notInHistory(url: String)
    case notDeletable(url: String, service: String)
    case historyEmpty

    var message: String {
        switch self {
        case .notInHistory(let url): "'\(url)' is not in the history; only pastes made here can be deleted"
        case .notDeletable(let url, let service): "\(service) gave no deletion token for '\(url)'"
        case .historyEmpty: "the history is empty; there is nothing to delete"
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .notInHistory, .historyEmpty: .noInput
        case .notDeletable: .unavailable
        }
    }
}

extension Runner {
    /// `--delete URL`: uses the deletion token or URL stored in history.
    func delete(url: String) throws -> ExitStatus {
        let history = History(context: context)
        guard let record = try history.find(url: url) else { throw DeleteError.notInHistory(url: url) }
        let configuration = try loadConfiguration()
        var request: UploadRequest
        if let deletionURL = record.deletionURL {
            // pinnwand and similar: visiting the removal link deletes the paste.
            request = UploadRequest(
                url: deletionURL, method: "GET", body: .rendered([], contentType: ""), result: .redirect)
        } else if let token = record.deletionToken {
            // 0x0.st and similar: POST token and delete to the paste's own URL.
            request = UploadRequest(
                url: record.url,
                body: .multipart([
                    FormField(name: "token", value: .text(token)), FormField(name: "delete", value: .text("")),
                ]), result: .body)
        } else {
            throw DeleteError.notDeletable(url: url, service: record.service)
        }
        let profile =
            configuration.services.first { $0.name == record.service } ?? ServiceProfile.adHoc(url: record.url)
        request.connection = try connectionPolicy(for: profile, configuration)
        let response = try Uploader(options: transportOptions(configuration.settings)).send(request)
        guard (200...399).contains(response.status) else {
            throw ServiceError.httpStatus(
                service: record.service, status: response.status, excerpt: Sanitizer.excerpt(response.body))
        }
        _ = try history.remove(url: record.url)
        output.note("deleted \(record.url)")
        return .success
    }

    /// `--delete-last`: deletes the newest paste in history.
    func deleteLast() throws -> ExitStatus {
        guard let last = try History(context: context).records().last else { throw DeleteError.historyEmpty }
        return try delete(url: last.url)
    }
}
