public import SystemInterop

/// A failure of a Wayland connection or of the data-control protocol, translated out of C.
public enum WaylandError: Error, Equatable, Sendable {
    /// Connecting to the compositor's socket failed: no compositor listens at `socket` (or it
    /// refused us).
    case cannotConnect(socket: String, errno: Errno)
    /// The compositor offers neither `ext_data_control_manager_v1` nor
    /// `zwlr_data_control_manager_v1` (GNOME's mutter, weston).
    case noDataControl
    /// The compositor offers no `wl_seat`, so there is no selection to read or set.
    case noSeat
    /// The compositor did not answer before the deadline.
    case timedOut
    /// The connection failed: the socket was lost or closed (`EPIPE`), or the compositor sent
    /// what the protocol does not allow (`EPROTO`).
    case connectionLost(errno: Errno)
    /// The compositor ended the connection for a protocol error of ours (`wl_display.error`):
    /// the object's interface, the error's code in it, and the compositor's words.
    case protocolError(interface: String, code: UInt32, message: String)
    /// The device went away (`finished`: the seat was removed).
    case deviceFinished
    /// Another client set the selection before ours was confirmed (`cancelled` at once).
    case notOwner
    /// The compositor keeps no primary selection for data-control clients (wlr-data-control
    /// version 1).
    case noPrimarySelection
    /// A descriptor for a transfer could not be made or handed over.
    case transferFailed(errno: Errno)
}
