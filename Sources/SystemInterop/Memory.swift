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
}
