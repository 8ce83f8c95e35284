extension Track {
    /// What a track without a title tag is called: its file name without the extension
    /// (bytes that are not UTF-8 shown as U+FFFD).
    public static func fileTitle(_ relativePath: [UInt8]) -> String {
        let slash = relativePath.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        var name = relativePath[slash...]
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex {
            name = name[..<dot]
        }
        return String(decoding: name, as: UTF8.self)
    }
}
