/// Which tracks `add` takes.
public enum AddSource: Sendable, Hashable {
    /// Every track the query matches, in query order.
    case query([Predicate])
    /// Tracks by id, in the order given.
    case ids([Int64])
    /// Tracks by path relative to the music directory, in the order given.
    case paths([String])
    /// Streams (internet radio) by `http`/`https` URL; a playlist URL adds its streams.
    case urls([String])
}

/// A queue entry named by its entry id or its 0-based index.
public enum EntryReference: Sendable, Hashable {
    case entry(Int64)
    case index(Int)
}

/// Which entries `queue` answers (docs/PROTOCOL.md, Commands).
public enum QueueWindow: Sendable, Hashable {
    /// The whole queue.
    case all
    /// `count` entries from 0-based index `start`, clipped to the queue.
    case range(start: Int, count: Int)
    /// `radius` entries either side of the playing entry, and that entry.
    case around(Int)
}

/// The next/previous buttons of `press` and `release`.
public enum Button: String, Sendable, Hashable, Codable, CaseIterable {
    case next, previous
}

/// `seek` to a position or by a signed delta, in seconds.
public enum SeekTarget: Sendable, Hashable {
    case position(Double)
    case delta(Double)
}

/// `volume` set to a level (0–100) or changed by a signed delta.
public enum VolumeChange: Sendable, Hashable {
    case set(Int)
    case delta(Int)
}

/// A command with its arguments, checked (docs/PROTOCOL.md, Commands).
public enum Command: Sendable, Hashable {
    case ping
    case status
    case stats
    case search(where: [Predicate], limit: Int?)
    case add(AddSource)
    case queue(QueueWindow)
    case remove(EntryReference)
    case jump(EntryReference)
    case move(from: Int, to: Int)
    case clear
    case play, pause, toggle, stop, next, previous
    case press(Button)
    case release(Button)
    case seek(SeekTarget)
    case volume(VolumeChange)
    /// At least one of the two is set.
    case mode(repeat: RepeatMode?, shuffle: Bool?)
    case update(path: String?, wait: Bool)
    /// Never empty; `subscribe` without `events` means `EventKind.defaultSubscription`.
    case subscribe(Set<EventKind>)

    // Sleep timer and alarm clock (docs/BEHAVIOUR.md, Timers, bookmarks and resume points).
    case sleep(SleepRequest)
    case alarmAdd(AlarmRequest)
    case alarmList
    case alarmRemove(Int64)
    // Bookmarks
    /// A bookmark at the current position, optionally named.
    case bookmarkAdd(name: String?)
    /// Bookmarks, or those of one track: `count` of them (the default window when nil)
    /// from the `start`th, oldest first.
    case bookmarkList(track: Int64?, start: Int = 0, count: Int? = nil)
    case bookmarkJump(Int64)
    case bookmarkRemove(Int64)
    /// A piece of a track's picture (the playing track's when nil) from byte `offset`.
    case art(track: Int64?, offset: Int)
    /// Seeks to a chapter of the playing track.
    case chapter(ChapterTarget)
    /// Rates a track (the playing one when nil) 0–5 stars; 0 clears the rating.
    case rate(track: Int64?, stars: Int)
    /// Stored playlists.
    case playlist(PlaylistCommand)

    /// The `cmd` string.
    public var name: String {
        switch self {
        case .ping: "ping"
        case .status: "status"
        case .stats: "stats"
        case .search: "search"
        case .add: "add"
        case .queue: "queue"
        case .remove: "remove"
        case .jump: "jump"
        case .move: "move"
        case .clear: "clear"
        case .play: "play"
        case .pause: "pause"
        case .toggle: "toggle"
        case .stop: "stop"
        case .next: "next"
        case .previous: "previous"
        case .press: "press"
        case .release: "release"
        case .seek: "seek"
        case .volume: "volume"
        case .mode: "mode"
        case .update: "update"
        case .subscribe: "subscribe"
        case .sleep: "sleep"
        case .alarmAdd: "alarm_add"
        case .alarmList: "alarm_list"
        case .alarmRemove: "alarm_remove"
        case .bookmarkAdd: "bookmark_add"
        case .bookmarkList: "bookmark_list"
        case .bookmarkJump: "bookmark_jump"
        case .bookmarkRemove: "bookmark_remove"
        case .art: "art"
        case .chapter: "chapter"
        case .rate: "rate"
        case .playlist(let command): command.name
        }
    }

