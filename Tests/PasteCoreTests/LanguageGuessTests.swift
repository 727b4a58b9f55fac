import Testing

@testable import PasteCore

/// The language guessed from clipboard text (issue 43, item 3): a table of code, markup, traces
/// and headers that must be recognised, and a table of plain texts that must stay text.
@Suite("A language guessed from the text")
struct LanguageGuessTests {
    static let samples: [(String, String)] = [
        ("python", "#!/usr/bin/env python3\nprint('hi')\n"),
        ("python", "#!/usr/bin/python3.11 -u\nimport sys\n"),
        ("bash", "#!/bin/sh\nset -e\necho hi\n"),
        ("bash", "#!/usr/bin/env bash\nfor f in *; do echo $f; done\n"),
        ("zsh", "#!/bin/zsh\nsetopt extendedglob\n"),
        ("perl", "#!/usr/bin/perl -w\nuse strict;\n"),
        ("ruby", "#!/usr/bin/env ruby\nputs 1\n"),
        ("javascript", "#!/usr/bin/env node\nconsole.log(1)\n"),
        ("lua", "#!/usr/bin/env lua\nprint(1)\n"),
        ("diff", "diff --git a/x.c b/x.c\nindex 1..2 100644\n--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n"),
        ("diff", "--- old.txt\t2024-01-01\n+++ new.txt\t2024-01-02\n@@ -1,2 +1,2 @@\n-x\n+y\n"),
        ("diff", "From 1234abcd Mon Sep 17 00:00:00 2001\nSubject: [PATCH] fix\n---\ndiff --git a/a b/a\n"),
        ("php", "<?php\necho 'hi';\n"),
        ("xml", "<?xml version=\"1.0\"?>\n<root><a>1</a></root>\n"),
        ("html", "<!DOCTYPE html>\n<html><body><p>hi</p></body></html>\n"),
        ("html", "<html>\n<head><title>x</title></head>\n</html>\n"),
        ("xml", "<config>\n  <item key=\"a\">1</item>\n</config>\n"),
        ("json", "{\"name\": \"paste\", \"version\": 1, \"tags\": [\"a\", \"b\"]}\n"),
        ("json", "[\n  {\"id\": 1},\n  {\"id\": 2}\n]\n"),
        ("json", "{\n  \"a\": {\n    \"b\": null\n  }\n}\n"),
        ("yaml", "---\nname: paste\nversion: 1\n"),
        ("yaml", "services:\n  web:\n    image: nginx\n    ports:\n      - \"80:80\"\n"),
        ("yaml", "on:\n  push:\n    branches:\n      - main\njobs:\n  test:\n    runs-on: ubuntu-latest\n"),
        (
            "pytb",
            "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nZeroDivisionError: division by zero\n"
        ),
        (
            "java",
            "Exception in thread \"main\" java.lang.NullPointerException\n\tat com.x.Main.run(Main.java:12)\n\tat com.x.Main.main(Main.java:5)\n"
        ),
        (
            "go",
            "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/x.go:8 +0x1d\n"
        ),
        ("rust", "thread 'main' panicked at src/main.rs:2:5:\nexplicit panic\nnote: run with `RUST_BACKTRACE=1`\n"),
        (
            "javascript",
            "TypeError: x is not a function\n    at Object.<anonymous> (/app/index.js:3:1)\n    at Module._compile (node:internal/modules/cjs/loader:1256:14)\n"
        ),
        ("python", "import os\n\ndef main():\n    print(os.getcwd())\n\nif __name__ == \"__main__\":\n    main()\n"),
        ("python", "class Stack:\n    def push(self, x):\n        self.items.append(x)\n"),
        ("go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"),
        ("rust", "use std::io;\n\nfn main() {\n    let mut s = String::new();\n    println!(\"{}\", s);\n}\n"),
        ("c", "#include <stdio.h>\n\nint main(void) {\n    printf(\"hi\\n\");\n    return 0;\n}\n"),
        ("cpp", "#include <iostream>\nint main() { std::cout << \"hi\"; }\n"),
        (
            "java",
            "public class Hello {\n    public static void main(String[] args) {\n        System.out.println(\"hi\");\n    }\n}\n"
        ),
        (
            "swift",
            "import Foundation\n\nfunc greet(_ name: String) -> String {\n    guard let first = name.first else { return \"\" }\n    return String(first)\n}\n"
        ),
        ("javascript", "const fs = require('fs');\nfunction read(p) {\n  console.log(p);\n}\n"),
        ("typescript", "interface User {\n  name: string;\n  age: number;\n}\nexport type Id = string;\n"),
        ("ruby", "require 'json'\nclass A\n  def hi\n    [1, 2].each do |x|\n      puts x\n    end\n  end\nend\n"),
        ("sql", "SELECT name, count(*)\nFROM users\nWHERE age > 3\nGROUP BY name;\n"),
        ("sql", "CREATE TABLE t (\n  id INTEGER PRIMARY KEY,\n  name TEXT\n);\n"),
        ("bash", "if [ -f x ]; then\n  echo \"$HOME\"\nfi\n"),
        ("docker", "FROM debian:13\nRUN apt-get update\nCOPY . /src\nCMD [\"/src/run\"]\n"),
        ("make", ".PHONY: all\nall: paste\n\t$(CC) -o $@ $<\n"),
        ("ini", "[core]\n\tbare = false\n\trepositoryformatversion = 0\n[remote \"origin\"]\n\turl = x\n"),
        ("css", "body {\n  margin: 0;\n  color: #333;\n}\n.a {\n  display: none;\n}\n"),
        ("markdown", "# Title\n\nSome text with a [link](https://example.org) and **bold**.\n\n```\ncode\n```\n"),
    ]

