#if canImport(Glibc)
import Glibc
#endif

extension UnsafeBufferPointer<UInt8> {
    /// Where `part` first occurs in these bytes: memchr for its first byte (vectorised in
    /// glibc), then memcmp. Nil when it does not occur or is empty. Byte-wise, so on
    /// valid UTF-8 a match is a character match, as with SQLite's `instr`.
    func firstOffset(of part: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = part.first, count >= part.count, let base = baseAddress else { return nil }
        let rest = part.count - 1
        let last = base + (count - part.count)  // the last possible start
        var cursor = base
        while cursor <= last {
            guard let hit = memchr(cursor, Int32(first), last - cursor + 1) else { return nil }
            let start = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
            if rest == 0 || memcmp(start + 1, part.baseAddress! + 1, rest) == 0 { return start - base }
            cursor = start + 1
        }
        return nil
    }
}
