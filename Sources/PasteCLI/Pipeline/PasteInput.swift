import Clipboard
import PasteCore
import SecretGuard
import Stores
import SystemInterop

/// One thing to paste: its bytes (or where to stream them from), what they are, and what to
/// call it in messages.
struct PasteInput {
    /// Where the upload reads from.
    var content: ContentSource
    /// `stdin`, `the clipboard`, or the file's path, for messages.
    var label: String
    /// The bytes, when they are in memory (clipboard, small stdin, small files).
    var bytes: [UInt8]?
    /// The file name for the outbox and JSON output; for an image or a binary file, the name
    /// its file part is sent with.
    var fileName: String?
    /// Whether the text came from a selection (so a failure must leave the selection alone).
    var isFromSelection = false
    /// Whether it is stdin, whose outbox entry the read makes as it reads (`journal`): nothing
    /// else journals it, unless the read did not (a dry run, or a text `--redact` masks).
    var isStandardInput = false
    /// What the content is: text (the secret guard reads it, a pastebin takes it), an image or
    /// another binary file (sent byte-exact as a file, where a service accepts files).
    var type = MediaType.plainText
    /// The secret guard's scanner that saw `bytes` while they were read (a large selection);
    /// nil when they are still to be scanned.
    var secretScan: SecretScanner?
    /// Stdin's outbox entry, written as it was read (or why it could not be); for a stream, the
    /// entry holds its start, and the request's tee continues it as the rest is sent. Nil for
    /// anything else and for a dry run.
    var journal: Result<OutboxClaim, StoreError>?
    /// The secrets `--redact` (or the question's "Upload with secrets masked") replaced in
    /// `bytes`: kind, line and column, never a value (`GuardStage.mask`).
    var masked: [MaskedSecret] = []
    /// Whether the person chose the masking at the guard's question ("Upload with secrets
    /// masked"; `GuardStage.check`): its outbox entry then records masking as asked (`redact`,
    /// `SendStage.metadata`), as `--redact` would, so a `--retry` of it masks as the person
    /// chose.
    var isMaskingChosen = false

    /// What is kept in memory before deciding to stream: enough for any hand-typed paste, small
    /// enough to keep memory flat for logs of any size.
    static let inMemoryLimit = 8 << 20

    /// How much of a file too large for memory is read to tell its type (`MediaType.detect`):
    /// the signatures, and enough text to judge whether it is text.
    static let typeSampleLength = 4096

