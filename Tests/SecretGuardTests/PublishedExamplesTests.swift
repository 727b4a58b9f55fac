import Foundation
import Testing

@testable import SecretGuard

/// The credentials vendors publish as examples (docs/published-examples.tsv, with their
/// sources) are what the guard declines (`SecretValue.documentedExamples`), and each stays quiet
/// where its documentation prints it.
@Suite("Secret guard: vendors' published examples")
struct PublishedExamplesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The listed values: kind and value of each row (comments and blank lines left out).
    static func listed() throws -> [(kind: String, value: String)] {
        let text = try String(
            contentsOf: root.appendingPathComponent("docs/published-examples.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return (String(fields[0]), fields.count > 1 ? String(fields[1]) : "")
        }
    }

    /// Whether a listed value is one the guard tells by its shape, not by the list: elided in
    /// the documentation, a whole `.netrc` line, a URL (listed from where its row finds it).
    static func isToldByShape(_ value: String) -> Bool {
        value.contains("...") || value.contains("…") || value.hasPrefix("machine ") || value.contains("://")
    }

    @Test("the table and the guard's list hold the same values")
    func listsAgree() throws {
        let listed = try Self.listed()
        #expect(listed.count >= 150)
        let declined = Set(SecretValue.documentedExamples)
        for row in listed where !Self.isToldByShape(row.value) {
            #expect(declined.contains(row.value), "\(row.kind): \(row.value) is listed but not declined")
        }
        let values = listed.map(\.value)
        for example in SecretValue.documentedExamples {
            #expect(values.contains { $0.contains(example) }, "\(example) is declined but not listed")
        }
    }

    @Test("each example stays quiet in the places its documentation prints it")
    func examplesQuiet() throws {
        // (Not a URL's query, `&`-joined or `%`-encoded: its rows find a part of it, listed alone.)
        let plain = try Self.listed().filter { row in
            !row.value.contains(" ") && !row.value.contains("://") && !row.value.contains("&")
                && !row.value.contains("%")
        }
        #expect(plain.count >= 140)
        for row in plain {
            for text in [
                "\(row.value)\n", "api_token: \(row.value)\n", "password = \"\(row.value)\"\n",
                "Authorization: Bearer \(row.value)\n",
            ] {
                let findings = SecretGuard().scan(Array(text.utf8))
                #expect(findings.isEmpty, "\(row.kind) in \(text.debugDescription): \(findings)")
            }
        }
    }
}
