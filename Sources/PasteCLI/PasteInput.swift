import Clipboard
import PasteCore

#if canImport(Glibc)
    import Glibc
#endif

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

    /// What is kept in memory before deciding to stream: enough for any hand-typed paste, small
    /// enough to keep memory flat for logs of any size.
    static let inMemoryLimit = 8 << 20

    /// Reads a file: small ones into memory (scanned whole), large ones streamed from disk.
    static func file(_ path: String) throws(InputError) -> PasteInput {
        var status = stat()
        guard unsafe stat(path, &status) == 0 else {
            if errno == ENOENT { throw .missingFile(path: path) }
            throw .unreadable(path: path, reason: SystemError.current.description)
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path: path) }
        let size = Int64(status.st_size)
        if size == 0 { throw .empty(source: "'\(path)'") }
        if size > inMemoryLimit {
            guard unsafe access(path, R_OK) == 0 || getuid() == 0 else {
                throw .unreadable(path: path, reason: SystemError(EACCES).description)
            }
            return PasteInput(content: .file(path: path, size: size), label: "'\(path)'", fileName: baseName(path))
        }
        switch FileReader.readBytes(path, limit: inMemoryLimit) {
        case .success(let (bytes, _)):
            return try PasteInput(bytes: bytes, label: "'\(path)'", fileName: baseName(path))
        case .failure(let error):
            throw .unreadable(path: path, reason: error.description)
        }
    }

    /// Wraps in-memory bytes, refusing empty and binary input.
    /// Whether `bytes` hold a NUL (binary data). `memchr`, vectorised: a byte-by-byte
    /// `contains(0)` was a sixth of reading a 64 MiB clipboard.
    static func containsNUL(_ bytes: [UInt8]) -> Bool {
        unsafe bytes.withUnsafeBytes { unsafe $0.baseAddress.map { unsafe memchr($0, 0, bytes.count) != nil } ?? false }
    }

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
        var buffer = [UInt8](repeating: 0, count: inMemoryLimit)
        var filled = 0
        while filled < buffer.count {
            let count = unsafe buffer.withUnsafeMutableBytes {
                unsafe read(0, $0.baseAddress! + filled, $0.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: "stdin", reason: SystemError.current.description)
            }
            if count == 0 { break }
            filled += count
        }
        buffer.removeSubrange(filled...)
        if filled < inMemoryLimit {
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
