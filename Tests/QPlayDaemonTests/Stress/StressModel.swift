import QPlayTestSupport

/// A check of the stress test that did not hold; `kind` groups them in the summary.
struct StressFailure: Error, CustomStringConvertible {
    var kind: String
    var message: String

    var description: String { "\(kind): \(message)" }
}

/// A command the driver sent, as far as the model needs to know it while its events
/// arrive (between sending it and reading its response).
enum InFlight: CustomStringConvertible {
    case add(fixtures: [Int])
    case remove(entry: Int)
    case move(from: Int, to: Int)
    case clear
    case jump(entry: Int)
    case next
    case previous
    /// A tap may skip or go back, a hold scans (tracks may end on the way).
    case buttons
    /// play or toggle: from stopped, the now-playing entry or the queue's first starts.
    case play
    /// Anything that changes no track by itself (seek, pause, volume, mode, update…).
    case other(String)

    var description: String {
        switch self {
        case .add(let fixtures): "add \(fixtures)"
        case .remove(let entry): "remove entry \(entry)"
        case .move(let from, let to): "move \(from)→\(to)"
        case .clear: "clear"
        case .jump(let entry): "jump entry \(entry)"
        case .next: "next"
        case .previous: "previous"
        case .buttons: "press/release"
        case .play: "play"
        case .other(let name): name
        }
    }

    var isEdit: Bool {
        switch self {
        case .add, .remove, .move, .clear: true
        default: false
        }
    }
}

/// What the test did to one fixture file, for the checks that depend on it.
struct FileState {
    /// nil: the good file is in place.
    var fault: FileFault?
    /// Stream position of the barrier after the change: lines after it were written
    /// after the change. Int.max until that barrier is read.
    var knownFrom = -1
    var everDamaged = false
}

/// An error event the daemon owes: the entry's file could not be played when it was
/// reached, whatever the timing, so the daemon must say so (docs/BEHAVIOUR.md, Audio; the `error` event).
struct Obligation: CustomStringConvertible {
    var entry: Int
    var fixture: Int
    var fault: FileFault
    /// Error events after this stream position count.
    var since: Int
    var why: String
    var step: Int

    var description: String { "entry \(entry) (fixture \(fixture + 1), \(fault.rawValue)): \(why)" }
}

/// One stretch during which an entry was the daemon's now-playing entry.
struct Visit: CustomStringConvertible {
    var entry: Int
    var fixture: Int
    var step: Int
    /// Seconds the daemon said it was playing (from event arrival times).
    var playing: Double = 0
    /// An error event named the entry: it may have sounded not at all.
    var failed = false
    /// Its file was damaged while it was current: whether it sounded is the error
    /// events' and the stall check's business, not the capture's.
    var damaged = false
    /// A held button scanned through it: 100 ms snippets whose joins break the windows
    /// the tone is measured in (a low tone may not be told at all).
    var scanned = false

    var description: String {
        "\(fixture + 1)(e\(entry) #\(step) \(String(format: "%.1f", playing))s\(failed ? " failed" : "")\(damaged ? " damaged" : "")\(scanned ? " scanned" : ""))"
    }
}

/// The shadow model: the queue the test built (docs/BEHAVIOUR.md, Queue rules), followed through the one
/// ordered stream of events and responses of the driver's connection. Edits are exact
/// (only the test edits); what plays next is predicted only where the queue rules fix it:
/// shuffle off, and no file changed since the playing entry started (a damaged file is
/// skipped with timing of its own). Everything else is checked for consistency only.
struct StressModel {
    /// Maps a track's path (relative) to its fixture.
    let fixtureByPath: [String: Int]

    private(set) var collection: [Int] = []
    /// The entries the player follows, in collection order as installed. With shuffle off
    /// that is also their play order.
    private(set) var installed: [Int] = []
    private(set) var modified = false
    /// A track change came while the queue was modified; its install must come before the
    /// next player event.
    private var pendingInstall: String?
    private(set) var current: Int?
    private(set) var state = "stopped"
    /// As the daemon's events report them: the predictions follow the daemon's order, in
    /// which a `mode` command takes effect between track changes, not when it is sent.
    private(set) var repeatMode = "off"
    private(set) var shuffle = false

