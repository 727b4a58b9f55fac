/// What a failure means, decided once, by the error that says it (curl's one `retrycheck()` in
/// src/tool_operate.c): whether to ask again in this run, go to a fallback, wait in the outbox
/// for `paste --retry`, hold the text for the person, or not keep it at all; the status the run
/// ends with; and what the words about the text need to know (`Reason`).
///
/// Every `PasteError` has one (`PasteError.disposition`; held by default): each module's error
/// computes it from its own cases, where the error is born. The stages read it and never cast a
/// failure's cause back to its type to decide again: the upload's retry policy reads
/// `isRetriedNow`, the fallback chain `fallsBack`, the outbox `outboxVerdict`, the record stage
/// `isKeptWhenFresh`, `--retry` `reason == .unreachable`, and PasteCLI's words (`PasteFailure`)
/// the reason.
public struct Disposition: Sendable, Equatable {
    /// What becomes of the text, from the most hopeful to the least; each course includes the
    /// ones after it that keep the text (asked again and still failing, it falls back; no
    /// fallback taking it, it waits in the outbox, retryable).
    public enum Course: Int, Sendable, Comparable {
        /// Nothing reached the server and it may pass in a moment (resolve, connect, a timeout
        /// before the body): ask again in this run, after a backoff.
        case retryNow
        /// The service failed in a way another service may not: its fallback takes the text.
        case fallBack
        /// Nothing was made, but asking again now gains nothing: the text waits in the outbox,
        /// retryable (`paste --retry` sends it).
        case retryLater
        /// The server may have made the paste, or only the person can decide: the text is held
        /// in the outbox until `paste --outbox send` or `drop`.
        case hold
        /// It can never be sent as it is: a fresh text is not kept (its owner still has it), an
        /// entry already in the outbox is held.
        case drop

        public static func < (lhs: Course, rhs: Course) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Why the text is where it goes, as far as the words about it differ.
    public enum Reason: Sendable, Equatable {
        /// The service could not be reached at all, before any request byte went out: `--retry`
        /// asks it once per run.
        case unreachable
        /// The secret guard holds it: only `--force` sends it.
        case heldByGuard
        /// An outbox entry whose text changed since it was kept: its message says it all.
        case contentChanged
        /// Its service is not configured any more (named).
        case serviceGone(String)
        /// Its URL can never be sent (a scheme other than http or https).
        case unsendableURL
        /// The service refused it for good (a 4xx other than 408, 425 and 429).
        case permanentRefusal
    }

    /// What becomes of the text.
    public var course: Course
    /// The status the run ends with for this failure (a signal or an outbox that cannot take
    /// the text say otherwise: `PasteFailure`).
    public var exitStatus: ExitStatus
    /// What the words about the text need to know, when they differ from the course's own.
    public var reason: Reason?

    public init(_ course: Course, exitStatus: ExitStatus, reason: Reason? = nil) {
        self.course = course
        self.exitStatus = exitStatus
        self.reason = reason
    }

    /// Whether the request is sent again in this run, to the same service.
    public var isRetriedNow: Bool { course == .retryNow }
    /// Whether the text goes on to its service's fallback chain.
    public var fallsBack: Bool { course <= .fallBack }
    /// Whether a fresh text (stdin, the clipboard, a file) is kept in the outbox: not when it
    /// can never be sent.
    public var isKeptWhenFresh: Bool { course != .drop }
}

extension PasteError {
    /// Held, with the error's status, unless the error says otherwise: never risk a second paste.
    public var disposition: Disposition { Disposition(.hold, exitStatus: exitStatus) }
}
