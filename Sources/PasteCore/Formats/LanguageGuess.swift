/// A language guessed from the text itself, for services that highlight, when neither `-l` nor
/// a file's extension gives one (issue 43, item 3): clipboard text has no file name.
///
/// Offline and deterministic, and cheap: only the first `window` bytes are looked at, line by
/// line, over the raw UTF-8 bytes (no regular expression engine, no string per line, no
/// allocation per byte). Strong marks decide alone (a shebang, a diff header, `<?php`, `<?xml`,
/// a Python traceback, a whole JSON document); keyword signatures need two different signs of
/// one language, so prose that says "import" or "def" once stays text. Log lines are recognised
/// so they are never taken for YAML, and stay text (Pygments, whose names these are, has no
/// lexer for logs). Nil: text.
///
/// PERF(batch, hotkey): the guess runs once per input of a run, so it must cost microseconds.
/// A line is a slice of the sample's bytes; the signatures' words are found in one pass over
/// each line through a table indexed by the first byte (`SignTable`), and a sign already seen
/// is not looked for again. Over `Substring` (signs × patterns × lines through `UTF8View`
/// indices) a guess of 1 KiB of prose was ~0.5 ms, and a 200-file batch spent a quarter of its
/// time here.
public enum LanguageGuess {
    /// How much of the text is looked at.
    public static let window = 4096

    /// One line of the sample: its bytes, without the `\n` (nor a `\r` before it).
    typealias Line = ArraySlice<UInt8>

    /// Builds the guess's tables now (they are made on first use: `table`), so that a guess
    /// made later costs only its scan (the hotkey builds them while the clipboard's owner answers).
    public static func prepare() {
        _ = table
    }

    /// The Pygments lexer name the text looks like, or nil (plain text).
    public static func language(of bytes: some Collection<UInt8>) -> String? {
        let sample = Array(bytes.prefix(window))
        guard !sample.isEmpty, !sample.contains(0) else { return nil }
        // A cut in the middle of a character does not matter: every test is on ASCII bytes.
        return guess(sample, isWhole: bytes.count <= window)
    }

    // MARK: - The rules, strongest first

    static func guess(_ sample: [UInt8], isWhole: Bool) -> String? {
        var lines: [Line] = []
        var start = 0
        for index in sample.indices where sample[index] == 0x0A {
            lines.append(line(sample, start, index))
            start = index + 1
        }
        lines.append(line(sample, start, sample.count))
        let content = lines.filter { !$0.isBlank }
        guard let first = content.first else { return nil }
        let head = first.droppingWhitespace
        if head.hasPrefix("#!") { return shebang(String(decoding: head, as: UTF8.self)[...]) }
        if let marked = strongMark(head, lines: content, sample: sample, isWhole: isWhole) { return marked }
        if let trace = stackTrace(content) { return trace }
        if isLog(content) { return nil }
        if isYAML(content) { return "yaml" }
        return signatures(content)
    }

    /// The bytes from `start` up to `end`, without a `\r` that ends them.
    private static func line(_ sample: [UInt8], _ start: Int, _ end: Int) -> Line {
        end > start && sample[end - 1] == 0x0D ? sample[start..<(end - 1)] : sample[start..<end]
    }

    /// The interpreter of a `#!` line: `/usr/bin/env python3 -u` is python.
    static func shebang(_ line: Substring) -> String? {
        var words = line.dropFirst(2).split(separator: " ")
        guard let program = words.first else { return nil }
        var name = program.split(separator: "/").last.map(String.init) ?? String(program)
        if name == "env" {
            words.removeFirst()
            while let word = words.first, word.hasPrefix("-") || word.contains("=") { words.removeFirst() }
            guard let next = words.first else { return nil }
            name = String(next)
        }
        let base = String(name.prefix { !$0.isNumber && $0 != "." })
        let interpreters: [String: String] = [
            "python": "python", "pypy": "python", "sh": "bash", "bash": "bash", "dash": "bash", "ksh": "bash",
            "ash": "bash", "zsh": "zsh", "fish": "fish", "perl": "perl", "ruby": "ruby", "node": "javascript",
            "nodejs": "javascript", "deno": "typescript", "php": "php", "lua": "lua", "luajit": "lua",
            "Rscript": "r", "tclsh": "tcl", "wish": "tcl", "awk": "awk", "gawk": "awk", "swift": "swift",
            "pwsh": "powershell", "osascript": "applescript", "make": "make", "julia": "julia", "elixir": "elixir",
            "escript": "erlang", "guile": "scheme", "racket": "racket", "sbcl": "common-lisp",
        ]
        return interpreters[base] ?? interpreters[name]
    }

