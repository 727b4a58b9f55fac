import FoundationEssentials
import PasteCore
import SystemInterop

extension Outbox {
    // MARK: - The hotkey's look for a background flush

    /// Which of `services` have an entry a background flush could send now: retryable, whole,
    /// for that named service (not an ad-hoc `--url`). Nothing is locked, changed or settled.
    ///
    /// The look a run takes after its paste worked (`OutboxFlush.launch`), on the hotkey's path:
    /// one `lstat` when there is no outbox folder, one directory read when it holds no entry,
    /// and for each entry its metadata read without the lock (it is only ever replaced whole, by
    /// a rename) and decoded as far as the service and state; only an entry that may be sent
    /// has its content's length looked at (`lstat`). Held entries, and entries for other
    /// services, cost one small read each, no lock and no content.
    ///
    /// What it cannot see without the lock, a live run holding the entry (`--retry` sending it
    /// right now), it counts as waiting: the flush then claims each entry under its lock and
    /// skips what is busy, so a look that says too much starts a flush that sends nothing, and
    /// one that says too little never happens for an entry the full listing would send.
    ///
    /// - Returns: Empty when the folder is missing, cannot be read or is not paste's own.
    public func servicesWaiting(among services: Set<String>) -> Set<String> {
        guard !services.isEmpty, (try? AtomicFile.checkPrivateFolder(folder)) == true,
            let files = try? OutboxFiles(folder: folder)
        else { return [] }
        var waiting: Set<String> = []
        let decoder = JSONDecoder()
        for name in files.contentNames where files.metadataNames.contains(name) {
            let entry = entry(named: name)
            guard let bytes = try? AtomicFile.read(entry.metadataPath, limit: Outbox.maximumMetadataBytes),
                Glance.mayBeRetryable(bytes), let glance = try? decoder.decode(Glance.self, from: Data(bytes)),
                glance.state ?? .retryable == .retryable, glance.serviceURL == nil,
                services.contains(glance.service), !waiting.contains(glance.service),
                glance.isWhole(contentPath: entry.contentPath)
            else { continue }
            waiting.insert(glance.service)
            if waiting.count == services.count { break }
        }
        return waiting
    }

    /// The few fields of an entry's metadata the look needs; the rest of the file (its dates
    /// above all) is not decoded.
    struct Glance: Decodable {
        var service: String
        var serviceURL: String?
        var state: OutboxEntry.State?
        var byteCount: Int64?

        enum CodingKeys: String, CodingKey {
            case service
            case serviceURL = "service_url"
            case state
            case byteCount = "bytes"
        }

        /// Whether metadata may say `retryable`, told from its bytes before any decoding: it
        /// holds the word `retryable`, or it has no `state` key (an entry from before states,
        /// read as retryable). A held entry's says neither, so the look skips it with one read
        /// and no `JSONDecoder` (whose first use was 1.5 ms of a hotkey press with 20 held
        /// entries). It can only let too much through: the decoding decides.
        static func mayBeRetryable(_ bytes: [UInt8]) -> Bool {
            find(Array(OutboxEntry.State.retryable.rawValue.utf8), in: bytes, from: 0) != nil
                || !hasKey(Array("\"state\"".utf8), in: bytes)
        }

        /// Whether `key` (quoted) is followed by a colon, after any blanks: a key, where a string
        /// value that happens to be the same word is followed by a comma or a brace.
        static func hasKey(_ key: [UInt8], in bytes: [UInt8]) -> Bool {
            var start = 0
            while let found = find(key, in: bytes, from: start) {
                var after = found + key.count
                while after < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[after]) { after += 1 }
                if after < bytes.count, bytes[after] == UInt8(ascii: ":") { return true }
                start = found + 1
            }
            return false
        }

        /// Where `word` first is in `bytes` at or after `start` (a plain loop: `firstRange(of:)`
        /// is `_StringProcessing`'s, generic, its metadata made at run time).
        static func find(_ word: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
            guard let first = word.first, bytes.count >= word.count else { return nil }
            var index = start
            while index <= bytes.count - word.count {
                if bytes[index] == first && bytes[index..<(index + word.count)].elementsEqual(word) { return index }
                index += 1
            }
            return nil
        }

        /// Whether the content is whole (`OutboxEntry.Metadata.isWhole`), its length told by
        /// `lstat` only when one was recorded.
        func isWhole(contentPath: String) -> Bool {
            OutboxEntry.Metadata.isWhole(byteCount: byteCount, state: state) {
                guard let status = try? FileSystem.status(ofPath: contentPath, followingSymbolicLinks: false),
                    status.kind == .regular
                else { return nil }
                return status.size
            }
        }
    }
}
