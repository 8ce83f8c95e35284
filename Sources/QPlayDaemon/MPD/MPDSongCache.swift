import QPlayMPD
import QPlayModel
import Synchronization

/// The lines of songs already written (`file` to `duration`, without a queue entry's
/// `Pos` and `Id`), kept per track and set of enabled tags. Formatting a song costs
/// about 2 µs, and a 5,000-entry `playlistinfo` or a search with many hits formats
/// thousands; a client polling them (as ncmpcpp does) asks for the same songs again.
/// A hit is used only while the track is equal to the one the lines were made from, so
/// a rescanned or re-used track id is formatted afresh.
final class MPDSongCache: Sendable {
    private struct Key: Hashable {
        var track: TrackID
        var tags: UInt32
    }

    private struct Lines {
        var track: Track
        var bytes: [UInt8]
    }

    /// Past this many songs the cache starts over: a bound on its memory (about
    /// 250 bytes a song) for libraries far larger than any queue.
    private static let limit = 40_000

    private let songs = Mutex<[Key: Lines]>([:])

    /// The enabled tags as the cache's key takes them; computed once per answer.
    static func mask(_ tags: Set<MPDTag>) -> UInt32 {
        var mask: UInt32 = 0
        for (bit, tag) in MPDSongWriter.supportedTags.enumerated() where tags.contains(tag) {
            mask |= 1 << UInt32(bit)
        }
        return mask
    }

    /// Writes `track` as `MPDSongWriter.write` does, from the cache when it can.
    func write(
        _ track: Track, position: Int? = nil, id: EntryID? = nil, tags: Set<MPDTag>, mask: UInt32,
        into response: inout MPDResponse
    ) {
        let key = Key(track: track.id, tags: mask)
        let cached = songs.withLock { songs -> [UInt8]? in
            guard let lines = songs[key], lines.track == track else { return nil }
            return lines.bytes
        }
        if let cached {
            response.append(cached)
        } else {
            var song = MPDResponse()
            MPDSongWriter.write(track, tags: tags, into: &song)
            let bytes = song.bytes
            songs.withLock { songs in
                if songs.count >= Self.limit { songs.removeAll(keepingCapacity: true) }
                songs[key] = Lines(track: track, bytes: bytes)
            }
            response.append(bytes)
        }
        if let position { response.field("Pos", position) }
        if let id { response.field("Id", Int(id)) }
    }
}
