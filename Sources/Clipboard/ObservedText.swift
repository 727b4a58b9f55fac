/// A selection's text, with what an observer made of it.
public struct ObservedText<State: Sendable>: Sendable {
    /// The text, as UTF-8: the same bytes a read without an observer returns.
    public var text: [UInt8]
    /// The observer's state after it saw all of `text`, in order; nil when the text was not
    /// observed (it came in one reply, or in an encoding decoded at the end, or there was no
    /// observer): the caller then looks at `text` itself.
    public var observation: State?

    /// Pairs a text with an observation.
    public init(text: [UInt8], observation: State?) {
        self.text = text
        self.observation = observation
    }
}
