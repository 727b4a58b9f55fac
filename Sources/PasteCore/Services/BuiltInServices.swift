/// The services paste knows without any configuration.
///
/// Each profile follows the service's own published API description; each is tested against a
/// mock of that API in the test suite (never against the real site).
public enum BuiltInServices {
    /// The service used when neither flags, `PASTE_SERVICE` nor the config name one.
    public static let defaultName = "dpaste"

    /// The built-in default's chain: dpaste.com first, then bpa.st when dpaste.com is down (a
    /// refused connection, a timeout before the body went out, 429 or 503). Both take a title, a
    /// language and an expiry, and both are public to whoever has the link, so the rule of
    /// `fallback` (a private service never falls back to a public one) is kept. The chain is the
    /// built-in's own: a `[service "dpaste"]` section, or one with `base = dpaste`, starts
    /// without it (`Configuration.startingProfile`), so a dpaste moved to another host never
    /// hands a text to an outside one.
    public static let defaultChain = [defaultName, "bpa.st"]

    /// Every built-in profile, in the order `--list-services` shows them.
    public static let all: [ServiceProfile] = [
        dpaste, pasteRS, termbin, nullPointer, bpaST, privateBin, gist, gitlab, opengist,
    ].map {
        var profile = $0
        profile.isBuiltIn = true
        return profile
    }

    /// The built-in profile of that name, if there is one.
    public static func named(_ name: String) -> ServiceProfile? {
        all.first { $0.name == name }
    }

    /// dpaste.com: form fields `content`, `syntax`, `title`, `expiry_days`; the URL is the body.
    public static var dpaste: ServiceProfile {
        var profile = ServiceProfile(name: "dpaste", url: ConfigValue("https://dpaste.com/api/v2/"))
        profile.format = .form
        profile.contentField = "content"
        profile.langField = "syntax"
        profile.titleField = "title"
        profile.expiryField = "expiry_days"
        profile.expiryUnit = .count(secondsPerUnit: 86_400)
        profile.result = .body
        profile.maximumBytes = 250_000
        profile.fallback = defaultChain[1]
        profile.summary = "dpaste.com (public, expires in 7 days unless -e; bpa.st when it is down)"
        return profile
    }

    /// paste.rs: the raw body is the paste; the URL is the body of the 201 answer.
    public static var pasteRS: ServiceProfile {
        var profile = ServiceProfile(name: "paste.rs", url: ConfigValue("https://paste.rs/"))
        profile.format = .raw
        profile.result = .body
        profile.isAlwaysPrivate = true
        profile.summary = "paste.rs (unlisted, raw body)"
        return profile
    }

    /// termbin.com: the fiche protocol over TCP port 9999.
    public static var termbin: ServiceProfile {
        var profile = ServiceProfile(name: "termbin", url: ConfigValue("tcp://termbin.com:9999"))
        profile.format = .tcp
        profile.result = .body
        profile.isAlwaysPrivate = true
        profile.summary = "termbin.com (fiche over TCP, unlisted)"
        return profile
    }

    /// 0x0.st: multipart `file` (named after the `-f` file, which sets the paste's extension),
    /// optional `expires` (hours) and `secret` (`-p`: a hard-to-guess URL, key-bearing); deletion
    /// token in X-Token.
    /// A file host: it takes images and other files as well as text.
    public static var nullPointer: ServiceProfile {
        var profile = ServiceProfile(name: "0x0", url: ConfigValue("https://0x0.st"))
        profile.format = .multipart
        profile.contentField = "file"
        profile.fileName = "{filename}"
        profile.privateField = ("secret", "")
        // A secret URL is the paste's only lock: whoever has it reads the file.
        profile.privateResultsCarryKey = true
        profile.expiryField = "expires"
        profile.expiryUnit = .count(secondsPerUnit: 3_600)
        profile.result = .body
        profile.deletionSource = "header:X-Token"
        profile.accepts = [.text, .files]
        profile.summary = "0x0.st (multipart file, deletable)"
        return profile
    }

    /// bpa.st, a pinnwand instance: a JSON API answering `link` and `removal`.
    public static var bpaST: ServiceProfile {
        pinnwand(name: "bpa.st", url: "https://bpa.st/api/v1/paste")
    }

    /// Any pinnwand instance's v1 API (`POST /api/v1/paste`, pinnwand/handler/api_v1.py).
    ///
    /// The file's name is the title, else the `-f` file's name (`paste.txt` for other input);
    /// its lexer is `-l`, else the `-f` file's extension's (`Lexers`), else `text`.
    ///
    /// The expiry choices are pinnwand's shipped defaults (`expiries` in
    /// pinnwand/configuration.py: `1day`, `1week`); an instance that offers others is
    /// configured with `expiry-unit = choices …`.
    public static func pinnwand(name: String, url: String) -> ServiceProfile {
        var profile = ServiceProfile(name: name, url: ConfigValue(url))
        profile.format = .json
        profile.jsonTemplate = ConfigValue(
            #"{"expiry": "{expiry:1day}", "files": [{"name": "{title:{filename}}", "lexer": "{lang:text}", "content": "{content}"}]}"#
        )
        profile.expiryField = "expiry"
        profile.expiryUnit = .choices([("1day", 86_400), ("1week", 604_800)])
        profile.isAlwaysPrivate = true
        profile.result = .json(pointer: "/link")
        profile.deletionSource = "json:/removal"
        profile.summary = "\(name) (pinnwand JSON API, unlisted, deletable)"
        return profile
    }

    /// PrivateBin's default `sizelimit` (cfg/conf.sample.php: 10 MiB).
    public static let privateBinSizeLimit: Int64 = 10 << 20

