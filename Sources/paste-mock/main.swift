// paste-mock: the mock pastebin the tests and benchmarks talk to. Foundation and Glibc only; it
// shares no code with the client, so a bug in the client's encoders cannot hide behind the mock.
import Foundation
import Glibc

/// Exit statuses (sysexits.h): usage mistakes and listeners we cannot open.
let exitUsage: Int32 = 64
let exitUnavailable: Int32 = 69

// Block SIGTERM and SIGINT before any thread exists, so every thread inherits the mask and the
// main thread alone receives them through `sigwait`: shutdown is then ordinary code, not a
// signal handler. SIGPIPE is ignored; writes use MSG_NOSIGNAL anyway.
var shutdownSignals = sigset_t()
sigemptyset(&shutdownSignals)
sigaddset(&shutdownSignals, SIGTERM)
sigaddset(&shutdownSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &shutdownSignals, nil)
signal(SIGPIPE, SIG_IGN)

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("paste-mock: \(message)\n".utf8))
    exit(status)
}

let options: MockOptions
do throws(MockOptions.UsageError) {
    switch try MockOptions.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(MockOptions.usage, terminator: "")
        exit(0)
    case .run(let parsed): options = parsed
    }
} catch {
    fail("\(error.message)\nTry 'paste-mock --help'.", status: exitUsage)
}

let mock: PasteMock
do throws(SocketError) {
    mock = try PasteMock(options: options)
} catch {
    fail("cannot listen on \(options.host): \(error)", status: exitUnavailable)
}

// The contract: the first stdout line names the HTTP URL, the second the TCP listener.
var banner = "listening on http://\(options.host):\(mock.http.port)\n"
if let tcp = mock.tcp { banner += "tcp listening on \(options.host):\(tcp.port)\n" }
FileHandle.standardOutput.write(Data(banner.utf8))  // unbuffered: one write(2), nothing to flush

Thread.detachNewThread { mock.serveHTTP() }
if mock.tcp != nil { Thread.detachNewThread { mock.serveTCP() } }

var received: Int32 = 0
while sigwait(&shutdownSignals, &received) != 0 {}
if options.isVerbose {
    FileHandle.standardError.write(Data("paste-mock: signal \(received), exiting\n".utf8))
}
// `_exit`: connection threads may be mid-request; skip atexit work that could race them.
_exit(0)
