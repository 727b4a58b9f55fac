/// How a service replaces a paste in place, for `paste --update NAME` (a living paste: made on
/// first use, its content replaced afterwards at the same URL; issue 43, item 1).
///
/// Declared in a service's section (`update-url`, `update-method`, `update-json`, `id`,
/// `delete-url`, `update = recreate`) or built in (`gist`, `gitlab`, `opengist`). The URLs may
/// be relative: they resolve against the service's `url` (its create endpoint), so a section
/// that moves `url` to another host moves them too. `{id}` in them stands for the paste's id,
/// read from the create answer by `id`.
public struct LivingUpdate: Sendable, Equatable {
    /// How an update reaches the service.
    public enum Mode: String, Sendable, CaseIterable {
        /// One request replaces the content (`PATCH /gists/{id}`).
        case replace
        /// The paste is deleted and made again with the same name (rustypaste): the URL stays,
        /// the paste is new.
        case recreate
    }

    /// Replace in place, or delete and make again.
    public var mode: Mode = .replace
    /// The update request's URL, `{id}` in it (replace), relative to the service's `url`.
    public var url: String?
    /// The update request's method (default `PATCH`).
    public var method = "PATCH"
    /// The update request's JSON body; nil: the create's `json`.
    public var jsonTemplate: ConfigValue?
    /// Where the paste's id is in the create answer (`{json:/id}`); nil: the id is the paste's
    /// URL's last path segment.
    public var idRule: Template?
    /// The URL a DELETE removes the paste at, `{id}` in it, relative to `url` (for `--delete`
    /// and for `recreate`).
    public var deleteURL: String?
    /// The deletion's method (default `DELETE`).
    public var deleteMethod = "DELETE"

    public init(
        mode: Mode = .replace, url: String? = nil, method: String = "PATCH", jsonTemplate: ConfigValue? = nil,
        idRule: Template? = nil, deleteURL: String? = nil
    ) {
        self.mode = mode
        self.url = url
        self.method = method
        self.jsonTemplate = jsonTemplate
        self.idRule = idRule
        self.deleteURL = deleteURL
    }

    /// Whether the declaration can update: a replace needs its URL, a recreate its deletion.
    public var isComplete: Bool {
        switch mode {
        case .replace: url != nil
        case .recreate: deleteURL != nil
        }
    }

    /// `template` (`update-url`, `delete-url`) with `{id}` filled (percent-encoded) and resolved
    /// against the service's create endpoint `base`.
    public static func resolve(_ template: String, id: String, against base: String) -> String {
        let filled = template.replacing("{id}", with: percentEncoded(id))
        if URLReference.isAbsolute(filled) { return filled }
        return URLReference.resolve(filled, against: base)
    }

    /// `text` with every byte but RFC 3986's unreserved ones percent-encoded: an id is one path
    /// segment, whatever the service put in it.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let isUnreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if isUnreserved {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// The id a paste's URL gives when the service says nothing else: its last path segment.
    public static func id(fromURL url: String) -> String? {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        // The path starts after the host; a URL that is only a host has no id.
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let path = rest[slash...].prefix { $0 != "?" && $0 != "#" }
        guard let last = path.split(separator: "/").last else { return nil }
        return String(last)
    }
}

/// The living paste a run works on (`paste --update NAME`), as the plan decided it: carried by
/// the service profile the run sends with, so the stages after send know what they record.
public struct LivingTarget: Sendable, Equatable {
    /// The person's name for it.
    public var name: String
    /// The paste's id on the service, once it was made; nil: this run makes it.
    public var id: String?
    /// Its URL, once made.
    public var url: String?
    /// Whether this run deletes and makes it again (`update = recreate`).
    public var recreates = false
    /// Whether this run's text waits in the outbox, unsent: the paste's first text is still
    /// there (its create entry, this id), and an update is never sent as a second create.
    public var isWaiting = false
    /// The outbox entry of the first text it waits for, if known.
    public var waitingFor: String?

    public init(name: String, id: String? = nil, url: String? = nil, recreates: Bool = false) {
        self.name = name
        self.id = id
        self.url = url
        self.recreates = recreates
    }

    /// Whether this run replaces an existing paste (else it makes the first one).
    public var isUpdate: Bool { id != nil }
    /// Whether this run's text makes the paste (its outbox entry is a create, never merged);
    /// else it replaces the content, now or once the paste is made (an update).
    public var isCreate: Bool { id == nil && !isWaiting }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension ServiceProfile {
    /// Whether the service can keep a living paste (`--update`).
    public var canUpdate: Bool { updating?.isComplete ?? false }

    /// The profile an update of the living paste `target` is sent with: the update URL and
    /// method, the update body, and the paste's own URL as the result (an update keeps it).
    /// A recreate sends the create request itself (the deletion went first).
    public func updatingProfile(_ target: LivingTarget) -> ServiceProfile {
        var profile = self
        profile.living = target
        guard let updating, let id = target.id, let url = target.url, updating.mode == .replace,
            let template = updating.url
        else { return profile }
        profile.url = ConfigValue(LivingUpdate.resolve(template, id: id, against: self.url.raw))
        profile.query = []
        profile.method = updating.method
        if let body = updating.jsonTemplate {
            profile.format = .json
            profile.jsonTemplate = body
        }
        profile.result = .template(Template(literal: url))
        profile.fallback = nil
        return profile
    }
}
