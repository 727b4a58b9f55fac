import FoundationEssentials

extension Duration {
    /// Parses `30`, `2.5s`, `10m`, `1h`, `7d`, `2w` into seconds: finite and not negative (a
    /// product past `Double`'s range is refused, not infinite). Ranges are `SettingRange`'s.
    public static func parseSeconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard let last = text.last else { return nil }
        if let unit = units[last] {
            guard let number = Double(text.dropLast()), number.isFinite, number >= 0, (number * unit).isFinite else {
                return nil
            }
            return number * unit
        }
        guard let number = Double(text), number.isFinite, number >= 0 else { return nil }
        return number
    }
}
