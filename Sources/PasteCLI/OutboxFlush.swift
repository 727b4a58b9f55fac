import PasteCore
import Stores
import SystemInterop

/// The outbox heals by itself (issue 25, item 3): once a paste to a service worked, the entries
/// waiting for that service are sent in the background, so the next good hotkey press clears
/// the backlog.
///
/// The run that made the paste looks for retryable entries of that service without locking or
/// changing any (`Outbox.servicesWaiting`: one directory read, one small read per entry); when
/// there are some, it spawns `/proc/self/exe --internal-outbox-flush NAME` in a session of its
/// own, with no stdio of the caller (so `$(paste)` returns at once), and returns. That process outlives the run and sends them exactly as `paste --retry` would:
/// each claimed under its lock (a `--retry` running at the same moment never sends one twice),
/// checked by the secret guard again, marked in flight, recorded in history, one try each,
/// whatever its backoff (the service just answered).
enum OutboxFlush {
    /// The hidden subcommand of the background flush.
    static let subcommand = "--internal-outbox-flush"

    // MARK: - The run's side

    /// Starts the background flush for each service in `services` that has retryable entries
    /// waiting; a failure to start it is not the run's (the entries still wait for `--retry`).
    ///
    /// - Parameter configPath: the run's `--config`, so the flush reads the same config.
    static func launch(for services: [String], configPath: String?, context: Context) {
        guard !services.isEmpty else { return }
        let waiting = Outbox(context: context).servicesWaiting(among: Set(services))
        for service in services where waiting.contains(service) {
            let arguments =
                [PlanResolver.helperExecutable, subcommand, service] + (configPath.map { ["--config", $0] } ?? [])
            _ = try? ChildProcess.spawn(
                PlanResolver.helperExecutable, arguments: arguments, environment: context.environment,
                standardInput: .null, standardOutput: .null, standardError: .null, newSession: true,
                currentDirectory: "/")
        }
    }

    // MARK: - The flush's side

    /// The flush's `main`: `paste --retry -q` for one service's entries, the backoff not waited
    /// for.
    ///
    /// - Parameter arguments: argv: the executable, the subcommand, the service's name, then
    ///   `--config PATH` when the run had one.
    /// - Returns: `--retry`'s status (nobody waits for it but init).
    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        guard arguments.count >= 3 else { return ExitStatus.usage.rawValue }
        let service = arguments[2]
        let context = Context(
            environment: environment, userID: CurrentProcess.userID, commandRunner: CommandRunner(),
            asker: WindowAsker(displayName: nil))
        let output = Output(environment: environment, redactor: context.redactor)
        do {
            guard case .paste(let invocation) = try parseCommandLine(["--retry", "-q"] + arguments.dropFirst(3)) else {
                return ExitStatus.usage.rawValue
            }
            let runner = Runner(invocation: invocation, context: context, output: output)
            var plan = PlanResolver.resolveRetry(invocation, try runner.loadConfiguration(), isAttended: true)
            plan.onlyService = service
            return try UploadPipeline(context: context, output: output).retry(plan).rawValue
        } catch let error as any PasteError {
            return error.exitStatus.rawValue
        } catch {
            return ExitStatus.internalError.rawValue
        }
    }
}
