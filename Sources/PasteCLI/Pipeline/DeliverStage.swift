import Alerts
import Clipboard
import PasteCore
import QRInterop

/// Deliver, the pipeline's last stage: each result on stdout (its URL, or a JSON object), each
/// failure on stderr (and, at a hotkey, in a window); then the last URL on the clipboard and,
/// at a hotkey, "Copied".
///
/// Results arrive in the order the pastes were given, one `deliver` each; `finish` ends the run.
/// `--retry` delivers the same way, with no copy and no windows.
struct DeliverStage {
    /// Where the URL goes; nil when it is not copied.
    var copy: Selection?
    /// The copy begun by the read stage, if one was.
    var preparedCopy: (any PreparedClipboardWrite)?
    /// Whether a copy that finds no display is said (`RunPlan.isCopyExpected`).
    var isCopyExpected = true
    /// `-v`: a key-bearing URL that its write could not mark (`SecretMark.unavailable`) is said on stderr.
    var isVerbose = false
    var windows: DesktopWindows
    var output: Output
    /// The first failure's status, or success.
    private(set) var status = ExitStatus.success
    /// The last URL delivered: the one copied.
    private(set) var lastURL: String?
    /// Whether the last URL carries its own key (`KeyBearingURL`).
    private(set) var isLastKeyBearing = false
    /// The image the last URL is of, for the notification's thumbnail; nil for anything else.
    private(set) var lastImage: Alerts.Notification.Image?
    /// Whether history holds a way to delete the last paste (its deletion token or link).
    private(set) var isLastDeletable = false
    /// Ends the process once the URL is copied, when nothing is left to show (`Seams.leave`):
    /// the run's status is decided by then, its results printed, its history written, the
    /// outbox looked at. nil: `finish` returns, as in process.
    var leave: (@Sendable (ExitStatus) -> Never)?

    /// Shows one paste's result.
    ///
    /// - Parameter input: what was pasted, when this run read it (nil for `--retry`): an
    ///   image's bytes become the notification's thumbnail.
    mutating func deliver(_ result: Result<PasteResult, PasteFailure>, fileName: String?, input: PasteInput? = nil) {
        switch result {
        case .success(let paste):
            output.result(
                output.isJSON ? JSONOutput.object(for: paste, fileName: fileName) : paste.url, keeping: paste.url)
            if let age = paste.ownURLAge {
                output.note(
                    "the clipboard holds the URL of \(age == 0 ? "your last paste" : "an earlier paste"); "
                        + "reusing it (--new uploads it anyway)")
            } else if paste.isRepeat {
                let category = MediaType(recordedName: paste.type).category
                let what = category == .text ? "text" : category == .image ? "image" : "file"
                output.note(
                    "the same \(what) went to \(paste.service) moments ago; reusing its URL (--new makes another)")
            }
            lastURL = paste.url
            isLastKeyBearing = paste.isKeyBearing
            isLastDeletable = paste.deletion != nil
            lastImage = nil
            if let input, input.type.category == .image, let bytes = input.bytes {
                lastImage = Alerts.Notification.Image(bytes: bytes, mimeType: input.type.essence)
            }
        case .failure(let failure):
            output.report(failure)
            if output.isJSON { output.result(JSONOutput.object(for: failure, fileName: fileName)) }
            if status == .success { status = failure.exitStatus }
            if windows.isShown { windows.notifyFailure(failure) }
        }
    }

    /// Copies the last URL and, at a hotkey when every paste was made, says so in a window:
    /// "Copied" only once the copy is done (the owner holds the selection: a reader gets it).
    ///
    /// A copy with nothing after it (no QR code, no success window) is the run's last act:
    /// with `leave` set, the process ends right there with `status`, so the parent of a forked
    /// owner does not unwind the run through pages it now shares with its child.
    ///
    /// - Parameter clipboard: the session's clipboard, for a copy not begun earlier.
    func finish(clipboard: SessionClipboard) -> ExitStatus {
        guard let url = lastURL else { return status }
        let showsMore = windows.plan.showsQR || (windows.isShown && status == .success)
        let outcome = copy.map { copyToClipboard(url, to: $0, clipboard: clipboard) } ?? .notAsked
        if copy != nil, !showsMore, let leave { leave(status) }
        var code: QRCode?
        if windows.plan.showsQR {
            do {
                let made = try QRCode.encode(url)
                output.picture(QRPicture.halfBlocks(made, inColour: output.usesColor))
                code = made
            } catch {
                output.note(error.description)
            }
        }
        if windows.isShown && status == .success {
            // A URL that carries its key is shown without it; the actions still act on it whole.
            let window = Self.successWindow(url: isLastKeyBearing ? KeyBearingURL.shortened(url) : url, copy: outcome)
            windows.notify(
                success: true, title: window.title, text: window.body, image: lastImage,
                followUp: DesktopWindows.FollowUp(
                    url: url, isKeyBearing: isLastKeyBearing, isDeletable: isLastDeletable, qrCode: code))
        }
        return status
    }

    /// What became of the copy of the URL.
    enum CopyOutcome: Equatable {
        /// Not asked for (`--no-copy`, `copy = false`).
        case notAsked
        /// The URL is in the selection: its owner said so after taking it.
        case copied
        /// It could not be copied, for this reason (already noted on stderr).
        case failed(String)
    }

    /// The success window's title and text: "Copied" only when the URL was.
    static func successWindow(url: String, copy: CopyOutcome) -> (title: String, body: String) {
        switch copy {
        case .copied: ("Copied", url)
        case .notAsked: ("Pasted", url)
        case .failed(let reason): ("Pasted, not copied", url + "\n" + reason)
        }
    }

    /// Puts the URL on the clipboard through the detached owner; a note when it could not (for
    /// no display, only when the person asked for the copy: `isCopyExpected`).
    ///
    /// - Returns: `.copied` only when the owner reported that it holds the selection.
    @discardableResult
    func copyToClipboard(_ url: String, to selection: Selection, clipboard: SessionClipboard) -> CopyOutcome {
        do {
            let write: any PreparedClipboardWrite
            if let preparedCopy {
                write = preparedCopy
            } else {
                write = try clipboard.get().prepareWrite(to: selection)
            }
            // The write says whether it could mark the URL; which backend wrote is its business.
            let mark = try write.complete(with: Array(url.utf8), isSecret: isLastKeyBearing)
            if isVerbose, case .unavailable(let writer) = mark { output.trace(Self.unmarkedLine(writer: writer)) }
            return .copied
        } catch .noDisplay {
            if isCopyExpected { output.note("no display: the URL was printed but not copied") }
            return .failed("no display: the URL was not copied")
        } catch {
            let reason = error.message
            output.note("the URL was not copied: \(reason)")
            return .failed("the URL was not copied: \(reason)")
        }
    }

    /// What `-v` says when a key-bearing URL was copied by a writer that cannot mark it
    /// (`SecretMark.unavailable`): Debian 12's wl-copy (2.1) offers one MIME type (`--type`) and
    /// has no `--sensitive` (wl-clipboard 2.3 added it; paste uses it there), so the URL is on
    /// the clipboard without the password manager's mark.
    static func unmarkedLine(writer: String) -> String {
        "clipboard: the URL carries its key, but \(writer) cannot offer x-kde-passwordManagerHint: "
            + "it went unmarked, and a clipboard manager may keep it"
    }

    /// The line for wl-copy before 2.3, the one writer today that cannot mark.
    static let unmarkedLine = unmarkedLine(writer: "wl-copy")
}
