import Foundation

/// Work on a long list done in two halves at once, one per core (the machines qplay
/// runs on have two or more): each half writes only its own part of a result.
enum TwoHalves {
    /// Calls `body` with `0..<count / 2` and `count / 2..<count` on two threads and
    /// returns when both are done; below `threshold`, with `0..<count` on the calling
    /// thread (handing half to another costs more than it saves).
    static func run(_ count: Int, from threshold: Int, _ body: (Range<Int>) -> Void) {
        guard count >= threshold else { return body(0..<count) }
        withoutActuallyEscaping(body) { body in
            // `body` only writes disjoint halves of what it captures.
            let shared = Unchecked(body: body)
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                shared.body(half == 0 ? 0..<(count / 2) : (count / 2)..<count)
            }
        }
    }

    private struct Unchecked: @unchecked Sendable {
        let body: (Range<Int>) -> Void
    }
}
