import Foundation
import GRDB
import QPlayModel
import SystemPackage

/// How a `Track` maps to a row of the `track` table.
enum TrackRow {
    /// The columns `track(from:)` reads, in order.
    static let selection = """
        id, path, title, artist, album, album_artist, genre, track_number, disc_number, year,
        duration, bitrate, sample_rate, channels, rg_track_gain, rg_track_peak, rg_album_gain,
        rg_album_peak, file_size, mtime, format, bits
        """

    static func track(from row: Row) -> Track {
        let pathData: Data = row[1]
        return Track(
            id: row[0], path: PathBytes.path(pathData), title: row[2], artist: row[3],
            album: row[4], albumArtist: row[5], genre: row[6], trackNumber: row[7],
            discNumber: row[8], year: row[9], duration: row[10], bitrateKbps: row[11],
            sampleRate: row[12], channels: row[13], format: format(row[20]), bitsPerSample: row[21],
            replayGain: ReplayGain(
                trackGain: row[14], trackPeak: row[15], albumGain: row[16], albumPeak: row[17]),
            fileSize: row[18], modificationTime: row[19])
    }

    /// A format name the index holds; an unknown one (written by a newer qplay) reads as
    /// MP3, what every track was before formats were stored.
    static func format(_ name: String?) -> AudioFileFormat {
        name.flatMap(AudioFileFormat.init(rawValue:)) ?? .mp3
    }

    /// Insert, or update in place (keeping the id) when the path is already indexed.
    static let upsert = """
        INSERT INTO track (
            path, title, artist, album, album_artist, genre, track_number, disc_number, year,
            duration, bitrate, sample_rate, channels, rg_track_gain, rg_track_peak,
            rg_album_gain, rg_album_peak, file_size, mtime,
            f_title, f_artist, f_album, f_album_artist, f_genre, f_path, sort_artist, format, bits)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (path) DO UPDATE SET
            title = excluded.title, artist = excluded.artist, album = excluded.album,
            album_artist = excluded.album_artist, genre = excluded.genre,
            track_number = excluded.track_number, disc_number = excluded.disc_number,
            year = excluded.year, duration = excluded.duration, bitrate = excluded.bitrate,
            sample_rate = excluded.sample_rate, channels = excluded.channels,
            rg_track_gain = excluded.rg_track_gain, rg_track_peak = excluded.rg_track_peak,
            rg_album_gain = excluded.rg_album_gain, rg_album_peak = excluded.rg_album_peak,
            file_size = excluded.file_size, mtime = excluded.mtime,
            f_title = excluded.f_title, f_artist = excluded.f_artist, f_album = excluded.f_album,
            f_album_artist = excluded.f_album_artist, f_genre = excluded.f_genre,
            f_path = excluded.f_path, sort_artist = excluded.sort_artist,
            format = excluded.format, bits = excluded.bits
        """

    /// Arguments for `upsert`; `track.id` is ignored (the database assigns it).
    static func upsertArguments(_ track: Track, pathBytes: [UInt8]) -> StatementArguments {
        let fold = TextFolding.fold
        let artist = track.artist.map(fold) ?? ""
        let albumArtist = track.albumArtist.map(fold) ?? ""
        let values: [(any DatabaseValueConvertible)?] = [
            Data(pathBytes), track.title, track.artist, track.album, track.albumArtist,
            track.genre, track.trackNumber, track.discNumber, track.year, track.duration,
            track.bitrateKbps, track.sampleRate, track.channels, track.replayGain.trackGain,
            track.replayGain.trackPeak, track.replayGain.albumGain, track.replayGain.albumPeak,
            track.fileSize, track.modificationTime,
            fold(track.title), artist, track.album.map(fold) ?? "", albumArtist,
            track.genre.map(fold) ?? "", fold(String(decoding: pathBytes, as: UTF8.self)),
            albumArtist.isEmpty ? artist : albumArtist, track.format.rawValue, track.bitsPerSample,
        ]
        return StatementArguments(values)
    }
}
