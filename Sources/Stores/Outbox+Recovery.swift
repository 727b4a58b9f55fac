import FoundationEssentials
import PasteCore
import SystemInterop

extension Outbox {
    // MARK: - Listing and the recovery pass

    /// Lists the entries, oldest first, after a recovery pass that settles what dead runs left.
    ///
    /// Each entry's content is locked for a moment (`flock(LOCK_NB)`): an entry a live run holds
    /// is listed busy and left alone. Of the others, the pass:
    /// - settles an entry `in-flight` (its run died while sending): whole, it becomes `held`
    ///   (one more attempt, `OutboxFailure.interrupted`); not whole, it is removed;
    /// - settles an entry `writing`: whole (its length was recorded first), it becomes
    ///   `retryable`, since nothing was sent; not whole, it is removed;
    /// - removes a content that is a symbolic link, a FIFO or a device, without reading it;
    /// - removes the entry's leftover temporary files (every metadata write holds the lock);
    /// - removes, once older than `strandedAge` (by modification time), what no metadata
    ///   explains: a content without metadata, metadata that does not decode (with its content),
    ///   metadata without a content, a stray temporary file.
    /// Every change is durable. An entry whose content is not the length recorded is listed and
    /// reported as a problem, never removed.
    ///
    /// - Parameter recovering: false for a look that changes nothing (`paste --retry -n`).
    /// - Throws: `StoreError` when the folder cannot be read or is not paste's own; a problem
    ///   with one entry is in `problems` and does not stop the rest.
    public func listing(recovering: Bool = true) throws(StoreError) -> OutboxListing {
        var listing = OutboxListing()
        guard try AtomicFile.checkPrivateFolder(folder) else { return listing }
        let files = try OutboxFiles(folder: folder)
        for name in files.entryNames {
            inspect(name, files: files, recovering: recovering, into: &listing)
        }
        if recovering {
            for path in files.strayTemporaries where isStranded(path) {
                removeReporting(path, name: AtomicFile.nameOf(path), .removedTemporary, into: &listing)
            }
        }
        return listing
    }

    /// The entries `paste --retry` sends now, oldest first: retryable, whole, held by no run,
    /// their backoff over. Runs the recovery pass first.
    public func dueEntries() throws(StoreError) -> [OutboxEntry] {
        let now = now()
        return try listing().items.filter { $0.isDue(at: now) }.map(\.entry)
    }

