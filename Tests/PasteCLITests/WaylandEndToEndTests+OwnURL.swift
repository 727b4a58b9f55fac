import Foundation
import Testing
import TestSupport

extension WaylandEndToEndTests {
    @Test("a second press on Wayland: the clipboard holds the URL, reused and not pasted (issue 45, item 5)")
    func secondPressReusesURL() throws {
        try sway.waylandCopy(Data("pressed twice on sway".utf8))
        let arguments = ["--url", mock.url("/pastes/create"), "--no-notify"]
        let url = try expectURL(try paste(arguments, withX: false))
        #expect(try readersGet(url, andX: false))
        let posts = try mock.posts().count
        let second = try paste(arguments, withX: false)
        #expect(second.status == 0)
        #expect(second.out == url + "\n")
        #expect(
            second.err
                == "paste: the clipboard holds the URL of your last paste; reusing it (--new uploads it anyway)\n")
        #expect(try mock.posts().count == posts)
        #expect(try readersGet(url, andX: false))
    }
}
