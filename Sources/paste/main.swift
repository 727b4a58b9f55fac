// paste: upload the clipboard (or stdin, or files) to a pastebin; the URL goes back on the clipboard.
// Everything lives in PasteCLI; this file only gathers the process's argv and environment and exits.

import SystemInterop
import PasteCLI

#if canImport(Glibc)
    import Glibc
#endif

/// The process environment as a dictionary, read once here (libraries never read it themselves).
///
/// Split at the first `=` byte by byte: a `String` search would walk grapheme clusters, which
/// made this a measurable part of a hotkey press.
func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var cursor = unsafe environ
    while let entry = unsafe cursor.pointee {
        let length = unsafe strlen(entry)
        unsafe entry.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            let whole = unsafe UnsafeBufferPointer(start: bytes, count: length)
            if let equals = unsafe whole.firstIndex(of: UInt8(ascii: "=")) {
                let name = unsafe String(decoding: UnsafeBufferPointer(rebasing: whole[..<equals]), as: UTF8.self)
                let value = unsafe String(
                    decoding: UnsafeBufferPointer(rebasing: whole[(equals + 1)...]), as: UTF8.self)
                result[name] = value
            }
        }
        unsafe cursor += 1
    }
    return result
}

// Buffers up to 32 MiB come from the heap and are reused once freed, instead of being mapped and
// unmapped each time: reading a large clipboard allocates a 1 MiB reply per INCR chunk (in Xlib
// and xcb), and with glibc's adaptive threshold every one was fresh memory to fault in (30,000
// page faults for 64 MiB, half the read's time). Larger blocks are still mapped on their own.
CurrentProcess.tuneAllocator(mmapThreshold: 32 << 20, trimThreshold: 64 << 20)

let status = PasteCommand.main(arguments: CommandLine.arguments, environment: processEnvironment())
// Leave without the libraries' exit handlers once stdio is flushed: OpenSSL's frees its tables
// entry by entry (half a percent of a hotkey run), and no other handler has work that matters.
// Every file paste writes is written, synced and closed before this point.
fflush(nil)
_exit(status)
