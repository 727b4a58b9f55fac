import FoundationEssentials
import PasteCore
import SystemInterop

/// The history file: one `HistoryRecord` per line (JSON Lines), newest last.
///
/// A record goes in by one `write` of its whole line to a descriptor opened with `O_APPEND`,
/// and nothing else: no lock, no look at the file before it, no `fsync` (`append`). That write
/// is the record: once it returns the line is in the file (the page cache survives a killed
/// process), a reader sees it, and so does the next run's own-URL and repeat look. It is made
/// before the URL is printed or copied (`RecordStage`), so a URL a reader can get is always in
/// the history already. `O_APPEND` writes of one line do not interleave on a local file
/// system, so concurrent runs need no lock among themselves.
///
/// What the lock and the read did before (issue 44, item 3) is done by whoever meets the rare
/// case, never on the way of a paste:
/// - `remove(url:)` (`--delete`) replaces the file by rename under an exclusive `FileLock` on a
///   sibling lock file (`history.lock`: a lock on the old inode would not exclude anyone from
///   the new one). A record appended to the old file after the remover read it is carried into
///   the new one by the remover, which reads the old file's tail after the rename; an appender
///   whose file lost its name (`st_nlink` 0 after its write) appends again under the lock,
///   unless the carried line is there already. Either way the record is in the new file once.
/// - A record torn by a crash (or any line that is not a record) is skipped when reading; a
///   record glued to a torn one is found at its `{"bytes":`, where every record starts
///   (`record(in:decoder:)`), so no appender needs to read the file's last byte first.
///
/// Readers take the lock shared. The file is created 0600: deletion tokens are secrets. The
/// history and its lock are opened as `AtomicFile.openRegular` does: never through a symbolic
/// link, never a FIFO or device (an error, not a hang), never another user's. Every record's
/// words pass the run's `Redactor` on their way in (`redaction`).
public struct History: Sendable {
    /// The history file.
    public let path: String
    /// The lock file beside it.
    public let lockPath: String
    /// The clock, for the repeat window.
    private let now: @Sendable () -> Date
    /// Masks the run's secrets in what a record stores (`Redactor`): its service, URL, title
    /// and preview. Deletion tokens are kept as given: they are what deletes the paste.
    public let redaction: @Sendable (String) -> String

    /// The history of the run's context: `$XDG_STATE_HOME/paste/history`, masking with the
    /// run's `Redactor`.
    public init(context: Context) {
        self.init(path: context.historyPath, now: context.now, redaction: context.redactor.redaction)
    }

    /// A history stored at `path`.
    public init(
        path: String, now: @escaping @Sendable () -> Date = { Date() },
        redaction: @escaping @Sendable (String) -> String = { $0 }
    ) {
        self.path = path
        self.lockPath = path + ".lock"
        self.now = now
        self.redaction = redaction
    }

    // MARK: - Writing

    /// Appends a record, creating the file (0600) and its folder (0700) when missing.
    ///
    /// PERF(hotkey): one `write` of the whole line with `O_APPEND` between `open`+`fstat` and
    /// `fstat`+`close`, and nothing more (issue 44, item 3: 14 system calls, a lock and a read
    /// before). The second `fstat` sees whether a `remove(url:)` renamed a new file over this
    /// one meanwhile; then the line goes again under the lock, unless the remover carried it.
    ///
    /// - Throws: `StoreError` when the folder or file cannot be made or written.
    public func append(_ record: HistoryRecord) throws(StoreError) {
        var line = encode(redacted(record))
        line.append(UInt8(ascii: "\n"))
        let file = try openForAppending()
        try StoreError.attempt({ .cannotWrite(path: path, errno: $0) }) { () throws(Errno) in try file.writeAll(line) }
        // A file that lost its name (renamed over by `remove`) may have lost the line with it.
        let isStillNamed = ((try? file.status())?.linkCount ?? 0) > 0
        if !isStillNamed { try appendOnce(line) }
    }

