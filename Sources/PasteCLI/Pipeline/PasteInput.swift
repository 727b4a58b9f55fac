import Clipboard
import PasteCore
import SecretGuard
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
    /// What the content is: text (the secret guard reads it, a pastebin takes it), an image or
    /// another binary file (sent byte-exact as a file, where a service accepts files).
    var type = MediaType.plainText
    /// The secret guard's scanner that saw `bytes` while they were read (a large selection);
    /// nil when they are still to be scanned.
    var secretScan: SecretScanner?

    /// What is kept in memory before deciding to stream: enough for any hand-typed paste, small
    /// enough to keep memory flat for logs of any size.
    static let inMemoryLimit = 8 << 20

    /// How much of a file too large for memory is read to tell its type (`MediaType.detect`):
    /// the signatures, and enough text to judge whether it is text.
    static let typeSampleLength = 4096

    /// Reads a file: small ones into memory (scanned whole), large ones streamed from disk; its
    /// type from its first bytes, else its name.
    static func file(_ path: String) throws(InputError) -> PasteInput {
        let status: FileStatus
        do {
            status = try FileSystem.status(ofPath: path)
        } catch {
            if error == .noSuchFileOrDirectory { throw .missingFile(path: path) }
            throw .unreadable(path: path, reason: error.message)
        }
        guard status.kind == .regular else { throw .notAFile(path: path) }
        let size = status.size
        if size == 0 { throw .empty(source: "'\(path)'") }
        let name = baseName(path)
        if size > inMemoryLimit {
            guard FileSystem.isAccessible(path, for: .read) || CurrentProcess.userID == 0 else {
                throw .unreadable(path: path, reason: Errno.permissionDenied.message)
            }
            let start: [UInt8]
            do {
                start = try FileDescriptor.open(path, .readOnly).read(upTo: typeSampleLength)
            } catch {
                throw .unreadable(path: path, reason: error.message)
            }
            var input = PasteInput(
                content: .file(path: path, size: size), label: "'\(shownPath: path)'", fileName: name)
            input.type = contentType(of: start, isWhole: false, fileName: name)
            return input
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, limit: inMemoryLimit).bytes
        } catch {
            throw .unreadable(path: path, reason: error.message)
        }
        return try PasteInput(
            bytes: bytes, label: "'\(shownPath: path)'", fileName: name,
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
    static func standardInput() throws(InputError) -> PasteInput {
        let buffer: [UInt8]
        do {
            buffer = try StandardStream.input.withDescriptor { (input) throws(Errno) in
                try input.read(upTo: inMemoryLimit)
            }
        } catch {
            throw .unreadable(path: "stdin", reason: error.message)
        }
        if buffer.count < inMemoryLimit {
            if buffer.isEmpty { throw .empty(source: "stdin") }
            var input = try PasteInput(
                bytes: buffer, label: "stdin", type: contentType(of: buffer, isWhole: true, fileName: nil))
            input.fileName = input.type.category == .text ? nil : standardInputFileName(input.type)
            return input
        }
        let type = contentType(of: buffer, isWhole: false, fileName: nil)
        var input = PasteInput(
            content: .stream(fileDescriptor: 0, prefix: buffer, teePath: nil), label: "stdin",
            fileName: type.category == .text ? nil : standardInputFileName(type))
        input.type = type
        return input
    }

    /// The name binary stdin is sent as: `stdin.pdf`, or `stdin` for a type with no extension.
    static func standardInputFileName(_ type: MediaType) -> String {
        "stdin" + (type.fileExtension.map { "." + $0 } ?? "")
    }

    /// The start of a streamed input, already read from the descriptor; sent before the rest.
    var prefix: [UInt8] {
        if case .stream(_, let prefix, _) = content { return prefix }
        return []
    }

    /// The bytes the secret guard and the repeat check look at.
    var inspectable: [UInt8] { bytes ?? prefix }

    private static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
