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
