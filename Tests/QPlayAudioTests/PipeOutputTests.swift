import Foundation
import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// `pipe:` into a real FIFO whose reader comes late, stops reading, and goes away and
/// comes back (what snapserver does when it starts after qplayd, stalls or restarts):
/// the player keeps answering throughout and plays on once the reader is there.
@Suite struct PipeOutputTests {
    init() {
        // As qplayd does: a write to a FIFO whose reader left fails with EPIPE instead
        // of killing the process.
        signal(SIGPIPE, SIG_IGN)
    }

    private static var quickRetry: PlaybackTuning {
        var tuning = PlaybackTuning()
        tuning.retryFirst = .milliseconds(20)
        tuning.retryMax = .milliseconds(80)
        return tuning
    }

    private static func outputError(_ harness: PlayerHarness, containing text: String) async throws {
        try await waitUntil("an output error with \"\(text)\"") {
            harness.player.snapshot.outputError?.contains(text) == true
        }
    }

    @Test func waitsForTheFIFOAndItsReader() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.appending("snapfifo")
        let harness = PlayerHarness(output: { RawPCMOutput(kind: .pipe, path: fifo) }, tuning: Self.quickRetry)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        harness.player.play(morning.item(1))
        try await Self.outputError(harness, containing: "no FIFO there yet")
        try FIFOReader.make(fifo)
        try await Self.outputError(harness, containing: "no reader has the FIFO open")
        // Commands are answered while the output waits.
        harness.player.pause()
        try await waitUntil("paused") { harness.player.snapshot.state == .paused }
        harness.player.resume()
        let reader = try FIFOReader(fifo)
        try await harness.waitFor(.finished(token: 1))
        try await waitUntil("every byte read") { reader.count >= morning.frames * 4 }
        await harness.shutdown()
        reader.close()
        #expect(reader.count == morning.frames * 4, "nothing lost while waiting for the reader")
        #expect(harness.player.snapshot.outputError == nil)
        #expect(harness.events.contains(.outputError(output: "pipe:\(fifo.string)", message: nil)))
    }

    @Test func aReaderThatStopsReadingIsReportedStalledAndPlaysOnWhenItReads() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.appending("snapfifo")
        try FIFOReader.make(fifo)
        let reader = try FIFOReader(fifo, reading: false)
        let harness = PlayerHarness(output: { RawPCMOutput(kind: .pipe, path: fifo) }, tuning: Self.quickRetry)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        harness.player.play(morning.item(1))
        try await harness.waitFor(.started(token: 1))
        // The FIFO fills (64 KiB: 0.37 s) and stays full: the output says it is stalled
        // and the player still answers.
        try await Self.outputError(harness, containing: "stalled")
        #expect(harness.player.snapshot.outputs.map(\.state) == [.stalled])
        for _ in 0..<3 {
            harness.player.pause()
            try await waitUntil("paused") { harness.player.snapshot.state == .paused }
            harness.player.resume()
            try await waitUntil("playing") { harness.player.snapshot.state == .playing }
        }
        try await Self.outputError(harness, containing: "stalled")
        let stalled = harness.player.snapshot
        try await Task.sleep(for: .milliseconds(300))
        #expect(harness.player.snapshot.position == stalled.position, "a stalled output holds the position")
        #expect(stalled.position < 1.0, "what the reader did not take is not played: \(stalled.position) s")
        reader.setReading(true)
        try await waitUntil("the stall clears") { harness.player.snapshot.outputError == nil }
        try await harness.waitFor(.finished(token: 1))
        try await waitUntil("every byte read") { reader.count >= morning.frames * 4 }
        await harness.shutdown()
        reader.close()
        #expect(reader.count == morning.frames * 4, "nothing lost while stalled")
        #expect(harness.events.contains(.outputError(output: "pipe:\(fifo.string)", message: nil)))
        #expect(harness.player.snapshot.outputs.map(\.state) == [.ok])
    }

    @Test func aReaderThatGoesAwayAndComesBackIsReopened() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.appending("snapfifo")
        try FIFOReader.make(fifo)
        // The first reader takes a second of audio, then holds still and goes away.
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let bytes = morning.frames * 4
        let first = try FIFOReader(fifo, limit: bytes / 4)
        let harness = PlayerHarness(output: { RawPCMOutput(kind: .pipe, path: fifo) }, tuning: Self.quickRetry)
        harness.player.play(morning.item(1))
        try await waitUntil("a second read") { first.count >= bytes / 4 }
        let heardByFirst = first.count
        first.close()
        try await Self.outputError(harness, containing: "no reader")
        harness.player.pause()
        try await waitUntil("paused") { harness.player.snapshot.state == .paused }
        harness.player.resume()
        let second = try FIFOReader(fifo)
        try await harness.waitFor(.finished(token: 1))
        try await waitUntil("the rest read") { second.count > 0 && harness.player.snapshot.state == .idle }
        await harness.shutdown()
        second.close()
        #expect(heardByFirst < bytes)
        #expect(second.count > 0, "the second reader hears the rest")
        // What sat in the FIFO when its reader left is gone with it (at most the FIFO's
        // 64 KiB and one write batch); the rest reaches the second reader.
        #expect(heardByFirst + second.count >= bytes - 128 * 1024, "first \(heardByFirst), second \(second.count) of \(bytes)")
        #expect(heardByFirst + second.count <= bytes)
        #expect(harness.events.contains(.outputError(output: "pipe:\(fifo.string)", message: nil)))
    }
}
