import PasteCLI
import Testing

/// `--outbox` takes its own words (list, show, send, drop, an id, --all), so `paste --outbox
/// show 3fa9c01` is ours while any other operand still hands the command line to coreutils.
@Suite("--outbox on the command line")
struct OutboxCommandLineTests {
    static func action(_ arguments: [String]) throws -> Invocation.Action? {
        guard case .paste(let invocation) = try parseCommandLine(arguments) else { return nil }
        return invocation.action
    }

    @Test(
        "its words are its arguments",
        arguments: [
            (["--outbox"], OutboxCommand.list), (["--outbox", "list"], .list), (["--outbox", "--json"], .list),
            (["--outbox", "show", "3fa9c01"], .show(id: "3fa9c01")),
            (["-q", "--outbox", "send", "3fa9"], .send(id: "3fa9")),
            (["--outbox", "send", "3fa9", "--force"], .send(id: "3fa9")),
            (["--outbox", "drop", "1738324800000-0000"], .drop(id: "1738324800000-0000")),
            (["--outbox", "drop", "--all"], .dropAll),
        ])
    func words(_ arguments: [String], _ command: OutboxCommand) throws {
        #expect(try Self.action(arguments) == .outbox(command))
    }

    @Test("a missing id, an unknown word or a stray operand after --outbox is a usage error (64)")
    func usageErrors() {
        for arguments in [
            ["--outbox", "show"], ["--outbox", "send", "--all"], ["--outbox", "frob"], ["--outbox", "show", "a", "b"],
            ["--outbox=list"], ["--outbox", "--retry"],
        ] {
            #expect(throws: UsageError.self, "\(arguments)") { try parseCommandLine(arguments) }
        }
    }

    @Test("operands before --outbox, or without it, still go to coreutils")
    func coreutilsKeepsItsOperands() throws {
        #expect(try parseCommandLine(["a", "b"]) == .coreutils)
        #expect(try parseCommandLine(["show", "3fa9c01"]) == .coreutils)
        #expect(try parseCommandLine(["a", "--outbox"]) == .coreutils)
    }

    @Test("--retry -n is a dry run of --retry")
    func retryDryRun() throws {
        guard case .paste(let invocation) = try parseCommandLine(["--retry", "-n"]) else {
            Issue.record("not ours")
            return
        }
        #expect(invocation.action == .retry)
        #expect(invocation.isDryRun)
    }
}
