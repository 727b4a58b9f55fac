import Foundation

/// The update and delete routes of the APIs that keep living pastes (`paste --update NAME`),
/// each as its service documents it, over the pastes the create routes made
/// (Routes+Recipes.swift): GitHub gists (`PATCH`/`DELETE /gists/{id}`), GitLab snippets
/// (`PUT`/`DELETE /api/v4/snippets/:id`), Opengist (`PATCH`/`DELETE /api/gists/:uuid`), and
/// rustypaste's `DELETE /rustypaste/NAME` with the `filename` header that names an upload. The
/// pages the answers link to (`/gist/ID`, `/-/snippets/ID`, `/tester/UUID`) serve the content as
/// it is now.
extension PasteMock {
    /// Answers a living paste's request, or nil when the path is none of theirs.
    func livingRoute(_ request: MockRequest) -> Response? {
        let method = request.head.method
        let path = request.head.path
        if let id = Self.segment(of: path, after: "/gists/") {
            return githubGistChange(request, method: method, id: id)
        }
        if let id = Self.segment(of: path, after: "/api/v4/snippets/") {
            return gitlabSnippetChange(request, method: method, id: id)
        }
        if let id = Self.segment(of: path, after: "/api/gists/") {
            return opengistChange(request, method: method, id: id)
        }
        if method == "DELETE", let name = Self.segment(of: path, after: "/rustypaste/") {
            return rustypasteDelete(request, name: name)
        }
        if method == "GET" || method == "HEAD" {
            for (prefix, service) in [("/gist/", "gist"), ("/-/snippets/", "gitlab"), ("/tester/", "opengist")] {
                guard let id = Self.segment(of: path, after: prefix) else { continue }
                guard let paste = livingPaste(service, id) else { return .text(404, "not found: \(path)\n") }
                return Response(
                    status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")], body: paste.content)
            }
        }
        return nil
    }

    /// The one path segment after `prefix`, or nil.
    static func segment(of path: String, after prefix: String) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard !rest.isEmpty, !rest.contains("/") else { return nil }
        return String(rest)
    }

    /// The paste `service` made with the id (token) `id`.
    private func livingPaste(_ service: String, _ id: String) -> Paste? {
        store.allPastes().first { $0.service == service && $0.token == id }
    }

