/// A set of row positions of a `SearchTable` (0..<count), one bit each: 12.5 KB for
/// 100,000 tracks. Intersection is word-wise AND, and iteration yields positions in
/// ascending order — which is the library order, because the table is stored sorted.
struct RankSet: Sequence {
    private(set) var words: [UInt64]
    let capacity: Int

    /// An empty set, or every position when `full`.
    init(capacity: Int, full: Bool = false) {
        self.capacity = capacity
        let wordCount = (capacity + 63) / 64
        words = Array(repeating: full ? ~0 : 0, count: wordCount)
        if full, capacity % 64 != 0 {
            words[wordCount - 1] = (1 << UInt64(capacity % 64)) - 1
        }
    }

    /// The positions `0..<capacity` for which `passes` holds, each 64 of them gathered
    /// in a register and stored as one word: a pass over 100,000 rows that keeps most
    /// of them costs 1,563 stores instead of an array update per position.
    @inline(__always)
    init(capacity: Int, where passes: (Int) -> Bool) {
        self.capacity = capacity
        let wordCount = (capacity + 63) / 64
        words = [UInt64](unsafeUninitializedCapacity: wordCount) { buffer, initialized in
            var position = 0
            for index in 0..<wordCount {
                var word: UInt64 = 0
                let end = Swift.min(position + 64, capacity)
                var bit: UInt64 = 1
                while position < end {
                    word |= passes(position) ? bit : 0
                    bit &<<= 1
                    position += 1
                }
                buffer[index] = word
            }
            initialized = wordCount
        }
    }

    mutating func insert(_ position: Int) {
        words[position >> 6] |= 1 << UInt64(position & 63)
    }

    func contains(_ position: Int) -> Bool {
        words[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    mutating func formIntersection(_ other: RankSet) {
        precondition(other.capacity == capacity)
        words.withUnsafeMutableBufferPointer { mine in
            other.words.withUnsafeBufferPointer { theirs in
                for i in mine.indices { mine[i] &= theirs[i] }
            }
        }
    }

    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    func makeIterator() -> Iterator { Iterator(words: words) }

    struct Iterator: IteratorProtocol {
        let words: [UInt64]
        var index = 0
        var current: UInt64

        init(words: [UInt64]) {
            self.words = words
            current = words.first ?? 0
        }

        mutating func next() -> Int? {
            while current == 0 {
                index += 1
                guard index < words.count else { return nil }
                current = words[index]
            }
            let bit = current.trailingZeroBitCount
            current &= current - 1
            return index << 6 | bit
        }
    }
}
