/// What a stream's `Content-Type` says it is. Stations are sloppy: no type at all and
/// `application/octet-stream` are taken as audio (the decoder tells), while text, HTML
/// and the playlist types are not streams.
enum StreamContentType {
    static let playlists: Set<String> = [
        "audio/x-mpegurl", "audio/mpegurl", "application/x-mpegurl", "application/vnd.apple.mpegurl",
        "audio/x-scpls", "audio/scpls", "application/pls+xml", "application/pls",
    ]
    static let audioLike: Set<String> = ["application/ogg", "application/octet-stream", "video/ogg"]

    /// nil when the type may be a stream; otherwise why not.
    static func problem(_ header: String?) -> StreamReadError? {
        guard let header else { return nil }
        let field = header.prefix { $0 != ";" }
        let type = field.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }
            .reversed().map { $0.lowercased() }.joined()
        if type.isEmpty { return nil }
        if playlists.contains(type) { return .playlist(type) }
        if type.hasPrefix("audio/") || audioLike.contains(type) { return nil }
        if type == "text/html" || type == "application/xhtml+xml" { return .notAudio("an HTML page (\(type))") }
        return .notAudio(type)
    }
}
