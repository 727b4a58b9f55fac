import FoundationEssentials

/// Parses byte counts such as `512`, `64K`, `10M`, `1G` (binary multiples).
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
}
