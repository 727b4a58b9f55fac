import SecretScanInterop

extension SecretPrefilter {
    /// What the prefilter derives from the rows and decoders: its entries and literals, the pair
    /// table, each group's members and followers, and what the search needs beside them.
    ///
    /// Made at build time for the built-in table: `swift run paste-gen` writes `cHeader` of
    /// `builtIn` to `headerPath`, and the binary reads those constants (`SecretPrefilter.shared`);
    /// SecretPlanFileTests fails while the file differs from what this gives. A prefilter of other
    /// rows (the tests') is planned at run time, by the same code.
    struct Plan: Sendable {
        var entries: [Entry]
        /// The bytes of every literal, one after another.
        var literals: [UInt8]
        /// The pair `(first, second)` at index `first | second << 8` names its group (0: none).
        var groups: [UInt8]
        /// The entries of group `g` are `members[memberStarts[g]..<memberStarts[g + 1]]`.
        var memberStarts: [Int]
        var members: [Int]
        /// Which bytes may follow group `g`'s pair: bit `b` of the 256-bit set in words
        /// `4g..<4g+4` is set when some member's literal has byte `b` (in either case when it
        /// ignores case) right after its pair, or has nothing after it. A hit whose next byte is
        /// not in the set cannot start any member: one test instead of one per member (text that
        /// is full of a pair, `gh` in `abcdefghij`, no longer pays for five `gh…_` prefixes).
        /// Group 0's four words are 0: the AVX2 kernel tests the follower without a branch on the
        /// group (`csecret_scan_create` clears them; the built-in table's are written as they are).
        var followers: [UInt64]
        /// Each entry's shape (`SecretRule.shape(literal:)`), as the search tests it.
        var shapes: [[CandidateSearch.Run]]
        /// `SecretPrefilter.filterFrequency` of every byte: the vector kernels' buckets are
        /// planned by it.
        var byteFrequencies: [Float]

        /// The plan of the built-in table.
        static var builtIn: Plan { Plan(rules: SecretRule.table, decoders: SecretDecoder.table) }

        /// Where `cHeader` is kept, from the package's root.
        static let headerPath = "Sources/CSecretScan/csecret_scan_builtin.h"

        /// The plan of `rules` and `decoders`: the rows' trigger literals, then the decoders'.
        init(rules: [SecretRule], decoders: [SecretDecoder]) {
            var triggers: [(literal: [UInt8], ignoresCase: Bool, quickTest: QuickTest, rule: Int)] = []
            var triggerShapes: [[CandidateSearch.Run]] = []
            for (index, rule) in rules.enumerated() {
                for trigger in rule.triggers {
                    let literal = Array(trigger.utf8)
                    triggers.append((literal, rule.ignoresCase, rule.quickTest, index))
                    triggerShapes.append(
                        rule.shape(literal: literal).map {
                            CandidateSearch.Run(
                                low: $0.set.low, high: $0.set.high, minimum: $0.length.lowerBound,
                                maximum: $0.length.upperBound)
                        })
                }
            }
            for (index, decoder) in decoders.enumerated() {
                for trigger in decoder.triggers {
                    triggers.append((Array(trigger.utf8), decoder.ignoresCase, .none, rules.count + index))
                    triggerShapes.append([])
                }
            }
            shapes = triggerShapes
            var entries: [Entry] = []
            var literals: [UInt8] = []
            for trigger in triggers {
                let literal = trigger.literal
                let offset = SecretPrefilter.rarestPair(in: literal, ignoringCase: trigger.ignoresCase)
                var prefix: UInt64 = 0
                var mask: UInt64 = 0
                var fold: UInt64 = 0
                for (position, byte) in literal.prefix(8).enumerated() {
                    let shift = UInt64(position * 8)
                    let folds = trigger.ignoresCase && SecretPrefilter.otherCase(byte) != nil
                    prefix |= UInt64(folds ? byte | 0x20 : byte) << shift
                    mask |= 0xff << shift
                    if folds { fold |= 0x20 << shift }
                }
                entries.append(
                    Entry(
                        literalStart: literals.count, literalCount: literal.count, ignoresCase: trigger.ignoresCase,
                        pairOffset: offset, rule: trigger.rule, quickTest: trigger.quickTest, prefix: prefix,
                        mask: mask, fold: fold))
                literals += literal
            }
            // A group for each pair some literal chose (in every letter case when it ignores
            // case), numbered in the order of the pairs.
            var pairs: [(pair: Int, entry: Int)] = []
            for (index, entry) in entries.enumerated() {
                let first = literals[entry.literalStart + entry.pairOffset]
                let second = literals[entry.literalStart + entry.pairOffset + 1]
                let spelled = SecretPrefilter.spellings(of: first, second, ignoringCase: entry.ignoresCase)
                for spelling in 0..<spelled.count { pairs.append((spelled[spelling], index)) }
            }
            pairs.sort { $0.pair != $1.pair ? $0.pair < $1.pair : $0.entry < $1.entry }
            var groups = [UInt8](repeating: 0, count: CandidateSearch.pairCount)
            var starts = [0, 0]  // group 0 (no trigger) has no members
            var members: [Int] = []
            for (position, item) in pairs.enumerated() {
                if position > 0 && pairs[position - 1].pair != item.pair {
                    starts.append(members.count)
                }
                precondition(starts.count - 1 < 256, "more than 255 distinct trigger pairs")
                groups[item.pair] = UInt8(starts.count - 1)
                members.append(item.entry)
            }
            starts.append(members.count)
            var followers = [UInt64](repeating: 0, count: 4 * (starts.count - 1))
            for group in 1..<(starts.count - 1) {
                for member in starts[group]..<starts[group + 1] {
                    let entry = entries[members[member]]
                    let next = entry.pairOffset + 2
                    guard next < entry.literalCount else {
                        for word in 0..<4 { followers[4 * group + word] = ~0 }
                        break
                    }
                    let byte = literals[entry.literalStart + next]
                    followers[4 * group + Int(byte >> 6)] |= 1 << UInt64(byte & 63)
                    if entry.ignoresCase, let other = SecretPrefilter.otherCase(byte) {
                        followers[4 * group + Int(other >> 6)] |= 1 << UInt64(other & 63)
                    }
                }
            }
            self.entries = entries
            self.literals = literals
            self.groups = groups
            self.memberStarts = starts
            self.members = members
            self.followers = followers
            byteFrequencies = (0..<256).map { Float(SecretPrefilter.filterFrequency(UInt8($0))) }
        }

