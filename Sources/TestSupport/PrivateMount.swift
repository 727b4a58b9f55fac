import Foundation

/// A private mount namespace for a test's own mounts (a read-only bind mount, a full tmpfs),
/// gone with the process: `unshare --mount` where the process may mount (root with
/// CAP_SYS_ADMIN, as in CI's container), else `unshare --mount --map-root-user` (an unprivileged
/// user namespace, where the kernel allows one).
///
/// Where neither works, a test that needs one fails and says why: it is never skipped.
public enum PrivateMount {
    /// `unshare`'s options before the command, or nil where no namespace can mount here.
    public static let unshareOptions: [String]? = {
        for options in [["--mount"], ["--mount", "--map-root-user"]] {
            let probe = try? runProcess(
                "/usr/bin/unshare", options + ["sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"], timeout: 10)
            if probe?.status == 0 { return options }
        }
        return nil
    }()

    /// Why a test that needs a private mount cannot run here.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String {
            "no private mount namespace here: 'unshare --mount' (root with CAP_SYS_ADMIN) and "
                + "'unshare --mount --map-root-user' (user namespaces) both failed to mount a tmpfs"
        }
    }

    /// `unshare` with its options, then `arguments`.
    ///
    /// - Throws: `Unavailable` where no namespace can mount here.
    public static func arguments(_ arguments: [String]) throws -> [String] {
        guard let options = unshareOptions else { throw Unavailable() }
        return options + arguments
    }
}
