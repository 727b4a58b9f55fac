/// The candidates one call of `CandidateSearch.find` found: positions and their groups, in order.
///
/// Reused from call to call (its storage is allocated once, at `capacity`).
public struct CandidateBatch: Sendable {
    /// How many candidates the batch holds.
    public internal(set) var count = 0
    @usableFromInline var positions: [Int]
    @usableFromInline var groups: [UInt8]

    /// How many candidates one batch holds: enough that the call costs little beside them, and at
    /// least one step's worth (`CSECRET_SCAN_STEP`, 8).
    public static let defaultCapacity = 256

    /// Makes an empty batch.
    public init(capacity: Int = CandidateBatch.defaultCapacity) {
        precondition(capacity >= 8, "a batch holds at least one step")
        positions = [Int](repeating: 0, count: capacity)
        groups = [UInt8](repeating: 0, count: capacity)
    }

    /// The position of candidate `index` in the text searched.
    @inlinable public func position(_ index: Int) -> Int { positions[index] }

    /// The group (of the pair table) of candidate `index`.
    @inlinable public func group(_ index: Int) -> Int { Int(groups[index]) }
}