    private func jsonBody(_ request: MockRequest) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(request.body.raw)) as? [String: Any]
    }

    private func hasToken(_ request: MockRequest, schemes: [String]) -> Bool {
        guard let header = request.head.header("Authorization") else { return false }
        return schemes.contains { header.lowercased().hasPrefix($0.lowercased() + " ") && header.count > $0.count + 1 }
    }

    /// Replaces a paste's content, as the update made it.
    private func replaceContent(of paste: Paste, with text: String) {
        var content = Self.field(named: "content", text: text)
        content.filename = paste.filename
        _ = store.replacePaste(id: paste.id) { stored in
            stored.content = content.value
            stored.size = content.size
            stored.hash = content.hash
            stored.updates += 1
        }
    }

    // MARK: - GitHub gists

    /// `PATCH /gists/{gist_id}` ("Update a gist"): `{"description"?, "files": {"NAME":
    /// {"content"}}}`, a file of the gist by its name (the mock keeps one file: another name is
    /// a 422); 200 with the gist. `DELETE /gists/{gist_id}`: 204. 401 without a token, 404 for
    /// a gist that is not there.
    private func githubGistChange(_ request: MockRequest, method: String, id: String) -> Response {
        guard hasToken(request, schemes: ["Bearer", "token"]) else {
            return .json(401, ["message": "Requires authentication", "status": "401"])
        }
        guard let paste = livingPaste("gist", id) else { return .json(404, ["message": "Not Found", "status": "404"]) }
        switch method {
        case "DELETE":
            _ = store.removePaste(id: paste.id)
            return Response(status: 204)
        case "PATCH":
            guard let object = jsonBody(request), let files = object["files"] as? [String: Any], files.count == 1,
                let name = files.keys.first, let file = files[name] as? [String: Any],
                let content = file["content"] as? String
            else { return .json(422, ["message": "Validation Failed", "status": "422"]) }
            guard name == paste.filename else {
                return .json(422, ["message": "Validation Failed: the gist has no file '\(name)'", "status": "422"])
            }
            replaceContent(of: paste, with: content)
            return .json(
                200,
                [
                    "id": id, "html_url": "\(request.base)/gist/\(id)", "url": "\(request.base)/gists/\(id)",
                    "files": [name: ["filename": name, "content": content]],
                ])
        default:
            return .json(404, ["message": "Not Found", "status": "404"])
        }
    }

    // MARK: - GitLab snippets

    /// `PUT /api/v4/snippets/:id` ("Update snippet"): `PRIVATE-TOKEN`; `{"files": [{"action":
    /// "update", "file_path", "content"}]}` (`action` one of create, update, delete, move;
    /// `update` of a path the snippet has); 200 with the snippet. `DELETE`: 204.
    private func gitlabSnippetChange(_ request: MockRequest, method: String, id: String) -> Response {
        guard let token = request.head.header("PRIVATE-TOKEN"), !token.isEmpty else {
            return .json(401, ["message": "401 Unauthorized"])
        }
        guard let paste = livingPaste("gitlab", id) else { return .json(404, ["message": "404 Snippet Not Found"]) }
        switch method {
        case "DELETE":
            _ = store.removePaste(id: paste.id)
            return Response(status: 204)
        case "PUT":
            guard let object = jsonBody(request), let files = object["files"] as? [[String: Any]], files.count == 1,
                let action = files[0]["action"] as? String
            else { return .json(400, ["error": "files is invalid"]) }
            guard ["create", "update", "delete", "move"].contains(action) else {
                return .json(400, ["error": "files[action] does not have a valid value"])
            }
            guard action == "update", let path = files[0]["file_path"] as? String, path == paste.filename,
                let content = files[0]["content"] as? String
            else { return .json(400, ["message": "the mock updates the snippet's one file by its file_path"]) }
            replaceContent(of: paste, with: content)
            return .json(
                200, ["id": paste.id, "title": path, "web_url": "\(request.base)/-/snippets/\(paste.id)"])
        default:
            return .json(405, ["message": "405 Method Not Allowed"])
        }
    }

    // MARK: - Opengist

    /// `PATCH /api/gists/:uuid` (Opengist 1.13, GitHub-style): `Authorization: Token X`;
    /// `{"files": {"NAME": {"content"}}}`; 200 with the gist. `DELETE`: 204.
    private func opengistChange(_ request: MockRequest, method: String, id: String) -> Response {
        guard hasToken(request, schemes: ["Token", "Bearer"]) else { return .json(401, ["error": "unauthorized"]) }
        guard let paste = livingPaste("opengist", id) else { return .json(404, ["error": "gist not found"]) }
        switch method {
        case "DELETE":
            _ = store.removePaste(id: paste.id)
            return Response(status: 204)
        case "PATCH":
            guard let object = jsonBody(request), let files = object["files"] as? [String: Any], files.count == 1,
                let name = files.keys.first, name == paste.filename, let file = files[name] as? [String: Any],
                let content = file["content"] as? String
            else { return .json(422, ["error": "files: the gist's one file by its name, with content"]) }
            replaceContent(of: paste, with: content)
            return .json(200, ["id": id, "html_url": "\(request.base)/tester/\(id)"])
        default:
            return .json(405, ["error": "method not allowed"])
        }
    }

    // MARK: - rustypaste

    /// `DELETE /rustypaste/NAME` (rustypaste, server.rs `delete`): `Authorization` (the
    /// delete token); 200 "file deleted", 404 when there is none.
    private func rustypasteDelete(_ request: MockRequest, name: String) -> Response {
        guard let token = request.head.header("Authorization"), !token.isEmpty else {
            return .text(401, "unauthorized\n")
        }
        guard let paste = store.allPastes().first(where: { $0.service == "rustypaste" && $0.token == name }) else {
            return .text(404, "file is not found or expired :(\n")
        }
        _ = store.removePaste(id: paste.id)
        return .text(200, "file deleted\n")
    }
}
