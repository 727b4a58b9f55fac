import Foundation
import Testing
import TestSupport

/// What the suites on a compositor share (sway's, KDE's and GNOME's): paste run in the
/// compositor's session with nothing on `PATH` (so no wl-paste or wl-copy can run), its output
/// checked exactly.
protocol CompositorSuite: ScopedSuite {
    /// `base` with the compositor's session added: `WAYLAND_DISPLAY`, and `DISPLAY` (with
    /// `XAUTHORITY` where the compositor has one) when `withX`.
    func sessionEnvironment(_ base: [String: String], withX: Bool) -> [String: String]
}

extension CompositorSuite {
    /// paste's environment in the compositor's session: `WAYLAND_DISPLAY`, and `DISPLAY` when
    /// `withX`; a `PATH` with nothing on it.
    func environment(withX: Bool) -> [String: String] {
        sessionEnvironment(home.environment(["PATH": "/nonexistent", "NO_COLOR": "1"]), withX: withX)
    }

    func paste(_ arguments: [String], withX: Bool) throws -> ProcessResult {
        try runProcess(
            BuiltProducts.path(of: "paste"), arguments, input: .null, environment: environment(withX: withX),
            timeout: 60)
    }

    /// The URL the run printed, checked to be the only stdout and stderr empty, status 0 (the
    /// mock's pastie route answers /pastes/N).
    func expectURL(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(result.status == 0, "stderr: \(result.err)", sourceLocation: sourceLocation)
        #expect(result.err == "", sourceLocation: sourceLocation)
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(result.out == url + "\n", sourceLocation: sourceLocation)
        #expect(url.hasPrefix(mock.url("/pastes/")), "\(url)", sourceLocation: sourceLocation)
        return url
    }
}
