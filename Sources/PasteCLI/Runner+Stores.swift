import Clipboard
import PasteCore
import SystemInterop
import Upload

extension Runner {
    /// `--version`: ours and the libraries in use.
    func versionText() -> String {
        "paste \(pasteVersion)\n\(Uploader.libraryVersion)\n\(ClipboardBackend.xlibVersion)\n"
    }

    /// `--list-services`: name, endpoint, summary; the default marked.
    func listServices() throws {
        let configuration = try loadConfiguration()
        let chosen = (try? PlanResolver.service(invocation, configuration, context: context))?.name
        if invocation.isJSON {
            for profile in configuration.services {
                output.result(
                    "{\"name\":\(JSONText.quote(profile.name)),\"url\":\(JSONText.quote(profile.url.raw)),"
                        + "\"format\":\"\(profile.format.rawValue)\",\"builtin\":\(profile.isBuiltIn),"
                        + "\"default\":\(profile.name == chosen),\"summary\":\(JSONText.quote(profile.summary))}")
            }
            return
        }
        let width = (configuration.services.map(\.name.count).max() ?? 0) + 2
        for profile in configuration.services {
            let mark = profile.name == chosen ? "*" : " "
            output.result("\(mark) \(profile.name.padding(to: width))\(profile.url.raw)  \(profile.summary)")
        }
    }

    /// `--history`: one line per paste, oldest first (or JSON Lines).
    func printHistory() throws {
        let records = try History(context: context).records()
        for record in records {
            if invocation.isJSON {
                output.result(JSONOutput.object(for: record))
            } else {
                let title = record.title.map { "  \(Sanitizer.printable($0, limit: 60))" } ?? ""
                output.result(
                    "\(JSONText.timestamp(record.time))  \(record.service)  \(record.url)  \(record.byteCount) B\(title)"
                )
            }
        }
    }

    /// `--retry`: sends what waits in the outbox, oldest first; each sent entry is removed.
    func retryOutbox() throws -> ExitStatus {
        let configuration = try loadConfiguration()
        let outbox = Outbox(context: context)
        let history = History(context: context)
        var status = ExitStatus.success
        let entries = try outbox.entries()
        guard !entries.isEmpty else { return .success }
        let send = SendStage(transfer: transfer(configuration.settings), output: output)
        for entry in entries {
            // Another `paste --retry` (cron and a person at once) may hold it: skip, never send twice.
            guard let claim = try outbox.claim(entry) else { continue }
            defer { withExtendedLifetime(claim) {} }
            let metadata = entry.metadata
            do {
                let profile =
                    try metadata.serviceURL.map { ServiceProfile.adHoc(url: $0) }
                    ?? configuration.service(named: metadata.service)
                var options = PasteOptions(
                    title: metadata.title, language: metadata.language, isPrivate: metadata.isPrivate,
                    expirySeconds: metadata.expiry.flatMap { Int($0) })
                options.neverExpires = metadata.expiry == PrivateBin.never
                options.burnsAfterReading = metadata.burnsAfterReading ?? false
                var build = BuildStage(service: profile, context: context)
                var request = try build.build(
                    outboxContent: entry.contentPath, size: RecordStage.fileSize(entry.contentPath) ?? 0,
                    options: options)
                request.connection = try connectionPolicy(for: profile, configuration)
                let response = try send.perform(request)
                let outcome = try ResultExtractor.extract(from: response, request: request, profile: profile)
                if let page = response.unreadPage {
                    output.note("warning: the paste was made, but its page \(Sanitizer.printable(page, limit: 200))")
                }
                let isURLDeletion = outcome.deletion?.hasPrefix("http") == true
                try? history.append(
                    HistoryRecord(
                        time: context.now(), service: profile.name, url: outcome.url,
                        byteCount: RecordStage.fileSize(entry.contentPath) ?? 0,
                        sha256: RecordStage.digest(ofFile: entry.contentPath), title: metadata.title,
                        deletionToken: isURLDeletion ? nil : outcome.deletion,
                        deletionURL: isURLDeletion ? outcome.deletion : nil,
                        preview: nil))
                try outbox.remove(entry)
                if output.isJSON {
                    output.result(
                        JSONOutput.object(
                            for: PasteResult(
                                url: outcome.url, service: profile.name,
                                byteCount: RecordStage.fileSize(entry.contentPath) ?? 0,
                                sha256: RecordStage.digest(ofFile: entry.contentPath),
                                title: metadata.title, deletion: outcome.deletion), fileName: metadata.fileName))
                } else {
                    output.result(outcome.url)
                }
            } catch {
                let pasteError = error as? (any PasteError)
                _ = try? outbox.markFailed(entry, error: pasteError?.message ?? "\(error)")
                output.report(pasteError ?? InternalFailure(detail: "\(error)"))
                if status == .success { status = pasteError?.exitStatus ?? .internalError }
            }
        }
        return status
    }
}
