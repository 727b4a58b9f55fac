import CCrypto

/// SHA-256 over bytes as they stream in: the digest the control routes report for every value
/// (`sha256`), so a test compares a body by size and digest instead of reading it back.
///
/// libcrypto's SHA-256 (`SHA256_Init`/`Update`/`Final`), which runs on the CPU's SHA
/// instructions: about 0.5 s of CPU per GiB, less than the byte-at-a-time FNV-1a it replaced
/// (about 1.5 s per GiB, the cost of a `--discard-bodies` benchmark). A value type: a collected
/// body and its fields are copied freely, and `hex` finishes a copy of the context, so the
/// digest of what arrived so far can be read at any time (a dropped request's too).
struct SHA256Stream: @unchecked Sendable {
    // Safe: `SHA256_CTX` is plain words (no pointers); every copy is independent.
    private var context = SHA256_CTX()

    init() {
        SHA256_Init(&context)
    }

    /// The digest of `bytes` alone.
    init(_ bytes: [UInt8]) {
        self.init()
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        SHA256_Update(&context, base, bytes.count)
    }

    mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of the bytes so far, as 64 lowercase hex digits.
    var hex: String {
        var copy = context
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { _ = SHA256_Final($0.baseAddress, &copy) }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
