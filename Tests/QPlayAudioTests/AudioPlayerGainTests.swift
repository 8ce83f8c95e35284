import QPlayAudio
import QPlayTestSupport
import Testing

/// An item's own gain (ReplayGain, decided by the daemon) through the real AudioPlayer
/// and real ALSA into a capture: each item of a gapless queue gets its own gain, from
/// its first sample to its last, and an item without gain stays bit-exact beside them.
@Suite struct AudioPlayerGainTests {
    @Test func eachItemPlaysAtItsOwnGainAndUnityStaysBitExact() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let tone = try ToneFixtures.generate(
            [ToneFixture(file: "gain.mp3", title: "Gain", toneHz: 440, seconds: 1.2)], in: dir)[0]
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        let gains = [0.5, 0.8, 1.0, 1 / 0.9]
        harness.playQueue(gains.enumerated().map { PlaybackItem(token: UInt64($0 + 1), path: tone, gain: $1) })
        try await harness.waitFor(.finished(token: UInt64(gains.count)))
        await harness.shutdown()

        let decoded = try decodeAll(try MPG123Decoder(path: tone))
        let captured = try capture.samples()
        // One gapless stream of the four plays, whole.
        try #require(captured.count == gains.count * decoded.count)
        for (index, gain) in gains.enumerated() {
            let played = captured[(index * decoded.count)..<((index + 1) * decoded.count)]
            if gain == 1 {
                #expect(Array(played) == decoded, "item \(index + 1) at gain 1")
                continue
            }
            // The gain is Q15; scaled samples are narrowed to 16 bits with ±1 step of dither.
            let fixed = (gain * 32768).rounded() / 32768
            let worst = zip(played, decoded).map { abs(Double($0) - Double($1) * fixed) }.max() ?? .infinity
            #expect(worst <= 1.5, "item \(index + 1) at gain \(gain): off by up to \(worst)")
            let level = ToneFixtures.rms(played) / ToneFixtures.rms(decoded)
            #expect(abs(level / gain - 1) < 0.02, "item \(index + 1): level \(level), gain \(gain)")
        }
    }

    @Test func theVolumeMultipliesWithTheItemGain() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let tone = try ToneFixtures.generate(
            [ToneFixture(file: "gain.mp3", title: "Gain", toneHz: 523, seconds: 1.0)], in: dir)[0]
        let capture = try ALSACapture(in: dir)
        let harness = PlayerHarness(capture: capture, pacing: .never)
        harness.player.setVolume(50)
        harness.player.play(PlaybackItem(token: 1, path: tone, gain: 2))
        try await harness.waitFor(.finished(token: 1))
        await harness.shutdown()

        let decoded = try decodeAll(try MPG123Decoder(path: tone))
        let captured = try capture.samples()
        try #require(captured.count == decoded.count)
        // 50 % is 0.125; times 2 is 0.25. The first write (at most 100 ms) ramps the volume.
        let chunk = 4410 * 2
        let level = ToneFixtures.rms(captured[chunk...]) / ToneFixtures.rms(decoded[chunk...])
        #expect(abs(level / 0.25 - 1) < 0.02, "level \(level)")
    }
}
