import FoundationEssentials

/// PrivateBin's JSON API, version 2, spoken the way PrivateBin's own web client speaks it.
///
/// Learnt from PrivateBin's js/privatebin.js (`CryptTool.cipher`, `PasteEncrypter`,
/// `ServerInteraction`), lib/Request.php and lib/Controller.php (operations and answers) and
/// lib/FormatV2.php (what a server accepts), and from pbincli's pbincli/format.py and api.py,
/// an independent client. The text is encrypted before it leaves; the server never sees the
/// text or the key:
///
/// 1. The key is 32 random bytes. It goes only into the link's fragment (which browsers never
///    send), base58-encoded.
/// 2. The message is the JSON `{"paste":TEXT}`, raw-deflated (`zlib` in `adata`) or as it is
///    (`none`).
/// 3. It is encrypted with AES-256-GCM: the AES key is PBKDF2-HMAC-SHA-256 of the key (and a
///    password, which paste does not offer) with an 8-byte random salt and 100 000 iterations;
///    the IV is 16 random bytes; the additional data is the compact JSON of `adata` byte for
///    byte as it is sent (the server does not check it, every reader does); the 16-byte tag
///    follows the ciphertext.
/// 4. `POST {"v":2,"adata":…,"ct":BASE64,"meta":{"expire":NAME}}` to the instance's root, with
///    `X-Requested-With: JSONHttpRequest` (what makes the server answer JSON).
/// 5. The answer is HTTP 200 either way: `{"status":0,"id","url","deletetoken"}`, or
///    `{"status":1,"message"}` for a refusal.
/// 6. The link is the answer's `url` (relative: the request's path, `?`, the id) resolved
///    against the endpoint, then `#` and base58(key), or `#-` for a paste that burns after
///    reading: the web client's `loadConfirmPrefix`, which asks before opening such a paste.
public enum PrivateBin {
    // MARK: - Parameters (CryptTool.cipher; pbincli's CIPHER_* constants)

    /// Random key bytes (`CryptTool.getSymmetricKey`).
    public static let keyLength = 32
    /// IV bytes (`getRandomBytes(16)`).
    public static let ivLength = 16
    /// Salt bytes (`getRandomBytes(8)`).
    public static let saltLength = 8
    /// PBKDF2 iterations; servers refuse 10 000 or fewer (FormatV2::isValid).
    public static let iterations = 100_000
    /// AES key size in bits.
    public static let keyBits = 256
    /// GCM tag size in bits.
    public static let tagBits = 128

    /// The header that makes a PrivateBin server answer JSON (Request::_detectJsonRequest).
    public static let requestedWithHeader = "X-Requested-With: JSONHttpRequest"

    /// The expiries PrivateBin ships with (cfg/conf.sample.php, `[expire_options]`), the values
    /// privatebin.net and pbincli offer. `-e` must name one of these exactly: a paste must not
    /// outlive what was asked, and rounding down (1h for 2h) would surprise as much.
    public static let expiries: [(name: String, seconds: Int)] = [
        ("5min", 300), ("10min", 600), ("1hour", 3_600), ("1day", 86_400), ("1week", 604_800),
        ("1month", 2_592_000), ("1year", 31_536_000),
    ]
    /// The expiry name for `-e never`.
    public static let never = "never"
    /// The expiry sent without `-e`: PrivateBin's shipped default (`[expire] default`). A
    /// paste must name one: the server refuses a `meta` without `expire`.
    public static let defaultExpiry = "1week"

    /// How the message is compressed before it is encrypted (`adata[0][7]`).
    public enum Compression: String, Sendable, CaseIterable {
        /// Raw deflate, what the web client and pbincli send by default.
        case zlib
        /// No compression (the web client's choice without WebAssembly).
        case none
    }

    /// How the paste is displayed (`adata[1]`; `[formatter_options]`).
    public enum Formatter: String, Sendable, CaseIterable {
        case plaintext
        case syntaxhighlighting
        case markdown

        /// The formatter for `-l LANG`: markdown for `markdown`/`md`, plain text for none or a
        /// name of plain text, and syntax highlighting (which guesses the language) otherwise.
        public init(language: String?) {
            switch language?.lowercased() {
            case nil, "plaintext", "text", "txt", "plain", "none": self = .plaintext
            case "markdown", "md": self = .markdown
            default: self = .syntaxhighlighting
            }
        }
    }

    /// The `meta.expire` name for the options, or nil when PrivateBin offers no such expiry.
    public static func expire(for options: PasteOptions) -> String? {
        if options.neverExpires { return never }
        guard let seconds = options.expirySeconds else { return defaultExpiry }
        return expiries.first { $0.seconds == seconds }?.name
    }

    // MARK: - Answers

    /// What a PrivateBin server answered to a JSON request.
    public enum Answer: Sendable, Equatable {
        /// `status` 0: done. A new paste has an `id`, a `url` (relative) and a `deletetoken`.
        case accepted(id: String, url: String?, deleteToken: String?)
        /// `status` 1 (or any other): refused, with the server's `message`.
        case refused(message: String)
    }

    /// Reads an answer; nil when the body is not a PrivateBin JSON answer.
    public static func answer(parsing body: [UInt8]) -> Answer? {
        guard let document = try? OrderedJSON(parsing: body), case .object = document,
            case .number(let status)? = document["status"]
        else { return nil }
        guard Double(status) == 0 else {
            return .refused(message: document["message"]?.stringValue ?? "status \(Int(status) ?? -1)")
        }
        guard let id = document["id"]?.stringValue, !id.isEmpty else { return nil }
        return .accepted(id: id, url: document["url"]?.stringValue, deleteToken: document["deletetoken"]?.stringValue)
    }

    // MARK: - Deleting

    /// The request that deletes the paste at `pasteURL` (`https://host/path/?ID#KEY`) with its
    /// deletion token, or nil when the URL is not a PrivateBin paste's.
    ///
    /// A JSON `POST {"pasteid","deletetoken"}` to the instance, as pbincli sends it: every
    /// server that speaks API v2 (PrivateBin 1.3 and later) reads its parameters from a JSON
    /// body and answers JSON to `X-Requested-With` (lib/Request.php). The key stays home.
    public static func deletionRequest(pasteURL: String, token: String) -> UploadRequest? {
        let link = pasteURL.prefix { $0 != "#" }
        guard let question = link.firstIndex(of: "?") else { return nil }
        let id = link[link.index(after: question)...]
        guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        let body = "{\"pasteid\":" + JSONText.quote(String(id)) + ",\"deletetoken\":" + JSONText.quote(token) + "}"
        return UploadRequest(
            url: String(link[..<question]), method: "POST", headers: [requestedWithHeader],
            body: .rendered(Array(body.utf8), contentType: "application/json"), result: .json(pointer: "/status"))
    }
}
