import Foundation
import TestSupport
import Testing

/// How paste's binary is laid out for a short start (Package.swift, `linkOrder`; docs/performance.md,
/// "A lean start"): linked by lld in the order of link/paste.order, the functions a hotkey run
/// executes side by side at the start of `.text`, still a position-independent executable with
/// RELRO (ASLR kept).
@Suite("Start-up: paste's code laid out in the order of link/paste.order")
struct LeanStartTests {
    static let binary = BuiltProducts.path(of: "paste")
    static let orderFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("link/paste.order")

    func output(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try runProcess(tool, arguments, timeout: 60)
        #expect(result.status == 0, "\(tool) \(arguments) failed: \(String(decoding: result.stderr, as: UTF8.self))")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    @Test("paste is a position-independent executable with RELRO, linked by lld")
    func pieAndRelro() throws {
        let header = try output("/usr/bin/readelf", ["-h", "-l", "-W", Self.binary])
        #expect(header.contains("DYN (Position-Independent Executable file)"), "not PIE:\n\(header)")
        #expect(header.contains("GNU_RELRO"), "no RELRO segment:\n\(header)")
        let comment = try output("/usr/bin/readelf", ["-p", ".comment", Self.binary])
        #expect(comment.contains("Linker: LLD"), "not linked by lld:\n\(comment)")
    }

    /// Without the order, the functions a run executes lie all over `.text` (half of them in its
    /// first quarter, gold's layout); with it, 98 % of them are there. Measured as a share, so
    /// that an object compiled before `-function-sections` (moved whole) does not fail it.
    @Test("the functions link/paste.order lists lie in the first quarter of .text")
    func orderedText() throws {
        let listed = Set(
            try String(contentsOf: Self.orderFile, encoding: .utf8).split(separator: "\n").map {
                $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                    .trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty })
        #expect(listed.count > 1000, "link/paste.order lists \(listed.count) names")

        // `.text`'s bounds: `[14] .text PROGBITS 0000000000190000 190000 115b74e ...`
        let sections = try output("/usr/bin/readelf", ["-S", "-W", Self.binary])
        let fields = try #require(
            sections.split(separator: "\n").lazy.map { $0.split(separator: " ") }
                .first { $0.contains(".text") && $0.contains("PROGBITS") })
        let name = try #require(fields.firstIndex(of: ".text"))
        try #require(fields.count > name + 4, "readelf's line: \(fields)")
        let start = try #require(UInt64(fields[name + 2], radix: 16))
        let size = try #require(UInt64(fields[name + 4], radix: 16))
        let quarter = start + size / 4

        var found = 0
        var early = 0
        for line in try output("/usr/bin/nm", ["--defined-only", Self.binary]).split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, "tTwW".contains(fields[1]), listed.contains(String(fields[2])),
                let address = UInt64(fields[0], radix: 16), address >= start, address < start + size
            else { continue }
            found += 1
            if address < quarter { early += 1 }
        }
        #expect(found > 500, "only \(found) of the \(listed.count) listed functions are in this binary")
        #expect(early * 10 >= found * 9, "\(early) of the \(found) listed functions lie in the first quarter of .text")
    }
}
