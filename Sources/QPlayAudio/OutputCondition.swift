/// One output as status shows it: its name, whether it takes samples, and why not.
public struct OutputCondition: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Takes samples (or is closed while nothing plays).
        case ok
        /// Open, but took no samples for `PlaybackTuning.stallLimit`: the first output
        /// holds playback until it takes them again; another output drops what it is
        /// given meanwhile.
        case stalled
        /// Did not open or a write failed: retried with backoff.
        case failed
    }

    /// As the user names it (`alsa:default`, `pipe:/tmp/snapfifo`).
    public var name: String
    public var state: State
    /// Why it is not `ok`, beginning with the output's name.
    public var error: String?

    public init(name: String, state: State = .ok, error: String? = nil) {
        self.name = name
        self.state = state
        self.error = error
    }
}
