import SystemInterop
import WaylandInterop

/// The detached process that owns a Wayland selection after `paste` has returned, through
/// data-control (`DataControlClipboard`).
///
/// `paste`'s `main` calls `run` when `argv[1]` is `subcommand` (a forked owner calls it
/// directly). It connects and makes its data-control device before the text comes (the
/// caller starts it ahead of the upload), reads the text from stdin, offers it in the text
/// MIME types (`DataControlClipboard.offeredTypes`), sets the selection and confirms it with a
/// round trip, reports on stdout with one status byte (`SelectionOwnerProcess.Status`: the
/// same bytes as the X11 owner, read by the same `OwnerLaunch`), then serves any number of
/// readers until another client sets the selection (`cancelled`) or the compositor goes.
public enum DataControlOwnerProcess {
    /// The hidden first argument: `paste --internal-wayland-selection-owner clipboard SOCKET`.
    public static let subcommand = "--internal-wayland-selection-owner"
    /// The last argument of the Wayland owner of a bridged copy.
    static let bridgedArgument = "bridged"

    /// How long the owner waits for the compositor while it sets up.
    static let setUpTimeout = Duration.seconds(5)
    /// How long one reader may stall before the owner gives it up and serves the next.
    static let readerTimeout = Duration.seconds(30)

    /// Runs the owner and returns the process's exit status.
    ///
    /// - Parameters:
    ///   - arguments: the whole argv: `[executable, subcommand, "clipboard" | "primary", socket]`,
    ///     and `bridgedArgument` for the Wayland side of a bridged copy (`BridgedWrite`): the
    ///     offer then carries `BridgeWatch.mark`.
    ///   - environment: unused beyond what the arguments say (kept for the subcommand's shape).
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        guard arguments.count == 4 || (arguments.count == 5 && arguments[4] == bridgedArgument),
            arguments[1] == subcommand, let selection = Selection(rawValue: arguments[2])
        else { return report(.usage, exitStatus: 64) }
        let isBridged = arguments.count == 5
        CurrentProcess.closeInheritedDescriptors()
        CurrentProcess.leaveWorkingDirectory()
        // A reader that closes its pipe early must not end the owner.
        Signal.pipe.ignore()
        let session: DataControlSession
        do {
            session = try DataControlSession(socketPath: arguments[3], before: .now + setUpTimeout)
        } catch {
            return report(.cannotOpenDisplay, exitStatus: 69)
        }
        let (text, isSecret): ([UInt8], Bool)
        switch OwnerPayload.receive() {
        case .text(let received, let isMarked): (text, isSecret) = (received, isMarked)
        case .nothing: return 0
        case .readFailed: return report(.readFailed, exitStatus: 74)
        }
        if let failure = take(selection, with: text, isSecret: isSecret, isBridged: isBridged, on: session) {
            return report(failure, exitStatus: 69)
        }
        _ = report(.owning, exitStatus: 0)
        do { try session.serve() } catch { return 0 }
        return 0
    }

    /// Sets `selection` to `text` on `session` and confirms it (one round trip): the offer in
    /// the text MIME types (`offering`). The owner process and the forked server of a reader's
    /// session (`DataControlInheritedOwner`) both take it so.
    ///
    /// - Returns: nil once the selection is ours, else the status an owner reports for it.
    static func take(
        _ selection: Selection, with text: [UInt8], isSecret: Bool, isBridged: Bool, on session: DataControlSession
    ) -> SelectionOwnerProcess.Status? {
        let offer = offering(text, isSecret: isSecret, isBridged: isBridged)
        do {
            try session.setSelection(
                selection.seatSelection, offering: offer.types, writeTimeout: readerTimeout,
                before: .now + setUpTimeout, data: offer.data)
        } catch {
            return status(for: error)
        }
        return nil
    }

    /// What an owner of `text` offers: the text MIME types (`DataControlClipboard.offeredTypes`,
    /// which begin with `preparedTypes`), with the password manager's mark when `isSecret` and
    /// `BridgeWatch.mark` when `isBridged`, and the bytes each one serves.
    static func offering(_ text: [UInt8], isSecret: Bool, isBridged: Bool) -> (
        types: [String], data: (String) -> [UInt8]?
    ) {
        let latin1 = TextEncoding.latin1(fromUTF8: text)
        // A URL that carries its own key goes with the password manager's mark (`PasswordManagerHint`).
        let types =
            DataControlClipboard.offeredTypes(latin1: latin1 != nil) + (isSecret ? [PasswordManagerHint.name] : [])
            + (isBridged ? [BridgeWatch.mark] : [])
        return (
            types,
            { type in
                if type == PasswordManagerHint.name { return isSecret ? PasswordManagerHint.secret : nil }
                return type == "STRING" ? latin1 : text
            }
        )
    }

    /// The types every owner offers whatever its text (`offering`'s first ones): a source can
    /// offer them before the text is known (`DataControlSession.prepareSource`).
    static let preparedTypes = DataControlClipboard.offeredTypes(latin1: false)

    /// The status an owner reports for a failure to take the selection.
    static func status(for error: WaylandError) -> SelectionOwnerProcess.Status {
        error == .notOwner ? .notOwner : .cannotOpenDisplay
    }

    /// Writes the status byte to stdout and points stdout at /dev/null, so the caller's
    /// `$(paste)` sees end of file now.
    private static func report(_ status: SelectionOwnerProcess.Status, exitStatus: Int32) -> Int32 {
        StandardStream.output.withDescriptor { output in _ = try? output.writeAll([status.rawValue]) }
        StandardStream.output.redirectToNull()
        return exitStatus
    }
}

extension Selection {
    /// The seat selection of the same meaning.
    var seatSelection: SeatSelection {
        switch self {
        case .clipboard: .regular
        case .primary: .primary
        }
    }
}
