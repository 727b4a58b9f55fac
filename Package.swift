// swift-tools-version:6.2
//
// The paste suite: upload the X11 clipboard (or stdin, or files) to a pastebin and put the URL
// back on the clipboard. See README.md and ../shared/DESIGN.md for the parts and their arrows:
//
//   paste (main.swift) -> {PasteCLI, SystemInterop}
//   PasteCLI -> {PasteCore, Stores, Requests, SecretGuard, ShareX, Upload, Clipboard, Alerts, Notify,
//   QRInterop, SystemInterop}; inside it a run is argv -> Invocation (the OptionID table) -> PlanResolver ->
//   RunPlan -> the stages of Sources/PasteCLI/Pipeline (read, guard, build, send, extract, record,
//   deliver; --retry enters at send)
//   Upload -> {PasteCore, SecretGuard (the stream's secret inspector), CurlInterop,
//   CryptoInterop, SystemInterop};  Alerts -> {PasteErrors (its AlertError is a PasteError), X11Interop
//   (internal import: no X11 type in its API)}
//   SecretGuard -> {PasteCore (its error protocol), SystemInterop (a file read in chunks),
//   SecretScanInterop (the candidate search)};  SecretScanInterop -> CSecretScan
//   ShareX -> {PasteCore, SystemInterop};  PasteCore takes ShareX's loader as a closure
//   (`ShareXLoader`) from PasteCLI, and the secret inspector from its callers
//   Stores -> {PasteCore, CryptoInterop (the SHA-256 of texts, ids and repeat keys), SystemInterop}:
//   the outbox (entries, claims, recovery, listing), history, atomic files and file locks
//   Requests -> {PasteCore, SystemInterop}: a profile, the content and the options -> an
//   UploadRequest (RequestBuilder, PrivateBin's sealing); an answer -> a URL (ResultExtractor)
//   Clipboard -> {PasteErrors (its ClipboardError is a PasteError), X11Interop, WaylandInterop, SystemInterop}
//   PasteCore -> {PasteErrors (re-exported), SystemInterop (files, locks)} only; its folders: Config, Services,
//   RequestDescription (UploadRequest, content checks), Outbox (the failure table, the pacing),
//   Templates (the template language) and Formats (JSON, XML paths, media types, URLs, patterns,
//   Base58, hexadecimal); it computes no digest
//   PasteErrors -> nothing: at the bottom, what every module's errors conform to where they are born
//   (PasteError, ExitStatus, Disposition, PartError), the Sanitizer their messages show values
//   through and ByteCount (issue 46, item 5: new arrows from Alerts and Clipboard)
//   Notify -> DBusInterop -> {CDBusShims -> CDBus, SystemInterop};  QRInterop -> CQRencode (dlopen)
//   CryptoInterop -> {CCrypto, CZlib} (libcrypto's SHA-256, paste's only one: streams, and the
//   stores' digests; PrivateBin's AES-GCM, PBKDF2 and raw deflate)
//   CurlInterop -> {CCurlShims -> CCurl, SystemInterop (TeeWriter, descriptors)}
//   WaylandInterop -> {CWaylandProtocols (paste's own Wayland wire client), SystemInterop}
//   X11Interop -> {CX11Shims -> {CX11, CXft}, CPng, CJpeg, CGif, CWebP, SystemInterop (its poll
//   loop)};  SystemInterop -> CSystemShims (+ Glibc)
//   paste-mock imports none of our modules (only CCrypto, libcrypto's header, for its SHA-256).
//   paste and paste-mock link CGlibcFloor without importing it (glibc's newest symbols of our
//   own, so the binaries load on glibc 2.34).

import PackageDescription

/// Concrete generic types (`[String: String]`, `Result<…>`) reach their metadata through direct
/// accessor calls rather than by demangling their names at run time, the compiler's default to
/// save code size: that demangling was over a third of paste's own time on a hotkey press
/// (`perf record`; `paste --version` 3.5 -> 2.7 ms of CPU). Applied to every target of the client.
/// With it, `-function-sections`: each function in a section of its own, so that the linker can
/// place the functions a run executes side by side (`linkOrder` below).
let directMetadata: SwiftSetting = .unsafeFlags([
    "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors", "-Xfrontend", "-function-sections",
])