    private(set) var fixtureOf: [Int: Int] = [:]
    private var removed: Set<Int> = []
    /// Placeholder ids (negative) of added entries the daemon has not named yet.
    private var nextPlaceholder = -1
    /// Ids a player event named before the `queue` answer placed them: put where a
    /// placeholder of the same fixture was, which the answer may correct.
    private var guessed: Set<Int> = []

    var files: [FileState]
    private(set) var visits: [Visit] = []
    /// Stream position where the now-playing entry became current.
    private var visitStart = 0
    private var lastPlayerAt: Double?
    private(set) var errorEvents: [(entry: Int, seq: Int, reason: String)] = []
    private var lastErrorSeq = -1
    private(set) var obligations: [Obligation] = []
    private(set) var obligationCount = 0
    /// Track changes whose target the queue rules fixed and the model predicted.
    private(set) var predictedChanges = 0
    /// Track changes seen at all.
    private(set) var changes = 0

    /// The command between its sending and its response, and where it was sent.
    private var inFlight: InFlight?
    private var sentAt = 0
    /// Whether the edit in flight has shown its queue event.
    private var editSeen = false
    /// The entry the removal of the playing entry moves to, computed when it is removed.
    private var removalTarget: Int??
    /// The add in flight went to an empty queue: it starts playing its first entry.
    private var addStarts = false

    /// (entry, state, length, modified) after each line since the command was sent: a
    /// status answer is taken at one of these moments.
    private(set) var recentStates: [Snapshot] = []

    struct Snapshot: Equatable, CustomStringConvertible {
        var entry: Int?
        var state: String
        var length: Int
        var modified: Bool

        var description: String { "\(state) e\(entry.map(String.init) ?? "–") len \(length)\(modified ? " modified" : "")" }
    }

    var step = 0

    /// The highest position a track change's event may show: a starting track is at 0,
    /// plus what a loaded machine may take to publish it.
    static let startBound = 0.75
    /// A button is held (from its press to its release's answer): the entries current
    /// meanwhile are scanned through.
    var holding = false {
        didSet { if holding, let index = visits.indices.last, visits[index].entry == current { visits[index].scanned = true } }
    }

    init(fixtures: [ToneFixture]) {
        var byPath: [String: Int] = [:]
        for (index, fixture) in fixtures.enumerated() { byPath[fixture.file] = index }
        fixtureByPath = byPath
        files = Array(repeating: FileState(), count: fixtures.count)
    }

    var snapshot: Snapshot {
        Snapshot(entry: current, state: state, length: collection.count, modified: modified)
    }

    func fixture(ofEntry id: Int) -> Int? { fixtureOf[id] }

    // MARK: Commands

    mutating func sending(_ command: InFlight, seq: Int) {
        inFlight = command
        sentAt = seq
        editSeen = false
        removalTarget = nil
        addStarts = false
        recentStates = [snapshot]
    }

    /// The response of the command in flight was read. `effective`: the edit changed the
    /// collection (its response was ok and it was no no-op), so its queue event must have
    /// come before the response.
    mutating func responded(effective: Bool) throws {
        defer { inFlight = nil }
        if let command = inFlight, command.isEdit, effective, !editSeen {
            throw StressFailure(kind: "queue", message: "\(command) answered ok without a queue event before its answer")
        }
    }

    // MARK: Files

    mutating func fileChanged(_ fixture: Int, to fault: FileFault?) {
        if fault != nil, let index = visits.indices.last, visits[index].entry == current, visits[index].fixture == fixture {
            visits[index].damaged = true
        }
        files[fixture].fault = fault
        files[fixture].knownFrom = Int.max
        if fault != nil { files[fixture].everDamaged = true }
    }

