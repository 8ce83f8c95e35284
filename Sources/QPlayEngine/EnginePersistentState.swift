import QPlayModel
import SystemPackage

/// Everything an engine needs to come back after a restart: collection, installed queue
/// and play order, modified flag, now-playing entry and position, volume, repeat, shuffle,
/// the next entry id and the shuffle generator. Restored paused at `position`.
/// Tracks are stored whole (path bytes exact), so restoring needs no library lookup.
public struct EnginePersistentState: Codable, Sendable, Equatable {
    /// Format version, for later migrations.
    public var version: Int
    public var position: Double
    var entries: [StoredEntry]
    var collection: [EntryID]
    var installed: [EntryID]
    var playOrder: [EntryID]
    var modified: Bool
    var current: EntryID?
    var volume: Int
    var repeatMode: RepeatMode
    var shuffle: Bool
    var nextEntryID: EntryID
    var randomState: UInt64
    /// Absent in documents saved before these modes existed: off, and version 0.
    var single: Bool?
    var consume: Bool?
    var queueVersion: UInt64?
}

struct StoredEntry: Codable, Sendable, Equatable {
    var id: EntryID
    var track: StoredTrack
}

/// A Codable copy of `Track`. The path is a string when its bytes are valid UTF-8 and a
/// byte array otherwise, so a non-UTF-8 file name survives the round trip.
public struct StoredTrack: Codable, Sendable, Equatable {
    var id: TrackID
    var path: String?
    var pathBytes: [UInt8]?
    var title: String
    var artist: String?
    var album: String?
    var albumArtist: String?
    var genre: String?
    var trackNumber: Int?
    var discNumber: Int?
    var year: Int?
    var duration: Double
    var bitrateKbps: Int
    var sampleRate: Int
    var channels: Int
    /// Absent in queues saved before formats were stored: those were all MP3.
    var format: AudioFileFormat?
    var bitsPerSample: Int?
    var trackGain: Double?
    var trackPeak: Double?
    var albumGain: Double?
    var albumPeak: Double?
    var fileSize: Int64
    var modificationTime: Int64

    public init(_ track: Track) {
        let bytes = track.path.withPlatformString { pointer in
            Array(UnsafeBufferPointer(start: pointer, count: track.path.length)).map {
                UInt8(bitPattern: $0)
            }
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            path = text
        } else {
            pathBytes = bytes
        }
        id = track.id
        title = track.title
        artist = track.artist
        album = track.album
        albumArtist = track.albumArtist
        genre = track.genre
        trackNumber = track.trackNumber
        discNumber = track.discNumber
        year = track.year
        duration = track.duration
        bitrateKbps = track.bitrateKbps
        sampleRate = track.sampleRate
        channels = track.channels
        format = track.format
        bitsPerSample = track.bitsPerSample
        trackGain = track.replayGain.trackGain
        trackPeak = track.replayGain.trackPeak
        albumGain = track.replayGain.albumGain
        albumPeak = track.replayGain.albumPeak
        fileSize = track.fileSize
        modificationTime = track.modificationTime
    }

    public var track: Track {
        let filePath: FilePath
        if let pathBytes {
            let chars = pathBytes.map { CChar(bitPattern: $0) } + [0]
            filePath = chars.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
        } else {
            filePath = FilePath(path ?? "")
        }
        return Track(
            id: id, path: filePath, title: title, artist: artist, album: album,
            albumArtist: albumArtist, genre: genre, trackNumber: trackNumber,
            discNumber: discNumber, year: year, duration: duration, bitrateKbps: bitrateKbps,
            sampleRate: sampleRate, channels: channels, format: format ?? .mp3,
            bitsPerSample: bitsPerSample,
            replayGain: ReplayGain(
                trackGain: trackGain, trackPeak: trackPeak, albumGain: albumGain,
                albumPeak: albumPeak),
            fileSize: fileSize, modificationTime: modificationTime)
    }
}
