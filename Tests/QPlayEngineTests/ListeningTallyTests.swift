import QPlayEngine
import Testing

/// The counting rule on its own: what is heard is the sum of the steps between reports.
@Suite struct ListeningTallyTests {
    @Test func thresholdIsHalfTheTrackOrFourMinutes() {
        #expect(ListeningTally(duration: 100, from: 0).playThreshold == 50)
        #expect(ListeningTally(duration: 480, from: 0).playThreshold == 240)
        #expect(ListeningTally(duration: 3600, from: 0).playThreshold == 240)
        // Unknown length: only the cap or the end.
        #expect(ListeningTally(duration: 0, from: 0).playThreshold == 240)
    }

    @Test func stepsBetweenReportsAddUpJumpsAndLongStepsDoNot() {
        var tally = ListeningTally(duration: 100, from: 10)
        for second in 11...20 { _ = tally.hear(at: Double(second)) }
        #expect(tally.heard == 10)
        tally.jump(to: 80)
        _ = tally.hear(at: 81)
        #expect(tally.heard == 11)
        // A report far from the last one is a jump nobody told of.
        _ = tally.hear(at: 95)
        #expect(tally.heard == 11)
        // Backwards adds nothing; from there it counts again.
        _ = tally.hear(at: 30)
        _ = tally.hear(at: 31)
        #expect(tally.heard == 12)
        tally.deafen()
        _ = tally.hear(at: 60)
        _ = tally.hear(at: 61)
        #expect(tally.heard == 13)
        #expect(tally.leavingSkips)
        #expect(!tally.played)
    }

    @Test func playCountsOnceAtTheThresholdOrTheEnd() {
        var tally = ListeningTally(duration: 6, from: 0)
        let answers = [1.0, 2, 3, 4].map { tally.hear(at: $0) }
        #expect(answers == [false, false, true, false])
        let atEnd = tally.reachEnd()
        #expect(!atEnd)
        #expect(!tally.leavingSkips)
        var short = ListeningTally(duration: 6, from: 5)
        #expect(!short.leavingSkips)
        let shortEnd = short.reachEnd()
        #expect(shortEnd)
    }

    @Test func aSkipNeedsTwoSecondsHeard() {
        var tally = ListeningTally(duration: 100, from: 0)
        _ = tally.hear(at: 1.9)
        #expect(!tally.leavingSkips)
        _ = tally.hear(at: 2)
        #expect(tally.leavingSkips)
    }
}
