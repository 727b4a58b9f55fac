import Testing

import PasteCore
@testable import SecretGuard
import SecretScanInterop

/// The candidate search (CSecretScan's kernels behind SecretScanInterop): each finds exactly
/// the positions the pair table, its follower sets and the members' literals and shapes define,
/// wherever the range starts and ends around the eight- and 64-position steps, and however small
/// the batch. Every kernel that runs on the processor is held to the definition here (the
/// portable one everywhere, AVX2 and AVX-512 VBMI where it has them).
@Suite("Secret candidate search: the C kernel against its definition")
struct SecretCandidateSearchTests {
    static let prefilter = SecretPrefilter.shared

    /// Whether `entry`'s literal, with its pair at `position`, fits `text` as the search tests
    /// it: the whole literal in the text, its first eight bytes there, a word starting there if
    /// its row's quick test asks for one, a key's end and a separator after it if the quick test
    /// asks for that (`SecretRule.mayAssign`), and its row's shape from its start (or
    /// the text ending before the shape is decided).
    static func fits(_ entry: SecretPrefilter.Entry, _ text: [UInt8], at position: Int) -> Bool {
        let start = position - entry.pairOffset
        guard start >= 0, start + entry.literalCount <= text.count else { return false }
        let literal = prefilter.literal(of: entry)
        for offset in 0..<min(8, literal.count) {
            let here = text[start + offset]
            let wanted = literal[offset]
            let folds = entry.ignoresCase && SecretPrefilter.otherCase(wanted) != nil
            guard here == wanted || (folds && here == SecretPrefilter.otherCase(wanted)) else { return false }
        }
        if entry.quickTest == .startsWord && !SecretText.startsWord(text.span, at: start) { return false }
        if entry.quickTest == .endsKey
            && !SecretRule.mayAssign(text.span, keyStart: start, keyEnd: start + entry.literalCount)
        {
            return false
        }
        let shape = entry.rule < prefilter.rules.count ? prefilter.rules[entry.rule].shape(literal: literal) : []
        var index = start
        for run in shape {
            let from = index
            while index < text.count && index - from < run.length.upperBound && run.set.contains(text[index]) {
                index += 1
            }
            if index == text.count { return true }
            guard index - from >= run.length.lowerBound else { return false }
        }
        return true
    }

    /// The candidates as the prefilter defines them, position by position.
    static func expected(_ text: [UInt8], from: Int, to: Int) -> [[Int]] {
        var result: [[Int]] = []
        var position = from
        while position < min(to, text.count - 1) {
            let group = Int(prefilter.groups[Int(text[position]) | Int(text[position + 1]) << 8])
            if group != 0 {
                let follows =
                    position + 2 >= text.count
                    || prefilter.followers[4 * group + Int(text[position + 2] >> 6)]
                        & (1 << UInt64(text[position + 2] & 63)) != 0
                let fitting = (prefilter.memberStarts[group]..<prefilter.memberStarts[group + 1]).contains {
                    fits(prefilter.entries[prefilter.members[$0]], text, at: position)
                }
                if follows && fitting { result.append([position, group]) }
            }
            position += 1
        }
        return result
    }

