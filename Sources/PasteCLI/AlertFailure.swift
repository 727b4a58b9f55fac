import Alerts
import PasteCore

/// A window that could not be shown, as the person sees it (Alerts knows nothing of PasteCore).
struct AlertFailure: PasteError {
    var error: AlertError

    var message: String {
        switch error {
        case .noDisplay: "cannot show a window: no display"
        case .cannotOpenDisplay(let name): "cannot show a window: cannot open display '\(shown: name)'"
        case .fontUnavailable(let pattern): "cannot show a window: no font matches '\(shown: pattern)'"
        case .windowNotMapped: "cannot show a window: the window manager never mapped it"
        case .keyboardGrabFailed: "cannot show a window: another program holds the keyboard"
        case .connectionLost: "cannot show a window: the connection to the display was lost"
        }
    }

    var exitStatus: ExitStatus {
        switch error {
        case .keyboardGrabFailed, .windowNotMapped: .temporaryFailure
        default: .unavailable
        }
    }
}
