/// Byte counts as the config and its messages write them: `512`, `64K`, `10M`, `1G` (binary
/// multiples).
public enum ByteCount {
    public static func parse(_ text: String) -> Int64? {
        guard let last = text.last else { return nil }
        let multipliers: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let multiplier = multipliers[Character(last.uppercased())] {
            guard let number = Int64(text.dropLast()), number >= 0 else { return nil }
            let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
            return overflow ? nil : product
        }
        guard let number = Int64(text), number >= 0 else { return nil }
        return number
    }

    /// `512`, `64K`, `1024G`: a size as the config writes it.
    public static func text(_ bytes: Int64) -> String {
        for (unit, size) in [("G", Int64(1) << 30), ("M", 1 << 20), ("K", 1 << 10)]
        where bytes >= size && bytes % size == 0 {
            return "\(bytes / size)\(unit)"
        }
        return "\(bytes)"
    }
}
