/// The one place that finds what a mistyped name was meant to be, for the "did you mean"
/// of an unknown config key, section, service or option.
public enum Spelling {
    /// The optimal string alignment distance between two words, ignoring case: the fewest
    /// insertions, deletions, substitutions and swaps of two neighbours that turn one into the
    /// other (`servce` → `service` is 1, `sevrice` → `service` is 1).
    public static func distance(_ first: String, _ second: String) -> Int {
        let a = Array(first.lowercased())
        let b = Array(second.lowercased())
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Three rows: the one before the previous is needed for a swap.
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    /// Whether a name `distance` edits from a candidate is close enough to suggest it: at most
    /// two edits, and fewer than half the longer name's length (a two-letter word is never
    /// "corrected" into an unrelated one).
    static func isClose(_ distance: Int, length: Int) -> Bool {
        distance <= 2 && distance * 2 < max(length, 2)
    }

    /// The candidate `word` was most likely meant to be, or nil when none is close (or `word`
    /// is one of them). Ties go to the earlier candidate.
    public static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            if candidate == word { return nil }
            // More than two letters apart in length is more than two edits: not worth measuring
            // (an unknown option may be 100 kB long).
            guard abs(word.count - candidate.count) <= 2 else { continue }
            let distance = distance(word, candidate)
            guard isClose(distance, length: max(word.count, candidate.count)) else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.name
    }
}
