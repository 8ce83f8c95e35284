import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// Commands that land in a running stream: seek, pause, scan. Where a command has to
/// arrive mid-track the output is paced to real time (`.automatic`); every assertion is
/// on the captured samples, never on wall time.
@Suite(.tags(.pooled), .group(.pooled)) struct AudioPlayerTimingTests {
    static let rate = 44100

    @Test func seekDuringPlaybackLandsWithin50ms() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let sweep = try GeneratedAudio.sweep(in: dir)  // VBR
        let reference = try decodeAll(try MPG123Decoder(path: sweep))
        let harness = PlayerHarness(capture: capture, pacing: .automatic)
        harness.player.play(PlaybackItem(token: 1, path: sweep))
        // Sent the moment 0.5 s are heard (from the harness's own thread, so the paced
        // device cannot play the track out before it arrives).
        try await harness.act(when: "0.5 s heard", { $0.position >= 0.5 }) { $0.seek(to: 4.0) }
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let captured = try capture.samples()
        // Before the seek the device got the track from its start; after it, the rest
        // of the track from where the seek landed, to the end.
        let splice = PCMCompare.firstMismatch(captured, reference, channels: 2)
        #expect(splice >= Self.rate / 2, "the first half second played untouched")
        let tail = captured.count / 2 - splice
        let landedByCount = reference.count / 2 - tail
        #expect(abs(landedByCount - 4 * Self.rate) <= Self.rate / 20, "landed at frame \(landedByCount) by count")
        // The audio itself says where it landed (a sweep sounds different everywhere).
        let aligned = PCMCompare.bestAlignment(
            of: captured, at: splice + 2048, window: 1024, in: reference,
            range: (4 * Self.rate - Self.rate / 5 + 2048)..<(4 * Self.rate + Self.rate / 5 + 2048), channels: 2)
        let landedBySound = try #require(aligned, "audio after the splice to align") - 2048
        #expect(abs(landedBySound - 4 * Self.rate) <= Self.rate / 20, "landed at frame \(landedBySound) by sound")
        #expect(harness.events == [.started(token: 1), .finished(token: 1)], "a seek is no new start")
    }

    @Test func seekWhilePausedThenResumeIsSampleExactInVBR() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let sweep = try GeneratedAudio.sweep(in: dir)
        let reference = try decodeAll(try MPG123Decoder(path: sweep))
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.player.play(PlaybackItem(token: 1, path: sweep), paused: true)
        harness.player.seek(to: 2.5)
        try await waitUntil("seek done") { harness.player.snapshot.position == 2.5 }
        harness.player.resume()
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let captured = try capture.samples()
        let target = 5 * Self.rate / 2
        #expect(captured.count == reference.count - target * 2, "exactly the rest of the track")
        let worst = PCMCompare.maxDifference(
            captured, at: 0, reference, at: target, frames: captured.count / 2, channels: 2)
        #expect(worst <= 2, "after the seek the device gets the same samples a full decode gives")
    }

    @Test func pauseAndResumeNeitherDropNorRepeatSamples() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let harness = PlayerHarness(capture: capture, pacing: .automatic)
        harness.player.play(morning.item(1))
        for mark in [0.7, 1.9] {
            try await harness.act(when: "\(mark) s heard", { $0.position >= mark }) { $0.pause() }
            try await waitUntil("paused") { harness.player.snapshot.state == .paused }
            let pausedAt = harness.player.snapshot.position
            try await Task.sleep(for: .milliseconds(300))
            #expect(harness.player.snapshot.position == pausedAt, "a paused position stands still")
            #expect(pausedAt >= mark && pausedAt < Double(morning.seconds))
            harness.player.resume()
            // The next round must see this resume done, or its pause could be merged
            // with it (the position would then move by a frame or so, legitimately).
            // Done is no longer paused: on a loaded machine this task may wake only after
            // the rest of the track has played, and the player has stopped by then.
            try await waitUntil("resumed") { harness.player.snapshot.state != .paused }
        }
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let captured = try capture.samples()
        let decoded = try decodeAll(try MPG123Decoder(path: morning.path))
        #expect(captured.count == decoded.count, "no sample lost, none repeated")
        #expect(captured == decoded)
        #expect(harness.events == [.started(token: 1), .finished(token: 1)])
    }

    @Test func stopCutsAndSendsNoFinished() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let harness = PlayerHarness(capture: capture, pacing: .automatic)
        harness.player.play(morning.item(1))
        harness.player.setNext(morning.item(2))
        try await harness.act(when: "0.3 s heard", { $0.position >= 0.3 }) { $0.stop() }
        try await waitUntil("idle") { harness.player.snapshot.state == .idle }
        let snapshot = harness.player.snapshot
        #expect(snapshot.token == nil)
        #expect(snapshot.position == 0)
        await harness.shutdown()
        #expect(harness.events == [.started(token: 1)], "stopping is no end of the track, and forgets the successor")
        let captured = try capture.samples()
        #expect(captured.count < morning.frames * 2)
    }

    @Test func scanForwardPlaysFragmentsAndRunsIntoTheSuccessor() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let sweep = try GeneratedAudio.sweep(in: dir)
        let reference = try decodeAll(try MPG123Decoder(path: sweep))
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.player.play(PlaybackItem(token: 1, path: sweep), from: 1.0, paused: true)
        harness.player.setNext(morning.item(2))
        harness.player.startScan(rate: 4)
        try await waitUntil("scanning") { harness.player.snapshot.scanning }
        harness.player.resume()
        try await harness.waitFor(.started(token: 2))
        harness.player.endScan()
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        // 100 ms fragments from 1.0 s, each 400 ms after the one before, to the end.
        let fragment = Self.rate / 10
        let captured = try capture.samples()
        var starts: [Int] = []
        var start = 10 * fragment
        while start < reference.count / 2 {
            starts.append(start)
            start += 4 * fragment
        }
        for (index, start) in starts.enumerated() {
            let length = min(fragment, reference.count / 2 - start)
            let worst = PCMCompare.maxDifference(
                captured, at: index * fragment, reference, at: start, frames: length, channels: 2)
            #expect(worst <= 2, "fragment \(index) is the track at frame \(start)")
        }
        #expect(harness.events == [.started(token: 1), .started(token: 2), .finished(token: 2)])
        let rest = captured.count / 2 - (starts.count - 1) * fragment - min(fragment, reference.count / 2 - starts.last!)
        #expect(rest > 0 && rest < morning.frames, "the successor was scanned too until endScan")
    }

    @Test func scanBackwardStopsAtTheStartAndPlaysOn() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let sweep = try GeneratedAudio.sweep(in: dir)
        let reference = try decodeAll(try MPG123Decoder(path: sweep))
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.player.play(PlaybackItem(token: 1, path: sweep), from: 1.0, paused: true)
        harness.player.startScan(rate: -4)
        harness.player.resume()
        try await harness.waitFor(.finished(token: 1))
        harness.player.endScan()
        await harness.shutdown()

        // Fragments at 1.0, 0.6 and 0.2 s; the next jump would pass 0: from 0 it plays on.
        let fragment = Self.rate / 10
        let captured = try capture.samples()
        for (index, start) in [10, 6, 2].map({ $0 * fragment }).enumerated() {
            let worst = PCMCompare.maxDifference(
                captured, at: index * fragment, reference, at: start, frames: fragment, channels: 2)
            #expect(worst <= 2, "fragment \(index) is the track at frame \(start)")
        }
        #expect(captured.count == 3 * fragment * 2 + reference.count)
        let worst = PCMCompare.maxDifference(
            captured, at: 3 * fragment, reference, at: 0, frames: reference.count / 2, channels: 2)
        #expect(worst <= 2, "then the whole track from 0")
    }
}
