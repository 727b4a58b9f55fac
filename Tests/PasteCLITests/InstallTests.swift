import Foundation
import TestSupport
import Testing

/// A throw-away install prefix with a few files of its own, removed when released.
final class InstallPrefix {
    let root: URL
    var path: String { root.path }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("paste-prefix-\(UUID().uuidString)")
        // Files that were there before: the install must neither touch nor remove them, nor
        // the folders that hold them.
        for (relative, text) in [("bin/other-tool", "#!/bin/sh\n"), ("share/man/man1/other.1", ".TH OTHER 1\n")] {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Every file and folder under the prefix, with its kind and, for files, its size.
    func listing() throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
        var entries: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + relative)
            let kind = attributes[.type] as? FileAttributeType
            entries.append(kind == .typeDirectory ? "d \(relative)" : "f \(relative) \(attributes[.size] ?? 0)")
        }
        return entries.sorted()
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + relative) }

    func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path + "/" + relative, encoding: .utf8)
    }
}

/// Runs scripts/install. The first run does a release build in `.build/install` (its own
/// scratch folder, so it never waits for the lock of the `swift test` build): minutes.
func runInstall(_ arguments: [String]) throws -> ProcessResult {
    try runProcess(SourceTree.path("scripts/install"), arguments, currentDirectory: SourceTree.root.path, timeout: 900)
}

@Suite("scripts/install", .serialized, .tags(.slow))
struct InstallTests {
    /// Runs scripts/install into a fresh prefix with `tools` (name, shell script) first on PATH,
    /// and checks that the prefix is left as it was; the run.
    func installWithFakeTools(_ tools: [(String, String)]) throws -> ProcessResult {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("paste-fakebin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bin) }
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for (tool, script) in tools {
            let url = bin.appendingPathComponent(tool)
            try Data(script.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        let prefix = try InstallPrefix()
        let before = try prefix.listing()
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try runProcess(
            SourceTree.path("scripts/install"), ["--prefix", prefix.path], environment: environment,
            currentDirectory: SourceTree.root.path, timeout: 60)
        #expect(try prefix.listing() == before)
        return result
    }

    @Test("on a fresh clone it checks the packages the build links first: as another user, the one apt command")
    func missingPackagesNamed() throws {
        // A fake dpkg-query that knows no package and an id that is not root's, first on PATH.
        let result = try installWithFakeTools([("dpkg-query", "#!/bin/sh\nexit 1\n"), ("id", "#!/bin/sh\necho 1000\n")])
        let packages =
            "libcurl4-openssl-dev libssl-dev libnghttp2-dev libidn2-dev libunistring-dev libssh2-1-dev libpsl-dev "
            + "libzstd-dev libbrotli-dev zlib1g-dev libx11-dev libxft-dev libfontconfig-dev libxcb1-dev libxau-dev "
            + "libxdmcp-dev libxrender-dev libfreetype-dev libexpat1-dev libpng-dev libdbus-1-dev "
            + "libqrencode-dev"
        #expect(result.status == 1)
        #expect(result.out == "")
        #expect(
            result.err
                == "install: the build needs 22 more packages; run as root, then again:\n"
                + "  apt-get update && apt-get install -y \(packages)\n")
        // Each of them is one scripts/bootstrap installs (CI installs only those).
        let bootstrap = try SourceTree.text("scripts/bootstrap")
        for package in packages.split(separator: " ") {
            #expect(bootstrap.contains(package), "\(package) is not in scripts/bootstrap")
        }
    }

    @Test("as root too it only prints the apt command: installing system packages is scripts/bootstrap's")
    func neverInstallsPackages() throws {
        // dpkg-query knows no package, id says root, and an apt-get that notes being run.
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("apt-get-ran-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let result = try installWithFakeTools([
            ("dpkg-query", "#!/bin/sh\nexit 1\n"), ("id", "#!/bin/sh\necho 0\n"),
            ("apt-get", "#!/bin/sh\ntouch '\(marker)'\n"),
        ])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("install: the build needs 22 more packages; run as root, then again:\n"))
        #expect(result.err.contains("\n  apt-get update && apt-get install -y libcurl4-openssl-dev "))
        #expect(!FileManager.default.fileExists(atPath: marker), "scripts/install ran apt-get")
    }

