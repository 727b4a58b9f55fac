import Foundation
import PasteCore
import Stores
import Testing

/// `HistoryRecord.jsonLine` writes by hand what `JSONEncoder` would: the history file's format
/// must not change with the encoder behind it.
@Suite("History record JSON")
struct HistoryRecordJSONTests {
    static func encoderLine(_ record: HistoryRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    static let times: [Double] = [
        0, 1_738_324_800, 1_738_324_800.999, 951_782_400, 4_107_542_399, -86_401, 1_796_013_235.5, 253_402_300_799,
    ]

    @Test("every field, every time, byte for byte as JSONEncoder", arguments: times)
    func allFields(time: Double) throws {
        let record = HistoryRecord(
            time: Date(timeIntervalSince1970: time), service: "pastie \"quoted\" \\ back/slash",
            url: "https://paste.example/p/1?a=1&b=2", byteCount: 9_007_199_254_740_993,
            sha256: String(repeating: "ab", count: 32),
            title: "tab\there, newline\nthere, bell\u{07}, del\u{7F}, é, 😀, \u{2028}",
            deletionToken: "tok/en", deletionURL: "https://paste.example/d/1", preview: "first line\r\u{1B}[31m",
            options: "private", type: "image/png")
        #expect(record.jsonLine == (try Self.encoderLine(record)))
    }

    @Test("absent fields are left out, as JSONEncoder leaves them")
    func minimal() throws {
        let record = HistoryRecord(
            time: Date(timeIntervalSince1970: 1_738_324_800), service: "s", url: "u", byteCount: 0, sha256: "")
        #expect(record.jsonLine == (try Self.encoderLine(record)))
        #expect(record.jsonLine == #"{"bytes":0,"service":"s","sha256":"","time":"2025-01-31T12:00:00Z","url":"u"}"#)
    }

    @Test("a line reads back as the record it was written from")
    func roundTrip() throws {
        let record = HistoryRecord(
            time: Date(timeIntervalSince1970: 1_738_324_800), service: "s", url: "u", byteCount: 3, sha256: "cd",
            title: "x\u{0}y", preview: "p")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(HistoryRecord.self, from: Data(record.jsonLine.utf8)) == record)
    }

    @Test("the content's type is kept as `type`; a line written before types existed reads with none")
    func type() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let image = HistoryRecord(
            time: Date(timeIntervalSince1970: 1_738_324_800), service: "0x0", url: "u", byteCount: 120_000,
            sha256: "cd", type: "image/png")
        #expect(image.jsonLine.hasSuffix(#","type":"image/png","url":"u"}"#))
        #expect(try decoder.decode(HistoryRecord.self, from: Data(image.jsonLine.utf8)) == image)
        let old = #"{"bytes":5,"service":"s","sha256":"ab","time":"2025-01-31T12:00:00Z","url":"u"}"#
        let record = try decoder.decode(HistoryRecord.self, from: Data(old.utf8))
        #expect(record.type == nil)
        #expect(record.byteCount == 5)
    }
}
