// libFuzzer target: the config grammar (ConfigFile) and its resolution (Configuration).
//
// The executable target fuzz-config, built by scripts/fuzz with libFuzzer and AddressSanitizer
// (`swift build --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address`).
// Any input must give a configuration or a ConfigError: never a crash, a trap or a hang.

import PasteCore
import ShareX

/// The libFuzzer entry point: one input, parsed and resolved.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = unsafe Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    guard let file = try? ConfigFile(parsing: text, path: "fuzz.conf") else { return 0 }
    guard let configuration = try? Configuration(file: file, shareX: loadShareX) else { return 0 }
    // Every resolved service must be describable without trapping.
    for profile in configuration.services {
        _ = profile.summary
        _ = profile.result.configText
    }
    return 0
}

/// `sxcu = PATH` reads the definition as paste does (PasteCLI passes the same loader).
let loadShareX: ShareXLoader = { path, name, home throws(ShareXError) in
    try ShareXUploader.load(path: path, name: name, home: home)
}

/// What a build without libFuzzer says when run. `swift build` builds every target, this one too,
/// as an ordinary program; `swift build --sanitize fuzzer` (scripts/fuzz) compiles executables as
/// libraries (libFuzzer's `main` drives `LLVMFuzzerTestOneInput`), where top-level code is not
/// allowed: a global's initializer is a declaration there, never run, and the program's first
/// statement here.
private let withoutLibFuzzer: Void = print("fuzz-config: built without libFuzzer; run scripts/fuzz")
