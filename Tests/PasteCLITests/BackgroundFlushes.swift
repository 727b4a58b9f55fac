import Foundation

extension PasteRunner {
    /// The process ids of the background flushes (`paste --internal-outbox-flush`) running in
    /// this runner's home: found in `/proc` by their command line and their `XDG_STATE_HOME`,
    /// since a flush lives in a session of its own and no test process is its parent.
    func backgroundFlushes() -> [Int32] {
        let stateHome = Data(("XDG_STATE_HOME=" + home.stateHome.path).utf8)
        let marker = Data("--internal-outbox-flush".utf8)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> Int32? in
            guard let pid = Int32(name),
                let command = FileManager.default.contents(atPath: "/proc/\(name)/cmdline"),
                command.range(of: marker) != nil,
                let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ")
            else { return nil }
            // Each variable ends with a NUL: the value is this home's, not one starting with it.
            let isOurs = environment.split(separator: 0).contains { Data($0) == stateHome }
            return isOurs ? pid : nil
        }
    }
}
