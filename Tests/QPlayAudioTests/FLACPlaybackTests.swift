import Foundation
import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// FLAC through the real `AudioPlayer` into real ALSA (a `file` PCM) or the `file:`
/// output. FLAC is lossless, so the capture is compared with the PCM the files were
/// encoded from, sample by sample.
@Suite struct FLACPlaybackTests {
    static let rate = 44100

    @Test func albumCutMidBlockPlaysAsOneContinuousStream() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // One sweep cut into two tracks 70,001 frames in: not on a 4,096-frame block edge.
        let whole = try GeneratedAudio.pcm(in: dir, seconds: 3, bits: 16)
        let cut = 70_001
        let first = try GeneratedAudio.flac(whole.slice(frames: 0..<cut), in: dir, name: "01.flac")
        let second = try GeneratedAudio.flac(whole.slice(frames: cut..<whole.frames), in: dir, name: "02.flac")
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue([PlaybackItem(token: 1, path: first), PlaybackItem(token: 2, path: second)])
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        let captured = try capture.samples()
        #expect(captured.count == whole.samples.count, "total = the source's length")
        #expect(captured == whole.sixteenBit, "the source, sample-exact: no gap, nothing changed at the cut")
        #expect(harness.events == [.started(token: 1), .started(token: 2), .finished(token: 2)])
        #expect(capture.opens == 1)
    }

    @Test func mp3FollowedByFLACJoinsWithoutAGap() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let mp3 = try GeneratedAudio.sweep(in: dir, seconds: 2)
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 2, synth: ["sine", "3000-200"], bits: 16)
        let flac = try GeneratedAudio.flac(pcm, in: dir, name: "down.flac")
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue([PlaybackItem(token: 1, path: mp3), PlaybackItem(token: 2, path: flac)])
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        let decodedMP3 = try decodeAll(try MPG123Decoder(path: mp3))
        let captured = try capture.samples()
        #expect(captured.count == decodedMP3.count + pcm.samples.count, "total = sum of the decoded lengths")
        #expect(captured == decodedMP3 + pcm.sixteenBit, "one stream across formats: zero gap samples")
        #expect(harness.events == [.started(token: 1), .started(token: 2), .finished(token: 2)])
        #expect(capture.opens == 1, "the device stayed open across the join")
    }

    @Test func twentyFourBitAlbumReachesALSAWithEveryBitIntact() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = try GeneratedAudio.pcm(in: dir, seconds: 2, bits: 24)
        let cut = 50_000
        let first = try GeneratedAudio.flac(whole.slice(frames: 0..<cut), in: dir, name: "01.flac")
        let second = try GeneratedAudio.flac(whole.slice(frames: cut..<whole.frames), in: dir, name: "02.flac")
        let capture = try ALSACapture(in: dir, bySampleFormat: true)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue([PlaybackItem(token: 1, path: first), PlaybackItem(token: 2, path: second)])
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        #expect(try capture.words(sampleFormat: "S16_LE") == nil, "never narrowed to 16 bits")
        // The `file` PCM's null slave takes S32 (the output's first choice); S24 in
        // 32-bit words would be the next.
        let wide = try capture.words(sampleFormat: "S32_LE") ?? capture.words(sampleFormat: "S24_LE")
        let captured = try #require(wide, "a capture in S32_LE or S24_LE")
        let isS32 = try capture.words(sampleFormat: "S32_LE") != nil
        let values = captured.map { isS32 ? $0 >> 8 : ($0 << 8) >> 8 }
        #expect(values.count == whole.samples.count)
        #expect(values == whole.samples, "the 24-bit source values, every bit")
        if isS32 { #expect(captured.allSatisfy { $0 & 0xFF == 0 }, "the low byte below 24 bits is empty") }
    }

    @Test func twentyFourBitIntoTheFileOutputIsDitheredTo16Bits() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 1, bits: 24)
        let flac = try GeneratedAudio.flac(pcm, in: dir, name: "deep.flac")
        let path = dir.appending("out.raw")
        try dir.write([], to: path)
        // pipe: to a plain file: the `file:` output's encoding, unpaced.
        let harness = PlayerHarness(output: { RawPCMOutput(kind: .pipe, path: path) })
        harness.player.play(PlaybackItem(token: 1, path: flac))
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let bytes = try TemporaryDirectory.read(path)
        #expect(bytes.count == pcm.samples.count * 2, "S16, every frame")
        let captured = (0..<(bytes.count / 2)).map {
            Int(Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8))
        }
        var worst = 0
        var offRounding = 0
        for (index, sample) in captured.enumerated() where index < pcm.samples.count {
            let rounded = Int((Double(pcm.samples[index]) / 256).rounded())
            worst = max(worst, abs(sample - rounded))
            if sample != rounded { offRounding += 1 }
        }
        #expect(worst <= 1, "within ±1 of the rounded 24-bit source")
        // Plain rounding or truncation would hit the rounded value (almost) always.
        #expect(offRounding > captured.count / 10, "dithered: \(offRounding) of \(captured.count) off plain rounding")
    }

    @Test func seekDuringPlaybackLandsWithin50msAndPlaysTheRestExactly() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 4, bits: 16)
        let flac = try GeneratedAudio.flac(pcm, in: dir, name: "sweep.flac")
        let reference = pcm.sixteenBit
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .automatic)
        harness.player.play(PlaybackItem(token: 1, path: flac))
        try await harness.act(when: "0.5 s heard", { $0.position >= 0.5 }) { $0.seek(to: 2.5) }
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let captured = try capture.samples()
        let splice = PCMCompare.firstMismatch(captured, reference, channels: 2)
        #expect(splice >= Self.rate / 2, "the first half second played untouched")
        let tail = captured.count / 2 - splice
        let landed = pcm.frames - tail
        #expect(abs(landed - 5 * Self.rate / 2) <= Self.rate / 20, "landed at frame \(landed)")
        #expect(captured[(splice * 2)...] == reference[(landed * 2)...], "the rest of the track, sample-exact")
        #expect(harness.events == [.started(token: 1), .finished(token: 1)])
    }
}
