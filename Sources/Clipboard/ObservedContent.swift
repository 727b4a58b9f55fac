/// What a selection held, with what an observer made of its text.
public struct ObservedContent<State: Sendable>: Sendable {
    /// The text or image: the same a read without an observer returns.
    public var content: ClipboardContent
    /// The observer's state after it saw all of the text, in order; nil when the content was
    /// not observed (text that came in one reply or in an encoding decoded at the end, an
    /// image, or no observer): the caller then looks at the content itself.
    public var observation: State?

    /// Pairs what was read with an observation.
    public init(content: ClipboardContent, observation: State?) {
        self.content = content
        self.observation = observation
    }
}
