import SecretScanInterop

extension SecretPrefilter {
    /// The number of Teddy buckets: fat Teddy's 16 (two halves of a 256-bit register).
    static let teddyBuckets = 16

    /// How much of the frequency a bucket is judged by is spread evenly over the printable
    /// bytes, beside the corpus's own (`byteFrequency`): the corpus is code and prose, where
    /// digits are rare, but log lines and hex ids are a third digits, and a bucket whose nibbles
    /// let every digit through after a letter (`A3T`, `T3`, `46` and `:3` together) passed one
    /// position in seven of the bench's log lines.
    static let teddyEvenShare = 0.9

    /// One printable byte's share of evenly spread text (a line feed counts as printable).
    static func evenFrequency(_ byte: UInt8) -> Double {
        (byte >= 0x20 && byte < 0x7f) || byte == 0x0a ? 1.0 / 96 : 0.000_01
    }

    /// The fingerprint of a trigger for Teddy: its pair and the byte after it (nil: none, any
    /// byte may come), each byte in every letter case it may take, as the bits of its low
    /// nibbles and of its high nibbles.
    struct Fingerprint: Equatable {
        var low = InlineArray<3, UInt16>(repeating: 0)
        var high = InlineArray<3, UInt16>(repeating: 0)

        /// Adds `byte` (and its other case when `ignoringCase`) at `place`; nil: any byte.
        mutating func add(_ byte: UInt8?, at place: Int, ignoringCase: Bool) {
            guard let byte else {
                low[place] = 0xffff
                high[place] = 0xffff
                return
            }
            low[place] |= 1 << UInt16(byte & 15)
            high[place] |= 1 << UInt16(byte >> 4)
            if ignoringCase, let other = SecretPrefilter.otherCase(byte) {
                low[place] |= 1 << UInt16(other & 15)
                high[place] |= 1 << UInt16(other >> 4)
            }
        }

        static func == (left: Fingerprint, right: Fingerprint) -> Bool {
            (0..<3).allSatisfy { left.low[$0] == right.low[$0] && left.high[$0] == right.high[$0] }
        }

        /// Whether any third byte fits (a trigger of two bytes).
        var isOpenEnded: Bool { low[2] == 0xffff && high[2] == 0xffff }

        /// The union of two fingerprints (what a bucket holding both lets through).
        func merged(with other: Fingerprint) -> Fingerprint {
            var result = self
            for place in 0..<3 {
                result.low[place] |= other.low[place]
                result.high[place] |= other.high[place]
            }
            return result
        }

        /// How often ordinary text fits the fingerprint, per position: for each place, the
        /// summed frequency (`byteFrequency`) of the bytes its nibbles allow, multiplied over
        /// the three places.
        func estimatedFrequency(_ frequencies: [Double]) -> Double {
            var product = 1.0
            for place in 0..<3 {
                if low[place] == 0xffff && high[place] == 0xffff { continue }
                var sum = 0.0
                var highs = high[place]
                while highs != 0 {
                    let highNibble = highs.trailingZeroBitCount
                    highs &= highs &- 1
                    var lows = low[place]
                    while lows != 0 {
                        sum += frequencies[highNibble << 4 | lows.trailingZeroBitCount]
                        lows &= lows &- 1
                    }
                }
                product *= sum
            }
            return product
        }
    }

    /// The Teddy masks of the entries (`CandidateSearch.maskBytes`): each entry's fingerprint
    /// (its pair and the byte after it) in one of 16 buckets, chosen so that the buckets stay
    /// tight.
    ///
    /// A bucket lets through every combination of the nibbles its members have at each place,
    /// so unrelated triggers in one bucket make it loose (`gh` and `xo` let `go` and `xh` in).
    /// The entries are placed greedily, the loosest first, each into the bucket whose expected
    /// rate of false positions grows least (the estimate of `Fingerprint.estimatedFrequency`).
    /// Every entry's fingerprint is in its bucket's masks: a candidate of the pair table is
    /// always a Teddy hit.
    static func teddyMasks(entries: [Entry], literals: [UInt8]) -> [UInt8] {
        teddyBuckets(entries: entries, literals: literals).masks
    }

