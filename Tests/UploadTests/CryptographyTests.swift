import CryptoInterop
import Foundation
import PasteCore
import TestSupport
import Testing
import Upload

/// The primitives of PrivateBin's encryption against published vectors, and raw deflate
/// against Python's zlib (an independent inflater).
@Suite("Cryptography: PBKDF2, AES-GCM, raw deflate, random bytes")
struct CryptographyTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// RFC 7914 §11: PBKDF2-HMAC-SHA256 test vectors.
    @Test(
        "PBKDF2-HMAC-SHA256 gives RFC 7914's vectors",
        arguments: [
            (
                "passwd", "salt", 1,
                "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                    + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
            ),
            (
                "Password", "NaCl", 80_000,
                "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
                    + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"
            ),
        ])
    func pbkdf2(_ password: String, _ salt: String, _ iterations: Int, _ expected: String) throws {
        let key = try SystemCryptography().pbkdf2SHA256(
            password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations, keyLength: 64)
        #expect(Self.hex(key) == expected)
    }

    /// The GCM specification's AES-256 test cases (McGrew and Viega, "The Galois/Counter Mode
    /// of Operation", test cases 16 and 18): a 96-bit IV, and a 60-byte one, which GCM hashes
    /// into its counter block as it does PrivateBin's 16-byte IV.
    @Test(
        "AES-256-GCM gives the GCM specification's test cases 16 and 18",
        arguments: [
            (
                "cafebabefacedbaddecaf888",
                "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                    + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
                "76fc6ece0f4e1768cddf8853bb2d551b"
            ),
            (
                "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"
                    + "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b",
                "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
                    + "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
                "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"
            ),
        ])
    func aesGCM(_ iv: String, _ cipherText: String, _ tag: String) throws {
        let key = [UInt8](hex: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let plaintext = [UInt8](
            hex: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let additionalData = [UInt8](hex: "feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let sealed = try SystemCryptography().sealAESGCM(
            plaintext, key: key, iv: [UInt8](hex: iv), additionalData: additionalData, tagLength: 16)
        #expect(Self.hex(sealed) == cipherText + tag)
        // A changed byte of additional data changes the tag (and only the tag).
        var other = additionalData
        other[0] ^= 1
        let resealed = try AESGCM.seal(
            plaintext, key: key, iv: [UInt8](hex: iv), additionalData: other, tagLength: 16)
        #expect(Self.hex(Array(resealed.prefix(plaintext.count))) == cipherText)
        #expect(Self.hex(Array(resealed.suffix(16))) != tag)
    }

    /// Inflates with Python's zlib and `wbits=-15` (raw deflate, as pbincli does).
    func pythonInflate(_ bytes: [UInt8]) throws -> ProcessResult {
        try runProcess(
            "/usr/bin/python3",
            ["-c", "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read(), -15))"],
            input: .bytes(Data(bytes)), timeout: 60)
    }

    @Test("raw deflate: Python's zlib inflates it (no header) back to the input, 0 bytes to 1 MiB")
    func deflate() throws {
        let line = Array("ünïcödé line — ½ ✓ 𝄞 and ASCII filler, line number ".utf8)
        var large: [UInt8] = []
        var number = 0
        while large.count < 1 << 20 {
            large += line + Array("\(number)\n".utf8)
            number += 1
        }
        for input in [[], Array("{\"paste\":\"hello\"}".utf8), large] {
            let compressed = try SystemCryptography().deflateRaw(input)
            // A zlib stream would start 0x78; a raw one is a bare deflate block.
            #expect(compressed.first != 0x78 || input.isEmpty)
            let inflated = try pythonInflate(compressed)
            #expect(inflated.status == 0, "python: \(inflated.err)")
            #expect(inflated.stdout == Data(input))
        }
    }

    @Test("random bytes: the count asked for, different every time")
    func random() throws {
        let system = SystemCryptography()
        let first = try system.randomBytes(count: 32)
        let second = try system.randomBytes(count: 32)
        #expect(first.count == 32)
        #expect(try system.randomBytes(count: 13).count == 13)
        #expect(first != second)
    }
}
