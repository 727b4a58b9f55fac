import PasteCore
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    /// FIPS 180-4 / NIST CSRC example vectors, plus lengths around the padding boundary
    /// (digests from coreutils sha256sum).
    static let vectors: [(String, String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ]

    @Test("digests match the published vectors", arguments: SHA256Tests.vectors)
    func publishedVectors(_ input: String, _ expected: String) {
        #expect(SHA256.hex(SHA256.hash(Array(input.utf8))) == expected)
    }

    @Test("one million 'a' fed in odd-sized chunks gives the FIPS digest")
    func streaming() {
        var hash = SHA256()
        var remaining = 1_000_000
        var size = 1
        while remaining > 0 {
            let count = min(size, remaining)
            hash.update([UInt8](repeating: UInt8(ascii: "a"), count: count))
            remaining -= count
            size = size % 997 + 7
        }
        #expect(
            SHA256.hex(hash.finalize())
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("chunked and one-shot digests agree at every split point")
    func splits() {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let whole = SHA256.hash(message)
        for split in 0...message.count {
            var hash = SHA256()
            hash.update(message[..<split])
            hash.update(message[split...])
            #expect(hash.finalize() == whole, "split at \(split)")
        }
    }
}
