internal import CCurlShims
public import SystemInterop

/// A failed libcurl call: its code, libcurl's text for that code, and the handle's error buffer.
///
/// `CURLcode` never leaves CurlInterop untranslated: this is what callers see.
public struct CurlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `CURLcode` value, with names for the codes callers classify.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        init(_ code: CURLcode) { rawValue = Int(code.rawValue) }

        /// `CURLE_UNSUPPORTED_PROTOCOL`: a scheme outside the allowed protocols (e.g. a redirect to file://).
        public static let unsupportedProtocol = Code(CURLE_UNSUPPORTED_PROTOCOL)
        /// `CURLE_FAILED_INIT`.
        public static let failedInit = Code(CURLE_FAILED_INIT)
        /// `CURLE_URL_MALFORMAT`.
        public static let malformedURL = Code(CURLE_URL_MALFORMAT)
        /// `CURLE_COULDNT_RESOLVE_PROXY`.
        public static let couldNotResolveProxy = Code(CURLE_COULDNT_RESOLVE_PROXY)
        /// `CURLE_COULDNT_RESOLVE_HOST`.
        public static let couldNotResolveHost = Code(CURLE_COULDNT_RESOLVE_HOST)
        /// `CURLE_COULDNT_CONNECT`.
        public static let couldNotConnect = Code(CURLE_COULDNT_CONNECT)
        /// `CURLE_WEIRD_SERVER_REPLY`.
        public static let weirdServerReply = Code(CURLE_WEIRD_SERVER_REPLY)
        /// `CURLE_PARTIAL_FILE`.
        public static let partialFile = Code(CURLE_PARTIAL_FILE)
        /// `CURLE_WRITE_ERROR`.
        public static let writeError = Code(CURLE_WRITE_ERROR)
        /// `CURLE_READ_ERROR`: a read callback (the body source) failed.
        public static let readError = Code(CURLE_READ_ERROR)
        /// `CURLE_OUT_OF_MEMORY`.
        public static let outOfMemory = Code(CURLE_OUT_OF_MEMORY)
        /// `CURLE_OPERATION_TIMEDOUT`: connect timeout, total timeout or the low-speed (stall) limit.
        public static let operationTimedOut = Code(CURLE_OPERATION_TIMEDOUT)
        /// `CURLE_ABORTED_BY_CALLBACK`.
        public static let abortedByCallback = Code(CURLE_ABORTED_BY_CALLBACK)
        /// `CURLE_BAD_FUNCTION_ARGUMENT`.
        public static let badFunctionArgument = Code(CURLE_BAD_FUNCTION_ARGUMENT)
        /// `CURLE_TOO_MANY_REDIRECTS`.
        public static let tooManyRedirects = Code(CURLE_TOO_MANY_REDIRECTS)
        /// `CURLE_UNKNOWN_OPTION`.
        public static let unknownOption = Code(CURLE_UNKNOWN_OPTION)
        /// `CURLE_GOT_NOTHING`: the server closed without a reply.
        public static let gotNothing = Code(CURLE_GOT_NOTHING)
        /// `CURLE_SEND_ERROR`.
        public static let sendError = Code(CURLE_SEND_ERROR)
        /// `CURLE_RECV_ERROR`.
        public static let receiveError = Code(CURLE_RECV_ERROR)
        /// `CURLE_SEND_FAIL_REWIND`: a redirect or auth retry needed the body again and it cannot rewind.
        public static let sendFailRewind = Code(CURLE_SEND_FAIL_REWIND)
        /// `CURLE_SSL_CONNECT_ERROR`.
        public static let tlsConnectError = Code(CURLE_SSL_CONNECT_ERROR)
        /// `CURLE_PEER_FAILED_VERIFICATION`.
        public static let peerFailedVerification = Code(CURLE_PEER_FAILED_VERIFICATION)
        /// `CURLE_SSL_CERTPROBLEM`.
        public static let tlsCertificateProblem = Code(CURLE_SSL_CERTPROBLEM)
        /// `CURLE_SSL_CIPHER`.
        public static let tlsCipher = Code(CURLE_SSL_CIPHER)
        /// `CURLE_SSL_CACERT_BADFILE`.
        public static let tlsCACertificateBadFile = Code(CURLE_SSL_CACERT_BADFILE)
        /// `CURLE_SSL_ISSUER_ERROR`.
        public static let tlsIssuerError = Code(CURLE_SSL_ISSUER_ERROR)
        /// `CURLE_SSL_PINNEDPUBKEYNOTMATCH`.
        public static let tlsPinnedKeyMismatch = Code(CURLE_SSL_PINNEDPUBKEYNOTMATCH)
        /// `CURLE_SSL_INVALIDCERTSTATUS`.
        public static let tlsInvalidCertificateStatus = Code(CURLE_SSL_INVALIDCERTSTATUS)
        /// `CURLE_HTTP2` (a framing-layer problem).
        public static let http2 = Code(CURLE_HTTP2)
        /// `CURLE_AGAIN`: a non-blocking send or receive would block.
        public static let again = Code(CURLE_AGAIN)
        /// `CURLE_PROXY`: a SOCKS proxy refused or failed the handshake (the proxy could not
        /// resolve or reach the server, or spoke no SOCKS).
        public static let proxyHandshake = Code(CURLE_PROXY)

        /// Whether this code is a TLS failure (handshake or certificate verification).
        public var isTLS: Bool {
            [
                Code.tlsConnectError, .peerFailedVerification, .tlsCertificateProblem, .tlsCipher,
                .tlsCACertificateBadFile, .tlsIssuerError, .tlsPinnedKeyMismatch,
                .tlsInvalidCertificateStatus,
            ].contains(self)
        }
    }

    /// Something one of our own callbacks failed at: the real cause behind an abort code.
    public enum LocalFailure: Sendable, Equatable {
        /// Reading the body source failed (the `Errno` of `open`/`read`).
        case read(path: String, errno: Errno)
        /// Appending to the tee (outbox) copy failed.
        case tee(path: String, errno: Errno)
        /// The body's `BodyInspector` refused its content; why is the inspector's to say.
        case refused
        /// No complete answer within `EasyHandle.answerTimeout` of the request being sent.
        case answerTimedOut
    }

    /// The code libcurl returned.
    public var code: Code
    /// libcurl's fixed text for the code (`curl_easy_strerror`).
    public var text: String
    /// The handle's `CURLOPT_ERRORBUFFER` text: the specific reason, often naming host and errno.
    public var detail: String
    /// Set when our callback caused the failure; then this, not the code, is the cause.
    public var localFailure: LocalFailure?

    /// Makes an error for a code, looking up libcurl's text for it.
    ///
    /// Wraps `curl_easy_strerror`.
    public init(code: Code, detail: String, localFailure: LocalFailure? = nil) {
        self.code = code
        self.text = String(cString: curl_easy_strerror(CURLcode(rawValue: UInt32(code.rawValue))))
        self.detail = detail
        self.localFailure = localFailure
    }

    /// The most specific text: the error buffer when it says something, else libcurl's text.
    public var reason: String { detail.isEmpty ? text : detail }

    public var description: String { "libcurl error \(code.rawValue): \(reason)" }
}

extension CurlError {
    /// The error for a multi-interface failure (`CURLMcode`), reported as `CURLE_FAILED_INIT`
    /// with `curl_multi_strerror`'s text, since only misuse makes the multi calls fail.
    init(multiCode: CURLMcode) {
        self.init(
            code: .failedInit,
            detail: "multi: " + String(cString: curl_multi_strerror(multiCode)))
    }
}
