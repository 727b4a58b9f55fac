import PasteCore
import SecretScanInterop

/// The scanner's first look: which two-byte pairs can be part of a trigger literal.
///
/// Derived from `SecretRule.table` (and the decoders' literals, `SecretDecoder.table`), never
/// written by hand. For every trigger literal one pair of adjacent bytes is chosen, the one
/// least likely in ordinary text (estimated from the byte and pair frequencies below), and
/// entered into a table of all 65,536 pairs, with the set of bytes that may follow it. The
/// search for candidates runs in CSecretScan's C kernel (`search`, through SecretScanInterop):
/// the table eight positions a step, and where a pair is a trigger's, its follower, the first
/// eight bytes of the literals that chose it and their rows' shapes (`SecretRule.shape`), so
/// that the scanner is handed only the positions where a literal is. Every trigger literal
/// contains its pair, so nothing a trigger would find is skipped.
///
/// The derivation is `Plan`. For the built-in table (`shared`) it runs at build time, not in
/// paste: `swift run paste-gen` writes the plan as C constants (CSecretScan's
/// csecret_scan_builtin.h), which the search reads where they lie. Planning it at every start
/// was 1.9 M instructions and some 60 page faults of every run (issue 44).
final class SecretPrefilter: Sendable {
    /// One trigger literal: where its pair sits in it, and which row it belongs to. Plain
    /// integers only, so looking at one costs no reference counting.
    struct Entry: Sendable, Equatable {
        /// Where the literal's bytes start in `literals`.
        var literalStart: Int
        var literalCount: Int
        var ignoresCase: Bool
        /// The offset of the chosen pair in the literal.
        var pairOffset: Int
        /// The row (`rules`) whose check runs, or, at `rules.count` and above, the decoder
        /// (`decoders[rule - rules.count]`) that runs.
        var rule: Int
        /// What can be ruled out before the row's check runs.
        var quickTest: QuickTest
        /// The literal's first eight bytes (or fewer) as a little-endian word, the bytes that
        /// count, and `0x20` at the letters when case is ignored: eight bytes of text match
        /// when `(word | fold) & mask == prefix`.
        var prefix: UInt64
        var mask: UInt64
        var fold: UInt64
    }

    /// A test that rejects most false triggers with a few byte comparisons (its number in the
    /// built-in table: `csecret_scan_trigger.quick_test`).
    enum QuickTest: Int, Sendable {
        case none = 0
        /// The literal starts a word (`SecretText.startsWord`).
        case startsWord = 1
        /// The literal ends a key name that a separator follows (`SecretRule.mayAssign`).
        case endsKey = 2
    }

    /// The entries of group `g` (the pair table's, `Plan.groups`) are
    /// `members[memberStarts[g]..<memberStarts[g + 1]]`.
    let memberStarts: [Int]
    let members: [Int]
    let entries: [Entry]
    /// The bytes of every literal, one after another.
    let literals: [UInt8]
    /// The pair table and the follower sets (`Plan.groups`, `Plan.followers`), nil for the
    /// built-in table's: its search reads the generated constants, and nothing in a run needs
    /// them in Swift (`groups`, `followers`).
    private let ownGroups: [UInt8]?
    private let ownFollowers: [UInt64]?
    /// The rows and their decodings, nil for the built-in table's: `SecretRule.table` is made
    /// at the first candidate that needs a row, not at start-up (`rules`, `ruleDecodings`).
    private let ownRules: [SecretRule]?
    private let ownRuleDecodings: [SecretDecoding?]?
    /// The decodings that run around their own trigger literals (`SecretDecoder.table`).
    let decoders: [SecretDecoder]
    /// The search for the candidates: the pair table, each group's followers and members (their
    /// literals' first eight bytes and their rows' shapes).
    ///
    /// PERF(guard-text): where the processor has AVX-512 VBMI, a vector kernel tests 64
    /// positions a step against the groups in sixteen buckets (exact classes of a position's
    /// three bytes, one 128-entry byte lookup per stage and eight buckets), and only the
    /// positions that pass (19 thousand per MiB of log lines, 8 and 10 thousand of code and
    /// prose, against 16, 4 and 4 thousand that pass the pair and its follower) go on to the
    /// pair table; a quick test of 64 bytes at once turns away most `.pgpass` triggers (a
    /// timestamp's two colons where a row has four). Elsewhere the portable kernel looks the
    /// table up at every position, eight a step. Teddy (nibble masks, as in Hyperscan and
    /// ripgrep) was built and measured first: with the guard's ~150 pairs it let 40-75 thousand
    /// positions per MiB through, and lost to the table (docs/performance.md, issue 28). The
    /// byte frequencies below place the groups in the buckets.
    let search: CandidateSearch

