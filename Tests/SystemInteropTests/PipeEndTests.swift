import Foundation
import Testing

@testable import SystemInterop

@Suite("FileDescriptor.finalPipeByteCount: the rest of a pipe its writers left")
struct PipeEndTests {
    @Test("nil while a writer may still write; what is left once every writer closed; nil for a file")
    func finalCount() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let reader = FileDescriptor(adopting: ends[0])
        let writer = FileDescriptor(adopting: ends[1])
        #expect(reader.finalPipeByteCount == nil)
        try writer.writeAll(Array("twelve bytes".utf8))
        #expect(reader.finalPipeByteCount == nil)
        try writer.close()
        #expect(reader.finalPipeByteCount == 12)
        #expect(try reader.read(upTo: 5) == Array("twelv".utf8))
        #expect(reader.finalPipeByteCount == 7)
        _ = try reader.readAll()
        #expect(reader.finalPipeByteCount == 0)

        let folder = try TemporaryFolder()
        let path = folder.file("data")
        try FileDescriptor.open(path, .writeOnly, options: .create).writeAll([1, 2, 3])
        #expect(try FileDescriptor.open(path, .readOnly).finalPipeByteCount == nil)
    }
}
