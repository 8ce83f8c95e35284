import SystemPackage

/// A URL entry (internet radio) is an ordinary `Track` whose path is the stream's URL,
/// so it is queued, listed and stored like any other. Library paths are relative
/// (`Artist/Album/01.mp3`); a path that begins with `http:/` or `https:/` is a URL.
/// `FilePath` folds repeated separators, so the `//` after the scheme reads back as one
/// `/`: `streamURL` restores it (a `//` later in the URL stays folded).
extension Track {
    /// The id of every URL entry's track: library ids start at 1, and nothing in the
    /// library is looked up by it.
    public static let streamID: TrackID = -1

    /// The track of a URL entry before anything was heard from it: its title is the URL
    /// until the station or the stream says better; no length (live).
    public static func stream(url: String) -> Track {
        Track(id: streamID, path: FilePath(url), title: url, format: .mp3)
    }

    /// The stream's URL for a URL entry, nil for a file.
    public var streamURL: String? { Self.streamURL(of: path) }

    public var isStream: Bool { streamURL != nil }

    /// `path` as a URL when it is one (see above), nil for a file path.
    public static func streamURL(of path: FilePath) -> String? {
        // Nearly every path is a file's: its first bytes say so before a String is made
        // (a 10,000-entry playlist asks this of each entry as it is stored).
        guard path.withPlatformString(Self.beginsWithHTTP) else { return nil }
        let text = path.string
        for scheme in ["http:/", "https:/"] {
            guard text.utf8.count > scheme.utf8.count,
                text.prefix(scheme.count).lowercased() == scheme
            else { continue }
            let rest = text.dropFirst(scheme.count)
            return rest.hasPrefix("/") ? text : String(text.prefix(scheme.count)) + "/" + rest
        }
        return nil
    }

    /// `http:` or `https:`, in any case, at the start of a NUL-terminated path.
    private static func beginsWithHTTP(_ bytes: UnsafePointer<CChar>) -> Bool {
        func lower(_ index: Int) -> UInt8 { UInt8(bitPattern: bytes[index]) | 0x20 }
        guard lower(0) == UInt8(ascii: "h"), lower(1) == UInt8(ascii: "t"), lower(2) == UInt8(ascii: "t"),
            lower(3) == UInt8(ascii: "p")
        else { return false }
        if bytes[4] == CChar(UInt8(ascii: ":")) { return true }
        return lower(4) == UInt8(ascii: "s") && bytes[5] == CChar(UInt8(ascii: ":"))
    }
}
