// paste: upload the clipboard (or stdin, or files) to a pastebin; the URL goes back on the clipboard.
// Everything lives in PasteCLI; this file only gathers the process's argv and environment and exits.

import PasteCLI
import SystemInterop

// Buffers up to 32 MiB come from the heap and are reused once freed, instead of being mapped and
// unmapped each time: reading a large clipboard allocates a 1 MiB reply per INCR chunk (in Xlib
// and xcb), and with glibc's adaptive threshold every one was fresh memory to fault in (30,000
// page faults for 64 MiB, half the read's time). Larger blocks are still mapped on their own.
CurrentProcess.tuneAllocator(mmapThreshold: 32 << 20, trimThreshold: 64 << 20)

// The environment is read once, here (libraries never read it themselves).
let status = PasteCommand.main(arguments: CommandLine.arguments, environment: CurrentProcess.environment())
// Leave without the libraries' exit handlers once stdio is flushed: OpenSSL's frees its tables
// entry by entry (half a percent of a hotkey run), and no other handler has work that matters.
// Every file paste writes is written, synced and closed before this point.
CurrentProcess.exit(status)
