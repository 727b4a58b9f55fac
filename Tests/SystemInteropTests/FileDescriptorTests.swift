import Foundation
import Testing

@testable import SystemInterop

@Suite("FileDescriptor: open, read, write, status")
struct FileDescriptorTests {
    @Test("what is written is read back whole, past every chunk size readAll grows through")
    func writeThenReadAll() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("data")
        let bytes = pattern(count: 9 << 20 + 123)
        let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive])
        try file.writeAll(bytes)
        try file.close()
        #expect(try FileDescriptor.open(path, .readOnly).readAll() == bytes)
        #expect(try FileSystem.readFile(path).bytes == bytes)
    }

    @Test("readAll with a limit stops once past it (an endless writer), and reads a short input whole")
    func readAllLimit() throws {
        // /dev/zero never ends: only the limit stops the read.
        let zeros = try FileDescriptor.open("/dev/zero", .readOnly).readAll(limit: 100_000)
        #expect(zeros.count > 100_000)
        #expect(zeros.count <= 100_000 + 4 << 20)
        let folder = try TemporaryFolder()
        let path = folder.file("data")
        try FileDescriptor.open(path, .writeOnly, options: .create).writeAll(pattern(count: 1000))
        #expect(try FileDescriptor.open(path, .readOnly).readAll(limit: 1000) == pattern(count: 1000))
    }

    @Test("read(upTo:) stops at the count, or at the end of the file")
    func readUpTo() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("data")
        try FileDescriptor.open(path, .writeOnly, options: .create).writeAll(pattern(count: 1000))
        let file = try FileDescriptor.open(path, .readOnly)
        #expect(try file.read(upTo: 600) == Array(pattern(count: 1000)[0..<600]))
        #expect(try file.read(upTo: 600) == Array(pattern(count: 1000)[600...]))
        #expect(try file.read(upTo: 600) == [])
        #expect(try file.read(atOffset: 998, upTo: 10) == Array(pattern(count: 1000)[998...]))
    }

    @Test("read(atOffset:upTo:) of a large buffer (huge pages advised) holds exactly the bytes read")
    func readLargeAtOffset() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("data")
        let bytes = pattern(count: (9 << 20) + 5)
        try FileDescriptor.open(path, .writeOnly, options: .create).writeAll(bytes)
        let file = try FileDescriptor.open(path, .readOnly)
        #expect(try file.read(atOffset: 0, upTo: bytes.count + 1) == bytes)
        #expect(try file.read(atOffset: 3, upTo: 4 << 20) == Array(bytes[3..<(3 + (4 << 20))]))
        #expect(try file.read(atOffset: Int64(bytes.count), upTo: 4 << 20) == [])
    }

    @Test("forEachChunk hands every byte over once, in order, one chunk at a time")
    func chunks() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("data")
        let bytes = pattern(count: 300_001)
        try FileDescriptor.open(path, .writeOnly, options: .create).writeAll(bytes)
        var seen: [UInt8] = []
        var largest = 0
        try FileSystem.forEachChunk(ofFile: path, chunkSize: 65_536) { chunk in
            seen += chunk
            largest = max(largest, chunk.count)
        }
        #expect(seen == bytes)
        #expect(largest == 65_536)
    }

    @Test("create + exclusive reserves a name; permissions are set exactly")
    func exclusiveCreateAndPermissions() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("reserved")
        let file = try FileDescriptor.open(
            path, .writeOnly, options: [.create, .exclusive], permissions: .ownerReadWrite)
        #expect(throws: Errno.fileExists) {
            _ = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive])
        }
        try file.setPermissions(FilePermissions(rawValue: 0o640))
        #expect(try file.status().permissions == FilePermissions(rawValue: 0o640))
        #expect(try FileSystem.status(ofPath: path).kind == .regular)
    }

    @Test("noFollow refuses a symbolic link (ELOOP); without it the link is followed")
    func noFollow() throws {
        let folder = try TemporaryFolder()
        let target = folder.file("target")
        let link = folder.file("link")
        try FileDescriptor.open(target, .writeOnly, options: .create).writeAll(Array("secret".utf8))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: Errno.tooManySymbolicLinks) { _ = try FileDescriptor.open(link, .readOnly, options: .noFollow) }
        #expect(try FileDescriptor.open(link, .readOnly).readAll() == Array("secret".utf8))
        #expect(try FileSystem.status(ofPath: link, followingSymbolicLinks: false).kind == .symbolicLink)
    }

    @Test("descriptors are close-on-exec: a spawned program sees only its three streams")
    func closeOnExec() throws {
        let folder = try TemporaryFolder()
        let kept = try FileDescriptor.open(folder.file("kept"), .writeOnly, options: .create)
        let pair = try FileDescriptor.makeSocketPair()
        let ours = pair.first
        let theirs = pair.second
        let theirsInode = try theirs.status().inode
        // The child's descriptors are named by what they point at, not by number: ls opens its
        // listing at the lowest free number, which may be the very number `kept` has here.
        let child = try ChildProcess.spawn(
            "/bin/ls", arguments: ["ls", "-l", "/proc/self/fd"], environment: [:], standardInput: .null,
            standardOutput: .descriptor(theirs.rawValue), standardError: .null, newSession: false)
        _ = consume theirs
        let lines = String(decoding: try ours.readAll(), as: UTF8.self).split(separator: "\n")
        let targets = Dictionary(
            lines.compactMap { line -> (Int32, String)? in
                guard let arrow = line.range(of: " -> "),
                    let number = line[..<arrow.lowerBound].split(separator: " ").last,
                    let descriptor = Int32(number)
                else { return nil }
                return (descriptor, String(line[arrow.upperBound...]))
            }, uniquingKeysWith: { first, _ in first })
        #expect(child.waitForExit() == 0)
        // 0, 1, 2, the descriptor ls lists the folder with (and whatever the test runner leaked
        // to us without close-on-exec); never ours.
        #expect(Set(targets.keys).isSuperset(of: [0, 1, 2]))
        #expect(targets[1] == "socket:[\(theirsInode)]")
        let keptPath = URL(fileURLWithPath: folder.file("kept")).resolvingSymlinksInPath().path
        #expect(!targets.values.contains(keptPath))
        #expect(!targets.values.contains("socket:[\(try ours.status().inode)]"))
        _ = kept
    }

    @Test("a file is replaced atomically: fsync, rename over it, fsync the folder")
    func atomicReplace() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("config")
        try FileDescriptor.open(path, .writeOnly, options: .create).writeAll(Array("old".utf8))
        let reader = try FileDescriptor.open(path, .readOnly)
        let before = try reader.status()

        let temporary = folder.file(".config.tmp")
        let file = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .exclusive])
        try file.writeAll(Array("new".utf8))
        try file.sync()
        try file.close()
        try FileSystem.rename(temporary, to: path)
        try FileDescriptor.open(folder.path, .readOnly, options: .directory).sync()

        // The name points at the new file; a reader of the old one still reads the old bytes.
        #expect(try FileSystem.readFile(path).bytes == Array("new".utf8))
        #expect(try reader.readAll() == Array("old".utf8))
        #expect(!(try FileSystem.status(ofPath: path)).isSameFile(as: before))
        #expect(try FileSystem.entries(ofDirectory: folder.path) == ["config"])
        try FileSystem.removeFile(path)
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.removeFile(path) }
    }

    @Test("readFile refuses more than its limit (EFBIG) and a folder (EISDIR)")
    func readFileLimits() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("big")
        try FileDescriptor.open(path, .writeOnly, options: .create).writeAll(pattern(count: 100_000))
        #expect(throws: Errno.fileTooLarge) { _ = try FileSystem.readFile(path, limit: 99_999) }
        #expect(try FileSystem.readFile(path, limit: 100_000).bytes.count == 100_000)
        #expect(throws: Errno.isDirectory) { _ = try FileSystem.readFile(folder.path) }
        try FileSystem.createDirectory(folder.file("sub"))
        #expect(FileSystem.isDirectory(folder.file("sub")))
        #expect(throws: Errno.fileExists) { try FileSystem.createDirectory(folder.file("sub")) }
    }

    @Test("removeDirectory removes an empty folder only (ENOTEMPTY, then ENOENT once gone)")
    func removeDirectory() throws {
        let folder = try TemporaryFolder()
        let sub = folder.file("sub")
        try FileSystem.createDirectory(sub)
        try FileDescriptor.open(sub + "/kept", .writeOnly, options: .create).close()
        #expect(throws: Errno.directoryNotEmpty) { try FileSystem.removeDirectory(sub) }
        #expect(FileSystem.isDirectory(sub))
        try FileSystem.removeFile(sub + "/kept")
        try FileSystem.removeDirectory(sub)
        #expect(!FileSystem.isDirectory(sub))
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.removeDirectory(sub) }
    }

    @Test("readFile sizes its buffer by the file (512 bytes to 64 KiB) and reads every size whole")
    func readFileBufferSizes() throws {
        #expect(FileSystem.readChunkSize(forFileOf: 0) == 512)
        #expect(FileSystem.readChunkSize(forFileOf: 30) == 512)
        #expect(FileSystem.readChunkSize(forFileOf: 4096) == 4097)
        #expect(FileSystem.readChunkSize(forFileOf: 1 << 30) == 64 << 10)
        let folder = try TemporaryFolder()
        for count in [0, 1, 511, 512, 513, 4096, (64 << 10) - 1, 64 << 10, (64 << 10) + 1, 200_000] {
            let path = folder.file("file-\(count)")
            try FileDescriptor.open(path, .writeOnly, options: .create).writeAll(pattern(count: count))
            #expect(try FileSystem.readFile(path).bytes == pattern(count: count), "\(count) bytes")
        }
    }

    @Test("release hands the number on unclosed; withUnowned lends one without closing it")
    func ownership() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let first = pair.first
        let second = pair.second
        let raw = second.release()
        try FileDescriptor.withUnowned(raw) { (borrowed) throws(Errno) in try borrowed.writeAll([1, 2, 3]) }
        // Still open: the lending did not close it.
        try FileDescriptor.withUnowned(raw) { (borrowed) throws(Errno) in try borrowed.writeAll([4]) }
        try FileDescriptor(adopting: raw).close()
        #expect(try first.readAll() == [1, 2, 3, 4])
    }
}

