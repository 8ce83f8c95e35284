import Testing

/// The differential test's judge on made-up transcripts: it must catch a difference,
/// let an allowed one pass, and call an allowance that explains nothing stale.
struct MPDTranscriptComparisonTests {
    typealias Allowed = MPDTranscriptComparison.Allowed
    let script = ["status", "currentsong"]
    let expected = [["volume: 100", "state: stop", "OK"], ["file: a.mp3", "duration: 3.030", "OK"]]

    @Test func equalTranscriptsPass() {
        let comparison = MPDTranscriptComparison(script: script, expected: expected, actual: expected, allowed: [], name: "x")
        #expect(comparison.unexplained.isEmpty && comparison.stale.isEmpty)
    }

    @Test func aDifferenceFailsUnlessAllowed() {
        var actual = expected
        actual[1][1] = "duration: 3.000"
        let strict = MPDTranscriptComparison(script: script, expected: expected, actual: actual, allowed: [], name: "x")
        #expect(strict.unexplained.count == 1)
        #expect(strict.unexplained.first?.contains("step 2 `currentsong`") == true)

        let byField = MPDTranscriptComparison(
            script: script, expected: expected, actual: actual,
            allowed: [Allowed(request: nil, leeway: .fields(["duration"]), reason: "trimmed")], name: "x")
        #expect(byField.unexplained.isEmpty && byField.stale.isEmpty)

        // An allowance for another field does not cover it.
        let otherField = MPDTranscriptComparison(
            script: script, expected: expected, actual: actual,
            allowed: [Allowed(request: "currentsong", leeway: .fields(["Time"]), reason: "other")], name: "x")
        #expect(otherField.unexplained.count == 1 && otherField.stale.count == 1)

        // A field allowance does not hide a difference elsewhere in the response.
        actual[1][0] = "file: b.mp3"
        let extra = MPDTranscriptComparison(
            script: script, expected: expected, actual: actual,
            allowed: [Allowed(request: "currentsong", leeway: .fields(["duration"]), reason: "trimmed")], name: "x")
        #expect(extra.unexplained.count == 1)

        let whole = MPDTranscriptComparison(
            script: script, expected: expected, actual: actual,
            allowed: [Allowed(request: "currentsong", leeway: .wholeResponse, reason: "different")], name: "x")
        #expect(whole.unexplained.isEmpty && whole.stale.isEmpty)
    }

    @Test func orderLeewayAllowsOnlyTheOrderWithinASong() {
        let script = ["playlistinfo"]
        let mpd = [["file: a.flac", "Title: A", "Artist: X", "file: b.flac", "Title: B", "Artist: Y", "OK"]]
        let order = [Allowed(request: nil, leeway: .order, reason: "file order")]
        let reordered = [["file: a.flac", "Artist: X", "Title: A", "file: b.flac", "Title: B", "Artist: Y", "OK"]]
        let passing = MPDTranscriptComparison(script: script, expected: mpd, actual: reordered, allowed: order, name: "x")
        #expect(passing.unexplained.isEmpty && passing.stale.isEmpty)
        // A tag moved to another song is not an order difference.
        let moved = [["file: a.flac", "Title: A", "file: b.flac", "Artist: X", "Title: B", "Artist: Y", "OK"]]
        let failing = MPDTranscriptComparison(script: script, expected: mpd, actual: moved, allowed: order, name: "x")
        #expect(failing.unexplained.count == 1)
        // Both leeways at once: each is needed, neither is stale.
        let both = [["file: a.flac", "Artist: X", "Title: A", "duration: 1", "file: b.flac", "Title: B", "Artist: Y", "OK"]]
        let combined = MPDTranscriptComparison(
            script: script, expected: mpd, actual: both,
            allowed: order + [Allowed(request: nil, leeway: .fields(["duration"]), reason: "d")], name: "x")
        #expect(combined.unexplained.isEmpty && combined.stale.isEmpty)
    }

    @Test func anAllowanceThatExplainsNothingIsStale() {
        let comparison = MPDTranscriptComparison(
            script: script, expected: expected, actual: expected,
            allowed: [Allowed(request: "status", leeway: .wholeResponse, reason: "gone")], name: "x")
        #expect(comparison.unexplained.isEmpty)
        #expect(comparison.stale.map(\.reason) == ["gone"])
    }

    @Test func normalizerNumbersIDsPerServerAndBlanksClockFields() {
        var normalizer = MPDResponseNormalizer()
        let first = normalizer.response(["Id: 17", "songid: 17", "nextsongid: 4", "elapsed: 1.234", "Pos: 0", "OK"])
        #expect(first == ["Id: #1", "songid: #1", "nextsongid: #2", "elapsed: <elapsed>", "Pos: 0", "OK"])
        #expect(normalizer.request("moveid {id 2} 0") == "moveid 4 0")
        #expect(normalizer.response(["OK MPD 0.23.5"]) == ["OK MPD <version>"])
    }
}
