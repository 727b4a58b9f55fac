import Foundation

/// A throw-away certificate authority with a server and a client certificate, made by
/// `openssl` when a test starts, in a folder removed when the value goes away.
///
/// The server certificate names 127.0.0.1 and localhost (subjectAltName), so a TLS server on
/// the loopback verifies under either name once the CA is trusted. Every key is P-256 (fast
/// to make) and every private key file is 0600.
public final class TestCertificates: @unchecked Sendable {
    // Safe: every stored property is set in init and never changed.
    /// The folder holding every file.
    public let folder: URL
    /// The CA's certificate (PEM): what a client must trust.
    public var caFile: String { path("ca.pem") }
    /// A folder with the CA certificate under its OpenSSL hash name (`openssl rehash`), for
    /// `ca-path` and `SSL_CERT_DIR`.
    public var caFolder: String { path("ca-folder") }
    /// The server's certificate, signed by the CA.
    public var serverCertificate: String { path("server.pem") }
    /// The server's private key.
    public var serverKey: String { path("server.key") }
    /// The client's certificate, signed by the CA (for mutual TLS).
    public var clientCertificate: String { path("client.pem") }
    /// The client's private key.
    public var clientKey: String { path("client.key") }
    /// The server key's pin, as `pinned-pubkey` and curl write it: `sha256//BASE64`.
    public let serverPin: String

    /// Raised when openssl fails.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Makes the CA, the server certificate and the client certificate.
    ///
    /// - Parameter serverNames: more host names the server certificate holds (a mock standing
    ///   in for `dpaste.com` behind a test proxy).
    public init(serverNames: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("paste-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Self.openssl(
            ["req", "-x509"] + newKey + [
                "-keyout", folder.path + "/ca.key", "-out", folder.path + "/ca.pem", "-days", "2",
                "-subj", "/CN=paste test CA",
            ])
        for (name, subject, usage) in [
            (
                "server", "/CN=127.0.0.1",
                "subjectAltName=IP:127.0.0.1,DNS:localhost\(serverNames.map { ",DNS:" + $0 }.joined())\n"
                    + "extendedKeyUsage=serverAuth\n"
            ),
            ("client", "/CN=paste test client", "extendedKeyUsage=clientAuth\n"),
        ] {
            try Self.openssl(
                ["req"] + newKey + [
                    "-keyout", folder.path + "/\(name).key", "-out", folder.path + "/\(name).csr", "-subj", subject,
                ])
            let extensions = folder.appendingPathComponent("\(name).ext")
            try Data(("basicConstraints=CA:FALSE\n" + usage).utf8).write(to: extensions)
            try Self.openssl([
                "x509", "-req", "-in", folder.path + "/\(name).csr", "-CA", folder.path + "/ca.pem", "-CAkey",
                folder.path + "/ca.key", "-CAcreateserial", "-out", folder.path + "/\(name).pem", "-days", "2",
                "-extfile", extensions.path,
            ])
        }
        for key in ["ca.key", "server.key", "client.key"] { chmod(folder.path + "/" + key, 0o600) }
        let hashFolder = folder.appendingPathComponent("ca-folder")
        try FileManager.default.createDirectory(at: hashFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder.path + "/ca.pem", toPath: hashFolder.path + "/ca.pem")
        try Self.openssl(["rehash", hashFolder.path])
        // The pin: SHA-256 of the DER SubjectPublicKeyInfo, in base64 (curl's CURLOPT_PINNEDPUBLICKEY).
        let publicKey = try Self.openssl(["x509", "-in", folder.path + "/server.pem", "-pubkey", "-noout"])
        let der = try Self.openssl(["pkey", "-pubin", "-outform", "DER"], input: publicKey)
        let digest = try Self.openssl(["dgst", "-sha256", "-binary"], input: der)
        serverPin = "sha256//" + digest.base64EncodedString()
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A file of the folder.
    public func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @discardableResult
    private static func openssl(_ arguments: [String], input: Data? = nil) throws -> Data {
        let result = try runProcess(
            "/usr/bin/openssl", arguments, input: input.map { .bytes($0) } ?? .null, timeout: 60)
        guard result.status == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(result.err)")
        }
        return result.stdout
    }
}