    /// The pair `(first, second)` at index `first | second << 8` names its group (0: none), as
    /// the plan gives it (`Plan.groups`): for the built-in table, planned again here on first use
    /// (by the tests; the search reads the generated constants, which SecretPlanFileTests holds to
    /// the plan).
    var groups: [UInt8] { ownGroups ?? Self.builtInPlan.groups }

    /// Which bytes may follow group `g`'s pair (`Plan.followers`), as `groups`.
    var followers: [UInt64] { ownFollowers ?? Self.builtInPlan.followers }

    static let builtInPlan = Plan.builtIn

    /// The rows, for each a candidate's entry may name (`Entry.rule`).
    var rules: [SecretRule] { ownRules ?? SecretRule.table }

    /// For each row, the decoding it runs (`SecretRule.Check.decoded`), or nil: read at every
    /// candidate instead of the row's check, which would copy its payload.
    var ruleDecodings: [SecretDecoding?] { ownRuleDecodings ?? Self.builtInRuleDecodings }

    static let builtInRuleDecodings = decodings(of: SecretRule.table)

    static func decodings(of rules: [SecretRule]) -> [SecretDecoding?] {
        rules.map { rule -> SecretDecoding? in
            guard case .decoded(let decoding) = rule.check else { return nil }
            return decoding
        }
    }

    /// The prefilter of the built-in table (`SecretRule.table`, `SecretDecoder.table`), planned at
    /// build time: its tables are the static constants of CSecretScan's csecret_scan_builtin.h,
    /// which `swift run paste-gen` writes from `Plan.builtIn` (SecretPlanFileTests fails while
    /// the file differs from the table). Making it costs a copy of the few hundred entries; the
    /// pair table is read where it lies, a page at a time as the search touches it.
    static let shared = SecretPrefilter(builtIn: CandidateSearch.BuiltInTable())

    /// The prefilter of `rules` and `decoders`, planned here (`Plan`): the rows' trigger
    /// literals, then the decoders'.
    init(rules: [SecretRule], decoders: [SecretDecoder] = SecretDecoder.table) {
        let plan = Plan(rules: rules, decoders: decoders)
        ownGroups = plan.groups
        ownFollowers = plan.followers
        ownRules = rules
        ownRuleDecodings = Self.decodings(of: rules)
        self.decoders = decoders
        memberStarts = plan.memberStarts
        members = plan.members
        entries = plan.entries
        literals = plan.literals
        search = CandidateSearch(
            groups: plan.groups, followers: plan.followers, members: plan.searchMembers,
            byteFrequencies: plan.byteFrequencies)
    }

    private init(builtIn table: CandidateSearch.BuiltInTable) {
        ownGroups = nil
        ownFollowers = nil
        ownRules = nil
        ownRuleDecodings = nil
        decoders = SecretDecoder.table
        memberStarts = table.memberStarts
        members = table.memberTriggers
        literals = table.literals
        entries = table.triggers.map { trigger in
            Entry(
                literalStart: trigger.literalStart, literalCount: trigger.literalCount,
                ignoresCase: trigger.ignoresCase,
                pairOffset: trigger.pairOffset, rule: trigger.owner,
                quickTest: QuickTest(rawValue: trigger.quickTest) ?? .none, prefix: trigger.prefix, mask: trigger.mask,
                fold: trigger.fold)
        }
        search = table.search
    }

    /// The bytes of an entry's literal.
    func literal(of entry: Entry) -> [UInt8] {
        Array(literals[entry.literalStart..<(entry.literalStart + entry.literalCount)])
    }

    /// Whether `entry`'s literal is in `text` at `start` (in either case when it ignores case):
    /// `SecretText.has(_:at:_:ignoringCase:)` with `literal(of:)`, without copying the literal.
    func hasLiteral(of entry: Entry, in text: Span<UInt8>, at start: Int) -> Bool {
        guard start >= 0, start + entry.literalCount <= text.count else { return false }
        for offset in 0..<entry.literalCount {
            let here = text[start + offset]
            let wanted = literals[entry.literalStart + offset]
            guard
                here == wanted
                    || (entry.ignoresCase && SecretText.lowercased(here) == SecretText.lowercased(wanted))
            else { return false }
        }
        return true
    }

