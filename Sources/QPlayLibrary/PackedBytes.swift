#if canImport(Glibc)
import Glibc
#endif

/// Many byte strings stored end to end in one buffer: element `i` is
/// `bytes[offsets[i]..<offsets[i + 1]]`. One allocation instead of one per string, so
/// 100,000 titles cost their bytes plus 8 bytes each.
struct PackedBytes: Sendable {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [Int] = [0]

    init(reservingCapacity count: Int = 0, bytes byteCount: Int = 0) {
        offsets.reserveCapacity(count + 1)
        bytes.reserveCapacity(byteCount)
    }

    var count: Int { offsets.count - 1 }

    mutating func append(_ element: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: element)
        offsets.append(bytes.count)
    }

    /// Appends `element` followed by a NUL byte, as one element (for C strings).
    mutating func appendWithNUL(_ element: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: element)
        bytes.append(0)
        offsets.append(bytes.count)
    }

    mutating func append(_ element: some Collection<UInt8>) {
        bytes.append(contentsOf: element)
        offsets.append(bytes.count)
    }

    func range(_ index: Int) -> Range<Int> { offsets[index]..<offsets[index + 1] }

    func length(_ index: Int) -> Int { offsets[index + 1] - offsets[index] }

    func withBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = range(index)
        return try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[range]))
        }
    }

    /// memcmp order (SQLite's BINARY collation for TEXT and BLOB): bytes, then length.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let order = memcmp(a.baseAddress!, b.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    /// Drops spare capacity (the buffers were grown by appending).
    mutating func shrink() {
        bytes = bytes.withUnsafeBufferPointer { Array($0) }
        offsets = offsets.withUnsafeBufferPointer { Array($0) }
    }
}

