internal import CSecretScan

/// The secret guard's vectorised candidate search (Teddy), run by the C kernel in CSecretScan.
///
/// Finds the positions of a text whose two bytes form a pair of the pair table and whose next
/// byte may follow that pair, as SecretGuard's prefilter defines them: the masks, the table and
/// the follower sets come from there, and this module only runs the search. The kernel is
/// chosen once, at creation: AVX2 (fat Teddy, 16 buckets in one 256-bit register), else SSSE3,
/// else a scalar table loop; all three give the same positions (SecretEngineTests compares them).
///
/// Owns the C search (`csecret_scan_create`), freed in `deinit` (`csecret_scan_destroy`).
public final class CandidateSearch: @unchecked Sendable {
    // @unchecked Sendable: the C search is written once, in `init`, and only read after that
    // (`csecret_scan_find` takes it as `const`), so threads may share it.

    /// A kernel of the search.
    public enum Kernel: Int, Sendable, CaseIterable {
        /// The pair table at every position (`CSECRET_SCAN_SCALAR`).
        case scalar = 0
        /// Teddy over 16 positions, both halves of the 16 buckets in turn (`CSECRET_SCAN_SSSE3`).
        case ssse3 = 1
        /// Fat Teddy over 16 positions, 16 buckets at once (`CSECRET_SCAN_AVX2`).
        case avx2 = 2

        /// The best kernel this processor runs (wraps `csecret_scan_best_kernel`).
        public static let best = Kernel(rawValue: Int(csecret_scan_best_kernel())) ?? .scalar
    }

    /// The bytes of the Teddy masks (`CSECRET_SCAN_MASK_BYTES`): for each of the three bytes of
    /// a fingerprint, a 32-byte table for its low nibble and one for its high nibble, buckets
    /// 0-7 in the first 16 bytes and 8-15 in the second, indexed by the nibble.
    public static let maskBytes = Int(CSECRET_SCAN_MASK_BYTES)
    /// The entries of the pair table (`CSECRET_SCAN_PAIRS`).
    public static let pairCount = Int(CSECRET_SCAN_PAIRS)

    /// The kernel this search runs (the one asked for, or the best this processor has if less).
    public let kernel: Kernel
    let search: OpaquePointer

    /// Makes a search.
    ///
    /// Wraps `csecret_scan_create`, which copies all three tables.
    /// - Parameters:
    ///   - masks: the Teddy masks (`maskBytes`); every candidate's three bytes must fit some
    ///     bucket's masks, or the vector kernels miss it.
    ///   - groups: the pair table (`pairCount` entries: the group of pair `first | second << 8`,
    ///     0 for none).
    ///   - followers: four words per group (group 0 included): the 256-bit set of the bytes that
    ///     may follow the group's pair.
    ///   - kernel: the kernel to run (at most the best this processor runs).
    public init(masks: [UInt8], groups: [UInt8], followers: [UInt64], kernel: Kernel = .best) {
        precondition(masks.count == Self.maskBytes, "Teddy masks are \(Self.maskBytes) bytes")
        precondition(groups.count == Self.pairCount, "the pair table has an entry for every pair")
        precondition(followers.count % 4 == 0, "four words per group")
        precondition(groups.allSatisfy { Int($0) < followers.count / 4 }, "every group has its followers")
        guard
            let search = masks.withUnsafeBufferPointer({ masks in
                groups.withUnsafeBufferPointer { groups in
                    followers.withUnsafeBufferPointer { followers in
                        csecret_scan_create(
                            masks.baseAddress, groups.baseAddress, followers.baseAddress, followers.count / 4,
                            Int32(kernel.rawValue))
                    }
                }
            })
        else { preconditionFailure("out of memory for the candidate search") }
        self.search = search
        self.kernel = kernel.rawValue <= Kernel.best.rawValue ? kernel : Kernel.best
    }

    deinit { csecret_scan_destroy(search) }

    /// Finds the next candidates in `from..<to` of `text` (a candidate's pair must lie in
    /// `text`; its follower is tested when `text` has it) and puts them in `batch`, replacing
    /// what it held.
    ///
    /// Wraps `csecret_scan_find`.
    /// - Returns: where to go on: `to` when the range is done, less when the batch filled.
    public func find(in text: Span<UInt8>, from: Int, to: Int, into batch: inout CandidateBatch) -> Int {
        precondition(from >= 0 && from <= to && to <= text.count, "a range of the text")
        var found = 0
        let next = text.withUnsafeBufferPointer { text in
            batch.positions.withUnsafeMutableBufferPointer { positions in
                batch.groups.withUnsafeMutableBufferPointer { groups in
                    csecret_scan_find(
                        search, text.baseAddress, text.count, from, to, positions.baseAddress,
                        groups.baseAddress, positions.count, &found)
                }
            }
        }
        batch.count = found
        return next
    }
}
