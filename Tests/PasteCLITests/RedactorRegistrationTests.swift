import Foundation
import PasteCore
import Testing

/// What `Redactor` registers from a request's parts, and the spellings it masks (issue 16).
@Suite("Redactor: registering credentials, encoded spellings, values cut short")
struct RedactorRegistrationTests {
    @Test("URL user information (as written, decoded, in base64) and credential query parameters, not others")
    func url() {
        let redactor = Redactor()
        redactor.register(url: "https://alice:p%40ss-word@host.example/x?api_key=k3y-value&kind=note&auth=zz-auth#top")
        #expect(
            redactor.redact("https://alice:p%40ss-word@host.example/x?api_key=k3y-value&kind=note&auth=zz-auth")
                == "https://[redacted]:[redacted]@host.example/x?api_key=[redacted]&kind=note&auth=[redacted]")
        #expect(redactor.redact("password p@ss-word") == "password [redacted]")
        let basic = Data("alice:p@ss-word".utf8).base64EncodedString()
        #expect(redactor.redact("Authorization: Basic \(basic)") == "Authorization: Basic [redacted]")
        #expect(redactor.redact("kind note") == "kind note")
    }

    @Test("a ${env:} reference in a URL is not registered: its value is, when resolved")
    func reference() {
        let redactor = Redactor()
        redactor.register(url: "https://${env:USER}:${env:PASS}@host.example/?token=${env:TOKEN}")
        #expect(redactor.isEmpty)
    }

    @Test("header values: the whole value and the credential after a scheme; standard headers stay")
    func headers() {
        let redactor = Redactor()
        redactor.register(header: "X-Auth: literal-auth-value")
        redactor.register(header: "Authorization: Bearer bearer-token-1")
        redactor.register(header: "Content-Type: application/json")
        #expect(redactor.redact("sent literal-auth-value and bearer-token-1") == "sent [redacted] and [redacted]")
        #expect(redactor.redact("Content-Type: application/json") == "Content-Type: application/json")
    }

    @Test(
        "a plain word in a header not named like a credential is no secret; one that looks like a token is (issue 29)")
    func plainHeaderValues() {
        let redactor = Redactor()
        redactor.register(header: "X-Client: pastes")
        redactor.register(header: "X-Kind: plain")
        #expect(redactor.isEmpty)
        #expect(redactor.redact("http://host/pastes/1 as text/plain") == "http://host/pastes/1 as text/plain")
        redactor.register(header: "X-Session: 0f3c9a7e2b1d4c6a8e5f")
        redactor.register(header: "X-Client: Token a1b2c3d4e5f6a7b8c9")
        #expect(
            redactor.redact("0f3c9a7e2b1d4c6a8e5f and a1b2c3d4e5f6a7b8c9 of pastes")
                == "[redacted] and [redacted] of pastes")
    }

    @Test("percent-, form- and JSON-escaped spellings; the start of a value cut by an excerpt's …")
    func spellings() {
        let redactor = Redactor()
        redactor.register("a/b c\"d")
        #expect(redactor.redact("q=a%2Fb%20c%22d") == "q=[redacted]")
        #expect(redactor.redact("f=a%2Fb+c%22d") == "f=[redacted]")
        #expect(redactor.redact(#"{"e":"a\/b c\"d"}"#) == #"{"e":"[redacted]"}"#)
        redactor.register("tok-0123456789")
        #expect(redactor.redact("denied: tok-0123…") == "denied: [redacted]…")
        #expect(redactor.redact("denied: tok…") == "denied: tok…", "under 4 characters: not taken for the value")
    }
}
