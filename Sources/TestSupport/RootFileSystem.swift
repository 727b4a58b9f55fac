import Foundation

/// Runs a program of another Debian system, a root file system unpacked on this one (the sid
/// desktops' root that scripts/test-desktops-sid makes and caches), as `chroot` would, with this
/// system's `/tmp` shared: the runtime folders, sockets and X sockets a test and the root's
/// compositor both use live there, at the same paths for both.
///
/// Each command runs in a mount namespace of its own (`unshare --mount`, private propagation),
/// set up by `scripts/enter-root` (the one implementation, scripts/bench's too): the root bound
/// read-only onto itself (a run cannot change the cached root), `/dev`, `/proc`, `/sys` and
/// `/tmp` of this system, and fresh `/run` and `/var/tmp`. The mounts exist only in that
/// namespace and end with its last process: nothing is left mounted, however a test ends. The
/// command replaces the shell (`exec`) at each step, so the process a test started is the
/// program itself: signals reach it, and it is what exits.
public enum RootFileSystem {
    /// The environment variable naming the sid desktops' root (set by scripts/test-desktops-sid).
    public static let sidVariable = "PASTE_SID_ROOT"

    /// The sid desktops' root, when this run has one.
    public static var sid: String? {
        guard let root = ProcessInfo.processInfo.environment[sidVariable], !root.isEmpty else { return nil }
        return root
    }

    /// The script that sets up the namespace and enters the root (its first argument), then
    /// runs the rest: this checkout's `scripts/enter-root`.
    static var enterRoot: String { ServerProcess.packageRoot.appendingPathComponent("scripts/enter-root").path }

    /// `command(_:in:)` as one line for `sh`, each word single-quoted (for a stand-in script).
    public static func shellLine(_ command: [String], in root: String?) -> String {
        Self.command(command, in: root).map { "'" + $0.replacing("'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    /// `command` as run inside `root`, or unchanged for nil (this system).
    public static func command(_ command: [String], in root: String?) -> [String] {
        guard let root else { return command }
        return ["/usr/bin/unshare", "--mount", "--propagation", "private", enterRoot, root] + command
    }
}
