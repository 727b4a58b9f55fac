internal import CCurlShims
internal import Glibc

/// Process-wide libcurl facts: global initialisation and the library's version.
public enum Curl {
    /// The result of the one `curl_global_init` call, made the first time anyone asks.
    ///
    /// A `static let` is initialised exactly once, thread-safely (swift_once), so this is the
    /// "call it once" libcurl requires without any global mutable state.
    /// OpenSSL's error text is not loaded here but when a failure is shown (`TLSErrorText`).
    private static let initialisation: UInt32 = {
        ccurl_defer_tls_error_text()
        return curl_global_init(ccurl_global_default()).rawValue
    }()

    /// Initialises libcurl for the process; later calls do nothing.
    ///
    /// Call it at startup, before any thread exists (libcurl's rule for `curl_global_init`,
    /// which may initialise OpenSSL). `EasyHandle.init` calls it too, as a safety net.
    /// Wraps `curl_global_init(CURL_GLOBAL_DEFAULT)`.
    ///
    /// - Throws: `CurlError` when libcurl cannot initialise (out of memory, TLS library failure).
    public static func globalInit() throws(CurlError) {
        if initialisation != CURLE_OK.rawValue {
            throw CurlError(code: CurlError.Code(rawValue: Int(initialisation)), detail: "")
        }
    }

    /// libcurl's own version line (`libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 ...`).
    ///
    /// Wraps `curl_version`, whose static string is copied here.
    public static var version: String {
        guard let text = curl_version() else { return "libcurl" }
        return String(cString: text)
    }
}
