import Clipboard
import PasteCore
import Stores
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
        // A URL's literal credentials (user information, `?api_key=…`) are masked in the listing.
        for profile in configuration.services { context.redactor.register(url: profile.url.raw) }
        if invocation.isJSON {
            for profile in configuration.services {
                output.result(
                    "{\"name\":\(JSONText.quote(profile.name)),\"url\":\(JSONText.quote(profile.url.raw)),"
                        + "\"format\":\"\(profile.format.rawValue)\",\"builtin\":\(profile.isBuiltIn),"
                        + "\"default\":\(profile.name == chosen),\"summary\":\(JSONText.quote(profile.summary))}")
            }
            return
        }
        // Names, URLs and summaries come from the config: shown escaped, as in messages.
        let names = configuration.services.map { Sanitizer.shown($0.name) }
        let width = (names.map(\.count).max() ?? 0) + 2
        for (profile, name) in zip(configuration.services, names) {
            let mark = profile.name == chosen ? "*" : " "
            output.result(
                "\(mark) \(name.padding(to: width))\(shown: profile.url.raw, limit: Sanitizer.maximumURLLength)  "
                    + "\(shown: profile.summary, limit: Sanitizer.maximumURLLength)")
        }
    }

    /// `--history`: one line per paste, oldest first (or JSON Lines); a living paste
    /// (`--update NAME`) once, where its newest record is, with its update count.
    func printHistory() throws {
        let all = try History(context: context).records()
        var newest: [String: Int] = [:]
        var counts: [String: Int] = [:]
        for (index, record) in all.enumerated() {
            guard let living = record.living else { continue }
            newest[living] = index
            counts[living, default: 0] += 1
        }
        for (index, record) in all.enumerated() {
            if let living = record.living, newest[living] != index { continue }
            let updates = record.living.map { max(0, (counts[$0] ?? 1) - 1) }
            if invocation.isJSON {
                var object = JSONOutput.object(for: record)
                if let living = record.living, let updates {
                    object.removeLast()
                    object += ",\"living\":\(JSONText.quote(living)),\"updates\":\(updates)}"
                }
                output.result(object, keeping: record.url)
            } else {
                let title = record.title.map { "  \(Sanitizer.printable($0, limit: 60))" } ?? ""
                // Text says nothing more; an image or a binary file says what it is.
                let type =
                    record.type.map {
                        MediaType(recordedName: $0).category == .text ? "" : " \(Sanitizer.printable($0, limit: 60))"
                    }
                    ?? ""
                let url = "\(shown: record.url, limit: Sanitizer.maximumURLLength)"
                let living =
                    record.living.map {
                        "  living \(Sanitizer.printable($0, limit: 64)), \(updates ?? 0) "
                            + "\(updates == 1 ? "update" : "updates")"
                    } ?? ""
                output.result(
                    "\(JSONText.timestamp(record.time))  \(shown: record.service)  "
                        + "\(url)  \(record.byteCount) B\(type)\(title)\(living)", keeping: url)
            }
        }
    }

    /// `--retry`: sends the retryable entries of the outbox, oldest first (run at a terminal,
    /// all of them now; unattended, those whose backoff is over); each sent entry is removed.
    /// `-n`: lists them, sends nothing.
    func retryOutbox() throws -> ExitStatus {
        let configuration = try loadConfiguration()
        return try UploadPipeline(context: context, output: output, seams: seams).retry(
            PlanResolver.resolveRetry(
                invocation, configuration, isAttended: PlanResolver.isAttendedByTerminal(context.streams)))
    }
}
