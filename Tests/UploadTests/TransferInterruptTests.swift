import Foundation
import PasteCore
import Synchronization
import Testing
import TestSupport

@testable import Upload

/// A transfer told to stop (`TransportOptions.shouldStop`, what paste answers once SIGINT,
/// SIGTERM or SIGHUP arrived) ends as `UploadError.interrupted`, saying whether the whole body
/// went out; a stream's end is reported the moment it is read, its tee already whole.
@Suite("Transfers that are told to stop", .testServer)
struct TransferInterruptTests: ScopedSuite {
    /// A flag the test raises and the transfer reads.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func raise() { value.store(true, ordering: .relaxed) }
        var isRaised: Bool { value.load(ordering: .relaxed) }
    }

    @Test("stopped while a stream is still going out: interrupted, the body not sent")
    func stoppedMidStream() throws {
        let stop = Flag()
        var options = TransportOptions()
        options.shouldStop = { stop.isRaised }
        let uploader = Uploader(options: options)
        // A pipe that is never closed: the body cannot end by itself.
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data(repeating: 0x61, count: 1000))
        let request = UploadRequest(
            url: server.base + "/delay?s=30",
            body: .raw(
                .stream(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, prefix: [], teePath: nil),
                contentType: "text/plain"),
            result: .body)
        let started = ContinuousClock.now
        #expect(throws: UploadError.interrupted(url: server.base + "/delay?s=30", bodySent: false)) {
            // The first chunk read raises the flag: the next progress callback stops it.
            _ = try uploader.send(request, streamObserver: { _ in stop.raise() })
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        try pipe.fileHandleForWriting.close()
    }

    @Test("stopped once the whole body went out: interrupted, the body sent (the paste may exist)")
    func stoppedAfterBody() throws {
        let stop = Flag()
        var options = TransportOptions()
        let body = [UInt8](repeating: 0x62, count: 100_000)
        options.progress = { sent, total in if total == Int64(body.count), sent == total { stop.raise() } }
        options.shouldStop = { stop.isRaised }
        let uploader = Uploader(options: options)
        let request = UploadRequest(
            url: server.base + "/delay?s=30", body: .raw(.bytes(body), contentType: "text/plain"), result: .body)
        let started = ContinuousClock.now
        #expect(throws: UploadError.interrupted(url: server.base + "/delay?s=30", bodySent: true)) {
            _ = try uploader.send(request)
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        // Held when the body went out, retryable when it did not; never retried in the run.
        #expect(UploadError.interrupted(url: "", bodySent: true).outboxVerdict == .held)
        #expect(UploadError.interrupted(url: "", bodySent: false).outboxVerdict == .retryable)
        let policy = RetryPolicy(maximumAttempts: 4)
        #expect(policy.decide(after: .failure(.interrupted(url: "", bodySent: false)), attempt: 1) == .stop)
    }

    @Test("a stream's end is reported once, when it is read, with its tee already whole")
    func streamEndReported() throws {
        let content = Array(repeating: Array("a streamed line\n".utf8), count: 40_000).flatMap { $0 }
        let tee = try TemporaryFile()
        let pipe = FedPipe(content)
        let ends = Mutex<[Int]>([])
        let request = UploadRequest(
            url: server.base + "/raw",
            body: .raw(
                .stream(fileDescriptor: pipe.readDescriptor, prefix: [], teePath: tee.path), contentType: "text/plain"),
            result: .body)
        let echo = try Echo(
            try Uploader().send(request, streamEnd: { ends.withLock { $0.append(tee.contents.count) } }))
        #expect(echo.bodyBytes == content)
        #expect(ends.withLock { $0 } == [content.count])
    }
}
