import Foundation

/// A complete request, ready to route.
struct MockRequest {
    var head: RequestHead
    var body: CollectedBody
    /// `http://` plus the request's Host (or the listener address): where URLs in answers point.
    var base: String
}

// MARK: - Routing

extension PasteMock {
    /// Answers a request that no fault replaced. May store a paste.
    func route(_ request: MockRequest) -> Response {
        // Recipe APIs and ShareX-style answers (Routes+Recipes.swift).
        if let answer = recipeRoute(request) { return answer }
        let method = request.head.method == "HEAD" ? "GET" : request.head.method
        let path = request.head.path
        switch (method, path) {
        // Control routes for tests.
        case ("GET", "/_requests"): return .json(200, store.requests().map(\.jsonObject))
        case ("DELETE", "/_requests"):
            store.clearRequests()
            return Response(status: 204)
        case ("GET", "/_pastes"): return .json(200, store.allPastes().map(\.jsonObject))
        case ("GET", "/_faults"): return .json(200, store.faults().map(\.jsonObject))
        case ("POST", "/_faults"): return addFaults(request)
        case ("DELETE", "/_faults"):
            store.clearFaults()
            return Response(status: 204)
        case ("GET", "/_health"): return .text(200, "ok\n")
        case ("GET", "/_busy"): return .json(200, ["requests": store.requestsInProgress()])
        case (_, "/_loop"): return .redirect(302, to: "\(request.base)/_loop")

        // Web pages.
        case ("GET", "/"), ("GET", "/pastes/new"): return formPage()

        // Classic pastie.
        case ("POST", "/pastes/create"), ("POST", "/pastes"), ("POST", "/pastes/"): return pastie(request)

        // Other services.
        case ("POST", "/api/v2/"), ("POST", "/api/v2"), ("POST", "/api/"), ("POST", "/api"): return dpaste(request)
        case ("POST", "/pasters/"), ("POST", "/pasters"): return pasteRS(request)
        case ("POST", "/0x0/"), ("POST", "/0x0"): return nullPointer(request)
        case ("POST", "/sprunge/"), ("POST", "/sprunge"): return sprunge(request)
        case ("POST", "/"): return sniffRoot(request)
        case ("POST", "/api/v1/paste"): return pinnwand(request)
        case ("POST", "/json"): return genericJSON(request)
        case ("POST", "/location"): return locationOnly(request)
        case (_, "/privatebin/"), (_, "/privatebin"): return privateBin(request)
        default: break
        }
        if method == "GET" {
            if let answer = listedBytes(path) { return answer }
            if let id = Self.id(in: path, prefix: "/_pastes/") {
                guard let paste = store.paste(id: id) else { return .text(404, "no paste \(id)\n") }
                return .json(200, paste.jsonObject)
            }
            if let id = Self.id(in: path, prefix: "/pastes/", suffix: ".txt") { return raw(id) }
            if let id = Self.id(in: path, prefix: "/pastes/") { return page(id) }
            if let id = Self.id(in: path, prefix: "/raw/") { return raw(id) }
            if let id = Self.id(in: path, prefix: "/t/") { return raw(id) }
            if path.hasPrefix("/remove/") { return pinnwandRemove(token: String(path.dropFirst("/remove/".count))) }
            // 0x0 URLs: /0x0/ID.ext or /0x0/s/SECRET/ID.ext
            if path.hasPrefix("/0x0/"), let last = path.split(separator: "/").last,
                let id = Int(last.split(separator: ".").first ?? "")
            {
                return nullPointerFile(id)
            }
        }
        // Managed at the paste's own URL, extension and all, as 0x0.st does (`POST /0x0/ID.txt`,
        // or a secret one's `POST /0x0/s/SECRET/ID.txt`).
        let managed = path.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false)
        if method == "POST", path.hasPrefix("/0x0/"), managed.count == 1 || (managed.count == 3 && managed[0] == "s"),
            let id = Int(managed.last?.split(separator: ".").first ?? "")
        {
            return nullPointerManage(id, request)
        }
        let known = [
            "/_requests", "/_pastes", "/_faults", "/pastes/create", "/pastes", "/api/v2/", "/api/v1/paste",
            "/json", "/location", "/pasters/", "/0x0/", "/sprunge/", "/privatebin/", "/",
        ]
        if known.contains(path) { return .text(405, "method \(request.head.method) not allowed on \(path)\n") }
        return .text(404, "not found: \(path)\n")
    }

    /// The integer id in a path that is exactly `prefix` + digits + `suffix`.
    static func id(in path: String, prefix: String, suffix: String = "") -> Int? {
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else {
            return nil
        }
        let middle = path.dropFirst(prefix.count).dropLast(suffix.count)
        guard middle.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(middle)
    }

    // MARK: - Control

    /// `GET /_pastes/ID/body`, `/_pastes/ID/fields/N`, `/_requests/SEQ/body` and
    /// `/_requests/SEQ/fields/N`: one value's bytes as received (what the listings show by
    /// size and SHA-256 only when larger than `Listed.limit`); nil for any other path.
    private func listedBytes(_ path: String) -> Response? {
        // "", "_pastes" or "_requests", the number, then "body" or "fields" and an index.
        let parts = Array(path.split(separator: "/", omittingEmptySubsequences: false))
        guard parts.count == 4 || parts.count == 5, parts[0].isEmpty, parts[1] == "_pastes" || parts[1] == "_requests",
            let number = Self.number(parts[2])
        else { return nil }
        let field: Int?
        switch (parts.count, parts[3]) {
        case (4, "body"): field = nil
        case (5, "fields"):
            guard let index = Self.number(parts[4]) else { return nil }
            field = index
        default: return nil
        }
        let value: (bytes: [UInt8], size: Int, isKept: Bool)?
        if parts[1] == "_pastes" {
            guard let paste = store.paste(id: number) else { return .text(404, "no paste \(number)\n") }
            if let field {
                value = paste.fields.indices.contains(field) ? paste.fields[field].received : nil
            } else {
                value = (paste.content, paste.size, paste.isKept)
            }
        } else {
            guard let record = store.request(seq: number) else {
                return .text(404, "no request \(number) in the log\n")
            }
            let body = record.body
            if let field {
                value = body.fields.indices.contains(field) ? body.fields[field].received : nil
            } else if body.kind == .multipart {
                return .text(404, "request \(number) is multipart: its parts are at /_requests/\(number)/fields/N\n")
            } else {
                value = (body.raw, body.size, body.isRawKept)
            }
        }
        guard let value else { return .text(404, "no such value: \(path)\n") }
        guard value.isKept else { return .text(410, "not kept (--discard-bodies): \(value.size) bytes\n") }
        return Response(status: 200, headers: [("Content-Type", "application/octet-stream")], body: value.bytes)
    }

    /// A path segment of ASCII digits as a number.
    private static func number(_ segment: Substring) -> Int? {
        guard !segment.isEmpty, segment.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(segment)
    }

    private func addFaults(_ request: MockRequest) -> Response {
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body.raw)) else {
            return .text(400, "POST /_faults wants a JSON object or array\n")
        }
        let objects = (object as? [[String: Any]]) ?? (object as? [String: Any]).map { [$0] }
        guard let objects else { return .text(400, "POST /_faults wants a JSON object or array\n") }
        var faults: [Fault] = []
        for object in objects {
            do throws(Fault.SpecError) {
                faults.append(try Fault(json: object, defaultCount: 1))
            } catch {
                return .text(400, error.description + "\n")
            }
        }
        store.addFaults(faults)
        return .json(200, store.faults().map(\.jsonObject))
    }

    // MARK: - Pages

    private func formPage() -> Response {
        .html(
            200,
            """
            <!DOCTYPE html>
            <html><head><title>paste-mock</title></head><body>
            <h1>New paste</h1>
            <form action="/pastes/create" method="post" enctype="multipart/form-data">
            <input type="text" name="paste[title]">
            <select name="paste[parser]"><option>plaintext</option></select>
            <textarea name="paste[body]"></textarea>
            <input type="hidden" name="paste[authorization]" value="">
            <input type="checkbox" name="paste[restricted]" value="1">
            <input type="submit" value="Paste">
            </form>
            </body></html>

            """)
    }

    private func page(_ id: Int) -> Response {
        guard let paste = store.paste(id: id) else { return .text(404, "no paste \(id)\n") }
        let title = paste.fields.first { $0.name == "paste[title]" }?.text ?? "Paste #\(id)"
        let content =
            paste.isKept
            ? "<pre id=\"content\">\(htmlEscape(String(decoding: paste.content, as: UTF8.self)))</pre>"
            : "<p>content not kept (\(paste.size) bytes, sha256 \(paste.hash.hex))</p>"
        return .html(
            200,
            """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(htmlEscape(title))</title></head><body>
            <h1>\(htmlEscape(title))</h1>
            \(content)
            <a href="/pastes/\(id).txt">raw</a>
            </body></html>

            """)
    }

    private func raw(_ id: Int) -> Response {
        guard let paste = store.paste(id: id) else { return .text(404, "no paste \(id)\n") }
        return Response(
            status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")], body: paste.content)
    }

    // MARK: - Content extraction

    /// The paste content of a request for the generic endpoints: a well-known field, a JSON
    /// `content` member, or the raw body.
    private func content(of request: MockRequest) -> FormField? {
        let body = request.body
        switch body.kind {
        case .multipart, .urlencoded:
            for name in ["content", "file", "paste[body]", "sprunge", "raw", "text"] {
                if let field = body.field(name) { return field }
            }
            // `curl --data-binary` labels any body urlencoded: then the raw body is the paste.
            return body.kind == .urlencoded && body.size > 0 ? rawContent(body) : nil
        case .json:
            // Under --discard-bodies a large JSON body is not kept: it counts whole as the paste.
            if !body.isRawKept { return rawContent(body) }
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.raw)) as? [String: Any],
                let text = object["content"] as? String
            else { return nil }
            return Self.field(named: "content", text: text)
        case .raw, .none:
            return body.size > 0 ? rawContent(body) : nil
        }
    }

    /// The whole raw body as a field.
    private func rawContent(_ body: CollectedBody) -> FormField {
        var field = FormField(name: "", value: body.raw)
        field.size = body.size
        field.hash = body.hash
        field.isKept = body.isRawKept
        return field
    }

    static func field(named name: String, text: String) -> FormField {
        var field = FormField(name: name, value: Array(text.utf8))
        field.size = field.value.count
        field.hash.update(field.value[...])
        return field
    }

    private func store(_ service: String, _ content: FormField, _ fields: [FormField], token: String? = nil) -> Paste {
        store.addPaste { id in
            var paste = Paste(id: id, service: service, content: content, fields: fields)
            paste.token = token
            return paste
        }
    }

    private static func isForm(_ body: CollectedBody) -> Bool { body.kind == .multipart || body.kind == .urlencoded }

    // MARK: - Classic pastie

    /// `POST /pastes/create`: the fields of the hotkey one-liner; 302 to the new paste.
    private func pastie(_ request: MockRequest) -> Response {
        let body = request.body
        guard Self.isForm(body) else { return .text(400, "expected multipart/form-data or urlencoded fields\n") }
        guard body.text("paste[authorization]") == "burger" else {
            return .text(403, "forbidden: bad paste[authorization]\n")
        }
        guard let content = body.field("paste[body]") else { return .text(400, "missing paste[body]\n") }
        let paste = store("pastie", content, body.fields)
        var response = Response.redirect(302, to: "\(request.base)/pastes/\(paste.id)")
        response.pasteID = paste.id
        return response
    }

    // MARK: - dpaste.com

    /// `POST /api/v2/` (https://dpaste.com/api/v2/): fields content (required), syntax, title,
    /// expiry_days (1–365); 201 with the URL in Location and in the body.
    private func dpaste(_ request: MockRequest) -> Response {
        let body = request.body
        guard Self.isForm(body), let content = body.field("content"), content.size > 0 else {
            return .text(400, "content: This field is required.\n")
        }
        var days = 7
        if let text = body.text("expiry_days") {
            guard let n = Int(text), (1...365).contains(n) else {
                return .text(400, "expiry_days: Ensure this value is between 1 and 365.\n")
            }
            days = n
        }
        let paste = store("dpaste", content, body.fields)
        let url = "\(request.base)/pastes/\(paste.id)"
        // The open-source dpaste (dpaste/views.py, APIView) at /api/ answers `format=json`
        // with the URL as a JSON string.
        if !request.head.path.hasPrefix("/api/v2"), body.text("format") == "json" {
            var response = Response(
                status: 200, headers: [("Content-Type", "application/json")], body: Array("\"\(url)\"".utf8))
            response.pasteID = paste.id
            return response
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let expires = formatter.string(from: Date().addingTimeInterval(Double(days) * 86400))
        var response = Response.text(201, url + "\n", headers: [("Location", url), ("Expires", expires)])
        response.pasteID = paste.id
        return response
    }

    // MARK: - paste.rs

    /// `POST /pasters/` (https://paste.rs/web): the raw body is the paste; 201 with the URL.
    private func pasteRS(_ request: MockRequest) -> Response {
        guard request.body.kind != .multipart else { return .text(400, "send the paste as the raw body\n") }
        guard request.body.size > 0 else { return .text(400, "empty paste\n") }
        let paste = store("paste.rs", rawContent(request.body), [])
        var response = Response.text(201, "\(request.base)/pastes/\(paste.id)")
        response.pasteID = paste.id
        return response
    }

    // MARK: - 0x0.st

    /// `POST /0x0/` (https://0x0.st): multipart `file` or `url`, optional `expires`, `secret`;
    /// 200 with `URL\n` and the deletion token in `X-Token`.
    private func nullPointer(_ request: MockRequest) -> Response {
        let body = request.body
        guard body.kind == .multipart, let content = body.field("file") ?? body.field("url") else {
            return .text(400, "400 Bad Request: send a multipart 'file' or 'url' field\n")
        }
        var expiresMillis = (Date().timeIntervalSince1970 + 30 * 86400) * 1000
        if let text = body.text("expires") {
            guard let n = Double(text), n > 0 else { return .text(400, "bad 'expires'\n") }
            // Hours from now, or milliseconds since the epoch when it is that large (0x0.st rules).
            expiresMillis = n < 1_000_000 ? (Date().timeIntervalSince1970 + n * 3600) * 1000 : n
        }
        let token = Self.token(length: 22)
        let paste = store("0x0", content, body.fields, token: token)
        let ext =
            content.filename.flatMap { name in
                name.split(separator: ".").count > 1 ? name.split(separator: ".").last : nil
            }
            .map { "." + $0.filter { $0.isLetter || $0.isNumber } } ?? ".txt"
        let secret = body.field("secret") != nil ? "s/\(Self.token(length: 10))/" : ""
        var response = Response.text(
            200, "\(request.base)/0x0/\(secret)\(paste.id)\(ext)\n",
            headers: [("X-Token", token), ("X-Expires", String(Int64(expiresMillis)))])
        response.pasteID = paste.id
        return response
    }

    /// `GET /0x0/ID.EXT`: the file as uploaded, byte for byte, as the type its part was sent
    /// with (0x0.st serves a file as its type; text/plain when the part named none).
    private func nullPointerFile(_ id: Int) -> Response {
        guard let paste = store.paste(id: id) else { return .text(404, "no paste \(id)\n") }
        let type = paste.contentType.flatMap { $0.isEmpty ? nil : $0 } ?? "text/plain; charset=utf-8"
        return Response(status: 200, headers: [("Content-Type", type)], body: paste.content)
    }

    /// `POST /0x0/ID` with `token` and `delete` (or `expires`): manage a 0x0 paste.
    private func nullPointerManage(_ id: Int, _ request: MockRequest) -> Response {
        guard let paste = store.paste(id: id), paste.service == "0x0" else { return .text(404, "404 Not Found\n") }
        guard let token = request.body.text("token"), token == paste.token else {
            return .text(401, "401 Unauthorized\n")
        }
        if request.body.field("delete") != nil {
            _ = store.removePaste(id: id)
            return .text(200, "")
        }
        if request.body.field("expires") != nil { return .text(200, "") }
        return .text(400, "400 Bad Request: nothing to do\n")
    }

    // MARK: - sprunge

    /// `POST /sprunge/` (http://sprunge.us): form field `sprunge`; 200 with `URL\n`.
    private func sprunge(_ request: MockRequest) -> Response {
        guard let content = request.body.field("sprunge") else { return .text(400, "missing sprunge field\n") }
        let paste = store("sprunge", content, request.body.fields)
        var response = Response.text(200, "\(request.base)/pastes/\(paste.id)\n")
        response.pasteID = paste.id
        return response
    }

    /// `POST /`: sprunge when a `sprunge` field is present, 0x0 when `file`/`url` is, else paste.rs.
    private func sniffRoot(_ request: MockRequest) -> Response {
        let body = request.body
        if Self.isForm(body), body.field("sprunge") != nil { return sprunge(request) }
        if body.kind == .multipart, body.field("file") != nil || body.field("url") != nil {
            return nullPointer(request)
        }
        return pasteRS(request)
    }

    // MARK: - pinnwand

    /// The expiries pinnwand accepts by default.
    private static let pinnwandExpiries: Set<String> = ["1hour", "1day", "1week", "4weeks"]

    /// `POST /api/v1/paste` (pinnwand JSON API): `{"expiry", "files": [{"lexer", "content",
    /// "name"}]}`; 200 with `{"link", "removal"}`.
    private func pinnwand(_ request: MockRequest) -> Response {
        func fail(_ message: String) -> Response { .json(400, ["code": 400, "message": message]) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body.raw)) as? [String: Any] else {
            return fail("Invalid JSON body.")
        }
        guard let expiry = object["expiry"] as? String, Self.pinnwandExpiries.contains(expiry) else {
            return fail("Invalid expiry.")
        }
        guard let files = object["files"] as? [[String: Any]], !files.isEmpty else {
            return fail("Missing files.")
        }
        var fields = [Self.field(named: "expiry", text: expiry)]
        for (index, file) in files.enumerated() {
            guard let content = file["content"] as? String, !content.isEmpty else {
                return fail("Missing content in file \(index).")
            }
            for key in ["name", "lexer", "content"] {
                if let text = file[key] as? String {
                    fields.append(Self.field(named: "files[\(index)].\(key)", text: text))
                }
            }
        }
        let first = files[0]
        var content = Self.field(named: "content", text: first["content"] as? String ?? "")
        content.filename = first["name"] as? String
        let token = Self.token(length: 26)
        let paste = store("pinnwand", content, fields, token: token)
        var response = Response.json(
            200, ["link": "\(request.base)/pastes/\(paste.id)", "removal": "\(request.base)/remove/\(token)"])
        response.pasteID = paste.id
        return response
    }

    /// `GET /remove/TOKEN`: pinnwand's removal link.
    private func pinnwandRemove(token: String) -> Response {
        guard let paste = store.allPastes().first(where: { $0.service == "pinnwand" && $0.token == token }) else {
            return .text(404, "no such removal id\n")
        }
        _ = store.removePaste(id: paste.id)
        return .redirect(302, to: "/")
    }

    // MARK: - Generic result styles

    /// `POST /json`: any body; 200 with `{"data": {"url", "id"}, "status": "ok"}` (for
    /// `result = json:/data/url`).
    private func genericJSON(_ request: MockRequest) -> Response {
        guard let content = content(of: request) else { return .json(400, ["status": "error", "error": "no content"]) }
        let paste = store("json", content, request.body.fields)
        var response = Response.json(
            200, ["status": "ok", "data": ["url": "\(request.base)/pastes/\(paste.id)", "id": paste.id]])
        response.pasteID = paste.id
        return response
    }

    /// `POST /location`: any body; 201 with only a Location header (for `result = location`).
    private func locationOnly(_ request: MockRequest) -> Response {
        guard let content = content(of: request) else { return .text(400, "no content\n") }
        let paste = store("location", content, request.body.fields)
        var response = Response(status: 201, headers: [("Location", "\(request.base)/pastes/\(paste.id)")])
        response.pasteID = paste.id
        return response
    }

    // MARK: - Faults

    /// The answer a fault puts in place of the route's, or nil when the fault only changes
    /// timing or delivery (`delay`, `drop-response`, `trickle`, `slow-read`).
    func faultResponse(_ fault: Fault, for request: MockRequest) -> Response? {
        switch fault.kind {
        case .delay, .dropRequest, .dropResponse, .trickle, .slowRead, .earlyStatus:
            return nil
        case .status:
            let status = fault.status ?? 503
            var response = Response.text(status, fault.body ?? "\(status) \(Response.reason(status))\n")
            if let retryAfter = fault.retryAfter { response.headers.append(("Retry-After", retryAfter)) }
            return response
        case .redirectLoop:
            return .redirect(302, to: "\(request.base)/_loop")
        case .redirectFile:
            return .redirect(fault.status ?? 302, to: "file:///etc/passwd")
        case .redirectRoot:
            return .redirect(fault.status ?? 302, to: fault.location ?? "/")
        case .huge:
            return Response(
                status: fault.status ?? 200, headers: [("Content-Type", "text/plain; charset=utf-8")],
                generatedSize: fault.size ?? 64 << 20)
        case .noURL:
            if fault.format == "json" { return .json(fault.status ?? 200, ["status": "error", "error": "error"]) }
            return .html(
                fault.status ?? 200,
                "<!DOCTYPE html>\n<html><head><title>Error</title></head><body><h1>error</h1>"
                    + "<p>Something went wrong.</p></body></html>\n")
        case .privateBinError:
            return .json(fault.status ?? 200, ["status": 1, "message": fault.body ?? Self.privateBinInvalid])
        case .escapeURL:
            // CSI (colour, clear screen) and an OSC window-title sequence ended by BEL.
            return urlAnswer("\(request.base)/pastes/1\u{1B}[31m\u{1B}]0;owned\u{07}\u{1B}[2J", fault)
        case .javascriptURL:
            return urlAnswer("javascript:alert(document.domain)//\(request.base)/pastes/1", fault)
        case .spoofURL:
            switch fault.spoof ?? "bidi" {
            case "zero-width": return urlAnswer("\(request.base)/paste\u{200B}s/1", fault)
            case "userinfo":
                return urlAnswer(
                    request.base.replacingOccurrences(of: "://", with: "://bank.example@") + "/pastes/1", fault)
            default:
                // Reads as `…/pastes/1exe.txt` where the override flips the rest.
                return urlAnswer("\(request.base)/pastes/1\u{202E}txt.exe", fault)
            }
        case .partial:
            guard var content = content(of: request) else {
                return .text(400, "no content\n")
            }
            let total = content.size
            let kept = min(total, fault.bytes ?? total / 2)
            if content.isKept {
                content.value = Array(content.value.prefix(kept))
                content.size = kept
                content.hash = SHA256Stream(content.value)
            }
            let paste = store.addPaste { id in
                var paste = Paste(id: id, service: "partial", content: content, fields: request.body.fields)
                paste.isPartial = true
                return paste
            }
            var response = Response.text(
                fault.status ?? 206, "\(request.base)/pastes/\(paste.id)",
                headers: [("Content-Range", "bytes 0-\(max(0, kept - 1))/\(total)")])
            response.pasteID = paste.id
            return response
        }
    }

    /// An answer carrying a hostile URL in Location and in the body (text or JSON).
    private func urlAnswer(_ url: String, _ fault: Fault) -> Response {
        let status = fault.status ?? 200
        var response: Response
        if fault.format == "json" {
            response = .json(status, ["link": url, "url": url, "data": ["url": url]])
        } else {
            response = .text(status, url + "\n")
        }
        response.headers.append(("Location", url))
        return response
    }

    // MARK: - Tokens

    /// A random token of lowercase letters and digits.
    static func token(length: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }
}
