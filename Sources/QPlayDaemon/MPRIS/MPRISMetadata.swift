import QPlayModel
import SystemPackage

/// The Player's `Metadata` property (`a{sv}`): the now-playing entry as MPRIS clients
/// read it, or the NoTrack id with no other keys when nothing is current.
struct MPRISMetadata: Sendable, Equatable {
    enum Value: Sendable, Equatable {
        case string(String)
        case strings([String])
        case objectPath(String)
        case int64(Int64)
        case int32(Int32)
    }

    /// Keys in the order they are written.
    var fields: [(key: String, value: Value)]

    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// `mpris:trackid` of an entry: its own id, so a track queued twice has two.
    static func trackID(_ entry: EntryID) -> String { "/org/qplay/entry/\(entry)" }

    static let empty = MPRISMetadata(fields: [("mpris:trackid", .objectPath(noTrack))])

    /// `duration`: the length the player measured, else the index's; `art`: a cover
    /// file beside the track, absolute.
    init(entry: QueueEntry, duration: Double?, musicDirectory: FilePath, art: FilePath?) {
        let track = entry.track
        var fields: [(key: String, value: Value)] = [("mpris:trackid", .objectPath(Self.trackID(entry.id)))]
        if let seconds = duration ?? (track.duration > 0 ? track.duration : nil), seconds.isFinite, seconds >= 0 {
            fields.append(("mpris:length", .int64(MPRISTime.microseconds(seconds))))
        }
        fields.append(("xesam:title", .string(track.title)))
        if let artist = track.artist { fields.append(("xesam:artist", .strings([artist]))) }
        if let albumArtist = track.albumArtist { fields.append(("xesam:albumArtist", .strings([albumArtist]))) }
        if let album = track.album { fields.append(("xesam:album", .string(album))) }
        if let number = track.trackNumber, let value = Int32(exactly: number) {
            fields.append(("xesam:trackNumber", .int32(value)))
        }
        if let number = track.discNumber, let value = Int32(exactly: number) {
            fields.append(("xesam:discNumber", .int32(value)))
        }
        if let genre = track.genre { fields.append(("xesam:genre", .strings([genre]))) }
        fields.append(("xesam:url", .string(FileURI.encode(musicDirectory.pushing(track.path)))))
        if let art { fields.append(("mpris:artUrl", .string(FileURI.encode(art)))) }
        self.fields = fields
    }

    init(fields: [(key: String, value: Value)]) {
        self.fields = fields
    }

    static func == (left: MPRISMetadata, right: MPRISMetadata) -> Bool {
        left.fields.elementsEqual(right.fields) { $0.key == $1.key && $0.value == $1.value }
    }
}

/// MPRIS counts time in microseconds (`x`), qplay in seconds.
enum MPRISTime {
    static func microseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        return Int64((seconds * 1_000_000).rounded())
    }

    static func seconds(_ microseconds: Int64) -> Double {
        Double(microseconds) / 1_000_000
    }
}