    /// The history opened for appending (`O_APPEND | O_CREAT`, as `AtomicFile.openRegular`
    /// opens), its folder made first when it is missing.
    private func openForAppending() throws(StoreError) -> FileDescriptor {
        if let file = try AtomicFile.openRegular(path, .writeOnly, options: [.append, .create]) { return file }
        // ENOENT with O_CREAT: the folder is missing (the first paste).
        try AtomicFile.createFolder(AtomicFile.folderOf(path))
        guard let file = try AtomicFile.openRegular(path, .writeOnly, options: [.append, .create]) else {
            throw .cannotOpen(path: path, errno: .noSuchFileOrDirectory)
        }
        return file
    }

    /// Appends `line` under the exclusive lock unless the file holds it already (carried over by
    /// the `remove(url:)` that renamed the file the first write went to), on a fresh line.
    private func appendOnce(_ line: [UInt8]) throws(StoreError) {
        let lock = try FileLock(path: lockPath, kind: .exclusive)
        defer { withExtendedLifetime(lock) {} }
        guard let file = try AtomicFile.openRegular(path, .readWrite, options: [.append, .create]) else {
            throw .cannotOpen(path: path, errno: .noSuchFileOrDirectory)
        }
        let bytes = try StoreError.attempt({ .cannotRead(path: path, errno: $0) }) { () throws(Errno) in
            try file.readAll()
        }
        if History.contains(bytes[...], line) { return }
        var output = line
        if let last = bytes.last, last != UInt8(ascii: "\n") { output.insert(UInt8(ascii: "\n"), at: 0) }
        try StoreError.attempt({ .cannotWrite(path: path, errno: $0) }) { () throws(Errno) in
            try file.writeAll(output)
        }
    }

    /// Removes every record of `url` (for `--delete`), rewriting the file atomically under the
    /// lock. Lines that are not records are dropped at the same time.
    ///
    /// Appends take no lock (`append`): a record written to the old file after it was read
    /// here is carried into the new one, from the old file's tail read after the rename.
    ///
    /// - Returns: How many records were removed; the file is untouched when none were.
    @discardableResult
    public func remove(url: String) throws(StoreError) -> Int {
        guard FileSystem.isDirectory(AtomicFile.folderOf(path)) else { return 0 }
        let lock = try FileLock(path: lockPath, kind: .exclusive)
        defer { withExtendedLifetime(lock) {} }
        guard let old = try AtomicFile.openRegular(path, .readOnly) else { return 0 }
        let bytes = try StoreError.attempt({ .cannotRead(path: path, errno: $0) }) { () throws(Errno) in
            try old.readAll()
        }
        // Only whole lines count as read: a line still being appended is the tail's.
        let read = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let all = History.decode(Array(bytes[..<read]))
        let kept = all.filter { $0.url != url }
        guard kept.count != all.count else { return 0 }
        var output: [UInt8] = []
        for record in kept {
            output += encode(record)
            output.append(UInt8(ascii: "\n"))
        }
        try AtomicFile.write(output, to: path)
        // What was appended to the old file since it was read: its whole lines, as written.
        let tail = try StoreError.attempt({ .cannotRead(path: path, errno: $0) }) { () throws(Errno) in
            try old.seek(to: Int64(read))
            return try old.readAll()
        }
        let carried = History.wholeRecordLines(of: tail, except: url)
        if !carried.isEmpty {
            let file = try openForAppending()
            try StoreError.attempt({ .cannotWrite(path: path, errno: $0) }) { () throws(Errno) in
                try file.writeAll(carried)
            }
        }
        return all.count - kept.count
    }

    /// The lines of `tail` that end in a newline and hold a record of another URL than
    /// `url`, byte for byte (an appender looks for its own line by its bytes: `appendOnce`).
    static func wholeRecordLines(of tail: [UInt8], except url: String) -> [UInt8] {
        guard let end = tail.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var carried: [UInt8] = []
        for line in tail[...end].split(separator: UInt8(ascii: "\n")) {
            guard let record = record(in: line, decoder: decoder), record.url != url else { continue }
            carried += line
            carried.append(UInt8(ascii: "\n"))
        }
        return carried
    }

    // MARK: - Reading

