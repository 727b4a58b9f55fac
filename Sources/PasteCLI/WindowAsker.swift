import Alerts
import PasteCore

/// Asks the person in a window, for ShareX's `{prompt:…}` (the prompt window) and
/// `{select:…}` (the stacked-button dialog, Cancel last).
struct WindowAsker: Asking {
    /// `$DISPLAY`; without one nothing can be asked, and the upload stops before it starts.
    var displayName: String?

    func askText(title: String, initial: String) throws(PartError) -> String? {
        guard let displayName, !displayName.isEmpty else { throw PartError(RequestError.cannotAsk(question: title)) }
        do {
            return try Alerts.prompt(
                title: "paste", message: title, initialText: initial, displayName: displayName, app: .paste)
        } catch {
            throw PartError(error)
        }
    }

    func choose(among choices: [String], title: String) throws(PartError) -> Int? {
        guard let displayName, !displayName.isEmpty else {
            throw PartError(RequestError.cannotAsk(question: choices.joined(separator: " | ")))
        }
        // One button per choice answering its index; Cancel, the safe one, last.
        let buttons =
            choices.enumerated().map { Alerts.Button($0.element, answer: Int?.some($0.offset)) }
            + [Alerts.Button("Cancel", answer: Int?.none)]
        do {
            return try Alerts.confirm(message: title, buttons: buttons, displayName: displayName, app: .paste) ?? nil
        } catch {
            throw PartError(error)
        }
    }
}
