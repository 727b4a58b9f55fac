import Foundation

/// A PrivateBin server's JSON API, version 2, at `/privatebin/` (as PrivateBin 2.0's
/// lib/Request.php, lib/Controller.php, lib/FormatV2.php and lib/Model/Paste.php behave).
///
/// Like the real server, the mock never decrypts anything: it checks the shape of what it is
/// sent, stores the request's JSON as it came (the paste's content, for `/_pastes`), and hands
/// it back to readers. Every answer is HTTP 200; `status` 1 and a `message` mean refusal.
///
/// - `POST` a paste `{"v":2,"adata":…,"ct":…,"meta":{"expire":…}}` → `{"status":0,"id",
///   "url":"/privatebin/?ID","deletetoken"}` (the URL relative, as PrivateBin sends it).
/// - `POST {"pasteid","deletetoken"}`, or `GET ?pasteid=ID&deletetoken=TOKEN` → deletion.
/// - `GET ?ID` → the paste as JSON (what pbincli's `get` reads); a paste that burns after
///   reading is deleted as it is read.
/// - Without `X-Requested-With: JSONHttpRequest` PrivateBin renders its HTML page: so does this.
extension PasteMock {
    /// The expiry names PrivateBin ships with; anything else falls back to the default.
    private static let privateBinExpiries: Set<String> = [
        "5min", "10min", "1hour", "1day", "1week", "1month", "1year", "never",
    ]
    /// The formatters PrivateBin ships with (`[formatter_options]`).
    private static let privateBinFormatters: Set<String> = ["plaintext", "syntaxhighlighting", "markdown"]
    /// PrivateBin's messages (Controller::GENERIC_ERROR, Paste::INVALID_DATA_ERROR, _delete).
    static let privateBinNotFound = "Document does not exist, has expired or has been deleted."
    static let privateBinInvalid = "Invalid data."
    static let privateBinWrongToken = "Wrong deletion token. Document was not deleted."

