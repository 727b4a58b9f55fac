/// RFC 6901 JSON pointers (`/files/0/link`), for every JSON value type paste reads
/// (`OrderedJSON`): the pointer's reference tokens, and the rule for an array index.
enum JSONPointer {
    /// The reference tokens of `pointer`, `~1` and `~0` unescaped: none for `""` (the whole
    /// document), nil when it does not start with `/`.
    static func tokens(_ pointer: String) -> [String]? {
        guard !pointer.isEmpty else { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacingAll("~1", with: "/").replacingAll("~0", with: "~")
        }
    }

    /// The element `token` names in an array of `count`: a decimal index written without
    /// leading zeros or sign, within the array; else nil.
    static func index(_ token: String, count: Int) -> Int? {
        guard let index = Int(token), token == String(index), (0..<count).contains(index) else { return nil }
        return index
    }
}