    /// Marks that decide alone, from the first line or the shape of the whole.
    static func strongMark(_ head: Line, lines: [Line], sample: [UInt8], isWhole: Bool) -> String? {
        if head.hasPrefix("diff --git ") || head.hasPrefix("Index: ") && lines.contains(where: { $0.hasPrefix("+++ ") })
        {
            return "diff"
        }
        if head.hasPrefix("--- "), lines.count > 2, lines[1].hasPrefix("+++ "),
            lines.contains(where: { $0.hasPrefix("@@ -") })
        {
            return "diff"
        }
        if head.hasPrefix("From ") && lines.contains(where: { $0.hasPrefix("diff --git ") }) { return "diff" }
        if head.hasPrefix("<?php") { return "php" }
        if head.hasPrefix("<?xml") { return "xml" }
        if head.hasPrefix("<!doctype html", ignoringCase: true) || head.hasPrefix("<html", ignoringCase: true) {
            return "html"
        }
        if head.hasPrefix("<") && lines.count > 1, let last = lines.last?.droppingWhitespace, last.hasPrefix("</"),
            last.hasSuffix(">")
        {
            return lines.contains { $0.holds("<div") || $0.holds("<p>") || $0.holds("<body") } ? "html" : "xml"
        }
        if head.hasPrefix("{") || head.hasPrefix("[") {
            // A bare `[1, 2]` is JSON too, but hardly worth highlighting: strings make it so.
            // Parsed as text (a broken character repaired), as the person's text would be.
            if isWhole, sample.contains(0x22),
                (try? OrderedJSON(parsing: Array(String(decoding: sample, as: UTF8.self).utf8))) != nil
            {
                return "json"
            }
            if !isWhole,
                head.hasPrefix("{\"") || (head.elementsEqual("{".utf8) && lines.count > 1 && lines[1].holds("\":"))
            {
                return "json"
            }
        }
        if head.elementsEqual("---".utf8) && lines.count > 1 && lines[1].holds(": ") { return "yaml" }
        if head.hasPrefix("%YAML") { return "yaml" }
        return nil
    }

    /// The stack traces of the common languages.
    static func stackTrace(_ lines: [Line]) -> String? {
        var javaFrames = 0
        var nodeFrames = 0
        for line in lines.prefix(200) {
            if line.hasPrefix("Traceback (most recent call last):") { return "pytb" }
            if line.hasPrefix("goroutine ") && line.hasSuffix("]:") { return "go" }
            if line.hasPrefix("thread '") && line.holds("' panicked at ") { return "rust" }
            let trimmed = line.droppingIndent
            if trimmed.hasPrefix("at "), trimmed.hasSuffix(")") {
                if trimmed.holds(".java:") || trimmed.holds(".kt:") || trimmed.holds("(Native Method)")
                    || trimmed.holds("(Unknown Source)")
                {
                    javaFrames += 1
                } else if trimmed.holds(".js:") || trimmed.holds(".ts:") || trimmed.holds("node:") {
                    nodeFrames += 1
                }
            }
        }
        if javaFrames >= 2 { return "java" }
        if nodeFrames >= 2 { return "javascript" }
        return nil
    }

    /// Whether most lines start like log lines: a timestamp (ISO 8601, syslog's `Jan  2
    /// 15:04:05`, a bracketed one) or a level word.
    static func isLog(_ lines: [Line]) -> Bool {
        let sample = lines.prefix(50)
        guard sample.count >= 2 else { return sample.first.map(isLogLine) ?? false }
        let matching = sample.filter(isLogLine).count
        return matching * 10 >= sample.count * 6
    }

    static let months = [
        "Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ", "Dec ",
    ]
    static let levels = [
        "INFO ", "WARN ", "ERROR ", "DEBUG ", "TRACE ", "[INFO]", "[WARN]", "[ERROR]", "[DEBUG]", "E0", "I0", "W0",
    ]

