import Foundation
import Synchronization

/// Times as the wire shows them: ISO 8601 local time with its offset. Formatting is
/// the slow part of a wire track (a few microseconds); a whole-library search shows
/// 100,000 `added` times of which a handful are distinct (one per scan), so each
/// distinct time is formatted once and remembered, up to a bound.
enum WireTime {
    private static let formatted = Mutex<[Double: String]>([:])
    private static let remembered = 4096

    static func text(_ seconds: Double) -> String {
        if let known = formatted.withLock({ $0[seconds] }) { return known }
        let text = Date(timeIntervalSince1970: seconds).formatted(
            Date.ISO8601FormatStyle(timeZone: TimeZone.current))
        formatted.withLock { table in
            if table.count >= remembered { table.removeAll(keepingCapacity: true) }
            table[seconds] = text
        }
        return text
    }
}