/// Settings for every Swift target that is not an `…Interop` module: Swift 6 mode and strict
/// memory safety, so unsafe code can only live in the interop layers (and direct metadata).
let safeSwift: [SwiftSetting] = [.strictMemorySafety(), directMetadata]

/// The modules every byte of the tests' 8-64 MiB streams goes through, optimised in debug builds
/// too: the secret guard (its scanners and line counter), PasteCore (the media-type sniff, the
/// UTF-8 validator and inspector, JSON escaping), Upload and CurlInterop (the body reader and its
/// encodings), SystemInterop (reads, writes, the tee), and paste-mock (below). Unoptimised, they
/// were the test suite's largest CPU cost, in the debug `paste` children the end-to-end tests run
/// (`perf record` of StreamGuardTests: `LineCounter.count` alone a fifth of it; then
/// `MediaType.isUTF8Text` a third of paste's samples, `JSONText.appendEscaped` a quarter in
/// HostileInputTests). Release builds are unchanged; `-enable-testing` still applies, so
/// `@testable` imports work.
let optimizedInDebug: SwiftSetting = .unsafeFlags(["-O"], .when(configuration: .debug))

/// How the C libraries are linked: libcurl (with libcrypto) and Xlib (with Xft).
///
/// Static by default, from Debian's own archives (libcurl.a from libcurl4-openssl-dev, libX11.a
/// from libx11-dev, and the archives of the libraries they need). Loading the shared libcurl
/// means loading 35 more shared libraries and resolving their symbols, and Xft brings ten more:
/// that was most of a hotkey run (`scripts/bench`, README "Performance"). The LDAP, RTMP and
/// GSS-API entry points libcurl.a names are answered by Sources/CCurlShims/ccurl_trimmed.c,
/// since paste only ever allows http and https. Statically linked libraries do not pick up
/// Debian's security updates until paste is built again: run `scripts/install` again after an
/// update of libcurl or OpenSSL, or build with `PASTE_LINK=dynamic` to link the shared
/// libraries as usual (what a distribution package would do).
let linkDynamically = Context.environment["PASTE_LINK"] == "dynamic"

/// Links the named archives (`libNAME.a`), as one group so they may refer to each other in any
/// order; `-l:libNAME.a` takes the archive even where a shared library of that name exists.
func staticArchives(_ names: [String]) -> LinkerSetting {
    .unsafeFlags(
        ["-Xlinker", "--start-group"] + names.flatMap { ["-Xlinker", "-l:lib\($0).a"] } + ["-Xlinker", "--end-group"])
}
let curlLinking: [LinkerSetting] =
    linkDynamically
    ? [.linkedLibrary("curl"), .linkedLibrary("crypto"), .linkedLibrary("z")]
    : [
        staticArchives([
            "curl", "nghttp2", "idn2", "unistring", "ssh2", "psl", "ssl", "crypto", "zstd", "brotlidec",
            "brotlicommon", "z",
        ])
    ]
/// How CryptoInterop's libraries are linked: libcrypto and zlib, static like libcurl (whose group
/// names them too, for the binaries that send); declared here as well for the ones that link no
/// libcurl but keep the stores, whose ids are libcrypto's SHA-256 (store-exerciser).
let cryptoLinking: [LinkerSetting] =
    linkDynamically ? [.linkedLibrary("crypto"), .linkedLibrary("z")] : [staticArchives(["crypto", "z"])]
/// In static builds the C++ runtime that the Swift runtime needs is linked statically too:
/// `link/static-libstdc++` holds a linker script named `libstdc++.so` that stands for the
/// archive, and comes first on the library path. Loading the shared one cost 0.5 ms at every
/// start (`hyperfine -N`: a C hello world with and without it, 0.7 and 1.2 ms).
let staticCxxRuntime: [LinkerSetting] =
    linkDynamically ? [] : [.unsafeFlags(["-L", Context.packageDirectory + "/link/static-libstdc++"])]