    /// privatebin.net, the PrivateBin project's own instance (see `privateBin(name:url:)`).
    public static var privateBin: ServiceProfile {
        var profile = privateBin(name: "privatebin", url: "https://privatebin.net/")
        profile.summary = "privatebin.net (PrivateBin, encrypted before upload, unlisted, deletable)"
        return profile
    }

    /// Any PrivateBin instance (1.3 or later: API v2) at its root URL: the text is encrypted
    /// here and the key stays in the link (`PrivateBin`); every paste is unlisted; the
    /// deletion token is kept for `--delete`.
    public static func privateBin(name: String, url: String) -> ServiceProfile {
        var profile = ServiceProfile(name: name, url: ConfigValue(url))
        profile.format = .privatebin
        profile.isAlwaysPrivate = true
        profile.result = .json(pointer: "/url")
        profile.deletionSource = "json:/deletetoken"
        profile.summary = "\(name) (PrivateBin, encrypted before upload, unlisted, deletable)"
        // PrivateBin refuses larger pastes by default: refused here, before anything is read
        // whole, compressed and encrypted (`max-size` sets another).
        profile.maximumBytes = privateBinSizeLimit
        return profile
    }

    // MARK: - Services that keep living pastes (`paste --update NAME`)

    /// GitHub gists (REST API "Create a gist" `POST /gists`, "Update a gist" `PATCH
    /// /gists/{gist_id}` with a `files` map, "Delete a gist"): a secret gist of one file,
    /// its page's URL `html_url`, its id `id`. Needs a token with the gist scope, which paste
    /// never has by itself: `header = Authorization: Bearer ${cmd:gh auth token}` in a
    /// `[service "gist"]` section.
    public static var gist: ServiceProfile {
        gistStyle(
            name: "gist", url: "https://api.github.com/gists",
            created:
                #"{"description": "{title:}", "public": false, "files": {"{filename}": {"content": "{content}"}}}"#,
            headers: ["Accept: application/vnd.github+json", "X-GitHub-Api-Version: 2022-11-28"],
            errorPointer: "/message", summary: "GitHub gists (secret, a token needed, --update keeps one)")
    }

    /// GitLab snippets (REST API `POST /snippets`, `PUT /snippets/:id` with `files:
    /// [{action: update, file_path, content}]`, `DELETE /snippets/:id`): a private personal
    /// snippet of one file (only its owner sees it), its page `web_url`, its id `id`. Needs a personal access token:
    /// `header = PRIVATE-TOKEN: ${cmd:…}` in a `[service "gitlab"]` section; `url` moves it to
    /// another GitLab (`https://gitlab.example/api/v4/snippets`).
    public static var gitlab: ServiceProfile {
        var profile = ServiceProfile(name: "gitlab", url: ConfigValue("https://gitlab.com/api/v4/snippets"))
        profile.format = .json
        profile.jsonTemplate = ConfigValue(
            #"{"title": "{title:{filename}}", "visibility": "private", "files": [{"file_path": "{filename}", "content": "{content}"}]}"#
        )
        profile.isAlwaysPrivate = true
        profile.result = .json(pointer: "/web_url")
        profile.errorMessage = try? Template(configText: "{json:/message}", use: .result)
        profile.updating = LivingUpdate(
            url: "snippets/{id}", method: "PUT",
            jsonTemplate: ConfigValue(
                #"{"files": [{"action": "update", "file_path": "{filename}", "content": "{content}"}]}"#),
            idRule: try? Template(configText: "{json:/id}", use: .result), deleteURL: "snippets/{id}")
        profile.tokenHeader = "PRIVATE-TOKEN"
        profile.summary = "GitLab snippets (private, a token needed, --update keeps one)"
        return profile
    }

    /// An Opengist instance (1.13 or later: its API `POST /api/gists`, `PATCH /api/gists/:uuid`
    /// GitHub-style, `DELETE /api/gists/:uuid`): an unlisted gist of one file, its page
    /// `html_url`, its id `id`. The project's demo instance unless a `[service "opengist"]`
    /// section sets `url` (the instance's `/api/gists`) and `header = Authorization: Token …`.
    public static var opengist: ServiceProfile {
        gistStyle(
            name: "opengist", url: "https://demo.opengist.io/api/gists",
            created:
                #"{"title": "{title:{filename}}", "visibility": "unlisted", "files": {"{filename}": {"content": "{content}"}}}"#,
            headers: [], errorPointer: "/error",
            summary: "an Opengist instance (unlisted, a token needed, --update keeps one)")
    }

    /// A service with GitHub's gist API (GitHub's own, and Opengist's copy of it): a private
    /// gist of one file made by a JSON body (`created`), its page `html_url`, its id `id`;
    /// replaced in place by `PATCH gists/{id}` with a `files` map, deleted at `gists/{id}`; its
    /// error message at `errorPointer` in a refusal's JSON.
    private static func gistStyle(
        name: String, url: String, created: String, headers: [String], errorPointer: String, summary: String
    ) -> ServiceProfile {
        var profile = ServiceProfile(name: name, url: ConfigValue(url))
        profile.format = .json
        profile.jsonTemplate = ConfigValue(created)
        profile.headers = headers.map { ConfigValue($0) }
        profile.isAlwaysPrivate = true
        profile.result = .json(pointer: "/html_url")
        profile.errorMessage = try? Template(configText: "{json:\(errorPointer)}", use: .result)
        profile.updating = LivingUpdate(
            url: "gists/{id}", method: "PATCH",
            jsonTemplate: ConfigValue(#"{"files": {"{filename}": {"content": "{content}"}}}"#),
            idRule: try? Template(configText: "{json:/id}", use: .result), deleteURL: "gists/{id}")
        profile.tokenHeader = "Authorization"
        profile.summary = summary
        return profile
    }
}