    /// Lists one entry (see `listing`).
    private func inspect(_ name: String, files: OutboxFiles, recovering: Bool, into listing: inout OutboxListing) {
        let entry = entry(named: name)
        let temporaries = files.temporaries[name] ?? []
        guard files.contentNames.contains(name) else {
            guard recovering else { return }
            if files.metadataNames.contains(name), isStranded(entry.metadataPath) {
                removeReporting(entry.metadataPath, name: name, .removedOrphanMetadata, into: &listing)
            }
            for path in temporaries where isStranded(path) {
                removeReporting(path, name: name, .removedTemporary, into: &listing)
            }
            return
        }
        let lock: FileLock?
        do {
            lock = try FileLock.attempt(path: entry.contentPath, kind: .exclusive, creating: false)
        } catch .notRegularFile(let path, let kind) {
            // A link, FIFO or device: never opened for reading, never sent.
            guard recovering else {
                listing.problems.append(.notRegularFile(path: path, kind: kind))
                return
            }
            removeReporting(entry.contentPath, name: name, .removedNotRegular(kind: kind), into: &listing)
            for path in [entry.metadataPath] + temporaries { try? AtomicFile.remove(path) }
            return
        } catch {
            listing.problems.append(error)
            return
        }
        guard let lock else {
            listBusy(entry, into: &listing)
            return
        }
        // A run that finished the entry removed it before letting go.
        guard lock.isStillLinked else { return }
        if recovering {
            // A whole content under its pending metadata: its run died just before naming it.
            if temporaries.contains(entry.pendingMetadataPath) { adoptPending(entry) }
            for path in temporaries where Outbox.exists(path) {
                removeReporting(path, name: name, .removedTemporary, into: &listing)
            }
        }
        let loaded: OutboxEntry
        do {
            guard let found = try loadMetadata(entry) else {
                if recovering, isStranded(entry.contentPath) {
                    let size = (try? lock.file.status().size) ?? 0
                    removeReporting(entry.contentPath, name: name, .removedStranded(byteCount: size), into: &listing)
                }
                return
            }
            loaded = found
        } catch .corruptMetadata(let path) {
            if recovering, isStranded(path) {
                removeReporting(path, name: name, .removedCorrupt, into: &listing)
                try? AtomicFile.remove(entry.contentPath)
            } else {
                listing.problems.append(.corruptMetadata(path: path))
            }
            return
        } catch {
            listing.problems.append(error)
            return
        }
        let claim = OutboxClaim(outbox: self, entry: loaded, lock: lock, isDurable: true)
        do {
            if recovering, let recovery = try settleOrphan(claim) {
                listing.recovered.append(recovery)
                if claim.isRemoved { return }
            }
            let item = OutboxListing.Item(
                entry: claim.entry, isBusy: false, contentSize: try claim.contentSize(),
                preview: preview(of: claim.entry, reading: lock.file))
            if let expected = item.entry.metadata.byteCount, !item.isWhole, item.state != .writing {
                listing.problems.append(
                    .incompleteContent(path: entry.contentPath, expected: expected, actual: item.contentSize))
            }
            listing.items.append(item)
        } catch {
            listing.problems.append(error)
        }
    }

    /// Lists an entry a live run holds, reading its metadata without the lock (it is only ever
    /// replaced whole); skipped when it has none yet (being made) or it is gone.
    private func listBusy(_ entry: OutboxEntry, into listing: inout OutboxListing) {
        guard let loaded = try? loadMetadata(entry),
            let content = try? AtomicFile.openRegular(entry.contentPath, .readOnly),
            let size = try? content.status().size
        else { return }
        listing.items.append(
            OutboxListing.Item(
                entry: loaded, isBusy: true, contentSize: size, preview: preview(of: loaded, reading: content)))
    }

    /// Puts the pending metadata of an entry whose run died between writing its content and
    /// naming it (`Outbox.create(_:content:)`, `OutboxClaim.finishReading`) in place, as `writing`, when there is no metadata
    /// yet and the content is the length it records: the settling that follows makes it
    /// `retryable` (nothing was sent before the rename). Anything else is left for removal.
    private func adoptPending(_ entry: OutboxEntry) {
        let pending = entry.pendingMetadataPath
        guard !Outbox.exists(entry.metadataPath),
            let bytes = try? AtomicFile.read(pending, limit: Outbox.maximumMetadataBytes)
        else { return }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        // Without a length, the pending file is a finished read's (`finishReading`): the read
        // reached its end before the file got this name, so the content is whole.
        guard var metadata = try? decoder.decode(OutboxEntry.Metadata.self, from: Data(bytes)),
            let status = try? FileSystem.status(ofPath: entry.contentPath, followingSymbolicLinks: false),
            status.size == metadata.byteCount ?? status.size
        else { return }
        metadata.byteCount = status.size
        metadata.state = .writing
        guard let encoded = try? Outbox.encode(metadata, path: entry.metadataPath),
            (try? AtomicFile.write(encoded, to: entry.metadataPath)) != nil
        else { return }
        try? AtomicFile.remove(pending)
    }

    /// Whether anything is at `path` (a link itself counts). Wraps `lstat`.
    static func exists(_ path: String) -> Bool {
        (try? FileSystem.status(ofPath: path, followingSymbolicLinks: false)) != nil
    }