        /// Each group's members as the search tests them (group 0 has none).
        var searchMembers: [[CandidateSearch.Member]] {
            var result: [[CandidateSearch.Member]] = [[]]
            for group in 1..<(memberStarts.count - 1) {
                result.append(
                    members[memberStarts[group]..<memberStarts[group + 1]].map { index in
                        let entry = entries[index]
                        return CandidateSearch.Member(
                            pairOffset: entry.pairOffset, length: entry.literalCount, prefix: entry.prefix,
                            mask: entry.mask, fold: entry.fold, shape: shapes[index],
                            startsWord: entry.quickTest == .startsWord, endsKey: entry.quickTest == .endsKey)
                    })
            }
            return result
        }
    }
}

extension SecretPrefilter.Plan {
    /// The plan as C constants (CSecretScan's csecret_scan_builtin.h, `headerPath`): the
    /// search's tables in the order and layout `csecret_scan_create` copies them in (the
    /// members group by group, each member's shape runs after the previous member's), and the
    /// entries, which entry each member is and the literals, for `SecretPrefilter.shared`.
    /// `static const` arrays of integers with no pointer among them: they go to the binary's
    /// `.rodata` with no relocation, so the loader writes none of their pages, and a page is read
    /// only when the search touches it.
    var cHeader: String {
        var out = """
            // Generated by `swift run paste-gen` from the secret guard's rule table (SecretRule.table and
            // SecretDecoder.table, through SecretPrefilter.Plan in Sources/SecretGuard/SecretPrefilter+Plan.swift):
            // do not edit. SecretPlanFileTests fails while this file differs from what the table gives.
            //
            // The built-in candidate search's tables (csecret_scan_create_builtin) and what the scanner
            // reads beside them (csecret_scan_builtin_triggers and the others): static constants, planned
            // at build time, read where they lie in the binary's .rodata (no pointer among them, so no
            // relocation: the loader writes none of their pages).
            #ifndef CSECRET_SCAN_BUILTIN_H
            #define CSECRET_SCAN_BUILTIN_H

            #include "csecret_scan.h"


            """
        var runs: [CandidateSearch.Run] = []
        var memberLines: [String] = []
        for group in searchMembers {
            for member in group {
                memberLines.append(
                    "{\(Self.hex(member.prefix)), \(Self.hex(member.mask)), \(Self.hex(member.fold)), "
                        + "\(member.pairOffset), \(member.length), \(runs.count), \(member.shape.count), "
                        + "\(member.startsWord ? 1 : 0), \(member.endsKey ? 1 : 0)},")
                runs += member.shape
            }
        }
        let groupCount = memberStarts.count - 1
        out += "#define BUILTIN_GROUPS \(groupCount)\n"
        out += "#define BUILTIN_MEMBERS \(members.count)\n"
        out += "#define BUILTIN_RUNS \(runs.count)\n"
        out += "#define BUILTIN_TRIGGERS \(entries.count)\n"
        out += "#define BUILTIN_LITERAL_BYTES \(literals.count)\n\n"

        out += "/// The pair table: the group of pair `first | second << 8` (0, for none, where none is named).\n"
        out += "static const uint8_t builtin_groups[CSECRET_SCAN_PAIRS] = {\n"
        let named = groups.indices.filter { groups[$0] != 0 }.map { "[\(Self.hex($0, digits: 4))] = \(groups[$0])," }
        out += Self.lines(named, perLine: 6)
        out += "};\n\n"

        out += "/// Each group's followers: four words, the 256-bit set of the bytes that may follow its pair.\n"
        out += "static const uint64_t builtin_followers[4 * BUILTIN_GROUPS] = {\n"
        out += Self.lines(followers.map { Self.hex($0) + "," }, perLine: 4)
        out += "};\n\n"

        out +=
            "/// Group `g`'s members are `builtin_members[builtin_member_starts[g]..<builtin_member_starts[g + 1]]`.\n"
        out += "static const uint32_t builtin_member_starts[BUILTIN_GROUPS + 1] = {\n"
        out += Self.lines(memberStarts.map { "\($0)," }, perLine: 16)
        out += "};\n\n"

        out += "/// The members: prefix, mask, fold, offset, length, shape_start, shape_count, starts_word, ends_key.\n"
        out += "static const csecret_scan_member builtin_members[BUILTIN_MEMBERS] = {\n"
        out += Self.lines(memberLines, perLine: 1)
        out += "};\n\n"

        out += "/// The members' shapes: set, min, max.\n"
        out += "static const csecret_scan_run builtin_runs[BUILTIN_RUNS > 0 ? BUILTIN_RUNS : 1] = {\n"
        out += Self.lines(
            runs.map {
                "{{\(Self.hex($0.low)), \(Self.hex($0.high))}, \($0.minimum), \(min($0.maximum, Int(UInt32.max)))},"
            },
            perLine: 2)
        out += "};\n\n"

        out += "/// How often each byte is expected in the text people paste (SecretPrefilter.filterFrequency):\n"
        out += "/// the vector kernels' buckets are planned by it, on their first use.\n"
        out += "static const float builtin_frequencies[256] = {\n"
        out += Self.lines(byteFrequencies.map { "\(Self.decimal($0))f," }, perLine: 8)
        out += "};\n\n"

        out += "/// Which trigger each member is.\n"
        out += "static const uint32_t builtin_member_triggers[BUILTIN_MEMBERS] = {\n"
        out += Self.lines(members.map { "\($0)," }, perLine: 16)
        out += "};\n\n"

        out += "/// The triggers: prefix, mask, fold, literal_start, literal_count, pair_offset, owner (the row,\n"
        out += "/// or SecretRule.table.count + the decoder), ignores_case, quick_test.\n"
        out += "static const csecret_scan_trigger builtin_triggers[BUILTIN_TRIGGERS] = {\n"
        out += Self.lines(
            entries.map {
                "{\(Self.hex($0.prefix)), \(Self.hex($0.mask)), \(Self.hex($0.fold)), \($0.literalStart), "
                    + "\($0.literalCount), \($0.pairOffset), \($0.rule), \($0.ignoresCase ? 1 : 0), "
                    + "\($0.quickTest.rawValue)},"
            }, perLine: 1)
        out += "};\n\n"

        out += "/// The triggers' literals, one after another (no NUL after the last).\n"
        out += "static const uint8_t builtin_literals[BUILTIN_LITERAL_BYTES] = {\n"
        out += Self.lines(literals.map { "\($0)," }, perLine: 20)
        out += "};\n\n"
        out += "#endif\n"
        return out
    }

    /// `items`, `perLine` to a line, each line indented by four spaces.
    static func lines(_ items: [String], perLine: Int) -> String {
        var out = ""
        var index = 0
        while index < items.count {
            out += "    " + items[index..<min(index + perLine, items.count)].joined(separator: " ") + "\n"
            index += perLine
        }
        return out
    }

    static func hex<Value: BinaryInteger>(_ value: Value, digits: Int = 1) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A frequency as C reads it back to the same `float`: Swift's shortest exact spelling, with
    /// a fraction or exponent always there.
    static func decimal(_ value: Float) -> String {
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }
}

extension SecretGuard {
    /// The files made from the rule table at build time (`swift run paste-gen` writes them):
    /// each one's path from the package's root and its text.
    public static var generatedFiles: [(path: String, text: String)] {
        [(SecretPrefilter.Plan.headerPath, SecretPrefilter.Plan.builtIn.cHeader)]
    }
}