    /// Reads a file: small ones into memory (scanned whole), large ones streamed from disk; its
    /// type from its first bytes, else its name.
    static func file(_ name: FileName) throws(InputError) -> PasteInput {
        if let path = name.text { return try file(path) }
        // Not UTF-8 (`caf\xe9.txt`): opened by its bytes, and read from then on as
        // `/proc/self/fd/N`, a name that is text and leads to the same file; the descriptor
        // stays open for the run. Non-blocking, so a FIFO is refused as not a file rather than
        // waited on.
        let shown = name.description
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(pathBytes: name.bytes, .readOnly, options: .nonBlocking)
        } catch {
            if error == .noSuchFileOrDirectory { throw .missingFile(path: shown) }
            throw .unreadable(path: shown, reason: error.message)
        }
        return try file("/proc/self/fd/\(descriptor.release())", shownAs: shown, fileName: baseName(name.repaired))
    }

    /// The file at `path`, named `shown` in messages (the path itself unless given) and
    /// `fileName` to the service (the path's last component unless given).
    static func file(_ path: String, shownAs shown: String? = nil, fileName: String? = nil) throws(InputError)
        -> PasteInput
    {
        let shown = shown ?? path
        let status: FileStatus
        do {
            status = try FileSystem.status(ofPath: path)
        } catch {
            if error == .noSuchFileOrDirectory { throw .missingFile(path: shown) }
            throw .unreadable(path: shown, reason: error.message)
        }
        guard status.kind == .regular else { throw .notAFile(path: shown) }
        let size = status.size
        if size == 0 { throw .empty(source: "'\(shown)'") }
        let name = fileName ?? baseName(path)
        if size > inMemoryLimit {
            guard FileSystem.isAccessible(path, for: .read) || CurrentProcess.userID == 0 else {
                throw .unreadable(path: shown, reason: Errno.permissionDenied.message)
            }
            let start: [UInt8]
            do {
                start = try FileDescriptor.open(path, .readOnly).read(upTo: typeSampleLength)
            } catch {
                throw .unreadable(path: shown, reason: error.message)
            }
            var input = PasteInput(
                content: .file(path: path, size: size), label: "'\(shownPath: shown)'", fileName: name)
            input.type = contentType(of: start, isWhole: false, fileName: name)
            return input
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, limit: inMemoryLimit).bytes
        } catch {
            throw .unreadable(path: shown, reason: error.message)
        }
        return try PasteInput(
            bytes: bytes, label: "'\(shownPath: shown)'", fileName: name,
            type: contentType(of: bytes, isWhole: true, fileName: name))
    }

    /// What `bytes` (the whole content, or its start) hold: `MediaType.detect`, except that
    /// bytes with no signature and no NUL stay text even when they are not UTF-8 (a Latin-1 log
    /// was always pasted as text, and still is).
    static func contentType(of bytes: [UInt8], isWhole: Bool, fileName: String?) -> MediaType {
        let type = MediaType.detect(start: bytes, isWhole: isWhole, fileName: fileName)
        if type == .octetStream && firstNUL(bytes) == nil { return .plainText }
        return type
    }

    /// Where `bytes` hold their first NUL (binary data), found with `memchr` (`Memory.firstIndex`).
    static func firstNUL(_ bytes: [UInt8]) -> Int? {
        Memory.firstIndex(of: 0, in: bytes)
    }

    /// Wraps in-memory bytes of `type`, refusing empty input, and text that holds NUL bytes.
    init(
        bytes: [UInt8], label: String, fileName: String? = nil, isFromSelection: Bool = false,
        type: MediaType = .plainText
    ) throws(InputError) {
        if bytes.isEmpty { throw .empty(source: label) }
        if type.category == .text, let offset = Self.firstNUL(bytes) { throw .binary(source: label, offset: offset) }
        self.content = .bytes(bytes)
        self.label = label
        self.bytes = bytes
        self.fileName = fileName
        self.isFromSelection = isFromSelection
        self.type = type
    }

    init(content: ContentSource, label: String, fileName: String?) {
        self.content = content
        self.label = label
        self.fileName = fileName
    }

    /// What a selection held, as an input: text as ever, an image with its type and the name
    /// it is sent as (`clipboard-YYYYMMDD-HHMMSS.png`, the time in UTC).
    static func selection(_ content: ClipboardContent, label: String, context: Context) throws(InputError) -> PasteInput
    {
        switch content {
        case .text(let bytes):
            return try PasteInput(bytes: bytes, label: label, isFromSelection: true)
        case .image(let bytes, let typeName):
            let type =
                MediaType(imageType: typeName)
                ?? MediaType(name: typeName, category: .image, fileExtension: nil)
            return try PasteInput(
                bytes: bytes, label: label, fileName: type.clipboardFileName(at: context.now()), isFromSelection: true,
                type: type)
        }
    }

    /// Reads stdin: all of it when it fits in memory, else the start (to check) and the rest
    /// streamed from the descriptor with the start sent first. Its type comes from what was
    /// read: binary data is no longer refused here, but goes where files go (`ServiceChoice`:
    /// a service that accepts files, else a one-line refusal naming `accepts`).
    ///
    /// With `journal` (an outbox entry made for it before the read: `PasteJob.FreshText.journal`),
    /// every chunk is written to the entry as soon as it is read, and the entry is marked whole
    /// the moment the read reaches the end: stdin's text is nowhere else, so a run killed at any
    /// moment after that leaves it in the outbox. A stream keeps the entry, holding its start:
    /// the request's tee continues it with the rest as it is sent (`teeHoldsPrefix`), so the
    /// entry is made once and its first bytes are written once. A refused stdin removes it.
    ///
    /// - Parameter stdin: where stdin is read from (`Context.streams.input`: descriptor 0 but in
    ///   the in-process harness).
    static func standardInput(
        journal: Result<OutboxClaim, StoreError>? = nil, from stdin: StandardStream = .input
    ) throws(InputError) -> PasteInput {
        var journal = journal
        var buffer: [UInt8] = []
        var isWhole = false
        // A pipe (the usual stdin) is spliced into the entry, then read back: its bytes go from
        // the pipe to the file in the kernel, so there is no moment when this run holds bytes
        // that are neither in the pipe nor in the outbox.
        if case .success(let claim) = journal {
            // PERF(stream): the pipe grows before the splice, not only once the input turns out
            // to be a stream: with 64 KiB the writer and the splice took turns 128 times over
            // the first 8 MiB, the only part of a stream read on one core. Best effort.
            _ = stdin.withDescriptor { (input) -> Int? in try? input.growPipeCapacity(to: streamPipeCapacity) }
            switch splice(from: stdin, into: claim) {
            case .spliced(let bytes, let isEnd):
                buffer = bytes
                isWhole = isEnd
            case .cutShort(let bytes):
                // The entry (or stdin) failed midway: what moved is kept in memory, the entry
                // goes, and the rest is read (a failure of stdin's own shows again there).
                buffer = bytes
                discard(journal)
                journal = .failure(.cannotWrite(path: claim.contentPath, errno: .ioError))
            case .notAPipe:
                break
            }
        }
        if !isWhole && buffer.count < inMemoryLimit {
            do {
                isWhole = try stdin.withDescriptor { (input) throws(Errno) in
                    try read(input, into: &buffer, journal: &journal)
                }
            } catch {
                discard(journal)
                throw .unreadable(path: "stdin", reason: error.message)
            }
        }
        if isWhole {
            if case .success(let claim) = journal {
                do throws(StoreError) {
                    try claim.finishReading()
                } catch {
                    try? claim.discard()
                    journal = .failure(error)
                }
            }
            do throws(InputError) {
                if buffer.isEmpty { throw .empty(source: "stdin") }
                var input = try PasteInput(
                    bytes: buffer, label: "stdin", type: contentType(of: buffer, isWhole: true, fileName: nil))
                input.fileName = input.type.category == .text ? nil : standardInputFileName(input.type)
                input.isStandardInput = true
                input.journal = journal
                return input
            } catch {
                discard(journal)
                throw error
            }
        }
        // A stream: its entry holds the start (exactly what was read) and goes on being written
        // by the request's tee.
        var teePath: String?
        if case .success(let claim) = journal {
            do throws(StoreError) {
                guard try claim.contentSize() == Int64(buffer.count) else {
                    throw .incompleteContent(
                        path: claim.contentPath, expected: Int64(buffer.count), actual: try claim.contentSize())
                }
                try claim.continueAsStream()
                teePath = claim.contentDescriptorPath
            } catch {
                try? claim.discard()
                journal = .failure(error)
            }
        }
        // PERF(stream): the rest goes through the pipe a buffer at a time; a 1 MiB pipe (not the
        // default 64 KiB) lets the writer run ahead and each read take up to libcurl's upload
        // buffer (`Uploader.streamBufferSize`), so both sides switch a sixteenth as often.
        // Best effort: a pipe at its user's quota keeps the capacity it has. (Grown before the
        // splice already when the input is journaled; a second time costs one `fcntl`.)
        _ = stdin.withDescriptor { (input) -> Int? in
            try? input.growPipeCapacity(to: streamPipeCapacity)
        }
        let type = contentType(of: buffer, isWhole: false, fileName: nil)
        var input = PasteInput(
            content: .stream(
                fileDescriptor: stdin.rawValue, prefix: buffer, teePath: teePath, teeHoldsPrefix: teePath != nil),
            label: "stdin", fileName: type.category == .text ? nil : standardInputFileName(type))
        input.type = type
        input.isStandardInput = true
        input.journal = journal
        return input
    }

    /// What `splice(from:into:)` did.
    private enum Splicing {
        /// Stdin's bytes (all of it, or the first `inMemoryLimit`), in the entry and in memory;
        /// whether its end was reached.
        case spliced([UInt8], isEnd: Bool)
        /// Stdin is not a pipe (or the entry cannot take a splice): nothing was moved.
        case notAPipe
        /// A splice failed after these bytes had moved (read back from the entry).
        case cutShort([UInt8])
    }

    /// Splices stdin into `claim`'s content, up to `inMemoryLimit`, then reads it back; see
    /// `standardInput`. A failure of the entry alone gives `.notAPipe` once nothing moved yet.
    private static func splice(from stdin: StandardStream, into claim: OutboxClaim) -> Splicing {
        // The claim's own descriptor appends (`O_APPEND`), which `splice` refuses.
        guard let sink = try? FileDescriptor.open(claim.contentDescriptorPath, .writeOnly) else { return .notAPipe }
        var total = 0
        let outcome = stdin.withDescriptor { (input) -> Result<Bool, Errno> in
            spliceAll(from: input, to: sink, total: &total, announcingTo: claim)
        }
        if total == 0, case .failure = outcome { return .notAPipe }
        // The end is said at once: from here on the entry is whole on disk.
        if case .success(true) = outcome, (try? claim.markReadEnded()) == nil { return .cutShort(bytesOf(claim)) }
        // One read of the known length (and a byte more, to see that there is nothing more):
        // `readContent` grows its array a chunk at a time, and an 8 MiB start was copied twice
        // more and faulted in twice, before the stream's first byte went.
        guard let bytes = try? claim.readContentPrefix(upTo: total + 1), bytes.count == total else {
            // Nothing is lost: what moved is in the file, but it cannot be read back; stdin
            // cannot be read again either.
            return .cutShort(bytesOf(claim))
        }
        guard case .success(let isEnd) = outcome else { return .cutShort(bytes) }
        return .spliced(bytes, isEnd: isEnd)
    }

    /// What the entry holds, or nothing when it cannot be read.
    private static func bytesOf(_ claim: OutboxClaim) -> [UInt8] { (try? claim.readContent()) ?? [] }

    /// Splices `input` into `sink` until its end or `inMemoryLimit` bytes; whether it ended.
    /// Once stdin's writers are gone (its rest known), the end is said to `claim` before the
    /// last bytes move (`markReadEnded(byteCount:)`), so no kill finds them moved, unsaid.
    private static func spliceAll(
        from input: borrowing FileDescriptor, to sink: borrowing FileDescriptor, total: inout Int,
        announcingTo claim: OutboxClaim
    ) -> Result<Bool, Errno> {
        do throws(Errno) {
            while total < inMemoryLimit {
                if !claim.hasReadEnded, let rest = input.finalPipeByteCount, total + rest < inMemoryLimit {
                    // Best effort: without it the end is said once seen, as before.
                    try? claim.markReadEnded(byteCount: Int64(total + rest))
                }
                let moved = try sink.splice(from: input, upTo: min(journalChunk, inMemoryLimit - total))
                if moved == 0 { return .success(true) }
                total += moved
            }
            return .success(false)
        } catch {
            return .failure(error)
        }
    }

    /// Reads stdin into `buffer` (up to `inMemoryLimit`), writing each chunk to the journal's
    /// entry as soon as it is read; whether stdin ended.
    private static func read(
        _ input: borrowing FileDescriptor, into buffer: inout [UInt8],
        journal: inout Result<OutboxClaim, StoreError>?
    ) throws(Errno) -> Bool {
        try input.forEachChunk(upTo: inMemoryLimit - buffer.count, chunkSize: journalChunk) { chunk in
            // To disk first: the moment the read ends, the text is whole there.
            if case .success(let claim) = journal {
                do throws(StoreError) {
                    try claim.append(Array(chunk))
                } catch {
                    try? claim.discard()
                    journal = .failure(error)
                }
            }
            buffer += chunk
        }
    }

    /// The capacity stdin's pipe is grown to once it streams: `/proc/sys/fs/pipe-max-size`'s
    /// default, the most an unprivileged process may ask for.
    static let streamPipeCapacity = 1 << 20

    /// How much of stdin is read (and written to its outbox entry) at a time.
    static let journalChunk = 256 << 10

    /// Removes a journal entry that will not be used.
    private static func discard(_ journal: Result<OutboxClaim, StoreError>?) {
        if case .success(let claim) = journal, !claim.isRemoved { try? claim.discard() }
    }

    /// The name binary stdin is sent as: `stdin.pdf`, or `stdin` for a type with no extension.
    static func standardInputFileName(_ type: MediaType) -> String {
        "stdin" + (type.fileExtension.map { "." + $0 } ?? "")
    }

    /// The start of a streamed input, already read from the descriptor; sent before the rest.
    var prefix: [UInt8] {
        if case .stream(_, let prefix, _, _) = content { return prefix }
        return []
    }

    /// The outbox entry a stream was held in whole before it was scanned (`ReadStage`, for a
    /// plan that masks), which the input is read from; nil for anything else.
    var heldClaim: OutboxClaim? {
        guard case .file = content, case .success(let claim)? = journal, !claim.isRemoved else { return nil }
        return claim
    }

    /// Whether the guard's findings can be masked in it: text in memory or in a file (a stream
    /// is sent as it is read, unless it was held: `heldClaim`).
    var isMaskable: Bool {
        if bytes != nil { return true }
        if case .file = content { return true }
        return false
    }

    /// The bytes the secret guard and the repeat check look at.
    var inspectable: [UInt8] { bytes ?? prefix }

    private static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
