import Foundation
import Testing
import TestSupport

@testable import Clipboard

/// Byte-exact round trips with xclip and xsel on the other side, from one byte to 4 MiB (which
/// crosses the INCR threshold in both directions), on CLIPBOARD and PRIMARY; ours on both sides
/// up to 64 MiB.
@Suite("Interop with xclip and xsel", .tags(.x11), .needsXServer, .sharedXvfb, .serialized)
struct InteropTests: ScopedSuite {
    /// Up to 4 MiB and a few bytes: past every INCR seam, many increments each way. Our owner
    /// sends increments of the largest request less its header (256 KiB under Xvfb): 300 KiB
    /// is two, 4 MiB seventeen with a short last one; xclip's are about 1 MiB (five, the last
    /// short), xsel's 4 KiB (over a thousand, gathered 256 KiB at a time for the reader's
    /// observer). Nothing changes between 4 and 64 MiB but the count of increments:
    /// `roundTrip` keeps a 64 MiB transfer, ours on both sides, where there were nine.
    static let sizes = [1, 1024, 300 * 1024, (4 << 20) + 4321]

    @Test("what xclip puts, we read byte-exact", arguments: Selection.allCases, sizes)
    func readsFromXclip(selection: Selection, size: Int) throws {
        let text = Selections.text(size: size)
        try Selections.startOwnerTool(
            ["/usr/bin/xclip", "-i"] + xclipSelection(selection), input: text, on: xvfb, selection: selection)
        let read = try Selections.clipboard(xvfb).read(selection, timeout: .seconds(10))
        #expect(read.count == text.count)
        #expect(Selections.sameBytes(read, text))
    }

    @Test("what xsel puts, we read byte-exact", arguments: Selection.allCases, sizes)
    func readsFromXsel(selection: Selection, size: Int) throws {
        let text = Selections.text(size: size)
        try Selections.startOwnerTool(
            ["/usr/bin/xsel", "-i", xselFlag(selection)], input: text, on: xvfb, selection: selection)
        let read = try Selections.clipboard(xvfb).read(selection, timeout: .seconds(10))
        #expect(read.count == text.count)
        #expect(Selections.sameBytes(read, text))
    }

    @Test("what we put, xclip -o reads byte-exact", arguments: Selection.allCases, sizes)
    func xclipReadsOurs(selection: Selection, size: Int) throws {
        let text = Selections.text(size: size)
        try Selections.clipboard(xvfb).write(text, to: selection)
        let read = try Selections.readWithTool(["/usr/bin/xclip", "-o"] + xclipSelection(selection), on: xvfb)
        #expect(read.count == text.count)
        #expect(Selections.sameBytes(read, text))
    }

    @Test("what we put, xsel -o reads byte-exact", arguments: Selection.allCases, sizes)
    func xselReadsOurs(selection: Selection, size: Int) throws {
        let text = Selections.text(size: size)
        try Selections.clipboard(xvfb).write(text, to: selection)
        let read = try Selections.readWithTool(["/usr/bin/xsel", "-o", xselFlag(selection)], on: xvfb)
        #expect(read.count == text.count)
        #expect(Selections.sameBytes(read, text))
    }

    @Test(
        "read keeping the connection, then put: xclip reads what we put (a threaded caller gets the spawned helper)",
        arguments: Selection.allCases)
    func readKeepingConnectionThenWrite(selection: Selection) throws {
        let text = Selections.text(size: 2048)
        try Selections.startOwnerTool(
            ["/usr/bin/xclip", "-i"] + xclipSelection(selection), input: text, on: xvfb, selection: selection)
        let read = try Selections.clipboard(xvfb).read(
            ReadRequest(selection, timeout: .seconds(10), acceptsImage: false, copyTarget: .clipboard))
        #expect(read.content == .text(text))
        // The test process has many threads: the write must not fork, and still land.
        try #require(read.write).complete(with: Array("the URL".utf8))
        #expect(
            try Selections.readWithTool(["/usr/bin/xclip", "-o", "-selection", "clipboard"], on: xvfb)
                == Array("the URL".utf8))
    }

    @Test("what we put, we read back byte-exact (INCR on both sides)", arguments: [300 * 1024, 64 << 20])
    func roundTrip(size: Int) throws {
        let text = Selections.text(size: size)
        let clipboard = Selections.clipboard(xvfb)
        try clipboard.write(text, to: .clipboard)
        #expect(Selections.sameBytes(try clipboard.read(.clipboard, timeout: .seconds(10)), text))
    }
}
