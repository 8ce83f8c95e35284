import QPlayEngine
import QPlayModel
import SystemPackage
import Testing

@testable import QPlayDaemon

/// The pure parts of the MPRIS frontend: file URIs, Metadata, which properties changed
/// and when the position jumped.
@Suite("MPRIS: URIs, metadata and change detection")
struct MPRISViewTests {
    @Test func fileURIsAreByteExactBothWays() throws {
        let path = FilePath("/home/me/Music/A b/Café #1?.mp3")
        let uri = FileURI.encode(path)
        #expect(uri == "file:///home/me/Music/A%20b/Caf%C3%A9%20%231%3F.mp3")
        #expect(FileURI.decode(uri) == path)
        #expect(FileURI.decode("file://localhost/tmp/x%20y.flac") == FilePath("/tmp/x y.flac"))
        #expect(FileURI.decode("FILE:///tmp/a.mp3") == FilePath("/tmp/a.mp3"))
        // Bytes that are not UTF-8 survive a round trip.
        let raw: [CChar] = [0x2F, 0x74, 0x2F, CChar(bitPattern: 0xFF), 0x2E, 0x6D, 0x70, 0x33, 0]
        let odd = raw.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
        #expect(FileURI.encode(odd) == "file:///t/%FF.mp3")
        #expect(FileURI.decode(FileURI.encode(odd)) == odd)
        for bad in ["http://host/a.mp3", "file://host/a.mp3", "file:///a%zz", "file:///a%0", "file:///a%00b", "file:relative"] {
            #expect(FileURI.decode(bad) == nil, "\(bad)")
        }
    }

    @Test func metadataNamesTheEntryAndNothingWhenNothingIsCurrent() {
        #expect(MPRISMetadata.empty.fields.count == 1)
        #expect(MPRISMetadata.empty.fields[0].value == .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"))
        let track = Track(
            id: 7, path: FilePath("Band/Album/01 Song.mp3"), title: "Song", artist: "Band", album: "Album",
            trackNumber: 1, duration: 61.5)
        let metadata = MPRISMetadata(
            entry: QueueEntry(id: 42, track: track), duration: nil, musicDirectory: FilePath("/m"),
            art: FilePath("/m/Band/Album/cover.jpg"))
        let fields = Dictionary(uniqueKeysWithValues: metadata.fields.map { ($0.key, $0.value) })
        #expect(fields["mpris:trackid"] == .objectPath("/org/qplay/entry/42"))
        #expect(fields["mpris:length"] == .int64(61_500_000))
        #expect(fields["xesam:artist"] == .strings(["Band"]))
        #expect(fields["xesam:albumArtist"] == nil)
        #expect(fields["xesam:trackNumber"] == .int32(1))
        #expect(fields["xesam:url"] == .string("file:///m/Band/Album/01%20Song.mp3"))
        #expect(fields["mpris:artUrl"] == .string("file:///m/Band/Album/cover.jpg"))
    }

    @Test func changedPropertiesAndSeeksAreToldApart() throws {
        let tracks = (1...2).map { Track(id: TrackID($0), path: FilePath("t\($0).mp3"), title: "T\($0)", duration: 60) }
        var engine = PlayerEngine()
        _ = try engine.add(tracks, now: .zero, position: 0)
        let clock = ContinuousClock()
        let start = clock.now
        func view(_ position: Double, after seconds: Double) -> MPRISPlayerView {
            let status = engine.status(position: position)
            let metadata = MPRISMetadata(
                entry: status.entry!, duration: nil, musicDirectory: FilePath("/m"), art: nil)
            return MPRISPlayerView(
                status: status, skips: engine.skipsAvailable, metadata: metadata, takenAt: start + .seconds(seconds))
        }
        let first = view(5, after: 0)
        // On the first entry, Previous restarts the track: it can still be sent.
        #expect(first.playbackStatus == "Playing" && first.canGoNext && first.canGoPrevious)
        // The clock moved on with the track: no jump.
        #expect(!view(7, after: 2).seeked(since: first))
        #expect(view(20, after: 2).seeked(since: first))
        // Restarted by Previous.
        #expect(view(0, after: 4).seeked(since: view(4, after: 0)))

        _ = engine.setVolume(40, now: .zero, position: 5)
        #expect(view(5, after: 0).changedProperties(since: first) == ["Volume"])
        _ = engine.setRepeat(.one, now: .zero, position: 5)
        _ = engine.pause(now: .zero, position: 5)
        let paused = view(5, after: 0)
        #expect(paused.changedProperties(since: first) == ["PlaybackStatus", "LoopStatus", "Volume"])
        #expect(paused.loopStatus == "Track" && paused.volume == 0.4)
        // Paused, the position stays: any move is a jump.
        #expect(view(5, after: 3).seeked(since: paused) == false)
        #expect(view(9, after: 3).seeked(since: paused))

        _ = engine.next(now: .zero, position: 5)
        let second = view(0, after: 1)
        #expect(second.changedProperties(since: paused).contains("Metadata"))
        #expect(second.canGoPrevious)
        #expect(!second.seeked(since: paused), "another entry is a track change, not a seek")

        // Stopped on the first entry without repeat, Previous has nothing to do.
        _ = try engine.jump(index: 0, now: .zero, position: 0)
        _ = engine.setRepeat(.off, now: .zero, position: 0)
        _ = engine.stop(now: .zero, position: 0)
        let stopped = view(0, after: 0)
        #expect(!stopped.canGoPrevious && stopped.canGoNext && !stopped.canSeek)
    }
}
