import Foundation

/// A misbehaviour the mock puts on (some of) its answers, selected by name.
///
/// Faults never touch the control routes (paths starting with `/_`). The first active fault whose
/// `path`/`method` filters match a request is used, and its count goes down by one.
struct Fault: Sendable {
    /// The fault names, as used on the command line and in `POST /_faults`.
    enum Kind: String, Sendable, CaseIterable {
        /// Answer with a status code (default 503), optional `retry_after` and `body`.
        case status
        /// Wait `seconds` (default 1) before answering normally.
        case delay
        /// Close the connection once `bytes` bytes of the request (head included) were read.
        case dropRequest = "drop-request"
        /// Handle the request, then close after `bytes` bytes of the answer.
        case dropResponse = "drop-response"
        /// 302 to `/_loop`, which redirects to itself forever.
        case redirectLoop = "redirect-loop"
        /// 302 to `file:///etc/passwd`.
        case redirectFile = "redirect-file"
        /// 200 with a body of `size` bytes (default 64 MiB), generated as it is sent.
        case huge
        /// 200 with an HTML "error" page and no URL anywhere.
        case noURL = "no-url"
        /// A `status` (default 200) whose Location header and body URL carry terminal escapes.
        case escapeURL = "escape-url"
        /// A `status` (default 200) whose Location header and body URL are `javascript:`.
        case javascriptURL = "javascript-url"
        /// A `status` (default 200) whose Location header and body URL look like a paste's but
        /// are spoofed, as `spoof` says: `bidi` (a U+202E right-to-left override, the default),
        /// `zero-width` (a U+200B zero-width space) or `userinfo` (`http://bank.example@HOST/…`).
        case spoofURL = "spoof-url"
        /// Store only part of the content and answer 206 Partial Content with its URL.
        case partial
        /// 302 back to the form page, `location` (default `/`).
        case redirectRoot = "redirect-root"
        /// Send the normal answer `bytes` bytes (default 1) every `seconds` (default 1).
        case trickle
        /// PrivateBin's refusal: HTTP 200 with `{"status":1,"message":…}`, the message `body`
        /// (default `Invalid data.`).
        case privateBinError = "privatebin-error"
        /// Read the request body `bytes` (default 64 KiB) at a time, waiting `seconds` (default
        /// 1) between pieces, then answer normally: an upload that is still sending its body.
        case slowRead = "slow-read"
        /// Answer `status` (default 500) as soon as the request head is read, before reading any
        /// of the body (a server refusing before it takes the upload); then read the rest `bytes`
        /// (default 64 KiB) every `seconds` (default 0.05) until the client closes.
        case earlyStatus = "early-status"
    }

    var kind: Kind
    var status: Int?
    var retryAfter: String?
    var body: String?
    var seconds: Double?
    var bytes: Int?
    var size: Int?
    var location: String?
    /// `text` (default) or `json`: how escape-url/javascript-url/spoof-url/no-url shape their body.
    var format: String?
    /// For spoof-url: `bidi`, `zero-width` or `userinfo`.
    var spoof: String?
    /// Requests still to affect; nil means every request for the whole run.
    var remaining: Int?
    /// Only requests whose path starts with this.
    var path: String?
    /// Only requests with this method.
    var method: String?

    /// Why a fault spec was rejected.
    struct SpecError: Error, CustomStringConvertible {
        var description: String
    }

    /// Builds a fault from string-valued settings (keys may use `-` or `_`).
    ///
    /// - Parameter defaultCount: the count when none is given (nil: unlimited). A count of 0
    ///   also means unlimited.
    init(settings: [String: String], defaultCount: Int?) throws(SpecError) {
        var settings: [String: String] = Dictionary(
            settings.map { ($0.key.replacingOccurrences(of: "-", with: "_").lowercased(), $0.value) },
            uniquingKeysWith: { a, _ in a })
        guard let name = settings.removeValue(forKey: "fault") ?? settings.removeValue(forKey: "name") else {
            throw SpecError(description: "a fault needs a name (one of \(Self.names))")
        }
        guard let kind = Kind(rawValue: name) else {
            throw SpecError(description: "unknown fault '\(name)' (one of \(Self.names))")
        }
        self.kind = kind
        func int(_ key: String) throws(SpecError) -> Int? {
            guard let text = settings.removeValue(forKey: key) else { return nil }
            guard let n = parseSize(text) else {
                throw SpecError(description: "fault \(name): '\(key)' must be a whole number, not '\(text)'")
            }
            return n
        }
        status = try int("status")
        bytes = try int("bytes")
        size = try int("size")
        let count = try int("count")
        remaining = count.map { $0 == 0 ? nil : $0 } ?? defaultCount
        if let text = settings.removeValue(forKey: "seconds") {
            guard let s = Double(text), s >= 0 else {
                throw SpecError(description: "fault \(name): 'seconds' must be a number, not '\(text)'")
            }
            seconds = s
        }
        retryAfter = settings.removeValue(forKey: "retry_after")
        body = settings.removeValue(forKey: "body")
        location = settings.removeValue(forKey: "location")
        format = settings.removeValue(forKey: "format")
        spoof = settings.removeValue(forKey: "spoof")
        if let spoof, !["bidi", "zero-width", "userinfo"].contains(spoof) {
            throw SpecError(description: "fault \(name): 'spoof' is bidi, zero-width or userinfo, not '\(spoof)'")
        }
        path = settings.removeValue(forKey: "path")
        method = settings.removeValue(forKey: "method")?.uppercased()
        if let unknown = settings.keys.sorted().first {
            throw SpecError(description: "fault \(name): unknown setting '\(unknown)'")
        }
    }

