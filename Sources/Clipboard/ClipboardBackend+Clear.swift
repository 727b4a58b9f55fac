import SystemInterop
import WaylandInterop
import X11Interop

extension ClipboardBackend {
    /// How long emptying a selection may take: one round trip to the compositor or the X
    /// server, or one `wl-copy --clear`.
    public static let clearTimeout = Duration.seconds(2)

    /// Leaves `selection` holding nothing, whoever owns it: after a paste is deleted, the link
    /// that pointed to it must not be pasted by mistake (issue 41, item 3).
    ///
    /// X11: `XSetSelectionOwner(selection, None)` with a server timestamp (`SelectionServer
    /// .clearOwnership`). Data-control: `set_selection` with no source, and the X side too where
    /// `DISPLAY` is set (the owner paste bridged beside the Wayland one). wl-clipboard:
    /// `wl-copy --clear`. The owner that served it (paste's own, or another program) is told it
    /// lost the selection, as for any later copy.
    /// - Throws: `ClipboardError`: no clipboard, no display, or the server, compositor or tool
    ///   failed.
    public func clear(_ selection: Selection, environment: [String: String]) throws(ClipboardError) {
        switch self {
        case .x11(let name):
            try Self.clearX11(selection, displayName: name)
        case .dataControl(let socket):
            do {
                let session = try DataControlSession(socketPath: socket, before: .now + Self.clearTimeout)
                try session.clearSelection(selection.seatSelection, before: .now + Self.clearTimeout)
            } catch {
                throw ClipboardError(error, selection: selection, timeout: Self.clearTimeout)
            }
            if let display = environment["DISPLAY"], !display.isEmpty {
                try? Self.clearX11(selection, displayName: display)
            }
        case .wayland:
            guard let tool = ExecutableSearch.find("wl-copy", in: environment) else {
                throw .waylandToolMissing(tool: "wl-copy")
            }
            let arguments = [tool, "--clear"] + (selection == .primary ? ["--primary"] : [])
            guard
                let child = try? ChildProcess.spawn(
                    tool, arguments: arguments, environment: environment, standardInput: .null, standardOutput: .null,
                    standardError: .null, newSession: true)
            else { throw .waylandToolMissing(tool: "wl-copy") }
            guard let status = WaylandClipboard.waitForExit(of: child, before: .now + Self.clearTimeout) else {
                try? child.sendToGroup(.kill)
                _ = child.waitForExit()
                throw .waylandToolTimedOut(tool: "wl-copy", seconds: Self.clearTimeout.seconds)
            }
            guard status == 0 else { throw .waylandToolFailed(tool: "wl-copy", status: status) }
        case .none:
            if let missing = MissingClipboard.detect(environment: environment) { throw .noClipboard(missing) }
            throw .noDisplay
        }
    }

    /// Leaves the X selection with no owner, on a connection of its own.
    private static func clearX11(_ selection: Selection, displayName: String) throws(ClipboardError) {
        let display: Display
        do { display = try Display(name: displayName, keyboard: false) } catch {
            throw .cannotOpenDisplay(name: displayName)
        }
        let server = SelectionServer(display: display, selection: selection, text: [])
        guard server.clearOwnership() else {
            throw .timedOut(selection, seconds: SelectionServer.timestampTimeout.seconds)
        }
    }
}
