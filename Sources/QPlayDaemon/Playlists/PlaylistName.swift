/// A stored playlist's name: the file name without its `.m3u`, so it may not hold `/`;
/// a newline would break MPD's line protocol and other control characters a terminal,
/// so none are allowed; 1–255 bytes of UTF-8. (A name near 255 bytes plus the suffix
/// may still be too long for the file system: writing it then fails with that reason.)
enum PlaylistName {
    static let maximumBytes = 255

    static func isValid(_ name: String) -> Bool {
        let count = name.utf8.count
        guard count >= 1, count <= maximumBytes else { return false }
        return !name.unicodeScalars.contains { scalar in
            scalar == "/" || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        }
    }

    static func checked(_ name: String) throws(PlaylistError) -> String {
        guard isValid(name) else { throw .badName }
        return name
    }
}