    /// The Teddy masks (`teddyMasks`) and the bucket of each entry.
    static func teddyBuckets(entries: [Entry], literals: [UInt8]) -> (masks: [UInt8], buckets: [Int]) {
        var frequencies = [Double](repeating: 0, count: 256)
        for byte in 0..<256 {
            frequencies[byte] =
                (1 - teddyEvenShare) * byteFrequency(UInt8(byte)) + teddyEvenShare * evenFrequency(UInt8(byte))
        }
        var prints: [Fingerprint] = []
        prints.reserveCapacity(entries.count)
        for entry in entries {
            var fingerprint = Fingerprint()
            for place in 0..<3 {
                let offset = entry.pairOffset + place
                let byte: UInt8? = offset < entry.literalCount ? literals[entry.literalStart + offset] : nil
                fingerprint.add(byte, at: place, ignoringCase: entry.ignoresCase)
            }
            prints.append(fingerprint)
        }
        // Agglomerative: every distinct fingerprint a cluster of its own, then the two whose
        // union adds least to the expected rate merged, until 16 are left.
        var clusters: [Fingerprint] = []
        var clusterOf = [Int](repeating: 0, count: entries.count)
        for (index, item) in prints.enumerated() {
            if let same = clusters.firstIndex(where: { $0 == item }) {
                clusterOf[index] = same
            } else {
                clusterOf[index] = clusters.count
                clusters.append(item)
            }
        }
        var rates = clusters.map { $0.estimatedFrequency(frequencies) }
        var isAlive = [Bool](repeating: true, count: clusters.count)
        var alive = clusters.count
        // growth[i * n + j] (i < j): what merging i and j adds.
        let n = clusters.count
        var growth = [Double](repeating: .infinity, count: n * n)
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                growth[i * n + j] =
                    clusters[i].merged(with: clusters[j]).estimatedFrequency(frequencies) - rates[i] - rates[j]
            }
        }
        // Each cluster's cheapest partner after it (a row minimum), so a merge rescans only the
        // rows it touched: this runs at the first scan of every process.
        func rowBest(_ i: Int) -> (partner: Int, growth: Double) {
            var best = (partner: -1, growth: Double.infinity)
            for j in (i + 1)..<max(i + 1, n) where isAlive[j] && growth[i * n + j] < best.growth {
                best = (j, growth[i * n + j])
            }
            return best
        }
        var rows = (0..<n).map { rowBest($0) }
        while alive > teddyBuckets {
            var i = -1
            for row in 0..<n
            where isAlive[row] && rows[row].partner >= 0 && (i < 0 || rows[row].growth < rows[i].growth) {
                i = row
            }
            let j = rows[i].partner
            clusters[i] = clusters[i].merged(with: clusters[j])
            rates[i] = clusters[i].estimatedFrequency(frequencies)
            isAlive[j] = false
            alive -= 1
            for index in clusterOf.indices where clusterOf[index] == j { clusterOf[index] = i }
            for k in 0..<n where isAlive[k] && k != i {
                let (low, high) = k < i ? (k, i) : (i, k)
                growth[low * n + high] =
                    clusters[low].merged(with: clusters[high]).estimatedFrequency(frequencies) - rates[low]
                    - rates[high]
            }
            for row in 0..<n where isAlive[row] {
                if row == i || rows[row].partner == i || rows[row].partner == j {
                    rows[row] = rowBest(row)
                } else if row < i && growth[row * n + i] < rows[row].growth {
                    rows[row] = (i, growth[row * n + i])
                }
            }
        }
        var bucketOf = [Int](repeating: -1, count: n)
        var buckets: [Fingerprint] = []
        for i in 0..<n where isAlive[i] {
            bucketOf[i] = buckets.count
            buckets.append(clusters[i])
        }
        let assigned = clusterOf.map { bucketOf[$0] }
        // Place p's low-nibble table at 64p, its high-nibble table at 64p + 32; buckets 0-7 as
        // the bits of bytes 0-15, 8-15 as those of bytes 16-31.
        var masks = [UInt8](repeating: 0, count: CandidateSearch.maskBytes)
        for (bucket, fingerprint) in buckets.enumerated() {
            let half = bucket < 8 ? 0 : 16
            let bit = UInt8(1) << UInt8(bucket & 7)
            for place in 0..<3 {
                for nibble in 0..<16 {
                    if fingerprint.low[place] & (1 << UInt16(nibble)) != 0 { masks[64 * place + half + nibble] |= bit }
                    if fingerprint.high[place] & (1 << UInt16(nibble)) != 0 {
                        masks[64 * place + 32 + half + nibble] |= bit
                    }
                }
            }
        }
        return (masks, assigned)
    }
}
