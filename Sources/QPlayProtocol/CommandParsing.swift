extension Command {
    /// The command `name` with its `args`, checked. Unknown names throw
    /// `unknown_command`; wrong, missing or unexpected arguments throw `bad_request`.
    public static func parse(name: String, args: JSONValue?) throws(ProtocolError) -> Command {
        let reader = try ArgumentReader(command: name, args: args)
        switch name {
        case "ping": return try simple(.ping, reader)
        case "status": return try simple(.status, reader)
        case "stats": return try simple(.stats, reader)
        case "queue":
            try reader.allowOnly(["start", "count", "around"])
            if let radius = try reader.integer("around", in: 0...Int64(Int32.max)) {
                guard try reader.integer("start") == nil, try reader.integer("count") == nil else {
                    throw .badRequest("queue: give either `around` or `start`/`count`, not both")
                }
                return .queue(.around(Int(radius)))
            }
            let start = try reader.integer("start", in: 0...Int64(Int32.max))
            let count = try reader.integer("count", in: 1...Int64(Int32.max))
            guard start != nil || count != nil else { return .queue(.all) }
            // A start alone runs to the end; a count alone starts at the first entry.
            return .queue(.range(start: Int(start ?? 0), count: Int(count ?? Int64(Int32.max))))
        case "clear": return try simple(.clear, reader)
        case "play": return try simple(.play, reader)
        case "pause": return try simple(.pause, reader)
        case "toggle": return try simple(.toggle, reader)
        case "stop": return try simple(.stop, reader)
        case "next": return try simple(.next, reader)
        case "previous": return try simple(.previous, reader)
        case "search":
            try reader.allowOnly(["where", "limit"])
            let limit = try reader.integer("limit", in: 1...Int64(Int32.max)).map { Int($0) }
            return .search(where: try reader.predicates("where") ?? [], limit: limit)
        case "add":
            try reader.allowOnly(["where", "ids", "paths", "urls"])
            switch try reader.oneOf(["where", "ids", "paths", "urls"]) {
            case "where":
                return .add(.query(try reader.predicates("where") ?? []))
            case "ids":
                let items = try reader.list("ids") ?? []
                var ids: [Int64] = []
                for item in items {
                    guard let id = item.integerValue else {
                        throw .badRequest(
                            "add: `ids` must be a list of track ids (whole numbers), got "
                                + (item.numberText ?? item.typeDescription))
                    }
                    ids.append(id)
                }
                if ids.isEmpty { throw .badRequest("add: `ids` must name at least one track") }
                return .add(.ids(ids))
            case "urls":
                return .add(.urls(try urlList(reader)))
            default:
                let items = try reader.list("paths") ?? []
                var paths: [String] = []
                for item in items {
                    guard case .string(let path) = item else {
                        throw .badRequest("add: `paths` must be a list of strings")
                    }
                    try ArgumentReader.rejectNUL(path, command: "add", argument: "each of `paths`")
                    paths.append(path)
                }
                if paths.isEmpty { throw .badRequest("add: `paths` must name at least one file") }
                return .add(.paths(paths))
            }
        case "remove", "jump":
            try reader.allowOnly(["entry", "index"])
            let reference: EntryReference
            if try reader.oneOf(["entry", "index"]) == "entry" {
                reference = .entry(try reader.integer("entry")!)
            } else {
                reference = .index(try reader.index("index")!)
            }
            return name == "remove" ? .remove(reference) : .jump(reference)
        case "move":
            try reader.allowOnly(["from", "to"])
            guard let from = try reader.index("from"), let to = try reader.index("to") else {
                throw .badRequest("move: needs `from` and `to` (0-based indexes)")
            }
            return .move(from: from, to: to)
        case "press", "release":
            try reader.allowOnly(["button"])
            guard let text = try reader.string("button") else {
                throw .badRequest("\(name): needs `button`: \"next\" or \"previous\"")
            }
            guard let button = Button(rawValue: text) else {
                throw .badRequest("\(name): `button` must be \"next\" or \"previous\", got \"\(text)\"")
            }
            return name == "press" ? .press(button) : .release(button)
        case "seek":
            try reader.allowOnly(["position", "delta"])
            if try reader.oneOf(["position", "delta"]) == "position" {
                let seconds = try reader.number("position")!
                guard seconds >= 0 else {
                    throw .badRequest("seek: `position` must be 0 or more seconds, got \(seconds)")
                }
                return .seek(.position(seconds))
            }
            return .seek(.delta(try reader.number("delta")!))
        case "volume":
            try reader.allowOnly(["set", "delta"])
            if try reader.oneOf(["set", "delta"]) == "set" {
                return .volume(.set(Int(try reader.integer("set", in: 0...100)!)))
            }
            return .volume(.delta(Int(try reader.integer("delta", in: -100...100)!)))
        case "mode":
            try reader.allowOnly(["repeat", "shuffle"])
            var repeatMode: RepeatMode?
            if let text = try reader.string("repeat") {
                guard let mode = RepeatMode(rawValue: text) else {
                    throw .badRequest("mode: `repeat` must be \"off\", \"one\" or \"all\", got \"\(text)\"")
                }
                repeatMode = mode
            }
            let shuffle = try reader.bool("shuffle")
            guard repeatMode != nil || shuffle != nil else {
                throw .badRequest("mode: needs `repeat` (\"off\", \"one\", \"all\") and/or `shuffle` (true/false)")
            }
            return .mode(repeat: repeatMode, shuffle: shuffle)
        case "update":
            try reader.allowOnly(["path", "wait"])
            return .update(path: try reader.string("path"), wait: try reader.bool("wait") ?? false)
        case "subscribe":
            try reader.allowOnly(["events"])
            guard let items = try reader.list("events") else { return .subscribe(EventKind.defaultSubscription) }
            let kindNames = EventKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            var kinds: Set<EventKind> = []
            for item in items {
                guard case .string(let text) = item, let kind = EventKind(rawValue: text) else {
                    throw .badRequest("subscribe: `events` items must be event kinds: \(kindNames)")
                }
                kinds.insert(kind)
            }
            if kinds.isEmpty {
                throw .badRequest("subscribe: `events` must name at least one of \(kindNames)")
            }
            return .subscribe(kinds)
        case "bookmark_add":
            try reader.allowOnly(["name"])
            let name = try reader.string("name")
            if let name { try ArgumentReader.rejectNUL(name, command: "bookmark_add", argument: "`name`") }
            return .bookmarkAdd(name: name)
        case "bookmark_list":
            try reader.allowOnly(["track", "start", "count"])
            return .bookmarkList(
                track: try reader.integer("track"),
                start: Int(try reader.integer("start", in: 0...Int64(Int32.max)) ?? 0),
                count: try reader.integer("count", in: 1...Int64(BookmarkList.maximumWindow)).map { Int($0) })
        case "bookmark_jump", "bookmark_remove":
            try reader.allowOnly(["bookmark"])
            guard let id = try reader.integer("bookmark") else {
                throw .badRequest("\(name): needs `bookmark`: a bookmark id (bookmark_list shows them)")
            }
            return name == "bookmark_jump" ? .bookmarkJump(id) : .bookmarkRemove(id)
        case "sleep":
            try reader.allowOnly(["after", "end_of_track", "cancel"])
            switch try reader.oneOf(["after", "end_of_track", "cancel"]) {
            case "after":
                let seconds = try reader.number("after")!
                guard seconds > 0, seconds <= 604_800 else {
                    throw .badRequest("sleep: `after` must be more than 0 and at most 604800 seconds, got \(seconds)")
                }
                return .sleep(.after(seconds))
            case "end_of_track":
                guard try reader.bool("end_of_track") == true else {
                    throw .badRequest("sleep: `end_of_track` must be true")
                }
                return .sleep(.endOfTrack)
            default:
                guard try reader.bool("cancel") == true else { throw .badRequest("sleep: `cancel` must be true") }
                return .sleep(.cancel)
            }
        case "art":
            try reader.allowOnly(["track", "offset"])
            return .art(
                track: try reader.integer("track"),
                offset: Int(try reader.integer("offset", in: 0...Int64(Int32.max)) ?? 0))
        case "chapter":
            try reader.allowOnly(["index", "step"])
            if try reader.oneOf(["index", "step"]) == "index" {
                return .chapter(.index(Int(try reader.integer("index", in: 0...Int64(Int32.max))!)))
            }
            let step = try reader.integer("step")!
            guard step == 1 || step == -1 else { throw .badRequest("chapter: `step` must be 1 or -1, got \(step)") }
            return .chapter(.step(Int(step)))
        case "rate":
            try reader.allowOnly(["track", "stars"])
            guard let stars = try reader.integer("stars", in: 0...5) else {
                throw .badRequest("rate: needs `stars`: 0 to 5 (0 clears the rating)")
            }
            return .rate(track: try reader.integer("track"), stars: Int(stars))
        case "alarm_add":
            return .alarmAdd(try AlarmRequest.parse(reader))
        case "alarm_list":
            return try simple(.alarmList, reader)
        case _ where PlaylistCommand.names.contains(name):
            return .playlist(try PlaylistCommand.parse(name, args, reader))
        case "alarm_remove":
            try reader.allowOnly(["alarm"])
            guard let id = try reader.integer("alarm") else { throw .badRequest("alarm_remove: needs `alarm` (its id)") }
            return .alarmRemove(id)
        default:
            throw .unknownCommand(
                "unknown command \"\(name)\"; commands: " + names.joined(separator: ", "))
        }
    }

    private static func simple(_ command: Command, _ reader: ArgumentReader) throws(ProtocolError) -> Command {
        try reader.allowOnly([])
        return command
    }
}
