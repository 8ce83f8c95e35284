/// Which item frames went to the output at which output frame: with the output's delay
/// this gives the position of what is heard now, exact across joins and scan jumps.
struct HandedFrames {
    private struct Segment {
        let token: UInt64
        let outputStart: Int
        let itemStart: Int
        var frames: Int
    }

    private var segments: [Segment] = []
    /// Frames handed to the output since it was opened or last discarded.
    private(set) var total = 0

    mutating func append(token: UInt64, itemStart: Int, frames: Int) {
        if var last = segments.last, last.token == token, last.itemStart + last.frames == itemStart {
            last.frames += frames
            segments[segments.count - 1] = last
        } else {
            segments.append(Segment(token: token, outputStart: total, itemStart: itemStart, frames: frames))
        }
        total += frames
    }

    /// The output dropped or played out everything: start counting afresh.
    mutating func reset() {
        segments.removeAll(keepingCapacity: true)
        total = 0
    }

    /// The item frame being heard of `token`, given the output's delay, and whether it is
    /// being heard now (false while the output still plays an earlier item: the frame is
    /// then where `token` begins). nil when none of `token` was handed yet.
    mutating func heardFrame(of token: UInt64, delay: Int) -> (frame: Int, hearing: Bool)? {
        let heard = max(0, total - delay)
        // Segments wholly heard before the last one that is are no longer needed.
        while segments.count > 1, segments[1].outputStart <= heard { segments.removeFirst() }
        guard let ofToken = segments.first(where: { $0.token == token }) else {
            return nil
        }
        guard let playing = segments.last(where: { $0.outputStart <= heard }), playing.token == token else {
            return (ofToken.itemStart, false)
        }
        return (playing.itemStart + min(heard - playing.outputStart, playing.frames), heard < total)
    }
}
