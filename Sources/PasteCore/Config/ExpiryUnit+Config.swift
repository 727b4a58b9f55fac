import FoundationEssentials
import SystemInterop

extension ExpiryUnit {
    /// Parses `seconds`, `minutes`, `hours`, `days`, `weeks`, or `choices 1hour=1h,1day=1d`.
    init?(configText text: String) {
        switch text.lowercased() {
        case "seconds": self = .count(secondsPerUnit: 1)
        case "minutes": self = .count(secondsPerUnit: 60)
        case "hours": self = .count(secondsPerUnit: 3_600)
        case "days": self = .count(secondsPerUnit: 86_400)
        case "weeks": self = .count(secondsPerUnit: 604_800)
        default:
            guard text.hasPrefix("choices ") else { return nil }
            var choices: [(String, Int)] = []
            for item in text.dropFirst(8).split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let seconds = SettingRange.expiry.parse(parts[1].trimmingSpaces()) else {
                    return nil
                }
                choices.append((parts[0].trimmingSpaces(), Int(seconds)))
            }
            guard !choices.isEmpty else { return nil }
            self = .choices(choices)
        }
    }
}
