import Testing

import PasteCore
@testable import SecretGuard

/// The prefilter's follower sets: a hit on a pair is dropped at once when the byte after it
/// starts none of the group's literals, and never when it could.
@Suite("Secret prefilter: the byte after a pair")
struct SecretPrefilterFollowerTests {
    static func follows(_ byte: UInt8, group: Int, in prefilter: SecretPrefilter) -> Bool {
        prefilter.followers[4 * group + Int(byte >> 6)] & (1 << UInt64(byte & 63)) != 0
    }

    @Test("every literal's own next byte (in both cases when it ignores case) passes its group's set")
    func everyLiteralPasses() {
        let prefilter = SecretPrefilter.shared
        for (index, entry) in prefilter.entries.enumerated() {
            let literal = prefilter.literal(of: entry)
            let pair = Int(literal[entry.pairOffset]) | Int(literal[entry.pairOffset + 1]) << 8
            let group = Int(prefilter.groups[pair])
            #expect(
                prefilter.members[prefilter.memberStarts[group]..<prefilter.memberStarts[group + 1]].contains(index))
            let next = entry.pairOffset + 2
            for byte in [UInt8](0...255) where next >= literal.count {
                #expect(Self.follows(byte, group: group, in: prefilter), "a literal ending in its pair takes any byte")
            }
            guard next < literal.count else { continue }
            let other = entry.ignoresCase ? SecretPrefilter.otherCase(literal[next]) : nil
            for byte in [literal[next]] + (other.map { [$0] } ?? []) {
                #expect(Self.follows(byte, group: group, in: prefilter), "\(String(decoding: literal, as: UTF8.self))")
            }
        }
    }

    @Test("text full of a trigger pair that starts no literal is dropped at the pair, with the same findings")
    func pairWithoutLiteral() throws {
        let prefilter = SecretPrefilter.shared
        // The pair the search looks for in `ghp_` (GitHub's prefixes), and a letter that follows
        // it in no literal of its group.
        let entry = try #require(
            prefilter.entries.first { prefilter.literal(of: $0) == Array("ghp_".utf8) }, "ghp_ is a trigger")
        let literal = prefilter.literal(of: entry)
        let (first, second) = (literal[entry.pairOffset], literal[entry.pairOffset + 1])
        let group = Int(prefilter.groups[Int(first) | Int(second) << 8])
        try #require(group != 0)
        #expect(Self.follows(literal[entry.pairOffset + 2], group: group, in: prefilter))
        let stranger = try #require(
            Array("abcdefghijklmnopqrstuvwxyz".utf8).first { !Self.follows($0, group: group, in: prefilter) })
        // Lines full of the pair, each time followed by that letter.
        let line =
            Array("0123456789 ".utf8) + Array(repeating: [first, second, stranger, 0x20], count: 12).flatMap { $0 }
            + [0x0a]
        var text: [UInt8] = []
        for _ in 0..<2000 { text += line }
        text += Array("token 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\n".utf8)
        #expect(SecretGuard().scan(text).map(\.pattern) == [.gitHubToken])
    }
}