    // MARK: - Choosing the pair

    /// The offset of the pair in `literal` least likely to occur in the text people paste, among
    /// those with a byte after them when the literal has three or more: that byte is the pair's
    /// follower, tested in the search's inner loop before anything else, so what a choice costs
    /// is how often the pair and its follower occur together (`estimatedTriple`); a literal of
    /// two bytes has only its pair.
    ///
    /// PERF(guard-text): by the pair alone, `password` took `wo` (rarer by its bytes than `ss` or
    /// `sw`), and with its follower that is the `wor` of `work`, `world` and a log line's
    /// `worker`: a third of the bench's prose positions that reached a member. By the three
    /// bytes it takes `ssw`. Over the bench's 256 MiB (`scripts/guard-kernel`, the kernel alone,
    /// the two plans alternating, medians of seven rounds' ratios): log lines 0.89x, prose
    /// 0.89x, source code 0.99x (docs/performance.md, session 17).
    static func rarestPair(in literal: [UInt8], ignoringCase: Bool) -> Int {
        var best = 0
        var bestCost = Double.infinity
        for offset in 0..<(literal.count - (literal.count >= 3 ? 2 : 1)) {
            var cost = 0.0
            if literal.count >= 3 {
                cost = estimatedTriple(
                    literal[offset], literal[offset + 1], literal[offset + 2], ignoringCase: ignoringCase)
            } else {
                let spelled = spellings(of: literal[offset], literal[offset + 1], ignoringCase: ignoringCase)
                for index in 0..<spelled.count {
                    let pair = spelled[index]
                    cost += estimatedFrequency(UInt8(truncatingIfNeeded: pair), UInt8(truncatingIfNeeded: pair >> 8))
                }
            }
            if cost < bestCost {
                best = offset
                bestCost = cost
            }
        }
        return best
    }

    /// How often the three bytes are expected together per byte of the text people paste, in
    /// every letter case when `ignoringCase`: half code and prose, half log lines, as the vector
    /// kernels' buckets are planned (`filterFrequency`). In code and prose, a chain of the pairs'
    /// estimates (`estimatedFrequency`): the first pair's frequency times how often its middle
    /// byte goes on to the third; in log lines, the bytes' frequencies (`logFrequencies`: no
    /// pairs were measured there). Chosen by code and prose alone, the pairs were rare there but
    /// made of log lines' bytes (`lu`, digits, `=`): the AVX2 filter passed 8.5 % of the bench's
    /// log lines instead of 5.0 %, and they took 1.36x as long.
    static func estimatedTriple(_ first: UInt8, _ second: UInt8, _ third: UInt8, ignoringCase: Bool) -> Double {
        func cases(_ byte: UInt8) -> [UInt8] {
            guard ignoringCase, let other = otherCase(byte) else { return [byte] }
            return [byte, other]
        }
        var total = 0.0
        for a in cases(first) {
            for b in cases(second) {
                for c in cases(third) {
                    let ordinary = estimatedFrequency(a, b) * estimatedFrequency(b, c) / byteFrequency(b)
                    let logs = logFrequency(a) * logFrequency(b) * logFrequency(c)
                    total += 0.5 * ordinary + 0.5 * logs
                }
            }
        }
        return total
    }

    /// The table indices of a pair, in every letter case when `ignoringCase`: up to four, held
    /// without an allocation.
    struct Spellings: Sendable {
        var count = 0
        var pairs = InlineArray<4, Int>(repeating: 0)

        subscript(index: Int) -> Int { pairs[index] }

        mutating func append(_ pair: Int) {
            pairs[count] = pair
            count += 1
        }
    }

    static func spellings(of first: UInt8, _ second: UInt8, ignoringCase: Bool) -> Spellings {
        var result = Spellings()
        let otherFirst = ignoringCase ? otherCase(first) : nil
        let otherSecond = ignoringCase ? otherCase(second) : nil
        result.append(Int(first) | Int(second) << 8)
        if let otherSecond { result.append(Int(first) | Int(otherSecond) << 8) }
        if let otherFirst {
            result.append(Int(otherFirst) | Int(second) << 8)
            if let otherSecond { result.append(Int(otherFirst) | Int(otherSecond) << 8) }
        }
        return result
    }

