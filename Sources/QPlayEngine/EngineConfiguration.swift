/// The engine's tunables (defaults as docs/BEHAVIOUR.md states them).
public struct EngineConfiguration: Sendable {
    /// A press shorter than this is a tap; from this moment on it is a hold that scans.
    public var tapThreshold: Duration
    /// Scan speed as a multiple of real time.
    public var scanRate: Double
    /// A press that is never released ends itself after this long.
    public var maxHold: Duration
    /// A previous-tap restarts the track when more than this many seconds have played.
    public var restartAfter: Double
    /// Seed of the shuffle order; nil seeds from the system's random source. Tests pass one
    /// so that orders are reproducible.
    public var shuffleSeed: UInt64?
    /// The most entries the collection may hold; an `add` past it is refused whole
    /// (`EngineError.queueFull`). Each entry holds its track (about half a kilobyte), and
    /// a modified collection lives beside the installed queue until the next track change,
    /// so a bound keeps one careless `add` of a huge library from exhausting memory.
    public var maxQueueLength: Int
    /// Seconds the sleep timer's fade to silence lasts (0: it pauses at once).
    public var sleepFade: Double
    /// Tracks longer than this many seconds remember where they were left and resume
    /// there (audiobooks, podcasts, long mixes).
    public var resumeMinDuration: Double

    /// Twice the 100,000 entries the engine is measured with (`scripts/bench queue`);
    /// MPD's default `max_playlist_length` is 16,384.
    public static let defaultMaxQueueLength = 200_000

    public init(
        tapThreshold: Duration = .milliseconds(300), scanRate: Double = 4,
        maxHold: Duration = .seconds(30), restartAfter: Double = 3, shuffleSeed: UInt64? = nil,
        maxQueueLength: Int = defaultMaxQueueLength, sleepFade: Double = 10,
        resumeMinDuration: Double = 600
    ) {
        self.resumeMinDuration = resumeMinDuration
        self.sleepFade = sleepFade
        self.tapThreshold = tapThreshold
        self.scanRate = scanRate
        self.maxHold = maxHold
        self.restartAfter = restartAfter
        self.shuffleSeed = shuffleSeed
        self.maxQueueLength = maxQueueLength
    }
}
