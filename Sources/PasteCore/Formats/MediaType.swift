import FoundationEssentials
import SystemInterop

/// What a paste holds: its MIME type, and whether that makes it text, an image or another
/// binary file (which decides where it may go: `ServiceChoice`).
///
/// A file's type comes from its first bytes (`detect`): a small table of signatures ("magic
/// numbers", as file(1) and the WHATWG MIME Sniffing Standard use them), else its extension,
/// else `text/plain` when it is UTF-8 without NUL bytes, else `application/octet-stream`.
public struct MediaType: Sendable, Hashable {
    /// The kind of content a type makes a paste, as far as choosing its service goes.
    public enum Category: String, Sendable, Hashable {
        /// Text: goes to a pastebin as text, through the secret guard.
        case text
        /// An image: goes to `image-service` (or `-S`), byte-exact, as a file.
        case image
        /// Any other binary file: goes to a service that accepts files, byte-exact.
        case binary
    }

    /// The MIME type as sent in a Content-Type (`image/png`, `text/plain; charset=utf-8`).
    public var name: String
    /// Text, image or other binary.
    public var category: Category
    /// The usual file extension, without the dot (`png`), when the type has one.
    public var fileExtension: String?

    /// Makes a media type.
    public init(name: String, category: Category, fileExtension: String? = nil) {
        self.name = name
        self.category = category
        self.fileExtension = fileExtension
    }

    /// Text that says nothing more about itself: UTF-8, as paste sends all text.
    public static let plainText = MediaType(name: "text/plain; charset=utf-8", category: .text, fileExtension: "txt")
    /// Binary data of no known type.
    public static let octetStream = MediaType(name: "application/octet-stream", category: .binary)

    /// How many leading bytes `detect` looks at for signatures: the deepest is tar's `ustar`
    /// at offset 257. Pass at least this many (or the whole file when shorter); pass more to
    /// judge text better, up to the whole file.
    public static let signatureLength = 512

    /// The MIME type without parameters, in lower case (`text/plain`).
    public var essence: String {
        String(name.prefix { $0 != ";" }).trimmingSpaces().lowercased()
    }

    // MARK: - Detection

    /// The type of a file from its first bytes and its name.
    ///
    /// 1. A signature in the first bytes (`signatures`) decides: a PNG named `notes.txt` is a PNG.
    /// 2. Else the extension (`extensions`), when it agrees with the bytes: a text type for
    ///    UTF-8 text, a binary type for bytes that are not text (a `.mp3` without an ID3 tag).
    /// 3. Else `plainText` for UTF-8 without NUL bytes, else `octetStream`.
    ///
    /// - Parameters:
    ///   - start: the file's first bytes: at least `signatureLength` of them, or all of it.
    ///   - isWhole: whether `start` is the whole file (else a multi-byte character cut at its
    ///     end does not make it binary).
    ///   - fileName: the file's name or path, for its extension.
    public static func detect(start: some Collection<UInt8>, isWhole: Bool, fileName: String?) -> MediaType {
        let bytes = Array(start)
        if let signed = signature(of: bytes) { return signed }
        let isText = isUTF8Text(bytes, isWhole: isWhole)
        if let fileName, let byName = forExtension(of: fileName), (byName.category == .text) == isText {
            return byName
        }
        return isText ? plainText : octetStream
    }

    /// The type of a clipboard image by its target name (`image/png`), with its extension; nil
    /// for a type that is not an image.
    public init?(imageType: String) {
        let essence = imageType.lowercased()
        guard let known = Self.extensions.first(where: { $0.type.essence == essence && $0.type.category == .image })
        else { return nil }
        self = known.type
    }

    /// A type recorded earlier by its name (an outbox entry's `type`): a known type as the
    /// tables have it, any other by its top-level type (`text/…` text, `image/…` an image,
    /// anything else binary), the name kept as it was.
    public init(recordedName name: String) {
        let essence = String(name.prefix { $0 != ";" }).trimmingSpaces().lowercased()
        if let known = Self.extensions.first(where: { $0.type.essence == essence }) {
            self = known.type
            return
        }
        let category: Category =
            essence.hasPrefix("text/") ? .text : essence.hasPrefix("image/") ? .image : .binary
        self.init(name: name, category: category)
    }

