/// The folded title, title and file name of every row of a `SearchTable`: one run of
/// bytes per row, end to end in one buffer, so that building a result reads one or two
/// cache lines for all three, and the title and name take few bytes.
///
/// A row's bytes:
/// 1. the folded title's length (LEB128) and the folded title, which predicates scan;
/// 2. the title. Usually it is ASCII and its folded form is just it in lower case: then
///    kind 1 and a bit per byte saying which letters are upper case (3 bytes instead of
///    ~16). Otherwise kind 0, the length (LEB128) and the bytes;
/// 3. the file name, to the end. It usually contains the title ("07 Title.mp3"): then
///    the title's position (< 255) and the name without the title. Otherwise 255 and the
///    name, byte for byte (it need not be UTF-8).
struct RowTexts: Sendable {
    /// One element per row.
    private var rows: PackedBytes

    private static let rawTitle: UInt8 = 0
    private static let lowerCasedTitle: UInt8 = 1
    private static let nameWithoutTitle: UInt8 = 255

    init(reservingCapacity count: Int = 0, bytes byteCount: Int = 0) {
        rows = PackedBytes(reservingCapacity: count, bytes: byteCount)
    }

    var count: Int { rows.count }

    mutating func append(
        title: UnsafeBufferPointer<UInt8>, folded: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>
    ) {
        rows.appendElement { bytes in
            Self.appendLength(folded.count, to: &bytes)
            bytes.append(contentsOf: folded)
            if title.count == folded.count, !title.isEmpty,
                zip(title, folded).allSatisfy({ $0 < 0x80 && Self.lowerCase($0) == $1 })
            {
                bytes.append(Self.lowerCasedTitle)
                let mask = bytes.count
                bytes.append(contentsOf: repeatElement(0, count: (title.count + 7) / 8))
                for (i, byte) in title.enumerated() where byte != folded[i] {
                    bytes[mask + (i >> 3)] |= 1 << UInt8(i & 7)
                }
            } else {
                bytes.append(Self.rawTitle)
                Self.appendLength(title.count, to: &bytes)
                bytes.append(contentsOf: title)
            }
            if title.count > 1, let position = name.firstOffset(of: title), position < Int(Self.nameWithoutTitle) {
                bytes.append(UInt8(position))
                bytes.append(contentsOf: name[..<position])
                bytes.append(contentsOf: name[(position + title.count)...])
            } else {
                bytes.append(Self.nameWithoutTitle)
                bytes.append(contentsOf: name)
            }
        }
    }

    /// Drops spare capacity (the buffers were grown by appending).
    mutating func shrink() { rows.shrink() }

    func withView<R>(_ body: (View) throws -> R) rethrows -> R {
        try rows.bytes.withUnsafeBufferPointer { bytes in
            try rows.offsets.withUnsafeBufferPointer { offsets in try body(View(bytes: bytes, offsets: offsets)) }
        }
    }

    /// Read access for the duration of `withView`.
    struct View {
        let bytes: UnsafeBufferPointer<UInt8>
        let offsets: UnsafeBufferPointer<UInt32>

        func folded(_ rank: Int) -> UnsafeBufferPointer<UInt8> {
            var cursor = Int(offsets[rank])
            let length = readLength(&cursor)
            return UnsafeBufferPointer(rebasing: bytes[cursor..<(cursor + length)])
        }

        /// Where the row at `rank` is and how long its folded title is: the first read of
        /// its bytes, which `tracks(atRanks:)` makes for a batch of rows at once.
        func locate(_ rank: Int) -> Location {
            var cursor = Int(offsets[rank])
            let foldedLength = readLength(&cursor)
            return Location(folded: cursor, foldedLength: foldedLength, end: Int(offsets[rank + 1]))
        }

        struct Location {
            var folded: Int
            var foldedLength: Int
            var end: Int
        }

        /// Writes the title of a row to `buffer`; returns it and the row's encoded file
        /// name (for `nameLength` and `writeName`).
        func title(_ location: Location, into buffer: UnsafeMutablePointer<UInt8>)
            -> (title: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>)
        {
            let foldedLength = location.foldedLength
            let folded = bytes.baseAddress! + location.folded
            var cursor = location.folded + foldedLength
            let titleLength: Int
            if bytes[cursor] == RowTexts.rawTitle {
                cursor += 1
                titleLength = readLength(&cursor)
                buffer.update(from: bytes.baseAddress! + cursor, count: titleLength)
                cursor += titleLength
            } else {
                let mask = bytes.baseAddress! + cursor + 1
                for i in 0..<foldedLength {
                    let upper = mask[i >> 3] & (1 << UInt8(i & 7)) != 0
                    buffer[i] = upper ? folded[i] & ~0x20 : folded[i]
                }
                titleLength = foldedLength
                cursor += 1 + (foldedLength + 7) / 8
            }
            return (
                UnsafeBufferPointer(start: buffer, count: titleLength),
                UnsafeBufferPointer(rebasing: bytes[cursor..<location.end])
            )
        }

        private func readLength(_ cursor: inout Int) -> Int {
            var length = 0
            var shift = 0
            while true {
                let byte = bytes[cursor]
                cursor += 1
                length |= Int(byte & 0x7F) << shift
                if byte < 0x80 { return length }
                shift += 7
            }
        }
    }

    /// The length of the file name `encoded` stands for, given its title's length.
    static func nameLength(_ encoded: UnsafeBufferPointer<UInt8>, titleLength: Int) -> Int {
        encoded.count - 1 + (encoded[0] == nameWithoutTitle ? 0 : titleLength)
    }

    /// Writes the file name to `destination` (room for `nameLength`).
    static func writeName(
        _ encoded: UnsafeBufferPointer<UInt8>, title: UnsafeBufferPointer<UInt8>,
        to destination: UnsafeMutablePointer<UInt8>
    ) {
        let payload = encoded.baseAddress! + 1
        let payloadCount = encoded.count - 1
        if encoded[0] == nameWithoutTitle {
            destination.update(from: payload, count: payloadCount)
            return
        }
        let position = Int(encoded[0])
        destination.update(from: payload, count: position)
        if let titleBytes = title.baseAddress { (destination + position).update(from: titleBytes, count: title.count) }
        (destination + position + title.count).update(from: payload + position, count: payloadCount - position)
    }

    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        var rest = length
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func lowerCase(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
