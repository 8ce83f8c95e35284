import QPlayLibrary
import QPlayModel
import SystemPackage
import Testing

@Suite struct ItemCollectionTests {
    let a = Track(id: 1, path: "a.mp3", title: "A")
    let b = Track(id: 2, path: "b.mp3", title: "B")
    let c = Track(id: 3, path: "c.mp3", title: "C")

    @Test func emptyCollection() {
        let empty = ItemCollection()
        #expect(empty.isEmpty && empty.count == 0 && empty.first == nil)
        #expect(empty.item(after: 0) == nil && empty.item(after: -1) == nil)
        #expect(!empty.contains(a))
        #expect(empty == ItemCollection([]))
    }

    @Test func appendingReturnsANewCollectionAndLeavesTheReceiver() {
        let one = ItemCollection([a])
        let two = one.appending(b)
        #expect(one.map(\.id) == [1])
        #expect(two.map(\.id) == [1, 2])
        let joined = two.appending(contentsOf: ItemCollection([c, a]))
        #expect(joined.map(\.id) == [1, 2, 3, 1])
        #expect(two.map(\.id) == [1, 2])
        #expect(joined.count == 4 && joined.first == a)
    }

    @Test func removingAtAnIndex() {
        let all = ItemCollection([a, b, c])
        #expect(all.removing(at: 0).map(\.id) == [2, 3])
        #expect(all.removing(at: 1).map(\.id) == [1, 3])
        #expect(all.removing(at: 2).map(\.id) == [1, 2])
        #expect(all.map(\.id) == [1, 2, 3])
        #expect(ItemCollection([a]).removing(at: 0).isEmpty)
    }

    @Test func itemAfterAnIndex() {
        let all = ItemCollection([a, b, c])
        #expect(all.item(after: 0) == b)
        #expect(all.item(after: 1) == c)
        #expect(all.item(after: 2) == nil)
        #expect(all.item(after: 7) == nil)
        #expect(all.item(after: -1) == nil)
    }

    @Test func containsByIdentity() {
        let all = ItemCollection([a, b])
        #expect(all.contains(a) && all.contains(b) && !all.contains(c))
        var retagged = a
        retagged.title = "A (remastered)"
        #expect(all.contains(retagged))
    }

    @Test func duplicatesOfOneTrackStayDistinctByPosition() {
        let queue = ItemCollection([a, b, a, c, a])
        #expect(queue.count == 5)
        #expect(queue.item(after: 0) == b)
        #expect(queue.item(after: 2) == c)
        #expect(queue.item(after: 4) == nil)
        #expect(queue.firstIndex(of: a) == 0)
        #expect(queue.firstIndex(of: a, from: 1) == 2)
        #expect(queue.firstIndex(of: a, from: 3) == 4)
        #expect(queue.firstIndex(of: a, from: 5) == nil)
        // Removing one copy leaves the others where they were relative to the rest.
        let without = queue.removing(at: 2)
        #expect(without.map(\.id) == [1, 2, 3, 1])
        #expect(without.contains(a))
        #expect(queue.removing(at: 0).removing(at: 1).removing(at: 2).map(\.id) == [2, 3])
        #expect(queue.map(\.id) == [1, 2, 1, 3, 1])
    }

    @Test func insertingAndMoving() {
        let all = ItemCollection([a, b, c])
        #expect(all.inserting(c, at: 0).map(\.id) == [3, 1, 2, 3])
        #expect(all.inserting(a, at: 3).map(\.id) == [1, 2, 3, 1])
        #expect(all.moving(from: 0, to: 2).map(\.id) == [2, 3, 1])
        #expect(all.moving(from: 2, to: 0).map(\.id) == [3, 1, 2])
        #expect(all.moving(from: 1, to: 1) == all)
        #expect(all.map(\.id) == [1, 2, 3])
    }

    @Test func isARandomAccessCollectionOfTracks() {
        let all = ItemCollection([a, b, c])
        #expect(all.indices == 0..<3)
        #expect(all[1] == b)
        #expect(Array(all.reversed()).map(\.id) == [3, 2, 1])
        #expect(all.tracks == [a, b, c])
        #expect(all.last == c)
    }
}
