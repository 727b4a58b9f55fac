internal import CSecretScan

/// The line feeds of a text, counted by CSecretScan's vector count (`csecret_count_byte`):
/// what puts a secret guard finding on its line.
public enum LineFeeds {
    /// The count's kernels (`csecret_count_kernel`): `fastest` is what runs here.
    public enum Kernel: Sendable, CaseIterable {
        case fastest
        case portable
        case avx2
        case avx512

        var c: csecret_count_kernel? {
            switch self {
            case .fastest: nil
            case .portable: CSECRET_COUNT_PORTABLE
            case .avx2: CSECRET_COUNT_AVX2
            case .avx512: CSECRET_COUNT_AVX512
            }
        }

        /// Whether the kernel runs on this processor (`fastest` and `portable` always do).
        public var runsHere: Bool { c.map { csecret_count_kernels() & (1 << $0.rawValue) != 0 } ?? true }
    }

    /// How many line feeds (`\n`) `text[from..<to]` holds, and where the last of them is (nil:
    /// none).
    public static func count(in text: Span<UInt8>, from: Int, to: Int, kernel: Kernel = .fastest) -> (
        count: Int, last: Int?
    ) {
        precondition(from >= 0 && from <= to && to <= text.count, "a range of the text")
        precondition(kernel.runsHere, "a kernel that runs here")
        guard to > from else { return (0, nil) }
        // SIZE_MAX (-1 as `Int`) when there is none.
        var last = -1
        let count = text.extracting(from..<to).withUnsafeBufferPointer { bytes in
            withUnsafeMutablePointer(to: &last) { last in
                if let named = kernel.c {
                    csecret_count_byte_with(named, bytes.baseAddress, bytes.count, 0x0a, last)
                } else {
                    csecret_count_byte(bytes.baseAddress, bytes.count, 0x0a, last)
                }
            }
        }
        return (count, last >= 0 ? from + last : nil)
    }
}
