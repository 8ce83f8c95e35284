import Testing

@testable import QPlayLibrary

/// When a batch of changed folders is due, and which folders it scans.
@Suite("Watch batch")
struct WatchBatchTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func dueAfterTheQuietPeriodOrAtTheCap() {
        var batch = WatchBatch(quietPeriod: .milliseconds(500), cap: .seconds(2))
        #expect(batch.due == nil)
        let start = ContinuousClock.now
        batch.note(bytes("A"), at: start)
        #expect(batch.due == start + .milliseconds(500))
        // Changes that keep coming push the quiet deadline, never past the cap.
        for step in 1...10 {
            batch.note(bytes("A"), at: start + .milliseconds(300 * step))
        }
        #expect(batch.due == start + .seconds(2))
        #expect(batch.take() == [bytes("A")])
        #expect(batch.due == nil && batch.isEmpty)
    }

    @Test func foldersInsideAnotherAreCoveredByIt() {
        let folders: Set<[UInt8]> = [bytes("a/b"), bytes("a"), bytes("a b"), bytes("a b/c"), bytes("ab"), bytes("a/b/c")]
        #expect(WatchBatch.covering(folders) == [bytes("a"), bytes("a b"), bytes("ab")])
        #expect(WatchBatch.covering([bytes("x"), []]) == [[]])
    }
}
