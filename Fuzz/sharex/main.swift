// libFuzzer target: ShareX custom uploaders and templates (OrderedJSON, ShareXUploader,
// ShareXSyntax, Template and its config spelling).
//
// The executable target fuzz-sharex, built by scripts/fuzz with libFuzzer and AddressSanitizer
// (`swift build --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address`).
//
// The input is read as a .sxcu file and, as text, as a template in every syntax. Beyond "no
// crash, no hang" it checks the promises `--import-sxcu` makes: a section printed from a
// definition reads back as a configuration, and a template's config spelling reads back as the
// same template.

import PasteCore
import ShareX

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShareX(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = unsafe Array(UnsafeBufferPointer(start: data, count: size))
    if let json = try? OrderedJSON(parsing: bytes), let profile = try? ShareXUploader.makeProfile(json, file: "f.sxcu"),
        let section = try? profile.configSection()
    {
        do {
            let file = try ConfigFile(parsing: section, path: "f")
            _ = try Configuration(file: file)
        } catch {
            preconditionFailure("a printed section does not read back (\(error)):\n\(section)")
        }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    for side in [ShareXSyntax.Side.request, .answer] {
        for isLegacy in [false, true] {
            let setting = ShareXSyntax.Setting(
                file: "f.sxcu", key: "URL", side: side, isLegacy: isLegacy, regexList: ["(a)", "b"])
            _ = try? ShareXSyntax.parse(text, setting)
            _ = try? ShareXSyntax.parseData(text, setting)
        }
    }
    for use in [Template.Use.request, .result] {
        guard let template = try? Template(configText: text, use: use), let printed = try? template.configText() else {
            continue
        }
        precondition(
            (try? Template(configText: printed, use: use)) == template,
            "\(text.debugDescription) prints as \(printed.debugDescription), which reads back differently")
    }
    return 0
}

/// What a build without libFuzzer says when run. `swift build` builds every target, this one too,
/// as an ordinary program; `swift build --sanitize fuzzer` (scripts/fuzz) compiles executables as
/// libraries (libFuzzer's `main` drives `LLVMFuzzerTestOneInput`), where top-level code is not
/// allowed: a global's initializer is a declaration there, never run, and the program's first
/// statement here.
private let withoutLibFuzzer: Void = print("fuzz-sharex: built without libFuzzer; run scripts/fuzz")
