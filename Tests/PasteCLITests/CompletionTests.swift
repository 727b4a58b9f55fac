import Foundation
import PasteCLI
import PasteCore
import Stores
import TestSupport
import Testing

/// Drives the completion scripts in real bash, zsh and fish against the built `paste`.
enum CompletionHarness {
    static let bashFile = SourceTree.path("completions/paste.bash")
    static let zshFolder = SourceTree.path("completions")
    static let fishFile = SourceTree.path("completions/paste.fish")

    /// An environment with the built products first on PATH (the completions run
    /// `paste --list-services`) and a throw-away home, so no real config is read.
    static func environment(_ home: TemporaryHome) -> [String: String] {
        var environment = home.environment()
        environment["PATH"] = BuiltProducts.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["TERM"] = "dumb"
        return environment
    }

    /// bash: sources the file (after bash-completion's library when asked), finds the function
    /// that `complete -p paste` names, calls it as readline would, and prints COMPREPLY.
    static func bash(_ words: [String], withLibrary: Bool, home: TemporaryHome) throws -> [String] {
        let script = """
            \(withLibrary ? "source /usr/share/bash-completion/bash_completion" : ":")
            source "$1"
            spec=$(complete -p paste) || exit 3
            fn=${spec#*-F }; fn=${fn%% *}
            shift
            COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            "$fn" paste "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runProcess(
            "/usr/bin/env", ["bash", "--norc", "--noprofile", "-c", script, "bash", bashFile] + words,
            environment: environment(home), timeout: 30)
        #expect(result.status == 0, "bash: \(result.err)")
        return result.out.split(separator: "\n").map(String.init)
    }

    /// zsh: a real interactive zsh in a pseudo-terminal (zsh/zpty) with compinit and our folder
    /// first in fpath; `compadd` is wrapped to print each candidate, and a post-completion hook
    /// prints an end marker and exits. The line is typed followed by a Tab.
    static let zshCapture = #"""
        zmodload zsh/zpty || exit 2
        dir=$1; line=$2
        zpty z zsh -f -i
        zpty -w z "PS1=''; unsetopt prompt_sp; fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -D"
        zpty -w z 'compadd () {
          if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
          typeset -a __hits
          builtin compadd -A __hits "$@"
          (( $#__hits )) || return 1
          local h; for h in $__hits; do print -r -- "<ca""nd>$h"; done
          builtin compadd "$@"
        }'
        zpty -w z 'zstyle ":completion:*" menu no; end-marker () { print -r -- "<e""nd>"; exit }; comppostfuncs=(end-marker)'
        zpty -w z "bindkey '^I' complete-word"
        zpty -w z "$line"$'\t'
        output=""
        while zpty -r z chunk; do
          output+=$chunk
          [[ $output == *'<end>'* ]] && break
        done
        zpty -d z
        [[ $output == *'<end>'* ]] || exit 4
        for l in ${(f)output}; do [[ $l == *"<cand>"* ]] && print -r -- ${${l##*<cand>}%$'\r'}; done
        exit 0
        """#

    static func zsh(_ line: String, home: TemporaryHome) throws -> [String] {
        let script = try home.write(zshCapture, to: "capture.zsh")
        let result = try runProcess(
            "/usr/bin/env", ["zsh", "-f", script, zshFolder, line], environment: environment(home), timeout: 30)
        #expect(result.status == 0, "zsh: status \(result.status) \(result.err)")
        return result.out.split(separator: "\n").map(String.init)
    }

    /// fish: sources the file and asks `complete -C` (candidates, a tab, a description).
    static func fish(_ line: String, home: TemporaryHome) throws -> [String] {
        let result = try runProcess(
            "/usr/bin/env", ["fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", fishFile, line],
            environment: environment(home), timeout: 30)
        #expect(result.status == 0, "fish: \(result.err)")
        return result.out.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }
}

@Suite("Shell completions", .temporaryHome)
struct CompletionTests: ScopedSuite {
    static let tableLongs = Set(optionTable.map(\.long))
    static let tableShorts = Set(optionTable.compactMap { $0.short.map(String.init) })
    static let tablePairs = Set(optionTable.compactMap { spec in spec.short.map { "\($0)=\(spec.long)" } })

    // MARK: - The lists in the files follow the option table

    @Test("bash lists every long and short option of the table, and no other")
    func bashListsMatchTable() throws {
        let text = try SourceTree.text("completions/paste.bash")
        func words(after marker: String) -> Set<String> {
            guard let start = text.range(of: marker + "\""),
                let end = text[start.upperBound...].firstIndex(of: "\"")
            else { return [] }
            return Set(text[start.upperBound..<end].split(whereSeparator: \.isWhitespace).map(String.init))
        }
        #expect(words(after: "local long_options=") == Set(Self.tableLongs.map { "--" + $0 }))
        #expect(words(after: "local short_options=") == Set(Self.tableShorts.map { "-" + $0 }))
    }

    @Test("zsh specifies every option of the table with its short letter, and no other")
    func zshListsMatchTable() throws {
        let lines = try SourceTree.text("completions/_paste_pastebin").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("'") }
        var longs = Set<String>()
        var pairs = Set<String>()
        for line in lines {
            // `'(excl)'{-f+,--file=}'[…]…'` or `'--url=[…]…'`
            let spec = line.replacingOccurrences(of: #"^'(\([^)]*\)|\*)'"#, with: "", options: .regularExpression)
            if let match = spec.firstMatch(of: /^\{-([A-Za-z0-9])\+?,--([a-z-]+)=?\}/) {
                longs.insert(String(match.2))
                pairs.insert("\(match.1)=\(match.2)")
            } else if let match = spec.firstMatch(of: /^'?(?:\([^)]*\))?--([a-z-]+)=?\[/) {
                longs.insert(String(match.1))
            }
        }
        #expect(longs == Self.tableLongs)
        #expect(pairs == Self.tablePairs)
    }

    @Test("fish completes every option of the table with its short letter, and no other")
    func fishListsMatchTable() throws {
        let lines = try SourceTree.text("completions/paste.fish").split(separator: "\n")
            .filter { $0.hasPrefix("complete -c paste ") }
        var longs = Set<String>()
        var pairs = Set<String>()
        for line in lines {
            guard let long = line.firstMatch(of: /\s-l ([a-z-]+)/) else { continue }
            longs.insert(String(long.1))
            if let short = line.firstMatch(of: /\s-s ([A-Za-z0-9])\s/) { pairs.insert("\(short.1)=\(long.1)") }
        }
        #expect(longs == Self.tableLongs)
        #expect(pairs == Self.tablePairs)
    }

    // MARK: - Completing in the real shells

    @Test("bash completes --ser to --service", arguments: [false, true])
    func bashLongOption(withLibrary: Bool) throws {
        #expect(try CompletionHarness.bash(["paste", "--ser"], withLibrary: withLibrary, home: home) == ["--service"])
    }

    @Test("bash completes service names after -S and --service", arguments: [false, true])
    func bashServices(withLibrary: Bool) throws {
        let afterShort = try CompletionHarness.bash(["paste", "-S", ""], withLibrary: withLibrary, home: home)
        #expect(afterShort.contains("termbin"))
        #expect(afterShort.contains("dpaste"))
        let afterLong = try CompletionHarness.bash(["paste", "--service", "te"], withLibrary: withLibrary, home: home)
        #expect(afterLong == ["termbin"])
    }

    @Test("bash completes services of the config named by --config")
    func bashConfiguredService() throws {
        let config = try home.write(
            "[service \"mybin\"]\n    url = https://mybin.example/api\n    format = raw\n    result = body\n",
            to: "other.conf")
        let names = try CompletionHarness.bash(
            ["paste", "--config", config, "-S", "my"], withLibrary: false, home: home)
        #expect(names == ["mybin"])
    }

    @Test("bash completes files after -f, and after a coreutils option")
    func bashFiles() throws {
        try home.write("x", to: "notes-one.txt")
        let prefix = home.root.appendingPathComponent("notes-").path
        #expect(
            try CompletionHarness.bash(["paste", "-f", prefix], withLibrary: false, home: home) == [prefix + "one.txt"])
        #expect(
            try CompletionHarness.bash(["paste", "-s", prefix], withLibrary: false, home: home) == [prefix + "one.txt"])
    }

    @Test("bash completes ShareX uploaders (and folders) after --import-sxcu, nothing else")
    func bashShareXFiles() throws {
        let home = try TemporaryHome()
        try home.write("{}", to: "up/host.sxcu")
        try home.write("x", to: "up/host.txt")
        let prefix = home.root.appendingPathComponent("up/ho").path
        #expect(
            try CompletionHarness.bash(["paste", "--import-sxcu", prefix], withLibrary: false, home: home)
                == [prefix + "st.sxcu"])
    }

    @Test("zsh completes --ser to --service")
    func zshLongOption() throws {
        #expect(try CompletionHarness.zsh("paste --ser", home: home).contains("--service"))
    }

    @Test("zsh completes service names after -S")
    func zshServices() throws {
        let names = try CompletionHarness.zsh("paste -S ", home: home)
        #expect(names.contains("termbin"))
        #expect(names.contains("bpa.st"))
        #expect(!names.contains("--service"))
    }

    /// An outbox entry in the test's home; its id.
    func makeOutboxEntry() throws -> String {
        let outbox = Outbox(context: Context(environment: home.environment()))
        return try outbox.create(OutboxEntry.Metadata(service: "pastie", created: Date()), content: Array("x\n".utf8))
            .id
    }

    @Test("bash completes the words after --outbox: its commands, then ids (and --all after drop)")
    func bashOutbox() throws {
        let id = try makeOutboxEntry()
        #expect(
            try CompletionHarness.bash(["paste", "--outbox", ""], withLibrary: false, home: home).sorted() == [
                "drop", "list", "send", "show",
            ])
        #expect(try CompletionHarness.bash(["paste", "--outbox", "show", ""], withLibrary: false, home: home) == [id])
        #expect(
            try CompletionHarness.bash(["paste", "--outbox", "drop", ""], withLibrary: true, home: home).sorted()
                == ["--all", id].sorted())
    }

    @Test("zsh completes the words after --outbox: its commands, then ids")
    func zshOutbox() throws {
        let id = try makeOutboxEntry()
        #expect(
            Set(try CompletionHarness.zsh("paste --outbox ", home: home)).isSuperset(of: [
                "list", "show", "send", "drop",
            ]))
        #expect(try CompletionHarness.zsh("paste --outbox send ", home: home).contains(id))
    }

    @Test("fish completes the words after --outbox: its commands, then ids")
    func fishOutbox() throws {
        let id = try makeOutboxEntry()
        #expect(Set(try CompletionHarness.fish("paste --outbox ", home: home)) == ["list", "show", "send", "drop"])
        #expect(try CompletionHarness.fish("paste --outbox show ", home: home) == [id])
    }

    @Test("fish completes --ser to --service")
    func fishLongOption() throws {
        #expect(try CompletionHarness.fish("paste --ser", home: home) == ["--service"])
    }

    @Test("fish completes service names after -S")
    func fishServices() throws {
        let names = try CompletionHarness.fish("paste -S ", home: home)
        #expect(names.contains("termbin"))
        #expect(names.contains("dpaste"))
    }
}
