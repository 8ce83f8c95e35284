import QPlayModel
/// Track id → rank for a `SearchTable`, in constant time and about 4.2 bytes a track.
///
/// Ids come from `AUTOINCREMENT`: increasing, never reused, with a hole for every track
/// ever deleted. So a bitmap over the id range says which ids are present, a running
/// count per 64-bit word turns an id into its position among the present ids, and
/// `ranks` holds the rank at that position. Holes cost 1.5 bits each. The range is
/// capped (16 bits a track, at least 64 K ids) so that a stray huge id cannot make the
/// bitmap huge; ids beyond it, which only a hand-edited database has, go to a
/// dictionary. The title predicate maps every trigram match through here (5,000 ids
/// for "love" at 100,000 tracks), so this is on the query path.
struct IDRanks: Sendable {
    /// The smallest id: bit 0 of `present`.
    private let base: Int64
    /// Ids `base ..< base + span` are in the bitmap; any other id is an outlier or absent.
    private let span: UInt64
    private let present: [UInt64]
    /// Present ids in the words before each word of `present`.
    private let presentBefore: [UInt32]
    /// Rank of each id of the bitmap's range, in id order.
    private let ranks: [Int32]
    private let outliers: [Int64: Int32]

    /// `ids[i]` is the id of the row at rank `ranks[i]`; `ids` ascending, no repeats.
    init(ascendingIDs ids: [Int64], ranks rowRanks: [Int32]) {
        precondition(ids.count == rowRanks.count)
        let base = ids.first ?? 0
        self.base = base
        let cap = UInt64(max(16 * ids.count, 1 << 16))
        let span = ids.last.map { min(UInt64(bitPattern: $0 &- base), cap - 1) + 1 } ?? 0
        self.span = span
        var present = [UInt64](repeating: 0, count: Int((span + 63) / 64))
        var ranks: [Int32] = []
        ranks.reserveCapacity(ids.count)
        var outliers: [Int64: Int32] = [:]
        var previous: Int64?
        for (id, rank) in zip(ids, rowRanks) {
            precondition(previous.map { $0 < id } ?? true, "ids must ascend")
            previous = id
            let offset = UInt64(bitPattern: id &- base)
            if offset < span {
                present[Int(offset >> 6)] |= 1 << (offset & 63)
                ranks.append(rank)
            } else {
                outliers[id] = rank
            }
        }
        var presentBefore: [UInt32] = []
        presentBefore.reserveCapacity(present.count)
        var total: UInt32 = 0
        for word in present {
            presentBefore.append(total)
            total += UInt32(word.nonzeroBitCount)
        }
        self.present = present
        self.presentBefore = presentBefore
        self.ranks = ranks
        self.outliers = outliers
    }

    func rank(of id: Int64) -> Int? {
        // Below `base` wraps to a huge offset: not in the bitmap, so an outlier or absent.
        let offset = UInt64(bitPattern: id &- base)
        guard offset < span else { return outliers.isEmpty ? nil : outliers[id].map(Int.init) }
        let wordIndex = Int(offset >> 6)
        let word = present[wordIndex]
        let bit: UInt64 = 1 << (offset & 63)
        guard word & bit != 0 else { return nil }
        return Int(ranks[Int(presentBefore[wordIndex]) + (word & (bit &- 1)).nonzeroBitCount])
    }
}