    /// The type a name's extension stands for (`shot.PNG` → image/png), or nil.
    public static func forExtension(of fileName: String) -> MediaType? {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        let fileExtension = base[base.index(after: dot)...].lowercased()
        return extensions.first { $0.extension == fileExtension }.map(\.type)
    }

    /// Whether `bytes` are UTF-8 with no NUL: what paste calls text. When `isWhole` is false,
    /// a character cut by the end of `bytes` (at most three bytes) is allowed.
    public static func isUTF8Text(_ bytes: [UInt8], isWhole: Bool) -> Bool {
        // PERF(stream): `memchr`, not `contains(0)`, and the validator skips ASCII runs many
        // bytes a step: the check of a stream's 8 MiB start, made before its first byte is sent,
        // took 8 ms a byte at a time.
        if Memory.contains(0, in: bytes) { return false }
        var validator = UTF8Validator()
        guard validator.validate(bytes.span, at: 0) == nil else { return false }
        return !isWhole || validator.finish() == nil
    }

    // MARK: - File names

    /// The name a clipboard image is uploaded as: `clipboard-YYYYMMDD-HHMMSS.EXT`, the time in
    /// UTC (so names sort, and say nothing of where the person is).
    public func clipboardFileName(at time: Date) -> String {
        // `2025-01-31T12:00:00Z` → `20250131-120000`.
        let stamp = JSONText.timestamp(time).filter { $0 != "-" && $0 != ":" && $0 != "Z" }
            .map { $0 == "T" ? "-" : String($0) }.joined()
        return "clipboard-" + stamp + (fileExtension.map { "." + $0 } ?? "")
    }

    // MARK: - Tables

    /// A signature: these bytes at this offset (`nil` bytes match anything).
    struct Signature: Sendable {
        var offset: Int
        var bytes: [UInt8?]
        var type: MediaType

        func matches(_ data: [UInt8]) -> Bool {
            guard data.count >= offset + bytes.count else { return false }
            for (index, byte) in bytes.enumerated() where byte != nil && data[offset + index] != byte {
                return false
            }
            return true
        }
    }

