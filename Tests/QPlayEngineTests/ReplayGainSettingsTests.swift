import Foundation
import QPlayEngine
import QPlayModel
import SystemPackage
import Testing

/// The pure ReplayGain choice: which gain and peak a mode takes, the preamp, the peak
/// limit, junk tags, and `auto`'s album test on the play order.
@Suite struct ReplayGainSettingsTests {
    private let tagged = ReplayGain(trackGain: -6.02, trackPeak: 0.8, albumGain: -3, albumPeak: 0.95)

    private func decibels(_ factor: Double) -> Double { 20 * log10(factor) }

    @Test func offLeavesEveryTrackAlone() {
        let settings = ReplayGainSettings(mode: .off, preamp: 6)
        #expect(settings.factor(for: tagged, withinAlbum: true) == 1)
        #expect(settings.factor(for: tagged, withinAlbum: false) == 1)
    }

    @Test func trackAndAlbumModesTakeTheirGain() {
        let track = ReplayGainSettings(mode: .track).factor(for: tagged, withinAlbum: true)
        #expect(abs(track - 0.5) < 0.001)  // −6.02 dB halves the amplitude
        let album = ReplayGainSettings(mode: .album).factor(for: tagged, withinAlbum: false)
        #expect(abs(decibels(album) - -3) < 1e-9)
    }

    @Test func autoTakesTheAlbumGainOnlyWithinAnAlbum() {
        let settings = ReplayGainSettings(mode: .auto)
        #expect(abs(decibels(settings.factor(for: tagged, withinAlbum: true)) - -3) < 1e-9)
        #expect(abs(decibels(settings.factor(for: tagged, withinAlbum: false)) - -6.02) < 1e-9)
    }

    @Test func eachModeFallsBackToTheOtherGain() {
        let onlyAlbum = ReplayGain(albumGain: -4)
        let onlyTrack = ReplayGain(trackGain: -2)
        #expect(abs(decibels(ReplayGainSettings(mode: .track).factor(for: onlyAlbum, withinAlbum: false)) - -4) < 1e-9)
        #expect(abs(decibels(ReplayGainSettings(mode: .album).factor(for: onlyTrack, withinAlbum: true)) - -2) < 1e-9)
    }

    @Test func theChoiceNamesTheTagItCameFrom() {
        let onlyAlbum = ReplayGain(albumGain: -4, albumPeak: 0.9)
        #expect(ReplayGainSettings(mode: .track).choice(for: onlyAlbum, withinAlbum: false)?.source == .album)
        #expect(ReplayGainSettings(mode: .album).choice(for: tagged, withinAlbum: false)?.source == .album)
        #expect(ReplayGainSettings(mode: .auto).choice(for: tagged, withinAlbum: false)?.source == .track)
        let choice = ReplayGainSettings(mode: .track, preamp: -1).choice(for: tagged, withinAlbum: false)
        #expect(abs((choice?.decibels ?? 0) - -7.02) < 1e-9)
        #expect(ReplayGainSettings(mode: .off).choice(for: tagged, withinAlbum: true) == nil)
        #expect(ReplayGainSettings(mode: .album).choice(for: ReplayGain(), withinAlbum: true) == nil)
    }

    @Test func thePreampAddsToTheGainButNotToUntaggedFiles() {
        let settings = ReplayGainSettings(mode: .track, preamp: 3)
        #expect(abs(decibels(settings.factor(for: ReplayGain(trackGain: -9), withinAlbum: false)) - -6) < 1e-9)
        #expect(settings.factor(for: ReplayGain(), withinAlbum: false) == 1)
        #expect(settings.factor(for: ReplayGain(trackPeak: 0.5), withinAlbum: false) == 1)
    }

