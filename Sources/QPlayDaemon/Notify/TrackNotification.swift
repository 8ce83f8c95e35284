import QPlayLibrary
import QPlayModel
import SystemPackage

/// What a track-change notification says: the title as its summary, "artist – album"
/// (the parts there are) as its body, and the folder image beside the file as its
/// `image-path` hint.
struct TrackNotification: Sendable, Equatable {
    var summary: String
    var body: String
    var imagePath: FilePath?

    init(summary: String, body: String, imagePath: FilePath?) {
        self.summary = summary
        self.body = body
        self.imagePath = imagePath
    }

    /// Reads the folder for the image: call it off the event path.
    init(track: Track, musicDirectory: FilePath) {
        summary = track.title
        body = [track.artist, track.album]
            .compactMap { $0?.isEmpty == false ? $0 : nil }
            .joined(separator: " – ")
        imagePath = FolderImage.find(beside: musicDirectory.pushing(track.path))
    }

    /// `text` as markup's plain text: `&`, `<` and `>` as entities.
    static func escapingMarkup(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
