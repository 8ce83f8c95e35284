import QPlayLibrary
import QPlayModel
import QPlayProtocol

extension CommandDispatcher {
    /// `art`: a piece of the track's picture, read now (never during a scan) in the
    /// contract's order: embedded front cover, else the image beside the file.
    func art(track id: Int64?, offset: Int) async throws -> ArtChunk {
        let track: QPlayModel.Track
        if let id {
            guard let found = try library.index.track(id: id) else { throw ProtocolError.notFound("no track with id \(id)") }
            track = found
        } else {
            guard let playing = await player.snapshot().status.track else {
                throw ProtocolError.notFound("nothing is playing: name a track (`track`)")
            }
            track = playing
        }
        let file = library.musicDirectory.pushing(track.path)
        let artwork: Artwork?
        do {
            artwork = try library.artwork.artwork(for: file)
        } catch {
            ArtworkKnowledge.shared.learn(track.id, hasArt: false)
            switch error {
            case .tooLarge: throw ProtocolError.unavailable("the picture of \(track.path) is too large: \(error)")
            default: throw ProtocolError.notFound("no picture for \(track.path): \(error)")
            }
        }
        ArtworkKnowledge.shared.learn(track.id, hasArt: artwork != nil)
        guard let artwork else { throw ProtocolError.notFound("\(track.path) has no picture") }
        guard offset <= artwork.bytes.count else {
            throw ProtocolError.badRequest("art: `offset` \(offset) is past the picture's \(artwork.bytes.count) bytes")
        }
        return ArtChunk(mime: artwork.mime, picture: artwork.bytes, offset: offset)
    }
}