    /// Settles an entry `writing` or `in-flight` whose run died (the caller holds its lock);
    /// nil when the entry is in another state and needs nothing.
    func settleOrphan(_ claim: OutboxClaim) throws(StoreError) -> OutboxRecovery? {
        let state = claim.state
        guard state == .writing || state == .inFlight else { return nil }
        let entry = claim.entry
        if try claim.isWhole() {
            if state == .writing {
                try claim.settleDurably(as: .retryable)
                return OutboxRecovery(name: entry.name, path: entry.contentPath, action: .completed)
            }
            try claim.recordFailure(.interrupted)
            return OutboxRecovery(name: entry.name, path: entry.contentPath, action: .held)
        }
        let size = try claim.contentSize()
        try claim.discard()
        return OutboxRecovery(name: entry.name, path: entry.contentPath, action: .removedIncomplete(byteCount: size))
    }

    /// The first line of a text entry's content (nil for binary content).
    private func preview(of entry: OutboxEntry, reading file: borrowing FileDescriptor) -> String? {
        if let type = entry.metadata.contentType, !type.lowercased().hasPrefix("text/") { return nil }
        guard let start = try? file.read(atOffset: 0, upTo: Outbox.previewBytes) else { return nil }
        return HistoryRecord.preview(of: start)
    }

    /// How much of a content the preview looks at (as `HistoryRecord.preview` does).
    static let previewBytes = 4096

    /// Whether a file no metadata explains is old enough to remove (see `strandedAge`); false
    /// when it is gone.
    private func isStranded(_ path: String) -> Bool {
        guard let status = try? FileSystem.status(ofPath: path, followingSymbolicLinks: false) else { return false }
        return age(of: status) >= Outbox.strandedAge
    }

    /// Removes a file and reports it, or reports why it could not be removed.
    private func removeReporting(
        _ path: String, name: String, _ action: OutboxRecovery.Action, into listing: inout OutboxListing
    ) {
        do {
            try AtomicFile.remove(path)
            listing.recovered.append(OutboxRecovery(name: name, path: path, action: action))
        } catch {
            listing.problems.append(error)
        }
    }
}

/// The files of an outbox folder, sorted out by the entry they belong to.
struct OutboxFiles {
    /// Names with a content file (`N.content`).
    var contentNames: Set<String> = []
    /// Names with a metadata file (`N.json`).
    var metadataNames: Set<String> = []
    /// The temporary files of each name's metadata writes (`.N.json.tmp-…`), as paths.
    var temporaries: [String: [String]] = [:]
    /// Temporary files of no entry (any other name holding `.tmp`), as paths.
    var strayTemporaries: [String] = []

    /// Every entry name with any file, sorted (creation order).
    var entryNames: [String] {
        contentNames.union(metadataNames).union(temporaries.keys).sorted()
    }

    /// Reads the folder's names; files paste does not make (and does not name `.tmp`) are left
    /// out, and alone.
    init(folder: String) throws(StoreError) {
        let names: [String]
        do {
            names = try FileSystem.entries(ofDirectory: folder)
        } catch {
            if error == .noSuchFileOrDirectory { return }
            throw .cannotRead(path: folder, errno: error)
        }
        let metadataTemporary = OutboxEntry.metadataSuffix + AtomicFile.temporaryMarker
        for name in names {
            if name.hasPrefix("."), let marker = name.firstRange(of: metadataTemporary) {
                let entryName = String(name[name.index(after: name.startIndex)..<marker.lowerBound])
                temporaries[entryName, default: []].append(folder + "/" + name)
            } else if !name.hasPrefix("."), name.hasSuffix(OutboxEntry.contentSuffix) {
                contentNames.insert(String(name.dropLast(OutboxEntry.contentSuffix.count)))
            } else if !name.hasPrefix("."), name.hasSuffix(OutboxEntry.metadataSuffix) {
                metadataNames.insert(String(name.dropLast(OutboxEntry.metadataSuffix.count)))
            } else if name.contains(".tmp") {
                strayTemporaries.append(folder + "/" + name)
            }
        }
    }
}
