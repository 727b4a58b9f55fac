internal import CZlib

/// Raw deflate (RFC 1951: no zlib header or checksum) through zlib, in one pass.
///
/// Compression is not cryptography, but it lives here because PrivateBin compresses the
/// plaintext right before encrypting it, and this module is where paste keeps the C calls of
/// that pipeline. Wraps `deflateInit2_`, `deflateBound`, `deflate` and `deflateEnd`.
public enum RawDeflate {
    /// zlib's window size, in bits; negated for `deflateInit2` it means "raw deflate"
    /// (zlib.h, `windowBits`: -8 to -15), what PrivateBin and pbincli (`wbits=-15`) use.
    static let windowBits: Int32 = 15
    /// zlib's default memory level (zlib.h: "The default value is 8").
    static let memoryLevel: Int32 = 8

    /// Compresses `bytes` at zlib's default level.
    ///
    /// - Throws: `CryptoError.zlib` when zlib refuses (out of memory), `.tooLarge` for 4 GiB or
    ///   more (zlib counts in `uInt`).
    public static func compress(_ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard bytes.count < Int(UInt32.max) else { throw .tooLarge(function: "deflate", bytes: bytes.count) }
        var stream = z_stream()
        let initialized = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -windowBits, memoryLevel, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initialized == Z_OK else { throw .zlib(function: "deflateInit2", status: initialized) }
        defer { deflateEnd(&stream) }

        // deflateBound is enough for the whole output of one deflate(Z_FINISH) call (zlib.h).
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                let status = deflate(&stream, Z_FINISH)
                // The pointers are valid only inside these closures: drop them at once.
                stream.next_in = nil
                stream.next_out = nil
                return status
            }
        }
        guard status == Z_STREAM_END else { throw .zlib(function: "deflate", status: status) }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
