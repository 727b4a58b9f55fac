import Synchronization
import SystemInterop
import Testing
import TestSupport

@testable import Clipboard

/// A read begun before its request (`Clipboard.beginRead`, `X11BegunRead`): `TARGETS` is asked
/// on a connection made ahead, and the read that follows continues there; a read of another
/// selection, a read begun with no display, and a begun read never continued behave as plain
/// reads would.
@Suite("Reads begun ahead", .tags(.x11), .needsXServer, .sharedXvfb, .serialized)
struct BegunReadTests: ScopedSuite {
    static let timeout = Duration.seconds(10)

    static func put(_ text: [UInt8], _ selection: Selection, on server: Xvfb) throws {
        try Selections.startOwnerTool(
            ["/usr/bin/xclip", "-i", "-selection", selection.rawValue], input: text, on: server,
            selection: selection)
    }

    @Test("a begun read continues on its connection: text, content and image-first reads, the work once, here")
    func continued() throws {
        let server = xvfb
        let text = Array("asked for ahead, then read\n".utf8)
        try Self.put(text, .clipboard, on: server)
        for (name, var request) in ObservedReadTests.readKinds {
            let begun = try #require(Selections.clipboard(server).beginRead(.clipboard) as? X11BegunRead)
            #expect(begun.isPending, "\(name): TARGETS asked")
            let threads = Mutex<[Int32]>([])
            request.whileOwnerAnswers = { threads.withLock { $0.append(CurrentProcess.currentThreadKernelID) } }
            let read = try begun.read(request)
            #expect(read.content == .text(text), "\(name)")
            #expect(!begun.isPending, "\(name): continued, not read anew")
            #expect(threads.withLock { $0 } == [CurrentProcess.currentThreadKernelID], "\(name): once, here")
        }
    }

    @Test("the copy after a begun read goes through its connection, and xclip reads it")
    func copyAfterBegunRead() throws {
        let server = xvfb
        try Self.put(Array("the text".utf8), .clipboard, on: server)
        let begun = Selections.clipboard(server).beginRead(.clipboard)
        let read = try begun.read(
            ReadRequest(.clipboard, timeout: Self.timeout, acceptsImage: false, copyTarget: .clipboard))
        #expect(read.content == .text(Array("the text".utf8)))
        try #require(read.write).complete(with: Array("the URL".utf8))
        #expect(
            try Selections.readWithTool(["/usr/bin/xclip", "-o", "-selection", "clipboard"], on: server)
                == Array("the URL".utf8))
    }

    @Test("a begun read never continued leaves the owner serving: its text is read again in full")
    func releasedUnread() throws {
        let server = xvfb
        let text = Selections.text(size: 4096)
        try Self.put(text, .clipboard, on: server)
        for _ in 0..<3 {
            let begun = try #require(Selections.clipboard(server).beginRead(.clipboard) as? X11BegunRead)
            #expect(begun.isPending)
        }
        #expect(try Selections.clipboard(server).read(.clipboard, timeout: Self.timeout) == text)
        #expect(try Selections.hasOwner(.clipboard, on: server))
    }

    @Test("a read of the other selection is a read of its own; the begun one still continues after it")
    func otherSelection() throws {
        let server = xvfb
        try Self.put(Array("the clipboard".utf8), .clipboard, on: server)
        try Self.put(Array("the primary".utf8), .primary, on: server)
        let begun = try #require(Selections.clipboard(server).beginRead(.clipboard) as? X11BegunRead)
        #expect(try begun.read(.primary, timeout: Self.timeout) == Array("the primary".utf8))
        #expect(begun.isPending)
        #expect(try begun.read(.clipboard, timeout: Self.timeout) == Array("the clipboard".utf8))
        #expect(!begun.isPending)
    }

    @Test("a read begun where the display cannot be opened fails as the plain read does")
    func noDisplay() throws {
        let clipboard = X11Clipboard(displayName: ":4242", helperExecutable: Selections.pasteExecutable)
        var plain: ClipboardError?
        do { _ = try clipboard.read(.clipboard, timeout: Self.timeout) } catch { plain = error }
        var begun: ClipboardError?
        do { _ = try clipboard.beginRead(.clipboard).read(.clipboard, timeout: Self.timeout) } catch { begun = error }
        #expect(plain == .cannotOpenDisplay(name: ":4242"))
        #expect(begun == plain)
    }

    @Test("an empty selection begun ahead is empty, as a plain read says")
    func emptySelection() throws {
        let server = xvfb
        try Selections.clear(.clipboard, on: server)
        var begun: ClipboardError?
        do {
            _ = try Selections.clipboard(server).beginRead(.clipboard).read(.clipboard, timeout: Self.timeout)
        } catch { begun = error }
        #expect(begun == .empty(.clipboard))
    }
}
