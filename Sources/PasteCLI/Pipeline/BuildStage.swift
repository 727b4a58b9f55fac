import PasteCore
import Requests
import Stores
import SystemInterop
import Upload

/// Build, after guard: the request for each paste, as its service wants it (PasteCore's
/// `RequestBuilder`, with PrivateBin's cryptography from Upload). A stream reaches it only for a
/// service that streams: for the formats that cannot (form, privatebin, a json template holding
/// `{content}` more than once: `ServiceProfile.streamsContent`) the pipeline reads it whole
/// first (`spooledIfNeeded`), so the guard, the outbox and a dry run all see what is sent.
///
/// Text is built as its service takes text; an image or another binary file
/// (`PasteInput.type`) goes byte-exact as the file part (or the raw body), with its own file
/// name and Content-Type (`RequestBuilder.build(file:named:type:options:)`).
///
/// Each request's credentials (header values, URL user information, credential query
/// parameters and fields) are registered with the run's `Redactor` as it is built, before
/// anything shows it; values from `${env:…}` and the like were registered as they were resolved.
///
/// The builder keeps what `--dry-run` shows: each request's secrets (`expansion`, the values
/// the output funnel will mask) and a JSON body's preview, one per request in order, whichever
/// service each goes to (a run's images may go to another service than its text).
struct BuildStage {
    /// The request builder, with the secrets and previews of every request so far.
    private(set) var builder: RequestBuilder

    init(service: ServiceProfile, context: Context) {
        builder = RequestBuilder(profile: service, context: context, cryptography: SystemCryptography())
    }

    /// The request for one input of this run, to the service of `route`, connecting as it says.
    mutating func build(_ input: PasteInput, route: RunPlan.Route, options: PasteOptions) throws -> UploadRequest {
        if builder.profile.name != route.service.name { builder.profile = route.service }
        var request: UploadRequest
        if input.type.category == .text {
            if case .stream = input.content {
                precondition(builder.profile.streamsContent, "a stream for \(builder.profile.name) is read whole first")
            }
            // A text read from a file is named as the input is: stdin held whole in the outbox,
            // or a large text's masked copy, is read as `/proc/self/fd/N` and is still `stdin`.
            let name: String? = if case .file = input.content { input.label } else { nil }
            request = try builder.build(
                content: input.content, options: options, fileName: input.fileName, contentName: name)
        } else {
            // Formats that can carry a file (multipart, raw) stream it: nothing to spool.
            request = try builder.build(
                file: input.content, named: input.fileName ?? PasteInput.standardInputFileName(input.type),
                type: input.type, options: options)
        }
        request.connection = route.connection
        builder.expansion.context.redactor.register(request)
        return request
    }

    /// The request for an outbox entry's content (`--retry`), read whole first for the formats
    /// that cannot stream it; an image or a binary file (`type`) goes as a file, byte-exact.
    ///
    /// - Parameter name: how refusals of its text name it (`ContentChecks.contentName`): it is
    ///   read through its claim's descriptor (`/proc/self/fd/N`), which names nothing the person
    ///   knows.
    /// - Throws: why it cannot be built (`RequestError`, `ConfigError`, `InputError`), its text
    ///   where it was.
    mutating func build(
        outboxContent path: String, size: Int64, options: PasteOptions, fileName: String?, type: MediaType,
        name: String
    ) throws(PasteFailure) -> UploadRequest {
        do {
            return try buildRequest(
                outboxContent: path, size: size, options: options, fileName: fileName, type: type, name: name)
        } catch {
            throw PasteFailure(error)
        }
    }

    private mutating func buildRequest(
        outboxContent path: String, size: Int64, options: PasteOptions, fileName: String?, type: MediaType,
        name: String
    ) throws(PartError) -> UploadRequest {
        if type.category != .text {
            let request = try builder.build(
                file: .file(path: path, size: size), named: fileName ?? PasteInput.standardInputFileName(type),
                type: type, options: options)
            builder.expansion.context.redactor.register(request)
            return request
        }
        let content: ContentSource =
            builder.profile.streamsContent
            ? .file(path: path, size: size)
            : try PartError.lift { () throws(InputError) in try Self.spool(file: path, name: name) }
        let request = try builder.build(content: content, options: options, fileName: fileName, contentName: name)
        builder.expansion.context.redactor.register(request)
        return request
    }

    /// `--dry-run`: the requests as they would go out, secrets masked, one block each.
    func describe(_ requests: [UploadRequest], inputs: [PasteInput]) -> String {
        zip(requests, inputs).enumerated().map { index, pair in
            DryRun.describe(pair.0, expansion: builder.expansion, preview: builder.previews[index], label: pair.1.label)
        }.joined()
    }

    /// The input as it will be sent to `service`: a stream read whole into memory when the
    /// service cannot stream it (`ServiceProfile.streamsContent`: a form, a JSON template that
    /// uses the content other than once), so that what the outbox keeps, the digest and the
    /// repeat check see exactly what is sent; any other input as it is. Stdin's entry (holding
    /// the stream's start) takes the rest as it is read, and is whole at its end.
    static func spooledIfNeeded(_ input: PasteInput, for service: ServiceProfile) throws -> PasteInput {
        guard case .stream(let descriptor, _, _, _) = input.content, input.type.category == .text,
            !service.streamsContent
        else {
            return input
        }
        var bytes = input.prefix
        var journal = input.journal
        // Past the service's `max-size` the read stops: memory stays at the limit and a
        // chunk, however long the stream (1 GiB to PrivateBin must not be read whole first).
        let limit = service.maximumBytes.map { Int(clamping: $0) } ?? .max
        do {
            try FileDescriptor.withUnowned(descriptor) {
                try $0.forEachChunk { chunk in
                    bytes += chunk
                    if bytes.count > limit {
                        throw StreamTooLarge(service: service.name, bytesRead: bytes.count, limit: Int64(limit))
                    }
                    if case .success(let claim) = journal {
                        do throws(StoreError) {
                            try claim.append(Array(chunk))
                        } catch {
                            try? claim.discard()
                            journal = .failure(error)
                        }
                    }
                }
            }
        } catch let error as Errno {
            throw InputError.unreadable(path: input.label, reason: error.message)
        }
        if case .success(let claim) = journal {
            do throws(StoreError) {
                try claim.finishContent()
            } catch {
                try? claim.discard()
                journal = .failure(error)
            }
        }
        var spooled = try PasteInput(bytes: bytes, label: input.label, fileName: input.fileName, type: input.type)
        spooled.journal = journal
        return spooled
    }

    /// Reads a file whole into memory, for formats that cannot stream; a failure names it
    /// `name` (an outbox entry's descriptor path names nothing the person knows).
    static func spool(file path: String, name: String) throws(InputError) -> ContentSource {
        do {
            return .bytes(try FileSystem.readFile(path).bytes)
        } catch {
            throw InputError.unreadable(path: name, reason: error.message)
        }
    }
}
