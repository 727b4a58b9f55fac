import Foundation
import Testing
import TestSupport

/// `--retry` leaves through the same record and deliver stages as a fresh upload: what it
/// prints and what history keeps describe the paste it sent.
@Suite("--retry through the pipeline", .temporaryHome, .mock)
struct RetryPipelineTests: ScopedSuite {
    @Test("--retry --json reports the size and SHA-256 of the text it sent, as history records them")
    func retryJSON() throws {
        try paste.writeConfig(pastieConfig(mock))
        try mock.addFault(.status(503), count: 0, path: "/pastes/create")
        let failed = try paste.run(["-S", "m"], stdin: "retry me\n")
        #expect(failed.status != 0)
        #expect(try paste.outboxContents() == [Data("retry me\n".utf8)])
        try mock.clearFaults()

        let retry = try paste.run(["--retry", "--json"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(retry.out.utf8)) as? [String: Any], "stdout: \(retry.out)")
        // `printf 'retry me\n' | sha256sum`
        let digest = "25eabd83389a68e374ef8c2a2dd24baaff6006a7012b581dfef4c3bf3724111b"
        #expect(object["bytes"] as? Int == 9)
        #expect(object["sha256"] as? String == digest)
        #expect(object["service"] as? String == "m")
        let url = try #require(object["url"] as? String)
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("retry me\n".utf8))

        let record = try #require(
            try paste.historyLines().last.flatMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            })
        #expect(record["url"] as? String == url)
        #expect(record["bytes"] as? Int == 9)
        #expect(record["sha256"] as? String == digest)
        #expect(try paste.outboxContents().isEmpty)
    }
}
