// swift-tools-version:6.2
//
// The paste suite: upload the X11 clipboard (or stdin, or files) to a pastebin and put the URL
// back on the clipboard. See README.md and ../shared/DESIGN.md for the parts and their arrows:
//
//   PasteCLI -> {PasteCore, Upload, Clipboard, Alerts}
//   Upload -> {PasteCore, CurlInterop, CryptoInterop};  Clipboard -> X11Interop;  Alerts -> X11Interop
//   CryptoInterop -> CCrypto (libcrypto's SHA-256, for streams)
//   CurlInterop -> CCurlShims -> CCurl;  X11Interop -> CX11Shims -> {CX11, CXft}
//   PasteCore imports none of our modules; paste-mock imports none.

import PackageDescription

/// Settings for every Swift target that is not an `…Interop` module: Swift 6 mode and strict
/// memory safety, so unsafe code can only live in the interop layers.
let safeSwift: [SwiftSetting] = [.strictMemorySafety()]

let package = Package(
    name: "paste",
    products: [
        .executable(name: "paste", targets: ["paste"]),
        .executable(name: "paste-mock", targets: ["paste-mock"]),
    ],
    targets: [
        // MARK: - System libraries (Debian -dev packages through pkg-config)
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CX11", pkgConfig: "x11",
            providers: [.apt(["libx11-dev"])]),
        .systemLibrary(
            name: "CXft", pkgConfig: "xft",
            providers: [.apt(["libxft-dev", "libfontconfig-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),

        // MARK: - C shims: only what Swift cannot call directly
        .target(name: "CCurlShims", dependencies: ["CCurl"]),
        .target(name: "CX11Shims", dependencies: ["CX11", "CXft"]),

        // MARK: - Interop: the only Swift that touches C pointers
        .target(name: "CurlInterop", dependencies: ["CCurlShims"]),
        .target(name: "X11Interop", dependencies: ["CX11Shims"]),
        .target(name: "CryptoInterop", dependencies: ["CCrypto"]),

        // MARK: - Plain Swift
        .target(name: "PasteCore", swiftSettings: safeSwift),
        .target(name: "Upload", dependencies: ["PasteCore", "CurlInterop", "CryptoInterop"], swiftSettings: safeSwift),
        .target(name: "Clipboard", dependencies: ["X11Interop"], swiftSettings: safeSwift),
        .target(name: "Alerts", dependencies: ["X11Interop"], swiftSettings: safeSwift),
        .target(
            name: "PasteCLI",
            dependencies: ["PasteCore", "Upload", "Clipboard", "Alerts"],
            swiftSettings: safeSwift),

        // MARK: - Executables
        .executableTarget(name: "paste", dependencies: ["PasteCLI"], swiftSettings: safeSwift),
        // The mock pastebin shares no code with the client: a shared encoder would hide its bugs.
        .executableTarget(name: "paste-mock"),

        // MARK: - Tests
        .target(name: "TestSupport", path: "Sources/TestSupport"),
        .testTarget(
            name: "PasteCoreTests", dependencies: ["PasteCore", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "UploadTests", dependencies: ["Upload", "PasteCore", "TestSupport"]),
        .testTarget(name: "ClipboardTests", dependencies: ["Clipboard", "X11Interop", "TestSupport"]),
        .testTarget(name: "AlertsTests", dependencies: ["Alerts", "TestSupport"]),
        .testTarget(name: "PasteMockTests", dependencies: ["TestSupport"]),
        .testTarget(
            name: "PasteCLITests", dependencies: ["PasteCLI", "PasteCore", "TestSupport"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
