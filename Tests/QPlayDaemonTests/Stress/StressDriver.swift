import Foundation
import QPlayTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// How one seed runs.
struct StressOptions: Sendable {
    var seed: UInt64
    var steps: Int
    /// Two busy-looping shells beside the daemon for the whole run.
    var hogs: Bool
    /// Damage files (off: only commands, to tell the model's problems from the files').
    var faults = true
    /// Leave the daemon's folder (capture, log, state) and the music folder of a failed
    /// seed in place for a closer look.
    var keepFailed = false
    /// How long a response, an event the daemon owes or a process exit may take before
    /// the daemon counts as hung. Only a guard: nothing is measured against it.
    var hangLimit: Double = 15
    /// How long "playing" may go without the position moving or the capture growing.
    /// The audio rules (docs/BEHAVIOUR.md) want them to move at once (the output is written every 100 ms); twice the
    /// second that allows is room enough for a loaded machine without hiding a decoder
    /// that searches a file of zeros for seconds while status says playing.
    var stallLimit: Double = 2
}

/// What one seed did and found.
struct SeedResult: Sendable {
    var seed: UInt64
    var hogs: Bool
    var steps = 0
    var faults = 0
    var restores = 0
    var errorEvents = 0
    var obligations = 0
    var changes = 0
    var predicted = 0
    var statusChecks = 0
    var queueChecks = 0
    /// Tones heard in the capture and matched to entries (0 when the run stopped early).
    var tonesHeard = 0
    var seconds = 0.0
    var failures: [StressFailure] = []
    var report: String?
}

/// One seed against a real qplayd: random steps (commands, file damage, waits) with the
/// checks of docs/arch/e2e.md after each, then the checks of the whole run. Stops at the
/// first failure (a missing error event only is noted and the run goes on) and reports
/// it with what is needed to replay it.
final class StressRun {
    private let options: StressOptions
    private let fixtures = ToneFixtures.standard
    private var random: SplitMix64
    private var model: StressModel
    private var outcome: SeedResult
    private var log: [String] = []
    private var stepIndex = 0
    /// Lines of the main connection taken so far: positions in its stream.
    private var seq = 0
    private var lastStatus: [String: Any] = [:]
    /// Scans asked for whose `done` event has not come: the library may change meanwhile.
    private var scansRunning = 0
    /// A missing error event was reported already: the run goes on (what else happens
    /// matters more than another such report), and later ones are only counted at the end
    /// rather than waited for after every step.
    private var errorEventsMissing = false
    /// What the test set; every status answered after the setting must show it. (The
    /// model takes the daemon's own values from the events, in the order they changed.)
    private var volumeSet = 100
    private var repeatSet = "off"
    private var shuffleSet = false

    private var daemon: DaemonProcess!
    private var main: StressConnection!
    private var other: StressConnection!
    private var files: FixtureFiles!

    init(options: StressOptions) {
        self.options = options
        random = SplitMix64(seed: options.seed)
        model = StressModel(fixtures: ToneFixtures.standard)
        outcome = SeedResult(seed: options.seed, hogs: options.hogs)
    }

    // MARK: The run

    func run(fixtureSource: String) -> SeedResult {
        let started = monotonicSeconds()
        let music = TemporaryDirectory("qplay-stress-music")
        var hogs: CPUHogs?
        do {
            files = try FixtureFiles(directory: music.path.string, fixtures: fixtures, goodCopiesIn: fixtureSource)
            daemon = DaemonProcess(music: music.path.string)
            try daemon.start()
            try daemon.waitForLibrary()
            if options.hogs {
                hogs = try CPUHogs(count: 2)
            }
            main = try StressConnection(path: daemon.socketPath)
            other = try StressConnection(path: daemon.socketPath)
            _ = try request("subscribe", nil, .other("subscribe"))
            while stepIndex < options.steps {
                stepIndex += 1
                model.step = stepIndex
                try step(StepDraws(&random))
                outcome.steps = stepIndex
            }
            try finish()
        } catch let failure as StressFailure {
            fail(failure)
        } catch {
            fail(StressFailure(kind: "harness", message: "\(error)"))
        }
        // Every way out of the run passes here (failures are caught above), so the busy
        // loops never outlive it.
        hogs?.stop()
        main?.close()
        other?.close()
        daemon?.kill9()
        if options.keepFailed, outcome.report != nil {
            outcome.report! += "\nkept: \(daemon?.directory.path.string ?? "–") (capture, log), \(music.path.string) (music)"
        } else {
            daemon?.directory.remove()
            music.remove()
        }
        outcome.obligations = model.obligationCount
        outcome.changes = model.changes
        outcome.predicted = model.predictedChanges
        outcome.seconds = monotonicSeconds() - started
        return outcome
    }