    @Test("DESTDIR stages the files for a package: they name the prefix, no manifest, paste in lib/paste/bin")
    func stagedInstall() throws {
        let stage = try InstallPrefix()
        let before = try stage.listing()
        var environment = ProcessInfo.processInfo.environment
        environment["DESTDIR"] = stage.path
        let install = try runProcess(
            SourceTree.path("scripts/install"), ["--prefix", "/usr", "--name", "pasteup"], environment: environment,
            currentDirectory: SourceTree.root.path, timeout: 900)
        try #require(install.status == 0, "install failed: \(install.err)")
        #expect(install.out.contains("install: staged paste "), "\(install.out)")
        #expect(install.out.hasSuffix(" for /usr in \(stage.path)\n"), "\(install.out)")
        for file in [
            "usr/bin/pasteup", "usr/bin/paste-mock", "usr/share/man/man1/pasteup.1",
            "usr/lib/paste/share/man/man1/paste.1",
            "usr/share/applications/pasteup.desktop", "usr/share/systemd/user/pasteup-retry.service",
        ] {
            #expect(stage.exists(file), "missing \(file)")
        }
        #expect(!stage.exists("usr/bin/paste"))
        #expect(!stage.exists("usr/share/paste"), "a staged install keeps no manifest")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: stage.path + "/usr/lib/paste/bin/paste")
        #expect(link == "../../../bin/pasteup")
        // Run through the link, the program is paste; through its own name, pasteup.
        let asPaste = try runProcess(stage.path + "/usr/lib/paste/bin/paste", ["--frobnicate"], timeout: 30)
        #expect(asPaste.err == "paste: unknown option '--frobnicate'\npaste: try 'paste --help'\n")
        #expect(try stage.text("usr/share/applications/pasteup.desktop").contains("\nExec=/usr/bin/pasteup --notify\n"))
        #expect(
            try stage.text("usr/share/systemd/user/pasteup-retry.service").contains(
                "\nExecStart=/usr/bin/pasteup --retry --quiet\n"))
        // A relative prefix means nothing under DESTDIR.
        let relative = try runProcess(
            SourceTree.path("scripts/install"), ["--prefix", "usr", "--no-build"], environment: environment,
            currentDirectory: SourceTree.root.path, timeout: 60)
        #expect(relative.status == 1)
        #expect(relative.err == "install: with DESTDIR, --prefix must be absolute (got 'usr')\n")
        try FileManager.default.removeItem(atPath: stage.path + "/usr")
        #expect(try stage.listing() == before)
    }

    static let layout = [
        "bin/paste", "bin/paste-mock", "share/man/man1/paste.1", "share/man/man1/paste-mock.1",
        "share/man/man5/paste-config.5", "share/bash-completion/completions/paste",
        "share/zsh/site-functions/_paste_pastebin", "share/fish/vendor_completions.d/paste.fish",
        "share/applications/paste.desktop", "share/systemd/user/paste-retry.service",
        "share/systemd/user/paste-retry.timer", "share/paste/install-manifest.paste",
    ]

    @Test("installs the binaries, pages, completions and desktop entry; uninstall restores the prefix")
    func installAndUninstall() throws {
        let prefix = try InstallPrefix()
        let before = try prefix.listing()

        let install = try runInstall(["--prefix", prefix.path])
        try #require(install.status == 0, "install failed: \(install.err)")
        #expect(install.out.contains("installed paste "))
        // A prefix outside zsh's fpath: the one line that makes zsh find the completion.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") {
            #expect(
                install.out.contains(
                    "install: zsh: add this line to ~/.zshrc, before compinit, so that zsh finds the completion: "
                        + "fpath=(\(prefix.path)/share/zsh/site-functions $fpath)\n"), "\(install.out)")
        }

        for file in Self.layout { #expect(prefix.exists(file), "missing \(file)") }

        let version = try runProcess(prefix.path + "/bin/paste", ["--version"], timeout: 30)
        #expect(version.status == 0)
        #expect(version.out.hasPrefix("paste "))
        let mock = try runProcess(prefix.path + "/bin/paste-mock", ["--help"], timeout: 30)
        #expect(mock.status == 0)

        for page in ["share/man/man1/paste.1", "share/man/man5/paste-config.5", "share/man/man1/paste-mock.1"] {
            let man = try runProcess("/usr/bin/env", ["man", "-P", "cat", "-l", prefix.path + "/" + page], timeout: 60)
            #expect(man.status == 0, "man -l \(page): \(man.err)")
            #expect(man.out.contains("SYNOPSIS"))
        }

        let desktop = try prefix.text("share/applications/paste.desktop")
        #expect(desktop.contains("\nExec=\(prefix.path)/bin/paste --notify\n"), "Exec must be the absolute path")

        // The systemd user units: installed, not enabled; the command that enables them is said.
        let service = try prefix.text("share/systemd/user/paste-retry.service")
        #expect(service.contains("\nExecStart=\(prefix.path)/bin/paste --retry --quiet\n"))
        #expect(install.out.contains("systemctl --user enable --now paste-retry.timer"), "\(install.out)")
        let verified = try SystemdUnitTests.verify([
            prefix.path + "/share/systemd/user/paste-retry.service",
            prefix.path + "/share/systemd/user/paste-retry.timer",
        ])
        #expect(verified.status == 0, "systemd-analyze verify: \(verified.err)")
        #expect(verified.err == "")

        // The manifest names exactly the files the install added.
        let manifest = try prefix.text("share/paste/install-manifest.paste").split(separator: "\n")
        let listedFiles = Set(manifest.filter { $0.hasPrefix("f ") }.map { String($0.dropFirst(2)) })
        let added = Set(
            try prefix.listing().filter { $0.hasPrefix("f ") && !before.contains($0) }
                .map { String($0.dropFirst(2).prefix { $0 != " " }) })
        #expect(added == listedFiles.union(["share/paste/install-manifest.paste"]))

        // Installing again replaces its own files without complaint.
        let again = try runInstall(["--prefix", prefix.path, "--no-build"])
        #expect(again.status == 0, "reinstall failed: \(again.err)")

        let uninstall = try runInstall(["--prefix", prefix.path, "--uninstall"])
        #expect(uninstall.status == 0, "uninstall failed: \(uninstall.err)")
        #expect(try prefix.listing() == before)
    }

    @Test("--name pasteit installs bin/pasteit with renamed pages and completions")
    func installUnderAnotherName() throws {
        let prefix = try InstallPrefix()
        let before = try prefix.listing()

        let install = try runInstall(["--prefix", prefix.path, "--name", "pasteit"])
        try #require(install.status == 0, "install failed: \(install.err)")
        #expect(!prefix.exists("bin/paste"))
        #expect(prefix.exists("bin/paste-mock"))
        let version = try runProcess(prefix.path + "/bin/pasteit", ["--version"], timeout: 30)
        #expect(version.out.hasPrefix("paste "))
        let page = try prefix.text("share/man/man1/pasteit.1")
        #expect(page.contains(".TH PASTEIT 1 "))
        // NAME, SYNOPSIS and the examples name the installed command; coreutils' stay coreutils'.
        #expect(page.contains("\n.SH NAME\npasteit \\- upload the clipboard"))
        #expect(page.contains("\n.SH SYNOPSIS\n.B pasteit\n"))
        #expect(page.contains("\ndmesg | pasteit \\-t \"boot log\"\n"))
        #expect(page.contains("'pasteit \\-\\-retry' sends it again"))
        #expect(page.contains("\nseq 5 | paste \\-sd+ | bc"))
        #expect(!page.contains("\npaste \\-f "))
        // The installer's own advice keeps the prefix and the name.
        #expect(
            install.out.contains(
                "'scripts/install --prefix \(prefix.path) --name pasteit --uninstall' removes them"), "\(install.out)")
        // The program knows the name it was run as: usage and hints say it.
        let help = try runProcess(prefix.path + "/bin/pasteit", ["--help"], timeout: 30)
        #expect(help.out.hasPrefix("Usage: pasteit [OPTIONS]          upload stdin"))
        let typo = try runProcess(prefix.path + "/bin/pasteit", ["--frobnicate"], timeout: 30)
        #expect(typo.status == 64)
        #expect(typo.err == "pasteit: unknown option '--frobnicate'\npasteit: try 'pasteit --help'\n")
        // --uninstall without --name finds no 'paste' here, and names what is installed.
        let wrongName = try runInstall(["--prefix", prefix.path, "--uninstall"])
        #expect(wrongName.status == 1)
        #expect(
            wrongName.err
                == "install: nothing to uninstall under the name 'paste': no \(prefix.path)/share/paste/install-manifest.paste; "
                + "installed there under other names: pasteit ('scripts/install --prefix \(prefix.path) --name NAME --uninstall' removes one)\n"
        )
        #expect(
            try prefix.text("share/bash-completion/completions/pasteit").contains(
                "\ncomplete -F _paste_pastebin pasteit\n"))
        #expect(try prefix.text("share/zsh/site-functions/_pasteit_pastebin").hasPrefix("#compdef pasteit\n"))
        #expect(try !prefix.text("share/fish/vendor_completions.d/pasteit.fish").contains("complete -c paste "))
        #expect(
            try prefix.text("share/applications/pasteit.desktop").contains(
                "\nExec=\(prefix.path)/bin/pasteit --notify\n"))

        // The renamed fish completion works for the new command, services included.
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = prefix.path + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        let fish = try runProcess(
            "/usr/bin/env",
            [
                "fish", "--no-config", "-c", "source $argv[1]; complete -C 'pasteit -S '",
                prefix.path + "/share/fish/vendor_completions.d/pasteit.fish",
            ],
            environment: environment, timeout: 30)
        #expect(fish.out.split(separator: "\n").map { $0.prefix { $0 != "\t" } }.contains("termbin"))

        let uninstall = try runInstall(["--prefix", prefix.path, "--name", "pasteit", "--uninstall"])
        #expect(uninstall.status == 0, "uninstall failed: \(uninstall.err)")
        #expect(try prefix.listing() == before)
    }

    @Test("two names in one prefix share paste-mock; each uninstall leaves the other working")
    func twoInstallsShareFiles() throws {
        let prefix = try InstallPrefix()
        let before = try prefix.listing()
        #expect(try runInstall(["--prefix", prefix.path]).status == 0)
        #expect(try runInstall(["--prefix", prefix.path, "--name", "pasteit", "--no-build"]).status == 0)
        #expect(try runInstall(["--prefix", prefix.path, "--uninstall"]).status == 0)
        #expect(!prefix.exists("bin/paste"))
        #expect(prefix.exists("bin/paste-mock"))
        #expect(prefix.exists("share/man/man5/paste-config.5"))
        #expect(try runProcess(prefix.path + "/bin/pasteit", ["--version"], timeout: 30).status == 0)
        #expect(try runInstall(["--prefix", prefix.path, "--name", "pasteit", "--uninstall"]).status == 0)
        #expect(try prefix.listing() == before)
    }

    @Test("refuses to overwrite a file it did not install")
    func refusesForeignFile() throws {
        let prefix = try InstallPrefix()
        try FileManager.default.createDirectory(atPath: prefix.path + "/bin", withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: prefix.root.appendingPathComponent("bin/paste"))
        let before = try prefix.listing()
        let install = try runInstall(["--prefix", prefix.path])
        #expect(install.status == 1)
        #expect(install.err.contains("refusing to overwrite"))
        #expect(try prefix.listing() == before)
    }
}
