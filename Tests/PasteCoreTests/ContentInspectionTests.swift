import Foundation
import Testing
import TestSupport

@testable import PasteCore

@Suite("Content inspection: binary and non-UTF-8 input refused at its offset, JSON escaped by the chunk")
struct ContentInspectionTests: ScopedSuite {
    /// Well-formed and ill-formed UTF-8 (Unicode's Table 3-7 edges and the classic traps).
    static let samples: [[UInt8]] = [
        Array("plain ascii".utf8), Array("café 日本語 🎉 \u{10FFFF}".utf8),
        [0x63, 0x61, 0x66, 0xE9],  // Latin-1 é
        [0xC0, 0xAF], [0xC1, 0xBF],  // overlong
        [0xE0, 0x80, 0xAF], [0xE0, 0x9F, 0xBF],  // overlong, 3 bytes
        [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF],  // a surrogate; the last scalar before them
        [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],  // overlong, too big, max
        [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0x61, 0xBF, 0x62],  // never lead bytes; a stray continuation
        [0x61, 0xE2, 0x82], [0xE2, 0x82, 0x61], Array("ok".utf8) + [0xF0, 0x9F, 0x8E],  // cut short
    ]

    /// The offset of the first ill-formed sequence as Swift's own decoder finds it, or nil.
    static func firstError(_ bytes: [UInt8]) -> Int64? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return Int64(offset)
            }
        }
    }

    @Test("the validator agrees with Swift's decoder, whatever chunk boundary splits a sequence")
    func validatorAgrees() {
        for sample in Self.samples {
            let expected = Self.firstError(sample)
            for split in 0...sample.count {
                var validator = UTF8Validator()
                let head = Array(sample[..<split])
                let tail = Array(sample[split...])
                let found =
                    validator.validate(head.span, at: 0) ?? validator.validate(tail.span, at: Int64(split))
                    ?? validator.finish()
                #expect(found == expected, "\(sample) split at \(split)")
            }
        }
    }

    @Test("long ASCII runs are skipped many bytes a step: a bad byte anywhere in them is found at its offset")
    func validatorAcrossASCIIRuns() {
        // Every place in and around the 32- and 8-byte steps of `Memory.firstNonASCII`, and
        // runs that end in a well-formed sequence the validator must still step through.
        let run = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
        for place in 0..<run.count {
            for bad: [UInt8] in [[0x80], [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] {
                var bytes = run
                bytes.replaceSubrange(place..<min(place + bad.count, bytes.count), with: bad)
                var validator = UTF8Validator()
                #expect(validator.validate(bytes.span, at: 7) == Int64(place + 7), "\(bad) at \(place)")
            }
            var good = run
            good.replaceSubrange(place..<place, with: Array("é日🎉".utf8))
            var validator = UTF8Validator()
            #expect(validator.validate(good.span, at: 0) == nil && validator.finish() == nil, "at \(place)")
            let cut = Array(good[..<(place + 1)])
            var cutValidator = UTF8Validator()
            #expect(cutValidator.validate(cut.span, at: 0) == nil && cutValidator.finish() == Int64(place))
        }
        #expect(MediaType.isUTF8Text(run + [0xC3], isWhole: false))
        #expect(!MediaType.isUTF8Text(run + [0xC3], isWhole: true))
        #expect(!MediaType.isUTF8Text(run + [0x00] + run, isWhole: true))
        #expect(!MediaType.isUTF8Text(run + [0xC3, 0x28] + run, isWhole: false))
    }

    /// Shows `bytes` to the inspection (a span cannot be passed through `#expect`).
    func feed(_ inspection: ContentInspection, _ bytes: [UInt8]) -> Bool { inspection.inspect(bytes.span) }

    @Test("binary data is refused at the offset of its first NUL, across chunks")
    func nulOffsets() {
        let inspection = ContentInspection(.text(in: .raw), source: "stdin")
        #expect(feed(inspection, Array(repeating: UInt8(ascii: "a"), count: 1000)))
        #expect(!feed(inspection, [0x61, 0x61, 0x00, 0x61]))
        #expect(inspection.refusal == .binary(source: "stdin", offset: 1002))
        // Refused stays refused.
        #expect(!feed(inspection, [0x61]))
        inspection.restart()
        #expect(inspection.refusal == nil && inspection.offset == 0)
        #expect(feed(inspection, [0x61]) && inspection.finish())
    }

    @Test("UTF-8 is checked only where the format needs it; a sequence cut at the end is refused at finish")
    func utf8WhereNeeded() throws {
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]
        for format in [RequestFormat.multipart, .raw, .tcp] {
            try ContentInspection.check(latin1, .text(in: format), source: "x")
        }
        for format in [RequestFormat.form, .json, .privatebin] {
            #expect(throws: InspectionRefusal.notUTF8(source: "x", offset: 3, format: format)) {
                try ContentInspection.check(latin1, .text(in: format), source: "x")
            }
        }
        let inspection = ContentInspection(.text(in: .json), source: "stdin")
        #expect(feed(inspection, Array("ok \u{E9}".utf8.dropLast())))
        #expect(!inspection.finish())
        #expect(inspection.refusal == .notUTF8(source: "stdin", offset: 3, format: .json))
        // Nothing checked for a file sent as a file.
        #expect(ContentInspection(.none, source: "x").isEmpty)
    }

    @Test("JSON escaping chunk by chunk equals escaping the whole text, however it is split")
    func jsonByTheChunk() {
        let text = "q\" b\\ n\n r\r t\t \u{8}\u{C}\u{1}\u{1F}\u{7F} café 日本語 🎉 \u{2028} end"
        let bytes = Array(text.utf8)
        for size in 1...9 {
            var output: [UInt8] = []
            var start = 0
            while start < bytes.count {
                let chunk = Array(bytes[start..<min(bytes.count, start + size)])
                JSONText.appendEscaped(chunk.span, to: &output)
                start += size
            }
            #expect(String(decoding: output, as: UTF8.self) == JSONText.escape(text), "chunks of \(size)")
        }
    }
}
