import Synchronization
import SystemInterop

/// The system's own certificate authorities, found where the distribution keeps them.
///
/// The libcurl paste links knows one place (Debian's, where it was built), so on Fedora, RHEL,
/// openSUSE, Alpine or NixOS every https paste failed until the person set `ca-file`. When no
/// `ca-file`/`ca-path`, `CURL_CA_BUNDLE`, `SSL_CERT_FILE` or `SSL_CERT_DIR` names the CAs,
/// `find(context:)` looks, in this order (paste(1) ENVIRONMENT and paste-config(5) say it too):
/// 1. the file `NIX_SSL_CERT_FILE` names (Nix and NixOS set it);
/// 2. the bundles of `bundles`, the first readable and not empty: Debian's first, then
///    Fedora/RHEL's, openSUSE's, Alpine's, the Nix profile's (the list of Go's
///    crypto/x509 `root_linux.go`, and Nix's own default);
/// 3. the first folder of `folders` holding a hashed certificate (`openssl rehash`), as the
///    last resort: OpenSSL finds a CA there by the hash of its name.
/// The bundle wins over a folder: it is the one file every family keeps up to date
/// (update-ca-certificates, update-ca-trust, p11-kit).
public struct SystemTrustStore: Sendable, Equatable {
    /// What kind of store was found.
    public enum Kind: Sendable, Equatable {
        /// A PEM file of CA certificates (libcurl's `CURLOPT_CAINFO`).
        case bundle
        /// A folder of certificates under their hash names (libcurl's `CURLOPT_CAPATH`).
        case folder
    }

    /// The bundle or folder, as it is opened (under the lookup's root).
    public var path: String
    /// Whether `path` is a bundle or a folder.
    public var kind: Kind
    /// Why this one: the layout whose place it is (`Fedora/RHEL/CentOS layout`), or the
    /// variable that named it (`NIX_SSL_CERT_FILE`).
    public var origin: String

    /// Makes a description of a store.
    public init(path: String, kind: Kind, origin: String) {
        self.path = path
        self.kind = kind
        self.origin = origin
    }

    /// The variable Nix and NixOS set to the system bundle (nixpkgs' cacert setup hook, the
    /// NixOS `security.pki` module); Nix's own downloads read it first.
    public static let nixVariable = "NIX_SSL_CERT_FILE"

    /// The bundles each family keeps, in the order they are tried, with the layout each stands
    /// for. NixOS also links the first two to its own bundle.
    public static let bundles: [(path: String, layout: String)] = [
        // ca-certificates' update-ca-certificates (Debian, Ubuntu, Gentoo), p11-kit's extract
        // on Arch, and NixOS.
        ("/etc/ssl/certs/ca-certificates.crt", "Debian/Ubuntu/Arch/Gentoo layout"),
        // update-ca-trust's link to the extracted bundle, and the extract itself.
        ("/etc/pki/tls/certs/ca-bundle.crt", "Fedora/RHEL/CentOS layout"),
        ("/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "Fedora/RHEL/CentOS layout"),
        ("/etc/ssl/ca-bundle.pem", "openSUSE/SLES layout"),
        ("/etc/ssl/cert.pem", "Alpine layout"),
        ("/etc/pki/tls/cacert.pem", "OpenELEC layout"),
        // Nix installed on another system (Nix's own default after the Debian path).
        ("/nix/var/nix/profiles/default/etc/ssl/certs/ca-bundle.crt", "Nix profile layout"),
    ]

    /// The folders of hashed certificates tried when no bundle is found.
    public static let folders = ["/etc/ssl/certs", "/etc/pki/tls/certs"]

    /// Finds the system's store, or nil when none of the places holds one.
    ///
    /// The bundles and folders are looked up under `context.systemRoot` (`/`; tests move it);
    /// `NIX_SSL_CERT_FILE` names its file whole. A file is taken when one byte of it can be
    /// read (a bundle is 200 KB: libcurl reads it, once per connection); a folder when it
    /// holds a name of the `openssl rehash` form (`5ed36f99.0`).
    public static func find(context: Context) -> SystemTrustStore? {
        if let named = context.nonEmpty(nixVariable), hasContent(named) {
            return SystemTrustStore(path: named, kind: .bundle, origin: nixVariable)
        }
        let root = context.systemRoot.hasSuffix("/") ? String(context.systemRoot.dropLast()) : context.systemRoot
        for (path, layout) in bundles where hasContent(root + path) {
            return SystemTrustStore(path: root + path, kind: .bundle, origin: layout)
        }
        for path in folders where holdsHashedCertificate(root + path) {
            return SystemTrustStore(path: root + path, kind: .folder, origin: "hashed certificate folder")
        }
        return nil
    }

    /// The store `find` chose, kept for the rest of the run: every service a run resolves (its
    /// own, the fallbacks, the image service, each `--retry` entry's) trusts the same store, so
    /// the places are looked up once, not once per service. `Context.systemTrust` holds it.
    public final class Lookup: Sendable {
        /// What the lookup depended on, and what it found.
        private let found = Mutex<(root: String, nixFile: String?, store: SystemTrustStore?)?>(nil)

        /// Nothing looked up yet.
        public init() {}

        /// The system's store: `find(context:)` the first time, the same answer after that.
        /// A context whose root or `NIX_SSL_CERT_FILE` differs (a test's) looks again.
        public func store(context: Context) -> SystemTrustStore? {
            let root = context.systemRoot
            let nixFile = context.nonEmpty(SystemTrustStore.nixVariable)
            return found.withLock { memo in
                if let memo, memo.root == root, memo.nixFile == nixFile { return memo.store }
                let store = SystemTrustStore.find(context: context)
                memo = (root, nixFile, store)
                return store
            }
        }
    }

    /// Whether `path` opens as a file and has at least one byte (a folder does not read).
    static func hasContent(_ path: String) -> Bool {
        guard let first = try? FileDescriptor.open(path, .readOnly).read(upTo: 1) else { return false }
        return !first.isEmpty
    }

    /// Whether a folder holds a certificate under its subject's hash: eight hexadecimal digits,
    /// a dot and a number (`openssl rehash`, or c_rehash before it).
    static func holdsHashedCertificate(_ path: String) -> Bool {
        guard let names = try? FileSystem.entries(ofDirectory: path) else { return false }
        return names.contains(where: isHashName)
    }

    /// Whether a name has the `openssl rehash` form of a certificate's link: `5ed36f99.0`.
    static func isHashName(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 8, !parts[1].isEmpty else { return false }
        return parts[0].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
            && parts[1].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
