import Foundation

extension Xvfb {
    /// The processes of the built `paste` (resolved through its links) whose environment names
    /// this display: after a run, its clipboard owners, spawned or forked.
    ///
    /// Read from `/proc`: each process's `exe` link and its `environ` (a process of another user
    /// or gone meanwhile is passed over).
    public func pasteProcesses() -> [Int32] {
        let ours = URL(fileURLWithPath: BuiltProducts.path(of: "paste")).resolvingSymlinksInPath().path
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.filter { pid in
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == ours,
                let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
            else { return false }
            return String(decoding: environment, as: UTF8.self).split(separator: "\0").contains(
                "DISPLAY=\(display)"[...])
        }
    }
}