    func privateBin(_ request: MockRequest) -> Response {
        guard request.head.header("X-Requested-With") == "JSONHttpRequest" else { return privateBinPage() }
        let method = request.head.method == "HEAD" ? "GET" : request.head.method
        let path = request.head.path
        if method == "GET" {
            let parameters = Self.queryParameters(request.head.query)
            if let id = parameters["pasteid"], let token = parameters["deletetoken"], !token.isEmpty {
                return privateBinDelete(id: id, token: token, path: path)
            }
            // `?ID`: a key of 16 hex digits without a value (Request::getPasteId).
            guard let id = parameters.first(where: { $0.value.isEmpty && Self.isPrivateBinID($0.key) })?.key else {
                return Self.privateBinError(Self.privateBinNotFound)
            }
            return privateBinRead(id: id, path: path)
        }
        guard method == "POST" || method == "PUT" else { return .text(405, "method not allowed\n") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body.raw)) as? [String: Any] else {
            return Self.privateBinError(Self.privateBinInvalid)
        }
        if let id = object["pasteid"] as? String, let token = object["deletetoken"] as? String, !token.isEmpty {
            return privateBinDelete(id: id, token: token, path: path)
        }
        return privateBinCreate(object, request)
    }

    /// Stores a new paste after the checks of FormatV2::isValid and Paste::_validate.
    private func privateBinCreate(_ object: [String: Any], _ request: MockRequest) -> Response {
        guard let adata = Self.validPrivateBinPaste(object) else { return Self.privateBinError(Self.privateBinInvalid) }
        let spec = adata[0] as! [Any]
        let meta = object["meta"] as! [String: Any]
        let requested = meta["expire"] as? String ?? ""
        let expire = Self.privateBinExpiries.contains(requested) ? requested : "1week"
        let id = Self.hexToken(bytes: 8)
        let token = Self.hexToken(bytes: 32)
        var content = FormField(name: "", value: request.body.raw)
        content.size = request.body.size
        content.hash = request.body.hash
        content.isKept = request.body.isRawKept
        content.contentType = "application/json"
        let fields = [
            Self.field(named: "pasteid", text: id), Self.field(named: "expire", text: expire),
            Self.field(named: "formatter", text: adata[1] as! String),
            Self.field(named: "opendiscussion", text: "\(adata[2] as! Int)"),
            Self.field(named: "burnafterreading", text: "\(adata[3] as! Int)"),
            Self.field(named: "compression", text: spec[7] as! String),
        ]
        let paste = store.addPaste { number in
            var paste = Paste(id: number, service: "privatebin", content: content, fields: fields)
            paste.token = token
            return paste
        }
        var response = Response.json(
            200, ["status": 0, "id": id, "url": "\(request.head.path)?\(id)", "deletetoken": token])
        response.pasteID = paste.id
        return response
    }

    /// A paste as PrivateBin's `_read` answers it; a burn-after-reading paste goes as it is read.
    private func privateBinRead(id: String, path: String) -> Response {
        guard let paste = privateBinPaste(id: id),
            let stored = try? JSONSerialization.jsonObject(with: Data(paste.content)) as? [String: Any]
        else { return Self.privateBinError(Self.privateBinNotFound) }
        if paste.fields.first(where: { $0.name == "burnafterreading" })?.text == "1" {
            _ = store.removePaste(id: paste.id)
        }
        var answer = stored
        answer["status"] = 0
        answer["id"] = id
        answer["url"] = "\(path)?\(id)"
        answer["meta"] = ["time_to_live": 604_800]
        answer["comments"] = [Any]()
        answer["comment_count"] = 0
        answer["comment_offset"] = 0
        answer["@context"] = "?jsonld=paste"
        return .json(200, answer)
    }

    /// Deletes a paste when the token is its own (Controller::_delete).
    private func privateBinDelete(id: String, token: String, path: String) -> Response {
        guard let paste = privateBinPaste(id: id) else { return Self.privateBinError(Self.privateBinNotFound) }
        guard paste.token == token else { return Self.privateBinError(Self.privateBinWrongToken) }
        _ = store.removePaste(id: paste.id)
        return .json(200, ["status": 0, "id": id, "url": "\(path)?\(id)"])
    }

    private func privateBinPaste(id: String) -> Paste? {
        store.allPastes().first { paste in
            paste.service == "privatebin" && paste.fields.first(where: { $0.name == "pasteid" })?.text == id
        }
    }

    /// The `adata` of a paste PrivateBin would accept, or nil ("Invalid data.").
    private static func validPrivateBinPaste(_ object: [String: Any]) -> [Any]? {
        guard Set(object.keys) == ["v", "adata", "ct", "meta"],
            let version = object["v"] as? NSNumber, version.doubleValue >= 2,
            let ct = object["ct"] as? String, let cipherText = Data(base64Encoded: ct), !cipherText.isEmpty,
            let adata = object["adata"] as? [Any], adata.count == 4,
            let spec = adata[0] as? [Any], spec.count >= 8,
            let iv = spec[0] as? String, iv.count <= 24, Data(base64Encoded: iv) != nil,
            let salt = spec[1] as? String, salt.count <= 14, Data(base64Encoded: salt) != nil,
            let iterations = spec[2] as? Int, iterations > 10_000,
            let keySize = spec[3] as? Int, [128, 192, 256].contains(keySize),
            let tagSize = spec[4] as? Int, [64, 96, 128].contains(tagSize),
            spec[5] as? String == "aes",
            let mode = spec[6] as? String, ["ctr", "cbc", "gcm"].contains(mode),
            let compression = spec[7] as? String, ["zlib", "none"].contains(compression),
            let formatter = adata[1] as? String, privateBinFormatters.contains(formatter),
            let discussion = adata[2] as? Int, discussion == 0 || discussion == 1,
            let burn = adata[3] as? Int, burn == 0 || burn == 1, !(discussion == 1 && burn == 1),
            let meta = object["meta"] as? [String: Any], Set(meta.keys) == ["expire"]
        else { return nil }
        return adata
    }

    private static func privateBinError(_ message: String) -> Response {
        .json(200, ["status": 1, "message": message])
    }

    /// What PrivateBin shows a browser: its page (the mock's is short).
    private func privateBinPage() -> Response {
        .html(
            200,
            "<!DOCTYPE html>\n<html><head><title>PrivateBin</title></head><body>"
                + "<p>PrivateBin needs JavaScript; the JSON API answers X-Requested-With: JSONHttpRequest.</p>"
                + "</body></html>\n")
    }

    /// `a=1&b&c=` as a dictionary (no percent-decoding: PrivateBin ids and tokens are hex).
    static func queryParameters(_ query: String) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            parameters[String(parts[0])] = parts.count == 2 ? String(parts[1]) : ""
        }
        return parameters
    }

    /// A PrivateBin paste id: 16 hex digits (Paste::isValidId).
    static func isPrivateBinID(_ text: String) -> Bool {
        text.count == 16 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// `bytes` random bytes in lowercase hex.
    static func hexToken(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}
