import Foundation
import QPlayModel
import QPlayProtocol
import QPlayStreamInput
import QPlayStreams

/// `add` with `urls`: each URL becomes a URL entry's track (`Track.stream`), and a URL
/// whose name is a playlist's (`.m3u`, `.m3u8`, `.pls`) is fetched now and replaced by
/// its streams, in order. A playlist that cannot be fetched or holds no stream fails
/// the whole `add` with its reason; a stream URL is not contacted until it plays.
enum StreamEntries {
    static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls"]

    /// The tracks `source` adds when it names URLs; nil for every other source.
    static func tracks(for source: AddSource) async throws(ProtocolError) -> [QPlayModel.Track]? {
        guard case .urls(let urls) = source else { return nil }
        var tracks: [QPlayModel.Track] = []
        for text in urls {
            guard let url = URL(string: text), case .success(let checked) = StreamURL.check(url) else {
                throw .badRequest("add: \(text) is not an http:// or https:// URL with a host")
            }
            if playlistExtensions.contains(checked.pathExtension.lowercased()) {
                tracks += try await expanded(checked)
            } else {
                tracks.append(QPlayModel.Track.stream(url: checked.absoluteString))
            }
        }
        return tracks
    }

    private static func expanded(_ url: URL) async throws(ProtocolError) -> [QPlayModel.Track] {
        let reader = StreamReader()
        let fetched: (body: [UInt8], url: URL)
        do throws(StreamReadError) {
            fetched = try await reader.fetchPlaylist(url)
        } catch {
            try? await reader.shutdown()
            throw .notFound("\(url.absoluteString): \(error.description)")
        }
        try? await reader.shutdown()
        do throws(StreamPlaylistError) {
            let playlist = try StreamPlaylist.parse(fetched.body, base: fetched.url)
            return playlist.entries.map { entry in
                var track = QPlayModel.Track.stream(url: entry.url.absoluteString)
                if let title = entry.title, !title.isEmpty { track.title = title }
                return track
            }
        } catch {
            throw .badRequest("\(url.absoluteString): \(error.description)")
        }
    }
}
