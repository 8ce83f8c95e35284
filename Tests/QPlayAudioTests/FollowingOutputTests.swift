import Foundation
import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// Outputs after the first: each is handed what the first takes and plays it on a
/// thread of its own; one that cannot keep up, has no reader or stops reading never
/// holds the first back, and shows in status as failed or stalled by its name.
@Suite struct FollowingOutputTests {
    static let quickRetry: PlaybackTuning = {
        var tuning = PlayerHarness.tuning()
        tuning.retryFirst = .milliseconds(20)
        tuning.retryMax = .milliseconds(80)
        return tuning
    }()

    static let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
    static let evening = SampleCatalog.named("Test Tones/Day Cycle/02 Evening.mp3")

    /// A player playing into `capture` first (ALSA, paced) and `followers` after it.
    static func player(capture: ALSACapture, followers: @escaping @Sendable () -> [any AudioOutput]) -> PlayerHarness {
        let config = capture.configFile
        return PlayerHarness(
            output: { ALSAOutput(device: ALSACapture.device, configFile: config, pacing: .automatic) },
            followers: followers, tuning: quickRetry)
    }

    static func int16s(_ bytes: [UInt8]) -> [Int16] {
        (0..<(bytes.count / 2)).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) }
    }

    /// ALSA (into a file PCM) first, a `file:` output second: across a track change
    /// both receive every sample of both tracks, the same samples.
    @Test func twoOutputsReceiveIdenticalSamples() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let copy = dir.appending("copy.raw")
        let harness = Self.player(capture: capture) { [RawPCMOutput(kind: .file, path: copy)] }
        harness.playQueue([Self.morning.item(1), Self.evening.item(2)])
        try await harness.waitFor(.finished(token: 2))
        let samples = (Self.morning.frames + Self.evening.frames) * 2
        try await waitUntil("the second output has every sample") {
            ((try? TemporaryDirectory.read(copy))?.count ?? 0) >= samples * 2
        }
        let outputs = harness.player.snapshot.outputs
        await harness.shutdown()
        let first = try capture.samples()
        let second = Self.int16s(try TemporaryDirectory.read(copy))
        #expect(first.count == samples)
        #expect(second.count == samples)
        #expect(first == second, "the two outputs were given different samples")
        #expect(outputs.map(\.name) == ["alsa:\(ALSACapture.device)", "file:\(copy.string)"])
        #expect(outputs.map(\.state) == [.ok, .ok])
        #expect(!harness.events.contains { if case .outputError = $0 { true } else { false } })
    }

    /// A `pipe:` second whose FIFO has no reader: the first plays the whole track at
    /// its pace; the pipe is reported failed, by its name, and retried meanwhile.
    @Test func aPipeWithNoReaderNeverHoldsTheFirstBack() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let fifo = dir.appending("snapfifo")
        try FIFOReader.make(fifo)
        let harness = Self.player(capture: capture) { [RawPCMOutput(kind: .pipe, path: fifo)] }
        harness.player.play(Self.morning.item(1))
        try await harness.waitFor(.finished(token: 1))
        let snapshot = harness.player.snapshot
        await harness.shutdown()
        #expect(try capture.samples().count == Self.morning.frames * 2, "the first output lost audio")
        #expect(snapshot.outputs.map(\.state) == [.ok, .failed])
        #expect(snapshot.outputError == nil, "the first output's own status stays clear")
        let reported = harness.events.compactMap { event -> String? in
            if case .outputError(let output, let message?) = event, output == "pipe:\(fifo.string)" { message } else { nil }
        }
        #expect(reported.count == 1, "reported once, not once per attempt: \(harness.events)")
        #expect(reported.first?.contains("no reader") == true)
    }

    /// A reader that keeps the FIFO open and stops reading: the second output falls
    /// behind, is shown stalled while the first plays on (its position moves), and plays
    /// again once the reader reads. One 40 s track: on a loaded machine a test's own
    /// turns can come seconds apart, and the stall must be seen while it plays.
    @Test func aFollowerThatStopsReadingIsStalledAndThePlayerPlaysOn() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.appending("snapfifo")
        try FIFOReader.make(fifo)
        let reader = try FIFOReader(fifo, reading: false)
        defer { reader.close() }
        let harness = Self.player(capture: try ALSACapture(in: dir)) { [RawPCMOutput(kind: .pipe, path: fifo)] }
        let long = try GeneratedAudio.sweep(in: dir, seconds: 40, vbr: false)
        harness.player.play(PlaybackItem(token: 1, path: long))
        try await waitUntil("the second output is stalled") {
            harness.player.snapshot.outputs.map(\.state) == [.ok, .stalled]
        }
        let stalled = harness.player.snapshot
        #expect(stalled.outputError == nil)
        #expect(stalled.state == .playing)
        try await waitUntil("the first output plays on") { harness.player.snapshot.position > stalled.position + 0.3 }
        reader.setReading(true)
        try await waitUntil("the stall clears") { harness.player.snapshot.outputs.map(\.state) == [.ok, .ok] }
        let heard = reader.count
        try await waitUntil("the second output plays again") { reader.count > heard + 44100 }
        harness.player.stop()
        await harness.shutdown()
        let pipe = "pipe:\(fifo.string)"
        #expect(harness.events.contains { if case .outputError(pipe, let message?) = $0 { message.contains("stalled") } else { false } })
        #expect(harness.events.contains(.outputError(output: pipe, message: nil)))
        #expect(!harness.events.contains { if case .outputError(let output, _) = $0 { output != pipe } else { false } })
    }
}
