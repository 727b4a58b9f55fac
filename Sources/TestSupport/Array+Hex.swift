extension [UInt8] {
    /// The bytes that pairs of hex digits spell (`"00ff"` is `[0, 255]`), for test vectors.
    ///
    /// The text is the test's own literal: a digit that is not hex stops the run.
    public init(hex: String) {
        self = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
    }
}
