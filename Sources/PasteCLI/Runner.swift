import Clipboard
import PasteCore
import SystemInterop
import Upload

/// Runs one `paste` command: the funnel from argv to an exit status.
///
/// `main.swift` calls `PasteCommand.main` and exits with what it returns; nothing below prints
/// except through `Output`, and every error becomes one stderr line and a sysexits status here.
public enum PasteCommand {
    /// Runs `paste` with argv (including argv[0]) and the process environment.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        let rest = Array(arguments.dropFirst())
        if rest.first == SelectionOwnerProcess.subcommand {
            return SelectionOwnerProcess.run(arguments: arguments, environment: environment)
        }
        let context = Context(
            environment: environment, userID: CurrentProcess.userID, commandRunner: CommandRunner(),
            asker: WindowAsker(displayName: environment["DISPLAY"]))
        let output = Output(environment: environment)
        do {
            switch try parseCommandLine(rest) {
            case .coreutils:
                guard let coreutils = Coreutils.findPaste(path: environment["PATH"]) else {
                    output.error("coreutils paste(1) was not found; '-f FILE' uploads a file")
                    return ExitStatus.usage.rawValue
                }
                let failure = Coreutils.exec(coreutils, arguments: arguments)
                output.error("cannot run \(coreutils): \(failure)")
                return 126
            case .paste(let invocation):
                var runner = Runner(invocation: invocation, context: context, output: output)
                // A run that reads the clipboard copies through what the read used instead
                // (`Clipboard.readKeepingConnection`): no second process beside it.
                if !runner.readsSelection {
                    runner.earlyOwner = startOwnerEarly(for: invocation, environment: environment)
                }
                return try runner.run().rawValue
            }
        } catch let error as any PasteError {
            output.report(error)
            return error.exitStatus.rawValue
        } catch {
            output.error("internal error: \(error)")
            return ExitStatus.internalError.rawValue
        }
    }
}

/// Begins the copy of an upload's URL as early as can be (nothing has run yet but argv
/// parsing), so the clipboard's owner is ready when the URL is. How it starts is the
/// clipboard's choice (X11: forked while the process has one thread, as it has here; spawned
/// otherwise). Unused, it leaves without touching the clipboard.
func startOwnerEarly(for invocation: Invocation, environment: [String: String]) -> (any PreparedClipboardWrite)? {
    guard invocation.action == .upload, invocation.copies, !invocation.isDryRun,
        let clipboard = try? ClipboardBackend.detect(environment: environment)
            .makeClipboard(helperExecutable: "/proc/self/exe", environment: environment)
    else { return nil }
    return try? clipboard.prepareWrite(to: .clipboard)
}

/// Everything paste writes for the person: stdout results and stderr lines.
struct Output {
    var environment: [String: String]
    var isQuiet = false
    var isJSON = false

    /// `NO_COLOR` (https://no-color.org) or a non-terminal stderr turns colour off.
    var usesColor: Bool {
        environment["NO_COLOR"].map(\.isEmpty) ?? true && StandardStream.error.isTerminal
            && environment["TERM"] != "dumb"
    }

    func result(_ line: String) { StandardStream.output.write(line + "\n") }

    func error(_ message: String) {
        let prefix = usesColor ? "\u{1B}[1;31mpaste:\u{1B}[0m " : "paste: "
        StandardStream.error.write(prefix + message + "\n")
    }

    func report(_ error: any PasteError) {
        self.error(error.message)
        guard let hint = error.hint, !isJSON else { return }
        for line in hint.split(separator: "\n") { StandardStream.error.write("paste: " + line + "\n") }
    }

    /// A note that is not an error (no display to copy to, a repeat reused): quiet in -q and --json.
    func note(_ message: String) {
        guard !isQuiet && !isJSON else { return }
        StandardStream.error.write("paste: " + message + "\n")
    }
}
