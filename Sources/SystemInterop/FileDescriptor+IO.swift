internal import CSystemShims
internal import Glibc

// MARK: - Reading

extension FileDescriptor {
    /// The first chunk `readAll` reads (it grows fourfold each time a read fills it).
    static let firstReadChunk = 64 << 10
    /// The largest chunk `readAll` grows to.
    static let largestReadChunk = 4 << 20

    /// Reads what is there into `buffer`: at least one byte, or 0 at end of file. Wraps `read`.
    ///
    /// `EINTR` is retried (unless `retryOnInterrupt` is false); on a non-blocking descriptor
    /// with nothing to read yet (`EAGAIN`) it waits with `poll`, so callers need not care how
    /// the descriptor was opened.
    /// - Returns: How many bytes were read; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
        while true {
            do {
                return try valueOrErrno(retryOnInterrupt: retryOnInterrupt) {
                    Glibc.read(rawValue, buffer.baseAddress, buffer.count)
                }
            } catch  where error == .wouldBlock {
                _ = try wait(for: .readable, before: nil)
            }
        }
    }

    /// Reads from the current offset to the end of file. Wraps `read`.
    ///
    /// Reads go into one chunk buffer that grows fourfold (64 KiB to 4 MiB) each time a read
    /// fills it, so a large input takes few calls, and are appended from there (a `memcpy`).
    /// - Parameters:
    ///   - idleTimeout: When given, how long to wait for each piece before giving up with
    ///     `Errno.timedOut` (a writer that went quiet); nil waits as long as it takes.
    ///   - limit: When given, reading stops as soon as more than `limit` bytes are in (the
    ///     result is then longer than `limit`, which tells the caller the input was too big):
    ///     a writer that never stops cannot fill memory.
    public func readAll(idleTimeout: Duration? = nil, limit: Int? = nil) throws(Errno) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: Self.firstReadChunk)
        while true {
            if let limit, result.count > limit { return result }
            if let idleTimeout, try !wait(for: .readable, before: .now + idleTimeout) { throw .timedOut }
            let count = try chunk.withMutableBytes { (buffer) throws(Errno) in try read(into: buffer) }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
            if count == chunk.count && chunk.count < Self.largestReadChunk {
                chunk = [UInt8](repeating: 0, count: chunk.count * 4)
            }
        }
    }

    /// Reads until `count` bytes are in or the file ends, whichever comes first. Wraps `read`.
    ///
    /// - Returns: At most `count` bytes; fewer only at end of file.
    public func read(upTo count: Int) throws(Errno) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try buffer.withMutableBytes { (whole) throws(Errno) in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: whole[filled...]))
            }
            if got == 0 { break }
            filled += got
        }
        buffer.removeSubrange(filled...)
        return buffer
    }

    /// Reads what is there now, at most `count` bytes, in one read: for a pipe whose writer may
    /// stay quiet, after `wait(for: .readable, …)`. Wraps `read`.
    ///
    /// - Returns: The bytes read; empty at end of file.
    public func readAvailable(upTo count: Int) throws(Errno) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = try buffer.withMutableBytes { (whole) throws(Errno) in try read(into: whole) }
        buffer.removeSubrange(got...)
        return buffer
    }

    /// Reads to the end of file in chunks, handing each to `body` as it comes; memory stays at
    /// one chunk whatever the size. Wraps `read`.
    ///
    /// - Throws: `Errno` when a read fails, or whatever `body` throws.
    public func forEachChunk(
        chunkSize: Int = 1 << 20, _ body: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = try chunk.withMutableBytes { (buffer) throws(Errno) in try read(into: buffer) }
            if count == 0 { return }
            try body(chunk[0..<count])
        }
    }

    /// Reads at most `limit` bytes in chunks of up to `chunkSize`, into one buffer used again
    /// for every read, handing each chunk to `body` the moment it is read. Wraps `read`.
    ///
    /// - Returns: Whether the file ended before `limit` bytes were read (false: `limit` bytes
    ///   were read and the rest is still to be read).
    public func forEachChunk(
        upTo limit: Int, chunkSize: Int, _ body: (ArraySlice<UInt8>) -> Void
    ) throws(Errno) -> Bool {
        var chunk = [UInt8](repeating: 0, count: min(chunkSize, limit))
        var total = 0
        while total < limit {
            let wanted = min(chunk.count, limit - total)
            let count = try chunk.withMutableBytes { buffer throws(Errno) in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
            }
            if count == 0 { return true }
            total += count
            body(chunk[0..<count])
        }
        return false
    }

    /// Moves up to `count` bytes from the pipe `source` to this descriptor (at its offset), in
    /// the kernel: a byte leaves the pipe only as it lands here, so none is ever held in this
    /// process alone. Wraps `splice` (`csystem_splice`); a non-blocking `source` with nothing
    /// yet is waited for with `poll`.
    ///
    /// - Returns: How many bytes moved; 0 at the pipe's end.
    /// - Throws: `Errno.invalidArgument` when `source` is not a pipe or this descriptor cannot
    ///   take a splice (opened with `O_APPEND`): read and write instead.
    public func splice(from source: borrowing FileDescriptor, upTo count: Int) throws(Errno) -> Int {
        while true {
            do {
                return try valueOrErrno { csystem_splice(source.rawValue, rawValue, UInt(count)) }
            } catch  where error == .wouldBlock {
                _ = try source.wait(for: .readable, before: nil)
            }
        }
    }

    /// Reads up to `count` bytes at `offset`, leaving the file offset alone. Wraps `pread`.
    ///
    /// - Returns: The bytes; fewer than `count` (or none) past the end of file.
    public func read(atOffset offset: Int64, upTo count: Int) throws(Errno) -> [UInt8] {
        // Not zeroed first, and a large buffer is backed by huge pages where the kernel has them
        // (`Memory.adviseHugePages`): a stream's 8 MiB start, read back from its outbox entry
        // before the first byte is sent, took 2,048 page faults and a memset.
        var failure: Errno?
        let buffer = [UInt8](unsafeUninitializedCapacity: count) { whole, initialized in
            if count >= Memory.hugePageSize, let base = whole.baseAddress {
                Memory.adviseHugePages(UnsafeMutableRawPointer(base), count: count)
            }
            do throws(Errno) {
                initialized = try valueOrErrno { pread(rawValue, whole.baseAddress, count, off_t(offset)) }
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return buffer
    }

    /// Reads one byte, waiting until `deadline`. Wraps `poll` + `read`.
    ///
    /// - Returns: The byte, or nil at end of file.
    /// - Throws: `Errno.timedOut` at the deadline, or the read's `Errno`.
    public func readByte(before deadline: ContinuousClock.Instant) throws(Errno) -> UInt8? {
        guard try wait(for: .readable, before: deadline) else { throw .timedOut }
        var byte: [UInt8] = [0]
        let count = try byte.withMutableBytes { (buffer) throws(Errno) in try read(into: buffer) }
        return count == 1 ? byte[0] : nil
    }
}

// MARK: - Writing

extension FileDescriptor {
    /// Writes all of `bytes`, continuing after short writes. Wraps `write`.
    ///
    /// `EINTR` is retried; on a non-blocking descriptor that is full (`EAGAIN`) it waits with
    /// `poll`. Each `write` of a regular file opened with `append` lands at the end as one piece.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        let outcome = bytes.withUnsafeBytes { buffer -> Result<Int, Errno> in
            Result { () throws(Errno) in try writeAll(buffer) }
        }
        _ = try outcome.get()
    }

    /// Writes all of `buffer` (see `writeAll(_: [UInt8])`).
    ///
    /// - Returns: `buffer.count`.
    @discardableResult
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        var offset = 0
        while offset < buffer.count {
            do {
                offset += try valueOrErrno {
                    Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset)
                }
            } catch  where error == .wouldBlock {
                _ = try wait(for: .writable, before: nil)
            }
        }
        return offset
    }

    /// Writes all of `bytes` before `deadline`, for a pipe whose reader may stall. Wraps
    /// `write` + `poll`.
    ///
    /// The descriptor should be non-blocking (`setNonBlocking`), or a full pipe blocks past the
    /// deadline. A vanished reader raises `SIGPIPE` unless the process ignores it
    /// (`Signal.ignore`): then it is `Errno.brokenPipe`.
    /// - Throws: `Errno.timedOut` at the deadline, or the write's `Errno`.
    public func writeAll(_ bytes: [UInt8], before deadline: ContinuousClock.Instant) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let outcome = bytes.withUnsafeBytes { buffer -> Result<Int, Errno> in
                Result { () throws(Errno) in
                    try valueOrErrno { Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset) }
                }
            }
            switch outcome {
            case .success(let written): offset += written
            case .failure(.wouldBlock): if try !wait(for: .writable, before: deadline) { throw .timedOut }
            case .failure(let error): throw error
            }
        }
    }

    /// Sends all of `bytes` on a socket before `deadline`, never raising `SIGPIPE`.
    /// Wraps `send(MSG_NOSIGNAL)` + `poll`.
    ///
    /// - Throws: `Errno.brokenPipe` when the reader is gone, `.timedOut` at the deadline.
    public func sendAll(_ bytes: [UInt8], before deadline: ContinuousClock.Instant) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let outcome = bytes.withUnsafeBytes { buffer -> Result<Int, Errno> in
                Result { () throws(Errno) in
                    try valueOrErrno {
                        send(rawValue, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    }
                }
            }
            switch outcome {
            case .success(let sent): offset += sent
            case .failure(.wouldBlock): if try !wait(for: .writable, before: deadline) { throw .timedOut }
            case .failure(let error): throw error
            }
        }
    }
}

