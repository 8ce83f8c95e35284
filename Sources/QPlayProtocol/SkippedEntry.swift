/// `error` event data: the player could not play an entry and skipped it.
public struct SkippedEntry: Sendable, Hashable, Codable {
    public var entry: Int64
    public var track: Track
    /// For people: "file not found", "not a regular file", "no MPEG audio in the file",
    /// "decoder error at 1:23: …".
    public var reason: String

    public init(entry: Int64, track: Track, reason: String) {
        self.entry = entry
        self.track = track
        self.reason = reason
    }
}
