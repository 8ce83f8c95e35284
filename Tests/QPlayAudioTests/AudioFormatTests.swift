import QPlayAudio
import Testing

/// Positions become frames on the audio thread; any number a caller passes (a track
/// indexed with duration 0 clamps no seek) must give a frame, never a trap.
@Suite struct AudioFormatTests {
    @Test func secondsBecomeFramesForAnyNumber() {
        let format = AudioFormat.cd
        #expect(format.frame(atSeconds: 1.5) == 66150)
        #expect(format.frame(atSeconds: 0) == 0)
        #expect(format.frame(atSeconds: -3) == 0)
        #expect(format.frame(atSeconds: .nan) == 0)
        #expect(format.frame(atSeconds: .infinity) == 0)
        #expect(format.frame(atSeconds: 1e300) == 44100 * 86_400)
    }
}
