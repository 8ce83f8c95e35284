import Testing

@testable import QPlayLibrary

/// id → rank answers what a dictionary would, whatever the ids look like.
@Suite struct IDRanksTests {
    func check(_ ids: [Int64], probes: [Int64] = []) {
        var generator = SplitMix(seed: UInt64(ids.count))
        var ranks = Array(Int32(0)..<Int32(ids.count))
        for i in ranks.indices.reversed() { ranks.swapAt(i, generator.next(i + 1)) }
        let map = IDRanks(ascendingIDs: ids, ranks: ranks)
        let expected = Dictionary(uniqueKeysWithValues: zip(ids, ranks.map(Int.init)))
        for id in ids { #expect(map.rank(of: id) == expected[id], "id \(id)") }
        for id in probes + ids.flatMap({ [$0 &- 1, $0 &+ 1] }) {
            #expect(map.rank(of: id) == expected[id], "id \(id)")
        }
    }

    @Test func denseIDs() {
        check(Array(1...1000), probes: [0, -1, 1001, 5000, .min, .max])
    }

    @Test func idsWithHolesAcrossWords() {
        var generator = SplitMix(seed: 3)
        var ids: [Int64] = []
        var id: Int64 = 17
        for _ in 0..<5000 {
            ids.append(id)
            id += Int64(1 + generator.next(generator.next(10) == 0 ? 200 : 3))
        }
        check(ids, probes: [0, 16, id, id + 64])
    }

    @Test func strayIDsFarFromTheOthers() {
        // Negative, huge and extreme ids: beyond the bitmap's range, kept in the dictionary.
        let ids: [Int64] = [.min, -5] + Array(1...300) + [70_000, 1 << 40, .max - 1, .max]
        check(ids, probes: [0, 301, 69_999, 1 << 39])
    }

    @Test func noIDs() {
        let map = IDRanks(ascendingIDs: [], ranks: [])
        #expect(map.rank(of: 0) == nil)
        #expect(map.rank(of: 1) == nil)
    }
}
