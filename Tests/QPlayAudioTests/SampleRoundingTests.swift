@testable import QPlayAudio
import Testing

/// Opus's float samples rounded to 16 bits the way libopus's 16-bit API rounds them.
@Suite struct SampleRoundingTests {
    /// (sample × 32768, the 16-bit sample expected)
    static let cases: [(Float, Int16)] = [
        (0, 0), (32768, 32767), (-32768, -32768), (65536, 32767), (-98304, -32768),
        (0.5, 0), (1.5, 2), (2.5, 2), (-0.5, 0), (-1.5, -2),
        (0.49, 0), (0.51, 1), (-0.51, -1), (12345.4, 12345),
        (-12345.6, -12346), (32766.5, 32766), (32767.4, 32767),
    ]

    @Test func roundsToNearestTiesToEvenAndClips() {
        for (scaled, expected) in Self.cases {
            #expect(Int32(roundingTo16Bits: scaled / 32768) == Int32(expected) << 16, "\(scaled) / 32768")
        }
    }

    @Test func notFiniteSamplesAreClipped() {
        #expect(Int32(roundingTo16Bits: .infinity) == Int32(Int16.max) << 16)
        #expect(Int32(roundingTo16Bits: -.infinity) == Int32(Int16.min) << 16)
        #expect(Int32(roundingTo16Bits: .nan) == Int32(Int16.min) << 16)
    }
}
