import Foundation

/// Makes one server's MPD responses comparable with another's: song ids become `#N` in
/// the order the server first showed them (`{id N}` in a request is replaced by the
/// server's own id that became `#N`), and the fields that depend on when and how long
/// things ran are blanked (values that only the clock decides).
struct MPDResponseNormalizer {
    /// Song-id fields: each server numbers its own entries.
    static let idFields: Set<String> = ["Id", "songid", "nextsongid"]
    /// Timing and counter fields: the playlist version counts every edit since the
    /// server's start; the others depend on the clock, the load or the output.
    static let blankedFields: Set<String> = [
        "playlist", "elapsed", "time", "uptime", "playtime", "db_update", "updating_db",
    ]

    /// Fields whose very presence depends on timing: `audio` and `bitrate` show once the
    /// decoder has opened the file, which a paused or just started player may not have.
    static let droppedFields: Set<String> = ["audio", "bitrate"]

    private var ids: [String: Int] = [:]
    private var rawIDs: [Int: String] = [:]

    /// The request as this server must get it: `{id N}` → its own id.
    func request(_ line: String) -> String {
        var line = line
        while let open = line.range(of: "{id "), let close = line.range(of: "}", range: open.upperBound..<line.endIndex) {
            let number = Int(line[open.upperBound..<close.lowerBound]) ?? 0
            line.replaceSubrange(open.lowerBound..<close.upperBound, with: rawIDs[number] ?? "unknown-id-\(number)")
        }
        return line
    }

    mutating func response(_ lines: [String]) -> [String] {
        lines.filter { line in
            !(line.range(of: ": ").map { Self.droppedFields.contains(String(line[..<$0.lowerBound])) } ?? false)
        }.map { line in
            if line.hasPrefix("OK MPD ") { return "OK MPD <version>" }
            guard let colon = line.range(of: ": ") else { return line }
            let key = String(line[..<colon.lowerBound])
            let value = String(line[colon.upperBound...])
            if Self.idFields.contains(key) { return "\(key): #\(number(ofID: value))" }
            if Self.blankedFields.contains(key) { return "\(key): <\(key)>" }
            // plchangesposid answers `cpos` and `Id` pairs; Id is handled above.
            return line
        }
    }

    private mutating func number(ofID id: String) -> Int {
        if let known = ids[id] { return known }
        let number = ids.count + 1
        ids[id] = number
        rawIDs[number] = id
        return number
    }
}