    static func otherCase(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x41...0x5a: byte + 32
        case 0x61...0x7a: byte - 32
        default: nil
        }
    }

    /// How often the pair is expected per byte of ordinary text: measured for the pairs much
    /// more common than their bytes suggest (`th`, `ke`, `s.`), else the product of the bytes'
    /// frequencies.
    static func estimatedFrequency(_ first: UInt8, _ second: UInt8) -> Double {
        if let measured = measuredPairs[Int(first) | Int(second) << 8] { return measured }
        return byteFrequency(first) * byteFrequency(second)
    }

    /// The frequency of a byte in ordinary text, per byte.
    static func byteFrequency(_ byte: UInt8) -> Double {
        frequency(of: byte, printable: printableFrequencies, newline: 0.026)
    }

    /// A byte's frequency by a table of the printable characters' per 100,000 bytes and the
    /// line feed's: every other byte is rare.
    static func frequency(of byte: UInt8, printable: [Int], newline: Double) -> Double {
        guard byte >= 0x20 && byte < 0x7f else { return byte == 0x0a ? newline : 0.000_01 }
        return Double(printable[Int(byte) - 0x20]) / 100_000
    }

    /// The frequency of a byte in log lines, per byte (`logFrequencies`).
    static func logFrequency(_ byte: UInt8) -> Double {
        frequency(of: byte, printable: logFrequencies, newline: 0.014)
    }

    /// The frequency of a byte in the text people paste, per byte, as the search's vector
    /// kernels plan their filters by it: half code and prose (`byteFrequency`), half log lines
    /// (`logFrequencies`). Log lines are what `dmesg | paste` sends, and they are full of the
    /// digits, colons and hex that code and prose have few of. Planned by `byteFrequency` alone,
    /// the AVX2 kernel's filter let 10.7 % of the bench's log lines' positions through, by this
    /// 5.9 % (its scan 358 ms → 265 ms for 256 MiB), and 2.1 % → 3.2 % of code, 1.8 % → 2.7 %
    /// of prose (176 → 188 ms, 179 → 187 ms).
    static func filterFrequency(_ byte: UInt8) -> Double {
        0.5 * byteFrequency(byte) + 0.5 * logFrequency(byte)
    }

    /// Occurrences per 100,000 bytes of the printable ASCII characters, space to `~`, in the
    /// logs of a fresh Debian machine (`dpkg.log`, `apt/term.log`, `apt/history.log`,
    /// `alternatives.log` and `dmesg`: 0.8 MB).
    static let logFrequencies: [Int] = [
        7275, 0, 1, 0, 0, 66, 0, 6, 427, 372, 0, 567, 223, 4743, 4544, 528, 4023, 4480, 5207, 1802, 2706, 1629, 2677,
        846, 706, 800, 3105, 1, 225, 12, 226, 0, 1, 51, 10, 46, 15, 15, 8, 11, 3, 21, 0, 6, 9, 13, 7, 7, 138, 1, 86,
        246, 21, 124, 5, 1, 2, 0, 1, 47, 0, 46, 0, 315, 0, 5024, 2045, 1970, 3416, 4242, 969, 1701, 522, 3427, 199,
        945, 3511, 1910, 3290, 1990, 1699, 119, 1571, 3136, 3656, 2673, 609, 166, 291, 327, 114, 0, 0, 0, 75,
    ]

    /// Occurrences per 100,000 bytes of the printable ASCII characters, space to `~`, in
    /// `scripts/secret-guard-fp`'s corpus (licences, Swift docs and interfaces, the Python
    /// standard library: 14 MB).
    static let printableFrequencies: [Int] = [
        27108, 21, 631, 445, 6, 56, 7, 1126, 948, 949, 134, 59, 1097, 542, 1278, 67, 811, 326, 206, 136, 111, 120,
        126, 65, 118, 80, 769, 31, 71, 612, 284, 34, 108, 554, 168, 467, 233, 670, 186, 128, 137, 550, 11, 51, 497,
        173, 405, 387, 220, 18, 448, 587, 706, 156, 89, 114, 46, 44, 20, 117, 224, 117, 4, 1339, 38, 3591, 752, 1992,
        1779, 6545, 1710, 829, 1084, 3522, 87, 335, 2587, 1246, 3565, 3167, 1390, 88, 3563, 3491, 4439, 1583, 449,
        568, 706, 611, 71, 100, 21, 100, 4,
    ]

    /// The pairs of the same corpus seen at least 8 times per 100,000 bytes and at least three
    /// times as often as their bytes' frequencies predict, with that count: a pair, then digits.
    static let measuredPairs: [Int: Double] = {
        let list = #"""
            in877 se839 re775 er716 on661 or579 at574 th540 el520 le519 de508 nt493 al445 he420 me391 ar387
            is380 lf356 co348 if330 ng321 li305 nd296 il292 ur278 ex257 nc252 f.249 0x241 od230 ac222 am213
            ""205 ge202 ma201 pa199 bl193 om191 --185 fi181 ch177 wi175 ->174 ):173 un170 ou167 va165 fo163
            ve163 mp160 __158 ha157 ._155 pr150 po149 ul148 (s145 ()141 00141 s.139 x0139 ab135 lu130 LE128
            '\126 ER124 0,123 OS121 IN116 TE116 .0111 No108 AL106 ck106 ',101 Re99 xt97 ET96 ry96 pu95 ub95 wa95
            ke94 ==91 TI91 \n91 TT88 ty88 AT87 Sw83 IT82 In79 um79 bu78 Co76 LA74 up73 yp73 ow69 qu67 ##64 ))63
            f,63 pp62 xc62 LL61 MA60 av60 ly60 ':58 TA57 iv57 wh57 ')54 bj54 d(54 ('53 \u53 CA52 \x50 Th48 by46
            AP45 ON45 eq45 sk45 Bu44 SM44 TH44 PI43 RE43 ),42 WI41 iz41 ")40 ",40 (m40 RA40 ze40 AR39 ("38 IG38
            Ex37 SI37 je37 **36 1,36 @_36 y:34 Fa33 RI33 mb33 xp33 y.33 IC32 .S31 Va31 LI30 py30 1629 6.29 @a29
            NG29 >>28 NT28 OR28 VE28 .A27 ST27 *)26 AC26 HA26 cO26 3.25 EN25 ND25 Pa25 hO25 vO25 1024 AN24 DI24
            _v24 0123 DE23 0422 1322 2,22 2522 ES22 Fl22 IL22 SE22 _C22 u222 %s21 0321 =N21 IO21 RO21 1820 DO20
            IS20 x120 C119 CO19 Un19 k_19 x219 xC19 (v18 1518 4,18 5,18 8.18 HT18 OU18 s[18 y(18 .F17 1117 3,17
            ;'17 ED17 k(17 -116 1.16 BL16 BO16 C216 CE16 GS16 Ty16 UT16 xB16 .D15 2.15 AS15 C315 GN15 GR15 NE15
            [015 ])15 0214 0]14 2014 6414 GH14 ME14 PE14 RT14 TR14 0613 1'13 1213 1:13 AB13 AW13 C413 CU13 DR13
            EF13 LO13 NO13 OL13 SO13 kw13 t<13 .B12 1)12 2212 3212 6,12 >(12 AV12 HE12 OT12 OX12 Py12 UB12 jo12
            "R11 ']11 .U11 .\11 //11 0511 1]11 2'11 5.11 8'11 C511 CT11 CY11 EX11 FI11 HO11 PA11 QU11 Sy11 TO11
            UL11 YR11 ['11 _D11 cq11 x811 !=10 2610 8010 ?,10 C610 CH10 CK10 FT10 GI10 UI10 UR10 []10 (W9 )>9
            079 089 099 3'9 4'9 599 7,9 8,9 9.9 <(9 @d9 BI9 FL9 IA9 IP9 MI9 OW9 UN9 UP9 ],9 ``9 gP9 k:9 x99 xP9
            {}9 'H8 +=8 .j8 6'8 AM8 C78 CI8 EK8 FO8 OD8 OF8 PO8 SH8 US8 W,8 [18 _F8 za8
            """#
        // Parsed byte by byte: for the plans made at run time (the built-in one is made at build time).
        var pairs: [Int: Double] = [:]
        pairs.reserveCapacity(400)
        let bytes = Array(list.utf8)
        var index = 0
        while index + 2 < bytes.count {
            let pair = Int(bytes[index]) | Int(bytes[index + 1]) << 8
            index += 2
            var count = 0
            while index < bytes.count && SecretText.isDigit(bytes[index]) {
                count = count * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            pairs[pair] = Double(count) / 100_000
            index += 1  // the space or line break
        }
        return pairs
    }()
}
