@testable import PasteCLI
import Testing

/// The files written from the option table (`swift run paste-gen`) are checked in; these tests
/// fail while one differs from what the table gives by a byte, so a changed option cannot leave
/// a completion or the help snapshot behind.
@Suite("Files generated from the option table")
struct GeneratedFilesTests {
    /// Where `file` (in the repository) first differs from `generated`: nil when they are the
    /// same, else the line number and both lines.
    static func firstDifference(_ file: String, _ generated: String) throws -> String? {
        let inRepository = try SourceTree.text(file)
        guard inRepository != generated else { return nil }
        let old = inRepository.split(separator: "\n", omittingEmptySubsequences: false)
        let new = generated.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        func at(_ lines: [Substring]) -> String { line < lines.count ? String(lines[line]).debugDescription : "(end)" }
        return "\(file) is not what the table gives (run `swift run paste-gen`): line \(line + 1) is \(at(old)), "
            + "generated \(at(new))"
    }

    @Test("each completion script in completions/ is current", arguments: CompletionScript.allCases)
    func completionIsCurrent(script: CompletionScript) throws {
        let difference = try Self.firstDifference("completions/" + script.fileName, script.text)
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test("docs/help.txt is paste --help as the table gives it")
    func helpIsCurrent() throws {
        let difference = try Self.firstDifference("docs/help.txt", helpText())
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test("every option with an argument completes a value, and no flag does")
    func valuesFollowArguments() {
        for spec in optionTable {
            #expect((spec.argument == nil) == (spec.id.completionValue == .none), "--\(spec.long)")
        }
    }

    @Test("a zsh spec escapes brackets in the help and quotes a quote")
    func zshEscapes() {
        var spec = optionTable[0]
        spec.help = "print a [service] section, 'quoted'"
        #expect(
            CompletionScript.zshSpec(spec)
                == #"'*'{-f+,--file=}'[print a \[service\] section, '\''quoted'\'']:file:_files'"#)
    }
}
