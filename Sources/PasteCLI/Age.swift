import FoundationEssentials

/// "3 min ago" for the picker.
enum Age {
    static func text(from date: Date, to now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3_600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3_600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }
}

import FoundationEssentials
