import Testing

@testable import SystemInterop

@Suite("Errno: one error type, with the message paste prints")
struct ErrnoTests {
    @Test(
        "messages are strerror's text, first letter lowercased; acronyms stay",
        arguments: [
            (Errno.noSuchFileOrDirectory, "no such file or directory"),
            (.permissionDenied, "permission denied"),
            (.brokenPipe, "broken pipe"),
            (.noSpace, "no space left on device"),
            (.tooManySymbolicLinks, "too many levels of symbolic links"),
            (.ioError, "input/output error"),
            (Errno(rawValue: 9999), "unknown error 9999"),
            (Errno(rawValue: 73), "RFS specific error"),  // EDOTDOT: an acronym keeps its case
        ])
    func message(error: Errno, text: String) {
        #expect(error.message == text)
        #expect("\(error)" == text)
    }

    @Test("a failed call throws the errno it set, typed")
    func thrownFromACall() {
        #expect(throws: Errno.noSuchFileOrDirectory) {
            _ = try FileDescriptor.open("/nonexistent/paste-interop", .readOnly)
        }
        #expect(throws: Errno.isDirectory) { _ = try FileSystem.readFile("/") }
    }

    @Test("EAGAIN and EWOULDBLOCK are one value")
    func wouldBlockIsAgain() {
        #expect(Errno.wouldBlock == Errno(rawValue: 11))
    }
}
