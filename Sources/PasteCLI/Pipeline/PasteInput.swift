import Clipboard
import PasteCore
import SystemInterop

/// One thing to paste: its bytes (or where to stream them from) and what to call it in messages.
struct PasteInput {
    /// Where the upload reads from.
    var content: ContentSource
    /// `stdin`, `the clipboard`, or the file's path, for messages.
    var label: String
    /// The bytes, when they are in memory (clipboard, small stdin, small files).
    var bytes: [UInt8]?
    /// The file name for the outbox and JSON output.
    var fileName: String?
    /// Whether the text came from a selection (so a failure must leave the selection alone).
    var isFromSelection = false
    /// The secret guard's scanner that saw `bytes` while they were read (a large selection);
    /// nil when they are still to be scanned.
    var secretScan: SecretScanner?

    /// What is kept in memory before deciding to stream: enough for any hand-typed paste, small
    /// enough to keep memory flat for logs of any size.
    static let inMemoryLimit = 8 << 20

    /// Reads a file: small ones into memory (scanned whole), large ones streamed from disk.
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
        if size > inMemoryLimit {
            guard FileSystem.isAccessible(path, for: .read) || CurrentProcess.userID == 0 else {
                throw .unreadable(path: path, reason: Errno.permissionDenied.message)
            }
            return PasteInput(content: .file(path: path, size: size), label: "'\(path)'", fileName: baseName(path))
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, limit: inMemoryLimit).bytes
        } catch {
            throw .unreadable(path: path, reason: error.message)
        }
        return try PasteInput(bytes: bytes, label: "'\(path)'", fileName: baseName(path))
    }

    /// Whether `bytes` hold a NUL (binary data), found with `memchr` (`Memory.contains`).
    static func containsNUL(_ bytes: [UInt8]) -> Bool {
        Memory.contains(0, in: bytes)
    }

    /// Wraps in-memory bytes, refusing empty and binary input.
    init(bytes: [UInt8], label: String, fileName: String? = nil, isFromSelection: Bool = false) throws(InputError) {
        if bytes.isEmpty { throw .empty(source: label) }
        if Self.containsNUL(bytes) { throw .binary(source: label) }
        self.content = .bytes(bytes)
        self.label = label
        self.bytes = bytes
        self.fileName = fileName
        self.isFromSelection = isFromSelection
    }

    init(content: ContentSource, label: String, fileName: String?) {
        self.content = content
        self.label = label
        self.fileName = fileName
    }

    /// Reads stdin: all of it when it fits in memory, else the start (to check) and the rest
    /// streamed from the descriptor with the start sent first.
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
            return try PasteInput(bytes: buffer, label: "stdin")
        }
        if Self.containsNUL(buffer) { throw .binary(source: "stdin") }
        return PasteInput(
            content: .stream(fileDescriptor: 0, prefix: buffer, teePath: nil), label: "stdin", fileName: nil)
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
