/// What an alarm plays: tracks matching a query or by id, added after the playing entry
/// and jumped to. Without one the queue resumes.
public enum AlarmSelection: Sendable, Hashable {
    case query([Predicate])
    case ids([Int64])
}

/// `alarm_add`'s arguments, checked for shape; the daemon checks the time.
public struct AlarmRequest: Sendable, Hashable {
    /// `HH:MM` or `HH:MM:SS`, local time.
    public var time: String
    /// `mon` … `sun`; empty: once.
    public var days: [String]
    public var selection: AlarmSelection?
    /// 0–100; nil keeps the volume.
    public var volume: Int?
    /// Seconds the gain rises from silence to the volume; nil or 0: at once.
    public var fadeIn: Double?

    public init(
        time: String, days: [String] = [], selection: AlarmSelection? = nil, volume: Int? = nil, fadeIn: Double? = nil
    ) {
        self.time = time
        self.days = days
        self.selection = selection
        self.volume = volume
        self.fadeIn = fadeIn
    }

    /// The day names in their wire spelling.
    public static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    var arguments: [String: JSONValue] {
        var args: [String: JSONValue] = ["time": .string(time)]
        if !days.isEmpty { args["days"] = .array(days.map { .string($0) }) }
        switch selection {
        case .query(let predicates)?: args["where"] = .array(predicates.map(\.json))
        case .ids(let ids)?: args["ids"] = .array(ids.map { .integer($0) })
        case nil: break
        }
        if let volume { args["volume"] = .integer(Int64(volume)) }
        if let fadeIn { args["fade_in"] = .number(fadeIn) }
        return args
    }

    static func parse(_ reader: ArgumentReader) throws(ProtocolError) -> AlarmRequest {
        try reader.allowOnly(["time", "days", "where", "ids", "volume", "fade_in"])
        guard let time = try reader.string("time") else {
            throw .badRequest("alarm_add: needs `time`: \"HH:MM\" or \"HH:MM:SS\" (local time)")
        }
        var days: [String] = []
        for item in try reader.list("days") ?? [] {
            guard case .string(let day) = item, dayNames.contains(day) else {
                throw .badRequest("alarm_add: `days` items must be among " + dayNames.joined(separator: ", "))
            }
            // A day named twice is most likely a slip for another day: refused, not merged.
            guard !days.contains(day) else { throw .badRequest("alarm_add: `days` names `\(day)` twice") }
            days.append(day)
        }
        var selection: AlarmSelection?
        if reader.has("where") && reader.has("ids") {
            throw .badRequest("alarm_add: give only one of `where` or `ids`")
        }
        if reader.has("where") {
            let predicates = try reader.predicates("where") ?? []
            if predicates.isEmpty { throw .badRequest("alarm_add: `where` must hold at least one predicate") }
            selection = .query(predicates)
        } else if let items = try reader.list("ids") {
            var ids: [Int64] = []
            for item in items {
                guard let id = item.integerValue else {
                    throw .badRequest("alarm_add: `ids` must be a list of track ids (whole numbers)")
                }
                ids.append(id)
            }
            if ids.isEmpty { throw .badRequest("alarm_add: `ids` must name at least one track") }
            selection = .ids(ids)
        }
        let volume = try reader.integer("volume", in: 0...100).map { Int($0) }
        let fadeIn = try reader.number("fade_in")
        if let fadeIn, !(0...3600).contains(fadeIn) {
            throw .badRequest("alarm_add: `fade_in` must be 0 to 3600 seconds, got \(fadeIn)")
        }
        return AlarmRequest(time: time, days: days, selection: selection, volume: volume, fadeIn: fadeIn)
    }
}

/// One alarm as `alarm_list` shows it.
public struct Alarm: Sendable, Hashable, Codable {
    public var alarm: Int64
    /// `HH:MM:SS`.
    public var time: String
    /// Empty: once (removed after it rings).
    public var days: [String]
    /// When it rings next: ISO-8601 local time with its offset.
    public var next: String
    public var volume: Int?
    public var fadeIn: Double?
    public var `where`: [Predicate]?
    public var ids: [Int64]?

    public init(
        alarm: Int64, time: String, days: [String], next: String, volume: Int?, fadeIn: Double?,
        where predicates: [Predicate]? = nil, ids: [Int64]? = nil
    ) {
        self.alarm = alarm
        self.time = time
        self.days = days
        self.next = next
        self.volume = volume
        self.fadeIn = fadeIn
        self.where = predicates
        self.ids = ids
    }

    enum CodingKeys: String, CodingKey { case alarm, time, days, next, volume, fadeIn = "fade_in", `where`, ids }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(alarm, forKey: .alarm)
        try container.encode(time, forKey: .time)
        try container.encode(days, forKey: .days)
        try container.encode(next, forKey: .next)
        try container.encode(volume, forKey: .volume)
        try container.encode(fadeIn, forKey: .fadeIn)
        try container.encodeIfPresent(self.where, forKey: .where)
        try container.encodeIfPresent(ids, forKey: .ids)
    }
}

/// The `alarm_list` result, soonest first.
public struct AlarmList: Sendable, Hashable, Codable {
    public var alarms: [Alarm]
    public init(alarms: [Alarm]) { self.alarms = alarms }
}

/// The `alarm_add` result.
public struct AlarmAdded: Sendable, Hashable, Codable {
    public var alarm: Int64
    public init(alarm: Int64) { self.alarm = alarm }
}

/// `alarm` event data: an alarm's time came. `skipped` says why it did nothing
/// (`"already playing"`, or `"missed"` when qplayd was down for longer than the grace),
/// null when it started playback.
public struct AlarmFired: Sendable, Hashable, Codable {
    public var alarm: Int64
    public var time: String
    /// The moment it was due, ISO-8601 local time.
    public var due: String
    public var skipped: String?

    public init(alarm: Int64, time: String, due: String, skipped: String?) {
        self.alarm = alarm
        self.time = time
        self.due = due
        self.skipped = skipped
    }

    enum CodingKeys: String, CodingKey { case alarm, time, due, skipped }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(alarm, forKey: .alarm)
        try container.encode(time, forKey: .time)
        try container.encode(due, forKey: .due)
        try container.encode(skipped, forKey: .skipped)
    }
}
