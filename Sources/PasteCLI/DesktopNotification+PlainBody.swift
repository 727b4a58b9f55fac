import PasteCore
import Notify

extension DesktopNotification {
    /// A notification whose body is `plainBody`, plain text, escaped (`Escaping.xml`) for a
    /// server that reads markup (`body-markup` among its capabilities) and sent as it is to one
    /// that does not: every notification paste sends is made this way.
    init(summary: String, plainBody: String, capabilities: Set<String>) {
        self.init(
            summary: summary,
            body: capabilities.contains("body-markup") ? Escaping.xml.apply(plainBody) : plainBody)
    }
}
