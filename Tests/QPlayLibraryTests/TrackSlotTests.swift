import QPlayModel
import SystemPackage
import Testing

@testable import QPlayLibrary

/// A track initialized field by field is the track the initializer makes.
@Suite struct TrackSlotTests {
    @Test func everyFieldIsKnown() {
        // If this fails, tracks still come out right (through the initializer), only
        // slower: TrackSlot needs the new field.
        #expect(TrackSlot.offsets != nil)
    }

    @Test func aSlotHoldsTheSameTrack() {
        let expected = Track(
            id: 42, path: "Some Artist/Some Album/01 A Rather Long Title.mp3", title: "A Rather Long Title",
            artist: "Some Artist With A Long Name", album: "Album", albumArtist: nil, genre: "Électro",
            trackNumber: 1, discNumber: nil, year: 1999, duration: 201.5, bitrateKbps: 320, sampleRate: 44100,
            channels: 2, replayGain: ReplayGain(trackGain: -6.5, trackPeak: 0.9, albumGain: nil, albumPeak: 1),
            fileSize: 8_000_000, modificationTime: 1_700_000_000_000_000_000)
        let slot = UnsafeMutablePointer<Track>.allocate(capacity: 1)
        defer { slot.deallocate() }
        TrackSlot.initialize(
            slot, id: expected.id, path: expected.path, title: expected.title, artist: expected.artist,
            album: expected.album, albumArtist: expected.albumArtist, genre: expected.genre,
            trackNumber: expected.trackNumber, discNumber: expected.discNumber, year: expected.year,
            duration: expected.duration, bitrateKbps: expected.bitrateKbps, sampleRate: expected.sampleRate,
            channels: expected.channels, format: expected.format, bitsPerSample: expected.bitsPerSample,
            replayGain: expected.replayGain, fileSize: expected.fileSize,
            modificationTime: expected.modificationTime)
        #expect(slot.move() == expected)
    }
}
