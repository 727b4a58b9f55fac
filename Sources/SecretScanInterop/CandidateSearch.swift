internal import CSecretScan

/// The secret guard's candidate search, run by the C kernel in CSecretScan.
///
/// Finds the positions of a text whose two bytes form a pair of the pair table, whose next byte
/// may follow that pair, and where some member of the pair's group fits (`Member`), as
/// SecretGuard's prefilter defines them: the tables come from there, and this module only runs
/// the search.
///
/// Owns the C search (`csecret_scan_create`), freed in `deinit` (`csecret_scan_destroy`).
public final class CandidateSearch: @unchecked Sendable {
    // @unchecked Sendable: the C search is written once, in `init`, and only read after that
    // (`csecret_scan_find` takes it as `const`), so threads may share it.

    /// The entries of the pair table (`CSECRET_SCAN_PAIRS`).
    public static let pairCount = Int(CSECRET_SCAN_PAIRS)

    /// One run of a shape: at least `minimum` and at most `maximum` bytes of `set` (ASCII: bit
    /// `b` of `set.low` for `b < 64`, bit `b - 64` of `set.high` above), as many as there are.
    public struct Run: Sendable {
        public var low: UInt64
        public var high: UInt64
        public var minimum: Int
        public var maximum: Int

        public init(low: UInt64, high: UInt64, minimum: Int, maximum: Int) {
            precondition(minimum >= 0 && minimum <= maximum, "a run's length is a range")
            self.low = low
            self.high = high
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// A trigger literal of a group, as the search tests it: where the pair sits in it, its
    /// length, its first eight bytes as a little-endian word (text fits when
    /// `(word | fold) & mask == prefix`), its shape, the runs the text must have from the
    /// literal's start (empty: none), whether it must start a word (`startsWord`: no ASCII
    /// letter or digit before it, but for the end of a terminal colour code, a `\n`-style or a
    /// `%XX` escape; SecretGuard's `SecretText.startsWord` without glue words), and whether it
    /// must end a key (`endsKey`: a byte follows it, not an ASCII letter, digit, `_`, `-` or `.`,
    /// and a separator after it: SecretGuard's `SecretRule.mayAssign`, byte for byte).
    public struct Member: Sendable {
        public var pairOffset: Int
        public var length: Int
        public var prefix: UInt64
        public var mask: UInt64
        public var fold: UInt64
        public var shape: [Run]
        public var startsWord: Bool
        public var endsKey: Bool

        public init(
            pairOffset: Int, length: Int, prefix: UInt64, mask: UInt64, fold: UInt64, shape: [Run],
            startsWord: Bool = false, endsKey: Bool = false
        ) {
            precondition(pairOffset >= 0 && pairOffset + 2 <= length, "the pair lies in the literal")
            self.pairOffset = pairOffset
            self.length = length
            self.prefix = prefix
            self.mask = mask
            self.fold = fold
            self.shape = shape
            self.startsWord = startsWord
            self.endsKey = endsKey
        }
    }

    let search: OpaquePointer

    /// Makes a search.
    ///
    /// Wraps `csecret_scan_create`, which copies every table.
    /// - Parameters:
    ///   - groups: the pair table (`pairCount` entries: the group of pair `first | second << 8`,
    ///     0 for none).
    ///   - followers: four words per group (group 0 included): the 256-bit set of the bytes that
    ///     may follow the group's pair.
    ///   - members: each group's members (group 0 has none): a position whose pair is the
    ///     group's is a candidate only where one of them fits.
    ///   - byteFrequencies: how often each byte (256 entries) is expected in ordinary text: the
    ///     vector kernel groups the pairs by it, so that it lets the fewest positions through to
    ///     the pair table. The candidates found never depend on it.
    public init(groups: [UInt8], followers: [UInt64], members: [[Member]], byteFrequencies: [Float]) {
        precondition(groups.count == Self.pairCount, "the pair table has an entry for every pair")
        precondition(followers.count % 4 == 0 && members.count == followers.count / 4, "four words per group")
        precondition(groups.allSatisfy { Int($0) < members.count }, "every group has its followers and members")
        precondition(byteFrequencies.count == 256, "a frequency for every byte")
        var starts: [UInt32] = [0]
        var flat: [csecret_scan_member] = []
        var runs: [csecret_scan_run] = []
        for group in members {
            for member in group {
                flat.append(
                    csecret_scan_member(
                        prefix: member.prefix, mask: member.mask, fold: member.fold,
                        offset: UInt32(member.pairOffset), length: UInt32(member.length),
                        shape_start: UInt32(runs.count), shape_count: UInt32(member.shape.count),
                        starts_word: member.startsWord ? 1 : 0, ends_key: member.endsKey ? 1 : 0))
                for run in member.shape {
                    runs.append(
                        csecret_scan_run(
                            set: (run.low, run.high), min: UInt32(run.minimum),
                            max: UInt32(min(run.maximum, Int(UInt32.max)))))
                }
            }
            starts.append(UInt32(flat.count))
        }
        guard
            let search = groups.withUnsafeBufferPointer({ groups in
                followers.withUnsafeBufferPointer { followers in
                    starts.withUnsafeBufferPointer { starts in
                        flat.withUnsafeBufferPointer { flat in
                            runs.withUnsafeBufferPointer { runs in
                                byteFrequencies.withUnsafeBufferPointer { frequencies in
                                    csecret_scan_create(
                                        groups.baseAddress, followers.baseAddress, followers.count / 4,
                                        starts.baseAddress, flat.baseAddress, flat.count, runs.baseAddress,
                                        runs.count, frequencies.baseAddress)
                                }
                            }
                        }
                    }
                }
            })
        else { preconditionFailure("out of memory for the candidate search") }
        self.search = search
    }

    /// Takes a search made in C (`csecret_scan_create_builtin`).
    init(_ search: OpaquePointer) { self.search = search }

    deinit { csecret_scan_destroy(search) }

    /// Which of the C kernels a search runs: they find the same candidates.
    public enum Kernel: Sendable, CaseIterable, CustomStringConvertible {
        /// The fastest of those that run here (`csecret_scan_fastest`).
        case fastest
        /// The pair table at every position, eight a step, on any processor.
        case portable
        /// 64 positions a step through nibble tables, where the processor has AVX2.
        case avx2
        /// 64 positions a step through exact byte classes, where it has AVX-512 BW and VBMI.
        case avx512VBMI

        public var description: String {
            switch self {
            case .fastest: "fastest"
            case .portable: "portable"
            case .avx2: "AVX2"
            case .avx512VBMI: "AVX-512 VBMI"
            }
        }

        init(_ kernel: csecret_scan_kernel) {
            switch kernel {
            case CSECRET_SCAN_AVX2: self = .avx2
            case CSECRET_SCAN_AVX512_VBMI: self = .avx512VBMI
            default: self = .portable
            }
        }

        /// The C kernel: `nil` for `.fastest`.
        var c: csecret_scan_kernel? {
            switch self {
            case .fastest: nil
            case .portable: CSECRET_SCAN_PORTABLE
            case .avx2: CSECRET_SCAN_AVX2
            case .avx512VBMI: CSECRET_SCAN_AVX512_VBMI
            }
        }
    }

    /// How many blocks of 1,024 positions the AVX2 kernel has filtered on the calling thread
    /// with its narrow plan (16 buckets) and with its wide one (24), since the thread began
    /// (`csecret_scan_avx2_blocks`): it runs the wide one only where the narrow one lets
    /// through about one position in eleven or more.
    public static var avx2BlocksOnThisThread: (narrow: Int, wide: Int) {
        var counts = (0, 0)
        withUnsafeMutableBytes(of: &counts) { counts in
            csecret_scan_avx2_blocks(counts.baseAddress!.assumingMemoryBound(to: Int.self))
        }
        return (counts.0, counts.1)
    }

    /// The kernels that run on this processor, slowest first (`csecret_scan_kernels`): always
    /// `.portable`.
    public var kernels: [Kernel] {
        let bits = csecret_scan_kernels(search)
        return [Kernel.portable, .avx2, .avx512VBMI].filter { bits & (1 << $0.c!.rawValue) != 0 }
    }

    /// The kernel `.fastest` runs here (`csecret_scan_fastest`) once the search is planned: until
    /// it has been asked for 256 KiB, `.fastest` runs the portable kernel.
    public var fastestKernel: Kernel { Kernel(csecret_scan_fastest(search)) }

    /// Whether the vector kernels' plans are made (`csecret_scan_planned`; always true where none
    /// runs). They are made on the first search that needs them, not by `init`.
    public var isPlanned: Bool { csecret_scan_planned(search) != 0 }

    /// Finds the next candidates in `from..<to` of `text` (a candidate's pair must lie in
    /// `text`; its follower is tested when `text` has it) and puts them in `batch`, replacing
    /// what it held.
    ///
    /// Wraps `csecret_scan_find` (`csecret_scan_find_with` for a named kernel, which must be one
    /// of `kernels`).
    /// - Returns: where to go on: `to` when the range is done, less when the batch filled.
    public func find(
        in text: Span<UInt8>, from: Int, to: Int, into batch: inout CandidateBatch, kernel: Kernel = .fastest
    ) -> Int {
        find(in: text, from: from, to: to, into: &batch, kernel: kernel, watchingNUL: false).next
    }

    /// `find(in:from:to:into:kernel:)`, also saying where the first NUL byte is in what the call
    /// went over: the bytes `from..<next`, or `from..<to` when the range is done (`nul`; nil
    /// when none is there). The vector kernels' filters read every byte anyway, so this costs
    /// next to nothing where they run: text sent as text needs no pass of its own for its NUL
    /// check.
    ///
    /// Wraps `csecret_scan_find` with its `nul` (`csecret_scan_find_with` for a named kernel).
    public func findWatchingNUL(
        in text: Span<UInt8>, from: Int, to: Int, into batch: inout CandidateBatch, kernel: Kernel = .fastest
    ) -> (next: Int, nul: Int?) {
        find(in: text, from: from, to: to, into: &batch, kernel: kernel, watchingNUL: true)
    }

    private func find(
        in text: Span<UInt8>, from: Int, to: Int, into batch: inout CandidateBatch, kernel: Kernel, watchingNUL: Bool
    ) -> (next: Int, nul: Int?) {
        precondition(from >= 0 && from <= to && to <= text.count, "a range of the text")
        precondition(
            kernel.c.map { csecret_scan_kernels(search) & (1 << $0.rawValue) != 0 } ?? true, "a kernel that runs here")
        var found = 0
        // SIZE_MAX (-1 as `Int`) when there is no NUL.
        var nul = -1
        let next = text.withUnsafeBufferPointer { text in
            batch.positions.withUnsafeMutableBufferPointer { positions in
                batch.groups.withUnsafeMutableBufferPointer { groups in
                    withUnsafeMutablePointer(to: &nul) { nul in
                        let watch = watchingNUL ? nul : nil
                        return if let named = kernel.c {
                            csecret_scan_find_with(
                                search, named, text.baseAddress, text.count, from, to, positions.baseAddress,
                                groups.baseAddress, positions.count, &found, watch)
                        } else {
                            csecret_scan_find(
                                search, text.baseAddress, text.count, from, to, positions.baseAddress,
                                groups.baseAddress, positions.count, &found, watch)
                        }
                    }
                }
            }
        }
        batch.count = found
        return (next, nul >= 0 ? nul : nil)
    }
}

extension CandidateSearch {
    /// One trigger literal of the built-in table (`csecret_scan_trigger`): where its bytes
    /// start in `BuiltInTable.literals` and how many there are, whether it ignores case, where
    /// its pair sits in it, whose it is (`owner`: the caller's row number), the caller's quick
    /// test (0 none, 1 starts a word, 2 ends a key) and its first eight bytes as `Member` has them.
    public struct Trigger: Sendable {
        public var literalStart: Int
        public var literalCount: Int
        public var ignoresCase: Bool
        public var pairOffset: Int
        public var owner: Int
        public var quickTest: Int
        public var prefix: UInt64
        public var mask: UInt64
        public var fold: UInt64
    }

