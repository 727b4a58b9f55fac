// PasteCore's errors, and those of every module above it, conform to PasteErrors' protocol
// (`PasteError`, its `ExitStatus` and `Disposition`) and show values through its `Sanitizer`:
// re-exported, so that a module which imports PasteCore sees them as before they moved down
// (issue 46, item 5). Clipboard and Alerts, which know nothing of config or upload, import
// PasteErrors alone.
@_exported import PasteErrors