// MARK: - Waiting

extension FileDescriptor {
    /// What `wait(for:before:)` waits for.
    public enum Readiness: Sendable {
        /// `POLLIN`: there is something to read (or end of file, or an error to read).
        case readable
        /// `POLLOUT`: a write would not block.
        case writable
        /// `POLLIN | POLLOUT`: either (a connection with bytes queued to send that must also
        /// read what its peer answers meanwhile, such as a D-Bus connection).
        case readableOrWritable

        var events: Int16 {
            switch self {
            case .readable: Int16(POLLIN)
            case .writable: Int16(POLLOUT)
            case .readableOrWritable: Int16(POLLIN | POLLOUT)
            }
        }
    }

    /// Waits until the descriptor is ready or `deadline` passes. Wraps `poll`.
    ///
    /// An interrupted `poll` is called again with the time that is left, so a signal never
    /// stretches the deadline. Readiness includes `POLLHUP`/`POLLERR`: the next read or write
    /// then reports what happened.
    /// - Parameter deadline: When to give up; nil waits as long as it takes.
    /// - Returns: true when ready, false at the deadline.
    public func wait(for readiness: Readiness, before deadline: ContinuousClock.Instant?) throws(Errno) -> Bool {
        try Self.poll(rawDescriptor: rawValue, for: readiness, before: deadline) != nil
    }

    /// `poll`'s timeout for a duration: whole milliseconds, rounded up (so a wait never ends
    /// just before its deadline and spins), at most `Int32.max`.
    static func pollMilliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: duration.millisecondsRoundedUp)
    }
}

// MARK: - Buffers

extension Array where Element == UInt8 {
    /// Runs `body` on the array's bytes and passes its `Errno` through typed
    /// (`withUnsafeMutableBytes` rethrows untyped): every read into an array goes through here.
    ///
    /// The pointer never outlives `body`.
    mutating func withMutableBytes<Value>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Errno) -> Value
    ) throws(Errno) -> Value {
        let outcome = withUnsafeMutableBytes { buffer -> Result<Value, Errno> in
            Result { () throws(Errno) in try body(buffer) }
        }
        return try outcome.get()
    }
}
