import SystemInterop
import X11Interop

/// The detached process that owns a selection after `paste` has returned.
///
/// `paste`'s `main` calls `run` when `argv[1]` is `subcommand`. The process reads the text from
/// stdin (`OwnerPayload`: with the mark that offers it as a secret, or not), takes the selection, reports on stdout with one status byte, and then serves requestors
/// until another client takes the selection (a clipboard manager too, once it serves the text:
/// `SelectionServer` step 9; its word alone is not enough), or the X connection is lost (then
/// the error trap ends the process with `Display.connectionLostExitStatus`). The status byte is
/// sent only once the selection is ours, so a reader can get the text when the caller returns.
public enum SelectionOwnerProcess {
    /// The hidden first argument that selects this mode: `paste --internal-selection-owner clipboard`.
    public static let subcommand = "--internal-selection-owner"

    /// The status byte the helper writes on stdout (then closes it).
    public enum Status: UInt8, Sendable {
        /// It owns the selection: the caller may return.
        case owning = 0
        /// `DISPLAY` was not set.
        case noDisplay = 1
        /// `XOpenDisplay` failed.
        case cannotOpenDisplay = 2
        /// A later owner won (ICCCM §2.1), so we are not the owner.
        case notOwner = 3
        /// Wrong arguments.
        case usage = 4
        /// Reading the text from stdin failed.
        case readFailed = 5
        /// The server did not give us a timestamp.
        case noTimestamp = 6
    }

    /// Runs the owner and returns the process's exit status.
    ///
    /// - Parameters:
    ///   - arguments: the whole argv: `[executable, subcommand, "clipboard" | "primary"]`, and
    ///     for the X owner of a bridged copy (`BridgedWrite`) the Wayland socket to watch
    ///     (`BridgeWatch`).
    ///   - environment: the process environment (for `DISPLAY`).
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        guard arguments.count == 3 || arguments.count == 4, arguments[1] == subcommand,
            let selection = Selection(rawValue: arguments[2])
        else { return report(.usage, exitStatus: 64) }
        CurrentProcess.closeInheritedDescriptors()
        CurrentProcess.leaveWorkingDirectory()
        // Everything that does not need the text happens before it comes: the caller starts us
        // ahead of its upload, so the connection, the window and the server timestamp are ready
        // by the time the URL is (about 5 ms off the hotkey path).
        guard let name = environment["DISPLAY"], !name.isEmpty else { return report(.noDisplay, exitStatus: 69) }
        let display: Display
        do { display = try Display(name: name, keyboard: false) } catch {
            return report(.cannotOpenDisplay, exitStatus: 69)
        }
        let server = SelectionServer(display: display, selection: selection, text: [])
        server.fetchTimestamp()
        switch OwnerPayload.receive() {
        case .text(let text, let isSecret): server.setText(text, isSecret: isSecret)
        case .nothing: return 0
        case .readFailed: return report(.readFailed, exitStatus: 74)
        }
        let bridgeSocket = arguments.count == 4 ? arguments[3] : nil
        server.isBridged = bridgeSocket != nil
        switch server.takeOwnership() {
        case .owning: break
        case let failure: return report(failure, exitStatus: 69)
        }
        _ = report(.owning, exitStatus: 0)
        // The X side of a bridged copy asks no clipboard manager: in a Wayland session the manager
        // is the compositor's bridge (sway's xwm), which keeps nothing, and which takes the
        // selection only for a later Wayland copy: the selection is then rightly its, and a
        // hand-off check would take it back from that copy whenever the bridge refuses X
        // readers (no X window focused).
        if bridgeSocket == nil { server.askClipboardManagerToSave() }
        let watch = bridgeSocket.flatMap { BridgeWatch(socketPath: $0, selection: selection) }
        server.serve(givesUp: watch.map { watch in { watch.isGivingUp } })
        watch?.stop()
        return 0
    }

    /// Writes the status byte to stdout and points stdout at /dev/null, so the caller's
    /// `$(paste)` sees end of file now.
    private static func report(_ status: Status, exitStatus: Int32) -> Int32 {
        StandardStream.output.withDescriptor { output in _ = try? output.writeAll([status.rawValue]) }
        StandardStream.output.redirectToNull()
        return exitStatus
    }
}
