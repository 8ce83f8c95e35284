/// A chapter of a long track (an audiobook's `.m4b`): its title and where it starts, in
/// seconds from the track's first sample. A track's chapters are sorted by `start`.
public struct Chapter: Sendable, Hashable {
    public var title: String
    public var start: Double

    public init(title: String, start: Double) {
        self.title = title
        self.start = start
    }
}