    /// Parses a command-line spec `NAME[:KEY=VALUE[,KEY=VALUE...]]`, or a JSON object.
    init(spec: String) throws(SpecError) {
        if spec.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(spec.utf8)) as? [String: Any] else {
                throw SpecError(description: "fault spec is not a JSON object: \(spec)")
            }
            try self.init(json: object, defaultCount: nil)
            return
        }
        var settings: [String: String] = [:]
        let (name, rest) =
            spec.firstIndex(of: ":").map { (String(spec[..<$0]), String(spec[spec.index(after: $0)...])) }
            ?? (spec, "")
        settings["fault"] = name
        for pair in rest.split(separator: ",") where !pair.isEmpty {
            guard let eq = pair.firstIndex(of: "=") else {
                throw SpecError(description: "fault setting '\(pair)' is not KEY=VALUE")
            }
            settings[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
        }
        try self.init(settings: settings, defaultCount: nil)
    }

    /// Builds a fault from a JSON object (`POST /_faults`).
    init(json: [String: Any], defaultCount: Int?) throws(SpecError) {
        var settings: [String: String] = [:]
        for (key, value) in json {
            switch value {
            case let text as String: settings[key] = text
            case let number as NSNumber:
                // Whole numbers print without a fraction; `seconds` may be fractional.
                let double = number.doubleValue
                settings[key] = double == double.rounded() && abs(double) < 1e15 ? String(Int64(double)) : "\(double)"
            case is NSNull: continue
            default: throw SpecError(description: "fault setting '\(key)' must be a string or a number")
            }
        }
        try self.init(settings: settings, defaultCount: defaultCount)
    }

    /// Every fault name, for messages.
    static var names: String { Kind.allCases.map(\.rawValue).joined(separator: ", ") }

    /// Whether this fault applies to a request.
    func matches(method: String, path: String) -> Bool {
        if let m = self.method, m != method { return false }
        if let p = self.path, !path.hasPrefix(p) { return false }
        return true
    }

    /// The fault as JSON for `GET /_faults`.
    var jsonObject: [String: Any] {
        var object: [String: Any] = ["fault": kind.rawValue, "count": remaining ?? 0]
        if let status { object["status"] = status }
        if let retryAfter { object["retry_after"] = retryAfter }
        if let body { object["body"] = body }
        if let seconds { object["seconds"] = seconds }
        if let bytes { object["bytes"] = bytes }
        if let size { object["size"] = size }
        if let location { object["location"] = location }
        if let format { object["format"] = format }
        if let spoof { object["spoof"] = spoof }
        if let path { object["path"] = path }
        if let method { object["method"] = method }
        return object
    }
}

/// Parses a byte count with an optional binary suffix: `512`, `64K`, `256M`, `1G` (also `KiB`…).
func parseSize(_ text: String) -> Int? {
    var digits = text.trimmingSpacesAndTabs()
    var multiplier = 1
    for (suffixes, factor) in [(["kib", "k"], 1 << 10), (["mib", "m"], 1 << 20), (["gib", "g"], 1 << 30)] {
        if let suffix = suffixes.first(where: { digits.lowercased().hasSuffix($0) }) {
            digits = String(digits.dropLast(suffix.count))
            multiplier = factor
            break
        }
    }
    guard let n = Int(digits), n >= 0 else { return nil }
    let (product, overflow) = n.multipliedReportingOverflow(by: multiplier)
    return overflow ? nil : product
}
