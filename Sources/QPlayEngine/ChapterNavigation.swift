import QPlayModel

/// A `chapter` command: go to the chapter at a 0-based index, or one chapter on or back.
public enum ChapterRequest: Sendable, Hashable {
    case index(Int)
    /// +1 or -1.
    case step(Int)
}

/// Where chapter commands go in a track's chapters (sorted by start), as CD players and
/// audiobook apps step through tracks: back within the first seconds of a chapter goes
/// to the one before, later it goes to this chapter's start.
public enum ChapterNavigation {
    /// Within this many seconds of a chapter's start, a step back goes to the previous
    /// chapter instead of this one's start.
    public static let backWindow = 3.0

    /// The chapter playing at `position`: the last that starts at or before it; nil
    /// before the first one starts (or when there are none).
    public static func index(at position: Double, in chapters: [Chapter]) -> Int? {
        // Binary search: an audiobook may have hundreds of chapters and status asks often.
        var low = 0
        var high = chapters.count
        while low < high {
            let middle = (low + high) / 2
            if chapters[middle].start <= position { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The position `request` goes to from `position`.
    public static func target(
        of request: ChapterRequest, at position: Double, in chapters: [Chapter]
    ) throws(EngineError) -> Double {
        guard !chapters.isEmpty else { throw .badRequest("the playing track has no chapters") }
        switch request {
        case .index(let index):
            guard chapters.indices.contains(index) else {
                throw .notFound("no such chapter: the track has \(chapters.count)")
            }
            return chapters[index].start
        case .step(let step):
            guard step == 1 || step == -1 else { throw .badRequest("a chapter step is +1 or -1, got \(step)") }
            guard let current = Self.index(at: position, in: chapters) else {
                // Before the first chapter: on goes to it, back to the track's start.
                return step == 1 ? chapters[0].start : 0
            }
            if step == 1 {
                guard current + 1 < chapters.count else { throw .notFound("the last chapter is playing") }
                return chapters[current + 1].start
            }
            let start = chapters[current].start
            return position - start < backWindow && current > 0 ? chapters[current - 1].start : start
        }
    }
}
