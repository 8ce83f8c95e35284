import QPlayEngine
import QPlayModel
import SystemPackage

/// The injectable clock: time moves only when a test says so.
struct FakeClock {
    var now: Duration = .seconds(1000)

    mutating func advance(_ step: Duration) {
        now += step
    }
}

/// Tracks named after a letter, each `seconds` long, with distinct ids and paths.
func track(_ name: String, id: TrackID? = nil, seconds: Double = 180) -> Track {
    Track(
        id: id ?? TrackID(name.unicodeScalars.first!.value), path: FilePath("Music/\(name).mp3"),
        title: name, duration: seconds)
}

func tracks(_ names: String...) -> [Track] {
    names.map { track($0) }
}

/// An engine driven by a fake clock, with the position of the current track as the
/// audio side would report it. Commands go through and hand back the engine's output.
struct Harness {
    var engine: PlayerEngine
    var clock = FakeClock()
    var position: Double = 0
    var audio = SimulatedAudio()

    init(_ configuration: EngineConfiguration = EngineConfiguration(shuffleSeed: 42)) {
        engine = PlayerEngine(configuration: configuration)
    }

    var status: EngineStatus { engine.status(position: position) }
    var titles: [String] { engine.queue.entries.map(\.track.title) }
    var nowPlaying: String? { status.track?.title }

    /// Adds and sends the output to the simulated audio side.
    @discardableResult
    mutating func add(_ tracks: [Track], at index: Int? = nil, startsWhenEmpty: Bool = true) throws
        -> (added: Int, started: Bool, entries: [EntryID], output: EngineOutput)
    {
        let result = try engine.add(
            tracks, at: index, startsWhenEmpty: startsWhenEmpty, now: clock.now, position: position)
        send(result.output)
        return result
    }

    /// Runs an engine command at the clock's time and the current position, sends its
    /// output to the simulated audio side and returns it.
    @discardableResult
    mutating func act(_ command: (inout PlayerEngine, Duration, Double) throws -> EngineOutput) rethrows
        -> EngineOutput
    {
        let output = try command(&engine, clock.now, position)
        send(output)
        return output
    }

    /// A request as the engine makes it: `token` and the collection row `index`.
    func request(_ token: UInt64, _ index: Int) -> PlaybackRequest {
        PlaybackRequest(token: token, entry: engine.queue.entries[index])
    }

    /// Entry id of the collection row `index`.
    func entry(_ index: Int) -> EntryID {
        engine.queue.entries[index].id
    }

    /// The request of the last `play` in `output`.
    static func played(_ output: EngineOutput) -> PlaybackRequest? {
        output.audio.reversed().lazy.compactMap { command -> PlaybackRequest? in
            if case .play(let request, _, _) = command { return request }
            return nil
        }.first
    }

    /// The request of the last `setNext` in `output` (outer nil: none sent).
    static func announced(_ output: EngineOutput) -> PlaybackRequest?? {
        output.audio.reversed().lazy.compactMap { command -> PlaybackRequest?? in
            if case .setNext(let request) = command { return .some(request) }
            return nil
        }.first
    }
}
