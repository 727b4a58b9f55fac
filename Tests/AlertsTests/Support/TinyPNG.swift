/// A minimal PNG writer for tests: 8-bit RGBA, one IDAT of stored (uncompressed) deflate blocks.
///
/// Written from the PNG specification (chunks §5.3, IHDR §11.2.2, filter type 0 §9) and RFC 1950/
/// 1951 (zlib header, stored blocks, Adler-32), so the decoder under test is checked against an
/// encoder that shares nothing with it.
enum TinyPNG {
    /// A PNG of `width` × `height` pixels from `rgba` (4 bytes a pixel, rows top to bottom).
    static func encode(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        precondition(rgba.count == width * height * 4)
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (width * 4 + 1))
        for row in 0..<height {
            raw.append(0)  // filter type None
            raw += rgba[(row * width * 4)..<((row + 1) * width * 4)]
        }
        return header(width: width, height: height) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// The signature and an IHDR for an 8-bit RGBA image (colour type 6) of any claimed size.
    static func header(width: Int, height: Int) -> [UInt8] {
        let ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
    }

    /// One chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    /// A zlib stream of stored blocks (at most 65535 bytes each) and the Adler-32 trailer.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, no dictionary, check bits
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let isLast: UInt8 = offset + count == data.count ? 1 : 0
            out.append(isLast)  // BFINAL, BTYPE = 00 (stored)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
