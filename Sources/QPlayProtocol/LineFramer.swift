/// Splits a byte stream into `\n`-terminated lines, holding at most `limit` bytes of an
/// unfinished line. A longer line is reported once as `.tooLong` as soon as it passes
/// the limit, and its remaining bytes up to the next newline are dropped, so the stream
/// stays usable and memory stays bounded.
public struct LineFramer: Sendable {
    /// Requests may be at most 64 KiB, newline not counted (docs/PROTOCOL.md, Requests and responses).
    public static let requestLimit = 64 * 1024

    public enum Frame: Sendable, Hashable {
        case line([UInt8])
        case tooLong
    }

    public let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the newline search resumes: bytes before it hold no newline.
    private var scanned = 0
    /// Inside a line already reported as too long.
    private var discarding = false

    public init(limit: Int = LineFramer.requestLimit) {
        self.limit = limit
    }

    /// Bytes received and not yet returned as a line.
    public var pendingCount: Int { buffer.count - start }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        let needed = buffer.count + bytes.count
        if needed > buffer.capacity {
            // Doubling stops at the room one unfinished line can take (the limit plus this
            // chunk): past it the line is dropped anyway, and a doubled buffer would hold
            // up to twice the limit for a line that is never read.
            let ceiling = limit + bytes.count + 1
            let doubled = buffer.capacity * 2
            buffer.reserveCapacity(needed <= ceiling ? max(needed, min(doubled, ceiling)) : max(needed, doubled))
        }
        buffer.append(contentsOf: bytes)
    }

    /// Whether `next()` would return a frame now, found without changing (or copying)
    /// the buffer.
    public var hasFrame: Bool {
        if buffer[scanned...].contains(UInt8(ascii: "\n")) { return !discarding || hasFrameAfterDiscarded }
        return pendingCount > limit && !discarding
    }

    /// While discarding: whether a whole line follows the newline that ends the dropped one.
    private var hasFrameAfterDiscarded: Bool {
        guard let end = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) else { return false }
        let rest = buffer[(end + 1)...]
        return rest.contains(UInt8(ascii: "\n")) || rest.count > limit
    }

    /// The next complete line (without its newline), `.tooLong`, or nil when more bytes
    /// are needed.
    public mutating func next() -> Frame? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<newline]
                start = newline + 1
                scanned = start
                compact()
                if discarding {
                    discarding = false
                    continue
                }
                return line.count > limit ? .tooLong : .line(Array(line))
            }
            scanned = buffer.count
            guard pendingCount > limit else { return nil }
            // Drop what we hold of the overlong line; report it only once.
            buffer.removeAll(keepingCapacity: false)
            start = 0
            scanned = 0
            if discarding { return nil }
            discarding = true
            return .tooLong
        }
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            start = 0
            scanned = 0
        } else if start > 1 << 14 && start > buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
    }
}
