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

exit(PasteCommand.main(arguments: CommandLine.arguments, environment: processEnvironment()))
