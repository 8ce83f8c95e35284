extension Command {
    /// `add`'s `urls`: at least one, each an `http://` or `https://` URL (the daemon
    /// connects when it plays; a playlist URL is expanded when added).
    static func urlList(_ reader: ArgumentReader) throws(ProtocolError) -> [String] {
        let items = try reader.list("urls") ?? []
        var urls: [String] = []
        for item in items {
            guard case .string(let url) = item else { throw .badRequest("add: `urls` must be a list of strings") }
            try ArgumentReader.rejectNUL(url, command: "add", argument: "each of `urls`")
            let lowered = url.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
                throw .badRequest("add: \(url) is not an http:// or https:// URL")
            }
            urls.append(url)
        }
        if urls.isEmpty { throw .badRequest("add: `urls` must name at least one stream") }
        return urls
    }
}