    static func isLogLine(_ line: Line) -> Bool {
        let base = line.startIndex
        let end = min(line.endIndex, base + 32)
        func at(_ index: Int) -> UInt8? { base + index < end ? line[base + index] : nil }
        func digit(_ index: Int) -> Bool { at(index).map { (0x30...0x39).contains($0) } ?? false }
        func byte(_ index: Int, _ value: Unicode.Scalar) -> Bool { at(index) == UInt8(value.value) }
        // 2024-01-31T12:00:00 or 2024-01-31 12:00:00, possibly bracketed.
        let start = byte(0, "[") ? 1 : 0
        if (0..<4).allSatisfy({ digit(start + $0) }) && byte(start + 4, "-") && digit(start + 5) && digit(start + 6)
            && byte(start + 7, "-") && digit(start + 8) && digit(start + 9)
            && (byte(start + 10, "T") || byte(start + 10, " ")) && digit(start + 11) && digit(start + 12)
            && byte(start + 13, ":")
        {
            return true
        }
        // Jan  2 15:04:05 (syslog).
        if months.contains(where: { line.hasPrefix($0) }), byte(6, " ") || digit(5), byte(9, ":") || byte(10, ":") {
            return true
        }
        // 12:00:00.123 at the start.
        if digit(0) && digit(1) && byte(2, ":") && digit(3) && digit(4) && byte(5, ":") { return true }
        for level in levels where line.hasPrefix(level) {
            return level.utf8.count > 2 || (digit(2) && digit(3))
        }
        return false
    }

    /// YAML: key lines and list items, with at least one nested value (a `key:` alone followed
    /// by an indented line), so `Name: value` lines of prose or a chat stay text.
    static func isYAML(_ lines: [Line]) -> Bool {
        let sample = lines.prefix(80).filter { !$0.droppingSpaces.hasPrefix("#") }
        guard sample.count >= 3 else { return false }
        var keyLines = 0
        var nested = false
        for (index, line) in sample.enumerated() {
            let indent = line.leadingSpaces
            let body = line.dropFirst(indent)
            if body.hasPrefix("- ") || body.elementsEqual("-".utf8) {
                keyLines += 1
                continue
            }
            guard let colon = body.firstIndex(of: 0x3A) else { continue }
            let key = body[..<colon]
            guard !key.isEmpty, !key.contains(0x20) || key.first == 0x22, !key.contains(0x09),
                key.allCharacters({ $0.isLetter || $0.isNumber || "_-.\"/".contains($0) })
            else { continue }
            let rest = body[(colon + 1)...]
            guard rest.isEmpty || rest.first == 0x20 else { continue }
            keyLines += 1
            if rest.isBlank, index + 1 < sample.count {
                let next = sample[index + 1]
                if next.leadingSpaces > indent || next.droppingCharacters(indent).hasPrefix("- ") {
                    nested = true
                }
            }
        }
        return nested && keyLines * 10 >= sample.count * 8
    }

    // MARK: - Keyword signatures

    /// One sign of a language: a line that starts with, contains, is or passes a test.
    struct Sign: Sendable {
        enum Test: Sendable {
            /// The line starts with one of the words.
            case starts([[UInt8]])
            /// The line, its indent dropped, is one of the words.
            case lineIs([[UInt8]])
            /// The line holds one of the words somewhere (found through `SignTable`).
            case holds([[UInt8]])
            /// Any other test of the line.
            case passes(@Sendable (Line) -> Bool)
        }

        var language: String
        var test: Test
        /// Whether it decides alone (`#include <…>`, `package main`).
        var isStrong = false
    }

    static func starts(_ language: String, _ prefixes: [String], strong: Bool = false) -> Sign {
        Sign(language: language, test: .starts(prefixes.map { Array($0.utf8) }), isStrong: strong)
    }

    static func lineIs(_ language: String, _ words: [String]) -> Sign {
        Sign(language: language, test: .lineIs(words.map { Array($0.utf8) }))
    }

    static func holds(_ language: String, _ parts: [String]) -> Sign {
        Sign(language: language, test: .holds(parts.map { Array($0.utf8) }))
    }