    /// Every command name of protocol v1.
    public static let names: [String] = [
        "ping", "status", "stats", "search", "add", "queue", "remove", "jump", "move", "clear",
        "play", "pause", "toggle", "stop", "next", "previous", "press", "release", "seek",
        "volume", "mode", "update", "subscribe",
        "sleep", "alarm_add", "alarm_list", "alarm_remove",
        "bookmark_add", "bookmark_list", "bookmark_jump", "bookmark_remove",
        "art", "chapter", "rate",
    ] + PlaylistCommand.names

    /// The `args` object as sent on the wire; nil for commands without arguments.
    public var arguments: [String: JSONValue]? {
        switch self {
        case .ping, .status, .stats, .queue(.all), .clear, .play, .pause, .toggle, .stop, .next,
            .previous, .alarmList:
            return nil
        case .sleep(.after(let seconds)): return ["after": .number(seconds)]
        case .sleep(.endOfTrack): return ["end_of_track": .bool(true)]
        case .sleep(.cancel): return ["cancel": .bool(true)]
        case .alarmAdd(let request): return request.arguments
        case .alarmRemove(let id): return ["alarm": .integer(id)]
        case .search(let predicates, let limit):
            var args: [String: JSONValue] = ["where": .array(predicates.map(\.json))]
            if let limit { args["limit"] = .integer(Int64(limit)) }
            return args
        case .add(.query(let predicates)):
            return ["where": .array(predicates.map(\.json))]
        case .add(.ids(let ids)):
            return ["ids": .array(ids.map { .integer($0) })]
        case .add(.urls(let urls)):
            return ["urls": .array(urls.map { .string($0) })]
        case .add(.paths(let paths)):
            return ["paths": .array(paths.map { .string($0) })]
        case .queue(.range(let start, let count)):
            return ["start": .integer(Int64(start)), "count": .integer(Int64(count))]
        case .queue(.around(let radius)):
            return ["around": .integer(Int64(radius))]
        case .remove(let reference), .jump(let reference):
            switch reference {
            case .entry(let id): return ["entry": .integer(id)]
            case .index(let index): return ["index": .integer(Int64(index))]
            }
        case .move(let from, let to):
            return ["from": .integer(Int64(from)), "to": .integer(Int64(to))]
        case .press(let button), .release(let button):
            return ["button": .string(button.rawValue)]
        case .seek(.position(let seconds)):
            return ["position": .number(seconds)]
        case .seek(.delta(let seconds)):
            return ["delta": .number(seconds)]
        case .volume(.set(let level)):
            return ["set": .integer(Int64(level))]
        case .volume(.delta(let change)):
            return ["delta": .integer(Int64(change))]
        case .mode(let repeatMode, let shuffle):
            var args: [String: JSONValue] = [:]
            if let repeatMode { args["repeat"] = .string(repeatMode.rawValue) }
            if let shuffle { args["shuffle"] = .bool(shuffle) }
            return args
        case .update(let path, let wait):
            var args: [String: JSONValue] = ["wait": .bool(wait)]
            if let path { args["path"] = .string(path) }
            return args
        case .subscribe(let kinds):
            let sorted = EventKind.allCases.filter(kinds.contains)
            return ["events": .array(sorted.map { .string($0.rawValue) })]
        case .bookmarkAdd(let name):
            return name.map { ["name": .string($0)] }
        case .bookmarkList(let track, let start, let count):
            var args: [String: JSONValue] = [:]
            if let track { args["track"] = .integer(track) }
            if start != 0 { args["start"] = .integer(Int64(start)) }
            if let count { args["count"] = .integer(Int64(count)) }
            return args.isEmpty ? nil : args
        case .bookmarkJump(let id), .bookmarkRemove(let id):
            return ["bookmark": .integer(id)]
        case .art(let track, let offset):
            var args: [String: JSONValue] = [:]
            if let track { args["track"] = .integer(track) }
            if offset != 0 { args["offset"] = .integer(Int64(offset)) }
            return args.isEmpty ? nil : args
        case .chapter(.index(let index)):
            return ["index": .integer(Int64(index))]
        case .chapter(.step(let step)):
            return ["step": .integer(Int64(step))]
        case .rate(let track, let stars):
            var args: [String: JSONValue] = ["stars": .integer(Int64(stars))]
            if let track { args["track"] = .integer(track) }
            return args
        case .playlist(let command):
            return command.arguments
        }
    }
}
