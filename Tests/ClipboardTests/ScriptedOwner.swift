import Foundation
import Testing
import TestSupport
import X11Interop

/// A CLIPBOARD owner for tests that answers as it is told, on its own connection and thread:
/// owners that xclip cannot play (text and an image at once, one that refuses what it lacks,
/// one that sends forever). It records every target asked of it, so tests can check how many
/// steps a read took.
final class ScriptedOwner: @unchecked Sendable {
    // Safe: `requests` and `isStopping` are only touched under `lock`; everything X lives on
    // the owner's own thread.

    /// What the owner does for one target.
    enum Answer: Sendable {
        /// These bytes in this type (by INCR when they do not fit one request).
        case bytes([UInt8], type: String)
        /// INCR chunks of this type without end, for as long as the requestor takes them.
        case endless(type: String)
        /// INCR chunks of `chunk` bytes of this type without end, each sent `interval` after the
        /// requestor took the one before: an owner that trickles to hold the reader (issue 29).
        case trickle(type: String, chunk: Int, interval: Duration)
    }

    private let lock = NSLock()
    private var requests: [String] = []
    private var isStopping = false
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var startError: String?

    /// The bytes an INCR chunk carries: well under any server's request limit.
    static let chunkSize = 64 << 10
    /// The owner gives up on its own after this long, so a test that fails cannot leave it.
    static let lifetime: TimeInterval = 120

    /// Takes CLIPBOARD on `server` and serves it on a thread until `stop()`.
    ///
    /// - Parameters:
    ///   - answers: the answer per target; `TARGETS` lists these (and `TARGETS`), and any
    ///     other target is refused.
    ///   - answeringEveryTarget: an answer for every target that is not in `answers` (as
    ///     `xclip -t TYPE` gives), instead of a refusal.
    ///   - refusesTargets: refuse `TARGETS` too (as wlroots' XWayland refuses everything while
    ///     no X window has focus).
    convenience init(
        on server: Xvfb, answers: [String: Answer], answeringEveryTarget: Answer? = nil, refusesTargets: Bool = false
    ) throws {
        try self.init(
            displayName: server.display, answers: answers, answeringEveryTarget: answeringEveryTarget,
            refusesTargets: refusesTargets)
    }

    /// The same on the X server at `displayName` (sway's XWayland: `Sway.xDisplay`).
    init(
        displayName: String, answers: [String: Answer], answeringEveryTarget: Answer? = nil,
        refusesTargets: Bool = false
    ) throws {
        Thread.detachNewThread { [self] in
            serve(
                displayName: displayName, answers: answers, fallback: answeringEveryTarget,
                refusesTargets: refusesTargets)
        }
        guard ready.wait(timeout: .now() + 30) == .success else { throw OwnerFailed(reason: "no start in 30 s") }
        if let startError = lock.withLock({ startError }) { throw OwnerFailed(reason: startError) }
    }

    /// The targets asked of the owner so far, in order (TARGETS included).
    var requestedTargets: [String] { lock.withLock { requests } }

    /// Stops serving and closes the connection; waits (bounded) for the thread to end.
    func stop() {
        let wasStopping = lock.withLock {
            defer { isStopping = true }
            return isStopping
        }
        if !wasStopping { _ = finished.wait(timeout: .now() + 30) }
    }

    deinit { stop() }

    private var shouldStop: Bool { lock.withLock { isStopping } }

    /// One INCR transfer in progress.
    private struct Transfer {
        var bytes: [UInt8]
        var offset = 0
        var type: Atom
        var isEndless: Bool
        var isDone = false
        /// For a trickle: the size of each chunk, and the time between a deletion and the next.
        var trickle: (chunk: Int, interval: Duration)?
    }

