internal import CCrypto
internal import CZlib

/// A libcrypto or zlib call that failed, with the library's own code.
///
/// These fail only on a broken library or exhausted memory, never on what a person gave paste:
/// callers report them as internal errors.
public enum CryptoError: Error, Equatable, CustomStringConvertible {
    /// A libcrypto function returned failure; `code` is the first `ERR_get_error()` queued by
    /// it (0 when the function queued none).
    case libcrypto(function: String, code: UInt)
    /// A zlib function returned `status` (`Z_STREAM_ERROR`, `Z_MEM_ERROR`, …).
    case zlib(function: String, status: Int32)
    /// The input is larger than the C interface can take in one call (zlib's `uInt` counts).
    case tooLarge(function: String, bytes: Int)

    /// The failure in words: the function and the library's reason
    /// (`ERR_reason_error_string`, `zError`).
    public var description: String {
        switch self {
        case .libcrypto(let function, let code):
            let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "no reason given"
            return "\(function) failed: \(reason) (libcrypto error \(code))"
        case .zlib(let function, let status):
            let reason = zError(status).map { String(cString: $0) } ?? "unknown"
            return "\(function) failed: \(reason) (zlib status \(status))"
        case .tooLarge(let function, let bytes):
            return "\(function) cannot take \(bytes) bytes at once"
        }
    }

    /// The libcrypto failure of `function`, taking (and clearing) libcrypto's error queue so a
    /// later failure does not report this one's code.
    static func libcrypto(_ function: String) -> CryptoError {
        let code = ERR_get_error()
        ERR_clear_error()
        return .libcrypto(function: function, code: code)
    }
}
