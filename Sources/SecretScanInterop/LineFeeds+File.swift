internal import Glibc

extension LineFeeds {
    /// The line feeds of a file's first blocks: how many come before each block, and where the
    /// last of each block is. What puts a finding of the secret guard on its line without
    /// counting the whole text on the thread that scans it (`SecretGuard.scan(filePath:)`).
    public struct FileIndex: Sendable, Equatable {
        /// The length of a block (the last block read, if shorter, is left out).
        public let blockBytes: Int
        /// `feedsBefore[k]`: the line feeds of blocks `0..<k` (one more entry than blocks).
        public private(set) var feedsBefore: [Int] = [0]
        /// `lastFeeds[k]`: the offset of the last line feed of block `k`, nil when it has none.
        public private(set) var lastFeeds: [Int?] = []

        /// An index of no block yet.
        public init(blockBytes: Int) {
            precondition(blockBytes > 0, "a block holds bytes")
            self.blockBytes = blockBytes
        }

        /// How many whole blocks from the file's start are counted.
        public var blocks: Int { lastFeeds.count }

        /// Counts the next block, `text`, whose first byte is at offset `blocks * blockBytes`.
        public mutating func append(block text: Span<UInt8>) {
            precondition(text.count == blockBytes, "a whole block")
            let (count, last) = LineFeeds.count(in: text, from: 0, to: text.count)
            let start = blocks * blockBytes
            feedsBefore.append(feedsBefore[blocks] + count)
            lastFeeds.append(last.map { start + $0 })
        }

        /// Where the last line feed before block `block` is (nil: there is none before it).
        public func lastFeed(before block: Int) -> Int? {
            var index = min(block, blocks) - 1
            while index >= 0 {
                if let last = lastFeeds[index] { return last }
                index -= 1
            }
            return nil
        }
    }

    /// Counts the line feeds of the file open as `descriptor` from its start, a block at a time
    /// (`pread` into one buffer used again; the descriptor's offset is left alone, so another
    /// thread may `read` it meanwhile), as far as `progress()` says is there, until it says
    /// that is final and it is reached, the file ends, or a read fails.
    ///
    /// `progress()` is asked before each read: how many bytes may be read (a thread scanning
    /// the file says how far it has read, so this one follows it over what is still in the
    /// processor's caches), and whether that is the end. While it is not, whole blocks are read
    /// as they come, `readBytes` at a time, and when none has come the thread pauses
    /// `pauseMicroseconds` before asking again (the scanning thread never waits for this one,
    /// nor wakes it).
    ///
    /// - Returns: the whole blocks counted.
    public static func index(
        ofFileDescriptor descriptor: Int32, blockBytes: Int, readBytes: Int = 256 << 10,
        pauseMicroseconds: UInt32 = 100, progress: () -> (bytes: Int, isFinal: Bool)
    ) -> FileIndex {
        var index = FileIndex(blockBytes: blockBytes)
        let perRead = max(1, readBytes / blockBytes) * blockBytes
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: perRead, alignment: 64)
        defer { buffer.deallocate() }
        var offset = 0
        while true {
            let (available, isFinal) = progress()
            let ready = (available - offset) / blockBytes * blockBytes
            // A whole read's worth, or what is left once the end is known.
            guard ready >= perRead || (isFinal && ready > 0) else {
                if isFinal { break }
                usleep(pauseMicroseconds)
                continue
            }
            let wanted = min(perRead, ready)
            var got = 0
            // A short read (a signal, the file's end) is read on from where it stopped.
            while got < wanted {
                let count = pread(descriptor, buffer.baseAddress! + got, wanted - got, off_t(offset + got))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                got += count
            }
            let bytes = UnsafeRawBufferPointer(buffer).bindMemory(to: UInt8.self)
            for block in 0..<(got / blockBytes) {
                index.append(block: bytes.span.extracting((block * blockBytes)..<((block + 1) * blockBytes)))
            }
            guard got == wanted else { break }
            offset += got
        }
        return index
    }
}
