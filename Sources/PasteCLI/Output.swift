import PasteCore
import SystemInterop

/// The one funnel for everything paste shows or keeps about a run: stdout results, stderr lines,
/// the `-v` trace, `--dry-run` and `--json`, the text of windows, and the words stored in the
/// history and the outbox.
///
/// Every line passes `redactor` on its way out: the run's one `Redactor` (`Context.redactor`),
/// where values from `${env:…}`, `${file:…}` and `${cmd:…}`, header values, URL user
/// information, credential query parameters and proxy credentials are registered as they
/// become known (`ValueExpansion`, `PlanResolver`, `BuildStage`), so each is masked wherever
/// it would appear. The history and the outbox mask with the same one (`History.redaction`,
/// `Outbox.redaction`). Nothing writes to stdout or stderr around it except the progress bar
/// (a count of bytes, through the same streams) and the ShareX import's section.
///
/// Every write goes to the run's streams (`Context.streams`: the process's descriptors, or a
/// test's recording), and whether stderr is a terminal is asked of them too: a whole run's
/// words are checked in process (`PipelineHarness` in PasteCLITests).
struct Output: Sendable {
    var environment: [String: String]
    var isQuiet = false
    var isJSON = false
    /// The name paste was run as (`pasteit` after `scripts/install --name pasteit`): the
    /// prefix of every stderr line, and the command every hint and window names (`'paste
    /// --retry' sends it` would run coreutils for that person).
    var programName = "paste"
    /// Masks the values that must never be shown or stored; shared by every copy of this output
    /// (and, through the context, by the history and the outbox).
    let redactor: Redactor
    /// Where every line goes (`Context.streams`).
    let streams: any StandardStreams

    init(
        environment: [String: String], redactor: Redactor = Redactor(), streams: any StandardStreams = ProcessStreams()
    ) {
        self.environment = environment
        self.redactor = redactor
        self.streams = streams
    }

    /// The output of a run in `context`: its environment, its redactor, its streams.
    init(context: Context) {
        self.init(environment: context.environment, redactor: context.redactor, streams: context.streams)
    }

    /// Writes `text` to stdout as it is.
    private func toOutput(_ text: String) { streams.write(text, to: .output) }

    /// Writes `text` to stderr as it is.
    private func toError(_ text: String) { streams.write(text, to: .error) }

    /// `NO_COLOR` (https://no-color.org) or a non-terminal stderr turns colour off.
    var usesColor: Bool {
        environment["NO_COLOR"].map(\.isEmpty) ?? true && streams.isTerminal(.error)
            && environment["TERM"] != "dumb"
    }

    // MARK: - stdout

    /// One result line on stdout (a URL, a JSON object, a listing row).
    func result(_ line: String) { toOutput(redactor.redact(line) + "\n") }

    /// A line of stdout that holds a paste's own URL: masked everywhere but in `url`, which
    /// the person needs whole (a configured value that happens to be part of the link, as
    /// `pastes` is of `/pastes/1`, must not erase it).
    func result(_ line: String, keeping url: String) {
        toOutput(shown(line, keeping: url) + "\n")
    }

    /// `text` redacted, except every occurrence of `url`.
    func shown(_ text: String, keeping url: String) -> String {
        guard !url.isEmpty, !redactor.isEmpty else { return redactor.redact(text) }
        return text.split(separator: url, omittingEmptySubsequences: false).map { redactor.redact(String($0)) }
            .joined(separator: url)
    }

    /// Text for stdout as it is, lines and all (`--help`, `--version`, a `--dry-run` request).
    func text(_ text: String) { toOutput(redactor.redact(text)) }

    // MARK: - stderr

    /// A picture made of text for stderr (`--qr`'s code), as it is: only when stderr is a
    /// terminal and not under `-q` or `--json`.
    func picture(_ text: String) {
        guard !isQuiet && !isJSON && streams.isTerminal(.error) else { return }
        toError(text)
    }

