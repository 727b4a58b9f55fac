import FoundationEssentials
import PasteCore
import SystemInterop

extension Outbox {
    // MARK: - Claims

    /// Claims an entry for `paste --retry`, or returns nil when it is not to be sent now: another
    /// run holds it, it is gone, or (read again under the lock) it is no longer retryable, whole
    /// and due.
    ///
    /// Wraps `flock(LOCK_EX | LOCK_NB)` on the content file, opened as `AtomicFile.openRegular`
    /// does (never through a link). After locking, the entry is checked again: a run that
    /// finished it first removed its files before unlocking, so a lock on a file no longer
    /// linked, or without metadata, is not an entry any more. An entry found `in-flight` or
    /// `writing` belongs to a run that died: it is settled as a recovery pass would, and not sent.
    ///
    /// - Parameter ignoringBackoff: whether an entry whose backoff is not over is claimed too
    ///   (`paste --retry` run by a person).
    public func claimDue(_ entry: OutboxEntry, ignoringBackoff: Bool = false) throws(StoreError) -> OutboxClaim? {
        guard let claim = try lock(entry) else { return nil }
        if try settleOrphan(claim) != nil { return nil }
        let now = now()
        // (A next attempt implausibly far ahead is due: see `OutboxListing.Item.isDue`.)
        guard claim.state == .retryable, try claim.isWhole(),
            ignoringBackoff
                || claim.entry.metadata.nextAttempt.map({
                    $0 <= now || $0.timeIntervalSince(now) > OutboxListing.implausibleWait
                })
                    ?? true
        else { return nil }
        return claim
    }

    /// Claims the entry the person names, to send it whatever its state (`paste --outbox send
    /// ID`): a held entry goes only this way.
    ///
    /// - Parameter id: An id (or a unique start of one, at least `minimumIDLength` digits), or
    ///   an entry's full name.
    /// - Throws: `StoreError.noSuchEntry`, `.ambiguousEntry`, `.entryBusy` (another run holds it),
    ///   `.incompleteContent` (its content is not whole), or a read failure.
    public func claim(id: String) throws(StoreError) -> OutboxClaim {
        let entry = try find(id: id)
        guard let claim = try lock(entry) else {
            if (try? FileSystem.status(ofPath: entry.contentPath, followingSymbolicLinks: false)) != nil {
                throw .entryBusy(id: entry.id)
            }
            throw .noSuchEntry(id: id)
        }
        let state = claim.state
        if state == .writing || state == .inFlight {
            // Its run died: a whole content is sent (in flight, it was held by now); a part is not.
            _ = try settleOrphan(claim)
            if claim.isRemoved { throw .noSuchEntry(id: id) }
        }
        guard try claim.isWhole() else {
            throw .incompleteContent(
                path: entry.contentPath, expected: claim.entry.metadata.byteCount ?? 0, actual: try claim.contentSize())
        }
        return claim
    }

    /// The shortest start of an id that names an entry (git's shortest abbreviation too).
    public static let minimumIDLength = 4

    /// Finds the entry an id (or a unique start of one), or a full name, stands for, with its
    /// metadata as it is now (it may be busy).
    ///
    /// - Throws: `StoreError.noSuchEntry`, `.ambiguousEntry`, or the metadata's read failure.
    public func find(id: String) throws(StoreError) -> OutboxEntry {
        let files = try OutboxFiles(folder: folder)
        let names = files.contentNames.intersection(files.metadataNames).sorted()
        let wanted = id.lowercased()
        let matches =
            names.contains(id)
            ? [id]
            : wanted.count >= Outbox.minimumIDLength
                ? names.filter { OutboxEntry.id(ofName: $0).hasPrefix(wanted) } : []
        guard let name = matches.first else { throw .noSuchEntry(id: id) }
        guard matches.count == 1 else { throw .ambiguousEntry(id: id, matches: matches.map(OutboxEntry.id(ofName:))) }
        guard let entry = try loadMetadata(entry(named: name)) else { throw .noSuchEntry(id: id) }
        return entry
    }

