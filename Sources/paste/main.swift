// paste: upload the clipboard (or stdin, or files) to a pastebin; the URL goes back on the clipboard.
// Everything lives in PasteCLI; this file only gathers the process's argv and environment and exits.

import PasteCLI

#if canImport(Glibc)
    import Glibc
#endif

/// The process environment as a dictionary, read once here (libraries never read it themselves).
func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var cursor = unsafe environ
    while let entry = unsafe cursor.pointee {
        let text = unsafe String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        unsafe cursor += 1
    }
    return result
}

let status = PasteCommand.main(arguments: CommandLine.arguments, environment: processEnvironment())
// Leave without the libraries' exit handlers once stdio is flushed: OpenSSL's frees its tables
// entry by entry (half a percent of a hotkey run), and no other handler has work that matters.
// Every file paste writes is written, synced and closed before this point.
fflush(nil)
_exit(status)
