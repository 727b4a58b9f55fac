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
            let address = Int(bitPattern: base)
            let start = (address + hugePageSize - 1) & ~(hugePageSize - 1)
            let end = (address + capacity) & ~(hugePageSize - 1)
            guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, end - start, MADV_HUGEPAGE)
        }
    }
}
