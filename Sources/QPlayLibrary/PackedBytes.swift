#if canImport(Glibc)
import Glibc
#endif

/// Many byte strings stored end to end in one buffer: element `i` is
/// `bytes[offsets[i]..<offsets[i + 1]]`. One allocation instead of one per string, so
/// 100,000 titles cost their bytes plus 4 bytes each (offsets are 32-bit: one table's
/// texts are a few megabytes, far below the 4 GB that `append` refuses to pass).
struct PackedBytes: Sendable {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [UInt32] = [0]

    init(reservingCapacity count: Int = 0, bytes byteCount: Int = 0) {
        offsets.reserveCapacity(count + 1)
        bytes.reserveCapacity(byteCount)
    }

    var count: Int { offsets.count - 1 }

    mutating func append(_ element: some Collection<UInt8>) {
        bytes.append(contentsOf: element)
        appendOffset()
    }

    /// Appends one element that `write` appends to the buffer piece by piece.
    mutating func appendElement(_ write: (inout [UInt8]) -> Void) {
        write(&bytes)
        appendOffset()
    }

    private mutating func appendOffset() {
        guard let end = UInt32(exactly: bytes.count) else {
            preconditionFailure("PackedBytes holds at most 4 GB")
        }
        offsets.append(end)
    }

    func range(_ index: Int) -> Range<Int> { Int(offsets[index])..<Int(offsets[index + 1]) }

    func withBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = range(index)
        return try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[range]))
        }
    }

    /// Copies element `index` to `destination`; returns its length.
    func copy(_ index: Int, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        let range = range(index)
        bytes.withUnsafeBufferPointer { all in
            guard !range.isEmpty else { return }
            destination.update(from: all.baseAddress! + range.lowerBound, count: range.count)
        }
        return range.count
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
