import FoundationEssentials
import SystemInterop

extension Bool {
    /// git-config booleans: true/yes/on/1 and false/no/off/0.
    init?(configText text: String) {
        switch text.lowercased() {
        case "true", "yes", "on", "1": self = true
        case "false", "no", "off", "0": self = false
        default: return nil
        }
    }
}