    private func serve(displayName: String, answers: [String: Answer], fallback: Answer?, refusesTargets: Bool) {
        defer { finished.signal() }
        let display: Display
        do { display = try Display(name: displayName) } catch {
            lock.withLock { startError = "cannot open \(displayName)" }
            ready.signal()
            return
        }
        defer { display.close() }
        let window = display.createWindow(events: .propertyChange)
        let clipboard = display.atom("CLIPBOARD")
        let targetsAtom = display.atom("TARGETS")
        let incr = display.atom("INCR")
        let atomType = display.atom("ATOM")
        guard let time = try? display.serverTime(using: window, before: .now + .seconds(10)) else {
            lock.withLock { startError = "no server time" }
            ready.signal()
            return
        }
        display.setSelectionOwner(clipboard, to: window, at: time)
        guard display.selectionOwner(clipboard) == window else {
            lock.withLock { startError = "did not get the CLIPBOARD" }
            ready.signal()
            return
        }
        ready.signal()

        var transfers: [UInt: (property: Atom, transfer: Transfer)] = [:]
        let noise: [UInt8] = (0..<Self.chunkSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        // A trickle's next chunks, by requestor window: when each is due.
        var due: [UInt: ContinuousClock.Instant] = [:]
        let end = Date().addingTimeInterval(Self.lifetime)
        while !shouldStop && Date() < end {
            let now = ContinuousClock.now
            for (raw, instant) in due where instant <= now {
                due[raw] = nil
                guard let (property, transfer) = transfers[raw], let trickle = transfer.trickle else { continue }
                display.changeProperty(
                    property, of: Window(rawValue: raw), type: transfer.type, bytes: noise[..<trickle.chunk])
                display.flush()
            }
            let wake = min(now + .milliseconds(50), due.values.min() ?? now + .milliseconds(50))
            guard let event = display.nextEvent(before: wake) else { continue }
            switch event {
            case .selectionRequest(let request):
                let name = display.name(of: request.target) ?? "?"
                lock.withLock { requests.append(name) }
                let property = request.property.isNone ? request.target : request.property
                let answer = answers[name] ?? (name == "TARGETS" ? nil : fallback)
                if name == "TARGETS" && answers["TARGETS"] == nil && !refusesTargets {
                    let offered = [targetsAtom] + answers.keys.sorted().map { display.atom($0) }
                    display.changeProperty(property, of: request.requestor, type: atomType, atoms: offered)
                } else if let answer {
                    let (bytes, typeName, isEndless): ([UInt8], String, Bool) =
                        switch answer {
                        case .bytes(let bytes, let type): (bytes, type, false)
                        case .endless(let type), .trickle(let type, _, _): ([], type, true)
                        }
                    var trickle: (chunk: Int, interval: Duration)?
                    if case .trickle(_, let chunk, let interval) = answer { trickle = (chunk, interval) }
                    let type = display.atom(typeName)
                    if !isEndless && bytes.count <= Self.chunkSize {
                        display.changeProperty(property, of: request.requestor, type: type, bytes: bytes[...])
                    } else {
                        display.selectEvents(.propertyChange, on: request.requestor)
                        display.changeProperty(
                            property, of: request.requestor, type: incr, values: [UInt(bytes.count)])
                        transfers[request.requestor.rawValue] = (
                            property, Transfer(bytes: bytes, type: type, isEndless: isEndless, trickle: trickle)
                        )
                    }
                } else {
                    display.sendSelectionNotify(
                        to: request.requestor, selection: request.selection, target: request.target, property: nil,
                        time: request.time)
                    display.flush()
                    continue
                }
                display.sendSelectionNotify(
                    to: request.requestor, selection: request.selection, target: request.target, property: property,
                    time: request.time)
                display.flush()
            case .propertyNotify(let change) where change.state == .deleted:
                guard let (property, current) = transfers[change.window.rawValue], change.property == property
                else { continue }
                var transfer = current
                if transfer.isDone {
                    transfers[change.window.rawValue] = nil
                    continue
                }
                if let trickle = transfer.trickle {
                    due[change.window.rawValue] = .now + trickle.interval
                    continue
                }
                let chunk: ArraySlice<UInt8>
                if transfer.isEndless {
                    chunk = noise[...]
                } else {
                    let upTo = min(transfer.offset + Self.chunkSize, transfer.bytes.count)
                    chunk = transfer.bytes[transfer.offset..<upTo]
                    transfer.offset = upTo
                    transfer.isDone = chunk.isEmpty
                }
                display.changeProperty(property, of: change.window, type: transfer.type, bytes: chunk)
                display.flush()
                transfers[change.window.rawValue] = (property, transfer)
            case .selectionClear:
                return
            default:
                continue
            }
        }
    }
}

/// The scripted owner could not start.
struct OwnerFailed: Error, CustomStringConvertible {
    var reason: String
    var description: String { "scripted owner: \(reason)" }
}
