/// A `START:END` argument (`delete`, `move`, `playlistinfo`, `window`): `N` is the one
/// position N, `N:M` the positions N..<M, `N:` everything from N on.
public struct MPDRange: Sendable, Equatable {
    public var start: Int
    /// Exclusive; nil: open to the end.
    public var end: Int?

    public init(start: Int, end: Int?) {
        self.start = start
        self.end = end
    }

    /// Everything: what MPD's older clients ask with `-1`.
    public static let all = MPDRange(start: 0, end: nil)

    /// The positions of a list of `count` items this range covers (clamped to the list).
    public func clamped(to count: Int) -> Range<Int> {
        let lower = min(start, count)
        return lower..<max(lower, min(end ?? count, count))
    }
}

extension MPDRange {
    /// MPD's ParseCommandArgRange, with its messages.
    public static func parse(_ text: String) throws(MPDError) -> MPDRange {
        let bytes = Array(text.utf8)
        let colon = UInt8(ascii: ":")
        guard let first = CNumberScan.integer(bytes), first.end == bytes.count || bytes[first.end] == colon else {
            throw MPDError(.argument, "Integer or range expected: \(text)")
        }
        if first.long == -1 && first.end == bytes.count { return .all }
        guard first.long >= 0 else { throw MPDError(.argument, "Number is negative: \(text)") }
        guard first.long <= Int64(Int32.max) else { throw MPDError(.argument, "Number too large: \(text)") }
        let start = Int(first.long)
        guard first.end < bytes.count else { return MPDRange(start: start, end: start + 1) }
        let afterColon = first.end + 1
        guard afterColon < bytes.count else { return MPDRange(start: start, end: nil) }
        // MPD does not ask for digits after the colon, only that nothing else follows:
        // "5:x" fails, but so does "5: " — strtol leaves its end at the blank.
        let second = CNumberScan.integer(bytes, from: afterColon)
        guard let second, second.end == bytes.count else {
            throw MPDError(.argument, "Integer or range expected: \(text)")
        }
        guard second.long >= 0 else { throw MPDError(.argument, "Number is negative: \(text)") }
        guard second.long <= Int64(Int32.max) else { throw MPDError(.argument, "Number too large: \(text)") }
        let end = Int(second.long)
        guard start <= end else { throw MPDError(.argument, "Malformed range: \(text)") }
        return MPDRange(start: start, end: end)
    }
}