    static let plainTexts: [String] = [
        "hello",
        "Hello world\n",
        "Meeting at 3pm tomorrow in room 4.\n",
        "Dear Anna,\n\nthanks for the notes. I will send them on Monday.\n\nBest,\nBo\n",
        "milk\neggs\nbread\n",
        "https://example.org/some/page?x=1\n",
        "42\n",
        "3.14159\n",
        "Note: the build is broken again.\n",
        "alice: hi\nbob: hello\nalice: how are you?\n",
        "Name: Bob\nAge: 33\nCity: Paris\n",
        "The import duties went up last year.\n",
        "from the start, we knew it would rain.\n",
        "Please select the right one from the list.\n",
        "fine by me\nfinally done\n",
        "The function of this committee is advisory.\n",
        "Then we went home.\nDone.\n",
        "Call me at +1 555 0100 or mail bob@example.org\n",
        "- buy milk\n- call mom\n- fix bike\n",
        "1. first\n2. second\n3. third\n",
        "TODO: write the report\n",
        "Roses are red,\nviolets are blue,\nsugar is sweet,\nand so are you.\n",
        "Order #1234 shipped on 2024-01-02.\n",
        "2024-01-31 12:00:00 INFO server started\n2024-01-31 12:00:01 WARN disk at 91%\n",
        "Jan  2 15:04:05 host sshd[123]: Accepted publickey for bob\nJan  2 15:04:06 host sshd[123]: session opened\n",
        "[2024-01-31T12:00:00Z] request id=1 status=200\n[2024-01-31T12:00:01Z] request id=2 status=404\n",
        "12:00:00.123 start\n12:00:00.456 stop\n",
        "INFO starting\nERROR failed to bind: address in use\n",
        "Error: something went wrong, please try again later.\n",
        "password reset link expired\n",
        "a, b, c\n1, 2, 3\n4, 5, 6\n",
        "Total: 12 EUR\nTax: 2 EUR\n",
        "The quick brown fox jumps over the lazy dog.\n",
        "Q: what is it?\nA: nothing.\n",
        "I think x = 5 and y = 6 here.\n",
        "See section [3] for details.\n",
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n",
        "¿Dónde está la biblioteca?\n",
        "日本語のテキストです。\n",
        "Tracking number: 1Z999AA10123456784\n",
        "Re: your message\n> quoted line\nreply here\n",
        "phone: 555-0100\n",
        "{not json at all\n",
        "[1]\n",
        "",
        "   \n\n",
    ]

    @Test("recognised: shebangs, diffs, markup, JSON, YAML, traces, keyword signatures", arguments: samples)
    func recognised(_ sample: (String, String)) {
        #expect(LanguageGuess.language(of: Array(sample.1.utf8)) == sample.0, "\(sample.1)")
    }

    @Test("plain text stays text", arguments: plainTexts)
    func plain(_ text: String) {
        #expect(LanguageGuess.language(of: Array(text.utf8)) == nil, "\(text)")
    }

    @Test("the tables are as large as issue 43 asks: 40 samples and 40 plain texts at least")
    func tableSizes() {
        #expect(Self.samples.count >= 40)
        #expect(Self.plainTexts.count >= 40)
        #expect(Set(Self.samples.map(\.0)).count >= 20)
    }

    @Test("only the first 4 KiB are read: what follows cannot change the guess")
    func bounded() {
        let python = "import os\ndef main():\n    print(os.getcwd())\n"
        let padding = String(repeating: "plain words here\n", count: 400)
        let long = Array((python + padding).utf8) + Array("#include <stdio.h>\nint main(void);\n".utf8)
        #expect(LanguageGuess.language(of: long) == "python")
        #expect(LanguageGuess.language(of: Array(padding.utf8) + Array("def f():\n    self.x\n".utf8)) == nil)
    }

    @Test("lines ending in CR LF are lines: a text copied from Windows is guessed as one with LF")
    func crlf() {
        let python = "import os\r\n\r\ndef main():\r\n    print(os.getcwd())\r\n"
        #expect(LanguageGuess.language(of: Array(python.utf8)) == "python")
        let log = "2024-01-31 12:00:00 INFO up\r\n2024-01-31 12:00:01 WARN disk\r\n"
        #expect(LanguageGuess.language(of: Array(log.utf8)) == nil)
    }

    @Test("whitespace is Unicode's and names may be any letters, as in the text's own characters")
    func unicode() {
        // A line of no-break and ideographic spaces is blank; a shebang after one still counts.
        #expect(LanguageGuess.language(of: Array("\u{00A0}\u{3000}\n\u{2003}\n".utf8)) == nil)
        #expect(LanguageGuess.language(of: Array("\u{00A0}\n\u{2009}#!/bin/sh\necho hi\n".utf8)) == "bash")
        // YAML keys in other scripts, nested.
        let yaml = "größe:\n  wert: 1\nname: x\nländer:\n  - de\n"
        #expect(LanguageGuess.language(of: Array(yaml.utf8)) == "yaml")
        // An INI file whose keys are not ASCII.
        let ini = "[réglages]\nclé = 1\nnom = x\n"
        #expect(LanguageGuess.language(of: Array(ini.utf8)) == "ini")
        // A character cut at the window's end changes nothing.
        let cut = Array(("def f():\n    self.x = 1\n" + String(repeating: "é", count: 3000)).utf8)
        #expect(LanguageGuess.language(of: cut) == "python")
    }

    @Test("binary content is never guessed")
    func binary() {
        #expect(LanguageGuess.language(of: [0x7F, 0x45, 0x4C, 0x46, 0, 0, 1]) == nil)
    }
}
