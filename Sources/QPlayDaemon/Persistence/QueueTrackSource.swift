import QPlayLibrary
import QPlayModel
import SystemPackage

/// Where the stored queue finds its entries' tracks again. A queue entry that names a
/// file of the music directory is saved as its path and track id only (a few dozen bytes,
/// not the whole track: a 10,000-entry playlist load wrote ~4 MB of track JSON before).
public protocol QueueTrackSource: Sendable {
    /// One track for each stored path (relative to the music directory) and track id.
    func tracks(paths: [FilePath], ids: [TrackID]) throws -> [Track]
}

/// The library index first, so after a restart an entry shows the library's current
/// tags for its file. A file the index does not hold (an index rebuilt and not yet
/// scanned) is read from the file itself; one that is gone keeps its place under its
/// file name (`MissingQueueTrack`) and is skipped with the decoder's reason when played.
public struct LibraryQueueTracks: QueueTrackSource {
    let index: LibraryIndex
    let musicDirectory: FilePath

    public init(index: LibraryIndex, musicDirectory: FilePath) {
        self.index = index
        self.musicDirectory = musicDirectory
    }

    public func tracks(paths: [FilePath], ids: [TrackID]) throws -> [Track] {
        let indexed = try index.tracks(paths: paths)
        return zip(indexed, zip(paths, ids)).map { track, stored in
            track
                ?? UnindexedFile.track(relativePath: stored.0, musicDirectory: musicDirectory, id: stored.1)
                ?? MissingQueueTrack.track(id: stored.1, path: stored.0)
        }
    }
}

enum MissingQueueTrack {
    static func track(id: TrackID, path: FilePath) -> Track {
        let fileExtension = path.extension?.lowercased() ?? ""
        let format = AudioFileFormat.allCases.first { $0.fileExtensions.contains(fileExtension) } ?? .mp3
        return Track(id: id, path: path, title: Track.fileTitle(PathBytes.bytes(path)), format: format)
    }
}
