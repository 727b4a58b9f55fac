internal import Glibc

/// Searches of memory the C library does faster than a Swift loop.
public enum Memory {
    /// Whether `bytes` hold `byte`. Wraps `memchr`, which is vectorised: a byte-by-byte
    /// `contains(0)` was a sixth of reading a 64 MiB clipboard.
    public static func contains(_ byte: UInt8, in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            return memchr(base, Int32(byte), buffer.count) != nil
        }
    }

    /// Where `byte` first occurs in `bytes`, or nil. Wraps `memchr`.
    public static func firstIndex(of byte: UInt8, in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(byte), buffer.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// Where `byte` first occurs in `bytes`, or nil. Wraps `memchr`.
    public static func firstIndex(of byte: UInt8, in bytes: Span<UInt8>) -> Int? {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(byte), buffer.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// Where the first byte of `bytes` at or after `start` with its high bit set (not ASCII)
    /// is, or `bytes.count` when there is none.
    ///
    /// PERF(stream): 32 bytes a step, as four unaligned 64-bit loads or'ed together, where a
    /// loop over single bytes (with a bounds check each) ran at about 1 GB/s: a UTF-8 check of
    /// a stream's 8 MiB start took 8 ms before its first byte was sent (`perf`, issue 44).
    public static func firstNonASCII(in bytes: Span<UInt8>, from start: Int) -> Int {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, start < buffer.count else { return buffer.count }
            let high: UInt64 = 0x8080_8080_8080_8080
            let count = buffer.count
            var index = start
            while index + 32 <= count {
                let word0 = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let word1 = base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                let word2 = base.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                let word3 = base.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)
                if (word0 | word1 | word2 | word3) & high != 0 { break }
                index += 32
            }
            while index + 8 <= count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & high
                // Little-endian: the lowest set bit is the first such byte.
                if word != 0 { return index + word.littleEndian.trailingZeroBitCount / 8 }
                index += 8
            }
            while index < count, base.load(fromByteOffset: index, as: UInt8.self) < 0x80 { index += 1 }
            return index
        }
    }
}

extension Memory {
    /// The size of a transparent huge page on x86-64 and arm64 (with 4 KiB base pages).
    static let hugePageSize = 2 << 20

    /// Asks the kernel to back the reserved storage of `bytes` with huge pages (2 MiB) as it is
    /// written. Wraps `madvise(MADV_HUGEPAGE)` over the whole 2 MiB pages inside the array's
    /// capacity; the array's contents and count are untouched.
    ///
    /// For a large buffer about to be filled once (an INCR transfer of a clipboard): writing
    /// 64 MiB into fresh 4 KiB pages takes 16,384 page faults, a third of reading the clipboard
    /// (`perf`), where 2 MiB pages take 32. Only advice: where transparent huge pages are
    /// off, or none is free, the kernel uses small pages as before.
    public static func adviseHugePages(forCapacityOf bytes: inout [UInt8]) {
        let capacity = bytes.capacity
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            adviseHugePages(UnsafeMutableRawPointer(base), count: capacity)
        }
    }

    /// `madvise(MADV_HUGEPAGE)` over the whole 2 MiB pages inside `count` bytes at `base`.
    static func adviseHugePages(_ base: UnsafeMutableRawPointer, count: Int) {
        let address = Int(bitPattern: base)
        let start = (address + hugePageSize - 1) & ~(hugePageSize - 1)
        let end = (address + count) & ~(hugePageSize - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_HUGEPAGE)
    }
}