    @Test func thePeakLimitsTheGainSoNothingClips() {
        let loud = ReplayGain(trackGain: 10, trackPeak: 0.9)
        let factor = ReplayGainSettings(mode: .track).factor(for: loud, withinAlbum: false)
        #expect(abs(factor - 1 / 0.9) < 1e-12)
        // Below the limit the peak changes nothing.
        let quiet = ReplayGain(trackGain: -6, trackPeak: 0.9)
        #expect(abs(decibels(ReplayGainSettings(mode: .track).factor(for: quiet, withinAlbum: false)) - -6) < 1e-9)
        // The album gain is limited by the album peak, or the track's when only that is known.
        let album = ReplayGain(trackGain: 0, trackPeak: 0.5, albumGain: 12, albumPeak: 0.8)
        #expect(abs(ReplayGainSettings(mode: .album).factor(for: album, withinAlbum: true) - 1 / 0.8) < 1e-12)
        let albumWithoutPeak = ReplayGain(trackGain: 0, trackPeak: 0.5, albumGain: 12)
        #expect(abs(ReplayGainSettings(mode: .album).factor(for: albumWithoutPeak, withinAlbum: true) - 2) < 1e-12)
    }

    @Test func junkTagsCountAsAbsent() {
        let settings = ReplayGainSettings(mode: .track, preamp: 0)
        #expect(settings.factor(for: ReplayGain(trackGain: .nan), withinAlbum: false) == 1)
        #expect(settings.factor(for: ReplayGain(trackGain: .infinity), withinAlbum: false) == 1)
        #expect(settings.factor(for: ReplayGain(trackGain: 400), withinAlbum: false) == 1)
        #expect(settings.factor(for: ReplayGain(trackGain: -200, albumGain: -6), withinAlbum: false) < 0.51)
        // A peak of zero, negative or not a number limits nothing.
        for peak in [0, -1, Double.nan] {
            let factor = settings.factor(for: ReplayGain(trackGain: 6, trackPeak: peak), withinAlbum: false)
            #expect(abs(decibels(factor) - 6) < 1e-9)
        }
    }

    @Test func albumsAreTheSameTitleAndAlbumArtist() {
        func song(_ album: String?, albumArtist: String? = nil, artist: String? = nil) -> Track {
            Track(id: 1, path: FilePath("x.mp3"), title: "x", artist: artist, album: album, albumArtist: albumArtist)
        }
        #expect(ReplayGainSettings.sharesAlbum(song("Blue", albumArtist: "A"), song("Blue", albumArtist: "A")))
        #expect(!ReplayGainSettings.sharesAlbum(song("Blue", albumArtist: "A"), song("Blue", albumArtist: "B")))
        #expect(!ReplayGainSettings.sharesAlbum(song("Blue", albumArtist: "A"), song("Red", albumArtist: "A")))
        // Without an album artist the artist decides; without an album there is none.
        #expect(ReplayGainSettings.sharesAlbum(song("Blue", artist: "A"), song("Blue", artist: "A")))
        #expect(!ReplayGainSettings.sharesAlbum(song(nil, artist: "A"), song(nil, artist: "A")))
        #expect(!ReplayGainSettings.sharesAlbum(song("", artist: "A"), song("", artist: "A")))
    }

    @Test func anEntryPlaysWithinAnAlbumWhenAPlayOrderNeighbourSharesIt() throws {
        func song(_ name: String, _ album: String) -> Track {
            Track(
                id: TrackID(name.unicodeScalars.first!.value), path: FilePath("\(name).mp3"), title: name,
                artist: "Band", album: album, duration: 100)
        }
        var h = Harness()
        try h.add([song("A", "One"), song("B", "One"), song("C", "Lone"), song("D", "Two"), song("E", "Two")])
        let entries = h.engine.queue.entries
        let within = entries.map { h.engine.playsWithinAlbum($0) }
        #expect(within == [true, true, false, true, true])
        let (before, after) = h.engine.playOrderNeighbours(of: entries[2].id)
        #expect(before?.track.title == "B")
        #expect(after?.track.title == "D")
        #expect(h.engine.playOrderNeighbours(of: entries[0].id).before == nil)
        #expect(h.engine.playOrderNeighbours(of: 999).after == nil)
    }
}
