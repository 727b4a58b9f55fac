import Foundation
import Testing
import TestSupport

@testable import Clipboard

/// The selection owner cannot outlive its X server: when the connection is lost it exits
/// (Xlib's I/O error handler, installed by CX11Shims, ends the process instead of printing).
@Suite("The owner and a lost X connection", .tags(.x11), .needsXServer, .serialized)
struct LostConnectionTests {
    @Test("the helper exits when its X server goes away")
    func exitsWithTheServer() throws {
        // A private server, so killing it harms no other suite.
        let server = try Xvfb()
        let pid = try Selections.clipboard(server).startOwner(of: Array("short-lived".utf8), for: .clipboard)
        #expect(!Selections.hasExited(pid))
        server.stop()
        try waitUntil("the helper to exit after its display died", timeout: 15) { Selections.hasExited(pid) }
    }
}
