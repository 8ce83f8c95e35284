/// Whether sound is coming out.
public enum PlayerState: String, Sendable, Hashable, Codable, CaseIterable {
    case playing, paused, stopped
}

public enum RepeatMode: String, Sendable, Hashable, Codable, CaseIterable {
    case off, one, all
}

/// The direction of a held next/previous button's scan.
public enum Seeking: String, Sendable, Hashable, Codable, CaseIterable {
    case none, forward, backward
}

/// Whether an audio output takes samples: `stalled` is open but took none for half a
/// second (the first output holds playback meanwhile; another drops what it is given);
/// `failed` did not open or a write failed, and is retried.
public enum OutputState: String, Sendable, Hashable, Codable, CaseIterable {
    case ok, stalled, failed
}

/// An audio output: its name, its state and the error it has now, if any.
public struct OutputStatus: Sendable, Hashable, Codable {
    public var name: String
    public var error: String?
    public var state: OutputState

    /// `state` defaults to what `error` implies (a daemon from before it was sent).
    public init(name: String, error: String? = nil, state: OutputState? = nil) {
        self.name = name
        self.error = error
        self.state = state ?? (error == nil ? .ok : .failed)
    }

    enum CodingKeys: String, CodingKey { case name, error, state }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            error: try container.decodeIfPresent(String.self, forKey: .error),
            state: try container.decodeIfPresent(OutputState.self, forKey: .state))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(error, forKey: .error)
        try container.encode(state, forKey: .state)
    }
}

/// The player's state (`status` result and `player` event data).
public struct Status: Sendable, Hashable, Codable {
    public var state: PlayerState
    public var track: Track?
    /// The entry id of what is playing.
    public var entry: Int64?
    /// 0-based position of the current entry in the queue the user sees.
    public var index: Int?
    /// Seconds into the current track; null when there is none.
    public var position: Double?
    /// Seconds; null when there is no current track.
    public var duration: Double?
    public var queueLength: Int
    /// The queue was edited and is installed at the next track change.
    public var queueModified: Bool
    /// 0–100.
    public var volume: Int
    public var `repeat`: RepeatMode
    public var shuffle: Bool
    /// With repeat off, playback stops after the current track (MPD's single mode).
    public var single: Bool
    /// Entries leave the queue once played (MPD's consume mode).
    public var consume: Bool
    public var seeking: Seeking
    /// The first output: the clock playback keeps to.
    public var output: OutputStatus
    /// Every output, the first first; nil only when decoding a status without it.
    public var outputs: [OutputStatus]?
    /// Why the player state cannot be saved now (the file and SQLite's reason), nil
    /// while saves work. Edits still take effect; they are saved when the disk works again.
    public var storageError: String?
    /// Always sent by the daemon; nil only when decoding a status without it.
    public var replayGain: ReplayGainStatus?
    /// The sleep timer; nil when none is set.
    public var sleep: SleepStatus?
    /// The output's last level reading while playing (`level` events); nil otherwise.
    public var level: LevelReading?
    /// The playing track's chapters in order; nil when it has none.
    public var chapters: [ChapterInfo]?
    /// The 0-based index in `chapters` of the chapter at `position`; nil when there are
    /// no chapters or the first has not begun.
    public var chapter: Int?
    /// True while the current entry is a stream (a URL entry); absent otherwise.
    public var stream: Bool?
    /// With `stream`: the stream plays silence for want of bytes (its buffer ran dry,
    /// or it is being connected again); absent when the entry is no stream.
    public var buffering: Bool?

