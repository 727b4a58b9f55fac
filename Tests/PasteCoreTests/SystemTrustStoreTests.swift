import Foundation
import Testing
import TestSupport

@testable import PasteCore

/// The system's trust store where each distribution keeps it, looked up under a private root
/// (`PASTE_TEST_SYSTEM_ROOT`): the order, what counts as a bundle or a hashed folder, and how
/// the choice is worded for `-v` and for a certificate that is not trusted.
@Suite("System trust store", .tags(.config), .temporaryHome)
struct SystemTrustStoreTests: ScopedSuite {
    static let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"

    /// A fresh, empty system root inside the temporary home.
    func makeRoot(_ name: String = "root") throws -> String {
        let root = home.root.path + "/" + name
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    /// Writes `text` at `path` under `root`.
    func place(_ text: String = pem, at path: String, in root: String) throws {
        let url = URL(fileURLWithPath: root + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func find(root: String, _ environment: [String: String] = [:]) -> SystemTrustStore? {
        SystemTrustStore.find(
            context: Context(environment: environment.merging(["PASTE_TEST_SYSTEM_ROOT": root]) { a, _ in a }))
    }

    @Test(
        "each family's bundle is found in its own place and named by its layout",
        arguments: [
            ("/etc/ssl/certs/ca-certificates.crt", "Debian/Ubuntu/Arch/Gentoo layout"),
            ("/etc/pki/tls/certs/ca-bundle.crt", "Fedora/RHEL/CentOS layout"),
            ("/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "Fedora/RHEL/CentOS layout"),
            ("/etc/ssl/ca-bundle.pem", "openSUSE/SLES layout"),
            ("/etc/ssl/cert.pem", "Alpine layout"),
            ("/nix/var/nix/profiles/default/etc/ssl/certs/ca-bundle.crt", "Nix profile layout"),
        ])
    func eachLayout(path: String, layout: String) throws {
        let root = try makeRoot()
        try place(at: path, in: root)
        #expect(find(root: root) == SystemTrustStore(path: root + path, kind: .bundle, origin: layout))
    }

    @Test("the order: NIX_SSL_CERT_FILE, then Debian's bundle before Fedora's, openSUSE's and Alpine's")
    func order() throws {
        let root = try makeRoot()
        for (path, _) in SystemTrustStore.bundles.reversed() {
            try place(at: path, in: root)
            #expect(find(root: root)?.path == root + path)
        }
        let nix = try home.write(Self.pem, to: "nix/store/abc-nss-cacert/ca-bundle.crt")
        #expect(
            find(root: root, ["NIX_SSL_CERT_FILE": nix])
                == SystemTrustStore(path: nix, kind: .bundle, origin: "NIX_SSL_CERT_FILE"))
        // A NIX_SSL_CERT_FILE that names nothing readable is passed over, not an error.
        #expect(
            find(root: root, ["NIX_SSL_CERT_FILE": home.root.path + "/nowhere.crt"])?.path
                == root + "/etc/ssl/certs/ca-certificates.crt")
    }

    @Test("an empty bundle or a folder in a bundle's place is passed over")
    func emptyBundle() throws {
        let root = try makeRoot()
        try place("", at: "/etc/ssl/certs/ca-certificates.crt", in: root)
        try FileManager.default.createDirectory(atPath: root + "/etc/ssl/cert.pem", withIntermediateDirectories: true)
        try place(at: "/etc/ssl/ca-bundle.pem", in: root)
        #expect(find(root: root)?.path == root + "/etc/ssl/ca-bundle.pem")
    }

    @Test("a hashed certificate folder is the last resort; a folder without hash names is not one")
    func hashedFolder() throws {
        let root = try makeRoot()
        try place(at: "/etc/ssl/certs/README", in: root)
        try place(at: "/etc/ssl/certs/ca.pem", in: root)
        #expect(find(root: root) == nil)
        try place(at: "/etc/pki/tls/certs/5ed36f99.0", in: root)
        #expect(
            find(root: root)
                == SystemTrustStore(
                    path: root + "/etc/pki/tls/certs", kind: .folder, origin: "hashed certificate folder"))
        try place(at: "/etc/ssl/certs/a94d09e5.1", in: root)
        #expect(find(root: root)?.path == root + "/etc/ssl/certs")
        try place(at: "/etc/ssl/cert.pem", in: root)
        #expect(find(root: root)?.kind == .bundle)
    }

    @Test("hash names: eight lower-case hexadecimal digits, a dot, a number")
    func hashNames() {
        for name in ["5ed36f99.0", "a94d09e5.12"] { #expect(SystemTrustStore.isHashName(name), "\(name)") }
        for name in ["5ed36f99", "5ED36F99.0", "5ed36f9.0", "5ed36f99.r0", "5ed36f99.", "ca-certificates.crt"] {
            #expect(!SystemTrustStore.isHashName(name), "\(name)")
        }
    }

    @Test("an empty root: nothing found")
    func emptyRoot() throws {
        #expect(find(root: try makeRoot()) == nil)
    }

    @Test("looked up once per run: every service resolved after the first trusts what the first found")
    func oncePerRun() throws {
        let root = try makeRoot()
        try place(at: "/etc/ssl/certs/ca-certificates.crt", in: root)
        let context = Context(environment: ["PASTE_TEST_SYSTEM_ROOT": root])
        let resolve = { (context: Context) throws in
            try ConnectionPolicy.resolve(service: ConnectionSettings(), paste: ConnectionSettings(), context: context)
        }
        let first = try resolve(context)
        #expect(first.trust.file == root + "/etc/ssl/certs/ca-certificates.crt")
        // The places change during the run: the run's services keep the store it found.
        try FileManager.default.removeItem(atPath: root + "/etc/ssl/certs/ca-certificates.crt")
        try place(at: "/etc/pki/tls/certs/ca-bundle.crt", in: root)
        #expect(try resolve(context).trust == first.trust)
        // The next run looks again.
        #expect(
            try resolve(Context(environment: ["PASTE_TEST_SYSTEM_ROOT": root])).trust.file
                == root + "/etc/pki/tls/certs/ca-bundle.crt")
    }

    // MARK: - In words

    @Test("-v's trust line names the bundle or folder and what chose it")
    func summaries() throws {
        var policy = ConnectionPolicy()
        policy.trust = .system(
            SystemTrustStore(
                path: "/etc/pki/tls/certs/ca-bundle.crt", kind: .bundle, origin: "Fedora/RHEL/CentOS layout"))
        #expect(
            policy.trustSummary == "/etc/pki/tls/certs/ca-bundle.crt (the system bundle, Fedora/RHEL/CentOS layout)")
        policy.trust = .system(SystemTrustStore(path: "/n/ca.crt", kind: .bundle, origin: "NIX_SSL_CERT_FILE"))
        #expect(policy.trustSummary == "/n/ca.crt (the system bundle, from NIX_SSL_CERT_FILE)")
        policy.trust = .system(
            SystemTrustStore(path: "/etc/ssl/certs", kind: .folder, origin: "hashed certificate folder"))
        #expect(policy.trustSummary == "/etc/ssl/certs (the system's hashed certificate folder, no bundle found)")
        policy.trust = .system(nil)
        #expect(
            policy.trustSummary
                == "nothing (no system CA bundle or hashed certificate folder found; "
                + "no ca-file, CURL_CA_BUNDLE, SSL_CERT_FILE or SSL_CERT_DIR is set)")
        policy.trust = .custom(file: "/a.pem", folder: "/certs")
        policy.trustSource = .config(key: "ca-file", path: "/cfg", line: 3)
        #expect(policy.trustSummary == "/a.pem and /certs (ca-file and ca-path, /cfg:3)")
        policy.trust = .custom(file: "/a.pem", folder: nil)
        policy.trustSource = .environment(used: ["CURL_CA_BUNDLE"], overridden: "SSL_CERT_FILE")
        #expect(policy.trustSummary == "/a.pem (CURL_CA_BUNDLE, which overrides SSL_CERT_FILE)")
    }

    @Test("the system's store resolves to libcurl's file or folder; none found gives libcurl none")
    func locations() {
        let bundle = ConnectionPolicy.Trust.system(SystemTrustStore(path: "/b.pem", kind: .bundle, origin: "x"))
        #expect(bundle.file == "/b.pem" && bundle.folder == nil)
        let folder = ConnectionPolicy.Trust.system(SystemTrustStore(path: "/certs", kind: .folder, origin: "x"))
        #expect(folder.file == nil && folder.folder == "/certs")
        #expect(ConnectionPolicy.Trust.system(nil).file == nil && ConnectionPolicy.Trust.system(nil).folder == nil)
    }
}
