import CryptoInterop
import Foundation
import Testing

@testable import PasteCore
@testable import Upload

@Suite("Stream digests through libcrypto")
struct StreamDigestTests {
    @Test("a digest fed chunk by chunk equals libcrypto's one-shot digest", arguments: [0, 1, 55, 64, 1000, 1 << 20])
    func agreesWithPortableHash(size: Int) {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let digest = StreamDigest()
        var offset = 0
        var step = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            let chunk = Array(bytes[offset..<end])
            digest.update(chunk.span)
            offset = end
            step = step * 3 + 1
        }
        #expect(digest.byteCount == Int64(size))
        #expect(digest.finalizeHex() == Hexadecimal.lowercase(SHA256Hasher.digest(bytes.span)))
    }

    @Test("the empty digest is the known one")
    func empty() {
        #expect(StreamDigest().finalizeHex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
