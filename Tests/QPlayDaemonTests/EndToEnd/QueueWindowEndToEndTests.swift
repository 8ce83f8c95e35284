import Foundation
import QPlayTestSupport
import Testing

/// Windows of a long queue against the real daemon and the real `qplay` binary
/// (docs/PROTOCOL.md, Commands: `queue`; README.md): `queue {"start", "count"}` and
/// `{"around"}` answer only those entries with the queue's length, `qplay queue --around N`
/// lists N either side of the playing entry, plain `qplay queue` does so by itself (20)
/// once the queue is longer than 200 entries, and `--all` lists every one.
@Suite("End to end: queue windows", .timeLimit(.minutes(2)))
struct QueueWindowEndToEndTests {
    /// The whole sample library added until the queue has `length` entries or more;
    /// paused on the entry at `index`.
    static func longQueue(_ daemon: DaemonProcess, atLeast length: Int, pausedAt index: Int) throws -> [[String: Any]] {
        let client = try daemon.client()
        while try client.status()["queue_length"] as? Int ?? 0 < length { try client.ok("add", ["where": [Any]()]) }
        try client.ok("jump", ["index": index])
        try client.ok("pause")
        return try #require(try client.ok("queue")["entries"] as? [[String: Any]])
    }

    /// `qplay queue`'s row of an entry: the marker, the 1-based position and the title.
    static func row(_ line: Substring) -> (playing: Bool, position: Int)? {
        let fields = line.dropFirst(2).split(separator: " ", maxSplits: 1)
        guard let first = fields.first, let position = Int(first) else { return nil }
        return (line.hasPrefix("▶"), position)
    }

    static func rows(_ output: String) -> [(playing: Bool, position: Int)] {
        output.split(separator: "\n").compactMap(row)
    }

    @Test func theWindowRequestAnswersOnlyItsEntriesWithTheTotal() throws {
        try withDaemon { daemon in
            let whole = try Self.longQueue(daemon, atLeast: 201, pausedAt: 150)
            #expect(whole.count > 200)
            let client = try daemon.client()
            let page = try client.ok("queue", ["start": 10, "count": 5])
            let entries = try #require(page["entries"] as? [[String: Any]])
            #expect(entries.map { $0["index"] as? Int } == [10, 11, 12, 13, 14])
            #expect(entries.map { $0["entry"] as? Int } == whole[10..<15].map { $0["entry"] as? Int })
            #expect(page["start"] as? Int == 10)
            #expect(page["total"] as? Int == whole.count)
            #expect(page["current"] as? Int == whole[150]["entry"] as? Int)
            // Past the end: no entries, and the length to page by.
            let past = try client.ok("queue", ["start": whole.count + 5, "count": 5])
            #expect((past["entries"] as? [Any])?.isEmpty == true)
            #expect(past["total"] as? Int == whole.count)
            let around = try client.ok("queue", ["around": 3])
            #expect((around["entries"] as? [[String: Any]])?.map { $0["index"] as? Int } == Array(147...153))
            #expect(around["start"] as? Int == 147)
            // Without arguments: everything, as before.
            let all = try client.ok("queue")
            #expect((all["entries"] as? [Any])?.count == whole.count)
            #expect(all["start"] as? Int == 0 && all["total"] as? Int == whole.count)
            let both = try client.request("queue", ["around": 3, "start": 1])
            #expect(both["ok"] as? Bool == false)
            let zero = try client.request("queue", ["count": 0])
            #expect(zero["ok"] as? Bool == false)
        }
    }

    @Test func theCommandLineListsAroundThePlayingEntry() throws {
        try withDaemon { daemon in
            let whole = try Self.longQueue(daemon, atLeast: 201, pausedAt: 150)
            let around = try daemon.qplayOK("queue", "--around", "2")
            #expect(Self.rows(around).map(\.position) == Array(149...153))
            #expect(Self.rows(around).filter(\.playing).map(\.position) == [151])
            #expect(around.contains("(entries 149–153 of \(whole.count);"))
            // A long queue: 20 either side without being asked.
            let plain = try daemon.qplayOK("queue")
            #expect(Self.rows(plain).map(\.position) == Array(131...171))
            #expect(plain.contains("`qplay queue --all`"))
            let all = try daemon.qplayOK("queue", "--all")
            #expect(Self.rows(all).map(\.position) == Array(1...whole.count))
            #expect(!all.contains("--all"))
            // --json answers the whole queue unless --around is given.
            let json = try daemon.qplayJSON("queue")
            #expect((json["entries"] as? [Any])?.count == whole.count)
            let jsonAround = try daemon.qplayJSON("queue", "--around", "1")
            #expect((jsonAround["entries"] as? [Any])?.count == 3)
            #expect(try daemon.qplay(arguments: ["queue", "--around", "1", "--all"]).status != 0)
        }
    }

    @Test func aQueueOf200OrFewerIsListedWhole() throws {
        try withDaemon { daemon in
            let whole = try Self.longQueue(daemon, atLeast: 62, pausedAt: 60)
            #expect(whole.count > 41 && whole.count <= 200)
            let plain = try daemon.qplayOK("queue")
            #expect(Self.rows(plain).map(\.position) == Array(1...whole.count))
            #expect(Self.rows(plain).filter(\.playing).map(\.position) == [61])
            #expect(!plain.contains("--all"))
        }
    }
}
