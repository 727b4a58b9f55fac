import Foundation

/// The Python test servers of `Tests/PasteCLITests/Fixtures` (standard library only), each on
/// 127.0.0.1 on a port the OS picks, stopped when the value goes away.
///
/// - `tlsForwarder`: TLS in front of a plain HTTP server (paste-mock), optionally requiring a
///   client certificate;
/// - `forwardProxy`: an HTTP proxy (CONNECT tunnels and absolute-form requests), optionally
///   asking for credentials or speaking TLS itself;
/// - `socks5Proxy`: a SOCKS5 proxy that resolves the names it is given.
///
/// Each logs one line per connection or request; `log` is what it wrote so far.
public final class FixtureServer: @unchecked Sendable {
    // Safe: the only stored property is immutable.
    private let server: ServerProcess

    private init(script: String, _ arguments: [String]) throws {
        server = try ServerProcess("/usr/bin/python3", [Self.folder.appendingPathComponent(script).path] + arguments)
    }

    /// The folder of the scripts.
    public static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/PasteCLITests/Fixtures")

    /// TLS with `certificates`' server certificate in front of `127.0.0.1:port`; with
    /// `requiringClientCertificate`, only clients showing a certificate of the same CA get through.
    public static func tlsForwarder(
        to port: Int, certificates: TestCertificates, requiringClientCertificate: Bool = false
    ) throws -> FixtureServer {
        try FixtureServer(
            script: "tls_forwarder.py",
            [
                "--cert", certificates.serverCertificate, "--key", certificates.serverKey, "--to", String(port),
            ] + (requiringClientCertificate ? ["--client-ca", certificates.caFile] : []))
    }

    /// An HTTP forward proxy; with `credentials` (`USER:PASSWORD`) it answers 407 without them;
    /// with `certificates` the proxy itself speaks TLS (an https:// proxy).
    public static func forwardProxy(
        credentials: String? = nil, certificates: TestCertificates? = nil
    ) throws -> FixtureServer {
        var arguments = credentials.map { ["--auth", $0] } ?? []
        if let certificates {
            arguments += ["--cert", certificates.serverCertificate, "--key", certificates.serverKey]
        }
        return try FixtureServer(script: "forward_proxy.py", arguments)
    }

    /// A SOCKS5 proxy; `names` are resolved by it alone (`paste.test` -> `127.0.0.1`).
    public static func socks5Proxy(names: [String: String] = [:]) throws -> FixtureServer {
        try FixtureServer(
            script: "socks5_proxy.py", names.sorted { $0.key < $1.key }.flatMap { ["--map", "\($0.key)=\($0.value)"] })
    }

    /// The URL it printed: `https://127.0.0.1:PORT`, `http://…`, `socks5://…`.
    public var url: String { server.baseURL }
    /// Its port.
    public var port: Int { server.port }
    /// Its log lines so far (the banner first).
    public var log: [String] { server.log.split(separator: "\n").map(String.init) }

    /// Waits until a log line satisfies `condition` (a connection is logged from its own
    /// thread, maybe a moment after the client saw the answer).
    public func waitForLog(
        _ what: String, timeout: Double = 10, _ condition: @escaping (String) -> Bool
    ) throws {
        try waitUntil(what, timeout: timeout) { log.contains(where: condition) }
    }

    /// Stops the server now.
    public func stop() { server.stop() }
}
