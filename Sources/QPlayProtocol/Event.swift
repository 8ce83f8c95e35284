/// The kinds of events a connection can subscribe to.
public enum EventKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Track, state, options or seeking changed.
    case player
    /// The queue was edited or installed.
    case queue
    /// A library scan progressed.
    case scan
    /// The player skipped an entry it could not play, or an output failed or stalled.
    case error
    /// Saving the player state started failing, or works again.
    case storage
    /// An alarm's time came (it played, or says why it did not).
    case alarm
    /// A stored playlist was saved, edited, renamed or removed.
    case playlists

    // Level meter
    /// The output's level, about 10 times a second while playing; only when asked for.
    case level

    /// What `subscribe` without `events` subscribes to: every kind but `level`, whose
    /// ten lines a second a client must ask for.
    public static let defaultSubscription: Set<EventKind> = Set(allCases.filter { $0 != .level })
}

/// `storage` event data: why the player state cannot be saved, or null once it is saved
/// again (the same text as `status.storage_error`).
public struct StorageStatus: Sendable, Hashable, Codable {
    public var error: String?

    public init(error: String?) {
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case error }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(error, forKey: .error)
    }
}

/// `queue` event data.
public struct QueueChange: Sendable, Hashable, Codable {
    public var length: Int
    public var modified: Bool
    public init(length: Int, modified: Bool) {
        self.length = length
        self.modified = modified
    }
}

/// `scan` event data.
public struct ScanProgressUpdate: Sendable, Hashable, Codable {
    /// Files looked at so far.
    public var seen: Int
    /// Files to look at, when known.
    public var total: Int?
    /// Files per second.
    public var rate: Double
    public var done: Bool

    public init(seen: Int, total: Int?, rate: Double, done: Bool) {
        self.seen = seen
        self.total = total
        self.rate = rate
        self.done = done
    }

    enum CodingKeys: String, CodingKey { case seen, total, rate, done }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seen, forKey: .seen)
        try container.encode(total, forKey: .total)
        try container.encode(rate.isFinite ? (rate * 10).rounded() / 10 : 0, forKey: .rate)
        try container.encode(done, forKey: .done)
    }
}

/// A pushed line: `{"event": "player", "data": status}`.
public enum Event: Sendable, Hashable {
    case player(Status)
    case queue(QueueChange)
    case scan(ScanProgressUpdate)
    case error(SkippedEntry)
    /// Sent as an `error` event whose data names the output instead of an entry.
    case outputError(OutputFailure)
    case storage(StorageStatus)
    case alarm(AlarmFired)
    case playlists(PlaylistsChanged)
    case level(LevelReading)

    public var kind: EventKind {
        switch self {
        case .player: .player
        case .queue: .queue
        case .scan: .scan
        case .error, .outputError: .error
        case .storage: .storage
        case .alarm: .alarm
        case .playlists: .playlists
        case .level: .level
        }
    }
}

extension Event: Codable {
    enum CodingKeys: String, CodingKey { case event, data }
    private enum ErrorKeys: String, CodingKey { case output }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(EventKind.self, forKey: .event) {
        case .player: self = .player(try container.decode(Status.self, forKey: .data))
        case .queue: self = .queue(try container.decode(QueueChange.self, forKey: .data))
        case .scan: self = .scan(try container.decode(ScanProgressUpdate.self, forKey: .data))
        case .error:
            let data = try container.nestedContainer(keyedBy: ErrorKeys.self, forKey: .data)
            self =
                data.contains(.output)
                ? .outputError(try container.decode(OutputFailure.self, forKey: .data))
                : .error(try container.decode(SkippedEntry.self, forKey: .data))
        case .storage: self = .storage(try container.decode(StorageStatus.self, forKey: .data))
        case .alarm: self = .alarm(try container.decode(AlarmFired.self, forKey: .data))
        case .playlists: self = .playlists(try container.decode(PlaylistsChanged.self, forKey: .data))
        case .level: self = .level(try container.decode(LevelReading.self, forKey: .data))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .event)
        switch self {
        case .player(let status): try container.encode(status, forKey: .data)
        case .queue(let change): try container.encode(change, forKey: .data)
        case .scan(let progress): try container.encode(progress, forKey: .data)
        case .error(let skipped): try container.encode(skipped, forKey: .data)
        case .outputError(let failure): try container.encode(failure, forKey: .data)
        case .storage(let storage): try container.encode(storage, forKey: .data)
        case .alarm(let fired): try container.encode(fired, forKey: .data)
        case .playlists(let changed): try container.encode(changed, forKey: .data)
        case .level(let level): try container.encode(level, forKey: .data)
        }
    }
}
