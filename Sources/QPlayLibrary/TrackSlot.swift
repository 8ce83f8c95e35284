import QPlayModel
import SystemPackage

/// Initializes a `Track` in uninitialized memory field by field, each value moved into
/// place.
///
/// `slot.initialize(to: Track(…))` builds the track in a temporary, copies it and
/// destroys the temporary: six reference counts (path, title, tags) taken and dropped
/// for nothing, per track, which is a tenth of a 5,000-track search. The field offsets
/// come from `MemoryLayout.offset(of:)`; `isComplete` checks once that they are all of
/// `Track`'s stored properties (a field added later and not set here would be garbage),
/// and when it is not, `initialize` falls back to the initializer.
enum TrackSlot {
    static func initialize(
        _ slot: UnsafeMutablePointer<Track>, id: TrackID, path: consuming FilePath, title: consuming String,
        artist: String?, album: String?, albumArtist: String?, genre: String?, trackNumber: Int?,
        discNumber: Int?, year: Int?, duration: Double, bitrateKbps: Int, sampleRate: Int, channels: Int,
        format: AudioFileFormat, bitsPerSample: Int?, replayGain: ReplayGain, fileSize: Int64,
        modificationTime: Int64
    ) {
        guard let offsets = offsets else {
            slot.initialize(
                to: Track(
                    id: id, path: path, title: title, artist: artist, album: album, albumArtist: albumArtist,
                    genre: genre, trackNumber: trackNumber, discNumber: discNumber, year: year, duration: duration,
                    bitrateKbps: bitrateKbps, sampleRate: sampleRate, channels: channels, format: format,
                    bitsPerSample: bitsPerSample, replayGain: replayGain, fileSize: fileSize,
                    modificationTime: modificationTime))
            return
        }
        let raw = UnsafeMutableRawPointer(slot)
        (raw + offsets.id).initializeMemory(as: TrackID.self, to: id)
        (raw + offsets.path).initializeMemory(as: FilePath.self, to: path)
        (raw + offsets.title).initializeMemory(as: String.self, to: title)
        (raw + offsets.artist).initializeMemory(as: String?.self, to: artist)
        (raw + offsets.album).initializeMemory(as: String?.self, to: album)
        (raw + offsets.albumArtist).initializeMemory(as: String?.self, to: albumArtist)
        (raw + offsets.genre).initializeMemory(as: String?.self, to: genre)
        (raw + offsets.trackNumber).initializeMemory(as: Int?.self, to: trackNumber)
        (raw + offsets.discNumber).initializeMemory(as: Int?.self, to: discNumber)
        (raw + offsets.year).initializeMemory(as: Int?.self, to: year)
        (raw + offsets.duration).initializeMemory(as: Double.self, to: duration)
        (raw + offsets.bitrateKbps).initializeMemory(as: Int.self, to: bitrateKbps)
        (raw + offsets.sampleRate).initializeMemory(as: Int.self, to: sampleRate)
        (raw + offsets.channels).initializeMemory(as: Int.self, to: channels)
        (raw + offsets.format).initializeMemory(as: AudioFileFormat.self, to: format)
        (raw + offsets.bitsPerSample).initializeMemory(as: Int?.self, to: bitsPerSample)
        (raw + offsets.replayGain).initializeMemory(as: ReplayGain.self, to: replayGain)
        (raw + offsets.fileSize).initializeMemory(as: Int64.self, to: fileSize)
        (raw + offsets.modificationTime).initializeMemory(as: Int64.self, to: modificationTime)
    }

    struct Offsets {
        var id, path, title, artist, album, albumArtist, genre, trackNumber, discNumber, year: Int
        var duration, bitrateKbps, sampleRate, channels, format, bitsPerSample, replayGain, fileSize: Int
        var modificationTime: Int
    }

    /// Nil when the fields above are not exactly `Track`'s stored properties.
    static let offsets: Offsets? = {
        // The type named with each field must be its type: `initialize` writes that type.
        func at<Value>(_ field: KeyPath<Track, Value>, _: Value.Type) -> Int? {
            MemoryLayout<Track>.offset(of: field)
        }
        guard let id = at(\.id, TrackID.self), let path = at(\.path, FilePath.self),
            let title = at(\.title, String.self), let artist = at(\.artist, String?.self),
            let album = at(\.album, String?.self), let albumArtist = at(\.albumArtist, String?.self),
            let genre = at(\.genre, String?.self), let trackNumber = at(\.trackNumber, Int?.self),
            let discNumber = at(\.discNumber, Int?.self), let year = at(\.year, Int?.self),
            let duration = at(\.duration, Double.self), let bitrateKbps = at(\.bitrateKbps, Int.self),
            let sampleRate = at(\.sampleRate, Int.self), let channels = at(\.channels, Int.self),
            let format = at(\.format, AudioFileFormat.self), let bitsPerSample = at(\.bitsPerSample, Int?.self),
            let replayGain = at(\.replayGain, ReplayGain.self), let fileSize = at(\.fileSize, Int64.self),
            let modificationTime = at(\.modificationTime, Int64.self)
        else { return nil }
        let sample = Track(id: 1, path: "a", title: "b")
        guard Mirror(reflecting: sample).children.count == 19 else { return nil }
        return Offsets(
            id: id, path: path, title: title, artist: artist, album: album, albumArtist: albumArtist, genre: genre,
            trackNumber: trackNumber, discNumber: discNumber, year: year, duration: duration,
            bitrateKbps: bitrateKbps, sampleRate: sampleRate, channels: channels, format: format,
            bitsPerSample: bitsPerSample, replayGain: replayGain, fileSize: fileSize,
            modificationTime: modificationTime)
    }()
}
