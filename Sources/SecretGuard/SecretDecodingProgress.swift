/// How far the decodings have got through a text, kept by the scanner from one trigger to the
/// next (and across chunks): each decoding slot's region covers the triggers up to a stream
/// offset, and a `data:` block cut at a region's end goes on at one (issue 45, items 8 and 12).
///
/// A trigger covered by an earlier region of its slot is not decoded again, so a run of
/// triggers costs one region per `SecretDecoding.restartDistance` bytes: linear time, where each
/// trigger once looked back over its run for an earlier one (16 MiB of `%20` took 5 to 9 s).
struct SecretDecodingProgress: Sendable {
    /// Per slot (`SecretDecoding.slot(of:at:)`): the stream offset before which its triggers
    /// are covered.
    var coveredThrough = [Int](repeating: 0, count: SecretDecoding.slotCount)
    /// Where a `data:` block goes on (a stream offset), and whether it is JSON.
    var continuation: (at: Int, isJSON: Bool)?
    /// How many bytes the decodings went over: what a test holds against the text's length
    /// to show the work is linear (a count, never a time).
    var work = 0

    /// Whether the trigger at stream offset `offset` of `slot` is covered by an earlier region.
    func covers(_ offset: Int, slot: Int) -> Bool {
        offset < coveredThrough[slot]
    }

    /// Takes in a region decoded for `slot` from a window starting at stream offset `base`.
    mutating func record(_ region: SecretRegion, slot: Int, base: Int) {
        coveredThrough[slot] = max(coveredThrough[slot], base + region.coveredEnd)
        if let next = region.continuation { continuation = (base + next.at, next.isJSON) }
        work += region.work
    }
}