    /// The barrier after file changes was read at `seq`.
    mutating func fileChangesKnown(seq: Int) {
        for index in files.indices where files[index].knownFrom == Int.max { files[index].knownFrom = seq }
    }

    private mutating func owe(_ obligation: Obligation) {
        obligations.append(obligation)
        obligationCount += 1
    }

    /// The file of `fixture` cannot be played and was already so before stream position
    /// `seq` (every line after `seq` was written after the damage).
    private func unplayable(_ fixture: Int, before seq: Int) -> FileFault? {
        guard let fault = files[fixture].fault, fault.mustFail, files[fixture].knownFrom < seq else { return nil }
        return fault
    }

    /// Every file was good all the way since stream position `seq`.
    private func allGood(since seq: Int) -> Bool {
        files.allSatisfy { $0.fault == nil && $0.knownFrom < seq }
    }

    // MARK: Events

    mutating func queueEvent(length: Int, modified eventModified: Bool) throws {
        if let command = inFlight, command.isEdit, !editSeen, let expected = lengthAfter(command),
            length == expected, eventModified || editMayInstall(command)
        {
            editSeen = true
            applyEdit(command)
            if !eventModified { install() }
        } else if !eventModified, length == collection.count {
            install()
        } else {
            throw StressFailure(
                kind: "queue",
                message: "queue event {length \(length), modified \(eventModified)} fits neither the edit in flight (\(inFlight.map { "\($0)" } ?? "none")) nor an install of the \(collection.count) entries")
        }
        recentStates.append(snapshot)
    }

    private func lengthAfter(_ command: InFlight) -> Int? {
        switch command {
        case .add(let fixtures): collection.count + fixtures.count
        case .remove(let entry): collection.contains(entry) ? collection.count - 1 : nil
        case .move: collection.count
        case .clear: 0
        default: nil
        }
    }

    /// Edits that are track changes themselves install at once (docs/BEHAVIOUR.md, Queue rules): adding to an
    /// empty queue, removing the playing entry.
    private func editMayInstall(_ command: InFlight) -> Bool {
        switch command {
        case .add: collection.isEmpty
        case .remove(let entry): entry == current
        default: false
        }
    }

    private mutating func applyEdit(_ command: InFlight) {
        switch command {
        case .add(let fixtures):
            addStarts = collection.isEmpty
            for fixture in fixtures {
                let id = nextPlaceholder
                nextPlaceholder -= 1
                fixtureOf[id] = fixture
                collection.append(id)
            }
        case .remove(let entry):
            if entry == current { removalTarget = .some(predictRemoval(of: entry)) }
            collection.removeAll { $0 == entry }
            removed.insert(entry)
        case .move(let from, let to):
            collection.insert(collection.remove(at: from), at: to)
        case .clear:
            removed.formUnion(collection)
            collection = []
        default:
            break
        }
        modified = true
    }

    private mutating func install() {
        installed = collection
        modified = false
        pendingInstall = nil
    }

    /// Checks the daemon's `queue` answer (entries in collection order) against the model
    /// and names the added entries: each placeholder, and each id only guessed into place,
    /// takes the id the daemon reports at its index.
    mutating func bind(entries: [(entry: Int, fixture: Int)]) throws {
        guard entries.count == collection.count else {
            throw StressFailure(
                kind: "queue", message: "queue has \(entries.count) entries, the model \(collection.count): \(entries.map(\.entry)) vs \(collection)")
        }
        var renames: [Int: Int] = [:]
        for (index, (entry, fixture)) in entries.enumerated() {
            let mine = collection[index]
            guard mine != entry, mine < 0 || guessed.contains(mine) else { continue }
            guard fixtureOf[entry] == nil || guessed.contains(entry) else {
                throw StressFailure(kind: "queue", message: "new entry at index \(index) has the id \(entry) of an earlier entry")
            }
            guard fixtureOf[mine] == fixture else { continue }  // reported below
            renames[mine] = entry
        }
        if !renames.isEmpty {
            for (old, new) in renames where old < 0 {
                fixtureOf[new] = fixtureOf[old]
                fixtureOf[old] = nil
            }
            collection = collection.map { renames[$0] ?? $0 }
            installed = installed.map { renames[$0] ?? $0 }
            if case .some(.some(let target)) = removalTarget, let new = renames[target] { removalTarget = .some(new) }
        }
        guessed = []
        for (index, (entry, fixture)) in entries.enumerated() {
            guard collection[index] == entry, fixtureOf[entry] == fixture else {
                throw StressFailure(
                    kind: "queue",
                    message: "queue entry \(index) is e\(entry) (fixture \(fixture + 1)); the model has e\(collection[index]) (fixture \((fixtureOf[collection[index]] ?? -1) + 1))")
            }
        }
    }

