import PasteCore
import Stores
import Upload

extension Runner {
    /// `--delete URL` (or `--delete NAME`) of a living paste: its service's deletion request
    /// (`delete-url`, with the service's headers), then the living paste and its history
    /// records are forgotten. A paste the service no longer has (404) is forgotten too.
    func deleteLiving(_ living: LivingPaste) throws -> ExitStatus {
        let configuration = try loadConfiguration()
        let profile = try configuration.services.named(living.service)
        let lock = try LivingPastes(context: context).lock(living.name)
        defer { withExtendedLifetime(lock) {} }
        if let id = living.id {
            let response = try LivingStage.sendDeletion(
                profile, id: id, transfer: transfer(configuration.settings), paste: configuration.settings.connection,
                context: context, output: output)
            guard (200...299).contains(response.status) || response.status == 404 else {
                throw ServiceError.httpStatus(
                    service: living.service, status: response.status, excerpt: Sanitizer.excerpt(response.body))
            }
        }
        if let url = living.url { _ = try History(context: context).remove(url: url) }
        try LivingPastes(context: context).remove(living.name)
        output.note("deleted living paste '\(shown: living.name)'\(living.url.map { " (\($0))" } ?? "")")
        return .success
    }
}