    /// Signatures, first match wins (file(1)'s magic and the WHATWG MIME Sniffing Standard,
    /// §6 "Matching a MIME type pattern"). Each is long enough that text cannot start with it
    /// by chance, or holds bytes text never has; BMP's two letters get a header check
    /// (`isBMP`) instead.
    static let signatures: [Signature] = {
        func sig(_ offset: Int, _ text: String, _ name: String, _ category: Category, _ fileExtension: String?)
            -> Signature
        {
            Signature(
                offset: offset, bytes: Array(text.utf8).map { $0 },
                type: MediaType(name: name, category: category, fileExtension: fileExtension))
        }
        func sig(_ offset: Int, _ bytes: [UInt8?], _ name: String, _ category: Category, _ fileExtension: String?)
            -> Signature
        {
            Signature(
                offset: offset, bytes: bytes,
                type: MediaType(name: name, category: category, fileExtension: fileExtension)
            )
        }
        let riff: [UInt8?] = [0x52, 0x49, 0x46, 0x46, nil, nil, nil, nil]
        return [
            sig(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png", .image, "png"),
            sig(0, [0xFF, 0xD8, 0xFF], "image/jpeg", .image, "jpg"),
            sig(0, "GIF87a", "image/gif", .image, "gif"),
            sig(0, "GIF89a", "image/gif", .image, "gif"),
            sig(0, riff + Array("WEBP".utf8), "image/webp", .image, "webp"),
            sig(0, [0x49, 0x49, 0x2A, 0x00], "image/tiff", .image, "tif"),
            sig(0, [0x4D, 0x4D, 0x00, 0x2A], "image/tiff", .image, "tif"),
            sig(0, [0x00, 0x00, 0x01, 0x00], "image/x-icon", .image, "ico"),
            sig(4, "ftypavif", "image/avif", .image, "avif"),
            sig(4, "ftypheic", "image/heic", .image, "heic"),
            sig(4, "ftypmif1", "image/heif", .image, "heif"),
            sig(0, "%PDF-", "application/pdf", .binary, "pdf"),
            sig(0, [0x50, 0x4B, 0x03, 0x04], "application/zip", .binary, "zip"),
            sig(0, [0x50, 0x4B, 0x05, 0x06], "application/zip", .binary, "zip"),
            sig(0, [0x1F, 0x8B, 0x08], "application/gzip", .binary, "gz"),
            sig(0, [0x42, 0x5A, 0x68, nil, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59], "application/x-bzip2", .binary, "bz2"),
            sig(0, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "application/x-xz", .binary, "xz"),
            sig(0, [0x28, 0xB5, 0x2F, 0xFD], "application/zstd", .binary, "zst"),
            sig(0, [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "application/x-7z-compressed", .binary, "7z"),
            sig(257, "ustar", "application/x-tar", .binary, "tar"),
            sig(0, [0x7F, 0x45, 0x4C, 0x46], "application/x-executable", .binary, nil),
            sig(0, [0x00, 0x61, 0x73, 0x6D], "application/wasm", .binary, "wasm"),
            sig(0, "SQLite format 3\0", "application/vnd.sqlite3", .binary, "sqlite"),
            sig(0, "OggS\0", "audio/ogg", .binary, "ogg"),
            sig(0, "fLaC", "audio/flac", .binary, "flac"),
            sig(0, riff + Array("WAVE".utf8), "audio/wav", .binary, "wav"),
            sig(0, [0x49, 0x44, 0x33, nil, 0x00], "audio/mpeg", .binary, "mp3"),
            sig(0, [0x1A, 0x45, 0xDF, 0xA3], "video/webm", .binary, "webm"),
            sig(4, "ftypqt  ", "video/quicktime", .binary, "mov"),
            sig(4, "ftyp", "video/mp4", .binary, "mp4"),
        ]
    }()

    /// The signature `bytes` start with, if any.
    static func signature(of bytes: [UInt8]) -> MediaType? {
        if let found = signatures.first(where: { $0.matches(bytes) }) { return found.type }
        if isBMP(bytes) { return MediaType(name: "image/bmp", category: .image, fileExtension: "bmp") }
        return nil
    }

    /// `BM`, then (after the file size) four reserved bytes that are zero, then a known DIB
    /// header size at offset 14 (12, 40, 52, 56, 64, 108 or 124): `BM` alone starts words.
    static func isBMP(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 18, bytes[0] == 0x42, bytes[1] == 0x4D, bytes[6...9].allSatisfy({ $0 == 0 }) else {
            return false
        }
        let headerSize = Int(bytes[14]) | Int(bytes[15]) << 8 | Int(bytes[16]) << 16 | Int(bytes[17]) << 24
        return [12, 40, 52, 56, 64, 108, 124].contains(headerSize)
    }

    /// Types by extension: the signatures' types, and text types, which have no signature.
    static let extensions: [(extension: String, type: MediaType)] = {
        var table: [(String, MediaType)] = []
        for signature in signatures {
            if let fileExtension = signature.type.fileExtension, !table.contains(where: { $0.0 == fileExtension }) {
                table.append((fileExtension, signature.type))
            }
        }
        table.append(("bmp", MediaType(name: "image/bmp", category: .image, fileExtension: "bmp")))
        let aliases: [(String, String)] = [
            ("jpeg", "jpg"), ("tiff", "tif"), ("tgz", "gz"), ("m4v", "mp4"), ("mkv", "webm"), ("oga", "ogg"),
        ]
        for (alias, target) in aliases {
            if let type = table.first(where: { $0.0 == target })?.1 { table.append((alias, type)) }
        }
        let text: [(String, String)] = [
            ("txt", "text/plain; charset=utf-8"), ("log", "text/plain; charset=utf-8"),
            ("md", "text/markdown; charset=utf-8"), ("csv", "text/csv; charset=utf-8"),
            ("html", "text/html; charset=utf-8"), ("htm", "text/html; charset=utf-8"),
            ("css", "text/css; charset=utf-8"), ("js", "text/javascript; charset=utf-8"),
            ("json", "application/json"), ("xml", "application/xml"), ("svg", "image/svg+xml"),
            ("yaml", "application/yaml"), ("yml", "application/yaml"), ("toml", "application/toml"),
        ]
        for (fileExtension, name) in text {
            table.append((fileExtension, MediaType(name: name, category: .text, fileExtension: fileExtension)))
        }
        return table
    }()
}
