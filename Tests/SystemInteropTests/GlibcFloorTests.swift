import CGlibcFloor
import Testing

/// The definitions that keep the binaries at GLIBC_2.34 (Sources/CGlibcFloor): they stand in
/// for glibc's own in every static archive that calls them, so they must do what glibc's do.
/// This test bundle links them like the executables, so these calls reach them, not libc.so's.
/// (StartupLinkTests checks that the binaries name no newer version.)
@Suite("glibc floor: arc4random_buf, arc4random, hypotf and hypot of our own")
struct GlibcFloorTests {
    /// One `getrandom(2)` call returns at most 32 MiB - 1 bytes: a larger request is filled by
    /// several, which is the short read the loop must continue after.
    static let largerThanOneCall = (32 << 20) + 4096

    @Test("arc4random_buf fills every byte of a request larger than one getrandom call gives")
    func fillsLargeRequest() {
        var bytes = [UInt8](repeating: 0, count: Self.largerThanOneCall)
        bytes.withUnsafeMutableBytes { CGlibcFloor.arc4random_buf($0.baseAddress!, $0.count) }
        // 4 KiB of zeros from the generator has a chance of 2^-32768: such a run is a byte
        // range left unfilled, at the start, after the first call's share, or at the end.
        for start in [0, (32 << 20) - 1, Self.largerThanOneCall - 4096] {
            #expect(bytes[start..<start + 4096].contains { $0 != 0 }, "4 KiB of zeros at \(start)")
        }
    }

    @Test("arc4random_buf of nothing touches nothing; two draws differ; arc4random varies")
    func draws() {
        var sentinel: UInt8 = 0x5a
        withUnsafeMutableBytes(of: &sentinel) { CGlibcFloor.arc4random_buf($0.baseAddress!, 0) }
        #expect(sentinel == 0x5a)
        var first = [UInt8](repeating: 0, count: 32)
        var second = [UInt8](repeating: 0, count: 32)
        first.withUnsafeMutableBytes { CGlibcFloor.arc4random_buf($0.baseAddress!, $0.count) }
        second.withUnsafeMutableBytes { CGlibcFloor.arc4random_buf($0.baseAddress!, $0.count) }
        #expect(first != second)
        let words = Set((0..<8).map { _ in CGlibcFloor.arc4random() })
        #expect(words.count > 1)
    }

    @Test("hypotf: exact cases, signs, no overflow in between, infinities over NaN")
    func hypotenuse() {
        #expect(CGlibcFloor.hypotf(3, 4) == 5)
        #expect(CGlibcFloor.hypotf(-5, 12) == 13)
        #expect(CGlibcFloor.hypotf(0, -7) == 7)
        // x² overflows a float here; the result does not.
        let scale = Float(sign: .plus, exponent: 100, significand: 1)
        #expect(CGlibcFloor.hypotf(3 * scale, 4 * scale) == 5 * scale)
        #expect(CGlibcFloor.hypotf(Float.greatestFiniteMagnitude, Float.greatestFiniteMagnitude) == .infinity)
        #expect(CGlibcFloor.hypotf(Float.leastNonzeroMagnitude, 0) == Float.leastNonzeroMagnitude)
        #expect(CGlibcFloor.hypotf(.infinity, .nan) == .infinity)
        #expect(CGlibcFloor.hypotf(.nan, 1).isNaN)
    }

    @Test("hypot: exact cases, no overflow or underflow in between, infinities over NaN")
    func hypotenuseDouble() {
        #expect(CGlibcFloor.hypot(3, 4) == 5)
        #expect(CGlibcFloor.hypot(-8, 15) == 17)
        let large = Double(sign: .plus, exponent: 1000, significand: 1)
        #expect(CGlibcFloor.hypot(3 * large, 4 * large) == 5 * large)
        let small = Double(sign: .plus, exponent: -1060, significand: 1)
        #expect(CGlibcFloor.hypot(3 * small, 4 * small) == 5 * small)
        #expect(CGlibcFloor.hypot(.greatestFiniteMagnitude, .greatestFiniteMagnitude) == .infinity)
        #expect(CGlibcFloor.hypot(.nan, -.infinity) == .infinity)
        #expect(CGlibcFloor.hypot(1, .nan).isNaN)
        #expect(CGlibcFloor.hypot(2, Double.ulpOfOne) == 2)
    }
}
