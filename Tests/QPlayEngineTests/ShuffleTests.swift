import QPlayEngine
import Testing

/// Shuffle plays the installed queue in a random permutation, each entry once per round
/// (cmus/MPD style); the now-playing entry leads the round it was shuffled in.
@Suite struct ShuffleTests {
    static let six = ["A", "B", "C", "D", "E", "F"]

    static func queue(_ names: [String], seed: UInt64 = 42) throws -> Harness {
        var h = Harness(EngineConfiguration(shuffleSeed: seed))
        try h.add(names.map { track($0, seconds: 5) })
        return h
    }

    @Test func shuffleOnPlaysEveryEntryOnceAfterTheCurrentOne() throws {
        var h = try Self.queue(Self.six)
        let output = h.act { $0.setShuffle(true, now: $1, position: $2) }
        #expect(output.events == [.player])
        #expect(h.status.shuffle)
        #expect(h.status.queueModified == false)  // shuffling is no edit
        h.run(31)
        #expect(h.audio.heard.first == "A")
        #expect(h.audio.heard.sorted() == Self.six)
        #expect(h.audio.heard != Self.six)  // seed 42 does not give the identity
        #expect(h.status.state == .stopped)
        #expect(h.titles == Self.six)  // the collection keeps its order
    }

    @Test func addingToAnEmptyQueueWhileShuffledStartsAtItsFirstTrack() throws {
        var h = Harness(EngineConfiguration(shuffleSeed: 5))
        h.act { $0.setShuffle(true, now: $1, position: $2) }
        try h.add(Self.six.map { track($0, seconds: 5) })
        #expect(h.nowPlaying == "A")
        h.run(31)
        #expect(h.audio.heard.first == "A")
        #expect(h.audio.heard.sorted() == Self.six)
        #expect(h.audio.heard != Self.six)
    }

    @Test func theSameSeedGivesTheSameOrder() throws {
        var first = try Self.queue(Self.six, seed: 7)
        var second = try Self.queue(Self.six, seed: 7)
        first.act { $0.setShuffle(true, now: $1, position: $2) }
        second.act { $0.setShuffle(true, now: $1, position: $2) }
        first.run(31)
        second.run(31)
        #expect(first.audio.heard == second.audio.heard)
    }

    @Test func repeatAllReshufflesEachRound() throws {
        var h = try Self.queue(Self.six)
        h.act { $0.setShuffle(true, now: $1, position: $2) }
        h.act { $0.setRepeat(.all, now: $1, position: $2) }
        h.run(59)
        let rounds = h.audio.heard
        #expect(rounds.count == 12)
        #expect(Array(rounds[0..<6]).sorted() == Self.six)
        #expect(Array(rounds[6..<12]).sorted() == Self.six)
        #expect(rounds[5] != rounds[6])  // a new round does not repeat the last entry
        #expect(h.status.state == .playing)
    }

    @Test func entriesAddedWhileShuffledPlayInThisRound() throws {
        var h = try Self.queue(["A", "B", "C", "D"])
        h.act { $0.setShuffle(true, now: $1, position: $2) }
        h.run(6)  // into the second entry
        try h.add([track("E", seconds: 5), track("F", seconds: 5)])
        h.run(30)
        #expect(h.audio.heard.sorted() == Self.six)
        #expect(h.status.state == .stopped)
    }

    @Test func shuffleOffReturnsToQueueOrder() throws {
        var h = try Self.queue(Self.six)
        h.act { $0.setShuffle(true, now: $1, position: $2) }
        h.run(6)
        let playing = try #require(h.nowPlaying)
        let output = h.act { $0.setShuffle(false, now: $1, position: $2) }
        let following = Self.six[Self.six.firstIndex(of: playing)! + 1]
        #expect(Harness.announced(output)??.entry.track.title == following)
    }

    @Test func previousFollowsTheShuffledOrderBack() throws {
        var h = try Self.queue(Self.six)
        h.act { $0.setShuffle(true, now: $1, position: $2) }
        h.run(11)
        #expect(h.audio.heard.count == 3)
        h.act { $0.previous(now: $1, position: $2) }
        #expect(h.nowPlaying == h.audio.heard[1])
    }

    @Test func removingThePlayingEntryWhileShuffledSkipsInShuffledOrder() throws {
        var h = try Self.queue(Self.six)
        h.act { $0.setShuffle(true, now: $1, position: $2) }
        let successor = try #require(h.audio.successor?.entry.track.title)
        let playing = try #require(h.status.index)
        try h.act { try $0.remove(index: playing, now: $1, position: $2) }
        #expect(h.nowPlaying == successor)
    }
}