    /// Every readable record, oldest first (newest last). An absent file is an empty history.
    public func records() throws(StoreError) -> [HistoryRecord] {
        History.decode(try contents())
    }

    /// The history file's bytes, read under a shared lock.
    private func contents() throws(StoreError) -> [UInt8] {
        guard FileSystem.isDirectory(AtomicFile.folderOf(path)) else { return [] }
        let lock = try readLock()
        defer { withExtendedLifetime(lock) {} }
        return try AtomicFile.read(path) ?? []
    }

    /// The shared lock every read holds; nil in a read-only state folder, whose history is
    /// still readable: read it unlocked.
    private func readLock() throws(StoreError) -> FileLock? {
        do {
            return try FileLock(path: lockPath, kind: .shared)
        } catch {
            guard error.errno == .permissionDenied || error.errno == .readOnlyFileSystem else { throw error }
            return nil
        }
    }

    /// The newest record of `url`, if any.
    public func find(url: String) throws(StoreError) -> HistoryRecord? {
        try records().last { $0.url == url }
    }

    /// The newest record of the same content sent to the same service with the same options
    /// within `window` of now: the repeat window, so pressing the hotkey twice gives the same
    /// URL instead of a new paste, while a private paste never reuses a public URL (nor `-e 1h`
    /// one of `-e 1w`, nor one title another's).
    ///
    /// - Parameters:
    ///   - sha256: The content's digest.
    ///   - service: The service's name.
    ///   - options: `PasteOptions.repeatKey` of the paste about to be made. Records written
    ///     without one (before it existed) never match.
    ///   - window: How far back to look.
    public func recent(sha256: String, service: String, options: String, within window: Duration)
        throws(StoreError) -> HistoryRecord?
    {
        try newest(sha256: sha256, within: window) { $0.service == service && $0.options == options }
    }

    /// Where among the newest `count` records one of `url` is (0: the newest), and that record;
    /// nil when none is. A clipboard that holds a URL paste just made (a second press of the
    /// hotkey) is recognised by it, and not pasted again (issue 45, item 5).
    public func recentRecord(url: String, among count: Int) throws(StoreError) -> (age: Int, record: HistoryRecord)? {
        let needle = Array(url.utf8)
        guard !needle.isEmpty, count > 0 else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var seen = 0
        var found: (age: Int, record: HistoryRecord)?
        try forEachLineNewestFirst { line in
            // Only a line that holds the URL's bytes is decoded (URLs are sanitized: nothing in
            // them is escaped in JSON but `\/`, which the history does not write).
            if History.contains(line, needle), let record = History.record(in: line, decoder: decoder),
                record.url == url
            {
                found = (seen, record)
                return false
            }
            seen += 1
            return seen < count
        }
        return found
    }

    /// The newest record of `sha256` within `window` that `matches`; nil when none.
    private func newest(sha256: String, within window: Duration, where matches: (HistoryRecord) -> Bool)
        throws(StoreError) -> HistoryRecord?
    {
        let earliest = now().addingTimeInterval(-window.timeInterval)
        // On the hotkey path: decode only the lines that hold the digest, newest first, instead
        // of every record of a history that only grows.
        let digest = Array(sha256.utf8)
        guard !digest.isEmpty else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        // Read from the end, a block at a time, and only as far back as the window reaches:
        // memory and time stay small however long the history has grown (`--history` and
        // `--pick` still read it whole).
        var found: HistoryRecord?
        try forEachLineNewestFirst { line in
            // Every record says when it was made; the first one older than the window (less a
            // margin for runs that appended out of order) ends the search.
            if let time = History.time(of: line), time < earliest.addingTimeInterval(-History.orderMargin) {
                return false
            }
            guard line.count >= digest.count, History.contains(line, digest),
                let record = History.record(in: line, decoder: decoder)
            else { return true }
            if record.time >= earliest && record.sha256 == sha256 && matches(record) {
                found = record
                return false
            }
            return true
        }
        return found
    }

    /// How far out of time order records may be appended (concurrent runs), in seconds.
    static let orderMargin: Double = 300

