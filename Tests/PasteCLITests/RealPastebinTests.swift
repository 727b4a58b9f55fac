import Foundation
import Testing
import TestSupport

/// Interop with real pastebin servers from PyPI, installed by scripts/bootstrap into
/// `.build/venv` and started here on 127.0.0.1 for one test each.
@Suite("Real pastebin servers: upload with paste, fetch the raw paste back byte-exact", .temporaryHome)
struct RealPastebinTests: ScopedSuite {
    /// The texts each server must keep byte for byte: ASCII, awkward UTF-8 with CRLF and JSON
    /// and form metacharacters, and 60 KiB of multi-byte lines.
    static let texts: [String] = [
        "hello from paste\n",
        awkwardText,
        String(repeating: "ünïcödé line — ½ ✓ 𝄞 and ASCII filler to fill it out\n", count: 900),
    ]

    /// `.build/venv/bin/NAME`, or a failure that says how to get it.
    static func venv(_ name: String) throws -> String {
        let path = ServerProcess.packageRoot.appendingPathComponent(".build/venv/bin/\(name)").path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run scripts/bootstrap")
        return path
    }

    @Test("pinnwand: the v1 JSON API through a profile based on the bpa.st built-in")
    func pinnwand() throws {
        let server = try Self.startPinnwand(in: paste.home).server
        defer { server.stop() }
        try paste.writeConfig(
            """
            [service "pinnwand"]
                base = bpa.st
                url = \(server.baseURL)/api/v1/paste
            """)
        for (index, text) in Self.texts.enumerated() {
            let result = try paste.run(
                ["-S", "pinnwand", "--json", "-l", "python", "-t", "file\(index).py", "-e", "1w"], stdin: text)
            #expect(result.status == 0, "stderr: \(result.err)\nserver: \(server.log)")
            #expect(result.err == "")
            let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let url = try #require(object["url"] as? String)
            let slug = try #require(url.split(separator: "/").last.map(String.init))
            #expect(url == "\(server.baseURL)/\(slug)")
            #expect(try fetch("\(server.baseURL)/raw/\(slug)") == Data(text.utf8))
            #expect((object["deletion"] as? String)?.hasPrefix("\(server.baseURL)/remove/") == true)
            #expect(object["sha256"] as? String == (try sha256sum(Data(text.utf8))))
        }
        // pinnwand offers 1day and 1week by default: an hour cannot be honoured.
        let hour = try paste.run(["-S", "pinnwand", "-e", "1h"], stdin: "brief\n")
        #expect(hour.status == 64)
    }

    @Test("librarypaste: form field code, the paste's URL from Location, raw text at /plain/ID")
    func librarypaste() throws {
        let folder = paste.home.root.appendingPathComponent("librarypaste")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try ServerProcess.freePort()
        // A CherryPy config file (values are Python literals); the JSON datastore goes to
        // ./repo, so the server runs in its own folder.
        let configuration = try paste.home.write(
            """
            [global]
            server.socket_host = "127.0.0.1"
            server.socket_port = \(port)
            engine.autoreload.on = False
            """, to: "librarypaste/librarypaste.conf")
        let server = try ServerProcess(
            try Self.venv("librarypaste"), ["-c", configuration], port: port, currentDirectory: folder.path)
        defer { server.stop() }
        try paste.writeConfig(
            """
            [service "library"]
                url = \(server.baseURL)/
                format = form
                content-field = code
                field = fmt=_
                lang-field = fmt
                result = location
            """)
        for text in Self.texts {
            let result = try paste.run(["-S", "library", "--no-copy"], stdin: text)
            #expect(result.status == 0, "stderr: \(result.err)\nserver: \(server.log)")
            #expect(result.err == "")
            let url = result.out.trimmingCharacters(in: .newlines)
            let id = try #require(url.split(separator: "/").last.map(String.init))
            #expect(url == "\(server.baseURL)/\(id)")
            #expect(try fetch("\(server.baseURL)/plain/\(id)") == Data(text.utf8))
        }
        let languaged = try paste.run(["-S", "library", "-l", "python", "--no-copy"], stdin: "print('hi')\n")
        #expect(languaged.status == 0, "stderr: \(languaged.err)")
        let id = try #require(
            languaged.out.trimmingCharacters(in: .newlines).split(separator: "/").last.map(String.init))
        #expect(try fetch("\(server.baseURL)/plain/\(id)") == Data("print('hi')\n".utf8))
        // librarypaste has no titles: -t is refused before anything is sent.
        let titled = try paste.run(["-S", "library", "-t", "nope"], stdin: "x\n")
        #expect(titled.status == 64)
    }
}

extension RealPastebinTests {
    /// Starts pinnwand (from .build/venv) on a free loopback port, its database in `home`'s
    /// `pinnwand/` folder; stop it with `stop()`.
    ///
    /// pinnwand reads TOML and sets each top-level key on pinnwand.configuration: the default
    /// rate limit (2 pastes, then one per second) would slow the tests, the default database is
    /// in memory, and the default size limit (256 KiB, `pasteSize` here) counts the highlighted
    /// HTML, which 60 KiB of text outgrows. pinnwand 1.5 installs no console script: the package
    /// runs as `python -m pinnwand`.
    static func startPinnwand(
        in home: TemporaryHome, pasteSize: Int = 4_194_304
    ) throws -> (server: ServerProcess, database: String) {
        let folder = home.root.appendingPathComponent("pinnwand")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("pinnwand.db").path
        let configuration = try home.write(
            "database_uri = \"sqlite:///\(database)\"\npaste_size = \(pasteSize)\n"
                + ["read", "create", "delete"].map {
                    "[ratelimit.\($0)]\ncapacity = 1000\nconsume = 1\nrefill = 1000\n"
                }.joined(),
            to: "pinnwand/pinnwand.toml")
        let port = try ServerProcess.freePort()
        let server = try ServerProcess(
            try venv("python"),
            ["-m", "pinnwand", "--configuration-path", configuration, "http", "--port", "\(port)"],
            port: port, currentDirectory: folder.path)
        return (server, database)
    }
}
