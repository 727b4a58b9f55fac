import Foundation
import PasteCore
import Stores
import TestSupport
import Testing

@Suite("History", .temporaryHome)
struct HistoryTests {
    let context = Context(environment: TemporaryHome.current.environment(), now: { HistoryTests.pinned })
    static let pinned = Date(timeIntervalSince1970: 1_738_324_800)

    func record(_ url: String, time: Date = HistoryTests.pinned, sha: String = "ab", service: String = "pastie")
        -> HistoryRecord
    {
        HistoryRecord(
            time: time, service: service, url: url, byteCount: 12, sha256: sha, title: "t",
            deletionToken: "tok", preview: "first line")
    }

    /// Starts `writers` threads in `group`, each appending `perWriter` records
    /// (`https://p.example/WRITER/INDEX`, digest `sha` repeated) to the history at `path`
    /// through a `History` of its own, as separate runs do; what fails goes to `failures`.
    static func startAppenders(
        _ writers: Int, each perWriter: Int, to path: String, group: DispatchGroup, failures: FailureBox,
        sha: Character, title: String? = nil
    ) {
        for writer in 0..<writers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let history = History(path: path)
                for index in 0..<perWriter {
                    do {
                        try history.append(
                            HistoryRecord(
                                time: HistoryTests.pinned, service: "s", url: "https://p.example/\(writer)/\(index)",
                                byteCount: Int64(index), sha256: String(repeating: sha, count: 64), title: title))
                    } catch {
                        failures.add("\(error)")
                    }
                }
            }
        }
    }

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int) ?? -1
    }

    @Test("appended records read back in order, newest last, in a 0600 file in a 0700 folder")
    func roundTrip() throws {
        let history = History(context: context)
        #expect(try history.records().isEmpty)
        let first = record("https://p.example/1")
        let second = record("https://p.example/2")
        try history.append(first)
        try history.append(second)
        #expect(try history.records() == [first, second])
        #expect(try mode(context.historyPath) == 0o600)
        #expect(try mode(context.pasteStateDirectory) == 0o700)
        let text = try String(contentsOfFile: context.historyPath, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2)
        #expect(text.contains("\"time\":\"2025-01-31T12:00:00Z\""))
        #expect(text.contains("\"delete_token\":\"tok\""))
    }

    @Test("a torn last line is skipped; the record appended after it, on the same line, is read")
    func tornLine() throws {
        let history = History(context: context)
        try history.append(record("https://p.example/1"))
        let handle = try #require(FileHandle(forWritingAtPath: context.historyPath))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"time\":\"2025-01-31T12:00:00Z\",\"serv".utf8))
        try handle.close()
        #expect(try history.records().map(\.url) == ["https://p.example/1"])
        try history.append(record("https://p.example/2", sha: "s2"))
        #expect(try history.records().map(\.url) == ["https://p.example/1", "https://p.example/2"])
        // The append did not look at the last byte: the record follows the torn one on its line,
        // and is found there by URL (own-URL look) and by digest (repeat window) as well.
        let lines = try String(contentsOfFile: context.historyPath, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(try history.recentRecord(url: "https://p.example/2", among: 5)?.age == 0)
        var keyed = record("https://p.example/3", sha: "s3")
        keyed.options = "k"
        let handle2 = try #require(FileHandle(forWritingAtPath: context.historyPath))
        try handle2.seekToEnd()
        try handle2.write(contentsOf: Data("{\"bytes\":3,\"serv".utf8))
        try handle2.close()
        try history.append(keyed)
        #expect(
            try history.recent(sha256: "s3", service: "pastie", options: "k", within: .seconds(60))?.url == keyed.url)
        #expect(try history.records().map(\.url) == ["https://p.example/1", "https://p.example/2", keyed.url])
        // --delete rewrites the file whole: the torn bytes go, every record stays on a line of its own.
        #expect(try history.remove(url: "https://p.example/1") == 1)
        let rewritten = try String(contentsOfFile: context.historyPath, encoding: .utf8).split(separator: "\n")
        #expect(rewritten.count == 2)
        #expect(rewritten.allSatisfy { $0.hasPrefix("{\"bytes\":") })
    }

    @Test("--delete renaming the file while runs append: every appended record is kept, once")
    func removeWhileAppending() throws {
        let path = context.historyPath
        let doomed = 40
        let writers = 4
        let perWriter = 150
        let history = History(path: path)
        for index in 0..<doomed { try history.append(record("https://p.example/doomed/\(index)")) }
        let group = DispatchGroup()
        let failures = FailureBox()
        Self.startAppenders(writers, each: perWriter, to: path, group: group, failures: failures, sha: "e")
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            let remover = History(path: path)
            for index in 0..<doomed {
                do {
                    if try remover.remove(url: "https://p.example/doomed/\(index)") != 1 {
                        failures.add("doomed/\(index) was not removed")
                    }
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(failures.all.isEmpty, "\(failures.all)")
        let urls = try History(path: path).records().map(\.url)
        let expected = (0..<writers).flatMap { writer in (0..<perWriter).map { "https://p.example/\(writer)/\($0)" } }
        #expect(urls.count == expected.count, "\(urls.count) records, \(Set(expected).subtracting(urls).count) lost")
        #expect(Set(expected).subtracting(urls).sorted().prefix(5) == [])
    }

    @Test("find, the repeat window, and remove")
    func queries() throws {
        let history = History(context: context)
        let key = PasteOptions().repeatKey
        for var entry in [
            record("https://p.example/old", time: HistoryTests.pinned - 600, sha: "s1"),
            record("https://p.example/new", time: HistoryTests.pinned - 30, sha: "s1"),
            record("https://p.example/other", sha: "s2", service: "termbin"),
        ] {
            entry.options = key
            try history.append(entry)
        }
        #expect(try history.find(url: "https://p.example/old")?.time == HistoryTests.pinned - 600)
        #expect(try history.find(url: "https://nope") == nil)
        #expect(
            try history.recent(sha256: "s1", service: "pastie", options: key, within: .seconds(60))?.url
                == "https://p.example/new")
        #expect(try history.recent(sha256: "s1", service: "pastie", options: key, within: .seconds(10)) == nil)
        #expect(try history.recent(sha256: "s2", service: "pastie", options: key, within: .seconds(60)) == nil)
        #expect(try history.remove(url: "https://p.example/new") == 1)
        #expect(try history.remove(url: "https://p.example/new") == 0)
        #expect(try history.records().map(\.url) == ["https://p.example/old", "https://p.example/other"])
        #expect(try mode(context.historyPath) == 0o600)
    }

    @Test("the repeat window reuses a URL only for the same options: a private paste never gets a public URL")
    func repeatKeyedByOptions() throws {
        let history = History(context: context)
        let publicKey = PasteOptions().repeatKey
        let privateKey = PasteOptions(isPrivate: true).repeatKey
        var publicRecord = record("https://p.example/public", sha: "s1")
        publicRecord.options = publicKey
        try history.append(publicRecord)
        try history.append(record("https://p.example/old-format", sha: "s2"))
        #expect(
            try history.recent(sha256: "s1", service: "pastie", options: publicKey, within: .seconds(60))?.url
                == "https://p.example/public")
        #expect(try history.recent(sha256: "s1", service: "pastie", options: privateKey, within: .seconds(60)) == nil)
        #expect(try history.recent(sha256: "s1", service: "termbin", options: publicKey, within: .seconds(60)) == nil)
        // A record written before the key existed is never reused under the key.
        #expect(try history.recent(sha256: "s2", service: "pastie", options: publicKey, within: .seconds(60)) == nil)
        let line = try String(contentsOfFile: context.historyPath, encoding: .utf8).split(separator: "\n").first
        #expect(line?.contains("\"options\":\"\(publicKey)\"") == true)
        #expect(try history.records().first?.options == publicKey)
    }

    @Test("20 concurrent appenders on separate descriptors leave 20×50 well-formed records")
    func concurrentAppends() throws {
        let path = context.historyPath
        let writers = 20
        let perWriter = 50
        let group = DispatchGroup()
        let failures = FailureBox()
        Self.startAppenders(
            writers, each: perWriter, to: path, group: group, failures: failures, sha: "f",
            title: String(repeating: "x", count: 2000))
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(failures.all.isEmpty)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == writers * perWriter)
        let urls = Set(try History(path: path).records().map(\.url))
        #expect(urls.count == writers * perWriter)
    }

    @Test("previews take the first non-blank line, without control characters, shortened")
    func previews() {
        #expect(HistoryRecord.preview(of: Array("\n  \n\thello\u{1b}[31m world  \nsecond".utf8)) == "hello [31m world")
        #expect(HistoryRecord.preview(of: Array("  \n \n".utf8)) == nil)
        #expect(HistoryRecord.preview(of: Array("   plain ascii, trimmed  \nnext".utf8)) == "plain ascii, trimmed")
        #expect(HistoryRecord.preview(of: Array(" \u{e9}t\u{e9} \n".utf8)) == "\u{e9}t\u{e9}")
        let long = HistoryRecord.preview(of: [UInt8](repeating: UInt8(ascii: "y"), count: 500))
        #expect(long?.count == HistoryRecord.maximumPreviewLength)
        #expect(long?.hasSuffix("…") == true)
    }
}

/// Collects failures from worker threads.
final class FailureBox: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
