/// The command line of `paste-mock`, parsed.
struct MockOptions: Sendable {
    var host = "127.0.0.1"
    var port = 0
    /// The termbin-style listener's port; nil when not enabled.
    var tcpPort: Int?
    /// Largest body kept per request (bytes); larger bodies get 413.
    var maxBody = 256 << 20
    /// Count and hash bodies instead of keeping them.
    var discardsBodies = false
    /// One stderr line per request.
    var isVerbose = false
    /// Faults for the whole run (or their own `count`).
    var faults: [Fault] = []
    /// Seconds of silence after which a TCP paste counts as complete (fiche-style).
    var tcpIdleSeconds = 5.0
    /// The scheme of the URLs in answers: `https` when a TLS-terminating forwarder is in front.
    var urlScheme = "http"

    /// The usage text for `--help`.
    static let usage = """
        usage: paste-mock [--host ADDR] [--port N] [--tcp-port N] [--max-body SIZE]
                          [--discard-bodies] [--fault SPEC]... [--tcp-idle SECONDS]
                          [--url-scheme http|https] [--verbose]

        A mock pastebin for tests. Prints `listening on http://ADDR:PORT` first, then serves
        until SIGTERM or SIGINT. See paste-mock(1) for routes and faults.

          --host ADDR        IPv4 address to listen on (default 127.0.0.1)
          --port N           HTTP port, 0 picks a free one (default 0)
          --tcp-port N       also accept termbin-style raw TCP pastes on port N (0: free port)
          --max-body SIZE    largest request body kept, e.g. 256M (default 256M); beyond: 413
          --discard-bodies   count and hash bodies but do not keep them (benchmarks)
          --fault SPEC       NAME[:KEY=VALUE,...] or a JSON object; repeatable
          --tcp-idle SECONDS a TCP paste ends after this much silence (default 5)
          --url-scheme S     http (default) or https: the scheme of URLs in answers, for a mock
                             behind a TLS-terminating forwarder
          -v, --verbose      one line per request on stderr
          -h, --help         this text

        """

    /// What the command line asked for.
    enum Parsed {
        case run(MockOptions)
        case help
    }

    /// A command-line mistake, with its message.
    struct UsageError: Error {
        var message: String
    }

    /// Parses arguments (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var options = MockOptions()
        var rest = arguments[...]
        func value(_ option: String) throws(UsageError) -> String {
            guard let v = rest.popFirst() else { throw UsageError(message: "\(option) needs a value") }
            return v
        }
        func port(_ option: String) throws(UsageError) -> Int {
            let text = try value(option)
            guard let n = Int(text), (0...65535).contains(n) else {
                throw UsageError(message: "\(option): '\(text)' is not a port number")
            }
            return n
        }
        while let argument = rest.popFirst() {
            var name = argument
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                rest.insert(String(argument[argument.index(after: eq)...]), at: rest.startIndex)
            }
            switch name {
            case "--host": options.host = try value(name)
            case "--port": options.port = try port(name)
            case "--tcp-port": options.tcpPort = try port(name)
            case "--max-body":
                let text = try value(name)
                guard let n = parseSize(text) else { throw UsageError(message: "--max-body: bad size '\(text)'") }
                options.maxBody = n
            case "--discard-bodies": options.discardsBodies = true
            case "--fault":
                let spec = try value(name)
                do throws(Fault.SpecError) {
                    options.faults.append(try Fault(spec: spec))
                } catch {
                    throw UsageError(message: "--fault: \(error.description)")
                }
            case "--tcp-idle":
                let text = try value(name)
                guard let s = Double(text), s > 0 else {
                    throw UsageError(message: "--tcp-idle: bad seconds '\(text)'")
                }
                options.tcpIdleSeconds = s
            case "--url-scheme":
                let text = try value(name)
                guard text == "http" || text == "https" else {
                    throw UsageError(message: "--url-scheme: '\(text)' is not http or https")
                }
                options.urlScheme = text
            case "-v", "--verbose": options.isVerbose = true
            case "-h", "--help": return .help
            default: throw UsageError(message: "unknown option '\(argument)'")
            }
        }
        return .run(options)
    }
}