    /// A player event named an added entry before the `queue` answer did: it takes the
    /// place of a placeholder of its fixture, the predicted one if that is one.
    private mutating func guessPlace(of id: Int, fixture: Int?) throws {
        let candidates = collection.filter { $0 < 0 && fixtureOf[$0] == fixture }
        guard let first = candidates.first else {
            throw StressFailure(kind: "events", message: "player event names entry \(id), never in the queue")
        }
        var placeholder = first
        if !shuffle, let from = current, let next = successor(of: from, wrap: repeatMode != "off"), candidates.contains(next) {
            placeholder = next
        }
        fixtureOf[id] = fixtureOf[placeholder]
        fixtureOf[placeholder] = nil
        collection = collection.map { $0 == placeholder ? id : $0 }
        installed = installed.map { $0 == placeholder ? id : $0 }
        if case .some(.some(let target)) = removalTarget, target == placeholder { removalTarget = .some(id) }
        guessed.insert(id)
    }

    mutating func errorEvent(entry: Int, path: String, reason: String, seq: Int) throws {
        guard let fixture = fixtureByPath[path] else {
            throw StressFailure(kind: "error-event", message: "error event for a path that is no fixture: \(path)")
        }
        guard files[fixture].everDamaged else {
            throw StressFailure(
                kind: "error-event", message: "error event for entry \(entry) (fixture \(fixture + 1)), whose file was never damaged: \(reason)")
        }
        errorEvents.append((entry, seq, reason))
        lastErrorSeq = seq
        for index in visits.indices.reversed() where visits[index].entry == entry {
            visits[index].failed = true
            break
        }
    }

    /// A player event: state and entry. Checks a track change against what the queue rules let
    /// come next, and notes the error events the daemon owes.
    mutating func playerEvent(
        entry: Int?, path: String?, state newState: String, position: Double?, at time: Double, seq: Int
    ) throws {
        if let pending = pendingInstall {
            throw StressFailure(kind: "install", message: "\(pending), but no install (queue event, modified false) came with it")
        }
        if let id = entry, fixtureOf[id] == nil {
            // An added entry starts (an add to an empty queue, or the track before it ended)
            // before the `queue` answer names it.
            try guessPlace(of: id, fixture: path.flatMap { fixtureByPath[$0] })
        }
        if let id = entry, let path, fixtureOf[id] != fixtureByPath[path] {
            throw StressFailure(kind: "events", message: "player event: entry \(id) with \(path); the model has fixture \((fixtureOf[id] ?? -1) + 1)")
        }
        if let last = lastPlayerAt, state == "playing", let index = visits.indices.last, visits[index].entry == current {
            visits[index].playing += max(0, time - last)
        }
        lastPlayerAt = time
        let previousState = state
        if entry != current {
            // Where the new entry's file was opened is judged from the entry before it
            // (its start announced the successor), so before `visitStart` moves on.
            let opened = entry.map { openedAfter(changingTo: $0) }
            try trackChange(to: entry, newState: newState, seq: seq)
            // PROTOCOL: the event of a track change shows the new track at its own position.
            // Every fixture is longer than the bound, so the old track's end cannot pass.
            if let id = entry, let position, position > Self.startBound {
                throw StressFailure(
                    kind: "events",
                    message: "the player event of the change to e\(id) says position \(position) s; a track starts at 0")
            }
            if modified { pendingInstall = "track change e\(current.map(String.init) ?? "–")→e\(entry.map(String.init) ?? "–") with the queue modified" }
            current = entry
            visitStart = seq
            if let id = entry, let fixture = fixtureOf[id] {
                visits.append(
                    Visit(entry: id, fixture: fixture, step: step, damaged: files[fixture].fault != nil, scanned: holding))
            }
            if let id = entry, let opened, newState != "stopped" {
                oweErrorIfUnplayable(id, since: opened, why: "became current")
            }
        } else if let id = entry, previousState == "stopped", newState != "stopped", case .play? = inFlight {
            // play after stop opens the file afresh.
            oweErrorIfUnplayable(id, since: sentAt, why: "played from stopped")
        }
        state = newState
        recentStates.append(snapshot)
    }

