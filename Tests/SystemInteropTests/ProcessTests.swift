import Foundation
import Glibc
import Testing

@testable import SystemInterop

@Suite("Processes: spawn, wait, signals, environment")
struct ProcessTests {
    /// Runs `arguments` with stdout captured.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: [UInt8]) {
        let pair = try FileDescriptor.makeSocketPair()
        let ours = pair.first
        let theirs = pair.second
        let child = try ChildProcess.spawn(
            arguments[0], arguments: arguments, environment: environment, standardInput: .null,
            standardOutput: .descriptor(theirs.rawValue), standardError: .null, newSession: false)
        _ = consume theirs
        let output = try ours.readAll(idleTimeout: .seconds(20))
        return (child.waitForExit(), output)
    }

    @Test("exit statuses come back as the shell reports them")
    func exitStatus() throws {
        #expect(try run(["/bin/true"]).status == 0)
        #expect(try run(["/bin/false"]).status == 1)
        #expect(try run(["/bin/echo", "hello", "world"]).output == Array("hello world\n".utf8))
    }

    @Test("the child gets exactly the environment given, and argv as given")
    func environmentAndArguments() throws {
        let result = try run(["/usr/bin/env"], environment: ["PASTE_A": "1", "PASTE_B": "x=y"])
        let lines = Set(String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init))
        #expect(lines == ["PASTE_A=1", "PASTE_B=x=y"])
    }

    @Test("a killed child reports 128 + the signal; exitStatusIfEnded does not wait")
    func killed() throws {
        let child = try ChildProcess.spawn(
            "/bin/sleep", arguments: ["sleep", "60"], environment: [:], standardInput: .null, standardOutput: .null,
            standardError: .null, newSession: true)
        #expect(child.exitStatusIfEnded() == nil)
        #expect(getsid(child.id) == child.id, "it leads its own session")
        try child.send(.kill)
        #expect(child.waitForExit() == 128 + SIGKILL)
        #expect(throws: Errno.noSuchProcess) { try child.send(.kill) }
    }

    @Test("a program that does not exist is ENOENT from spawn")
    func missingProgram() {
        #expect(throws: Errno.noSuchFileOrDirectory) {
            _ = try ChildProcess.spawn(
                "/nonexistent/paste", arguments: ["paste"], environment: [:], standardInput: .null,
                standardOutput: .null, standardError: .null, newSession: false)
        }
    }

    @Test("the environment is read byte-wise: every entry, split at its first '='")
    func environment() {
        #expect(CurrentProcess.environment() == ProcessInfo.processInfo.environment)
    }

    @Test("this test process has threads, so it is not single-threaded")
    func threads() throws {
        let parked = Worker { () throws -> Int in
            let pair = try FileDescriptor.makeSocketPair()
            return try pair.first.readAll(idleTimeout: .seconds(60)).count
        }
        try waitUntil("the worker to run") { parked.hasStarted }
        let threads = try #require(CurrentProcess.threadCount())
        #expect(threads >= 2)
        #expect(!CurrentProcess.isSingleThreaded)
        #expect(CurrentProcess.id == getpid())
        #expect(CurrentProcess.userID == getuid())
    }

    @Test("a process of one thread is single-threaded: a child forked from this one says so")
    func singleThreadedChild() throws {
        // The child runs one system call and `_exit`: nothing a lock another thread held could stop.
        let pid = Glibc.fork()
        if pid == 0 { _exit(CurrentProcess.isSingleThreaded ? 0 : 1) }
        try #require(pid > 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        #expect(status == 0)
        #expect(!CurrentProcess.isSingleThreaded)
    }

    @Test("num_threads is the 20th field of /proc/PID/stat, whatever the command name holds")
    func statLine() {
        let line = Array("4242 (a (b) c) S 1 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 7 0 1 2 3\n".utf8)
        #expect(CurrentProcess.threadCount(fromStatLine: line[...]) == 7)
        #expect(CurrentProcess.threadCount(fromStatLine: Array("4242 (x) S 1".utf8)[...]) == nil)
    }

    @Test("getrandom fills what is asked, differently each time")
    func random() throws {
        let first = try SystemRandom.bytes(count: 64)
        let second = try SystemRandom.bytes(count: 64)
        #expect(first.count == 64)
        #expect(first != second)
        #expect(try SystemRandom.bytes(count: 0) == [])
    }

    @Test("Memory.contains finds a byte anywhere, and only when it is there")
    func memchr() {
        var bytes = [UInt8](repeating: 65, count: 100_000)
        #expect(!Memory.contains(0, in: bytes))
        bytes[99_999] = 0
        #expect(Memory.contains(0, in: bytes))
        #expect(!Memory.contains(0, in: []))
    }

    /// `Memory.firstNonASCII` over `bytes` from `start` (a span cannot be passed through `#expect`).
    func firstNonASCII(_ bytes: [UInt8], from start: Int) -> Int { Memory.firstNonASCII(in: bytes.span, from: start) }

    @Test("Memory.firstNonASCII finds the first byte with its high bit set, in every place of its steps")
    func firstNonASCII() {
        let ascii = [UInt8](repeating: 0x7F, count: 131)
        #expect(firstNonASCII(ascii, from: 0) == 131)
        #expect(firstNonASCII([], from: 0) == 0)
        #expect(firstNonASCII(ascii, from: 131) == 131)
        for place in 0..<ascii.count {
            for high: UInt8 in [0x80, 0xC3, 0xFF] {
                var bytes = ascii
                bytes[place] = high
                // And a second one later, which must not be found first.
                if place + 9 < bytes.count { bytes[place + 9] = 0x80 }
                for start in [0, place / 2, place] {
                    #expect(firstNonASCII(bytes, from: start) == place, "\(high) at \(place) from \(start)")
                }
                #expect(firstNonASCII(bytes, from: place + 1) == (place + 9 < bytes.count ? place + 9 : 131))
            }
        }
    }
}

