import PasteCore
import SystemInterop

extension Outbox {
    /// Removes the temporaries of an entry's metadata (`.N.json.tmp-…`) left by the runs that
    /// wrote it before and were killed while writing; the caller has just locked the entry,
    /// with its metadata in place, to send it (`claimDue`, `claim(id:)`).
    ///
    /// Every such file is dead: a metadata file is only ever written by the holder of the
    /// entry's lock (`AtomicFile.write`'s `.N.json.tmp-PID-…` is renamed or removed by the run
    /// that made it, before it lets the lock go), and the reading and pending files only exist
    /// before the metadata is in place, which it is. A recovery pass removes them for an entry
    /// it finds free; for one it finds busy (a background flush or a `--retry` sending it) it
    /// cannot tell them from the holder's own write under way, so the holder removes them
    /// here, as it claims the entry. Without this they outlived the entry, explained by no
    /// metadata, until `Outbox.strandedAge`. Best effort: a file that cannot be removed is
    /// left to the recovery pass.
    func removeDeadWritersTemporaries(of entry: OutboxEntry) {
        let prefix = "." + AtomicFile.nameOf(entry.metadataPath) + AtomicFile.temporaryMarker
        guard let names = try? FileSystem.entries(ofDirectory: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            try? AtomicFile.remove(folder + "/" + name)
        }
    }
}

extension Outbox {
    /// A file of the run's own in the outbox folder, with no name: made under a temporary name
    /// (`.scratch.tmp-PID-RANDOM`) and unlinked at once, so it is gone when the run ends,
    /// however it ends, and no listing or `--retry` ever takes it for an entry (a run killed
    /// between the two leaves a temporary that a recovery pass removes once stranded).
    ///
    /// For what a run makes and sends but keeps only should the send fail: the masked copy
    /// `--redact` makes of a text too large for memory, on disk beside the entries it may be
    /// copied into (`journal(.file(path:), _:)` through `/proc/self/fd/N`).
    ///
    /// - Returns: The file, open for reading and writing at offset 0.
    /// - Throws: `StoreError` when the folder or the file cannot be made.
    public func makeScratchFile() throws(StoreError) -> FileDescriptor {
        try AtomicFile.createPrivateFolder(folder)
        let path = AtomicFile.temporaryPath(for: folder + "/scratch")
        let file = try AtomicFile.open(
            path, .readWrite, options: [.create, .exclusive, .noFollow], permissions: AtomicFile.filePermissions)
        do {
            try FileSystem.removeFile(path)
        } catch {
            throw .cannotWrite(path: path, errno: error)
        }
        return file
    }
}
