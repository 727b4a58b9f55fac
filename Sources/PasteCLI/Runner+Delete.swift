import PasteCore
import Stores
import Upload

/// Why a paste cannot be deleted.
enum DeleteError: PasteError {
    case notInHistory(url: String)
    case notDeletable(url: String, service: String)
    case historyEmpty
    /// The service answered the deletion with a refusal (PrivateBin's `status` 1).
    case refused(url: String, service: String, message: String)

    var message: String {
        switch self {
        case .notInHistory(let url):
            "'\(shown: url, limit: Sanitizer.shownURLLength)' is not in the history; only pastes made here can be deleted"
        case .notDeletable(let url, let service):
            "\(shown: service) gave no deletion token for '\(shown: url, limit: Sanitizer.shownURLLength)'"
        case .historyEmpty: "the history is empty; there is nothing to delete"
        case .refused(let url, let service, let message):
            "\(shown: service) did not delete '\(shown: url, limit: Sanitizer.shownURLLength)': "
                + "\(shown: message, limit: Sanitizer.excerptLength)"
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .notInHistory, .historyEmpty: .noInput
        case .notDeletable, .refused: .unavailable
        }
    }
}

extension Runner {
    /// `--delete URL`: uses the deletion token or URL stored in history.
    func delete(url: String) throws -> ExitStatus {
        // A living paste (`--update NAME`), by its URL or its name: its service's own deletion.
        let livingPastes = LivingPastes(context: context)
        if let living = try livingPastes.paste(url: url)
            ?? (LivingPastes.isValidName(url) ? livingPastes.paste(named: url) : nil)
        {
            return try deleteLiving(living)
        }
        let history = History(context: context)
        guard let record = try history.find(url: url) else { throw DeleteError.notInHistory(url: url) }
        let configuration = try loadConfiguration()
        if let token = record.deletionToken, isPrivateBin(record, configuration) {
            return try deletePrivateBin(record, token: token, configuration: configuration)
        }
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
            throw DeleteError.notDeletable(url: shownURL(record, configuration), service: record.service)
        }
        let profile =
            configuration.services.first(named: record.service) ?? ServiceProfile.adHoc(url: record.url)
        request.connection = try connectionPolicy(for: profile, configuration)
        let response = try SendStage(transfer: transfer(configuration.settings), output: output, seams: seams)
            .sendOnce(request, masked: isKeyBearing(record, configuration))
        guard (200...399).contains(response.status) else {
            throw ServiceError.httpStatus(
                service: record.service, status: response.status, excerpt: Sanitizer.excerpt(response.body))
        }
        _ = try history.remove(url: record.url)
        output.note("deleted \(shownURL(record, configuration))")
        return .success
    }

    /// Whether a paste's URL may carry its key: a PrivateBin's always, a service's whose profile
    /// says its results do (`key-bearing`; history does not say whether a paste was private, so
    /// `key-bearing = private` counts as yes: the safe direction).
    func isKeyBearing(_ record: HistoryRecord, _ configuration: Configuration) -> Bool {
        if isPrivateBin(record, configuration) { return true }
        return configuration.services.first(named: record.service)?.resultsCarryKey(isPrivate: true) ?? false
    }

    /// A paste's URL as delete's messages on stderr show it: shortened when it may carry its key
    /// (`KeyBearingURL.shortened`), since stderr never shows such a URL whole.
    func shownURL(_ record: HistoryRecord, _ configuration: Configuration) -> String {
        isKeyBearing(record, configuration) ? KeyBearingURL.shortened(record.url) : record.url
    }

    /// Whether a paste in history was made on a PrivateBin: its service (as configured now) says
    /// so, or, for a service no longer configured, its link has PrivateBin's shape.
    func isPrivateBin(_ record: HistoryRecord, _ configuration: Configuration) -> Bool {
        if let profile = configuration.services.first(named: record.service) {
            return profile.format == .privatebin
        }
        return record.url.contains("#") && PrivateBin.deletionRequest(pasteURL: record.url, token: "") != nil
    }

    /// Deletes a PrivateBin paste: the id from its link, the token from history, the service's
    /// own headers (an instance behind Basic auth wants them to delete too), the answer JSON
    /// (`status` 0, or 1 and a message; HTTP 200 either way).
    func deletePrivateBin(_ record: HistoryRecord, token: String, configuration: Configuration) throws -> ExitStatus {
        guard var request = PrivateBin.deletionRequest(pasteURL: record.url, token: token) else {
            throw DeleteError.notDeletable(url: shownURL(record, configuration), service: record.service)
        }
        if let profile = configuration.services.first(named: record.service) {
            var expansion = ValueExpansion(context: context)
            for header in profile.headers { request.headers.append(try expansion.expand(header)) }
            request.connection = try connectionPolicy(for: profile, configuration)
        }
        let response = try SendStage(transfer: transfer(configuration.settings), output: output, seams: seams)
            .sendOnce(request, masked: isKeyBearing(record, configuration))
        guard (200...299).contains(response.status) else {
            throw ServiceError.httpStatus(
                service: record.service, status: response.status, excerpt: Sanitizer.excerpt(response.body))
        }
        switch PrivateBin.answer(parsing: response.body) {
        case .accepted?: break
        case .refused(let message)?:
            throw DeleteError.refused(
                url: shownURL(record, configuration), service: record.service,
                message: Sanitizer.printable(message, limit: Sanitizer.excerptLength))
        case nil:
            throw DeleteError.refused(
                url: shownURL(record, configuration), service: record.service,
                message: "no PrivateBin answer: " + Sanitizer.excerpt(response.body))
        }
        _ = try History(context: context).remove(url: record.url)
        output.note("deleted \(shownURL(record, configuration))")
        return .success
    }

    /// `--delete-last`: deletes the newest paste in history.
    func deleteLast() throws -> ExitStatus {
        guard let last = try History(context: context).records().last else { throw DeleteError.historyEmpty }
        return try delete(url: last.url)
    }
}
