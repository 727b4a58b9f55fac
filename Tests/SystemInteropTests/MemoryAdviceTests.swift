import Foundation
import Testing

@testable import SystemInterop

/// Huge pages for a large buffer about to be filled.
@Suite("Memory advice")
struct MemoryAdviceTests {
    /// The `VmFlags` of the mapping of /proc/self/smaps that holds `address`.
    static func flags(ofMappingHolding address: Int) throws -> [String] {
        // Read to the end: String(contentsOfFile:) stops at the first read of a /proc file.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { Int($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "VmFlags:" {
                return fields.dropFirst().map(String.init)
            }
        }
        return []
    }

    @Test("a reserved buffer is marked for huge pages; its bytes and count stay as they were")
    func hugePagesAdvised() throws {
        var bytes: [UInt8] = [1, 2, 3]
        bytes.reserveCapacity(64 << 20)
        Memory.adviseHugePages(forCapacityOf: &bytes)
        #expect(bytes == [1, 2, 3])
        let address = bytes.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } + (8 << 20)
        #expect(try Self.flags(ofMappingHolding: address).contains("hg"), "MADV_HUGEPAGE sets VM_HUGEPAGE")
        // Empty with room reserved, as the clipboard reader calls it before the first increment.
        var reserved: [UInt8] = []
        reserved.reserveCapacity(64 << 20)
        Memory.adviseHugePages(forCapacityOf: &reserved)
        #expect(reserved.isEmpty)
        let start = reserved.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } + (8 << 20)
        #expect(try Self.flags(ofMappingHolding: start).contains("hg"))
        // A small buffer has no whole huge page inside it: nothing to advise, nothing breaks.
        var small: [UInt8] = []
        small.reserveCapacity(4096)
        Memory.adviseHugePages(forCapacityOf: &small)
        #expect(small.isEmpty)
    }
}
