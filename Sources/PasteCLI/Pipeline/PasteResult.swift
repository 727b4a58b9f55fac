import PasteCore
import SecretGuard
import Stores

/// A paste that was made, as recorded and delivered: made by this run, or found in history
/// for a repeat.
struct PasteResult {
    var url: String
    var service: String
    var byteCount: Int64
    var sha256: String
    var title: String?
    /// How the paste is taken back, when the service said.
    var deletion: Deletion?
    /// The content's MIME type without parameters (`image/png`, `text/plain`).
    var type = "text/plain"
    var isRepeat = false
    /// For a repeat: the clipboard held this paste's own URL (a second press of the hotkey),
    /// and how many pastes were made after it (0: it is the last one).
    var ownURLAge: Int?
    /// Whether the URL carries its own key (`KeyBearingURL`): marked on the clipboard, shortened
    /// in windows, notifications and stderr.
    var isKeyBearing = false
    /// The living paste it made or replaced (`--update NAME`), with its update count.
    var living: LivingRecorded?
    /// The language guessed from the text and sent (`UploadRequest.guessedLanguage`), if one was.
    var guessedLanguage: String?
    /// The secrets masked in the text before it was sent (`--redact`): kind, line, column.
    var masked: [MaskedSecret] = []
}
