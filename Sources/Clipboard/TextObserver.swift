/// Looks at a selection's text while it is read: in paste, the secret guard's scanner.
///
/// Only a large selection, one its owner sends in increments (INCR, ICCCM §2.7.2), is
/// observed: each increment goes to `observe` as soon as it arrives, on a thread the read
/// starts for that transfer (`JoinableThread`), so the work overlaps the transfer on a second
/// core. That thread is joined, and gone from the process, before the read returns or throws:
/// a process that was single-threaded before the read is single-threaded after it, and may
/// still fork the selection owner (STYLE rule 21).
///
/// A selection that arrives in one reply (anything under the owner's increment size, such as
/// the kilobyte of a hotkey press) starts no thread and is not observed: the read returns it
/// with no observation, and the caller looks at the whole text as it would without an
/// observer, at no extra cost. Transfers in encodings that are decoded only at the end
/// (`COMPOUND_TEXT`, `text/…` types) are not observed either.
///
/// `observe` sees every byte of the text exactly once, in order, as UTF-8 (a `STRING`
/// transfer is decoded increment by increment): the chunks joined are the text the read
/// returns. It runs on the read's thread for that transfer, never on the caller's, and may be
/// slow: the owner then waits for us (the hand-over holds a few MiB at most).
public struct TextObserver<State: Sendable>: Sendable {
    /// What the observer has made of the chunks so far.
    public var state: State
    /// Takes the next chunk.
    public let observe: @Sendable (inout State, [UInt8]) -> Void

    /// Makes an observer starting from `state`.
    ///
    /// - Parameters:
    ///   - state: the state before any text (a fresh scanner).
    ///   - observe: folds the next chunk into the state (feeds the scanner).
    public init(_ state: State, observe: @escaping @Sendable (inout State, [UInt8]) -> Void) {
        self.state = state
        self.observe = observe
    }
}

/// A `TextObserver` of any state, so the reader need not be generic.
protocol ChunkObserving: Sendable {
    /// Folds the next chunk into the state.
    mutating func take(_ chunk: [UInt8])
}

extension TextObserver: ChunkObserving {
    mutating func take(_ chunk: [UInt8]) { observe(&state, chunk) }
}
