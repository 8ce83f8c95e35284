import QPlayLibrary
import QPlayModel
import enum QPlayProtocol.PangoText
import SystemPackage

/// What a track-change notification says: the title as its summary, "artist – album"
/// (the parts there are) as its body, and the track's picture as a file for its
/// `image-path` hint: as for MPRIS's `mpris:artUrl` (docs/MPRIS.md), the embedded front
/// cover written to the art cache, else the folder image beside the file.
struct TrackNotification: Sendable, Equatable {
    var summary: String
    var body: String
    var imagePath: FilePath?

    init(summary: String, body: String, imagePath: FilePath?) {
        self.summary = summary
        self.body = body
        self.imagePath = imagePath
    }

    /// Reads the file's tags and its folder for the picture: call it off the event path.
    /// Without `cache` (no cache folder) the embedded picture has no file to be, and only
    /// the folder is looked at.
    init(track: Track, musicDirectory: FilePath, artwork: ArtworkLookup? = nil, cache: ArtCache? = nil) {
        summary = track.title
        body = [track.artist, track.album]
            .compactMap { $0?.isEmpty == false ? $0 : nil }
            .joined(separator: " – ")
        let file = musicDirectory.pushing(track.path)
        var picture: FilePath?
        if let artwork, let cache, let embedded = try? artwork.embedded(file, choice: .frontCover) {
            picture = cache.file(for: embedded.bytes, mime: embedded.mime)
        }
        imagePath = picture ?? FolderImage.find(beside: file)
    }

    /// The body for a notification daemon that reads it as markup (`body-markup`): a
    /// subset of Pango's, so Pango's escaping of `&`, `<` and `>` is what it needs.
    var markupBody: String { PangoText.escape(body) }
}
