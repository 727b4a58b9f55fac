import Foundation

/// Finds the executables this package built, next to the running test bundle.
///
/// `swift build` and `swift test` put products and the test bundle in the same folder
/// (`.build/debug` or `.build/release`), so the folder of `/proc/self/exe`'s bundle is where
/// `paste` and `paste-mock` are. `PASTE_BUILT_PRODUCTS` overrides it.
public enum BuiltProducts {
    /// The folder holding the built executables.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["PASTE_BUILT_PRODUCTS"] {
            return URL(fileURLWithPath: override)
        }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // Walk up out of `X.xctest/...` (the bundle may be a folder on some platforms).
        while url.path != "/" {
            if url.lastPathComponent.hasSuffix(".xctest") {
                return url.deletingLastPathComponent()
            }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The path of a built executable (`paste`, `paste-mock`).
    public static func path(of name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