    static func passes(_ language: String, _ test: @escaping @Sendable (Line) -> Bool) -> Sign {
        Sign(language: language, test: .passes(test))
    }

    /// The signs, in the order ties are broken (first listed wins).
    static let signs: [Sign] = [
        starts("python", ["def ", "async def "]),
        passes("python") { $0.hasPrefix("from ") && $0.holds(" import ") },
        passes("python") { $0.hasPrefix("import ") && !$0.hasSuffix(";") && !$0.holds(" from ") },
        holds("python", ["if __name__ == ", "self.", "elif ", "print(f\"", "    return None"]),
        passes("python") { ($0.hasPrefix("class ") || $0.hasPrefix("for ")) && $0.hasSuffix(":") },
        starts("go", ["package main"], strong: true), starts("go", ["func ", "import (", "package "]),
        holds("go", [":= ", "fmt.Print", "err != nil"]),
        starts("rust", ["fn ", "pub fn ", "use std::", "impl ", "pub struct ", "#[derive("]),
        holds("rust", ["let mut ", "println!(", "-> Result<", "&mut self", "::new("]),
        starts("cpp", ["#include <iostream>", "#include <vector>", "#include <string>"], strong: true),
        holds("cpp", ["std::", "template <", "template<", "namespace ", "cout <<"]),
        starts("c", ["#include <", "#include \"", "#define ", "int main("], strong: true),
        holds("c", ["printf(", "malloc(", "sizeof(", "NULL)", "->"]),
        starts("java", ["public class ", "import java.", "package com.", "package org."]),
        holds("java", ["public static void main(String", "System.out.println", "private final ", "@Override"]),
        starts("swift", ["import Foundation", "import SwiftUI", "import UIKit", "func ", "struct ", "guard let "]),
        holds("swift", ["guard let ", "if let ", "-> some ", "@State ", ": some View", "let ", "var "]),
        starts("typescript", ["interface ", "export interface ", "export type ", "type "]),
        holds("typescript", [": string", ": number", ": boolean", "): Promise<"]),
        starts("javascript", ["const ", "function ", "module.exports", "export default ", "import "]),
        holds("javascript", ["console.log(", "=> {", "require(", "document.", "===", "});"]),
        starts("ruby", ["require '", "require_relative ", "puts \""]), lineIs("ruby", ["end"]),
        holds("ruby", [" do |", ".each do", "attr_accessor ", "end.", "def self."]),
        starts("sql", ["SELECT ", "INSERT INTO ", "CREATE TABLE ", "UPDATE ", "DELETE FROM ", "ALTER TABLE "]),
        holds("sql", [" FROM ", " WHERE ", " JOIN ", " GROUP BY ", " ORDER BY ", "PRIMARY KEY", "VALUES ("]),
        starts("sql", ["FROM ", "WHERE ", "GROUP BY ", "ORDER BY ", "JOIN ", "LEFT JOIN "]),
        starts("bash", ["export ", "echo \"$", "set -e", "if [ ", "if [[ ", "cd "]),
        lineIs("bash", ["fi", "done", "esac", "then", "else", "do"]),
        holds("bash", ["$(", "${", " | grep ", "; then", "; do", " 2>&1", " >/dev/null"]),
        starts("docker", ["FROM "]), starts("docker", ["RUN ", "COPY ", "WORKDIR ", "ENTRYPOINT ", "CMD ", "EXPOSE "]),
        starts("make", [".PHONY:", "\t$(", "\t@", "all:"]), holds("make", ["$(CC)", "$@", "$<", "$(MAKE)"]),
        starts("ini", ["["]), passes("ini") { iniAssignment($0) },
        passes("css") { $0.hasSuffix("{") && !$0.contains(0x28) && !$0.contains(0x3D) },
        passes("css") { cssDeclaration($0) },
        starts("markdown", ["# ", "## ", "### ", "```", "* [", "- [ ] ", "- [x] "]),
        holds("markdown", ["](http", "**", "](#", "](./"]),
    ]

    /// The `holds` signs' words by their first byte, made once: a line is read once for all of
    /// them, not once per word.
    struct SignTable: Sendable {
        /// For each byte value, the words that start with it and the sign each belongs to.
        var byFirstByte: [[(word: [UInt8], sign: Int)]] = Array(repeating: [], count: 256)
        /// The signs that are tested otherwise, in order.
        var others: [Int] = []