    /// Locks an entry's content and reads its metadata again under the lock; nil when another
    /// run holds it or it is gone. What its killed writers left beside it goes at once
    /// (`removeDeadWritersTemporaries`).
    private func lock(_ entry: OutboxEntry) throws(StoreError) -> OutboxClaim? {
        guard let lock = try FileLock.attempt(path: entry.contentPath, kind: .exclusive, creating: false),
            lock.isStillLinked, let fresh = try loadMetadata(entry)
        else { return nil }
        removeDeadWritersTemporaries(of: fresh)
        return OutboxClaim(outbox: self, entry: fresh, lock: lock, isDurable: true)
    }

    // MARK: - Showing and dropping

    /// Reads an entry's content in chunks, for `paste --outbox show ID` (memory stays at one
    /// chunk whatever the size). The file is opened as `AtomicFile.openRegular` does: a link is
    /// never followed, a FIFO or device never read.
    ///
    /// - Throws: `StoreError` when the content cannot be opened or read, or what `body` throws.
    public func forEachContentChunk(of entry: OutboxEntry, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        guard let file = try AtomicFile.openRegular(entry.contentPath, .readOnly) else {
            throw StoreError.noSuchEntry(id: entry.id)
        }
        do {
            try file.forEachChunk(body)
        } catch let error as Errno {
            throw StoreError.cannotRead(path: entry.contentPath, errno: error)
        }
    }

    /// Removes the entry the person names (`paste --outbox drop ID`), whatever its state.
    ///
    /// - Returns: The entry removed.
    /// - Throws: `StoreError.noSuchEntry`, `.ambiguousEntry`, `.entryBusy` (a live run holds
    ///   it), or a removal failure.
    @discardableResult
    public func drop(id: String) throws(StoreError) -> OutboxEntry {
        let entry = try find(id: id)
        guard let lock = try FileLock.attempt(path: entry.contentPath, kind: .exclusive, creating: false) else {
            throw .entryBusy(id: entry.id)
        }
        try removeFiles(of: entry.name, files: try OutboxFiles(folder: folder))
        withExtendedLifetime(lock) {}
        return entry
    }

    /// Removes every entry no live run holds, and every file left by a dead one whatever its
    /// age (`paste --outbox drop --all`).
    ///
    /// - Returns: The ids dropped, and those left because a live run holds them.
    public func dropAll() throws(StoreError) -> OutboxDropResult {
        var result = OutboxDropResult()
        guard try AtomicFile.checkPrivateFolder(folder) else { return result }
        let files = try OutboxFiles(folder: folder)
        for name in files.entryNames {
            let contentPath = entry(named: name).contentPath
            var lock: FileLock?
            if files.contentNames.contains(name) {
                do {
                    lock = try FileLock.attempt(path: contentPath, kind: .exclusive, creating: false)
                    if lock == nil {
                        result.busy.append(OutboxEntry.id(ofName: name))
                        continue
                    }
                } catch .notRegularFile {
                    lock = nil  // a link or FIFO: removed below, never opened
                }
            }
            try removeFiles(of: name, files: files)
            withExtendedLifetime(lock) {}
            if files.contentNames.contains(name) && files.metadataNames.contains(name) {
                result.dropped.append(OutboxEntry.id(ofName: name))
            }
        }
        for path in files.strayTemporaries { try AtomicFile.remove(path) }
        return result
    }

    /// Removes an entry's files: the metadata first (it stops being an entry at once), its
    /// temporary files, then the content. The caller holds the entry's lock.
    private func removeFiles(of name: String, files: OutboxFiles) throws(StoreError) {
        let entry = entry(named: name)
        try AtomicFile.remove(entry.metadataPath)
        for path in files.temporaries[name] ?? [] { try AtomicFile.remove(path) }
        try AtomicFile.remove(entry.contentPath)
    }
}
