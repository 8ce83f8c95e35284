import QPlayMPD
import Testing

@Suite struct MPDCommandListTests {
    let ping = MPDRequest(name: "ping")
    let status = MPDRequest(name: "status")
    let begin = MPDRequest(name: "command_list_begin")
    let okBegin = MPDRequest(name: "command_list_ok_begin")
    let end = MPDRequest(name: "command_list_end")

    @Test func outsideAListEveryRequestRunsAtOnce() {
        var list = MPDCommandList()
        #expect(list.feed(ping) == .run(ping))
        #expect(!list.isActive)
    }

    @Test func aListCollectsUntilItsEnd() {
        var list = MPDCommandList()
        #expect(list.feed(begin) == .buffered)
        #expect(list.isActive)
        #expect(list.feed(ping) == .buffered)
        #expect(list.feed(status) == .buffered)
        #expect(list.feed(end) == .runList([ping, status], okEach: false))
        #expect(!list.isActive)
        #expect(list.feed(ping) == .run(ping))
    }

    @Test func anOKListAsksListOKAfterEach() {
        var list = MPDCommandList()
        _ = list.feed(okBegin)
        _ = list.feed(ping)
        #expect(list.feed(end) == .runList([ping], okEach: true))
        #expect(list.feed(begin) == .buffered)
        #expect(list.feed(end) == .runList([], okEach: false))
    }

    /// MPD keeps a nested begin in the list; run, it is an unknown command.
    @Test func aNestedBeginIsCollected() {
        var list = MPDCommandList()
        _ = list.feed(okBegin)
        _ = list.feed(ping)
        #expect(list.feed(begin) == .buffered)
        #expect(list.feed(end) == .runList([ping, begin], okEach: true))
    }

    @Test func anEndWithoutBeginIsAnUnknownCommand() {
        var list = MPDCommandList()
        #expect(list.feed(end) == .failed(MPDError(.unknown, "unknown command \"command_list_end\"")))
        #expect(list.feed(MPDRequest(name: "command_list_begin", arguments: ["x"]))
            == .failed(MPDError(.unknown, "unknown command \"command_list_begin\"")))
        #expect(!list.isActive)
    }

    /// Only the bare line ends a list; with arguments it is collected like any other.
    @Test func anEndWithArgumentsIsCollected() {
        var list = MPDCommandList()
        _ = list.feed(begin)
        let odd = MPDRequest(name: "command_list_end", arguments: ["x"])
        #expect(list.feed(odd) == .buffered)
        #expect(list.feed(end) == .runList([odd], okEach: false))
    }

    /// A failing command inside a list is the runner's business: the list only collects.
    @Test func commandsThatWillFailAreStillCollected() {
        var list = MPDCommandList()
        _ = list.feed(begin)
        let bad = MPDRequest(name: "play", arguments: ["x"])
        #expect(list.feed(bad) == .buffered)
        #expect(list.feed(end) == .runList([bad], okEach: false))
    }

    @Test func anUnparsableLineFailsAtItsPlaceWhenTheListRuns() {
        var list = MPDCommandList()
        let quote = MPDError(.unknown, #"Missing closing '"'"#)
        #expect(list.feed(unparsable: quote) == .failed(quote))
        _ = list.feed(begin)
        _ = list.feed(ping)
        #expect(list.feed(unparsable: quote) == .buffered)
        #expect(list.feed(status) == .buffered)
        // MPD reports a bad argument at index 0 (seen from MPD 0.23).
        #expect(list.feed(end) == .runListThenFail([ping], okEach: false, failure: quote, index: 0))

        let word = MPDError(.unknown, "Invalid word character", closing: .afterReply)
        _ = list.feed(okBegin)
        _ = list.feed(ping)
        #expect(list.feed(unparsable: word) == .buffered)
        #expect(list.feed(end) == .runListThenFail([ping], okEach: true, failure: word, index: 1))
    }

    @Test func aLineMPDHangsUpOnFailsAtOnceEvenInAList() {
        var list = MPDCommandList()
        _ = list.feed(begin)
        let shout = MPDError(.unknown, "malformed command", closing: .withoutReply)
        #expect(list.feed(unparsable: shout) == .failed(shout))
        #expect(!list.isActive)
    }

    @Test func anOversizedListFailsAndClosesTheConnection() {
        // `add "12"` and its newline: 9 bytes; eleven fit in 100.
        var list = MPDCommandList(maximumSize: 100)
        _ = list.feed(begin)
        for _ in 0..<11 { #expect(list.feed(MPDRequest(name: "add", arguments: ["12"])) == .buffered) }
        guard case .failed(let error) = list.feed(MPDRequest(name: "add", arguments: ["12"])) else {
            Issue.record("the list grew past its limit")
            return
        }
        #expect(error.closing == .withoutReply)
        #expect(!list.isActive)
    }
}
