import Foundation
import QPlayModel
import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayDaemon

/// What a track-change notification says, and which changes count as asked for.
@Suite("Notifications: text, cover and the user's changes")
struct TrackNotificationTests {
    @Test func bodyNamesTheArtistAndAlbumThereAre() throws {
        let music = TemporaryDirectory("qplay-notify-text")
        defer { music.remove() }
        func body(_ artist: String?, _ album: String?) -> String {
            TrackNotification(
                track: Track(id: 1, path: "a.mp3", title: "Song", artist: artist, album: album),
                musicDirectory: music.path
            ).body
        }
        #expect(body("Band", "Record") == "Band – Record")
        #expect(body("Band", nil) == "Band")
        #expect(body(nil, "Record") == "Record")
        #expect(body("", "Record") == "Record")
        #expect(body(nil, nil) == "")
        #expect(
            TrackNotification(summary: "Song", body: "Simon & Garfunkel <Live> – Café", imagePath: nil).markupBody
                == "Simon &amp; Garfunkel &lt;Live&gt; – Café")
    }

    @Test func theCoverIsTheFolderImageBesideTheTrackInAnyCase() throws {
        let music = TemporaryDirectory("qplay-notify-cover")
        defer { music.remove() }
        for folder in ["With", "Without"] {
            try FileManager.default.createDirectory(atPath: music.appending(folder).string, withIntermediateDirectories: true)
        }
        try music.write([1], to: music.appending("With/track.flac"))
        try music.write([1], to: music.appending("Without/track.flac"))
        try music.write(GeneratedPictures.png(), to: music.appending("With/FOLDER.WebP"))
        try music.write([1], to: music.appending("Without/notes.jpg"))
        let with = TrackNotification(track: Track(id: 1, path: "With/track.flac", title: "A"), musicDirectory: music.path)
        #expect(with.summary == "A")
        #expect(with.imagePath == music.appending("With/FOLDER.WebP"))
        let without = TrackNotification(
            track: Track(id: 2, path: "Without/track.flac", title: "B"), musicDirectory: music.path)
        #expect(without.imagePath == nil)
    }

    @Test func aChangeCountsAsAskedForOnlyToTheCommandsEntryWithinOneSecond() {
        let changes = CommandedTrackChanges()
        let moment = ContinuousClock.now
        #expect(!changes.asked(for: 5, now: moment))
        changes.record(5, at: moment)
        #expect(changes.asked(for: 5, now: moment + .milliseconds(900)))
        #expect(!changes.asked(for: 5, now: moment + .milliseconds(1100)))
        #expect(!changes.asked(for: 6, now: moment + .milliseconds(100)))
    }
}
