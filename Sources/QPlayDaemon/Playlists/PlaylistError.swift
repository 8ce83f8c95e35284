/// Why a stored-playlist operation failed. Each frontend words it its own way (MPD's
/// ACKs, qplay's `not_found` / `exists` / `bad_request`).
enum PlaylistError: Error, Sendable, Equatable {
    /// Empty, longer than 255 bytes, or holding `/` or a control character.
    case badName
    case notFound
    case exists
    /// A position or range outside the playlist: one to remove, one to insert at, a move's ends.
    case badIndex
    case badPosition
    case badRange
    /// An edit of a smart playlist: its tracks are what its query finds.
    case readOnly
    /// The folder or a file could not be read or written (the reason).
    case storage(String)
}
