import Foundation
import Stores
import TestSupport
import Testing

@Suite("Content digests (libcrypto's SHA-256)", .temporaryHome)
struct ContentDigestTests: ScopedSuite {
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

    @Test("digests match the published vectors", arguments: ContentDigestTests.vectors)
    func publishedVectors(_ input: String, _ expected: String) {
        #expect(ContentDigest.sha256(Array(input.utf8)) == expected)
    }

    @Test("a file read in chunks (2.5 MB of 'a': three chunks) gives sha256sum's digest; a missing file none")
    func file() throws {
        let path = try home.write(String(repeating: "a", count: 2_500_000), to: "a")
        #expect(
            ContentDigest.sha256(ofFile: path) == "38a637965059125eeb67f54c30e7f48a61859a467a800ba09740ba48a924f2b9")
        #expect(ContentDigest.sha256(ofFile: path + ".missing") == nil)
    }
}
