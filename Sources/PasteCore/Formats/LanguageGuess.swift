/// A language guessed from the text itself, for services that highlight, when neither `-l` nor
/// a file's extension gives one (issue 43, item 3): clipboard text has no file name.
///
/// Offline and deterministic, and cheap: only the first `window` bytes are looked at, line by
/// line, with plain string tests (no regular expression engine, no allocation per byte). Strong
/// marks decide alone (a shebang, a diff header, `<?php`, `<?xml`, a Python traceback, a whole
/// JSON document); keyword signatures need two different signs of one language, so prose that
/// says "import" or "def" once stays text. Log lines are recognised so they are never taken for
/// YAML, and stay text (Pygments, whose names these are, has no lexer for logs). Nil: text.
public enum LanguageGuess {
    /// How much of the text is looked at.
    public static let window = 4096

    /// The Pygments lexer name the text looks like, or nil (plain text).
    public static func language(of bytes: some Collection<UInt8>) -> String? {
        let sample = Array(bytes.prefix(window))
        guard !sample.isEmpty, !sample.contains(0) else { return nil }
        // A cut in the middle of a character is not a reason to give up: decoding repairs it.
        let text = String(decoding: sample, as: UTF8.self)
        let isWhole = bytes.count <= window
        return guess(text, isWhole: isWhole)
    }

    // MARK: - The rules, strongest first