    /// A stream position before which the file of the entry a change goes to had not yet
    /// been opened: the command that asked for it (jump, a start from nothing, play), or
    /// else the start of the previous entry, after which its successor is announced.
    private func openedAfter(changingTo target: Int) -> Int {
        switch inFlight {
        case .jump(let entry)? where entry == target: return sentAt
        case .add? where addStarts: return sentAt
        case .play? where current == nil: return sentAt
        default: return current == nil ? sentAt : visitStart
        }
    }

    private mutating func oweErrorIfUnplayable(_ entry: Int, since seq: Int, why: String) {
        guard let fixture = fixtureOf[entry], let fault = unplayable(fixture, before: seq) else { return }
        owe(Obligation(entry: entry, fixture: fixture, fault: fault, since: seq, why: why, step: step))
    }

    private mutating func trackChange(to target: Int?, newState: String, seq: Int) throws {
        let from = current
        changes += 1
        if let target, removed.contains(target) {
            throw StressFailure(kind: "removed-played", message: "entry \(target) became current after it was removed")
        }
        if let target, !collection.contains(target), !installed.contains(target) {
            throw StressFailure(kind: "order", message: "entry \(target) became current but is in neither the queue nor the installed queue")
        }
        // A forward change that went past entries whose files cannot be played (since
        // before `from` started, so they were opened as successors after the damage) must
        // have reported each. Only when walking forward from `from` over such entries
        // reaches the new entry: a tap may as well have gone back.
        if !shuffle, let from, target != from, isForward {
            var passed: [(entry: Int, fixture: Int, fault: FileFault)] = []
            var next = successor(of: from, wrap: repeatMode != "off")
            var seen: Set<Int> = [from]
            while next != target, let candidate = next, seen.insert(candidate).inserted,
                let fixture = fixtureOf[candidate], let fault = unplayable(fixture, before: visitStart)
            {
                passed.append((candidate, fixture, fault))
                next = successor(of: candidate, wrap: repeatMode != "off")
            }
            if next == target {
                // An entry the daemon already reported since its file was damaged is
                // passed over as known unplayable, without another try or event.
                for (entry, fixture, fault) in passed
                where !errorEvents.contains(where: { $0.entry == entry && $0.seq > files[fixture].knownFrom }) {
                    owe(
                        Obligation(
                            entry: entry, fixture: fixture, fault: fault, since: visitStart,
                            why: "passed over on e\(from)→\(target.map { "e\($0)" } ?? "the end of the queue")",
                            step: step))
                }
            }
        }
        guard !shuffle, allGood(since: visitStart), lastErrorSeq < visitStart else { return }
        var allowed: [Int?] = []
        if let from, repeatMode != "one" || !order.contains(from) {
            // The current track may always end; repeat one replays it (no change) unless it
            // left the queue.
            allowed.append(successor(of: from, wrap: repeatMode == "all"))
        }
        switch inFlight {
        case .jump(let entry)?: allowed.append(entry)
        case .add?: if addStarts { allowed.append(order.first) }
        case .play?: if from == nil { allowed.append(order.first) }
        case .next?: if let from { allowed.append(successor(of: from, wrap: repeatMode != "off")) }
        case .previous?: if let from { allowed.append(predecessor(of: from)) }
        case .buttons?:
            if let from {
                allowed.append(successor(of: from, wrap: repeatMode != "off"))
                allowed.append(predecessor(of: from))
            }
        case .remove(let entry)?: if entry == from, case .some(let target) = removalTarget { allowed.append(target) }
        default: break
        }
        predictedChanges += 1
        guard !allowed.contains(where: { $0 == target }) else { return }
        let names = allowed.map { $0.map { "e\($0)" } ?? "end of queue" }
        throw StressFailure(
            kind: "order",
            message: "after e\(from.map(String.init) ?? "–") came \(target.map { "e\($0)" } ?? "the end of the queue") (\(newState)) during \(inFlight.map { "\($0)" } ?? "no command"); the queue rules allow \(names.isEmpty ? "no change" : names.joined(separator: " or ")) — queue \(collection), installed \(installed)\(modified ? ", modified" : ""), repeat \(repeatMode)")
    }

