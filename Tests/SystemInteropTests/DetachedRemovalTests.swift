import Foundation
import Testing

@testable import SystemInterop

/// `FileSystem.removeFileWhenReleased`: a detached process removes the file once this one
/// lets go of its lock, and inherits none of this process's descriptors.
@Suite("FileSystem: removal left to a detached process")
struct DetachedRemovalTests {
    @Test("a locked file stays until the lock is released, then goes; the remover holds none of our descriptors")
    func waitsForTheLock() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("large.content")
        let file = try FileDescriptor.open(path, .readWrite, options: [.create, .exclusive])
        try file.writeAll(Array(repeating: 0x61, count: 1 << 20))
        try file.lock(.exclusive)
        // A socket whose other end only this process should hold: once ours is closed, the
        // read end sees the end of file, unless the remover kept a copy of it.
        let pair = try FileDescriptor.makeSocketPair()
        let reader = pair.first
        let writer = pair.second
        try FileSystem.removeFileWhenReleased(path)
        try writer.close()
        #expect(try reader.readByte(before: ContinuousClock.now + .seconds(20)) == nil)
        // The remover is running, and cannot have the lock: the file is still there.
        #expect(FileManager.default.fileExists(atPath: path))
        try file.close()
        try waitUntil("\(path) removed once the lock was released") { !FileManager.default.fileExists(atPath: path) }
    }

    @Test("a file nobody locks is removed at once; a missing one is no error here")
    func unlocked() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("plain")
        try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive]).writeAll([1, 2, 3])
        try FileSystem.removeFileWhenReleased(path)
        try waitUntil("\(path) removed") { !FileManager.default.fileExists(atPath: path) }
        try FileSystem.removeFileWhenReleased(folder.file("missing"))
    }
}
