import Clipboard
import Glibc

// The detached selection owner (see SelectionOwnerProcess): `paste --internal-selection-owner
// clipboard|primary`, spawned by X11Clipboard.write. Everything else is the CLI (lead's part).
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == SelectionOwnerProcess.subcommand {
    var environment: [String: String] = [:]
    var entry = unsafe environ
    while let pointer = unsafe entry.pointee {
        let pair = unsafe String(cString: pointer).split(separator: "=", maxSplits: 1)
        if pair.count == 2 { environment[String(pair[0])] = String(pair[1]) }
        unsafe entry += 1
    }
    exit(SelectionOwnerProcess.run(arguments: CommandLine.arguments, environment: environment))
}
print("paste")
