import PasteCore

/// A dmenu-style program for `--pick` and `--prompt` where no X display is there: the choices
/// on its stdin, one a line, the one chosen on its stdout (`fuzzel --dmenu`, `wofi --dmenu`,
/// `rofi -dmenu`, `bemenu`).
///
/// The program is `[paste] picker` (split on spaces, run without a shell), else the first of
/// `knownPrograms` on PATH. It runs through `CommandRunner` (a session of its own, stderr
/// discarded, killed at `timeout`).
struct DmenuPicker {
    /// The program and its arguments.
    var command: [String]

    /// The programs looked for on PATH, in this order, each with what makes it read a list.
    static let knownPrograms = [["fuzzel", "--dmenu"], ["wofi", "--dmenu"], ["rofi", "-dmenu"], ["bemenu"]]
    /// How long a choice may take: a person choosing, not a program stuck (it is killed then).
    static let timeout = Duration.seconds(300)

    /// The configured picker, else the first known one on `path`; nil when there is none.
    static func find(configured: String?, path: String?) -> DmenuPicker? {
        if let configured {
            let words = configured.split(separator: " ").map(String.init)
            return words.isEmpty ? nil : DmenuPicker(command: words)
        }
        for command in knownPrograms where CommandRunner.locate(command[0], path: path) != nil {
            return DmenuPicker(command: command)
        }
        return nil
    }

    /// Shows `lines` and returns the line chosen (or typed), nil when the person cancelled
    /// (the program printed nothing, or exited with 1, as dmenu does on Escape).
    ///
    /// - Throws: `PickerError.failed` when the program could not run or failed otherwise.
    func choose(_ lines: [String], environment: [String: String]) throws(PickerError) -> String? {
        let input = lines.map { $0.replacing("\n", with: " ") + "\n" }.joined()
        switch CommandRunner().run(command, input: Array(input.utf8), environment: environment, timeout: Self.timeout)
        {
        case .success(let bytes):
            var chosen = String(decoding: bytes, as: UTF8.self)
            while chosen.last?.isNewline == true { chosen.removeLast() }
            return bytes.isEmpty ? nil : chosen
        case .failure(.exited(status: 1)):
            return nil
        case .failure(let failure):
            throw .failed(program: command[0], failure)
        }
    }
}

/// Why `--pick` or `--prompt` could not ask without an X display.
enum PickerError: PasteError {
    /// No `picker` is set and none of the known programs is on PATH.
    case notFound
    /// The picker could not run, or failed.
    case failed(program: String, CommandFailure)

    var message: String {
        switch self {
        case .notFound:
            "no X display and no picker: set 'picker' in [paste] (such as picker = fuzzel --dmenu)"
        case .failed(let program, let failure): "the picker '\(shown: program)' failed: \(failure)"
        }
    }

    var exitStatus: ExitStatus { .unavailable }
}