        init(_ signs: [Sign]) {
            for (index, sign) in signs.enumerated() {
                guard case .holds(let words) = sign.test else {
                    others.append(index)
                    continue
                }
                for word in words { byFirstByte[Int(word[0])].append((word, index)) }
            }
        }
    }

    static let table = SignTable(signs)

    /// Whether a sign other than a `holds` one passes on a line.
    static func passes(_ test: Sign.Test, _ line: Line) -> Bool {
        switch test {
        case .starts(let prefixes): return prefixes.contains { line.hasPrefix($0) }
        case .lineIs(let words):
            let trimmed = line.droppingIndent
            return words.contains { trimmed.elementsEqual($0) }
        case .holds(let words): return words.contains { line.holds($0) }
        case .passes(let test): return test(line)
        }
    }

    static func iniAssignment(_ line: Line) -> Bool {
        guard let equals = line.firstIndex(of: 0x3D), equals != line.startIndex else { return false }
        let key = line[..<equals].droppingIndent.droppingTrailingIndent
        return !key.isEmpty && key.allCharacters { $0.isLetter || $0.isNumber || "_-.".contains($0) }
    }

    static func cssDeclaration(_ line: Line) -> Bool {
        guard line.first == 0x20 || line.first == 0x09 else { return false }
        let trimmed = line.droppingIndent
        guard trimmed.hasSuffix(";"), let colon = trimmed.firstIndex(of: 0x3A) else { return false }
        let property = trimmed[..<colon]
        return !property.isEmpty && property.allCharacters { $0.isLowercase || $0 == "-" }
    }

    /// The language with the most distinct signs (two at least, or one strong one); nil when
    /// none is clear.
    static func signatures(_ lines: [Line]) -> String? {
        // Only whether a sign was seen matters, and the order signs are listed in.
        var seen = [Bool](repeating: false, count: signs.count)
        var unseen = signs.count
        for line in lines.prefix(200) where unseen > 0 {
            for index in table.others where !seen[index] && passes(signs[index].test, line) {
                seen[index] = true
                unseen -= 1
            }
            var position = line.startIndex
            while position < line.endIndex {
                for (word, index) in table.byFirstByte[Int(line[position])]
                where !seen[index] && line.holds(word, at: position) {
                    seen[index] = true
                    unseen -= 1
                }
                position += 1
            }
        }
        var hits: [String: Int] = [:]
        var strong: Set<String> = []
        for (index, sign) in signs.enumerated() where seen[index] {
            hits[sign.language, default: 0] += 1
            if sign.isStrong { strong.insert(sign.language) }
        }
        // C++ and C share `#include`: C++ wins when its own signs are there.
        if strong.contains("cpp") { return "cpp" }
        if strong.contains("c") { return (hits["cpp"] ?? 0) >= 1 ? "cpp" : "c" }
        if strong.contains("go") { return "go" }
        // INI and CSS need their shape on most lines, not two signs somewhere.
        var best: (language: String, count: Int)?
        for sign in signs where best?.language != sign.language {
            let count = hits[sign.language] ?? 0
            guard count >= 2, count > (best?.count ?? 0) else { continue }
            if sign.language == "ini" && !mostly(lines, iniAssignment) { continue }
            if sign.language == "css" && !mostly(lines, cssDeclaration) { continue }
            best = (sign.language, count)
        }
        // TypeScript is JavaScript with types: with both, the types decide.
        if best?.language == "javascript", (hits["typescript"] ?? 0) >= 2 { return "typescript" }
        return best?.language
    }

    /// Whether at least half of the lines that are not section heads, braces or blank pass.
    static func mostly(_ lines: [Line], _ test: (Line) -> Bool) -> Bool {
        let body = lines.filter {
            let trimmed = $0.droppingIndent
            return !trimmed.hasPrefix("[") && !trimmed.hasPrefix("#") && !trimmed.hasPrefix(";")
                && !trimmed.hasSuffix("{") && !trimmed.elementsEqual("}".utf8)
        }
        guard !body.isEmpty else { return false }
        return body.filter(test).count * 2 >= body.count
    }
}