    /// The change may go forward through the queue: the track ended (during any command
    /// that changes no track itself), next, a button. Not a jump, previous, a start from
    /// nothing or the removal of the playing entry, which go where they go.
    private var isForward: Bool {
        switch inFlight {
        case nil, .next?, .buttons?, .other?, .move?, .clear?: true
        case .remove(let entry)?: entry != current
        case .add?: !addStarts
        case .jump?, .previous?, .play?: false
        }
    }

    // MARK: Predictions (shuffle off)

    /// The play order a track change uses: a modified collection is installed first.
    private var order: [Int] { modified ? collection : installed }

    /// The entry after `id` (docs/BEHAVIOUR.md, Queue rules; docs/arch/engine.md): in the new order; when `id`
    /// left it (cleared), its first old neighbour still there; at the end around to the
    /// first when `wrap`, else the queue ends.
    private func successor(of id: Int, wrap: Bool) -> Int? {
        let order = self.order
        if let place = order.firstIndex(of: id) {
            if place + 1 < order.count { return order[place + 1] }
        } else if let place = installed.firstIndex(of: id),
            let neighbour = installed[(place + 1)...].first(where: order.contains)
        {
            return neighbour
        }
        return wrap ? order.first : nil
    }

    /// The entry before `id`; nil: no change (the first without repeat restarts).
    private func predecessor(of id: Int) -> Int? {
        let order = self.order
        guard let place = order.firstIndex(of: id) else { return id }
        if place > 0 { return order[place - 1] }
        return repeatMode != "off" && order.count > 1 ? order.last : id
    }

    /// Removing the playing entry: its old neighbour in the play order (the collection
    /// before the removal when modified), around to the first with repeat, else the end.
    private func predictRemoval(of id: Int) -> Int? {
        let order = modified ? collection : installed
        guard let place = order.firstIndex(of: id) else { return nil }
        let rest = order.filter { $0 != id }
        if place < rest.count { return rest[place] }
        return repeatMode != "off" ? rest.first : nil
    }

    // MARK: Checks at the end

    mutating func finish(at time: Double) {
        if let last = lastPlayerAt, state == "playing", let index = visits.indices.last, visits[index].entry == current {
            visits[index].playing += max(0, time - last)
        }
        lastPlayerAt = time
    }

    /// Obligations an error event has met are dropped; the rest are returned.
    mutating func openObligations() -> [Obligation] {
        obligations.removeAll { duty in
            errorEvents.contains { $0.entry == duty.entry && $0.seq > duty.since }
        }
        return obligations
    }

    /// Repeat and shuffle from a player event (each carries the whole status).
    mutating func options(repeatMode: String, shuffle: Bool) {
        self.repeatMode = repeatMode
        self.shuffle = shuffle
    }

    /// Obligations reported as missing are not reported again.
    mutating func forgetObligations() {
        obligations = []
    }

    var pendingInstallMessage: String? { pendingInstall }
}