@Suite("Locks: flock across descriptors")
struct LockTests {
    @Test("an exclusive lock excludes every other descriptor, even in this process, until closed")
    func exclusive() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("lock")
        let holder = try FileDescriptor.open(path, .readWrite, options: .create)
        try holder.lock(.exclusive)
        let other = try FileDescriptor.open(path, .readWrite)
        #expect(try other.tryLock(.exclusive) == false)
        #expect(try other.tryLock(.shared) == false)
        try holder.close()
        #expect(try other.tryLock(.exclusive) == true)
    }

    @Test("shared locks share, and keep an exclusive one out")
    func shared() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("lock")
        let first = try FileDescriptor.open(path, .readWrite, options: .create)
        let second = try FileDescriptor.open(path, .readOnly)
        let writer = try FileDescriptor.open(path, .readWrite)
        #expect(try first.tryLock(.shared))
        #expect(try second.tryLock(.shared))
        #expect(try writer.tryLock(.exclusive) == false)
    }

    @Test("a waiting lock is granted when the holder lets go")
    func waits() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("lock")
        let holder = try FileDescriptor.open(path, .readWrite, options: .create)
        try holder.lock(.exclusive)
        let worker = Worker { () throws -> Bool in
            let waiter = try FileDescriptor.open(path, .readWrite)
            try waiter.lock(.exclusive)
            return true
        }
        // The waiter cannot have it while we hold it.
        let probe = try FileDescriptor.open(path, .readWrite)
        #expect(try probe.tryLock(.exclusive) == false)
        #expect(!worker.isDone)
        try holder.close()
        #expect(try worker.value())
    }
}
