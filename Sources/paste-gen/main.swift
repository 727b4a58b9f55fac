// Writes the files generated from paste's option table: the shell completions in completions/
// (`CompletionScript`) and docs/help.txt (`paste --help`, `helpText()`); and the one generated from
// the secret guard's rule table: the built-in candidate search's plan, Sources/CSecretScan/
// csecret_scan_builtin.h (`SecretGuard.generatedFiles`). Run from the package root after changing
// Sources/PasteCLI/OptionTable.swift, OptionID+Completion.swift or HelpText.swift, or the guard's
// rows, decoders or prefilter (SecretPattern+Table.swift, SecretDecoder.swift, SecretPrefilter*.swift):
//
//   swift run paste-gen [ROOT]      ROOT: the package root (default: the current folder)
//
// GeneratedFilesTests and SecretPlanFileTests fail while a file in the repository differs from what
// this writes.

import PasteCLI
import SecretGuard
import SystemInterop

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count <= 1, arguments.first?.hasPrefix("-") != true else {
    StandardStream.error.write("usage: paste-gen [ROOT]\n")
    CurrentProcess.exit(64)
}
let root = arguments.first ?? "."

/// Writes `text` to `relative` under the root, made 0644 (then renamed over the old file).
func write(_ text: String, to relative: String) {
    let path = root + "/" + relative
    let temporary = path + ".part"
    do throws(Errno) {
        let file = try FileDescriptor.open(
            temporary, .writeOnly, options: [.create, .truncate], permissions: FilePermissions(rawValue: 0o644))
        try file.writeAll(Array(text.utf8))
        try file.close()
        try FileSystem.rename(temporary, to: path)
    } catch {
        StandardStream.error.write("paste-gen: cannot write '\(path)': \(error)\n")
        CurrentProcess.exit(74)
    }
    print("paste-gen: wrote \(relative)")
}

for script in CompletionScript.allCases {
    write(script.text, to: "completions/" + script.fileName)
}
write(helpText(), to: "docs/help.txt")
for file in SecretGuard.generatedFiles {
    write(file.text, to: file.path)
}
