import Foundation
import QPlayEngine
import QPlayModel
import SystemPackage
import Testing

/// The hand-written JSON of a stored track reads back, through `JSONDecoder`, as the
/// same value Foundation's encoder round-trips: the queue saved by one is loaded by the other.
@Suite struct StoredTrackJSONTests {
    static func nonUTF8Path() -> FilePath {
        let bytes: [CChar] = [0x61, 0x2F, CChar(bitPattern: 0xFF), 0x2E, 0x6D, 0x70, 0x33, 0]
        return bytes.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
    }

    static let tracks: [Track] = [
        Track(id: 1, path: "a.mp3", title: "A"),
        Track(
            id: 9_223_372_036_854_775_807, path: "Ünïcødé/\"quoted\" \\ back.flac",
            title: "tab\there\nnew \u{1} \u{1F} \u{7F} é 漢字 🎵", artist: "", album: "Al\\bum",
            albumArtist: "AA", genre: "G", trackNumber: -3, discNumber: 0, year: 1999, duration: 0.1,
            bitrateKbps: 320, sampleRate: 44_100, channels: 2, format: .flac, bitsPerSample: 24,
            replayGain: ReplayGain(trackGain: -7.25, trackPeak: 1e-300, albumGain: 1e300, albumPeak: 0.999_999_999_9),
            fileSize: -1, modificationTime: Int64.min),
        Track(id: -5, path: nonUTF8Path(), title: "", duration: 12_345.678_901_234_5, format: .opus),
        Track(id: 2, path: "b.ogg", title: "x", duration: .leastNonzeroMagnitude, replayGain: ReplayGain(trackGain: -0.0)),
    ]

    @Test(arguments: tracks)
    func readsBackAsTheEncoderWouldHaveWritten(_ track: Track) throws {
        let stored = StoredTrack(track)
        var bytes: [UInt8] = Array("prefix".utf8)
        stored.appendJSON(to: &bytes)
        #expect(bytes.starts(with: Array("prefix".utf8)))
        let written = Data(bytes.dropFirst(6))
        let decoded = try JSONDecoder().decode(StoredTrack.self, from: written)
        #expect(decoded == stored)
        #expect(decoded.track == track)
        // The members Foundation writes, no more and no fewer.
        let ours = try JSONSerialization.jsonObject(with: written) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: JSONEncoder().encode(stored)) as? NSDictionary
        #expect(ours == theirs)
    }

    @Test func aDurationJSONCannotHoldIsWrittenAsZero() throws {
        var bytes: [UInt8] = []
        StoredTrack(Track(id: 3, path: "c.mp3", title: "c", duration: .infinity)).appendJSON(to: &bytes)
        let decoded = try JSONDecoder().decode(StoredTrack.self, from: Data(bytes))
        #expect(decoded.track.duration == 0)
    }
}
