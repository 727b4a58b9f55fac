/// Looks at a selection's text while it is read: in paste, the secret guard's scanner.
///
/// Only a large selection, one its owner sends in increments (INCR, ICCCM §2.7.2), is
/// observed, as it arrives, so the work overlaps the transfer:
/// - on X11, on the reading thread itself, in place in the buffer the text is joined in, right
///   after each increment (or 256 KiB of small ones) was read. Reading an increment deletes its
///   property, which asks the owner for the next one: the owner and the X server make it while
///   the observer looks at this one (see `SelectionReader`). No copy, no thread;
/// - on Wayland, where the owner writes into a pipe that holds far less than an increment, on a
///   thread the read starts for that transfer (`ObservedTransfer`, `JoinableThread`), so that
///   the owner is not kept waiting on a full pipe while the observer works. That thread is
///   joined, and gone from the process, before the read returns or throws.
/// Either way a process that was single-threaded before the read is single-threaded after it,
/// and may still fork the selection owner (STYLE rule 21).
///
/// PERF(clipboard): the X11 observer ran on a second thread, each piece copied over to it; in
/// place on the reader's thread a guarded `paste -c -n` of the bench's 64 MiB takes 101-107 ms
/// of CPU where it took 108-127 ms (`perf stat -e task-clock`, Zen 1): the copy is gone, the
/// piece is scanned while it is still in the cache, and on two cores the X server and the owner
/// keep the other one busy anyway.
///
/// A selection that arrives in one reply (anything under the owner's increment size, such as
/// the kilobyte of a hotkey press) starts no thread and is not observed: the read returns it
/// with no observation, and the caller looks at the whole text as it would without an
/// observer, at no extra cost. Transfers in encodings that are decoded only at the end
/// (`COMPOUND_TEXT`, `text/…` types) are not observed either.
///
/// `observe` sees every byte of the text exactly once, in order, as UTF-8 (a `STRING`
/// transfer is decoded increment by increment): the chunks joined are the text the read
/// returns. Each chunk is lent for the call only (a `Span` of the read's own buffer). It may be
/// slow: the owner then waits for us (on Wayland the hand-over holds a few MiB at most).
public struct TextObserver<State: Sendable>: Sendable {
    /// What the observer has made of the chunks so far.
    public var state: State
    /// Takes the next chunk.
    public let observe: @Sendable (inout State, Span<UInt8>) -> Void

    /// Makes an observer starting from `state`.
    ///
    /// - Parameters:
    ///   - state: the state before any text (a fresh scanner).
    ///   - observe: folds the next chunk into the state (feeds the scanner).
    public init(_ state: State, observe: @escaping @Sendable (inout State, Span<UInt8>) -> Void) {
        self.state = state
        self.observe = observe
    }
}

/// A `TextObserver` of any state, so the reader need not be generic.
protocol ChunkObserving: Sendable {
    /// Folds the next chunk into the state.
    mutating func take(_ chunk: Span<UInt8>)
}

extension TextObserver: ChunkObserving {
    mutating func take(_ chunk: Span<UInt8>) { observe(&state, chunk) }
}
