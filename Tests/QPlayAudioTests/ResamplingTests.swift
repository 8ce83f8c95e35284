import Foundation
@testable import QPlayAudio
import QPlayTestSupport
import SystemPackage
import Testing

/// Conversion for fixed-format outputs (`ResamplingDecoder`, libsoxr): what lies above
/// the target's Nyquist frequency is filtered, not folded back; lengths are exact and
/// seeks land where asked.
@Suite struct ResamplingTests {
    /// A 48 kHz file with a 1 kHz tone and a 23 kHz tone at the same level, played
    /// through the real player into a 44.1 kHz `file:` output. 23 kHz lies above 22.05 kHz:
    /// a resampler without a low-pass filter folds it to 21.1 kHz.
    @Test func contentAboveTheTargetNyquistIsFilteredNotAliased() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try GeneratedAudio.tones(in: dir, hz: [1000, 23000], seconds: 3, rate: 48000)

        // The source really holds 23 kHz (else the test could not fail).
        let source = try decodeAll(try MPG123Decoder(path: file))
        #expect(source.count == 3 * 48000 * 2)
        let sourceLow = ToneAnalysis.amplitude(atHz: 1000, of: source, channels: 2, sampleRate: 48000)
        let sourceHigh = ToneAnalysis.amplitude(atHz: 23000, of: source, channels: 2, sampleRate: 48000)
        #expect(ToneAnalysis.decibels(sourceHigh, relativeTo: sourceLow) > -3, "23 kHz in the source: \(sourceHigh) vs \(sourceLow)")

        let path = dir.appending("out.raw")
        let harness = PlayerHarness(output: { RawPCMOutput(kind: .file, path: path) })
        harness.player.play(PlaybackItem(token: 1, path: file))
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let captured = try Self.samples(TemporaryDirectory.read(path))
        #expect(captured.count == 132_300 * 2, "round(144,000 × 44,100 / 48,000) frames")
        for channel in 0..<2 {
            let hz = ToneAnalysis.frequency(of: captured, channels: 2, channel: channel, sampleRate: 44100)
            #expect(abs(hz - 1000) <= 1000 * 0.005, "channel \(channel): \(hz) Hz")
            let tone = ToneAnalysis.amplitude(atHz: 1000, of: captured, channels: 2, channel: channel, sampleRate: 44100)
            let alias = ToneAnalysis.amplitude(atHz: 21100, of: captured, channels: 2, channel: channel, sampleRate: 44100)
            let level = ToneAnalysis.decibels(alias, relativeTo: tone)
            #expect(level <= -60, "channel \(channel): 21.1 kHz at \(level) dB of the 1 kHz tone")
            #expect(abs(ToneAnalysis.decibels(tone, relativeTo: sourceLow)) < 1, "the 1 kHz tone keeps its level")
        }
    }

    /// A whole converted decode is round(source frames × ratio) long, whatever the
    /// read sizes; mono is heard on both sides.
    @Test(arguments: [(48000, 2), (22050, 1), (32000, 2)])
    func convertedLengthIsExact(rate: Int, channels: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try GeneratedAudio.sweep(in: dir, seconds: 2, vbr: false, rate: rate, channels: channels)
        let plain = try MPG123Decoder(path: file)
        let sourceFrames = try #require(plain.frameCount)
        let expected = Int((Double(sourceFrames) * 44100 / Double(rate)).rounded())
        let decoder = try DecoderRegistry.standard.open(file, converting: .cd)
        #expect(decoder is ResamplingDecoder)
        #expect(decoder.format.joins(.cd))
        #expect(decoder.frameCount == expected)
        // An odd read size: the end must not depend on where reads split the stream.
        var all: [Int32] = []
        var buffer = [Int32](repeating: 0, count: 2 * 777)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            if count == 0 { break }
            all += buffer[..<count]
        }
        #expect(all.count == expected * 2)
        #expect(decoder.framePosition == expected)
        if channels == 1 {
            #expect((0..<expected).allSatisfy { all[2 * $0] == all[2 * $0 + 1] }, "mono on both sides")
        }
        let hz = ToneAnalysis.frequency(
            of: all.map { Int16(truncatingIfNeeded: $0 >> 16) }, channels: 2, sampleRate: 44100)
        #expect(hz > 200 && hz < 3000, "a sweep from 200 Hz to 3 kHz: \(hz) Hz on average")
    }

    /// A seek lands within 50 ms of where asked: the audio after it matches the full
    /// converted decode there (a sweep: every moment sounds different).
    @Test func seekLandsWithin50Milliseconds() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try GeneratedAudio.sweep(in: dir, seconds: 4, rate: 48000)
        let reference = try decodeAll(try DecoderRegistry.standard.open(file, converting: .cd))
        for seconds in [0.5, 2.0, 3.3] {
            let decoder = try DecoderRegistry.standard.open(file, converting: .cd)
            let target = Int(seconds * 44100)
            try decoder.seek(toFrame: target)
            #expect(decoder.framePosition == target)
            let rest = try decodeAll(decoder)
            #expect(abs(rest.count / 2 - (reference.count / 2 - target)) <= 1, "length after the seek")
            let window = 2048
            let landed = PCMCompare.bestAlignment(
                of: rest, at: 441, window: window, in: reference, range: (target - 4410)..<(target + 4410), channels: 2)
            let offset = try #require(landed) - 441 - target
            #expect(abs(offset) <= 2205, "seek to \(seconds) s landed \(offset) frames off")
        }
    }

    /// Downmix coefficients: each output's add up to 1 (no clipping), LFE left out.
    @Test func channelMapperMixesDownWithoutClipping() {
        let full = Int32.max
        for channels in 3...8 {
            let mapper = ChannelMapper(from: channels, to: 2)
            let frame = [Int32](repeating: full, count: channels)
            var out = [Int32](repeating: 0, count: 2)
            frame.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { mapper.map(input.baseAddress!, frames: 1, into: $0.baseAddress!) }
            }
            // Every channel at full scale except LFE: at most full scale out.
            #expect(out.allSatisfy { $0 > full / 2 }, "\(channels) ch: \(out)")
        }
        let sixToStereo = ChannelMapper(from: 6, to: 2)
        let lfeOnly: [Int32] = [0, 0, 0, 1 << 30, 0, 0]
        let centreOnly: [Int32] = [0, 0, 1 << 30, 0, 0, 0]
        for (input, silent) in [(lfeOnly, true), (centreOnly, false)] {
            var out = [Int32](repeating: 7, count: 2)
            input.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { sixToStereo.map(input.baseAddress!, frames: 1, into: $0.baseAddress!) }
            }
            #expect(silent ? out == [0, 0] : (out[0] == out[1] && out[0] > 0), "\(input) → \(out)")
        }
        let toMono = ChannelMapper(from: 2, to: 1)
        var mono: [Int32] = [0]
        ([Int32(1000), Int32(3000)]).withUnsafeBufferPointer { input in
            mono.withUnsafeMutableBufferPointer { toMono.map(input.baseAddress!, frames: 1, into: $0.baseAddress!) }
        }
        #expect(mono == [2000])
        #expect(ChannelMapper(from: 1, to: 2).copiesSamples && !toMono.copiesSamples && !sixToStereo.copiesSamples)
    }

    static func samples(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }
}
