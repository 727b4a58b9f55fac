import Clipboard
import PasteCore
import SecretGuard

extension SecretGuard {
    /// An observer of a clipboard read that feeds this guard's incremental scanner: a large
    /// selection's text is scanned while it arrives (see `TextObserver`), and
    /// `findings(of:in:)` of the observation and the text gives what `scan` of the whole text would
    /// (`ReadRequest.observer`). A small one is not observed
    /// and is scanned whole after the read, as before: nothing is started for it.
    var clipboardObserver: TextObserver<SecretScanner> {
        TextObserver(makeScanner(countingLines: false)) { scanner, chunk in scanner.feed(chunk) }
    }
}
