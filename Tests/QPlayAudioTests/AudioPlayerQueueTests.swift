import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// The audio thread playing a queue into real ALSA (a `file` PCM), unpaced: what the
/// device received is compared with the decoded files, sample by sample.
@Suite(.tags(.pooled), .group(.pooled)) struct AudioPlayerQueueTests {
    @Test func sameFormatTracksJoinWithZeroGapSamples() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let evening = SampleCatalog.named("Test Tones/Day Cycle/02 Evening.mp3")
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue([morning.item(1), evening.item(2)])
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        let first = try decodeAll(try MPG123Decoder(path: morning.path))
        let second = try decodeAll(try MPG123Decoder(path: evening.path))
        let captured = try capture.samples()
        #expect(captured.count == first.count + second.count, "total = sum of the decoded lengths")
        #expect(captured == first + second, "one continuous stream: zero gap samples, nothing changed")
        #expect(harness.events == [.started(token: 1), .started(token: 2), .finished(token: 2)])
    }

    @Test func queueIsHeardInQueueOrder() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let files = [
            "Test Tones/Day Cycle/01 Morning.mp3", "Test Tones/Love Songs/01 Love Song.mp3",
            "Test Tones/Day Cycle/02 Evening.mp3", "Various/Straße.mp3", "untagged.mp3",
        ]
        let samples = files.map(SampleCatalog.named)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue(samples.enumerated().map { $1.item(UInt64($0 + 10)) })
        try await harness.waitFor(.finished(token: UInt64(files.count - 1 + 10)))
        await harness.shutdown()

        let captured = try capture.samples()
        #expect(captured.count == samples.reduce(0) { $0 + $1.frames * 2 })
        var start = 0
        var heard: [String] = []
        for sample in samples {
            let part = frames(captured, start..<min(start + sample.frames, captured.count / 2), channels: 2)
            let hz = ToneAnalysis.frequency(of: part, channels: 2, sampleRate: 44100)
            heard.append(SampleCatalog.nearestTone(to: hz).file)
            start += sample.frames
        }
        #expect(heard == files)
        #expect(harness.events.filter { if case .started = $0 { true } else { false } }.count == files.count)
    }

    @Test func formatChangeReopensTheDevice() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir, perFormat: true)
        let samples = [
            SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3"),  // 44.1 kHz stereo
            SampleCatalog.named("Test Tones/Love Songs/02 Endless Love.mp3"),  // 48 kHz stereo
            SampleCatalog.named("Test Tones/Love Songs/03 Love Theme.mp3"),  // 44.1 kHz mono
        ]
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue(samples.enumerated().map { $1.item(UInt64($0 + 1)) })
        try await harness.waitFor(.finished(token: 3))
        await harness.shutdown()

        // Unpaced, a short track may end before the queue sets its successor (then
        // `finished` and a `play` follow): the order of starts is what counts here.
        #expect(harness.events.filter { if case .started = $0 { true } else { false } } == [1, 2, 3].map { .started(token: $0) })
        #expect(harness.events.last == .finished(token: 3))
        for sample in samples {
            let captured = try capture.samples(rate: sample.sampleRate, channels: sample.channels)
            #expect(captured == (try decodeAll(try MPG123Decoder(path: sample.path))), "\(sample.file) in its own format")
        }
    }

    @Test func corruptFileBetweenTwoGoodOnesIsSkipped() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let garbage = dir.appending("corrupt.mp3")
        try dir.write(pseudoRandomBytes(count: 100_000, seed: 3), to: garbage)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let evening = SampleCatalog.named("Test Tones/Day Cycle/02 Evening.mp3")
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue([morning.item(1), PlaybackItem(token: 2, path: garbage), evening.item(3)])
        try await harness.waitFor(.finished(token: 3))
        await harness.shutdown()

        let events = harness.events
        #expect(events.first == .started(token: 1))
        #expect(events.contains { if case .failed(2, let reason) = $0 { !reason.isEmpty } else { false } })
        #expect(!events.contains(.started(token: 2)))
        #expect(events.suffix(2) == [.started(token: 3), .finished(token: 3)])
        let captured = try capture.samples()
        let expected = try decodeAll(try MPG123Decoder(path: morning.path)) + decodeAll(try MPG123Decoder(path: evening.path))
        #expect(captured == expected, "the good files, whole; nothing of the corrupt one")
    }

    @Test func missingFileFailsAtOnceAndNothingPlays() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.player.play(PlaybackItem(token: 7, path: dir.appending("missing.mp3")))
        try await harness.waitForEvents("failed") { $0.contains { if case .failed(7, _) = $0 { true } else { false } } }
        #expect(harness.player.snapshot.state == .idle)
        #expect(harness.player.snapshot.token == nil)
        await harness.shutdown()
    }

    @Test func junkInTheMiddleOfAFileIsSkippedAndTheQueueGoesOn() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let evening = SampleCatalog.named("Test Tones/Day Cycle/02 Evening.mp3")
        var bytes = try TemporaryDirectory.read(morning.path)
        let junk = pseudoRandomBytes(count: 8_000, seed: 11)
        bytes.replaceSubrange((bytes.count / 2)..<(bytes.count / 2 + junk.count), with: junk)
        let damaged = dir.appending("damaged.mp3")
        try dir.write(bytes, to: damaged)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue([PlaybackItem(token: 1, path: damaged), evening.item(2)])
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        #expect(harness.events.contains(.started(token: 2)))
        let captured = try capture.samples()
        let tail = try decodeAll(try MPG123Decoder(path: evening.path))
        #expect(captured.count > tail.count)
        #expect(Array(captured.suffix(tail.count)) == tail, "the next track plays whole after the damaged one")
        let head = Array(captured.prefix(44100 * 2))
        #expect(abs(ToneAnalysis.frequency(of: head, channels: 2, sampleRate: 44100) - morning.toneHz) < 2)
    }

    @Test func successorClearedOrReplacedBeforeTheJoinIsDropped() async throws {
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let evening = SampleCatalog.named("Test Tones/Day Cycle/02 Evening.mp3")
        let loveSong = SampleCatalog.named("Test Tones/Love Songs/01 Love Song.mp3")
        let first = try decodeAll(try MPG123Decoder(path: morning.path))

        // Replaced before anything played.
        do {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let capture = try ALSACapture(in: dir)
            let harness = PlayerHarness(capture: capture, pacing: .never)
            harness.player.play(morning.item(1), paused: true)
            harness.player.setNext(evening.item(2))
            harness.player.setNext(loveSong.item(3))
            harness.player.resume()
            try await harness.waitFor(.finished(token: 3))
            await harness.shutdown()
            #expect(harness.events == [.started(token: 1), .started(token: 3), .finished(token: 3)])
            #expect(try capture.samples() == first + decodeAll(try MPG123Decoder(path: loveSong.path)))
        }
        // Cleared.
        do {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let capture = try ALSACapture(in: dir)
            let harness = PlayerHarness(capture: capture, pacing: .never)
            harness.player.play(morning.item(1), paused: true)
            harness.player.setNext(evening.item(2))
            harness.player.setNext(nil)
            harness.player.resume()
            try await harness.waitFor(.finished(token: 1))
            await harness.shutdown()
            #expect(harness.events == [.started(token: 1), .finished(token: 1)])
            #expect(try capture.samples() == first)
        }
    }

    @Test func successorAlreadyDecodedAheadIsDroppedWhenReplaced() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let evening = SampleCatalog.named("Test Tones/Day Cycle/02 Evening.mp3")
        let loveSong = SampleCatalog.named("Test Tones/Love Songs/01 Love Song.mp3")
        // A long decode-ahead: once 2.5 s are heard, Evening's start is in the buffer.
        var tuning = PlaybackTuning()
        tuning.decodeAhead = .seconds(2)
        let harness = PlayerHarness(capture: capture, pacing: .automatic, tuning: tuning)
        harness.player.play(morning.item(1))
        harness.player.setNext(evening.item(2))
        // Paused from the harness's own thread the moment 2.5 s are heard: the paced
        // device plays on meanwhile, and Morning must not have ended yet.
        try await harness.act(when: "2.5 s heard", { $0.position >= 2.5 }) { $0.pause() }
        try await waitUntil("paused") { harness.player.snapshot.state == .paused }
        harness.player.setNext(loveSong.item(3))
        harness.player.resume()
        try await harness.waitFor(.finished(token: 3))
        await harness.shutdown()

        #expect(harness.events == [.started(token: 1), .started(token: 3), .finished(token: 3)])
        let expected = try decodeAll(try MPG123Decoder(path: morning.path)) + decodeAll(try MPG123Decoder(path: loveSong.path))
        #expect(try capture.samples() == expected)
    }

    @Test func successorSetAgainAfterItJoinedIsNotPlayedTwice() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let evening = SampleCatalog.named("Test Tones/Day Cycle/02 Evening.mp3")
        // Paced, so Evening is still being played when the late `setNext` arrives (what a
        // listener does that reacts to Morning's `started` after the join).
        let harness = PlayerHarness(capture: capture, pacing: .automatic)
        harness.player.play(morning.item(1), from: 3.5, paused: true)
        harness.player.setNext(evening.item(2))
        harness.player.resume()
        let joined = try await harness.act(when: "the join", { $0.token == 2 }) { $0.setNext(evening.item(2)) }
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        #expect(joined.position < 3.5, "the setNext came while Evening played")
        #expect(harness.events == [.started(token: 1), .started(token: 2), .finished(token: 2)])
        let tail = try decodeAll(try MPG123Decoder(path: morning.path)).dropFirst(Int(3.5 * 44100) * 2)
        #expect(try capture.samples() == Array(tail) + decodeAll(try MPG123Decoder(path: evening.path)))
    }

    @Test func volumeScalesOnTheCubicCurveAndHundredIsBitExact() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try ALSACapture(in: dir)
        let morning = SampleCatalog.named("Test Tones/Day Cycle/01 Morning.mp3")
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.player.setVolume(50)
        harness.player.play(morning.item(1))
        try await harness.waitFor(.finished(token: 1))
        harness.player.setVolume(100)
        harness.player.play(morning.item(2))
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        let decoded = try decodeAll(try MPG123Decoder(path: morning.path))
        let captured = try capture.samples()
        // Both plays, whole (the output may have been closed while idle between them and
        // reopened: the capture covers every open). Without that the slices below are moot.
        try #require(captured.count == 2 * decoded.count)
        let gain = Int32((0.5 * 0.5 * 0.5 * 32768).rounded())  // 50 % = 0.125 ≈ −18 dB
        let chunk = 4410 * 2  // the first write (at most 100 ms) ramps from full gain down
        let quiet = Array(captured[chunk..<decoded.count])
        let expected = decoded[chunk...].map { Double(Int32($0) * gain) / 32768 }
        // Scaled samples are narrowed to 16 bits with ±1 step of dither.
        #expect(zip(quiet, expected).allSatisfy { abs(Double($0) - $1) <= 1.5 })
        #expect(quiet != decoded[chunk...].map { Int16(truncatingIfNeeded: (Int32($0) * gain) >> 15) })
        // Back at 100 the first chunk ramps up; after it, the samples are untouched.
        #expect(Array(captured[(decoded.count + chunk)...]) == Array(decoded[chunk...]))
    }
}
