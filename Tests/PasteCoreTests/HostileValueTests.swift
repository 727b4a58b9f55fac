import Foundation
import Testing

@testable import PasteCore
@testable import PasteErrors

@Suite("Values shown on a terminal, URLs from servers, numeric ranges")
struct HostileValueTests {
    // MARK: - Sanitizer.shown

    @Test(
        "control and format characters are escaped visibly; everything else is kept",
        arguments: [
            ("\u{1B}]0;PWNED\u{07}", "\\e]0;PWNED\\a"),
            ("a\nb\tc\rd\0e", "a\\nb\\tc\\rd\\0e"),
            ("\u{01}\u{1F}\u{7F}", "\\x01\\x1f\\x7f"),
            ("\u{9B}31m", "\\u{9B}31m"),
            ("x\u{202E}gpj.exe", "x\\u{202E}gpj.exe"),
            ("a\u{200B}b\u{FEFF}\u{2066}\u{061C}", "a\\u{200B}b\\u{FEFF}\\u{2066}\\u{61C}"),
            ("line\u{2028}sep", "line\\u{2028}sep"),
            ("/home/me/notes café 日本語 🎉.txt", "/home/me/notes café 日本語 🎉.txt"),
            ("back\\slash", "back\\slash"),
        ])
    func escapes(_ value: String, _ shown: String) {
        #expect(Sanitizer.shown(value) == shown)
        #expect("'\(shown: value)'" == "'\(shown)'")
    }

    @Test("long values are cut at 80 characters plus …, escapes counted as written; twice is once")
    func cuts() {
        let long = String(repeating: "x", count: 100_000)
        #expect(Sanitizer.shown(long) == String(repeating: "x", count: 80) + "…")
        #expect(Sanitizer.shown(String(repeating: "x", count: 80)) == String(repeating: "x", count: 80))
        // 40 escapes of two characters fill the 80; the 41st does not fit.
        #expect(Sanitizer.shown(String(repeating: "\u{1B}", count: 41)) == String(repeating: "\\e", count: 40) + "…")
        // One character made of 100,000 scalars (a base and combining marks) is cut too.
        let combining = "e" + String(repeating: "\u{301}", count: 100_000)
        #expect(Sanitizer.shown(combining).unicodeScalars.count == 81)
        for value in [long, combining, String(repeating: "\u{1B}[2J", count: 50), "short"] {
            #expect(Sanitizer.shown(Sanitizer.shown(value)) == Sanitizer.shown(value))
        }
        #expect(Sanitizer.shown("abcdef", limit: 3) == "abc…")
    }

    // MARK: - URLs

    @Test(
        "a server URL hiding where it leads is refused, naming the problem",
        arguments: [
            ("https://x.test/pastes/1\u{202E}txt.exe", Sanitizer.URLProblem.bidirectionalControl("\u{202E}")),
            ("https://x.test/\u{202A}1", .bidirectionalControl("\u{202A}")),
            ("https://x.test/\u{2067}1", .bidirectionalControl("\u{2067}")),
            ("https://x.test/\u{200F}1", .bidirectionalControl("\u{200F}")),
            ("https://x.test/\u{061C}1", .bidirectionalControl("\u{061C}")),
            ("https://x.test/pas\u{200B}tes/1", .invisibleCharacter("\u{200B}")),
            ("https://x.test/\u{200D}", .invisibleCharacter("\u{200D}")),
            ("https://x.test/\u{2060}", .invisibleCharacter("\u{2060}")),
            ("https://\u{FEFF}x.test/", .invisibleCharacter("\u{FEFF}")),
            ("http://bank.example@evil.example/pastes/1", .userInfo),
            ("https://user:pw@x.test/", .userInfo),
        ])
    func refusedURL(_ url: String, _ problem: Sanitizer.URLProblem) {
        #expect(Sanitizer.validateURL(url) == .failure(problem))
    }

