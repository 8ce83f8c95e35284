import Hummingbird
import NIOCore
import QPlayLibrary
import QPlayModel

/// `/art/<track id>`: the track's picture through the library's artwork lookup (the
/// embedded front cover, else the image beside the file), read off the event loop.
/// Anything but a plain track number is 404, so no path reaches the file system.
struct WebArt: Sendable {
    let library: LibraryService

    func response(for idText: String, ifNoneMatch: String?) async -> Response {
        guard let id = Self.trackID(idText) else { return WebResponder.text(.notFound, "no such picture\n") }
        let library = self.library
        let found: Artwork? = await withTaskExecutorPreference(globalConcurrentExecutor) {
            guard let track = try? library.index.track(id: id) else { return nil }
            let artwork = try? library.artwork.artwork(for: library.musicDirectory.pushing(track.path))
            ArtworkKnowledge.shared.learn(track.id, hasArt: artwork != nil)
            return artwork
        }
        guard let artwork = found else { return WebResponder.text(.notFound, "no picture\n") }
        let etag = "\"art-\(id)-\(Self.fingerprint(artwork.bytes))\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=300", .contentType: artwork.mime ?? "application/octet-stream"]
        if ifNoneMatch == etag { return Response(status: .notModified, headers: headers) }
        headers[.contentLength] = String(artwork.bytes.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: artwork.bytes)))
    }

    /// The track id of the path after `/art/`: ASCII digits only, at most 18 (within
    /// `Int64`), else nil.
    static func trackID(_ idText: String) -> Int64? {
        guard !idText.isEmpty, idText.utf8.count <= 18, idText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int64(idText)
    }

    /// FNV-1a over the bytes: the tag changes when the picture does.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