@Suite("TeeWriter: a stream's copy on disk")
struct TeeWriterTests {
    @Test("every byte appended lands in order, across full blocks and an unaligned tail")
    func landsInOrder() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tee")
        let bytes = pattern(count: 5 * TeeWriter.blockSize + 12_345)
        let tee = try TeeWriter(path: path)
        var offset = 0
        for size in [1, 4095, 70_000, 1 << 20, 3 << 20, 7] {
            let end = min(bytes.count, offset + size)
            try bytes[offset..<end].withUnsafeBytes { try tee.append($0) }
            offset = end
        }
        try bytes[offset...].withUnsafeBytes { try tee.append($0) }
        try tee.flush()
        #expect(try sameBytes(FileSystem.readFile(path).bytes, bytes))
        #expect(try FileSystem.status(ofPath: path).permissions == .ownerReadWrite)
    }

    @Test(
        "continuing a file that holds the start: the start is observed, not written again; the count says so",
        arguments: [8 * TeeWriter.blockSize, 3 * TeeWriter.blockSize + 777])
    func continuing(_ held: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tee")
        let bytes = pattern(count: held + 2 * TeeWriter.blockSize + 4_321)
        FileManager.default.createFile(atPath: path, contents: Data(bytes[..<held]))
        let tee = try TeeWriter(path: path, continuing: held)
        let seen = ObservedBlocks()
        tee.observe { block in
            seen.bytes += block
            return true
        }
        for start in stride(from: 0, to: bytes.count, by: 300_000) {
            try bytes[start..<min(bytes.count, start + 300_000)].withUnsafeBytes { try tee.append($0) }
        }
        try tee.flush()
        #expect(try sameBytes(FileSystem.readFile(path).bytes, bytes))
        // Written once: only what followed the start went to the file.
        #expect(tee.bytesWritten == Int64(bytes.count - held))
        #expect(sameBytes(seen.bytes, bytes))
    }

    @Test(
        "an observer sees every byte on the writer's thread, in order, by the end of flush; stopped, not asked again")
    func observer() throws {
        let folder = try TemporaryFolder()
        let bytes = pattern(count: 3 * TeeWriter.blockSize + 4_321)
        for stopAfter in [Int.max, 2] {
            let path = folder.file("tee-\(stopAfter)")
            let tee = try TeeWriter(path: path)
            let seen = ObservedBlocks()
            tee.observe { block in
                seen.calls += 1
                seen.bytes += block
                return seen.calls < stopAfter
            }
            for start in stride(from: 0, to: bytes.count, by: 100_000) {
                try bytes[start..<min(bytes.count, start + 100_000)].withUnsafeBytes { try tee.append($0) }
            }
            try tee.flush()
            // The bytes land whatever the observer said.
            #expect(try sameBytes(FileSystem.readFile(path).bytes, bytes))
            if stopAfter == Int.max {
                #expect(sameBytes(seen.bytes, bytes))
                #expect(seen.calls == 4)
                #expect(!tee.isObserverStopped)
            } else {
                #expect(seen.calls == stopAfter)
                #expect(seen.bytes == Array(bytes.prefix(stopAfter * TeeWriter.blockSize)))
                #expect(tee.isObserverStopped)
            }
        }
    }

    @Test("blocks appended faster than they are written land whole and in order (written together when they wait)")
    func blocksThatWait() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tee")
        // One append of more blocks than the tee holds: the reader waits for free blocks, and the
        // blocks observed while a write is under way go out in one request.
        let bytes = pattern(count: 3 * TeeWriter.blockCount * TeeWriter.blockSize + 999)
        let tee = try TeeWriter(path: path)
        let seen = ObservedBlocks()
        tee.observe { block in
            seen.calls += 1
            seen.bytes += block
            return true
        }
        try bytes.withUnsafeBytes { try tee.append($0) }
        try tee.flush()
        #expect(try sameBytes(FileSystem.readFile(path).bytes, bytes))
        #expect(sameBytes(seen.bytes, bytes))
        #expect(seen.calls == 3 * TeeWriter.blockCount + 1)
    }

    @Test(
        "a follower sees every byte, in order, beside an observer that stops; the file and the count are whole",
        arguments: [
            0, 1, TeeWriter.blockSize - 1, TeeWriter.blockSize, TeeWriter.blockSize + 1,
            TeeWriter.blockCount * TeeWriter.blockSize, TeeWriter.blockCount * TeeWriter.blockSize + 1,
            3 * TeeWriter.blockCount * TeeWriter.blockSize + 999,
        ])
    func follower(_ count: Int) throws {
        let folder = try TemporaryFolder()
        let bytes = pattern(count: count)
        for (held, stopAfter) in [(0, Int.max), (0, 1), (min(count, 3 * TeeWriter.blockSize + 5), 2)] {
            let path = folder.file("tee-\(held)-\(stopAfter)")
            FileManager.default.createFile(atPath: path, contents: Data(bytes[..<held]))
            let tee = try TeeWriter(path: path, continuing: held)
            let observed = ObservedBlocks()
            let followed = ObservedBlocks()
            tee.observe { block in
                observed.calls += 1
                return observed.calls < stopAfter
            }
            tee.follow { block in
                followed.calls += 1
                followed.bytes += block
            }
            // Appends of uneven sizes: blocks fill across them.
            var start = 0
            var step = 1
            while start < bytes.count {
                let end = min(bytes.count, start + step)
                try bytes[start..<end].withUnsafeBytes { try tee.append($0) }
                start = end
                step = step * 7 + 4093
            }
            try tee.flush()
            #expect(sameBytes(followed.bytes, bytes), "held \(held), observer stops after \(stopAfter)")
            #expect(followed.calls == (count + TeeWriter.blockSize - 1) / TeeWriter.blockSize)
            #expect(try sameBytes(FileSystem.readFile(path).bytes, bytes))
            #expect(tee.bytesWritten == Int64(count - held))
            #expect(tee.isObserverStopped == (stopAfter <= observed.calls && count > 0))
            // Flushed again (as the handle does after any transfer): nothing more is followed.
            try tee.flush()
            #expect(followed.bytes.count == count)
        }
    }

    @Test("a tee that cannot be opened says why")
    func cannotOpen() {
        #expect(throws: Errno.noSuchFileOrDirectory) { _ = try TeeWriter(path: "/nonexistent/folder/tee") }
    }
}

/// What a tee's observer saw (on the tee's thread; read after `flush`).
private final class ObservedBlocks {
    var calls = 0
    var bytes: [UInt8] = []
}
