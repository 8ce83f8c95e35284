/// What `playlist_save` does with a playlist of that name.
public enum PlaylistSaveMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// A new playlist; `exists` when there is one.
    case create
    /// Writes over the playlist, or makes it.
    case replace
    /// Adds the queue at the end of the playlist, which must be there.
    case append
}

/// The stored-playlist commands (docs/PROTOCOL.md, Stored playlists).
public enum PlaylistCommand: Sendable, Hashable {
    case list
    case show(name: String)
    case save(name: String, mode: PlaylistSaveMode)
    /// Adds the playlist's tracks to the queue (at collection index `position`, else at the end).
    case load(name: String, position: Int?)
    case add(name: String, source: AddSource)
    /// 0-based positions in the playlist.
    case remove(name: String, positions: [Int])
    case move(name: String, from: Int, to: Int)
    case rename(name: String, to: String)
    case delete(name: String)
    /// Stores a smart playlist (a query), replacing a smart playlist of that name.
    case smartSave(name: String, rule: SmartPlaylistRule)

    public var name: String {
        switch self {
        case .list: "playlist_list"
        case .show: "playlist_show"
        case .save: "playlist_save"
        case .load: "playlist_load"
        case .add: "playlist_add"
        case .remove: "playlist_remove"
        case .move: "playlist_move"
        case .rename: "playlist_rename"
        case .delete: "playlist_delete"
        case .smartSave: "smart_save"
        }
    }

    public static let names = [
        "playlist_list", "playlist_show", "playlist_save", "playlist_load", "playlist_add", "playlist_remove",
        "playlist_move", "playlist_rename", "playlist_delete", "smart_save",
    ]

    public var arguments: [String: JSONValue]? {
        switch self {
        case .list: return nil
        case .show(let name), .delete(let name): return ["name": .string(name)]
        case .save(let name, let mode): return ["name": .string(name), "mode": .string(mode.rawValue)]
        case .load(let name, let position):
            var args: [String: JSONValue] = ["name": .string(name)]
            if let position { args["position"] = .integer(Int64(position)) }
            return args
        case .add(let name, let source):
            var args = Command.add(source).arguments ?? [:]
            args["name"] = .string(name)
            return args
        case .remove(let name, let positions):
            return ["name": .string(name), "positions": .array(positions.map { .integer(Int64($0)) })]
        case .move(let name, let from, let to):
            return ["name": .string(name), "from": .integer(Int64(from)), "to": .integer(Int64(to))]
        case .rename(let name, let to): return ["name": .string(name), "to": .string(to)]
        case .smartSave(let name, let rule):
            var args = rule.arguments
            args["name"] = .string(name)
            return args
        }
    }

