import Foundation
import PasteCore
import Stores
import TestSupport

/// A suite whose tests each work on an outbox in a temporary home of their own (the suite has
/// the `.temporaryHome` trait): its folder, an outbox there whose jitter is fixed (the random
/// number is always one half), and the folder's files.
protocol OutboxInAHome: ScopedSuite {}

extension OutboxInAHome {
    /// `$XDG_STATE_HOME/paste/outbox` of the test's home.
    var folder: String { home.stateHome.appendingPathComponent("paste/outbox").path }

    /// The outbox in `folder`.
    var outbox: Outbox { Outbox(folder: folder, policy: OutboxPolicy(random: { 0.5 })) }

    /// The names in `folder`, sorted.
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }
}
