import Testing

import PasteCore
@testable import SecretGuard
import SecretScanInterop

/// The vectorised candidate search (CSecretScan's Teddy kernels behind SecretScanInterop): every
/// kernel finds exactly the positions the pair table and its follower sets define, wherever the
/// range starts and ends around the 16-byte vector steps, and however small the batch.
@Suite("Secret candidate search: Teddy kernels against the pair table")
struct SecretCandidateSearchTests {
    /// The prefilter of the built-in table, once per kernel this processor runs (the vector
    /// kernels are not the one the scanner runs, `SecretPrefilter.kernel`, but stay exact).
    static let prefilters: [SecretPrefilter] = CandidateSearch.Kernel.allCases.filter {
        $0.rawValue <= CandidateSearch.Kernel.best.rawValue
    }.map { SecretPrefilter(rules: SecretRule.table, kernel: $0) }

    /// The candidates as the prefilter defines them, position by position.
    static func expected(_ prefilter: SecretPrefilter, _ text: [UInt8], from: Int, to: Int) -> [[Int]] {
        var result: [[Int]] = []
        var position = from
        while position < min(to, text.count - 1) {
            let group = Int(prefilter.groups[Int(text[position]) | Int(text[position + 1]) << 8])
            if group != 0 {
                let follows =
                    position + 2 >= text.count
                    || prefilter.followers[4 * group + Int(text[position + 2] >> 6)]
                        & (1 << UInt64(text[position + 2] & 63)) != 0
                if follows { result.append([position, group]) }
            }
            position += 1
        }
        return result
    }

    /// The candidates the prefilter's search gives, batch after batch.
    static func found(
        _ prefilter: SecretPrefilter, _ text: [UInt8], from: Int, to: Int,
        capacity: Int = CandidateBatch.defaultCapacity
    ) -> [[Int]] {
        var result: [[Int]] = []
        var batch = CandidateBatch(capacity: capacity)
        var position = from
        let end = min(to, text.count - 1)
        while position < end {
            position = prefilter.search.find(in: text.span, from: position, to: end, into: &batch)
            for index in 0..<batch.count { result.append([batch.position(index), batch.group(index)]) }
        }
        return result
    }

    /// Text dense in triggers: every literal of the table, cut and whole, in both cases, between
    /// log-like noise (a fixed seed, the same text in every run).
    static let denseText: [UInt8] = {
        var generator = SplitMix(seed: 28)
        let literals = SecretGuard.triggerLiterals.map { Array($0.utf8) }
        let noise = Array("2026-12-01T12:34:56.789Z INFO request_id=9f86d081 host=10.0.0.1:5432 key=".utf8)
        var text: [UInt8] = []
        while text.count < 64 << 10 {
            let literal = literals[Int(generator.next() % UInt64(literals.count))]
            switch generator.next() % 4 {
            case 0: text += literal
            case 1: text += literal.map { SecretPrefilter.otherCase($0) ?? $0 }
            case 2: text += literal.prefix(Int(generator.next() % UInt64(literal.count)))
            default:
                let start = Int(generator.next() % UInt64(noise.count))
                text += noise[start...].prefix(Int(generator.next() % 24))
            }
        }
        return text
    }()

    @Test("every kernel finds exactly the pair table's candidates in text dense with triggers")
    func denseTextCandidates() {
        let text = Self.denseText
        for prefilter in Self.prefilters {
            let expected = Self.expected(prefilter, text, from: 0, to: text.count)
            #expect(expected.count > 1000)
            #expect(Self.found(prefilter, text, from: 0, to: text.count) == expected, "\(prefilter.search.kernel)")
            // A batch of one vector step: the search stops and goes on where it stopped.
            #expect(Self.found(prefilter, text, from: 0, to: text.count, capacity: 16) == expected)
        }
    }

    @Test(
        "the range may start and end anywhere around the 16-byte steps and the text's end",
        arguments: [0, 1, 2, 15, 16, 17, 18, 31, 33])
    func rangesAroundSteps(_ shift: Int) {
        let text = Array(Self.denseText.prefix(600))
        for prefilter in Self.prefilters {
            for (from, to) in [
                (shift, text.count), (shift, text.count - shift), (0, 64 + shift), (100 + shift, 101 + shift),
            ]
            where from <= to {
                #expect(
                    Self.found(prefilter, text, from: from, to: to)
                        == Self.expected(prefilter, text, from: from, to: to),
                    "\(prefilter.search.kernel) \(from)..<\(to)")
            }
            // The text's end inside a step: the last pairs have no follower, or only part of one.
            for count in (text.count - 20)..<text.count {
                let cut = Array(text.prefix(count))
                #expect(
                    Self.found(prefilter, cut, from: 0, to: count) == Self.expected(prefilter, cut, from: 0, to: count))
            }
        }
    }

    @Test("each trigger literal, at every offset around a step, is a candidate at its pair in every kernel")
    func everyLiteralAtEveryOffset() {
        for prefilter in Self.prefilters {
            for entry in prefilter.entries {
                let literal = prefilter.literal(of: entry)
                for offset in [0, 1, 13, 14, 15, 16, 17, 30] {
                    let text =
                        [UInt8](repeating: UInt8(ascii: " "), count: offset) + literal
                        + [UInt8](repeating: UInt8(ascii: " "), count: 40)
                    let position = offset + entry.pairOffset
                    let found = Self.found(prefilter, text, from: 0, to: text.count).map { $0[0] }
                    #expect(
                        found.contains(position),
                        "\(prefilter.search.kernel) \(String(decoding: literal, as: UTF8.self))")
                }
            }
        }
    }

    @Test("the search lets little of ordinary log text through: the timestamps' colons and hardly more")
    func fewCandidatesInLogs() {
        let line = Array(
            "2026-12-03T04:05:06.789Z INFO  [api] request finished request_id=0123456789abcdef user=u42\n".utf8)
        let text = Array((0..<100).map { _ in line }.joined())
        let prefilter = SecretPrefilter.shared
        // The timestamps' colons are true candidates (the `.pgpass` row's `:0`…`:9`); little else is.
        #expect(Self.found(prefilter, text, from: 0, to: text.count).count <= 3 * 100)
    }
}

/// A small fixed-seed generator (SplitMix64), so the dense text is the same in every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