/// paste's dynamic symbol table holds only what must be there (`link/paste.exports`: `main` and
/// glibc's `_IO_stdin_used`), not the ~5,900 Swift symbols swiftc's `-export-dynamic` exports:
/// a smaller table to load, and the Swift backtracer's `dladdr` at start-up no longer walks it
/// (issue 44: `paste --version` 2.00 -> 1.78 million instructions, valgrind's count).
let leanExports: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--version-script=" + Context.packageDirectory + "/link/paste.exports"])
]
/// paste is linked by lld, in the order of `link/paste.order`: the functions a hotkey run, a dry
/// run and `--version` execute (recorded with callgrind by `scripts/link-order`) come first in
/// `.text`, side by side, instead of scattered over 18 MB among the ones the run never calls.
/// The kernel maps a binary's code 64 KiB at a time around each page fault, so fewer faults
/// bring in what a run needs (docs/performance.md, "A lean start"). The order only moves code:
/// a name the file lists that no longer exists is skipped, a function it does not list is placed
/// after the ones it does (`--no-warn-symbol-ordering`); a stale file costs speed, never
/// correctness. Gold, swiftc's default here, can order only sections named in its file, and
/// Debian's archives (OpenSSL, libcurl, Xlib) are not built with a section per function; lld
/// moves the section holding each name, so their files' code comes along.
let linkOrder: [LinkerSetting] = [
    .unsafeFlags([
        "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/link/paste.order",
        "-Xlinker", "--no-warn-symbol-ordering",
    ])
]
let curlShimSettings: [CSetting] = linkDynamically ? [.define("PASTE_LINK_DYNAMIC")] : []
let x11Linking: [LinkerSetting] =
    linkDynamically
    ? ["X11", "Xft", "Xrender", "fontconfig", "png16"].map { .linkedLibrary($0) }
    : [
        staticArchives([
            "Xft", "Xrender", "X11", "xcb", "Xau", "Xdmcp", "fontconfig", "freetype", "expat", "png16", "brotlidec",
            "brotlicommon", "z",
        ]), .linkedLibrary("m"),
    ]
/// How the image libraries of the thumbnails are linked (`ImageDecoder`): libjpeg-turbo's
/// TurboJPEG, giflib and libwebp, from their Debian archives (libpng is in `x11Linking`: FreeType
/// needs it too). Static, like the others: three more shared libraries cost every start.
let imageLinking: [LinkerSetting] =
    linkDynamically
    ? ["turbojpeg", "gif", "webp"].map { .linkedLibrary($0) }
    : [staticArchives(["turbojpeg", "gif", "webp"])]
/// How libdbus is linked: Debian's static libdbus-1.a by default (it names two libsystemd
/// functions, answered by Sources/CDBusShims/cdbus_trimmed.c), the shared one with
/// PASTE_LINK=dynamic. sd-bus would have been the other choice, but Debian ships libsystemd only
/// as a shared library, and it loads six more at every start (libcap, libgcrypt, lzma, zstd…).
let dbusLinking: [LinkerSetting] = linkDynamically ? [.linkedLibrary("dbus-1")] : [staticArchives(["dbus-1"])]
let dbusShimSettings: [CSetting] = linkDynamically ? [.define("PASTE_LINK_DYNAMIC")] : []
/// libdbus's headers live in their own folders (`pkg-config --cflags dbus-1`): the common one and
/// the architecture's, for dbus-arch-deps.h (both Debian multiarch names are given).
let dbusHeaders = [
    "/usr/include/dbus-1.0", "/usr/lib/x86_64-linux-gnu/dbus-1.0/include",
    "/usr/lib/aarch64-linux-gnu/dbus-1.0/include",
]
/// Xft's header includes FreeType's, which lives in its own folder (`pkg-config --cflags xft`).
let freetypeHeaders = "/usr/include/freetype2"