    @Test(
        "every Default_Ignorable code point, an overlay mark, an ideographic full stop or a mixed-script host is refused",
        arguments: [
            ("https://paste.example/ab\u{AD}c", Sanitizer.URLProblem.invisibleCharacter("\u{AD}")),
            ("https://paste.example/\u{E0041}x", .invisibleCharacter("\u{E0041}")),
            ("https://paste.example/\u{3164}", .invisibleCharacter("\u{3164}")),
            ("https://paste.example/a\u{338}b", .invisibleCharacter("\u{338}")),
            ("https://paste.example/\u{FE0F}", .invisibleCharacter("\u{FE0F}")),
            ("http://127.0.0.1\u{3002}evil.example/", .ideographicFullStop("\u{3002}")),
            ("http://127.0.0.1\u{FF0E}evil.example/", .ideographicFullStop("\u{FF0E}")),
            ("https://p\u{430}ypal.example/x", .mixedScriptHost("p\u{430}ypal.example")),
            ("https://\u{FF50}aste.example/x", .mixedScriptHost("\u{FF50}aste.example")),
        ])
    func hiddenInURL(_ url: String, _ problem: Sanitizer.URLProblem) {
        #expect(Sanitizer.validateURL(url) == .failure(problem))
    }

    @Test("a host all in one non-Latin script is an internationalised name: accepted")
    func internationalHost() {
        #expect(Sanitizer.validateURL("https://пример.испытание/x") == .success("https://пример.испытание/x"))
        #expect(Sanitizer.validateURL("https://bücher.example/x") == .success("https://bücher.example/x"))
    }

    @Test("ordinary paste URLs still pass, an @ in the path or query included")
    func acceptedURL() {
        for url in [
            "https://paste.example/abc", "http://127.0.0.1:8080/pastes/12", "https://x.test/p/a@b?mail=a@b#c@d",
            "https://bin.example/?pasteid=1#key_ü",
            // A backslash ends the authority as browsers read it: the host is x.test.
            "https://x.test\\@evil.example/",
        ] {
            #expect(Sanitizer.validateURL(url) == .success(url))
        }
    }

    @Test(
        "the plain-URL pass accepts only what every check accepts, and gives the same URL",
        arguments: [
            "https://paste.example/abc", "http://127.0.0.1:8080/pastes/12", "HTTP://X.TEST/A", "hTTpS://x.test",
            " https://x.test/a\n", "\thttps://x.test/a \n\n", "https://x.test/a\r\n", "https://x.test/a\r",
            "\r\nhttps://x.test/a", "https://x.test/p/a@b?mail=a@b#c@d", "http://a@b/", "http://a/@b",
            "https://x.test\\@evil.example/", "http://x?y@z", "http://x#@z", "http:/x.test/", "http:x.test",
            "http://", "http:///x", "http://\\x", "http://?x", "http://#x", "https:", "ftp://x.test/",
            "javascript://x.test/%0aalert(1)", "https://x.test/\"", "https://x.test/<a>", "https://x.test/`",
            "https://x.test/a b", "https://x.test/\u{7F}", "https://x.test/\u{1}", "httpss://x.test/",
            ":https://x.test", "https//x.test", "https://x.test:8080",
            "https://" + String(repeating: "a", count: 2_041),
            "https://" + String(repeating: "a", count: 2_040), "https://bücher.example/x", "https://x.test/ü",
        ])
    func plainURLAgrees(_ url: String) {
        if let plain = Sanitizer.plainHTTPURL(url) {
            #expect(Sanitizer.checkedURL(url) == .success(plain))
        }
        #expect(Sanitizer.validateURL(url) == Sanitizer.checkedURL(url))
    }

    @Test(
        "JSON escaping: text with nothing to escape is itself; quotes, backslashes and controls are escaped",
        arguments: [
            ("https://x.test/a?b=c#d", "https://x.test/a?b=c#d"), ("bücher ☃ \u{7F}", "bücher ☃ \u{7F}"), ("", ""),
            ("a\"b", "a\\\"b"), ("a\\b", "a\\\\b"), ("é\n", "é\\n"), ("\u{1}\u{1F}", "\\u0001\\u001f"),
            ("tab\there", "tab\\there"), ("\r\n", "\\r\\n"),
        ])
    func jsonEscape(_ text: String, _ escaped: String) {
        #expect(JSONText.escape(text) == escaped)
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        JSONText.appendEscaped(input.span, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == escaped)
    }

    @Test("the plain-URL pass takes the ordinary answers")
    func plainURLTaken() {
        #expect(Sanitizer.plainHTTPURL("http://127.0.0.1:8080/pastes/12\n") == "http://127.0.0.1:8080/pastes/12")
        #expect(Sanitizer.plainHTTPURL("https://dpaste.com/ABCDEFGHJ") == "https://dpaste.com/ABCDEFGHJ")
        #expect(Sanitizer.plainHTTPURL("https://x.test/p?q=a@b") == "https://x.test/p?q=a@b")
        #expect(Sanitizer.plainHTTPURL("https://a@x.test/") == nil)
        #expect(Sanitizer.plainHTTPURL("https://x.test/\u{200B}") == nil)
    }

