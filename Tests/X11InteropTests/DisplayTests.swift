import Foundation
import Testing
import TestSupport
@testable import X11Interop

/// Xlib through `Display`, against a private Xvfb per test.
@Suite("Display under Xvfb", .tags(.x11), .needsXServer)
struct DisplayTests: ScopedSuite {
    @Test("atoms interned in one batch are the server's atoms, and their names come back in one batch", .xvfb)
    func atomsBatch() throws {
        let names = ["CLIPBOARD", "UTF8_STRING", "TARGETS", "PASTE_TEST_\(UInt32.random(in: 0...UInt32.max))"]
        let batch = try Display(name: xvfb.display)
        defer { batch.close() }
        let atoms = batch.atoms(names)
        // Another connection interning them one by one gets the same (atoms are server-wide).
        let single = try Display(name: xvfb.display)
        defer { single.close() }
        #expect(names.map { single.atom($0) } == atoms)
        #expect(Set(atoms).count == names.count)
        #expect(single.names(of: atoms) == names)
        #expect(batch.name(of: atoms[0]) == "CLIPBOARD")
        // The batch is cached: asking again needs no server.
        #expect(batch.atoms(names) == atoms)
    }

    @Test("a batch asks each name once and never a predefined atom, whose values are the server's", .xvfb)
    func atomsBatchRequests() throws {
        let display = try Display(name: xvfb.display)
        defer { display.close() }
        let unique = "PASTE_TEST_\(UInt32.random(in: 0...UInt32.max))"
        let before = display.nextRequestSerial
        let atoms = display.atoms(["CLIPBOARD", unique, "CLIPBOARD", "STRING", "INTEGER", unique, "PRIMARY"])
        #expect(display.nextRequestSerial - before == 2, "one InternAtom each for CLIPBOARD and the new name")
        #expect(atoms[0] == atoms[2] && atoms[1] == atoms[5])
        // The server names the predefined values as the table does.
        let predefined = Display.predefinedAtoms.sorted { $0.key < $1.key }
        #expect(display.names(of: predefined.map(\.value)) == predefined.map(\.key))
    }

    @Test("a property written is read back byte-exact, as 8-bit data of its type", .xvfb)
    func propertyRoundTrip() throws {
        let display = try Display(name: xvfb.display)
        defer { display.close() }
        let window = display.createWindow()
        let property = display.atom("PASTE_TEST_PROPERTY")
        let type = display.atom("UTF8_STRING")
        let bytes = Array("héllo ✓ from X11Interop".utf8)
        display.changeProperty(property, of: window, type: type, bytes: bytes[...])
        try display.sync()
        let read = try #require(display.property(property, of: window, delete: true))
        #expect(read.type == type)
        #expect(read.format == 8)
        #expect(read.bytes == bytes)
        #expect(display.property(property, of: window, delete: false) == nil, "deleted by the read")
    }

    @Test("a window takes a selection at a server time and the server names it the owner", .xvfb)
    func selectionOwner() throws {
        let display = try Display(name: xvfb.display)
        defer { display.close() }
        let window = display.createWindow()
        let selection = display.atom("PASTE_TEST_SELECTION")
        #expect(display.selectionOwner(selection) == nil)
        let time = try display.serverTime(using: window, before: .now + .seconds(10))
        display.setSelectionOwner(selection, to: window, at: time)
        #expect(display.selectionOwner(selection) == window)
    }

    @Test(
        "a connection opened without the keyboard sends two requests fewer (no XKEYBOARD) and owns a selection the same",
        .xvfb)
    func withoutKeyboard() throws {
        // Xlib's XKB_FORCE keeps the extension whatever the switch says: then nothing is saved.
        let saved = ProcessInfo.processInfo.environment["XKB_FORCE"] == nil ? 2 : 0
        let keyboard = try Display(name: xvfb.display)
        defer { keyboard.close() }
        let plain = try Display(name: xvfb.display, keyboard: false)
        defer { plain.close() }
        // XOpenDisplay's QueryExtension(XKEYBOARD) and XkbUseExtension are not sent.
        #expect(keyboard.nextRequestSerial - plain.nextRequestSerial == saved)
        // The switch is Xlib's, process-wide: it is set back after the open.
        let after = try Display(name: xvfb.display)
        defer { after.close() }
        #expect(after.nextRequestSerial == keyboard.nextRequestSerial)
        let window = plain.createWindow()
        let selection = plain.atom("PASTE_TEST_SELECTION")
        let time = try plain.serverTime(using: window, before: .now + .seconds(10))
        plain.setSelectionOwner(selection, to: window, at: time)
        #expect(plain.selectionOwner(selection) == window)
        #expect(keyboard.selectionOwner(selection) == window, "the server says so to every client")
    }

    @Test("a display that cannot be reached is an error, not a crash")
    func unreachable() {
        #expect(throws: XError.self) { _ = try Display(name: ":4242") }
    }
}
