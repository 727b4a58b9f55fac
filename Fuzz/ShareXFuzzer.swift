// libFuzzer target: ShareX custom uploaders and templates (OrderedJSON, ShareXUploader,
// ShareXSyntax, Template and its config spelling).
//
// Built by scripts/fuzz with `swiftc -sanitize=fuzzer,address -parse-as-library` together with
// Sources/PasteCore, Sources/Requests and Sources/ShareX, as one module. Not part of Package.swift.
//
// The input is read as a .sxcu file and, as text, as a template in every syntax. Beyond "no
// crash, no hang" it checks the promises `--import-sxcu` makes: a section printed from a
// definition reads back as a configuration, and a template's config spelling reads back as the
// same template.

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