    private func fail(_ failure: StressFailure) {
        outcome.failures.append(failure)
        if let report = outcome.report {
            outcome.report = report + "\nthen, at step \(stepIndex): \(failure)"
            return
        }
        let logTail = (daemon?.log ?? "").split(separator: "\n", omittingEmptySubsequences: false).suffix(30)
        let status = (try? JSONSerialization.data(withJSONObject: lastStatus, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "–"
        outcome.report = """
            stress seed \(options.seed)\(options.hogs ? " (with CPU hogs)" : "") failed at step \(stepIndex) of \(options.steps): \(failure)
            replay: QPLAY_STRESS_SEED=\(options.seed) QPLAY_STRESS_SEEDS=1 swift test --filter StressTests
            last steps:
            \(log.suffix(20).map { "  " + $0 }.joined(separator: "\n"))
            last status: \(status)
            model: queue \(model.collection), installed \(model.installed)\(model.modified ? " (modified)" : ""), current \(model.current.map(String.init) ?? "–") \(model.state), files \(fileSummary)
            qplayd log (last lines):
            \(logTail.map { "  " + $0 }.joined(separator: "\n"))
            """
    }

    private var fileSummary: String {
        model.files.enumerated().compactMap { index, file in file.fault.map { "\(index + 1):\($0.rawValue)" } }
            .joined(separator: " ").ifEmpty("all good")
    }

    private func note(_ text: String) {
        log.append("#\(stepIndex) \(text)")
        if log.count > 40 { log.removeFirst(log.count - 40) }
    }

    // MARK: Lines and requests

    /// Takes lines until the response to `id`, handing every event to the model; the
    /// first response must be that one (responses come in request order).
    private func response(to id: Int, _ what: String, limit: Double? = nil) throws -> [String: Any] {
        let deadline = monotonicSeconds() + (limit ?? options.hangLimit)
        while true {
            guard let line = try main.nextLine(until: deadline) else {
                throw StressFailure(
                    kind: "hang", message: "no response to request \(id) (\(what)) within \(limit ?? options.hangLimit) s")
            }
            if let response = try take(line) {
                guard response["id"] as? Int == id else {
                    throw StressFailure(kind: "response", message: "expected the response to request \(id), got \(line.text)")
                }
                return response
            }
        }
    }

    /// One line of the main connection: events go to the model; a response is returned.
    private func take(_ line: StampedLine) throws -> [String: Any]? {
        seq += 1
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any] else {
            throw StressFailure(kind: "response", message: "not a JSON object: \(line.text)")
        }
        guard let event = object["event"] as? String else { return object }
        let data = object["data"] as? [String: Any] ?? [:]
        switch event {
        case "player":
            let entry = data["entry"] as? Int
            let path = (data["track"] as? [String: Any])?["path"] as? String
            let state = data["state"] as? String ?? "?"
            model.options(
                repeatMode: data["repeat"] as? String ?? model.repeatMode, shuffle: data["shuffle"] as? Bool ?? model.shuffle)
            try model.playerEvent(
                entry: entry, path: path, state: state, position: number(data["position"]), at: line.at, seq: seq)
        case "queue":
            try model.queueEvent(length: data["length"] as? Int ?? -1, modified: data["modified"] as? Bool ?? false)
        case "error":
            outcome.errorEvents += 1
            let entry = data["entry"] as? Int ?? -1
            let path = (data["track"] as? [String: Any])?["path"] as? String ?? "?"
            let reason = data["reason"] as? String ?? "?"
            note("error event: entry \(entry) \(path): \(reason)")
            try model.errorEvent(entry: entry, path: path, reason: reason, seq: seq)
        case "scan":
            if data["done"] as? Bool == true { scansRunning = max(0, scansRunning - 1) }
        default:
            break
        }
        return nil
    }

    /// Sends a request on the main connection with the model told what is in flight,
    /// and returns its response.
    private func request(_ cmd: String, _ args: [String: Any]?, _ command: InFlight, limit: Double? = nil) throws
        -> [String: Any]
    {
        try checkAlive()
        let changes = changesCollection(command)
        model.sending(command, seq: seq)
        let id = try main.send(cmd, args)
        let response = try self.response(to: id, "\(cmd)\(args.map { " " + Self.text($0) } ?? "")", limit: limit)
        try model.responded(effective: response["ok"] as? Bool == true && changes)
        return response
    }

    /// Whether an edit, if it succeeds, changes the collection (no-ops publish nothing).
    private func changesCollection(_ command: InFlight) -> Bool {
        switch command {
        case .move(let from, let to): from != to
        case .clear: !model.collection.isEmpty
        default: true
        }
    }

    private func result(of response: [String: Any], _ what: String) throws -> [String: Any] {
        guard response["ok"] as? Bool == true, let result = response["result"] as? [String: Any] else {
            throw StressFailure(kind: "response", message: "\(what) failed: \(Self.text(response))")
        }
        return result
    }

    private func errorCode(_ response: [String: Any]) -> String? {
        guard response["ok"] as? Bool == false else { return nil }
        return (response["error"] as? [String: Any])?["code"] as? String ?? "?"
    }

    static func text(_ object: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "\(object)"
    }

    private func checkAlive() throws {
        guard daemon.isRunning else {
            throw StressFailure(kind: "died", message: "qplayd is no longer running (exit status \(daemon.stop()))")
        }
    }

    /// Takes lines until `deadline` without a request outstanding.
    private func pump(until deadline: Double) throws {
        while let line = try main.nextLine(until: deadline) {
            if let response = try take(line) {
                throw StressFailure(kind: "response", message: "a response nobody asked for: \(Self.text(response))")
            }
        }
    }

    // MARK: Checks

    /// A status answer (of `status` or a command) against the model: it was taken at one of
    /// the moments since the request was sent, and options and queue length are the test's.
    private func checkStatus(_ status: [String: Any], _ what: String) throws {
        lastStatus = status
        outcome.statusChecks += 1
        let snapshot = StressModel.Snapshot(
            entry: status["entry"] as? Int, state: status["state"] as? String ?? "?",
            length: status["queue_length"] as? Int ?? -1, modified: status["queue_modified"] as? Bool ?? false)
        guard model.recentStates.contains(snapshot) else {
            throw StressFailure(
                kind: "status",
                message: "\(what) answered \(snapshot), but the events since it was sent say \(model.recentStates.map(\.description).joined(separator: ", then "))")
        }
        let volume = status["volume"] as? Int
        let repeatMode = status["repeat"] as? String
        let shuffle = status["shuffle"] as? Bool
        guard volume == volumeSet, repeatMode == repeatSet, shuffle == shuffleSet else {
            throw StressFailure(
                kind: "status",
                message: "\(what): volume \(volume ?? -1), repeat \(repeatMode ?? "?"), shuffle \(shuffle.map(String.init) ?? "?"); the test set \(volumeSet), \(repeatSet), \(shuffleSet)")
        }
        // No current entry: no position.
        guard let position = number(status["position"]) else {
            guard status["entry"] is NSNull else {
                throw StressFailure(kind: "status", message: "\(what): an entry without a position: \(Self.text(status))")
            }
            return
        }
        let duration = number(status["duration"])
        if position < 0 || (duration.map { position > $0 + 0.05 } ?? false) {
            throw StressFailure(kind: "status", message: "\(what): position \(position) outside the track (\(duration ?? -1) s)")
        }
    }

    /// A `status` request on the main connection: every event written before it was
    /// taken comes before its answer (the barrier the file checks rely on).
    @discardableResult
    private func barrier() throws -> [String: Any] {
        let status = try result(of: try request("status", nil, .other("status")), "status")
        try checkStatus(status, "status")
        return status
    }

    /// The queue the daemon reports equals the model's collection (entries and their
    /// files); its flag and current entry fit the events.
    private func checkQueue() throws {
        let queue = try result(of: try request("queue", nil, .other("queue")), "queue")
        let entries = (queue["entries"] as? [[String: Any]] ?? []).map { entry -> (entry: Int, fixture: Int) in
            let path = (entry["track"] as? [String: Any])?["path"] as? String ?? "?"
            return (entry["entry"] as? Int ?? -1, model.fixtureByPath[path] ?? -1)
        }
        try model.bind(entries: entries)
        outcome.queueChecks += 1
        let current = queue["current"] as? Int
        let modified = queue["modified"] as? Bool ?? false
        guard model.recentStates.contains(where: { $0.entry == current && $0.modified == modified }) else {
            throw StressFailure(
                kind: "queue",
                message: "queue answered current \(current.map(String.init) ?? "–"), modified \(modified); the events say \(model.recentStates.map(\.description).joined(separator: ", then "))")
        }
    }

    /// docs/BEHAVIOUR.md, Audio: "playing" means the position moves and samples reach the output. From a
    /// status saying playing, polls until both have moved (or it no longer plays).
    private func checkNotStalled(_ start: [String: Any]) throws {
        guard start["state"] as? String == "playing", (start["output"] as? [String: Any])?["error"] is NSNull else {
            return
        }
        let entry = start["entry"] as? Int
        let position = number(start["position"]) ?? 0
        // A file cut to a few KB can hold less audio than the output's buffer (0.2 s).
        // Repeated (repeat one), each replay is handed out — and becomes the request
        // status describes — before the one before it is heard, so its position stays 0
        // while its audio flows: for such an entry a growing capture is the movement.
        let shortFile = entry.flatMap(model.fixture(ofEntry:)).map { model.files[$0].fault == .truncate } ?? false
        let size = captureSize()
        let began = monotonicSeconds()
        var status = start
        var stalled: String?
        // Past the limit the check has failed; polling on (to the hang limit) only tells
        // the report whether and when playback moved again.
        while monotonicSeconds() - began < options.hangLimit {
            let grew = captureSize() > size
            let moved = number(status["position"]) != position || status["entry"] as? Int != entry
            if status["state"] as? String != "playing" || (grew && (moved || shortFile)) { break }
            if stalled == nil, monotonicSeconds() - began >= options.stallLimit {
                let what = [moved ? nil : "the position did not move", grew ? nil : "the capture did not grow"]
                stalled = "status says playing e\(entry.map(String.init) ?? "–") at \(position) s, but for \(options.stallLimit) s \(what.compactMap { $0 }.joined(separator: " and ")) (then: \(Self.text(status)))"
            }
            try pump(until: monotonicSeconds() + 0.1)
            status = try barrier()
        }
        guard let stalled else { return }
        let after = monotonicSeconds() - began
        let outcome =
            status["state"] as? String != "playing" || after < options.hangLimit
            ? String(format: "; it moved on after %.1f s (%@)", after, Self.brief(status))
            : String(format: "; still so after %.0f s", options.hangLimit)
        throw StressFailure(kind: "stall", message: stalled + outcome)
    }

    private func captureSize() -> Int {
        var info = stat()
        return stat(daemon.capturePath, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Error events the daemon owes must come (within the hang limit). The first one
    /// missing is reported and the run goes on; the rest are counted at its end.
    private func checkObligations(atEnd: Bool = false) throws {
        var open = model.openObligations()
        guard !open.isEmpty, !errorEventsMissing || atEnd else { return }
        let deadline = monotonicSeconds() + (errorEventsMissing ? 0 : options.hangLimit)
        while !open.isEmpty, monotonicSeconds() < deadline {
            try pump(until: min(deadline, monotonicSeconds() + 0.2))
            open = model.openObligations()
        }
        guard let first = open.first else { return }
        let more = open.count > 1 ? " (and \(open.count - 1) more)" : ""
        fail(
            StressFailure(
                kind: "error-event-missing",
                message: "no error event within \(options.hangLimit) s for \(first) (step \(first.step))\(more)"))
        errorEventsMissing = true
        model.forgetObligations()
    }

    // MARK: Steps

    private enum Action: CaseIterable {
        case addIDs, addPaths, addQuery, remove, move, jump, clear, next, previous, tap, hold
        case seekTo, seekBy, pause, toggle, play, stop, volume, repeatMode, shuffle, update
        case damage, restore, waitForEnd, queue

        var weight: Int {
            switch self {
            case .addIDs: 9
            case .addPaths: 5
            case .addQuery: 3
            case .remove: 7
            case .move: 5
            case .jump: 6
            case .clear: 2
            case .next: 7
            case .previous: 5
            case .tap: 4
            case .hold: 3
            case .seekTo: 5
            case .seekBy: 4
            case .pause, .toggle: 3
            case .play: 4
            case .stop: 1
            case .volume: 4
            case .repeatMode, .shuffle, .update: 3
            case .damage: 9
            case .restore: 8
            case .waitForEnd: 4
            case .queue: 2
            }
        }

        static func pick(_ value: Int) -> Action {
            var left = value % allCases.reduce(0) { $0 + $1.weight }
            for action in allCases {
                if left < action.weight { return action }
                left -= action.weight
            }
            return .queue
        }
    }

    private func step(_ draws: StepDraws) throws {
        var action = Action.pick(draws.pick(0, 1 << 20))
        // An empty queue mostly fills again, or there is little to stress.
        if model.collection.isEmpty, draws.chance(1, percent: 70) { action = .addIDs }
        if !options.faults, action == .damage || action == .restore { action = .queue }
        note("\(action)")
        try perform(action, draws)
        try checkAlive()
        let status = try barrier()
        model.fileChangesKnown(seq: seq)
        try checkObligations()
        try checkNotStalled(status)
        // A few hundred ms between steps, sometimes none.
        try pump(until: monotonicSeconds() + Double(draws.pick(7, in: 0...400)) / 1000)
    }

    private func perform(_ action: Action, _ draws: StepDraws) throws {
        switch action {
        case .addIDs: try addIDs(draws)
        case .addPaths: try addPaths(draws)
        case .addQuery: try addQuery(draws)
        case .remove: try remove(draws)
        case .move: try move(draws)
        case .jump: try jump(draws)
        case .clear:
            let response = try request("clear", nil, .clear)
            _ = try result(of: response, "clear")
            note("clear")
            try checkQueue()
        case .next: try transport("next", .next)
        case .previous: try transport("previous", .previous)
        case .tap, .hold: try buttons(draws, hold: action == .hold)
        case .seekTo, .seekBy: try seek(draws, absolute: action == .seekTo)
        case .pause: try transport("pause", .other("pause"))
        case .toggle: try transport("toggle", .play)
        case .play: try transport("play", .play)
        case .stop: try transport("stop", .other("stop"))
        case .volume: try volume(draws)
        case .repeatMode, .shuffle: try mode(draws, repeatOnly: action == .repeatMode)
        case .update: try update(draws)
        case .damage: try damage(draws)
        case .restore: try restore(draws)
        case .waitForEnd: try waitForEnd()
        case .queue:
            note("queue")
            try checkQueue()
        }
    }

    /// `add` of tracks the library holds, by id (found with a search first).
    private func addIDs(_ draws: StepDraws) throws {
        let search = try result(of: try request("search", ["where": []], .other("search")), "search")
        let tracks = (search["tracks"] as? [[String: Any]] ?? []).compactMap { track -> (id: Int, fixture: Int)? in
            guard let id = track["id"] as? Int, let path = track["path"] as? String,
                let fixture = model.fixtureByPath[path]
            else { return nil }
            return (id, fixture)
        }
        guard !tracks.isEmpty else {
            note("add by id: the library is empty")
            return
        }
        let count = draws.pick(2, in: 1...3)
        let chosen = (0..<count).map { tracks[draws.pick(3 + $0, tracks.count)] }
        try add(["ids": chosen.map(\.id)], fixtures: chosen.map(\.fixture), "add ids")
    }

    /// `add` by paths, whether or not the library holds them now.
    private func addPaths(_ draws: StepDraws) throws {
        let count = draws.pick(2, in: 1...2)
        let chosen = (0..<count).map { draws.pick(3 + $0, fixtures.count) }
        try add(["paths": chosen.map { fixtures[$0].file }], fixtures: chosen, "add paths")
    }

    /// `add` by a query; a search with the same query says which tracks it adds.
    private func addQuery(_ draws: StepDraws) throws {
        let value = draws.chance(2, percent: 30) ? "tone" : "Tone \(draws.pick(3, fixtures.count) + 1)"
        let query: [String: Any] = ["where": [["property": "title", "op": "contains", "value": value]]]
        let search = try result(of: try request("search", query, .other("search")), "search")
        let fixtures = (search["tracks"] as? [[String: Any]] ?? []).compactMap {
            ($0["path"] as? String).flatMap { model.fixtureByPath[$0] }
        }
        guard !fixtures.isEmpty, scansRunning == 0 else {
            note("add where title ~ \(value): skipped (\(fixtures.isEmpty ? "no match" : "a scan runs"))")
            return
        }
        try add(query, fixtures: fixtures, "add where title ~ \(value)")
    }

    private func add(_ args: [String: Any], fixtures: [Int], _ what: String) throws {
        let wasEmpty = model.collection.isEmpty
        let response = try request("add", args, .add(fixtures: fixtures))
        let names = fixtures.map { "\($0 + 1)" }.joined(separator: ",")
        if let code = errorCode(response) {
            // The library may not hold a damaged file any more, or a scan may be dropping it.
            guard code == "not_found" || (code == "no_match" && scansRunning > 0) else {
                throw StressFailure(kind: "response", message: "\(what) [\(names)]: \(Self.text(response))")
            }
            note("\(what) [\(names)]: \(code)")
            return
        }
        let added = try result(of: response, what)
        note("\(what) [\(names)]: \(Self.text(added))")
        guard added["added"] as? Int == fixtures.count, added["started"] as? Bool == wasEmpty else {
            throw StressFailure(
                kind: "response",
                message: "\(what) of \(fixtures.count) to a\(wasEmpty ? "n empty" : " non-empty") queue answered \(Self.text(added))")
        }
        try checkQueue()
    }

    private func remove(_ draws: StepDraws) throws {
        let count = model.collection.count
        let kind = draws.pick(2, 10)
        if kind == 0 || count == 0 {
            let index = count + draws.pick(3, 3)
            let response = try request("remove", ["index": index], .other("remove (bad index)"))
            note("remove index \(index) of \(count): \(errorCode(response) ?? "ok")")
            guard errorCode(response) == "not_found" else {
                throw StressFailure(kind: "response", message: "remove index \(index) of \(count) answered \(Self.text(response))")
            }
            return
        }
        var index = draws.pick(3, count)
        if kind >= 7, let current = model.current, let playing = model.collection.firstIndex(of: current) {
            index = playing
        }
        let entry = model.collection[index]
        let byIndex = draws.chance(4, percent: 50)
        let response = try request("remove", byIndex ? ["index": index] : ["entry": entry], .remove(entry: entry))
        _ = try result(of: response, "remove")
        note("remove \(byIndex ? "index \(index)" : "entry") e\(entry)\(entry == model.current ? " (playing)" : "")")
        try checkQueue()
    }

    private func move(_ draws: StepDraws) throws {
        let count = model.collection.count
        guard count > 0, !draws.chance(2, percent: 8) else {
            let response = try request("move", ["from": count, "to": 0], .other("move (bad index)"))
            note("move \(count)→0 of \(count): \(errorCode(response) ?? "ok")")
            guard errorCode(response) == "not_found" else {
                throw StressFailure(kind: "response", message: "move from \(count) of \(count) answered \(Self.text(response))")
            }
            return
        }
        let from = draws.pick(3, count)
        let to = draws.pick(4, count)
        _ = try result(of: try request("move", ["from": from, "to": to], .move(from: from, to: to)), "move")
        note("move \(from)→\(to)")
        try checkQueue()
    }

    private func jump(_ draws: StepDraws) throws {
        let count = model.collection.count
        guard count > 0, !draws.chance(2, percent: 5) else {
            let response = try request("jump", ["index": count], .other("jump (bad index)"))
            note("jump index \(count) of \(count): \(errorCode(response) ?? "ok")")
            guard errorCode(response) == "not_found" else {
                throw StressFailure(kind: "response", message: "jump index \(count) of \(count) answered \(Self.text(response))")
            }
            return
        }
        let index = draws.pick(3, count)
        let entry = model.collection[index]
        let byIndex = draws.chance(4, percent: 50)
        let status = try result(
            of: try request("jump", byIndex ? ["index": index] : ["entry": entry], .jump(entry: entry)), "jump")
        note("jump \(byIndex ? "index \(index)" : "entry") e\(entry): \(Self.brief(status))")
        // The jump's own player event names the entry (jump plays that entry).
        guard model.recentStates.contains(where: { $0.entry == entry && $0.state == "playing" }) else {
            throw StressFailure(
                kind: "order",
                message: "jump to e\(entry): no player event said it plays (events: \(model.recentStates.map(\.description).joined(separator: ", then ")))")
        }
        try checkStatus(status, "jump")
    }

    private func transport(_ cmd: String, _ command: InFlight) throws {
        let status = try result(of: try request(cmd, nil, command), cmd)
        note("\(cmd): \(Self.brief(status))")
        try checkStatus(status, cmd)
        switch cmd {
        case "pause":
            // Only play, toggle, jump or a start from nothing can make it play again.
            if status["state"] as? String == "playing" {
                throw StressFailure(kind: "status", message: "pause answered playing")
            }
        case "stop":
            if status["state"] as? String != "stopped" {
                throw StressFailure(kind: "status", message: "stop answered \(status["state"] ?? "?")")
            }
        case "play":
            if status["state"] as? String == "paused" {
                throw StressFailure(kind: "status", message: "play answered paused")
            }
        default:
            break
        }
    }

    /// A tap (press and release at once) or a short hold of next or previous; the release
    /// comes from the other connection now and then, as key bindings send it.
    private func buttons(_ draws: StepDraws, hold: Bool) throws {
        let button = draws.chance(2, percent: 60) ? "next" : "previous"
        model.sending(.buttons, seq: seq)
        // A tap the daemon measures as a hold on a loaded machine scans too.
        model.holding = true
        defer { model.holding = false }
        let pressID = try main.send("press", ["button": button])
        _ = try result(of: try response(to: pressID, "press"), "press")
        if hold { try pump(until: monotonicSeconds() + Double(draws.pick(3, in: 400...1500)) / 1000) }
        let release: [String: Any]
        if draws.chance(4, percent: 30) {
            let id = try other.send("release", ["button": button])
            let deadline = monotonicSeconds() + options.hangLimit
            var answer: [String: Any]?
            while answer == nil, let line = try other.nextLine(until: deadline) {
                answer = try? JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any]
            }
            guard let answer, answer["id"] as? Int == id else {
                throw StressFailure(kind: "hang", message: "no response to release on the second connection")
            }
            release = try result(of: answer, "release")
        } else {
            let id = try main.send("release", ["button": button])
            release = try result(of: try response(to: id, "release"), "release")
        }
        // The release's events reach the main connection before this barrier's answer.
        let statusID = try main.send("status")
        let status = try result(of: try response(to: statusID, "status"), "status")
        try model.responded(effective: true)
        note("\(hold ? "hold" : "tap") \(button): \(Self.text(release)), \(Self.brief(status))")
        try checkStatus(status, "status after release")
        guard let action = release["action"] as? String, ["skip", "restart", "previous", "seek"].contains(action) else {
            throw StressFailure(kind: "response", message: "release answered \(Self.text(release))")
        }
    }

    private func seek(_ draws: StepDraws, absolute: Bool) throws {
        let duration = model.current.flatMap { model.fixture(ofEntry: $0) }.map { fixtures[$0].seconds } ?? 2
        let args: [String: Any]
        let target: Double
        if absolute {
            target = (draws.fraction(2) * (duration + 0.5) * 1000).rounded() / 1000
            args = ["position": target]
        } else {
            target = (Double(draws.pick(2, in: -3000...3000)) / 1000)
            args = ["delta": target]
        }
        let before = model.current
        let sent = monotonicSeconds()
        let response = try request("seek", args, .other("seek"))
        let elapsed = monotonicSeconds() - sent
        if let code = errorCode(response) {
            // Seeking with nothing loaded is refused (docs/arch/engine.md).
            guard code == "bad_request" else {
                throw StressFailure(kind: "response", message: "seek \(Self.text(args)) answered \(Self.text(response))")
            }
            note("seek \(Self.text(args)): bad_request")
            return
        }
        let status = try result(of: response, "seek")
        note("seek \(Self.text(args)): \(Self.brief(status))")
        try checkStatus(status, "seek")
        // Lands where asked, then moves on at most in real time; only when the seek stayed
        // inside the same track. The daemon reports the target until the audio thread's
        // own position comes within CommandedPosition.tolerance (0.35 s) of it, so that much
        // either way is its documented precision.
        if absolute, let trackDuration = number(status["duration"]), target < trackDuration - 0.3,
            status["entry"] as? Int == before, before == model.current, status["state"] as? String != "stopped",
            let position = number(status["position"])
        {
            guard position >= target - 0.36, position <= target + elapsed + 0.36 else {
                throw StressFailure(
                    kind: "status", message: "seek to \(target) answered position \(position) (\(elapsed) s after sending)")
            }
        }
    }

    private func volume(_ draws: StepDraws) throws {
        // The tones stay loud enough to be told apart in the capture.
        let args: [String: Any]
        let expected: Int
        if draws.chance(2, percent: 50) {
            expected = draws.pick(3, in: 40...100)
            args = ["set": expected]
        } else {
            var delta = draws.pick(3, in: -20...20)
            if volumeSet + delta < 40 { delta = -delta }
            expected = min(100, volumeSet + delta)
            args = ["delta": delta]
        }
        volumeSet = expected
        let status = try result(of: try request("volume", args, .other("volume")), "volume")
        note("volume \(Self.text(args)) → \(expected)")
        try checkStatus(status, "volume")
    }

    private func mode(_ draws: StepDraws, repeatOnly: Bool) throws {
        var args: [String: Any] = [:]
        if repeatOnly || draws.chance(2, percent: 20) {
            let mode = ["off", "one", "all"][draws.pick(3, 3)]
            args["repeat"] = mode
            repeatSet = mode
        }
        if !repeatOnly {
            // Mostly off: predictions of what plays next need shuffle off.
            let on = draws.chance(4, percent: 20)
            args["shuffle"] = on
            shuffleSet = on
        }
        let status = try result(of: try request("mode", args, .other("mode")), "mode")
        note("mode \(Self.text(args))")
        try checkStatus(status, "mode")
    }

    private func update(_ draws: StepDraws) throws {
        let wait = draws.chance(2, percent: 35)
        scansRunning += 1
        let response = try request(
            "update", wait ? ["wait": true] : [:], .other("update"), limit: wait ? 2 * options.hangLimit : nil)
        let answer = try result(of: response, "update")
        note("update\(wait ? " (wait)" : ""): \(Self.text(answer))")
    }

    private func damage(_ draws: StepDraws) throws {
        let fixture = draws.pick(2, fixtures.count)
        let fault = FileFault.drawOrder[draws.pick(3, FileFault.drawOrder.count)]
        try files.apply(fault, to: fixture, size: draws.fraction(4))
        model.fileChanged(fixture, to: fault)
        outcome.faults += 1
        note("damage fixture \(fixture + 1): \(fault.rawValue)")
    }

    private func restore(_ draws: StepDraws) throws {
        let damaged = model.files.indices.filter { model.files[$0].fault != nil }
        guard !damaged.isEmpty else {
            note("restore: nothing damaged")
            return
        }
        let fixture = damaged[draws.pick(2, damaged.count)]
        let inPlace = draws.chance(3, percent: 50)
        try files.restore(fixture, inPlace: inPlace)
        model.fileChanged(fixture, to: nil)
        outcome.restores += 1
        note("restore fixture \(fixture + 1)\(inPlace ? " in place" : "")")
    }

    /// Lets the playing track end on its own (bounded: a stall is the next check's).
    private func waitForEnd() throws {
        let entry = model.current
        guard model.state == "playing", let entry else {
            note("wait for the end: nothing plays")
            return
        }
        let deadline = monotonicSeconds() + 4 + (model.fixture(ofEntry: entry).map { fixtures[$0].seconds } ?? 3)
        while model.current == entry, model.state == "playing", monotonicSeconds() < deadline {
            try pump(until: min(deadline, monotonicSeconds() + 0.2))
        }
        note("wait for the end of e\(entry): now e\(model.current.map(String.init) ?? "–") \(model.state)")
    }

    // MARK: The end of a run

    private func finish() throws {
        try barrier()
        try checkObligations(atEnd: true)
        model.finish(at: monotonicSeconds())
        if let pending = model.pendingInstallMessage {
            throw StressFailure(kind: "install", message: "\(pending), and no install came")
        }
        try stopDaemon()
        let samples = try daemon.capturedSamples()
        let runs = ToneRuns.runs(in: samples, tones: fixtures.map(\.toneHz))
        let heard = ToneRuns.heard(runs, minimumFrames: StressHearing.minimumFrames)
        if let mismatch = StressHearing.mismatch(visits: model.visits, heard: heard) {
            throw StressFailure(kind: "heard", message: mismatch)
        }
        outcome.tonesHeard = heard.count
    }

    /// SIGTERM: qplayd saves, closes and exits 0, promptly (docs/BEHAVIOUR.md, The daemon; 2 s is what a
    /// service manager may reasonably wait).
    private func stopDaemon() throws {
        let sent = monotonicSeconds()
        kill(daemon.pid, SIGTERM)
        while daemon.isRunning, monotonicSeconds() - sent < options.hangLimit { usleep(10_000) }
        let took = monotonicSeconds() - sent
        if daemon.isRunning {
            daemon.kill9()
            throw StressFailure(kind: "exit", message: "qplayd did not exit within \(options.hangLimit) s of SIGTERM")
        }
        let status = daemon.stop()
        note(String(format: "SIGTERM: exit %d after %.2f s", status, took))
        guard status == 0, took <= 2 else {
            throw StressFailure(kind: "exit", message: String(format: "SIGTERM: exit status %d after %.2f s", status, took))
        }
    }

    static func brief(_ status: [String: Any]) -> String {
        let entry = (status["entry"] as? Int).map { "e\($0)" } ?? "–"
        let position = number(status["position"]).map { String(format: "%.2f", $0) } ?? "–"
        return "\(status["state"] as? String ?? "?") \(entry) @\(position)"
    }
}

extension String {
    fileprivate func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