    /// A line for stderr: redacted, then escaped and bounded by `Sanitizer.shown` (values in
    /// messages are shown so already; this catches whatever a message did not shape, such as a
    /// library's text).
    func line(_ message: some StringProtocol) -> String {
        Sanitizer.shown(named(redactor.redact(String(message))), limit: Sanitizer.lineLength)
    }

    /// `text` with each command it names (`paste -…`, `paste --…`) named as paste was run: the
    /// one place hints and windows learn the installed name, so no message spells it itself.
    ///
    /// PERF(hotkey): a scan of the bytes for `paste -`, not a regular expression: compiling
    /// one was ~1.9 M instructions (0.4 ms) of every run installed under another name.
    func named(_ text: String) -> String {
        guard programName != "paste" else { return text }
        let bytes = Array(text.utf8)
        let word = Array("paste -".utf8)
        var result: [UInt8] = []
        var copied = 0
        var position = 0
        while position + word.count <= bytes.count {
            guard bytes[position..<(position + word.count)].elementsEqual(word),
                position == 0 || Self.mayPrecedeCommand(text, before: position)
            else {
                position += 1
                continue
            }
            result += bytes[copied..<position]
            result += programName.utf8
            copied = position + 5
            position += word.count
        }
        guard copied > 0 else { return text }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether the character before the UTF-8 offset `offset` of `text` may come before a
    /// command named in a message: a quote, a parenthesis or whitespace.
    private static func mayPrecedeCommand(_ text: String, before offset: Int) -> Bool {
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        guard let previous = text[..<index].last else { return true }
        return previous == "'" || previous == "\"" || previous == "(" || previous.isWhitespace
    }

    /// What every stderr line starts with: `paste: `, or the name paste was run as.
    var prefix: String { programName + ": " }

    func error(_ message: String) {
        let prefix = usesColor ? "\u{1B}[1;31m\(programName):\u{1B}[0m " : self.prefix
        toError(prefix + line(message) + "\n")
    }

    func report(_ error: any PasteError) {
        self.error(error.message)
        guard let hint = error.hint else { return }
        for line in hint.split(separator: "\n") { self.hint(line) }
    }

    /// A hint below an error: a plain `paste: ` line (the name paste was run as), left out under `--json`.
    func hint(_ text: some StringProtocol) {
        guard !isJSON else { return }
        toError(prefix + line(text) + "\n")
    }

    /// Writes the lines that say why a paste failed and where its text is
    /// (`PasteFailure.terminalLines`).
    func report(_ failure: PasteFailure) {
        for line in failure.terminalLines() {
            switch line {
            case .error(let text): error(text)
            case .hint(let text): hint(text)
            }
        }
    }

    /// A note that is not an error (no display to copy to, a repeat reused): quiet in -q and --json.
    func note(_ message: String) {
        guard !isQuiet && !isJSON else { return }
        toError(prefix + line(message) + "\n")
    }

    /// Something the person must hear of even under `-q` (what a recovery pass did to the
    /// outbox: an entry held, files removed): one `paste: ` line.
    func notice(_ message: String) {
        toError(prefix + named(redactor.redact(message)) + "\n")
    }

    /// Bytes to stdout exactly as they are (`paste --outbox show`: the text byte for byte, so
    /// nothing is redacted or converted).
    ///
    /// - Throws: `Errno` when stdout cannot take them.
    func raw(_ bytes: ArraySlice<UInt8>) throws(Errno) {
        try streams.writeRaw(Array(bytes))
    }

    /// A security downgrade (TLS checks off): said every time, `-q` does not silence it.
    func warning(_ message: String) {
        toError(prefix + "warning: " + line(message) + "\n")
    }

    /// One line of the `-v` trace (libcurl's, credentials already masked by Upload).
    func trace(_ line: String) {
        toError(prefix + Sanitizer.printable(redactor.redact(line), limit: 400) + "\n")
    }

    // MARK: - Windows and stores

    /// Text as a window shows it, or as the history and the outbox keep it (titles, previews,
    /// failure messages); URLs and deletion tokens are stored as they are, since they are what
    /// opens, deletes or sends the paste again.
    func shown(_ text: String) -> String { named(redactor.redact(text)) }
}