    /// Checks a playlist command's arguments (the name's rules are the daemon's).
    static func parse(_ command: String, _ args: JSONValue?, _ reader: ArgumentReader) throws(ProtocolError) -> PlaylistCommand {
        if command == "playlist_list" {
            try reader.allowOnly([])
            return .list
        }
        guard let name = try reader.string("name") else { throw .badRequest("\(command): needs `name`") }
        try ArgumentReader.rejectNUL(name, command: command, argument: "`name`")
        switch command {
        case "playlist_show":
            try reader.allowOnly(["name"])
            return .show(name: name)
        case "playlist_save":
            try reader.allowOnly(["name", "mode"])
            let text = try reader.string("mode") ?? "create"
            guard let mode = PlaylistSaveMode(rawValue: text) else {
                throw .badRequest("playlist_save: `mode` is create, replace or append, got \"\(text)\"")
            }
            return .save(name: name, mode: mode)
        case "playlist_load":
            try reader.allowOnly(["name", "position"])
            return .load(name: name, position: try reader.index("position"))
        case "playlist_add":
            try reader.allowOnly(["name", "ids", "paths", "where"])
            var rest: [String: JSONValue] = [:]
            if case .object(let object)? = args { rest = object }
            rest["name"] = nil
            guard case .add(let source) = try Command.parse(name: "add", args: .object(rest)) else {
                throw .badRequest("playlist_add: needs `ids`, `paths` or `where`")
            }
            return .add(name: name, source: source)
        case "playlist_remove":
            try reader.allowOnly(["name", "positions"])
            var positions: [Int] = []
            for item in try reader.list("positions") ?? [] {
                guard let value = item.integerValue, value >= 0, value <= Int64(Int32.max) else {
                    throw .badRequest("playlist_remove: `positions` must be a list of 0-based positions")
                }
                positions.append(Int(value))
            }
            if positions.isEmpty { throw .badRequest("playlist_remove: `positions` must name at least one position") }
            return .remove(name: name, positions: positions)
        case "playlist_move":
            try reader.allowOnly(["name", "from", "to"])
            guard let from = try reader.index("from"), let to = try reader.index("to") else {
                throw .badRequest("playlist_move: needs `from` and `to` (0-based positions)")
            }
            return .move(name: name, from: from, to: to)
        case "playlist_rename":
            try reader.allowOnly(["name", "to"])
            guard let to = try reader.string("to") else { throw .badRequest("playlist_rename: needs `to`") }
            try ArgumentReader.rejectNUL(to, command: command, argument: "`to`")
            return .rename(name: name, to: to)
        case "smart_save":
            try reader.allowOnly(["name", "where", "sort", "order", "limit"])
            return .smartSave(name: name, rule: try SmartPlaylistRule.parse(reader))
        default:
            try reader.allowOnly(["name"])
            return .delete(name: name)
        }
    }
}

/// One playlist in the `playlist_list` result: a playlist file or a smart playlist.
public struct PlaylistSummary: Sendable, Hashable, Codable {
    public var name: String
    /// Lines that name a track of the library.
    public var tracks: Int
    /// Lines that name none.
    public var missing: Int
    /// The file's modification time, ISO 8601 UTC.
    public var modified: String
    /// A smart playlist: `tracks` is what its query finds now, `missing` 0.
    public var smart: Bool
    /// A smart playlist's query; absent for a playlist file.
    public var rule: SmartPlaylistRule?

    public init(
        name: String, tracks: Int, missing: Int, modified: String, smart: Bool = false, rule: SmartPlaylistRule? = nil
    ) {
        self.name = name
        self.tracks = tracks
        self.missing = missing
        self.modified = modified
        self.smart = smart
        self.rule = rule
    }
}

/// The `playlist_list` result.
public struct PlaylistList: Sendable, Hashable, Codable {
    public var playlists: [PlaylistSummary]
    public init(playlists: [PlaylistSummary]) { self.playlists = playlists }
}

/// One line of a playlist in the `playlist_show` result: its track, or `missing`.
public struct PlaylistEntry: Sendable, Hashable, Codable {
    public var position: Int
    public var path: String
    public var missing: Bool
    public var track: Track?

    public init(position: Int, path: String, missing: Bool, track: Track?) {
        self.position = position
        self.path = path
        self.missing = missing
        self.track = track
    }

    enum CodingKeys: String, CodingKey { case position, path, missing, track }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position, forKey: .position)
        try container.encode(path, forKey: .path)
        try container.encode(missing, forKey: .missing)
        try container.encode(track, forKey: .track)
    }
}

/// The `playlist_show` result.
public struct PlaylistShow: Sendable, Hashable, Codable {
    public var name: String
    public var entries: [PlaylistEntry]
    public init(name: String, entries: [PlaylistEntry]) {
        self.name = name
        self.entries = entries
    }
}

/// The `playlist_load` result: entries added, lines skipped as naming no track, and
/// whether playback started (an empty queue starts, as with `add`).
public struct PlaylistLoaded: Sendable, Hashable, Codable {
    public var added: Int
    public var missing: Int
    public var started: Bool
    public init(added: Int, missing: Int, started: Bool) {
        self.added = added
        self.missing = missing
        self.started = started
    }
}

/// `playlists` event data: `{}`. The event says that the folder changed; a client asks
/// `playlist_list` for what is there now.
public struct PlaylistsChanged: Sendable, Hashable, Codable {
    public init() {}
}