let package = Package(
    name: "paste",
    products: [
        .executable(name: "paste", targets: ["paste"]),
        .executable(name: "paste-mock", targets: ["paste-mock"]),
    ],
    targets: [
        // MARK: - System libraries (Debian -dev packages through pkg-config)
        // These give headers only; how the libraries are linked is `curlLinking`/`x11Linking` above.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CX11",
            providers: [.apt(["libx11-dev"])]),
        .systemLibrary(
            name: "CXft",
            providers: [.apt(["libxft-dev", "libfontconfig-dev"])]),
        // libpng, for the notification's thumbnail of an uploaded image (linked in `x11Linking`).
        .systemLibrary(
            name: "CPng",
            providers: [.apt(["libpng-dev"])]),
        // libjpeg-turbo's TurboJPEG, giflib and libwebp: thumbnails of JPEG, GIF and WebP images
        // (linked in `imageLinking`).
        .systemLibrary(
            name: "CJpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CGif",
            providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CWebP",
            providers: [.apt(["libwebp-dev"])]),
        // libdbus, for desktop notifications on the session bus (linked in `dbusLinking`).
        .systemLibrary(
            name: "CDBus",
            providers: [.apt(["libdbus-1-dev"])]),
        // libqrencode's header only: QRInterop opens the library with dlopen for --qr.
        .systemLibrary(
            name: "CQRencode",
            providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(
            name: "CCrypto",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]),

        // MARK: - C shims: only what Swift cannot call directly
        .target(
            name: "CCurlShims", dependencies: ["CCurl"], cSettings: curlShimSettings, linkerSettings: curlLinking),
        .target(
            name: "CX11Shims", dependencies: ["CX11", "CXft"], cSettings: [.unsafeFlags(["-I", freetypeHeaders])],
            linkerSettings: x11Linking),
        // paste's own Wayland wire client (cwayland_wire.h): the framing of the few messages the
        // data-control clipboard speaks, with no libwayland-client (nor libffi) to load.
        .target(name: "CWaylandProtocols"),
        .target(
            name: "CDBusShims", dependencies: ["CDBus"],
            cSettings: dbusShimSettings + [.unsafeFlags(dbusHeaders.flatMap { ["-I", $0] })],
            linkerSettings: dbusLinking),
        // glibc's GNU extensions (O_DIRECT, POSIX_SPAWN_SETSID), mallopt and a counting signal handler.
        .target(name: "CSystemShims"),
        // The secret guard's candidate search (the pair table, the triggers' first bytes and
        // shapes): a kernel, not a shim, the guard's inner loop without bounds checks
        // (csecret_scan.h says why).
        .target(name: "CSecretScan"),
        // glibc 2.34 as the oldest that loads the binaries: arc4random, arc4random_buf, hypotf and
        // hypot defined here for the static archives built on a newer glibc (cglibc_floor.h says why).
        .target(name: "CGlibcFloor", cSettings: linkDynamically ? [.define("PASTE_LINK_DYNAMIC")] : []),

        // MARK: - Interop: the only Swift that touches C pointers
        // POSIX the way apple/swift-system does it: descriptors, errno, processes, signals.
        .target(
            name: "SystemInterop", dependencies: ["CSystemShims"], swiftSettings: [directMetadata, optimizedInDebug]),
        .target(
            name: "CurlInterop", dependencies: ["CCurlShims", "SystemInterop"],
            swiftSettings: [directMetadata, optimizedInDebug]),
        .target(
            name: "X11Interop", dependencies: ["CX11Shims", "CPng", "CJpeg", "CGif", "CWebP", "SystemInterop"],
            swiftSettings: [.unsafeFlags(["-Xcc", "-I", "-Xcc", freetypeHeaders]), directMetadata],
            linkerSettings: imageLinking),
        .target(
            name: "CryptoInterop", dependencies: ["CCrypto", "CZlib"], swiftSettings: [directMetadata],
            linkerSettings: cryptoLinking),
        .target(
            name: "WaylandInterop", dependencies: ["CWaylandProtocols", "SystemInterop"],
            swiftSettings: [directMetadata]),
        .target(name: "QRInterop", dependencies: ["CQRencode"], swiftSettings: [directMetadata]),
        // The secret guard's candidate search, CSecretScan behind a Swift-typed API.
        .target(name: "SecretScanInterop", dependencies: ["CSecretScan"], swiftSettings: [directMetadata]),
        .target(
            name: "DBusInterop", dependencies: ["CDBus", "CDBusShims", "SystemInterop"],
            swiftSettings: [.unsafeFlags(dbusHeaders.flatMap { ["-Xcc", "-I", "-Xcc", $0] }), directMetadata]),

        // MARK: - Plain Swift
        // At the bottom: the error protocol, exit statuses, dispositions and the sanitizer every
        // shown value passes, so that a module's errors conform where they are born.
        .target(name: "PasteErrors", swiftSettings: safeSwift),
        .target(
            name: "PasteCore", dependencies: ["PasteErrors", "SystemInterop"],
            swiftSettings: safeSwift + [optimizedInDebug]),
        // Above PasteCore: the stores (outbox, history, atomic files, file locks) and the request
        // side (a profile, the content and the options -> an UploadRequest; an answer -> a URL).
        .target(
            name: "Stores", dependencies: ["PasteCore", "CryptoInterop", "SystemInterop"], swiftSettings: safeSwift),
        .target(name: "Requests", dependencies: ["PasteCore", "SystemInterop"], swiftSettings: safeSwift),
        // The secret guard: scanner, rule table, prefilter, decoders (SystemInterop to read a file in
        // chunks, SecretScanInterop for the candidate search).
        .target(
            name: "SecretGuard", dependencies: ["PasteCore", "SystemInterop", "SecretScanInterop"],
            swiftSettings: safeSwift + [optimizedInDebug]),
        // ShareX custom uploaders (.sxcu): syntax, uploader -> service profile (SystemInterop to read one).
        .target(name: "ShareX", dependencies: ["PasteCore", "SystemInterop"], swiftSettings: safeSwift),
        .target(
            name: "Upload",
            dependencies: ["PasteCore", "SecretGuard", "CurlInterop", "CryptoInterop", "SystemInterop"],
            swiftSettings: safeSwift + [optimizedInDebug]),
        .target(
            name: "Clipboard", dependencies: ["PasteErrors", "X11Interop", "WaylandInterop", "SystemInterop"],
            swiftSettings: safeSwift),
        .target(name: "Alerts", dependencies: ["PasteErrors", "X11Interop"], swiftSettings: safeSwift),
        .target(name: "Notify", dependencies: ["DBusInterop", "SystemInterop"], swiftSettings: safeSwift),
        .target(
            name: "PasteCLI",
            dependencies: [
                "PasteCore", "Stores", "Requests", "SecretGuard", "ShareX", "Upload", "Clipboard", "Alerts",
                "Notify", "QRInterop", "SystemInterop",
            ],
            swiftSettings: safeSwift),

        // MARK: - Executables
        .executableTarget(
            name: "paste", dependencies: ["PasteCLI", "SystemInterop", "CGlibcFloor"], swiftSettings: safeSwift,
            linkerSettings: staticCxxRuntime + leanExports + linkOrder),
        // The mock pastebin shares no code with the client: a shared encoder would hide its bugs.
        // Optimised in debug builds too: it hashes and keeps every byte of the tests' large streams.
        // The hash is libcrypto's SHA-256 (CCrypto: the header only, no code of ours), which the
        // listings report for every value (docs/testing.md, "The mock's listings").
        .executableTarget(
            name: "paste-mock", dependencies: ["CGlibcFloor", "CCrypto"], swiftSettings: [optimizedInDebug],
            linkerSettings: cryptoLinking),
        // Tests only (never installed): drives the stores from a process the tests kill at random.
        .executableTarget(
            name: "store-exerciser", dependencies: ["PasteCore", "Stores", "SystemInterop", "TestSupport"],
            swiftSettings: safeSwift),

        // MARK: - Tests
        // SystemInterop for `ChildProcess.spawn`: Foundation's `Process.run` can crash (see
        // ProcessRunner.swift).
        .target(name: "TestSupport", dependencies: ["SystemInterop"], path: "Sources/TestSupport"),
        .testTarget(
            name: "PasteCoreTests", dependencies: ["PasteCore", "SecretGuard", "TestSupport"]),
        .testTarget(
            name: "StoresTests", dependencies: ["Stores", "PasteCore", "SecretGuard", "SystemInterop", "TestSupport"]),
        .testTarget(name: "RequestsTests", dependencies: ["Requests", "PasteCore", "TestSupport"]),
        .testTarget(
            name: "SecretGuardTests", dependencies: ["SecretGuard", "SecretScanInterop", "PasteCore", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "ShareXTests", dependencies: ["ShareX", "PasteCore"]),
        .testTarget(
            name: "UploadTests",
            dependencies: ["Upload", "PasteCore", "Requests", "CryptoInterop", "SystemInterop", "TestSupport"],
            resources: [.copy("Fixtures")]),
        // SecretGuard (and PasteCore) only for the secret scanner fed by an observed clipboard read.
        .testTarget(
            name: "ClipboardTests",
            dependencies: [
                "Clipboard", "X11Interop", "WaylandInterop", "SystemInterop", "PasteCore", "SecretGuard", "TestSupport",
            ]),
        .testTarget(name: "AlertsTests", dependencies: ["Alerts", "X11Interop", "TestSupport"]),
        .testTarget(name: "PasteMockTests", dependencies: ["TestSupport"]),
        .testTarget(name: "SystemInteropTests", dependencies: ["SystemInterop", "CGlibcFloor"]),
        .testTarget(name: "CurlInteropTests", dependencies: ["CurlInterop", "SystemInterop", "TestSupport"]),
        .testTarget(name: "X11InteropTests", dependencies: ["X11Interop", "TestSupport"]),
        .testTarget(name: "NotifyTests", dependencies: ["Notify", "DBusInterop", "TestSupport"]),
        .testTarget(
            name: "PasteCLITests",
            dependencies: [
                "PasteCLI", "PasteCore", "Stores", "Requests", "Upload", "QRInterop", "SecretGuard", "SystemInterop",
                "TestSupport",
            ],
            exclude: ["Fixtures"]),

        // MARK: - Side programs (never installed; each built by its script)
        // The secret guard's false-positive bench: scripts/secret-guard-fp builds it with
        // `swift build -c release --product secret-guard-fp` and feeds it its corpus.
        .executableTarget(
            name: "secret-guard-fp", dependencies: ["SecretGuard", "SystemInterop"], swiftSettings: safeSwift),
        // Writes the files generated from the option table: completions/ and docs/help.txt
        // (`swift run paste-gen`; GeneratedFilesTests holds the repository's copies to it), and the
        // secret guard's built-in search plan, Sources/CSecretScan/csecret_scan_builtin.h (SecretPlanFileTests).
        .executableTarget(
            name: "paste-gen", dependencies: ["PasteCLI", "SecretGuard", "SystemInterop"], swiftSettings: safeSwift),
        // libFuzzer targets, one per executable (libFuzzer's `main` drives `LLVMFuzzerTestOneInput`):
        // scripts/fuzz builds them with `swift build --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address`
        // in a scratch folder of their own; a plain build makes programs that say so and exit.
        .executableTarget(
            name: "fuzz-config", dependencies: ["PasteCore", "ShareX"], path: "Fuzz/config", swiftSettings: safeSwift),
        .executableTarget(
            name: "fuzz-result", dependencies: ["PasteCore", "Requests"], path: "Fuzz/result", swiftSettings: safeSwift),
        .executableTarget(
            name: "fuzz-sharex", dependencies: ["PasteCore", "ShareX"], path: "Fuzz/sharex", swiftSettings: safeSwift),
    ],
    swiftLanguageModes: [.v6]
)
