import Foundation
import QPlayTestSupport
import Testing

/// An edit the daemon acknowledged is on disk: `kill -9` the moment its `ok` arrives,
/// start again, and the queue (entries in order, current entry) and the options are the
/// ones that answer promised. A deterministic random walk of edits, one per life.
@Suite("End to end: acknowledged edits survive kill -9", .timeLimit(.minutes(5)))
struct DurabilityEndToEndTests {
    /// What the queue and options should be, kept beside the daemon from its answers.
    struct Expected: Equatable, CustomStringConvertible {
        var entries: [(entry: Int, track: Int)] = []
        var current: Int?
        var repeatMode = "off"
        var shuffle = false
        var volume = 100

        static func == (lhs: Expected, rhs: Expected) -> Bool {
            lhs.entries.map(\.entry) == rhs.entries.map(\.entry) && lhs.entries.map(\.track) == rhs.entries.map(\.track)
                && lhs.current == rhs.current && lhs.repeatMode == rhs.repeatMode && lhs.shuffle == rhs.shuffle
                && lhs.volume == rhs.volume
        }

        var description: String {
            "entries \(entries.map { "\($0.entry):\($0.track)" }) current \(current.map(String.init) ?? "nil") "
                + "repeat \(repeatMode) shuffle \(shuffle) volume \(volume)"
        }

        /// Read from a daemon: `queue` and `status`.
        init(_ client: LineSocketClient) throws {
            let queue = try client.ok("queue")
            for item in queue["entries"] as? [[String: Any]] ?? [] {
                let track = item["track"] as? [String: Any]
                entries.append((item["entry"] as? Int ?? -1, track?["id"] as? Int ?? -1))
            }
            current = queue["current"] as? Int
            let status = try client.status()
            repeatMode = status["repeat"] as? String ?? "?"
            shuffle = status["shuffle"] as? Bool ?? false
            volume = status["volume"] as? Int ?? -1
        }

        init() {}
    }

    @Test func everyAcknowledgedEditSurvivesKillNine() throws {
        try withDaemon { daemon in
            let tracks = try daemon.client().ok("search")["tracks"] as? [[String: Any]] ?? []
            let trackIDs = tracks.compactMap { $0["id"] as? Int }
            try #require(trackIDs.count >= 3)
            // Later lives skip the start-up scan: the index on disk is complete.
            let config = try daemon.writeConfig("scan_on_start = false\n")

            var random = SplitMix64(state: 20_261_124)
            var expected = Expected()
            var nextEntry = 1
            var lost = 0
            let rounds = 100
            for round in 1...rounds {
                let client = try daemon.client()
                let restored = try Expected(client)
                if round > 1, restored != expected {
                    lost += 1
                    Issue.record("round \(round): restored \(restored), acknowledged \(expected)")
                }
                expected = restored
                nextEntry = max(nextEntry, (restored.entries.map(\.entry).max() ?? 0) + 1)

                let count = expected.entries.count
                var request: (String, [String: Any]?)
                let choice = count == 0 ? 0 : Int.random(in: 0..<9, using: &random)
                switch choice {
                case 0, 1:
                    let picked = (0..<Int.random(in: 1...3, using: &random)).map { _ in trackIDs.randomElement(using: &random)! }
                    request = ("add", ["ids": picked])
                    let first = nextEntry
                    for id in picked {
                        expected.entries.append((nextEntry, id))
                        nextEntry += 1
                    }
                    if count == 0 { expected.current = first }  // adding to an empty queue starts it
                case 2:
                    // Any entry but the playing one (removing that is a track change).
                    let candidates = expected.entries.indices.filter { expected.entries[$0].entry != expected.current }
                    guard let index = candidates.randomElement(using: &random) else { fallthrough }
                    request = ("remove", ["index": index])
                    expected.entries.remove(at: index)
                case 3:
                    let from = Int.random(in: 0..<count, using: &random)
                    let to = Int.random(in: 0..<count, using: &random)
                    request = ("move", ["from": from, "to": to])
                    expected.entries.insert(expected.entries.remove(at: from), at: to)
                case 4:
                    let index = Int.random(in: 0..<count, using: &random)
                    request = ("jump", ["index": index])
                    expected.current = expected.entries[index].entry
                case 5:
                    let mode = ["off", "one", "all"].randomElement(using: &random)!
                    request = ("mode", ["repeat": mode])
                    expected.repeatMode = mode
                case 6:
                    request = ("mode", ["shuffle": !expected.shuffle])
                    expected.shuffle.toggle()
                case 7:
                    let volume = Int.random(in: 0...100, using: &random)
                    request = ("volume", ["set": volume])
                    expected.volume = volume
                default:
                    // Rarely: start over with an empty queue (the playing entry stays current).
                    if Int.random(in: 0..<3, using: &random) == 0 {
                        request = ("clear", nil)
                        expected.entries = []
                    } else {
                        let volume = Int.random(in: 0...100, using: &random)
                        request = ("volume", ["set": volume])
                        expected.volume = volume
                    }
                }
                let response = try client.request(request.0, request.1)
                daemon.kill9()  // the moment the answer is in
                try #require(response["ok"] as? Bool == true, "round \(round): \(request.0) \(request.1 ?? [:]) → \(response)")
                try daemon.start(["--config", config])
            }
            let client = try daemon.client()
            let final = try Expected(client)
            if final != expected {
                lost += 1
                Issue.record("after the last round: restored \(final), acknowledged \(expected)")
            }
            #expect(lost == 0, "\(lost) of \(rounds) acknowledged edits were lost")
        }
    }

    /// Edits as fast as one client can send them, then `kill -9` on the last answer: the
    /// restored state is that of the last edit, not of one some time before it.
    @Test func aBurstOfEditsIsSavedUpToTheLastAnswer() throws {
        try withDaemon { daemon in
            let config = try daemon.writeConfig("scan_on_start = false\n")
            let tracks = try daemon.client().ok("search")["tracks"] as? [[String: Any]] ?? []
            let trackIDs = tracks.compactMap { $0["id"] as? Int }
            try daemon.client().ok("add", ["ids": trackIDs + trackIDs + trackIDs])
            try daemon.client().ok("pause")

            var random = SplitMix64(state: 3_000)
            for round in 1...5 {
                let client = try daemon.client()
                var expected = try Expected(client)
                let count = expected.entries.count
                for _ in 0..<300 {
                    if Bool.random(using: &random) {
                        let from = Int.random(in: 0..<count, using: &random)
                        let to = Int.random(in: 0..<count, using: &random)
                        try client.ok("move", ["from": from, "to": to])
                        expected.entries.insert(expected.entries.remove(at: from), at: to)
                    } else {
                        let volume = Int.random(in: 0...100, using: &random)
                        try client.ok("volume", ["set": volume])
                        expected.volume = volume
                    }
                }
                daemon.kill9()
                try daemon.start(["--config", config])
                let restored = try Expected(try daemon.client())
                #expect(restored == expected, "round \(round): restored \(restored), acknowledged \(expected)")
            }
        }
    }
}