    /// The search of the secret guard's built-in table and what its scanner reads beside it: the
    /// static constants CSecretScan's csecret_scan_builtin.h holds, planned at build time (`swift
    /// run paste-gen`), so that making it plans nothing: the search reads its pair table, followers
    /// and members where they lie (`csecret_scan_create_builtin`), and only the triggers, the
    /// literals and the member lists are copied into Swift arrays here.
    public struct BuiltInTable: Sendable {
        public let search: CandidateSearch
        /// The triggers, numbered as the members name them (`memberTriggers`).
        public let triggers: [Trigger]
        /// The bytes of every trigger's literal, one after another.
        public let literals: [UInt8]
        /// Group `g`'s members are `memberTriggers[memberStarts[g]..<memberStarts[g + 1]]`: the
        /// trigger each is.
        public let memberStarts: [Int]
        public let memberTriggers: [Int]

        /// Reads the built-in table (`csecret_scan_create_builtin` and the constants beside it).
        public init() {
            guard let search = csecret_scan_create_builtin() else {
                preconditionFailure("out of memory for the candidate search")
            }
            self.search = CandidateSearch(search)
            var count = 0
            let triggers = csecret_scan_builtin_triggers(&count)!
            self.triggers = UnsafeBufferPointer(start: triggers, count: count).map { trigger in
                Trigger(
                    literalStart: Int(trigger.literal_start), literalCount: Int(trigger.literal_count),
                    ignoresCase: trigger.ignores_case != 0, pairOffset: Int(trigger.pair_offset),
                    owner: Int(trigger.owner), quickTest: Int(trigger.quick_test), prefix: trigger.prefix,
                    mask: trigger.mask, fold: trigger.fold)
            }
            let literals = csecret_scan_builtin_literals(&count)!
            self.literals = Array(UnsafeBufferPointer(start: literals, count: count))
            let starts = csecret_scan_builtin_member_starts(&count)!
            memberStarts = UnsafeBufferPointer(start: starts, count: count).map { Int($0) }
            let members = csecret_scan_builtin_member_triggers(&count)!
            memberTriggers = UnsafeBufferPointer(start: members, count: count).map { Int($0) }
        }
    }
}
