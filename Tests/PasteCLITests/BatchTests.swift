import Foundation
import Testing
import TestSupport

@Suite("Batches: many -f files in one run", .temporaryHome, .mock)
struct BatchTests: ScopedSuite {
    @Test("200 files go out on a few reused connections and their URLs print in the order given")
    func orderAndReuse() throws {
        let count = 200
        var arguments = ["--url", mock.url("/pastes/create"), "--no-copy", "-q"]
        var texts: [String] = []
        for index in 0..<count {
            // Sizes differ, so transfers finish out of order on the multi handle.
            let text = "file \(index)\n" + String(repeating: "x", count: (index * 7919) % 3000) + "\n"
            texts.append(text)
            arguments += ["-f", try paste.home.write(text, to: "files/\(index).txt")]
        }
        let result = try paste.run(arguments, timeout: 120)
        #expect(result.status == 0, "stderr: \(result.err)")
        let urls = result.out.split(separator: "\n").map(String.init)
        try #require(urls.count == count)
        for (url, text) in zip(urls, texts) {
            let id = try #require(pasteID(url))
            #expect(try mock.rawPaste(id: id) == Data(text.utf8), "\(url) should hold \(text.prefix(10))")
        }
        // The mock logs each request's client port: requests sharing one came on one connection.
        let log = try mock.request("GET", "/_requests")
        let entries = try #require(try JSONSerialization.jsonObject(with: log.body) as? [[String: Any]])
        let posts = entries.filter { $0["method"] as? String == "POST" }
        #expect(posts.count == count)
        // Only the uploads: the test's own reads of each paste came on connections of its own.
        let connections = Set(posts.compactMap { $0["peer_port"] as? Int })
        #expect(connections.count >= 1)
        #expect(connections.count <= 6, "\(connections.count) connections for \(count) pastes")
    }
}
