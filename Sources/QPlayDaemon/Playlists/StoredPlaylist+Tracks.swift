import QPlayLibrary
import QPlayModel
import SystemPackage

extension StoredPlaylist {
    /// Each entry's track in the library, in order; nil for a line that names no
    /// indexed track (it stays in the file and is skipped on load).
    func tracks(in index: LibraryIndex) throws -> [Track?] {
        try index.tracks(paths: paths.map { FilePath($0) })
    }

    /// A playlist of `tracks` as qplay writes it, each with its `#EXTINF` line.
    init(tracks: some Sequence<Track>) {
        self.init(entries: tracks.map(Entry.init(track:)))
    }
}

extension StoredPlaylist.Entry {
    /// The track's path with `#EXTINF:SECONDS,ARTIST - TITLE` (the title alone when
    /// the artist is unknown).
    init(track: Track) {
        let seconds = track.duration.isFinite && track.duration >= 0 ? Int(track.duration.rounded()) : -1
        let artist = track.artist.flatMap { $0.isEmpty ? nil : $0 }
        let label = artist.map { "\($0) - \(track.title)" } ?? track.title
        self.init(path: track.path.string, info: .init(seconds: seconds, label: label))
    }
}
