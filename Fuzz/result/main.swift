// libFuzzer target: result extraction (ResultExtractor, Sanitizer, OrderedJSON, templates over
// JSON, XML, regexes with lookbehind, relative URLs).
//
// The executable target fuzz-result, built by scripts/fuzz with libFuzzer and AddressSanitizer
// (`swift build --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address`).
//
// Input layout: byte 0 picks the result rule, byte 1 the HTTP status; the rest is split at the
// first blank line into a Location header value (and redirect target) and the body.
// Beyond "no crash, no hang" it checks the promise that matters: whatever the server sent,
// an extracted URL is http(s), bounded and free of control characters and white space, and a
// printable excerpt holds no escape or control character.

import PasteCore
import Requests

/// The rules tried, by the first input byte.
let rules: [ResultRule] = [
    .redirect, .location, .body, .json(pointer: "/link"), .json(pointer: "/data/url"), .json(pointer: ""),
    .regex("(https?://[^ ]+)"),
    .template(try! Template(configText: "https://paste.example/{json:/key}", use: .result)),
    .template(try! Template(configText: "{json:/path}", use: .result)),
    .template(try! Template(configText: #"{regex:(?<=href=")[^"]+(?=")}"#, use: .result)),
    .template(try! Template(configText: "{xml://url}{header:X-Suffix}", use: .result)),
    .template(try! Template(configText: "{location}", use: .result)),
    .template(try! Template(configText: "{body}", use: .result)),
]
/// The statuses tried, by the second input byte.
let statuses = [200, 201, 206, 301, 302, 400, 404, 429, 500, 503]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResult(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let bytes = unsafe Array(UnsafeBufferPointer(start: data, count: size))
    let rule = rules[Int(bytes[0]) % rules.count]
    let status = statuses[Int(bytes[1]) % statuses.count]
    let rest = Array(bytes[2...])
    var location = ""
    var body = rest
    if let split = (0..<max(0, rest.count - 1)).first(where: { rest[$0] == 10 && rest[$0 + 1] == 10 }) {
        location = String(decoding: rest[..<split], as: UTF8.self)
        body = Array(rest[(split + 2)...])
    }
    let endpoint = "http://paste.example/pastes/create"
    let request = UploadRequest(url: endpoint, body: .rendered([], contentType: "text/plain"), result: rule)
    let followed = location.isEmpty ? endpoint : location
    let response = UploadResponse(
        status: status, headers: location.isEmpty ? [] : [(name: "Location", value: location)],
        effectiveURL: followed, redirectCount: location.isEmpty ? 0 : 1, body: body)
    var profile = ServiceProfile(name: "fuzz", url: ConfigValue(endpoint))
    profile.deletionSource = bytes[0] & 0x80 != 0 ? "json:/removal" : "header:X-Token"
    if let outcome = try? ResultExtractor.extract(from: response, request: request, profile: profile) {
        let lower = outcome.url.lowercased()
        precondition(lower.hasPrefix("http://") || lower.hasPrefix("https://"), "not http(s): \(outcome.url)")
        precondition(outcome.url.utf8.count <= Sanitizer.maximumURLLength, "too long")
        precondition(
            !outcome.url.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.properties.isWhitespace },
            "control or space in \(outcome.url.debugDescription)")
    }
    let excerpt = Sanitizer.excerpt(body)
    precondition(!excerpt.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) },
        "control character in excerpt \(excerpt.debugDescription)")
    _ = Sanitizer.validateURL(location)
    _ = PrivateBin.answer(parsing: body)
    return 0
}

/// What a build without libFuzzer says when run. `swift build` builds every target, this one too,
/// as an ordinary program; `swift build --sanitize fuzzer` (scripts/fuzz) compiles executables as
/// libraries (libFuzzer's `main` drives `LLVMFuzzerTestOneInput`), where top-level code is not
/// allowed: a global's initializer is a declaration there, never run, and the program's first
/// statement here.
private let withoutLibFuzzer: Void = print("fuzz-result: built without libFuzzer; run scripts/fuzz")