    public init(
        state: PlayerState, track: Track? = nil, entry: Int64? = nil, index: Int? = nil,
        position: Double? = nil, duration: Double? = nil, queueLength: Int = 0,
        queueModified: Bool = false, volume: Int = 100, repeat: RepeatMode = .off,
        shuffle: Bool = false, single: Bool = false, consume: Bool = false, seeking: Seeking = .none, output: OutputStatus, storageError: String? = nil,
        replayGain: ReplayGainStatus? = nil, sleep: SleepStatus? = nil, level: LevelReading? = nil,
        stream: Bool? = nil, buffering: Bool? = nil,
        chapters: [ChapterInfo]? = nil, chapter: Int? = nil, outputs: [OutputStatus]? = nil
    ) {
        self.outputs = outputs
        self.stream = stream
        self.buffering = buffering
        self.chapters = chapters
        self.chapter = chapter
        self.sleep = sleep
        self.state = state
        self.track = track
        self.entry = entry
        self.index = index
        self.position = position
        self.duration = duration
        self.queueLength = queueLength
        self.queueModified = queueModified
        self.volume = volume
        self.repeat = `repeat`
        self.shuffle = shuffle
        self.single = single
        self.consume = consume
        self.seeking = seeking
        self.output = output
        self.storageError = storageError
        self.replayGain = replayGain
        self.level = level
    }

    enum CodingKeys: String, CodingKey {
        case state, track, entry, index, position, duration, queueLength = "queue_length"
        case queueModified = "queue_modified", volume, `repeat`, shuffle, single, consume, seeking, output
        case storageError = "storage_error"
        case replayGain = "replaygain"
        case sleep
        case level
        case chapters, chapter
        case stream, buffering
        case outputs
    }

    /// `single` and `consume` may be absent (a daemon from before they existed): off.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        state = try container.decode(PlayerState.self, forKey: .state)
        track = try container.decodeIfPresent(Track.self, forKey: .track)
        entry = try container.decodeIfPresent(Int64.self, forKey: .entry)
        index = try container.decodeIfPresent(Int.self, forKey: .index)
        position = try container.decodeIfPresent(Double.self, forKey: .position)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration)
        queueLength = try container.decode(Int.self, forKey: .queueLength)
        queueModified = try container.decode(Bool.self, forKey: .queueModified)
        volume = try container.decode(Int.self, forKey: .volume)
        self.repeat = try container.decode(RepeatMode.self, forKey: .repeat)
        shuffle = try container.decode(Bool.self, forKey: .shuffle)
        single = try container.decodeIfPresent(Bool.self, forKey: .single) ?? false
        consume = try container.decodeIfPresent(Bool.self, forKey: .consume) ?? false
        seeking = try container.decode(Seeking.self, forKey: .seeking)
        output = try container.decode(OutputStatus.self, forKey: .output)
        outputs = try container.decodeIfPresent([OutputStatus].self, forKey: .outputs)
        storageError = try container.decodeIfPresent(String.self, forKey: .storageError)
        replayGain = try container.decodeIfPresent(ReplayGainStatus.self, forKey: .replayGain)
        sleep = try container.decodeIfPresent(SleepStatus.self, forKey: .sleep)
        level = try container.decodeIfPresent(LevelReading.self, forKey: .level)
        chapters = try container.decodeIfPresent([ChapterInfo].self, forKey: .chapters)
        chapter = try container.decodeIfPresent(Int.self, forKey: .chapter)
        stream = try container.decodeIfPresent(Bool.self, forKey: .stream)
        buffering = try container.decodeIfPresent(Bool.self, forKey: .buffering)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(track, forKey: .track)
        try container.encode(entry, forKey: .entry)
        try container.encode(index, forKey: .index)
        try container.encode(position.map(Seconds.rounded), forKey: .position)
        try container.encode(duration.map(Seconds.rounded), forKey: .duration)
        try container.encode(queueLength, forKey: .queueLength)
        try container.encode(queueModified, forKey: .queueModified)
        try container.encode(volume, forKey: .volume)
        try container.encode(self.repeat, forKey: .repeat)
        try container.encode(shuffle, forKey: .shuffle)
        try container.encode(single, forKey: .single)
        try container.encode(consume, forKey: .consume)
        try container.encode(seeking, forKey: .seeking)
        try container.encode(output, forKey: .output)
        try container.encode(outputs, forKey: .outputs)
        try container.encode(storageError, forKey: .storageError)
        try container.encode(replayGain, forKey: .replayGain)
        try container.encode(sleep, forKey: .sleep)
        try container.encode(level, forKey: .level)
        try container.encode(chapters, forKey: .chapters)
        try container.encode(chapter, forKey: .chapter)
        try container.encodeIfPresent(stream, forKey: .stream)
        try container.encodeIfPresent(buffering, forKey: .buffering)
    }
}
