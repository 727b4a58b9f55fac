import Foundation
import Testing

import PasteCore
@testable import SecretGuard
import SecretScanInterop

/// The built-in table's prefilter is planned at build time: `swift run paste-gen` writes its plan
/// as C constants (Sources/CSecretScan/csecret_scan_builtin.h), and paste reads them instead of
/// planning at every start. These tests fail while the checked-in file differs from what the
/// table gives by a byte, and hold what paste reads from it to the plan made here.
@Suite("Secret prefilter: the built-in plan, made at build time")
struct SecretPlanFileTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("csecret_scan_builtin.h is the plan the rule table gives (run `swift run paste-gen` after changing it)")
    func headerIsCurrent() throws {
        let path = Self.root.appendingPathComponent(SecretPrefilter.Plan.headerPath).path
        let inRepository = try String(contentsOfFile: path, encoding: .utf8)
        let generated = SecretPrefilter.Plan.builtIn.cHeader
        guard inRepository != generated else { return }
        let old = inRepository.split(separator: "\n", omittingEmptySubsequences: false)
        let new = generated.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        func at(_ lines: [Substring]) -> String { line < lines.count ? String(lines[line]).debugDescription : "(end)" }
        Issue.record(
            "\(SecretPrefilter.Plan.headerPath) is not what the table gives (run `swift run paste-gen`): line \(line + 1) is \(at(old)), generated \(at(new))"
        )
    }

    @Test("paste-gen writes the header among the generated files")
    func listedForPasteGen() {
        #expect(SecretGuard.generatedFiles.map(\.path) == [SecretPrefilter.Plan.headerPath])
        #expect(SecretGuard.generatedFiles.first?.text == SecretPrefilter.Plan.builtIn.cHeader)
    }

    @Test("the built-in prefilter's entries, literals and member lists are the plan's")
    func sharedIsThePlan() {
        let plan = SecretPrefilter.Plan.builtIn
        let shared = SecretPrefilter.shared
        #expect(shared.entries.count == SecretRule.table.reduce(0) { $0 + $1.triggers.count })
        #expect(shared.entries == plan.entries)
        #expect(shared.literals == plan.literals)
        #expect(shared.memberStarts == plan.memberStarts)
        #expect(shared.members == plan.members)
        #expect(shared.rules.count == SecretRule.table.count)
        #expect(shared.decoders.count == SecretDecoder.table.count)
    }

    @Test("the plan made at run time from the same table is the same plan, whatever the order of the calls")
    func planIsDeterministic() {
        let first = SecretPrefilter.Plan.builtIn
        let second = SecretPrefilter.Plan(rules: SecretRule.table, decoders: SecretDecoder.table)
        #expect(first.cHeader == second.cHeader)
        #expect(first.followers[0..<4].allSatisfy { $0 == 0 }, "no byte follows group 0 (no pair)")
        #expect(first.groups.filter { $0 != 0 }.count >= first.memberStarts.count - 2)
    }

    @Test("the built-in search plans nothing when it is made: the vector kernels' plans wait for a large text")
    func builtInPlansNothing() {
        let table = CandidateSearch.BuiltInTable()
        #expect(table.search.isPlanned == (table.search.kernels == [.portable]))
        #expect(table.search.fastestKernel == table.search.kernels.last)
    }

    /// Text with every trigger literal in it, cut and whole, in both cases, among log lines, code
    /// and random bytes (a fixed seed).
    static let text: [UInt8] = {
        var generator = SplitMix(seed: 44)
        let literals = SecretGuard.triggerLiterals.map { Array($0.utf8) }
        let noise = Array(
            "2026-12-01T12:34:56.789Z INFO request_id=9f86d081 host=10.0.0.1:5432 key=value\nlet token = env[\"KEY\"]\n"
                .utf8)
        var text: [UInt8] = []
        while text.count < 96 << 10 {
            let literal = literals[Int(generator.next() % UInt64(literals.count))]
            switch generator.next() % 5 {
            case 0: text += literal
            case 1: text += literal.map { SecretPrefilter.otherCase($0) ?? $0 }
            case 2: text += literal.prefix(Int(generator.next() % UInt64(literal.count)))
            case 3: for _ in 0..<Int(generator.next() % 16) { text.append(UInt8(truncatingIfNeeded: generator.next())) }
            default:
                let start = Int(generator.next() % UInt64(noise.count))
                text += noise[start...].prefix(Int(generator.next() % 40))
            }
        }
        return text
    }()

    static func candidates(_ search: CandidateSearch, kernel: CandidateSearch.Kernel) -> [[Int]] {
        var result: [[Int]] = []
        var batch = CandidateBatch()
        var position = 0
        while position < text.count - 1 {
            position = search.find(in: text.span, from: position, to: text.count - 1, into: &batch, kernel: kernel)
            for index in 0..<batch.count { result.append([batch.position(index), batch.group(index)]) }
        }
        return result
    }

    @Test("the built-in search finds what a search planned at run time from the table finds, with every kernel here")
    func sameCandidatesAsPlannedAtRunTime() {
        let builtIn = SecretPrefilter.shared.search
        let planned = SecretPrefilter(rules: SecretRule.table).search
        #expect(builtIn.kernels == planned.kernels)
        for kernel in [CandidateSearch.Kernel.fastest] + builtIn.kernels {
            let found = Self.candidates(builtIn, kernel: kernel)
            #expect(found.count > 1000, "\(kernel)")
            #expect(found == Self.candidates(planned, kernel: kernel), "\(kernel)")
        }
    }

    @Test("the built-in prefilter finds what the run-time plan finds")
    func sameFindings() {
        let planned = SecretPrefilter(rules: SecretRule.table)
        #expect(!SecretGuard().scan(Array("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\n".utf8)).isEmpty)
        for text in [
            Self.text, Array("key = AKIAIOSFODNN7EXAMPLF and 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\n".utf8),
        ] {
            var builtInFound: [SecretMatch] = []
            var plannedFound: [SecretMatch] = []
            SecretScanner.evaluate(text.span, base: 0, from: 0, to: text.count, into: &builtInFound)
            SecretScanner.evaluate(
                text.span, base: 0, from: 0, to: text.count, into: &plannedFound, prefilter: planned)
            #expect(builtInFound == plannedFound)
        }
    }
}