    /// The candidates the prefilter's search gives, batch after batch.
    static func found(
        _ text: [UInt8], from: Int, to: Int, capacity: Int = CandidateBatch.defaultCapacity,
        kernel: CandidateSearch.Kernel = .fastest
    ) -> [[Int]] {
        var result: [[Int]] = []
        var batch = CandidateBatch(capacity: capacity)
        var position = from
        let end = min(to, text.count - 1)
        while position < end {
            position = prefilter.search.find(in: text.span, from: position, to: end, into: &batch, kernel: kernel)
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

    @Test(
        "the search finds exactly the defined candidates in text dense with triggers, and around the .pgpass shape",
        arguments: SecretPrefilter.shared.search.kernels, [true, false])
    func wholeTextCandidates(_ kernel: CandidateSearch.Kernel, dense: Bool) {
        let text = dense ? Self.denseText : Self.shapedText
        let expected = Self.expected(text, from: 0, to: text.count)
        #expect(expected.count > (dense ? 1000 : 400))
        #expect(Self.found(text, from: 0, to: text.count, kernel: kernel) == expected)
        // A batch of one step: the search stops and goes on where it stopped (inside a 64-position
        // step, for the vector kernel: a step here holds more candidates than the batch).
        #expect(Self.found(text, from: 0, to: text.count, capacity: 8, kernel: kernel) == expected)
        // Cut anywhere in the first lines: a shape or a literal may run past the end.
        for count in 200..<400 {
            let cut = Array(text.prefix(count))
            #expect(Self.found(cut, from: 0, to: count, kernel: kernel) == Self.expected(cut, from: 0, to: count))
        }
    }

    @Test(
        "the range may start and end anywhere around the steps and the text's end",
        arguments: SecretPrefilter.shared.search.kernels, [0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65])
    func rangesAroundSteps(_ kernel: CandidateSearch.Kernel, _ shift: Int) {
        let text = Array(Self.denseText.prefix(600))
        for (from, to) in [
            (shift, text.count), (shift, text.count - shift), (0, 64 + shift), (100 + shift, 101 + shift),
            (shift, 130 + shift), (0, 66 + shift),
        ]
        where from <= to {
            #expect(
                Self.found(text, from: from, to: to, kernel: kernel) == Self.expected(text, from: from, to: to),
                "\(from)..<\(to)")
        }
        // The text's end inside a step: the last pairs have no follower, or only part of one,
        // and a literal or a shape may run past the end (the vector kernel's step reads two bytes
        // past its last position, and its shape test 64 from the literal's start).
        for count in (text.count - 70)..<text.count {
            let cut = Array(text.prefix(count))
            #expect(Self.found(cut, from: 0, to: count, kernel: kernel) == Self.expected(cut, from: 0, to: count))
        }
    }

    /// Lines around the `.pgpass` shape, whose quick test (in the vector kernel) looks at the
    /// 64 bytes from each colon: rows that fit, rows one colon short, runs of the alphabet longer
    /// than 64 bytes, bytes from 128 up, timestamps (cut at every length in its first lines, by the test above).
    static let shapedText: [UInt8] = {
        var generator = SplitMix(seed: 6)
        let name = Array("db-main_01.prod$".utf8)
        let pieces: [[UInt8]] = [
            Array("db.example.com:5432:app:alice:s3cret\n".utf8),
            Array("*:*:*:postgres:hunter2\n".utf8),
            Array("host:5432:app:alice\n".utf8),
            Array("2026-12-01T12:34:56.789Z INFO ".utf8),
            Array("host=10.0.0.1:5432 ".utf8),
            Array(":1:".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 63) + Array(":b:".utf8),
            Array("h:1:".utf8) + (0..<5).flatMap { _ in name } + Array(":u:".utf8),
            Array("x:1:a:b".utf8) + [0xc3, 0xa9] + Array(":\n".utf8),
            Array("\u{00e9}t\u{00e9}:12:base:user:pw ".utf8),
        ]
        var text: [UInt8] = []
        while text.count < 32 << 10 {
            text += pieces[Int(generator.next() % UInt64(pieces.count))]
        }
        return text
    }()

    @Test("the vector kernels run where the processor has AVX2, and AVX-512 BW and VBMI (as /proc/cpuinfo says)")
    func vectorKernelsWhereAvailable() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }.map {
                Set($0.split(separator: " ").map(String.init))
            } ?? []
        var expected: [CandidateSearch.Kernel] = [.portable]
        if flags.contains("avx2") { expected.append(.avx2) }
        if flags.isSuperset(of: ["avx512f", "avx512bw", "avx512vbmi"]) { expected.append(.avx512VBMI) }
        #expect(Self.prefilter.search.kernels == expected)
        #expect(Self.prefilter.search.fastestKernel == expected.last)
    }

    @Test(
        "a new search plans its vector kernel only once it has been asked for 256 KiB, and finds the defined candidates before, across and after that, from several threads at once"
    )
    func plansOnFirstLargeSearch() async {
        let prefilter = SecretPrefilter(rules: SecretRule.table)
        let vector = prefilter.search.kernels != [.portable]
        #expect(prefilter.search.isPlanned == !vector)
        // A hotkey's kilobyte: found, and nothing planned for it.
        let small = Array(Self.denseText.prefix(1024))
        var batch = CandidateBatch()
        var smallFound: [[Int]] = []
        var position = 0
        while position < small.count - 1 {
            position = prefilter.search.find(in: small.span, from: position, to: small.count - 1, into: &batch)
            for index in 0..<batch.count { smallFound.append([batch.position(index), batch.group(index)]) }
        }
        #expect(smallFound == Self.expected(small, from: 0, to: small.count))
        #expect(prefilter.search.isPlanned == !vector)
        // 384 KiB in 16 KiB ranges from four tasks at once: the plan is made on the way through
        // (by whichever gets there first) and every task still finds exactly the candidates.
        let text = Array([[UInt8]](repeating: Self.denseText, count: 6).joined())
        let expected = Self.expected(text, from: 0, to: text.count)
        let results = await withTaskGroup(of: [[Int]].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var result: [[Int]] = []
                    var batch = CandidateBatch()
                    var start = 0
                    while start < text.count - 1 {
                        let end = min(start + 16 << 10, text.count - 1)
                        var position = start
                        while position < end {
                            position = prefilter.search.find(in: text.span, from: position, to: end, into: &batch)
                            for index in 0..<batch.count { result.append([batch.position(index), batch.group(index)]) }
                        }
                        start = end
                    }
                    return result
                }
            }
            var all: [[[Int]]] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 4)
        for result in results { #expect(result == expected) }
        #expect(prefilter.search.isPlanned)
    }

    @Test(
        "the NUL watch gives the first NUL byte of what each call went over, for every kernel, however the batch fills",
        arguments: SecretPrefilter.shared.search.kernels, [8, CandidateBatch.defaultCapacity])
    func nulWatch(_ kernel: CandidateSearch.Kernel, capacity: Int) {
        // Text dense in triggers (so the batch fills and calls stop early), NUL bytes planted
        // at places around the vector kernels' steps and blocks, and some bytes from 128 up.
        var text = Array([[UInt8]](repeating: Self.denseText, count: 2).joined())
        for index in stride(from: 0, to: text.count, by: 997) where text[index] == UInt8(ascii: "e") {
            text[index] = 0xe9
        }
        let places = [0, 1, 63, 64, 65, 1023, 1024, 1025, 5000, 40_000, 100_000, text.count - 2, text.count - 1]
        for place in places {
            var planted = text
            planted[place] = 0
            // A second one after it: the first is the one told.
            if place + 300 < planted.count { planted[place + 300] = 0 }
            for (from, to) in [(0, planted.count), (0, planted.count - 1), (place > 0 ? place - 1 : 0, planted.count)] {
                var batch = CandidateBatch(capacity: capacity)
                var position = from
                var told: Int?
                var candidates: [[Int]] = []
                while position < to {
                    let (next, nul) = Self.prefilter.search.findWatchingNUL(
                        in: planted.span, from: position, to: to, into: &batch, kernel: kernel)
                    // What this call went over: up to where it stopped, or to the range's end.
                    let wentOver = planted[position..<(next < to ? next : to)]
                    #expect(nul == wentOver.firstIndex(of: 0), "\(place) \(from)..<\(to) at \(position)")
                    if told == nil { told = nul }
                    for index in 0..<batch.count { candidates.append([batch.position(index), batch.group(index)]) }
                    position = next
                }
                #expect(told == planted[from..<to].firstIndex(of: 0), "\(place) \(from)..<\(to)")
                #expect(candidates == Self.found(planted, from: from, to: to, kernel: kernel))
            }
        }
        // No NUL: none told.
        var batch = CandidateBatch()
        #expect(
            Self.prefilter.search.findWatchingNUL(in: text.span, from: 0, to: text.count, into: &batch, kernel: kernel)
                .nul == nil)
    }

    @Test("the kernels agree on random bytes of every value, with triggers planted in them")
    func randomBytes() {
        var generator = SplitMix(seed: 2812)
        let literals = SecretGuard.triggerLiterals.map { Array($0.utf8) }
        var text: [UInt8] = []
        while text.count < 256 << 10 {
            if generator.next() % 8 == 0 {
                text += literals[Int(generator.next() % UInt64(literals.count))]
            } else {
                // Mostly ASCII, with bytes from 128 up now and then.
                let byte = UInt8(truncatingIfNeeded: generator.next())
                text.append(generator.next() % 4 == 0 ? byte : byte & 0x7f)
            }
        }
        let portable = Self.found(text, from: 0, to: text.count, kernel: .portable)
        #expect(portable.count > 1000)
        for kernel in Self.prefilter.search.kernels + [.fastest] {
            #expect(Self.found(text, from: 0, to: text.count, kernel: kernel) == portable, "\(kernel)")
        }
        #expect(portable == Self.expected(text, from: 0, to: text.count))
    }

    @Test(
        "text the AVX2 filter passes too much of goes to the table kernel and back: the same candidates",
        arguments: SecretPrefilter.shared.search.kernels)
    func denseStretches(_ kernel: CandidateSearch.Kernel) {
        // The bench's clipboard line (one position in seven passes the AVX2 kernel's nibbles) in
        // stretches longer and shorter than the table kernel's run, between text dense with
        // triggers, so the handover falls inside the candidates and the batch fills on both sides.
        let line = Array("0123456789 abcdefghijklmnopqrstuvwxyz \u{e9}\u{e8} ABCDEFGHIJKLMNOPQRSTU\n".utf8)
        var text: [UInt8] = []
        for (index, stretch) in [40 << 10, 3 << 10, 17 << 10, 1 << 10, 20 << 10].enumerated() {
            while text.count < index * (48 << 10) + stretch { text += line }
            text += Self.denseText.prefix(5000 + 700 * index)
        }
        let expected = Self.expected(text, from: 0, to: text.count)
        #expect(expected.count > 600)
        #expect(Self.found(text, from: 0, to: text.count, kernel: kernel) == expected)
        #expect(Self.found(text, from: 0, to: text.count, capacity: 8, kernel: kernel) == expected)
        #expect(
            Self.found(text, from: 1000, to: text.count - 1000, kernel: kernel)
                == Self.expected(text, from: 1000, to: text.count - 1000))
    }

    @Test(
        "the AVX2 kernel runs its narrow plan over text few positions pass, its wide one where many do, and comes back: the same candidates as the table kernel"
    )
    func avx2PlansSwitch() throws {
        guard Self.prefilter.search.kernels.contains(.avx2) else { return }
        // Prose with a trigger planted every forty lines (under one position in eleven passes
        // the narrow plan) around a stretch of log lines dense with triggers (more pass): 1.5
        // MiB of prose on each side, half a MiB more than the wide plan's run (1,024 blocks), so
        // that whatever plan this thread's last search left, each runs over candidates here.
        var generator = SplitMix(seed: 4216)
        let literals = SecretGuard.triggerLiterals.map { Array($0.utf8) }
        // (Prose in Chinese: few of its bytes are a trigger's, so the narrow plan passes few
        // positions whatever the buckets; English prose passes about one in ten of the narrow
        // plan's, as many as log lines, and which plan it gets moves with every literal added.)
        let sentences = [
            "委员会在喝咖啡的时候看了季度的数字，没有人问为什么。\n",
            "她沿着河走，直到身后小镇的灯都亮了起来。\n",
            "大多数的信从来没有回音，有几封几个月后才寄回来。\n",
            "冬天山口的路封了，村子里的人就各过各的日子。\n",
            "他把每个数字都写两遍，一遍用铅笔，一遍凭记忆。\n",
        ].map { Array($0.utf8) }
        func prose(_ count: Int, into text: inout [UInt8]) {
            let end = text.count + count
            var line = 0
            while text.count < end {
                text += sentences[line % sentences.count]
                line += 1
                if line % 40 == 0 {
                    text += literals[Int(generator.next() % UInt64(literals.count))] + Array(" = x\n".utf8)
                }
            }
        }
        var text: [UInt8] = []
        prose(1_536 << 10, into: &text)
        while text.count < (1_536 + 128) << 10 { text += Self.denseText.prefix(4096) }
        prose(1_536 << 10, into: &text)
        let before = CandidateSearch.avx2BlocksOnThisThread
        let found = Self.found(text, from: 0, to: text.count, kernel: .avx2)
        let after = CandidateSearch.avx2BlocksOnThisThread
        let portable = Self.found(text, from: 0, to: text.count, kernel: .portable)
        #expect(portable.count > 2000)
        #expect(found == portable)
        // Each plan ran over a good part of the text: the narrow one over most of the prose, the
        // wide one over the log lines (from their second window of 16 blocks on).
        #expect(after.narrow - before.narrow > 800, "\(before) -> \(after)")
        #expect(after.wide - before.wide > 40, "\(before) -> \(after)")
    }

    /// What makes `entry`'s literal a candidate when it follows: a `.pgpass` line's rest, an
    /// `Authorization` header's separator, a token's least length of its alphabet, a key's
    /// separator and value (nothing for a row whose literal alone is enough).
    static func rest(after entry: SecretPrefilter.Entry) -> [UInt8] {
        if entry.quickTest == .endsKey { return Array(" = s3cr3t-value".utf8) }
        guard entry.rule < prefilter.rules.count else { return [] }
        let rule = prefilter.rules[entry.rule]
        switch rule.check {
        case .pgpass: return Array("1:app:alice:pw".utf8)
        case .basicAuthorization, .bearerAuthorization: return Array(": Basic x".utf8)
        case .token:
            guard let run = rule.shape(literal: prefilter.literal(of: entry)).first else { return [] }
            let byte = Array("aA0".utf8).first(where: run.set.contains) ?? UInt8(ascii: "_")
            return [UInt8](repeating: byte, count: run.length.lowerBound)
        default: return []
        }
    }

    @Test("each trigger literal, at every offset around a step, is a candidate at its pair")
    func everyLiteralAtEveryOffset() {
        let prefilter = Self.prefilter
        for entry in prefilter.entries {
            let literal = prefilter.literal(of: entry)
            let rest = Self.rest(after: entry)
            for offset in [0, 1, 6, 7, 8, 9, 15, 16, 17, 30] {
                let text =
                    [UInt8](repeating: UInt8(ascii: " "), count: offset) + literal + rest
                    + [UInt8](repeating: UInt8(ascii: " "), count: 40)
                let position = offset + entry.pairOffset
                let found = Self.found(text, from: 0, to: text.count).map { $0[0] }
                #expect(found.contains(position), "\(String(decoding: literal, as: UTF8.self))")
            }
        }
    }

    @Test(
        "the key separators, the tokens' lengths (wrapped too), `Authorization`'s separator and long literals are tested in the kernels as the definition says",
        arguments: SecretPrefilter.shared.search.kernels)
    func codeAndProseTests(_ kernel: CandidateSearch.Kernel) {
        // Each piece is a candidate or not by one of the tests the kernels took over from the
        // Swift side (PERF(guard-text): source code's `key)` and `for key in`, prose's `OTHER`
        // and `authorization of`, Python's `import operator`).
        let candidates = [
            "api_key = 'x'", "key: v", "key> v", "[\"key\"] = v", "'key'] = v", "key | v", "--api-key s3cr3t",
            "define('API_KEY', 'v')", "DEFINE( \"DB_PASSWORD\", 'v')",
            "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",
            "y MTk4NjIyNDgz\nNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",
            "x MTk4NjIyNDgz\r\nNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",
            "Authorization: Basic x", "authorization\" = v", "AUTHORIZATION\"] , v", "vault operator unseal k",
        ]
        let others = [
            "key)", "for key in keys", "key, value", "keys = 1", "some key value", "a-key s3cr3t", "define(x, key, v)",
            "OTHERWISE", "NOT ONLY", "MTk4NjIy.NDcx", "authorization of the", "authorizations: x",
            "import operator", "operator unsafe",
        ]
        let noise = Array(" lorem ipsum dolor sit amet, consectetur adipiscing elit\n".utf8)
        for (pieces, found) in [(candidates, true), (others, false)] {
            for piece in pieces {
                for shift in [0, 1, 5, 63] {
                    var text = Array(noise.prefix(shift)) + noise + noise
                    let start = text.count
                    text += Array(piece.utf8) + [UInt8(ascii: " ")] + noise + noise
                    let expected = Self.expected(text, from: 0, to: text.count)
                    #expect(Self.found(text, from: 0, to: text.count, kernel: kernel) == expected, "\(piece)")
                    let inPiece = expected.contains { $0[0] >= start && $0[0] < start + piece.utf8.count }
                    #expect(inPiece == found, "\(kernel): \(piece)")
                }
            }
        }
    }

    @Test("the search lets nothing of ordinary log lines through: the timestamps' colons fail the .pgpass shape")
    func noCandidatesInLogs() {
        let line = Array(
            ("2026-12-03T04:05:06.789Z INFO  [api] request finished request_id=0123456789abcdef user=u42 "
                + "host=10.0.0.1:5432\n").utf8)
        let text = Array((0..<100).map { _ in line }.joined())
        // Every `:0`…`:9` here is a `.pgpass` trigger; none has a port, a database and a user after it.
        #expect(Self.found(text, from: 0, to: text.count).isEmpty)
    }

    @Test("HCL's `value =` is a candidate only before a quote: Python's `value = self._value` never reaches Swift")
    func hclValueNeedsAQuote() {
        let code = Array("        value = self._value\n        value = int(value) + 1\n".utf8)
        #expect(Self.found(code, from: 0, to: code.count).isEmpty)
        let hcl = Array("  name  = \"DB_PASSWORD\"\n  value = \"rV8kq2Lm0pXz7Tn4\"\n".utf8)
        let start = hcl.firstIndex(of: UInt8(ascii: "v"))!
        #expect(Self.found(hcl, from: 0, to: hcl.count).contains { $0[0] >= start && $0[0] < start + 7 })
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