    static func guess(_ text: String, isWhole: Bool) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        let content = lines.filter { !$0.allSatisfy(\.isWhitespace) }
        guard let first = content.first else { return nil }
        let head = first.drop { $0.isWhitespace }
        if head.hasPrefix("#!") { return shebang(head) }
        if let marked = strongMark(head, lines: content, text: text, isWhole: isWhole) { return marked }
        if let trace = stackTrace(content) { return trace }
        if isLog(content) { return nil }
        if isYAML(content) { return "yaml" }
        return signatures(content)
    }

    /// The interpreter of a `#!` line: `/usr/bin/env python3 -u` is python.
    static func shebang(_ line: Substring) -> String? {
        var words = line.dropFirst(2).split(separator: " ")
        guard let program = words.first else { return nil }
        var name = program.split(separator: "/").last.map(String.init) ?? String(program)
        if name == "env" {
            words.removeFirst()
            while let word = words.first, word.hasPrefix("-") || word.holds("=") { words.removeFirst() }
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
    static func strongMark(_ head: Substring, lines: [Substring], text: String, isWhole: Bool) -> String? {
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
        let lowered = head.prefix(32).lowercased()
        if lowered.hasPrefix("<!doctype html") || lowered.hasPrefix("<html") { return "html" }
        if head.hasPrefix("<") && lines.count > 1,
            let last = lines.last?.drop(while: \.isWhitespace), last.hasPrefix("</"), last.hasSuffix(">")
        {
            return lines.contains { $0.holds("<div") || $0.holds("<p>") || $0.holds("<body") } ? "html" : "xml"
        }
        if head.hasPrefix("{") || head.hasPrefix("[") {
            // A bare `[1, 2]` is JSON too, but hardly worth highlighting: strings make it so.
            if isWhole, text.contains("\""), (try? OrderedJSON(parsing: Array(text.utf8))) != nil {
                return "json"
            }
            if !isWhole, head.hasPrefix("{\"") || (head == "{" && lines.count > 1 && lines[1].holds("\":")) {
                return "json"
            }
        }
        if head.hasPrefix("---") && head.count == 3 && lines.count > 1 && lines[1].holds(": ") { return "yaml" }
        if head.hasPrefix("%YAML") { return "yaml" }
        return nil
    }

    /// The stack traces of the common languages.
    static func stackTrace(_ lines: [Substring]) -> String? {
        var javaFrames = 0
        var nodeFrames = 0
        for line in lines.prefix(200) {
            if line.hasPrefix("Traceback (most recent call last):") { return "pytb" }
            if line.hasPrefix("goroutine ") && line.hasSuffix("]:") { return "go" }
            if line.hasPrefix("thread '") && line.holds("' panicked at ") { return "rust" }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
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
    static func isLog(_ lines: [Substring]) -> Bool {
        let sample = lines.prefix(50)
        guard sample.count >= 2 else { return sample.first.map(isLogLine) ?? false }
        let matching = sample.filter(isLogLine).count
        return matching * 10 >= sample.count * 6
    }

    static func isLogLine(_ line: Substring) -> Bool {
        let bytes = Array(line.utf8.prefix(32))
        func digit(_ index: Int) -> Bool { index < bytes.count && (0x30...0x39).contains(bytes[index]) }
        func byte(_ index: Int, _ value: Character) -> Bool { index < bytes.count && bytes[index] == value.asciiValue! }
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
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        if months.contains(where: { line.hasPrefix($0 + " ") }), byte(6, " ") || digit(5), byte(9, ":") || byte(10, ":")
        {
            return true
        }
        // 12:00:00.123 at the start.
        if digit(0) && digit(1) && byte(2, ":") && digit(3) && digit(4) && byte(5, ":") { return true }
        for level in [
            "INFO ", "WARN ", "ERROR ", "DEBUG ", "TRACE ", "[INFO]", "[WARN]", "[ERROR]", "[DEBUG]", "E0", "I0", "W0",
        ]
        where line.hasPrefix(level) {
            return level.count > 2 || (digit(2) && digit(3))
        }
        return false
    }

    /// YAML: key lines and list items, with at least one nested value (a `key:` alone followed
    /// by an indented line), so `Name: value` lines of prose or a chat stay text.
    static func isYAML(_ lines: [Substring]) -> Bool {
        let sample = lines.prefix(80).filter { !$0.drop { $0 == " " }.hasPrefix("#") }
        guard sample.count >= 3 else { return false }
        var keyLines = 0
        var nested = false
        for (index, line) in sample.enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if body.hasPrefix("- ") || body == "-" {
                keyLines += 1
                continue
            }
            guard let colon = body.firstIndex(of: ":") else { continue }
            let key = body[..<colon]
            guard !key.isEmpty, !key.holds(" ") || key.hasPrefix("\""), !key.holds("\t"),
                key.allSatisfy({ $0.isLetter || $0.isNumber || "_-.\"/".contains($0) })
            else { continue }
            let rest = body[body.index(after: colon)...]
            guard rest.isEmpty || rest.hasPrefix(" ") else { continue }
            keyLines += 1
            if rest.allSatisfy(\.isWhitespace), index + 1 < sample.count {
                let next = sample[index + 1]
                if next.prefix(while: { $0 == " " }).count > indent || next.dropFirst(indent).hasPrefix("- ") {
                    nested = true
                }
            }
        }
        return nested && keyLines * 10 >= sample.count * 8
    }

    // MARK: - Keyword signatures

    /// One sign of a language: a line that starts with, contains or ends with a word.
    struct Sign {
        var language: String
        var test: @Sendable (Substring) -> Bool
        /// Whether it decides alone (`#include <…>`, `package main`).
        var isStrong = false
    }

    static func starts(_ language: String, _ prefixes: [String], strong: Bool = false) -> Sign {
        Sign(language: language, test: { line in prefixes.contains { line.hasPrefix($0) } }, isStrong: strong)
    }

    static func lineIs(_ language: String, _ words: [String]) -> Sign {
        Sign(language: language, test: { line in words.contains { line.drop { $0 == " " || $0 == "\t" } == $0 } })
    }

    static func holds(_ language: String, _ parts: [String]) -> Sign {
        let patterns = parts.map { Array($0.utf8) }
        return Sign(language: language, test: { line in patterns.contains { line.holds(bytes: $0) } })
    }

    /// The signs, in the order ties are broken (first listed wins).
    static let signs: [Sign] = [
        starts("python", ["def ", "async def "]),
        Sign(language: "python", test: { $0.hasPrefix("from ") && $0.holds(" import ") }),
        Sign(language: "python", test: { $0.hasPrefix("import ") && !$0.hasSuffix(";") && !$0.holds(" from ") }),
        holds("python", ["if __name__ == ", "self.", "elif ", "print(f\"", "    return None"]),
        Sign(language: "python", test: { ($0.hasPrefix("class ") || $0.hasPrefix("for ")) && $0.hasSuffix(":") }),
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
        starts("ini", ["["]), Sign(language: "ini", test: { line in iniAssignment(line) }),
        Sign(language: "css", test: { $0.hasSuffix("{") && !$0.holds("(") && !$0.holds("=") }),
        Sign(language: "css", test: { line in cssDeclaration(line) }),
        starts("markdown", ["# ", "## ", "### ", "```", "* [", "- [ ] ", "- [x] "]),
        holds("markdown", ["](http", "**", "](#", "](./"]),
    ]

    static func iniAssignment(_ line: Substring) -> Bool {
        guard let equals = line.firstIndex(of: "="), equals != line.startIndex else { return false }
        let key = line[..<equals].drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }
        return !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || "_-.".contains($0) }
    }

    static func cssDeclaration(_ line: Substring) -> Bool {
        guard line.first == " " || line.first == "\t" else { return false }
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasSuffix(";"), let colon = trimmed.firstIndex(of: ":") else { return false }
        let property = trimmed[..<colon]
        return !property.isEmpty && property.allSatisfy { $0.isLowercase || $0 == "-" }
    }

    /// The language with the most distinct signs (two at least, or one strong one); nil when
    /// none is clear.
    static func signatures(_ lines: [Substring]) -> String? {
        var hits: [String: Set<Int>] = [:]
        var strong: [String] = []
        for line in lines.prefix(200) {
            for (index, sign) in signs.enumerated() where sign.test(line) {
                hits[sign.language, default: []].insert(index)
                if sign.isStrong && !strong.contains(sign.language) { strong.append(sign.language) }
            }
        }
        // C++ and C share `#include`: C++ wins when its own signs are there.
        if strong.contains("cpp") { return "cpp" }
        if strong.contains("c") { return (hits["cpp"]?.count ?? 0) >= 1 ? "cpp" : "c" }
        if strong.contains("go") { return "go" }
        // INI and CSS need their shape on most lines, not two signs somewhere.
        var best: (language: String, count: Int)?
        for sign in signs where best?.language != sign.language {
            let count = hits[sign.language]?.count ?? 0
            guard count >= 2, count > (best?.count ?? 0) else { continue }
            if sign.language == "ini" && !mostly(lines, iniAssignment) { continue }
            if sign.language == "css" && !mostly(lines, cssDeclaration) { continue }
            best = (sign.language, count)
        }
        // TypeScript is JavaScript with types: with both, the types decide.
        if best?.language == "javascript", (hits["typescript"]?.count ?? 0) >= 2 { return "typescript" }
        return best?.language
    }

    /// Whether at least half of the lines that are not section heads, braces or blank pass.
    static func mostly(_ lines: [Substring], _ test: (Substring) -> Bool) -> Bool {
        let body = lines.filter {
            let trimmed = $0.drop { $0 == " " || $0 == "\t" }
            return !trimmed.hasPrefix("[") && !trimmed.hasPrefix("#") && !trimmed.hasPrefix(";")
                && !trimmed.hasSuffix("{") && trimmed != "}"
        }
        guard !body.isEmpty else { return false }
        return body.filter(test).count * 2 >= body.count
    }
}

extension Substring {
    /// Whether the line holds `needle`, compared byte by byte in UTF-8.
    ///
    /// PERF(a guess of 5 KiB of prose, debug build under load: 38 ms with `contains(_:)`, 13 ms
    /// with this): `contains(_:)` of a string is generic over Unicode and was most of a guess.
    func holds(_ needle: String) -> Bool {
        holds(bytes: Array(needle.utf8))
    }

    /// `holds(_:)` with the needle's UTF-8 bytes made once.
    func holds(bytes pattern: [UInt8]) -> Bool {
        let hay = utf8
        guard let first = pattern.first else { return true }
        guard hay.count >= pattern.count else { return false }
        var start = hay.startIndex
        let lastStart = hay.index(hay.endIndex, offsetBy: -pattern.count)
        while start <= lastStart {
            if hay[start] == first {
                var index = hay.index(after: start)
                var matched = 1
                while matched < pattern.count && hay[index] == pattern[matched] {
                    index = hay.index(after: index)
                    matched += 1
                }
                if matched == pattern.count { return true }
            }
            start = hay.index(after: start)
        }
        return false
    }
}