    /// How much of the history is read at a time from its end.
    static let tailBlock = 64 << 10

    /// Hands `body` the history's lines from the newest back, read from the end of the file a
    /// block at a time under the shared lock, until `body` returns false or the file's start.
    private func forEachLineNewestFirst(_ body: (ArraySlice<UInt8>) -> Bool) throws(StoreError) {
        guard FileSystem.isDirectory(AtomicFile.folderOf(path)) else { return }
        let lock = try readLock()
        defer { withExtendedLifetime(lock) {} }
        guard let file = try AtomicFile.openRegular(path, .readOnly) else { return }
        var end = try StoreError.attempt({ .cannotRead(path: path, errno: $0) }) { () throws(Errno) in
            try file.status().size
        }
        var carry: [UInt8] = []
        while end > 0 {
            let start = max(0, end - Int64(History.tailBlock))
            let offset = start
            let count = Int(end - start)
            var block = try StoreError.attempt({ .cannotRead(path: path, errno: $0) }) { () throws(Errno) in
                try file.read(atOffset: offset, upTo: count)
            }
            block += carry
            end = start
            var lines = block.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            // The first line may go on before this block: kept for the next one.
            carry = start > 0 && !lines.isEmpty ? Array(lines.removeFirst()) : []
            for line in lines.reversed() where !body(line) { return }
        }
    }

    /// The time a record's line says it was made (`"time":"…"`), read without decoding it: the
    /// last such key, which is the glued record's in a line a torn one begins.
    static func time(of line: ArraySlice<UInt8>) -> Date? {
        let key = Array("\"time\":\"".utf8)
        guard let start = lastIndex(of: key, in: line) else { return nil }
        let valueStart = start + key.count
        guard let end = line[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return try? Date(String(decoding: line[valueStart..<end], as: UTF8.self), strategy: .iso8601)
    }

    /// Where `needle` last occurs in `line`.
    static func lastIndex(of needle: [UInt8], in line: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, line.count >= needle.count else { return nil }
        var index = line.endIndex - needle.count
        while index >= line.startIndex {
            if line[index] == needle[0] && line[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }

    /// How every record's line begins: `bytes` is the first of its sorted keys
    /// (`HistoryRecord.jsonLine`). Inside a JSON string a quote is escaped, so these bytes
    /// occur nowhere else in a record.
    static let recordStart = Array("{\"bytes\":".utf8)

    /// The record `line` holds: the whole line, or, when that does not decode, what follows its
    /// last `recordStart` (a record appended after one a crash tore, on the same line: appends
    /// do not look at the file's last byte). Nil when neither is a record.
    static func record(in line: ArraySlice<UInt8>, decoder: JSONDecoder) -> HistoryRecord? {
        if let record = try? decoder.decode(HistoryRecord.self, from: Data(line)) { return record }
        guard let start = lastIndex(of: recordStart, in: line), start > line.startIndex else { return nil }
        return try? decoder.decode(HistoryRecord.self, from: Data(line[start...]))
    }

    // MARK: - Encoding

    /// The record as it may be stored: its words passed through `redaction`.
    func redacted(_ record: HistoryRecord) -> HistoryRecord {
        var record = record
        record.service = redaction(record.service)
        // (Not the URL: the paste's own link is kept whole, as it was printed.)
        record.title = record.title.map(redaction)
        record.preview = record.preview.map(redaction)
        return record
    }

    private func encode(_ record: HistoryRecord) -> [UInt8] {
        Array(record.jsonLine.utf8)
    }

    /// Whether `needle` occurs in `line` (a plain byte search; digests are ASCII).
    static func contains(_ line: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, line.count >= needle.count else { return false }
        var index = line.startIndex
        let last = line.endIndex - needle.count
        while index <= last {
            if line[index] == first && line[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// The records among the lines of `bytes`; any line that does not decode is skipped.
    static func decode(_ bytes: [UInt8]) -> [HistoryRecord] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var records: [HistoryRecord] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            if let record = record(in: line, decoder: decoder) { records.append(record) }
        }
        return records
    }
}
