internal import CSystemShims
internal import Glibc

/// Random bytes from the kernel's generator, for keys and nonces.
public enum SystemRandom {
    /// `count` random bytes. Wraps `getrandom` (no flags: blocks only until the kernel's pool is
    /// first initialised, early in boot), retrying `EINTR` and short reads.
    public static func bytes(count: Int) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            filled += try bytes.withMutableBytes { (buffer) throws(Errno) in
                try valueOrErrno { getrandom(buffer.baseAddress! + filled, count - filled, 0) }
            }
        }
        return bytes
    }
}
