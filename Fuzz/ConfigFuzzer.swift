// libFuzzer target: the config grammar (ConfigFile) and its resolution (Configuration).
//
// Built by scripts/fuzz with `swiftc -sanitize=fuzzer,address -parse-as-library` together with
// Sources/PasteCore, Sources/Requests and Sources/ShareX, as one module, so internal API is
// reachable. Not part of Package.swift.
// Any input must give a configuration or a ConfigError: never a crash, a trap or a hang.

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
