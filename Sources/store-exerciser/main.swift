// store-exerciser: drives PasteCore's stores (history, outbox journal) from a process of its own,
// for the tests that kill processes at random moments (TestSupport's KillHarness) or run them
// where the disk is full or read-only. Tests only: never installed.
//
// It prints one line after each step, so a test can kill it "after step k"; with --stepped first,
// it then waits for a byte on stdin before going on (TestSupport's KillHarness, `isStepped`), so
// the test can stop it exactly between two steps (end of input lets it run free):
//
//   store-exerciser history FILE COUNT SEED
//       appends COUNT records ("appended I")
//   store-exerciser journal FOLDER SEED SIZE MODE OUTCOME
//       one entry's life: MODE stream (create, append 4 KiB chunks, finishContent, markInFlight),
//       stream-in-flight (created in flight, then the chunks and finishContent) or bytes
//       (create with the whole content, markInFlight); then OUTCOME success, retryable, held or
//       discard. Lines: "created NAME", "appended N", "finished", "in-flight", then "removed",
//       "recorded STATE" or "discarded". The content is SeededRandom.bytes(seed: SEED, count: SIZE).
//   store-exerciser claim FOLDER LOG
//       sends every due entry as `paste --retry` will: claimDue, markInFlight, one line
//       "NAME" appended to LOG (the send), recordSuccess; prints "sent NAME"; until none is due
//   store-exerciser save FOLDER SIZE MODE
//       saves SIZE bytes (MODE bytes or stream) and records a failure; prints "saved ID", or
//       "paste: the text could not be saved: …" on stderr and exits 74
import FoundationEssentials
import PasteCore
import Stores
import SystemInterop
import TestSupport

/// A usage error: the tests call this program, so this never reaches a person.
func usage() -> Never {
    StandardStream.error.write("usage: store-exerciser history|journal|claim|save ... (see its source)\n")
    CurrentProcess.exit(64)
}

/// Prints one progress line; when stepped, waits for the go-ahead.
func say(_ line: String) {
    StandardStream.output.write(line + "\n")
    if isStepped {
        _ = try? StandardStream.input.withDescriptor { (input) throws(Errno) in try input.read(upTo: 1) }
    }
}

/// Ends the run after a store failure, as paste will.
func fail(_ error: any PasteError) -> Never {
    StandardStream.error.write("paste: \(error.message)\n")
    CurrentProcess.exit(error.exitStatus.rawValue)
}

let isStepped = CommandLine.arguments.dropFirst().first == "--stepped"
let arguments = Array(CommandLine.arguments.dropFirst(isStepped ? 2 : 1))
guard let command = arguments.first else { usage() }
let metadata = OutboxEntry.Metadata(service: "exercise", title: "exercise", created: .now)
let chunkSize = 4096

do {
    switch (command, arguments.count) {
    case ("history", 4):
        guard let count = Int(arguments[2]), let seed = UInt64(arguments[3]) else { usage() }
        let history = History(path: arguments[1])
        for index in 0..<count {
            try history.append(
                HistoryRecord(
                    time: .now, service: "exercise", url: "https://paste.example/\(seed)/\(index)",
                    byteCount: Int64(index), sha256: String(repeating: "a", count: 64),
                    title: String(repeating: "t", count: 300), options: "0123456789abcdef"))
            say("appended \(index)")
        }

    case ("journal", 6):
        guard let seed = UInt64(arguments[2]), let size = Int(arguments[3]) else { usage() }
        let outbox = Outbox(folder: arguments[1])
        let content = SeededRandom.bytes(seed: seed, count: size)
        let mode = arguments[4]
        let claim: OutboxClaim
        switch mode {
        case "stream", "stream-in-flight":
            claim = try outbox.create(metadata, inFlight: mode == "stream-in-flight")
            say("created \(claim.entry.name)")
            var offset = 0
            while offset < content.count {
                let end = min(offset + chunkSize, content.count)
                try claim.append(Array(content[offset..<end]))
                offset = end
                say("appended \(offset)")
            }
            try claim.finishContent()
            say("finished")
            if mode == "stream" {
                try claim.markInFlight()
                say("in-flight")
            }
        case "bytes":
            claim = try outbox.create(metadata, content: content)
            say("created \(claim.entry.name)")
            try claim.markInFlight()
            say("in-flight")
        default:
            usage()
        }
        switch arguments[5] {
        case "success":
            try claim.recordSuccess()
            say("removed")
        case "retryable", "held":
            let verdict: OutboxFailure.Verdict = arguments[5] == "held" ? .held : .retryable
            let entry = try claim.recordFailure(OutboxFailure(verdict: verdict, message: "exercise"))
            say("recorded \(entry.metadata.effectiveState.rawValue)")
        case "discard":
            try claim.discard()
            say("discarded")
        default:
            usage()
        }

    case ("claim", 3):
        let outbox = Outbox(folder: arguments[1])
        let log = try FileDescriptor.open(arguments[2], .writeOnly, options: [.append, .create])
        var sentAny = true
        while sentAny {
            sentAny = false
            for entry in try outbox.dueEntries() {
                guard let claim = try outbox.claimDue(entry) else { continue }
                try claim.markInFlight()
                try log.writeAll(Array((entry.name + "\n").utf8))
                say("sent \(entry.name)")
                try claim.recordSuccess()
                sentAny = true
            }
        }

    case ("save", 4):
        guard let size = Int(arguments[2]) else { usage() }
        let outbox = Outbox(folder: arguments[1])
        let content = SeededRandom.bytes(seed: 1, count: size)
        do {
            let claim: OutboxClaim
            if arguments[3] == "bytes" {
                claim = try outbox.create(metadata, content: content, inFlight: true)
            } else {
                claim = try outbox.create(metadata, inFlight: true)
                do {
                    var offset = 0
                    while offset < content.count {
                        let end = min(offset + chunkSize, content.count)
                        try claim.append(Array(content[offset..<end]))
                        offset = end
                    }
                    try claim.finishContent()
                } catch {
                    // A stream that could not be kept whole is not kept at all.
                    try? claim.discard()
                    throw error
                }
            }
            try claim.recordFailure(OutboxFailure(verdict: .retryable, message: "exercise"))
            say("saved \(claim.id)")
        } catch let error as StoreError {
            fail(TextNotSaved(failure: error, isOnClipboard: false))
        }

    default:
        usage()
    }
} catch let error as any PasteError {
    fail(error)
} catch {
    StandardStream.error.write("store-exerciser: \(error)\n")
    CurrentProcess.exit(70)
}
CurrentProcess.exit(0)
