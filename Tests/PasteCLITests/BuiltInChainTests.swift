import Foundation
import Testing
import TestSupport

/// The built-in public default is a chain (issue 40, item 2): dpaste.com, then bpa.st when it
/// is down. Mocks stand in for both public hosts: a SOCKS proxy (`proxy = socks5h://…`, so the
/// proxy alone resolves names, and it refuses every name it was not given without looking it
/// up) sends `dpaste.com` and `bpa.st` to a TLS forwarder in front of paste-mock, whose
/// certificate names both. The chain is the built-in's own: a section that moves dpaste (or
/// starts from it with `base`) has none, so no outside host is ever asked.
@Suite("The built-in default's chain: dpaste.com, then bpa.st", .temporaryHome, .mock)
struct BuiltInChainTests: ScopedSuite {
    /// The names the proxy was asked to connect to, in order.
    static func connects(_ proxy: FixtureServer) -> [String] {
        proxy.log.filter { $0.hasPrefix("CONNECT ") }
    }

    @Test("the built-in dpaste answering 503 hands the text to bpa.st: both asked in that order, one paste")
    func builtInFallsBack() throws {
        let certificates = try TestCertificates(serverNames: ["dpaste.com", "bpa.st"])
        let tls = try FixtureServer.tlsForwarder(to: mock.port, certificates: certificates)
        let proxy = try FixtureServer.socks5Proxy(names: [
            "dpaste.com": "127.0.0.1:\(tls.port)", "bpa.st": "127.0.0.1:\(tls.port)",
        ])
        // Chosen (`service = dpaste`, as "always" writes it): the built-in as it ships.
        try paste.writeConfig(
            "[paste]\nservice = dpaste\nretries = 0\nproxy = socks5h://127.0.0.1:\(proxy.port)\n"
                + "ca-file = \(certificates.caFile)\n")
        try mock.addFault(.status(503), count: 1, path: "/api/v2/")
        let result = try paste.run(["--json", "--no-copy", "-t", "notes"], stdin: "first paste\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "paste: dpaste failed (dpaste answered HTTP 503): the text went to 'bpa.st' instead\n")
        #expect(try mock.requests().map(\.path) == ["/api/v2/", "/api/v1/paste"])
        #expect(Self.connects(proxy) == ["CONNECT name dpaste.com:443", "CONNECT name bpa.st:443"])
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["service"] as? String == "bpa.st")
        let paste = try #require(try mock.pastes().first)
        #expect(paste.service == "pinnwand")
        #expect(paste.data == Data("first paste\n".utf8))
        // The title went along: bpa.st names its file after it.
        #expect(paste.filename == "notes")
    }

    @Test("through a SOCKS proxy that cannot reach dpaste.com (refused behind it), the text goes to bpa.st")
    func refusedBehindTheProxy() throws {
        let certificates = try TestCertificates(serverNames: ["bpa.st"])
        let tls = try FixtureServer.tlsForwarder(to: mock.port, certificates: certificates)
        // A port nothing listens on: the proxy answers "connection refused" (SOCKS5 reply 5).
        let closed = try ServerProcess.freePort()
        let proxy = try FixtureServer.socks5Proxy(names: [
            "dpaste.com": "127.0.0.1:\(closed)", "bpa.st": "127.0.0.1:\(tls.port)",
        ])
        try paste.writeConfig(
            "[paste]\nservice = dpaste\nretries = 0\nproxy = socks5h://127.0.0.1:\(proxy.port)\n"
                + "ca-file = \(certificates.caFile)\n")
        let result = try paste.run(["--no-copy"], stdin: "refused behind the proxy\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(
            result.err
                == "paste: dpaste failed (cannot connect to dpaste.com:443: Connection refused (said proxy "
                + "127.0.0.1:\(proxy.port))): the text went to 'bpa.st' instead\n")
        #expect(Self.connects(proxy) == ["CONNECT name dpaste.com:443", "CONNECT name bpa.st:443"])
        #expect(try mock.pastes().map(\.data) == [Data("refused behind the proxy\n".utf8)])
    }

    @Test(
        "a dpaste moved to another host (its own section, or base = dpaste) has no fallback: no other name is asked",
        arguments: ["dpaste", "mine"])
    func movedHasNoChain(_ name: String) throws {
        let proxy = try FixtureServer.socks5Proxy(names: ["dpaste.test": "127.0.0.1:\(mock.port)"])
        try paste.writeConfig(
            "[paste]\nservice = \(name)\nretries = 0\nproxy = socks5h://127.0.0.1:\(proxy.port)\n"
                + "[service \"\(name)\"]\n" + (name == "dpaste" ? "" : "base = dpaste\n")
                + "url = http://dpaste.test/api/v2/\n")
        // A 503 is what hands a text on when there is a chain.
        try mock.addFault(.status(503), count: 1, path: "/api/v2/")
        let result = try paste.run(["--no-copy"], stdin: "stays here\n")
        #expect(result.status == 75, "stderr: \(result.err)")
        let id = try #require(try paste.outboxIDs().first)
        #expect(result.err.hasSuffix(keptLine(id: id, isHeld: false) + "\n"), "stderr: \(result.err)")
        #expect(!result.err.contains("bpa.st"), "stderr: \(result.err)")
        #expect(Self.connects(proxy) == ["CONNECT name dpaste.test:80"])
        #expect(try mock.requests().map(\.path) == ["/api/v2/"])
    }

    @Test("the question names the chain; --list-services says what each dpaste does")
    func saidToPeople() throws {
        let builtIn = try paste.run(["--list-services"])
        #expect(
            builtIn.out.hasPrefix(
                "* dpaste      https://dpaste.com/api/v2/  dpaste.com (public, expires in 7 days unless -e; "
                    + "bpa.st when it is down)\n"))
        let path = try paste.writeConfig("[service \"dpaste\"]\nurl = \(mock.url("/api/v2/"))\n")
        let moved = try paste.run(["--list-services"])
        #expect(
            moved.out.hasPrefix(
                "* dpaste      \(mock.url("/api/v2/"))  127.0.0.1 (dpaste's API); configured in \(path):1\n"),
            "\(moved.out)")
    }
}
