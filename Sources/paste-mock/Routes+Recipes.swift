import Foundation

/// Routes shaped like the APIs of self-hosted pastebins and code-sharing sites, for the recipes
/// in paste-config(5), and generic routes in the styles ShareX custom uploaders expect.
///
/// Each follows the service's own published API (or source, where that is the documentation):
/// the fields it reads, what it requires, and the shape of its answer, including answers with a
/// relative URL. Every route stores the paste like the others, so `/_pastes` shows it.
extension PasteMock {
    /// Answers a recipe or ShareX-style request, or nil when the path is none of theirs.
    func recipeRoute(_ request: MockRequest) -> Response? {
        let method = request.head.method
        let path = request.head.path
        // Updates and deletions of living pastes (Routes+Living.swift).
        if let answer = livingRoute(request) { return answer }
        switch (method, path) {
        case ("POST", "/documents"): return haste(request)
        case ("POST", "/wastebin/"), ("POST", "/wastebin"): return wastebin(request)
        case ("POST", "/microbin/upload"): return microbin(request)
        case ("POST", "/rustypaste/"), ("POST", "/rustypaste"): return rustypaste(request)
        case ("POST", "/api/gists"): return opengist(request)
        case ("POST", "/gists"): return githubGist(request)
        case ("POST", "/api/v4/snippets"): return gitlabSnippet(request)
        case ("POST", "/query"): return sourcehut(request)
        case ("POST", "/sx/text"), ("POST", "/sx/html"), ("POST", "/sx/redirect"), ("POST", "/sx/json"),
            ("PUT", "/sx/text"), ("PATCH", "/sx/text"), ("GET", "/sx/text"):
            return shareXStyle(request)
        default: break
        }
        if method == "GET" || method == "HEAD" {
            for prefix in ["/microbin/upload/", "/wastebin/", "/rustypaste/"] where path.hasPrefix(prefix) {
                guard
                    let paste = store.allPastes().first(where: {
                        $0.token != nil && path.dropFirst(prefix.count).hasPrefix($0.token!)
                    })
                else { return .text(404, "not found: \(path)\n") }
                return Response(
                    status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")], body: paste.content)
            }
        }
        return nil
    }

    /// The request's JSON object, or nil.
    private func jsonObject(_ request: MockRequest) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(request.body.raw)) as? [String: Any]
    }

    /// Stores `text` (or a field) as a paste of `service` with a URL-safe `key` as its token.
    private func keep(_ service: String, _ content: FormField, fields: [FormField], key: String) -> Paste {
        store.addPaste { id in
            var paste = Paste(id: id, service: service, content: content, fields: fields)
            paste.token = key
            return paste
        }
    }

    // MARK: - haste-server

    /// `POST /documents` (haste-server, lib/document_handler.js): the raw body is the
    /// document; 200 with `{"key":"KEY"}`. The paste is at `/KEY` (the client builds that).
    private func haste(_ request: MockRequest) -> Response {
        guard request.body.size > 0, request.body.kind != .multipart else {
            return .json(400, ["message": "No document given."])
        }
        var content = FormField(name: "", value: request.body.raw)
        content.size = request.body.size
        content.hash = request.body.hash
        let key = Self.token(length: 10)
        let paste = keep("haste", content, fields: [], key: key)
        var response = Response.json(200, ["key": key])
        response.pasteID = paste.id
        return response
    }

    // MARK: - wastebin

    /// `POST /wastebin/` (wastebin, handlers/insert/api.rs): JSON `{"text", "extension",
    /// "expires" (seconds), "burn_after_reading", "title", "password"}`; 200 with a path relative
    /// to the site, `{"path":"/wastebin/KEY.EXT","owner":"…"}`.
    private func wastebin(_ request: MockRequest) -> Response {
        guard let object = jsonObject(request), let text = object["text"] as? String else {
            return .text(422, "Failed to deserialize the JSON body into the target type: missing field `text`\n")
        }
        if let expires = object["expires"], !(expires is NSNull) {
            guard let seconds = expires as? Int, seconds > 0 else {
                return .text(422, "Failed to deserialize the JSON body: expires: invalid value\n")
            }
        }
        var fields = [Self.field(named: "text", text: text)]
        for key in ["extension", "title"] {
            if let value = object[key] as? String { fields.append(Self.field(named: key, text: value)) }
        }
        if let expires = object["expires"] as? Int {
            fields.append(Self.field(named: "expires", text: String(expires)))
        }
        if let burn = object["burn_after_reading"] as? Bool {
            fields.append(Self.field(named: "burn_after_reading", text: String(burn)))
        }
        let key = Self.token(length: 6)
        let paste = keep("wastebin", Self.field(named: "text", text: text), fields: fields, key: key)
        let ext = (object["extension"] as? String).map { "." + $0 } ?? ""
        var response = Response.json(200, ["path": "/wastebin/\(key)\(ext)", "owner": Self.token(length: 20)])
        response.pasteID = paste.id
        return response
    }

    // MARK: - MicroBin

    /// `POST /microbin/upload` (MicroBin, endpoints/create.rs): multipart `content`,
    /// `expiration` (`10min`, `1hour`, `24hour`, `1week`, `never`, …), `privacy`,
    /// `syntax_highlight`; 302 to `/microbin/upload/SLUG`, a relative Location.
    private func microbin(_ request: MockRequest) -> Response {
        let body = request.body
        guard body.kind == .multipart else { return .text(400, "Bad Request: expected multipart/form-data\n") }
        guard let content = body.field("content"), content.size > 0 else {
            return .text(400, "Bad Request: empty content\n")
        }
        if let expiration = body.text("expiration"),
            !["1min", "10min", "1hour", "24hour", "3days", "1week", "never"].contains(expiration)
        {
            return .text(400, "Bad Request: invalid expiration\n")
        }
        let slug = Self.token(length: 8)
        let paste = keep("microbin", content, fields: body.fields, key: slug)
        var response = Response.redirect(302, to: "/microbin/upload/\(slug)")
        response.pasteID = paste.id
        return response
    }

    // MARK: - rustypaste

    /// `POST /rustypaste/` (rustypaste, server.rs `upload`): multipart `file` with a file name;
    /// optional headers `expire` and `Authorization`; 200 with `http://HOST/rustypaste/KEY.EXT`
    /// and a newline.
    private func rustypaste(_ request: MockRequest) -> Response {
        let body = request.body
        guard body.kind == .multipart, let file = body.field("file"), file.size > 0 else {
            return .text(400, "no multipart data\n")
        }
        let name = file.filename ?? "file.txt"
        let ext = name.split(separator: ".").count > 1 ? "." + (name.split(separator: ".").last ?? "txt") : ".txt"
        // The `filename` header names the upload itself (server.rs, `header::FILENAME`); a
        // name already taken is refused: the old file must be deleted first.
        if let chosen = request.head.header("filename"), !chosen.isEmpty {
            guard !chosen.contains("/"), !chosen.hasPrefix(".") else { return .text(400, "invalid file name\n") }
            if store.allPastes().contains(where: { $0.service == "rustypaste" && $0.token == chosen }) {
                return .text(409, "file already exists\n")
            }
            let paste = keep("rustypaste", file, fields: body.fields, key: chosen)
            var response = Response.text(200, "\(request.base)/rustypaste/\(chosen)\n")
            response.pasteID = paste.id
            return response
        }
        let key = Self.token(length: 6)
        let paste = keep("rustypaste", file, fields: body.fields, key: key)
        var response = Response.text(200, "\(request.base)/rustypaste/\(key)\(ext)\n")
        response.pasteID = paste.id
        return response
    }

    // MARK: - Gists

    /// The gist files of `{"files": {"NAME": {"content": "…"}}}`: name and content of the first.
    private func gistFile(_ object: [String: Any]) -> (name: String, content: String)? {
        guard let files = object["files"] as? [String: Any], let name = files.keys.sorted().first,
            let file = files[name] as? [String: Any], let content = file["content"] as? String, !content.isEmpty
        else { return nil }
        return (name, content)
    }

    /// The token of `Authorization: Token X` or `Bearer X`, or nil.
    private func bearer(_ request: MockRequest, schemes: [String]) -> String? {
        guard let header = request.head.header("Authorization") else { return nil }
        for scheme in schemes where header.lowercased().hasPrefix(scheme.lowercased() + " ") {
            let token = header.dropFirst(scheme.count + 1).trimmingSpacesAndTabs()
            return token.isEmpty ? nil : token
        }
        return nil
    }

    /// `POST /api/gists` (Opengist, handlers/api/v1/gist_edit.go `CreateGist`): `Authorization:
    /// Token X` (or Bearer); JSON `{"title", "description", "visibility", "files": {"NAME":
    /// {"content"}}}`; 201 with the gist (`html_url`) and Location `/api/gists/ID`.
    private func opengist(_ request: MockRequest) -> Response {
        guard bearer(request, schemes: ["Token", "Bearer"]) != nil else {
            return .json(401, ["error": "unauthorized"])
        }
        guard let object = jsonObject(request), let file = gistFile(object) else {
            return .json(422, ["error": "files: at least one file with content is required"])
        }
        if let visibility = object["visibility"] as? String, !["public", "unlisted", "private"].contains(visibility) {
            return .json(422, ["error": "visibility must be public, unlisted or private"])
        }
        var fields = [Self.field(named: "filename", text: file.name)]
        for key in ["title", "description", "visibility"] {
            if let value = object[key] as? String { fields.append(Self.field(named: key, text: value)) }
        }
        let uuid = Self.token(length: 32)
        var content = Self.field(named: "content", text: file.content)
        content.filename = file.name
        let paste = keep("opengist", content, fields: fields, key: uuid)
        var response = Response.json(
            201,
            [
                "id": uuid, "html_url": "\(request.base)/tester/\(uuid)",
                "title": object["title"] as? String ?? file.name,
            ],
            headers: [("Location", "\(request.base)/api/gists/\(uuid)")])
        response.pasteID = paste.id
        return response
    }

    /// `POST /gists` (GitHub REST API, "Create a gist"): `Authorization: Bearer X` (or `token
    /// X`); JSON `{"description", "public", "files": {"NAME": {"content"}}}`; 201 with
    /// `{"id", "html_url", …}`; 401 without a token.
    private func githubGist(_ request: MockRequest) -> Response {
        guard bearer(request, schemes: ["Bearer", "token"]) != nil else {
            return .json(401, ["message": "Requires authentication", "status": "401"])
        }
        guard let object = jsonObject(request), let file = gistFile(object) else {
            return .json(422, ["message": "Validation Failed", "status": "422"])
        }
        var fields = [Self.field(named: "filename", text: file.name)]
        if let description = object["description"] as? String {
            fields.append(Self.field(named: "description", text: description))
        }
        if let isPublic = object["public"] as? Bool {
            fields.append(Self.field(named: "public", text: String(isPublic)))
        }
        let id = Self.token(length: 20)
        var content = Self.field(named: "content", text: file.content)
        content.filename = file.name
        let paste = keep("gist", content, fields: fields, key: id)
        var response = Response.json(
            201, ["id": id, "html_url": "\(request.base)/gist/\(id)", "url": "\(request.base)/gists/\(id)"])
        response.pasteID = paste.id
        return response
    }

    /// `POST /api/v4/snippets` (GitLab, "Create new snippet"): `PRIVATE-TOKEN` header; JSON
    /// `{"title" (required), "description", "visibility", "files": [{"file_path", "content"}]}`;
    /// 201 with `{"id", "web_url", …}`.
    private func gitlabSnippet(_ request: MockRequest) -> Response {
        guard let token = request.head.header("PRIVATE-TOKEN"), !token.isEmpty else {
            return .json(401, ["message": "401 Unauthorized"])
        }
        guard let object = jsonObject(request) else { return .json(400, ["error": "invalid JSON"]) }
        guard let title = object["title"] as? String, !title.isEmpty else {
            return .json(400, ["error": "title is missing"])
        }
        guard let files = object["files"] as? [[String: Any]], let first = files.first,
            let content = first["content"] as? String, !content.isEmpty
        else { return .json(400, ["error": "files is missing"]) }
        var fields = [Self.field(named: "title", text: title)]
        for key in ["description", "visibility"] {
            if let value = object[key] as? String { fields.append(Self.field(named: key, text: value)) }
        }
        if let path = first["file_path"] as? String { fields.append(Self.field(named: "file_path", text: path)) }
        var stored = Self.field(named: "content", text: content)
        stored.filename = first["file_path"] as? String
        let paste = store.addPaste { id in
            var paste = Paste(id: id, service: "gitlab", content: stored, fields: fields)
            paste.token = String(id)
            return paste
        }
        var response = Response.json(
            201, ["id": paste.id, "title": title, "web_url": "\(request.base)/-/snippets/\(paste.id)"])
        response.pasteID = paste.id
        return response
    }

    // MARK: - sourcehut paste

    /// `POST /query` (paste.sr.ht GraphQL, with the GraphQL multipart request spec for the
    /// files): `Authorization: Bearer X`; multipart `operations` (a `create` mutation), `map`,
    /// then the file parts `map` names; 200 with `{"data":{"create":{"id","user":{"canonicalName"}}}}`.
    private func sourcehut(_ request: MockRequest) -> Response {
        guard bearer(request, schemes: ["Bearer"]) != nil else {
            return .json(401, ["errors": [["message": "Authorization header is required"]]])
        }
        let body = request.body
        guard body.kind == .multipart, let operationsText = body.text("operations"),
            let operations = try? JSONSerialization.jsonObject(with: Data(operationsText.utf8)) as? [String: Any],
            let query = operations["query"] as? String, query.contains("create"),
            let mapText = body.text("map"),
            let map = try? JSONSerialization.jsonObject(with: Data(mapText.utf8)) as? [String: [String]],
            let partName = map.keys.sorted().first, let file = body.field(partName), file.size > 0
        else {
            return .json(
                200, ["errors": [["message": "a create mutation with operations, map and one file is required"]]])
        }
        // The spec requires the operations and the map before any file (servers stream files).
        guard let operationsIndex = body.fields.firstIndex(where: { $0.name == "operations" }),
            let fileIndex = body.fields.firstIndex(where: { $0.name == partName }), operationsIndex < fileIndex
        else { return .json(200, ["errors": [["message": "operations must come before the files"]]]) }
        guard file.contentType?.lowercased().hasPrefix("text/") == true else {
            return .json(200, ["errors": [["message": "files must be text/*"]]])
        }
        let id = Self.token(length: 12)
        let paste = keep("sourcehut", file, fields: body.fields, key: id)
        var response = Response.json(200, ["data": ["create": ["id": id, "user": ["canonicalName": "~tester"]]]])
        response.pasteID = paste.id
        return response
    }

    // MARK: - ShareX-style answers

    /// The generic routes ShareX custom uploaders are tested against (paste-mock(1)):
    /// `/sx/text` answers the URL as the body; `/sx/json` answers `{"id": "ID", "ok": true}`;
    /// `/sx/html` answers an HTML page with the URL in an `href`; `/sx/redirect` answers 302 to
    /// the paste. The content is the first part with a file name, else a `text`, `content` or
    /// `input` field, a JSON `text`/`content` member, an XML `<text>` element, a `text` query
    /// parameter, or the raw body.
    private func shareXStyle(_ request: MockRequest) -> Response {
        let body = request.body
        var content: FormField?
        switch body.kind {
        case .multipart, .urlencoded:
            content =
                body.fields.first { $0.filename != nil }
                ?? ["text", "content", "input"].lazy.compactMap { body.field($0) }.first
        case .json:
            if let object = jsonObject(request), let text = (object["text"] ?? object["content"]) as? String {
                content = Self.field(named: "text", text: text)
            }
        case .raw where body.size > 0:
            var field = FormField(name: "", value: body.raw)
            field.size = body.size
            field.hash = body.hash
            if let type = request.head.header("Content-Type"), type.contains("xml"),
                let text = String(validating: body.raw, as: UTF8.self),
                let start = text.range(of: "<text>"),
                let end = text.range(of: "</text>", range: start.upperBound..<text.endIndex)
            {
                field = Self.field(named: "text", text: xmlUnescape(String(text[start.upperBound..<end.lowerBound])))
            }
            content = field
        default: break
        }
        if content == nil, let query = queryValue(request.head.query, "text") {
            content = Self.field(named: "text", text: query)
        }
        guard let content, content.size > 0 else { return .text(400, "no content\n") }
        let key = Self.token(length: 8)
        let paste = keep("sharex", content, fields: body.fields, key: key)
        let url = "\(request.base)/pastes/\(paste.id)"
        var response: Response
        switch request.head.path {
        case "/sx/json": response = .json(200, ["id": String(paste.id), "ok": true, "delete": "/sx/delete/\(key)"])
        case "/sx/html":
            response = .html(
                200,
                "<!DOCTYPE html>\n<html><body><p>Uploaded.</p>\n<a class=\"link\" href=\"\(url)\">\(url)</a>\n"
                    + "<a href=\"/sx/delete/\(key)\">delete</a></body></html>\n")
        case "/sx/redirect": response = .redirect(302, to: url)
        default: response = .text(200, url + "\n")
        }
        response.pasteID = paste.id
        return response
    }

    private func queryValue(_ query: String, _ name: String) -> String? {
        for pair in query.split(separator: "&") {
            let pieces = pair.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2, pieces[0] == name else { continue }
            return String(pieces[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }

    private func xmlUnescape(_ text: String) -> String {
        var result = text
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result
    }
}