    @Test("each URL problem reads as one line naming the character")
    func problemText() {
        #expect(
            ServiceError.unsafeURL(service: "rs", problem: .bidirectionalControl("\u{202E}")).message
                == "rs gave an unusable URL: it holds the bidirectional control U+202E, which makes it read as another address"
        )
        #expect(
            ServiceError.unsafeURL(service: "rs", problem: .invisibleCharacter("\u{61C}")).message
                == "rs gave an unusable URL: it holds the invisible character U+061C, which hides what it leads to")
        #expect(ServiceError.unsafeURL(service: "rs", problem: .userInfo).exitStatus == .unavailable)
    }

    // MARK: - Numbers

    static let secondsKeys = [
        "timeout", "connect-timeout", "stall-timeout", "response-timeout", "max-retry-after", "repeat-window",
        "notify-timeout", "clipboard-timeout",
    ]

    @Test(
        "no value of a duration key traps: out of range is a config error stating the range",
        arguments: secondsKeys, ["1e16", "9.3e15", "1e308", "1e308w", "inf", "-inf", "nan", "-1", "0x1p1023", ""])
    func durationsOutOfRange(_ key: String, _ value: String) {
        #expect {
            try Configuration(file: ConfigFile(parsing: "[paste]\n\(key) = \(value)", path: "/c"))
        } throws: { error in
            guard let error = error as? ConfigError, case .badValue(_, 2, key, value, let expected) = error else {
                return false
            }
            return expected.hasPrefix("a duration from ") && error.exitStatus == .config
        }
    }

    @Test("the bounds themselves are accepted, -0 reads as 0 where 0 is allowed")
    func bounds() throws {
        let text = """
            [paste]
            timeout = 7d
            connect-timeout = 0.001
            stall-timeout = 1
            response-timeout = 604800
            repeat-window = -0
            retries = 10
            [service "x"]
            url = http://x/
            max-size = 1024G
            response-timeout = 2.5
            """
        let configuration = try Configuration(file: ConfigFile(parsing: text, path: "/c"))
        #expect(configuration.settings.timeouts.total == .seconds(604_800))
        #expect(configuration.settings.timeouts.connect == .milliseconds(1))
        #expect(configuration.settings.timeouts.response == .seconds(604_800))
        #expect(configuration.settings.repeatWindow == .zero)
        let service = try configuration.service(named: "x")
        #expect(service.maximumBytes == 1 << 40)
        #expect(service.responseTimeout == .milliseconds(2500))
        #expect(Settings().timeouts.response == .seconds(60))
        for (key, value) in [
            ("stall-timeout", "0.5"), ("connect-timeout", "2h"), ("retries", "11"), ("timeout", "-0"),
            ("timeout", "1e-9"),
        ] {
            #expect(throws: ConfigError.self) {
                try Configuration(file: ConfigFile(parsing: "[paste]\n\(key) = \(value)", path: "/c"))
            }
        }
    }

    @Test("sizes that overflow their unit are refused, not trapped")
    func sizes() {
        #expect(ByteCount.parse("9223372036854775807K") == nil)
        #expect(ByteCount.parse("8589934592G") == nil)
        #expect(ByteCount.parse("1G") == 1 << 30)
        #expect(SettingRange.maximumSize.parse("0") == nil)
        #expect(SettingRange.maximumSize.parse("1025G") == nil)
        #expect(SettingRange.maximumSize.description == "a size from 1 to 1024G")
        #expect(SettingRange.timeout.description == "a duration from 0.001s to 7d")
        #expect(SettingRange.repeatWindow.description == "a duration from 0s to 365d")
    }

    @Test("an expiry-unit choice too long for any paste is refused, not trapped")
    func expiryChoices() {
        #expect(ExpiryUnit(configText: "choices forever=1e300w") == nil)
        #expect(ExpiryUnit(configText: "choices day=1d") == .choices([("day", 86_400)]))
    }

    @Test("error messages show config values escaped and cut")
    func configMessages() {
        let error = ConfigError.badValue(
            path: "/c\u{1B}", line: 3, key: "url", value: "\u{1B}]0;x\u{07}" + String(repeating: "y", count: 1 << 20),
            expected: "an http(s) URL")
        #expect(
            error.message.hasPrefix(
                "/c\\e:3: bad value '\\e]0;x\\a" + String(repeating: "y", count: 72) + "…' for 'url'"))
        #expect(error.message.count < 200)
    }
}
