import Foundation
import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// Outputs that fail: reported, retried with backoff, recovered; never a crash.
@Suite struct AudioPlayerOutputTests {
    @Test func unknownALSADeviceIsReportedNotCrashed() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let config = capture.configFile
        var tuning = PlaybackTuning()
        tuning.retryFirst = .milliseconds(20)
        tuning.retryMax = .milliseconds(80)
        let harness = PlayerHarness(
            output: { ALSAOutput(device: "qplay_no_such_device", configFile: config) }, tuning: tuning)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        harness.player.play(morning.item(1))
        try await harness.waitForEvents("an output error") { $0.contains { if case .outputError(_, _?) = $0 { true } else { false } } }
        guard case .outputError(_, let message?)? = harness.events.first else {
            Issue.record("first event: \(String(describing: harness.events.first))")
            return
        }
        #expect(message.contains("alsa:qplay_no_such_device"))
        #expect(message.contains("cannot open device"))
        // Retried in the background; reported once, not once per attempt.
        try await Task.sleep(for: .milliseconds(300))
        let snapshot = harness.player.snapshot
        #expect(snapshot.outputError == message)
        #expect(snapshot.outputName == "alsa:qplay_no_such_device")
        #expect(snapshot.token == 1)
        #expect(harness.events == [.outputError(output: "alsa:qplay_no_such_device", message: message)])
        // Commands still work while the output is down.
        harness.player.stop()
        try await waitUntil("stopped") { harness.player.snapshot.state == .idle }
        await harness.shutdown()
    }

    @Test func outputThatComesBackIsRecoveredAndPlaysEverything() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let folder = dir.appending("later")
        let path = folder.appending("out.raw")
        var tuning = PlaybackTuning()
        tuning.retryFirst = .milliseconds(20)
        tuning.retryMax = .milliseconds(80)
        // A pipe: output to a plain file in a folder that does not exist yet.
        let harness = PlayerHarness(output: { RawPCMOutput(kind: .pipe, path: path) }, tuning: tuning)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        harness.player.play(morning.item(1))
        try await harness.waitForEvents("an output error") { $0.contains { if case .outputError(_, _?) = $0 { true } else { false } } }
        #expect(harness.player.snapshot.outputError != nil)
        try FileManager.default.createDirectory(atPath: folder.string, withIntermediateDirectories: false)
        try dir.write([], to: path)  // pipe: opens what is there (a FIFO, or here a file)
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let events = harness.events
        #expect(events.count == 4)
        #expect(
            Array(events.dropFirst()) == [
                .outputError(output: "pipe:\(path.string)", message: nil), .started(token: 1), .finished(token: 1),
            ])
        #expect(harness.player.snapshot.outputError == nil)
        let bytes = try TemporaryDirectory.read(path)
        #expect(bytes.count == morning.frames * 4, "nothing was lost while the output was down")
    }

    @Test func fixedFormatOutputGetsConvertedTracks() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.appending("out.raw")
        try dir.write([], to: path)
        let harness = PlayerHarness(output: { RawPCMOutput(kind: .pipe, path: path) })
        let samples = [
            SampleCatalog.named("Test Tones/Love Songs/02 Endless Love.mp3"),  // 48 kHz
            SampleCatalog.named("Test Tones/Love Songs/03 Love Theme.mp3"),  // mono
        ]
        harness.playQueue(samples.enumerated().map { $1.item(UInt64($0 + 1)) })
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()
        let bytes = try TemporaryDirectory.read(path)
        let frames = bytes.count / 4
        #expect(abs(frames - 6 * 44100) <= 44100 / 50, "\(frames) frames of CD audio")
    }
}
