import FoundationEssentials
import PasteCore
import SystemInterop

/// A living paste (`paste --update NAME`): what the state folder remembers of it.
///
/// Texts are ordered by their outbox entry names (`OutboxEntry.name`), which sort by creation:
/// a text read without an entry gets a name of the same shape (`entryName(at:)`).
///
/// Made when its first text is about to be sent (`isMade` false, `createdAt` its entry's
/// time), completed the moment the service answered (id, URL, deletion), and brought up to date
/// after each update (`updates`, `contentEntry`). Stored as one JSON object per name in
/// `$XDG_STATE_HOME/paste/living/NAME.json` (0600: the deletion data is a secret).
public struct LivingPaste: Codable, Sendable, Equatable {
    /// The person's name for it.
    public var name: String
    /// The service it lives on.
    public var service: String
    /// Its id on the service (what updates are sent to); nil until the service answered.
    public var id: String?
    /// Its URL; nil until the service answered.
    public var url: String?
    /// How it is deleted, as the service said (a token or a link), if it did.
    public var deletion: String?
    /// When it was made.
    public var created: Date
    /// When its content was last replaced.
    public var updated: Date?
    /// How many times its content was replaced.
    public var updates: Int
    /// The outbox entry name (`OutboxEntry.name`: creation order, to the millisecond) of the
    /// text now on the server: a waiting update of an older text is never sent after it (last
    /// writer wins).
    public var contentEntry: String?

    public init(name: String, service: String, created: Date) {
        self.name = name
        self.service = service
        self.created = created
        self.updates = 0
    }

    /// A name ordered like outbox entry names, for a text read at `time` that has no entry.
    public static func entryName(at time: Date) -> String {
        let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded(.down))
        let digits = String(milliseconds)
        return String(repeating: "0", count: max(0, 13 - digits.count)) + digits + "-9999"
    }

    /// Whether the service made it (its id is known).
    public var isMade: Bool { id != nil }

    enum CodingKeys: String, CodingKey {
        case name, service, id, url
        case deletion = "delete"
        case created, updated, updates
        case contentEntry = "content_entry"
    }
}

/// The living pastes of the state folder, one file per name, written atomically and durably;
/// a name's changes serialise on its lock file (`NAME.lock`), held for a whole run.
public struct LivingPastes: Sendable {
    /// `$XDG_STATE_HOME/paste/living`.
    public let folder: String

    public init(context: Context) {
        folder = context.pasteStateDirectory + "/living"
    }

    public init(folder: String) {
        self.folder = folder
    }

    /// The longest name.
    public static let maximumNameLength = 64

    /// Whether `name` can name a living paste: 1 to 64 of `A-Z a-z 0-9 . _ -`, not starting with
    /// a dot (it is a file name).
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumNameLength, !name.hasPrefix(".") else { return false }
        return name.utf8.allSatisfy {
            (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2E
                || $0 == 0x5F || $0 == 0x2D
        }
    }

    private func path(of name: String) -> String { folder + "/" + name + ".json" }

    /// Takes `name`'s lock (waiting for another run that holds it).
    public func lock(_ name: String) throws(StoreError) -> FileLock {
        try AtomicFile.createPrivateFolder(folder)
        return try FileLock(path: folder + "/" + name + ".lock", kind: .exclusive)
    }

    /// What is remembered of `name`; nil when nothing is.
    public func paste(named name: String) throws(StoreError) -> LivingPaste? {
        guard let bytes = try AtomicFile.read(path(of: name), limit: 1 << 20) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let paste = try? decoder.decode(LivingPaste.self, from: Data(bytes)) else {
            throw .corruptMetadata(path: path(of: name))
        }
        return paste
    }

    /// Writes `paste` (durably: it may be all that knows the paste exists).
    public func save(_ paste: LivingPaste) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(paste) else { throw .cannotEncode(path: path(of: paste.name)) }
        try AtomicFile.createPrivateFolder(folder)
        try AtomicFile.write(Array(data) + [0x0A], to: path(of: paste.name))
    }

    /// Forgets `name`.
    public func remove(_ name: String) throws(StoreError) {
        do {
            try FileSystem.removeFile(path(of: name))
        } catch {
            if error != .noSuchFileOrDirectory { throw .cannotRemove(path: path(of: name), errno: error) }
        }
    }

    /// Every living paste, by name.
    public func all() throws(StoreError) -> [LivingPaste] {
        let names: [String]
        do {
            names = try FileSystem.entries(ofDirectory: folder)
        } catch {
            if error == .noSuchFileOrDirectory { return [] }
            throw .cannotRead(path: folder, errno: error)
        }
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().compactMap {
            try? paste(named: String($0.dropLast(5)))
        }
    }

    /// The living paste at `url`, if one is.
    public func paste(url: String) throws(StoreError) -> LivingPaste? {
        try all().first { $0.url == url }
    }
}
