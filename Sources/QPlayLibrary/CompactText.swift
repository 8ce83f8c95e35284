/// How the search table stores a track's title and file name in few bytes, given the
/// folded title it keeps anyway for matching:
///
/// - A title is usually ASCII, and then its folded form is the title in lower case: it
///   is stored as kind 1 and one bit per byte saying which letters are upper case
///   (3 bytes instead of ~16). Any other title is kind 0 followed by its bytes.
/// - A file name usually contains the title ("07 Title.mp3"): it is stored as the
///   title's position (< 255) and the name without the title. Otherwise 255 and the name.
///
/// Decoding is a copy and a bit test per byte into the caller's buffer.
enum CompactText {
    private static let rawTitle: UInt8 = 0
    private static let lowerCasedTitle: UInt8 = 1
    private static let nameWithoutTitle: UInt8 = 255

    static func appendTitle(
        _ title: UnsafeBufferPointer<UInt8>, folded: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]
    ) {
        if title.count == folded.count, !title.isEmpty,
            zip(title, folded).allSatisfy({ $0 < 0x80 && lowerCase($0) == $1 })
        {
            out.append(lowerCasedTitle)
            let start = out.count
            out.append(contentsOf: repeatElement(0, count: (title.count + 7) / 8))
            for (i, byte) in title.enumerated() where byte != folded[i] {
                out[start + (i >> 3)] |= 1 << UInt8(i & 7)
            }
        } else {
            out.append(rawTitle)
            out.append(contentsOf: title)
        }
    }

    /// Writes the title to `destination` and returns its length.
    static func decodeTitle(
        _ encoded: UnsafeBufferPointer<UInt8>, folded: UnsafeBufferPointer<UInt8>,
        to destination: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let payload = UnsafeBufferPointer(rebasing: encoded[1...])
        if encoded[0] == rawTitle {
            if let base = payload.baseAddress { destination.update(from: base, count: payload.count) }
            return payload.count
        }
        for i in 0..<folded.count {
            let upper = payload[i >> 3] & (1 << UInt8(i & 7)) != 0
            destination[i] = upper ? folded[i] & ~0x20 : folded[i]
        }
        return folded.count
    }

    static func appendName(
        _ name: UnsafeBufferPointer<UInt8>, title: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]
    ) {
        if title.count > 1, let position = firstRange(of: title, in: name), position < Int(nameWithoutTitle) {
            out.append(UInt8(position))
            out.append(contentsOf: name[..<position])
            out.append(contentsOf: name[(position + title.count)...])
        } else {
            out.append(nameWithoutTitle)
            out.append(contentsOf: name)
        }
    }

    /// The length of the name `encoded` stands for, given its title's length.
    static func nameLength(_ encoded: UnsafeBufferPointer<UInt8>, titleLength: Int) -> Int {
        encoded.count - 1 + (encoded[0] == nameWithoutTitle ? 0 : titleLength)
    }

    /// Writes the name to `destination` (room for `nameLength`).
    static func decodeName(
        _ encoded: UnsafeBufferPointer<UInt8>, title: UnsafeBufferPointer<UInt8>,
        to destination: UnsafeMutablePointer<UInt8>
    ) {
        let base = encoded.baseAddress! + 1
        let payloadCount = encoded.count - 1
        if encoded[0] == nameWithoutTitle {
            destination.update(from: base, count: payloadCount)
            return
        }
        let position = Int(encoded[0])
        destination.update(from: base, count: position)
        if let titleBytes = title.baseAddress { (destination + position).update(from: titleBytes, count: title.count) }
        (destination + position + title.count).update(from: base + position, count: payloadCount - position)
    }

    private static func lowerCase(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    private static func firstRange(of part: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard part.count <= text.count else { return nil }
        for start in 0...(text.count - part.count)
        where text[start] == part[0] && text[start..<(start + part.count)].elementsEqual(part) {
            return start
        }
        return nil
    }
}
