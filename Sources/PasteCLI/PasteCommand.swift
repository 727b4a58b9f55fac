import Clipboard
import PasteCore
import SecretGuard
import SystemInterop

/// Runs one `paste` command: the funnel from argv to an exit status.
///
/// `main.swift` calls `PasteCommand.main` and exits with what it returns; nothing below prints
/// except through `Output`, and every error becomes one stderr line and a sysexits status here.
public enum PasteCommand {
    /// The hidden subcommand that prints the secret guard's trigger literals, one a line
    /// (`SecretGuard.triggerLiterals`): scripts/bench's anchor `rg -F -f` reads them.
    static let guardLiteralsSubcommand = "--internal-guard-literals"

    /// The name paste was run as (argv[0]'s last component), for messages and `--help`: plain
    /// letters, digits, `.`, `_`, `+` and `-` (what `scripts/install --name` allows), else `paste`.
    /// A run as `/proc/self/exe` (the clipboard's owner) is `paste`.
    static func programName(_ argument: String?) -> String {
        let name = argument.map { String($0.split(separator: "/").last ?? "") } ?? ""
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._+-".contains($0)) }
        return name.isEmpty || !allowed || name == "exe" ? "paste" : name
    }

    /// The process's argv as the kernel gave it, without argv[0], when `arguments` are that argv
    /// (with any byte that is not UTF-8 repaired); empty otherwise.
    static func rawArguments(matching arguments: [String]) -> [[UInt8]] {
        let raw = CurrentProcess.argumentBytes()
        guard raw.count == arguments.count,
            zip(raw, arguments).allSatisfy({ String(decoding: $0, as: UTF8.self) == $1 })
        else { return [] }
        return Array(raw.dropFirst())
    }

    /// Runs `paste` with argv (including argv[0]) and the process environment.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        let rest = Array(arguments.dropFirst())
        if rest.first == SelectionOwnerProcess.subcommand {
            return SelectionOwnerProcess.run(arguments: arguments, environment: environment)
        }
        if rest.first == DataControlOwnerProcess.subcommand {
            return DataControlOwnerProcess.run(arguments: arguments, environment: environment)
        }
        if rest.first == DesktopNotifier.subcommand {
            // Seen in `ps` for as long as the card's actions are served, so it names itself.
            CurrentProcess.setName("paste-notifier")
            return DesktopNotifier.run(environment: environment)
        }
        if rest.first == OutboxFlush.subcommand {
            CurrentProcess.setName("paste-flush")
            return OutboxFlush.run(arguments: arguments, environment: environment)
        }
        if rest == [guardLiteralsSubcommand] {
            StandardStream.output.write(SecretGuard.triggerLiterals.map { $0 + "\n" }.joined())
            return ExitStatus.success.rawValue
        }
        let context = Context(
            environment: environment, userID: CurrentProcess.userID, commandRunner: CommandRunner(),
            asker: WindowAsker(displayName: environment["DISPLAY"]))
        return run(arguments, context: context, seams: .live)
    }

    /// Runs a `paste` command (argv, including argv[0]) in `context`, through `seams`: what
    /// `main` does once the hidden subcommands are ruled out. The in-process harness comes in
    /// here (`PipelineHarness` in PasteCLITests) with its streams in the context and its
    /// transport in the seams.
    static func run(_ arguments: [String], context: Context, seams: Seams) -> Int32 {
        let rest = Array(arguments.dropFirst())
        var output = Output(context: context)
        output.programName = programName(arguments.first)
        do {
            switch try parseCommandLine(rest, rawArguments: rawArguments(matching: arguments)) {
            case .coreutils:
                guard let coreutils = Coreutils.findPaste(path: context.environment["PATH"]) else {
                    output.error("coreutils paste(1) was not found; '-f FILE' uploads a file")
                    return ExitStatus.usage.rawValue
                }
                let failure = Coreutils.exec(coreutils, arguments: arguments)
                output.error("cannot run \(coreutils): \(failure)")
                return 126
            case .paste(let invocation):
                // What a hotkey run could show nobody, now that a person reads stderr.
                UnseenOutcomes.sayAll(environment: context.environment, output: output)
                do {
                    return try Runner(invocation: invocation, context: context, output: output, seams: seams).run()
                        .rawValue
                } catch let error as any PasteError where invocation.isJSON && invocation.action == .upload {
                    // A run that stopped before any paste was made still gives a script its object.
                    output.result(
                        JSONOutput.failure(status: error.exitStatus, message: error.message, outbox: nil, fileName: nil)
                    )
                    throw error
                }
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
