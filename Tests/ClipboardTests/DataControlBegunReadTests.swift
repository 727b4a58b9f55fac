import Foundation
import Synchronization
import Testing
import TestSupport

@testable import Clipboard
@testable import WaylandInterop

/// A data-control read begun before its request (`DataControlClipboard.beginRead`,
/// `DataControlBegunRead`): the text asked for ahead, on the probe's session, is the text the
/// read returns; nothing is asked ahead of the password manager's mark, and a begun read
/// never continued leaves the owner serving.
extension DataControlSwayTests {
    @Test("a begun read asks for the text ahead and continues: the text, the work once, the copy after it")
    func begunRead() throws {
        try sway.waylandCopy(Data("asked for ahead".utf8))
        #expect(ClipboardBackend.probeDataControl(socketPath: sway.socketPath) == .wlr)
        let begun = try #require(clipboard.beginRead(.clipboard) as? DataControlBegunRead)
        #expect(begun.isTextAsked)
        let calls = Mutex(0)
        var request = ReadRequest(.clipboard, timeout: Self.timeout, acceptsImage: false, copyTarget: .clipboard)
        request.whileOwnerAnswers = { calls.withLock { $0 += 1 } }
        let read = try begun.read(request)
        #expect(read.content == .text(Array("asked for ahead".utf8)))
        #expect(!begun.isTextAsked, "continued, not read anew")
        #expect(calls.withLock { $0 } == 1)
        try #require(read.write).complete(with: Array("the URL".utf8))
        #expect(try sway.waylandClipboard().out == "the URL")
    }

    @Test("nothing is asked ahead of the password manager's mark: the begun read still refuses the text")
    func begunReadMarked() throws {
        let url = "https://privatebin.example/?f468483c313401e8#9qWEnKDF2ktaWzZMhXW7o4"
        #expect(try clipboard.prepareWrite(to: .clipboard).complete(with: Array(url.utf8), isSecret: true) == .offered)
        let begun = try #require(clipboard.beginRead(.clipboard) as? DataControlBegunRead)
        #expect(!begun.isTextAsked)
        #expect(throws: ClipboardError.markedSecret(.clipboard)) { try begun.read(.clipboard, timeout: Self.timeout) }
    }

    @Test("a begun read never continued leaves wl-copy serving; an empty clipboard begun ahead is empty")
    func begunReadReleased() throws {
        try sway.waylandCopy(Data("still served".utf8))
        for _ in 0..<3 {
            let begun = try #require(clipboard.beginRead(.clipboard) as? DataControlBegunRead)
            #expect(begun.isTextAsked)
        }
        #expect(try sway.waylandClipboard().out == "still served")
        #expect(try clipboard.read(.clipboard, timeout: Self.timeout) == Array("still served".utf8))
        try ClipboardBackend.dataControl(socketPath: sway.socketPath).clear(.clipboard, environment: [:])
        #expect(throws: ClipboardError.empty(.clipboard)) {
            try clipboard.beginRead(.clipboard).read(.clipboard, timeout: Self.timeout)
        }
    }

    @Test("with DISPLAY set nothing is begun: the X side is asked first")
    func nothingBegunBesideX() {
        let both = DataControlClipboard(
            socketPath: sway.socketPath, helperExecutable: BuiltProducts.path(of: "paste"),
            environment: sway.toolEnvironment.merging(["DISPLAY": ":4242"]) { $1 })
        #expect(both.beginRead(.clipboard) is DataControlClipboard)
    }
}
