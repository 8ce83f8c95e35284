import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// FFmpeg's formats through the real `AudioPlayer` into real ALSA (a `file` PCM): AAC
/// albums join sample-exactly whether their encoder delay and padding come from an
/// edit list (ffmpeg) or the iTunSMPB tag (iTunes), 24-bit ALAC reaches the device
/// whole, a seek lands where it was asked.
@Suite struct FFmpegPlaybackTests {
    static let rate = 44100

    enum Gapless: String, CaseIterable, CustomStringConvertible {
        case editList, iTunSMPB
        var description: String { rawValue }
    }

    /// Two AAC tracks cut from one tone at no AAC frame boundary play as the two
    /// decodes back to back: the album's length exactly, one open device, the tone
    /// whole across the join.
    @Test(arguments: Gapless.allCases)
    func aacAlbumJoinsSampleExactly(gapless: Gapless) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = try GeneratedAudio.pcm(in: dir, seconds: 3, synth: ["sine", "440"])
        let total = whole.frames
        let cut = Self.rate + 4321
        let tracks = try [0..<cut, cut..<total].enumerated().map { index, range -> FilePath in
            let part = whole.slice(frames: range)
            let name = "\(index + 1).m4a"
            switch gapless {
            case .editList:
                return try GeneratedAudio.encode(part, as: .aac, to: name, in: dir)
            case .iTunSMPB:
                let path = try GeneratedAudio.encode(
                    part, as: .aac, to: name, in: dir, arguments: ["-use_editlist", "0", "-metadata", "title=Part"])
                try GeneratedAudio.addITunSMPB(
                    to: path, delay: 1024, padding: FFmpegDecoderTests.itunesPadding(frames: range.count),
                    frames: range.count)
                return path
            }
        }
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue([PlaybackItem(token: 1, path: tracks[0]), PlaybackItem(token: 2, path: tracks[1])])
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        let first = try decodeAll(try DecoderRegistry.standard.open(tracks[0]))
        let second = try decodeAll(try DecoderRegistry.standard.open(tracks[1]))
        #expect(first.count == cut * 2 && second.count == (total - cut) * 2, "each track is its cut, exactly")
        let captured = try capture.samples()
        #expect(captured.count == total * 2, "the album's length, not a frame more or less")
        #expect(captured == first + second, "one continuous stream: the two decodes back to back")
        #expect(harness.events == [.started(token: 1), .started(token: 2), .finished(token: 2)])
        #expect(capture.opens == 1, "the device stayed open at the join")
        // Where the join is heard: the 2,048 frames on each side of it sit exactly where
        // they are in the source (a stretch lost or doubled at either track's edge would
        // move them). Alignment, not the largest error: AAC's own error at a track's
        // edge varies with the source's dither and now and then reaches 3,000–4,000.
        let window = 2048
        let source = whole.sixteenBit
        for start in [cut - window, cut] {
            let fits = PCMCompare.bestAlignment(
                of: captured, at: start, window: window, in: source, range: (start - 32)..<(start + 33), channels: 2)
            #expect(fits == start, "the \(window) frames from \(start) fit the source at \(String(describing: fits))")
        }
        let hz = ToneAnalysis.frequency(
            of: frames(captured, (cut - Self.rate / 10)..<(cut + Self.rate / 10), channels: 2), channels: 2,
            sampleRate: Self.rate)
        #expect(abs(hz - 440) < 440 * 0.005, "across the join: \(hz) Hz")
    }

    /// Every format FFmpeg decodes, through the player into ALSA: its tone at its pitch
    /// and exactly its length (ADTS, which states no length, in whole AAC frames).
    @Test(arguments: FFmpegKind.allCases)
    func everyFormatPlaysAtItsPitchAndLength(kind: FFmpegKind) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let length = 2 * Self.rate + 333
        let pcm = try GeneratedAudio.pcm(
            in: dir, seconds: Double(length) / Double(Self.rate), synth: ["sine", "587"], bits: kind.testDepths[0])
        #expect(pcm.frames == length)
        let path = try GeneratedAudio.encode(pcm, as: kind, to: "tone.\(kind.fileExtension)", in: dir)
        // By sample format: float WAV reaches the device at 24 bits.
        let capture = try ALSACapture(in: dir, bySampleFormat: true)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.player.play(PlaybackItem(token: 1, path: path))
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let captured = try Self.sixteenBit(capture)
        if kind == .adts {
            #expect(captured.count / 2 >= length && captured.count / 2 <= length + 3 * 1024, "\(captured.count / 2) frames")
        } else {
            #expect(captured.count == length * 2, "\(captured.count / 2) frames, made \(length)")
        }
        let hz = ToneAnalysis.frequency(
            of: frames(captured, (Self.rate / 2)..<(3 * Self.rate / 2), channels: 2), channels: 2, sampleRate: Self.rate)
        #expect(abs(hz - 587) < 587 * 0.005, "\(kind) at \(hz) Hz")
        #expect(harness.events == [.started(token: 1), .finished(token: 1)])
    }

    /// What a capture by sample format holds, as 16-bit samples (the top 16 bits of wider ones).
    static func sixteenBit(_ capture: ALSACapture) throws -> [Int16] {
        if let words = try capture.words(sampleFormat: "S16_LE") {
            // Two samples a word.
            return words.flatMap { [Int16(truncatingIfNeeded: $0), Int16(truncatingIfNeeded: $0 >> 16)] }
        }
        if let words = try capture.words(sampleFormat: "S32_LE") { return words.map { Int16(truncatingIfNeeded: $0 >> 16) } }
        let words = try #require(try capture.words(sampleFormat: "S24_LE"), "a capture in S16_LE, S32_LE or S24_LE")
        return words.map { Int16(truncatingIfNeeded: (($0 << 8) >> 8) >> 8) }
    }

    @Test func twentyFourBitALACReachesALSAWithEveryBitIntact() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = try GeneratedAudio.pcm(in: dir, seconds: 2, bits: 24)
        let cut = 50_000
        let first = try GeneratedAudio.encode(whole.slice(frames: 0..<cut), as: .alac, to: "01.m4a", in: dir)
        let second = try GeneratedAudio.encode(whole.slice(frames: cut..<whole.frames), as: .alac, to: "02.m4a", in: dir)
        let capture = try ALSACapture(in: dir, bySampleFormat: true)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.playQueue([PlaybackItem(token: 1, path: first), PlaybackItem(token: 2, path: second)])
        try await harness.waitFor(.finished(token: 2))
        await harness.shutdown()

        #expect(try capture.words(sampleFormat: "S16_LE") == nil, "never narrowed to 16 bits")
        let wide = try capture.words(sampleFormat: "S32_LE") ?? capture.words(sampleFormat: "S24_LE")
        let captured = try #require(wide, "a capture in S32_LE or S24_LE")
        let isS32 = try capture.words(sampleFormat: "S32_LE") != nil
        let values = captured.map { isS32 ? $0 >> 8 : ($0 << 8) >> 8 }
        #expect(values.count == whole.samples.count, "the album's length")
        #expect(values == whole.samples, "the 24-bit source values, every bit, across the join")
    }

    /// A seek half a second in lands within 50 ms of 2.5 s; from there the track plays
    /// to its end as a decode from that frame gives it.
    @Test(arguments: [FFmpegKind.alac, .wavPack, .aac])
    func seekDuringPlaybackLandsWithin50ms(kind: FFmpegKind) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pcm = try GeneratedAudio.pcm(in: dir, seconds: 4, bits: 16)
        let path = try GeneratedAudio.encode(pcm, as: kind, to: "sweep.\(kind.fileExtension)", in: dir)
        let reference = try decodeAll(try DecoderRegistry.standard.open(path))
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .automatic)
        harness.player.play(PlaybackItem(token: 1, path: path))
        try await harness.act(when: "0.5 s heard", { $0.position >= 0.5 }) { $0.seek(to: 2.5) }
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let captured = try capture.samples()
        let splice = PCMCompare.firstMismatch(captured, reference, channels: 2)
        #expect(splice >= Self.rate / 2, "the first half second played untouched")
        let tail = captured.count / 2 - splice
        let landed = reference.count / 2 - tail
        #expect(abs(landed - 5 * Self.rate / 2) <= Self.rate / 20, "landed at frame \(landed)")
        // From the seek on: the decode from that frame (AAC within a few LSB of it,
        // see FFmpegDecoderTests).
        let worst = PCMCompare.maxDifference(captured, at: splice, reference, at: landed, frames: tail, channels: 2)
        #expect(worst <= (kind.isLossless ? 0 : 32), "the rest of the track from the landing frame: off by \(worst)")
        #expect(harness.events == [.started(token: 1), .finished(token: 1)])
    }
}
