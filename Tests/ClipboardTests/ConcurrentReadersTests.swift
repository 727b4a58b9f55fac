import Foundation
import Testing
import TestSupport

@testable import Clipboard

/// The owner serves any number of readers, each INCR transfer tracked on its own.
@Suite("Several readers at once", .tags(.x11), .needsXServer, .sharedXvfb, .serialized)
struct ConcurrentReadersTests: ScopedSuite {
    @Test("four xclip readers at once each get all 2 MiB, byte-exact (four INCR transfers)")
    func fourReadersAtOnce() throws {
        let text = Selections.text(size: 2 << 20)
        try Selections.clipboard(xvfb).write(text, to: .clipboard)
        let results = ReadResults()
        let group = DispatchGroup()
        for index in 0..<4 {
            group.enter()
            // Captured here: a thread of its own does not see the test's scope.
            Thread.detachNewThread { [xvfb] in
                let read = try? Selections.readWithTool(
                    ["/usr/bin/xclip", "-o", "-selection", "clipboard"], on: xvfb)
                results.set(index, read)
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        for index in 0..<4 {
            let read = results.get(index)
            #expect(read?.count == text.count)
            #expect(read == text)
        }
    }
}

/// Results of reader threads, under a lock.
private final class ReadResults: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var values: [Int: [UInt8]] = [:]
    func set(_ index: Int, _ value: [UInt8]?) {
        lock.lock()
        defer { lock.unlock() }
        values[index] = value
    }
    func get(_ index: Int) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        return values[index]
    }
}
