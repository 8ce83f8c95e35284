import Foundation
import QPlayTestSupport
import Testing

/// `playlistinfo START:END` takes only its entries from the player and writes them
/// (docs/MPD.md): the songs must be the very lines of the whole listing at those
/// positions — after an edit, with tag types narrowed, and at the ends of the queue.
@Suite("MPD: playlistinfo windows", .timeLimit(.minutes(2)))
struct MPDPlaylistInfoWindowTests {
    /// The songs of a listing, each as its lines up to the next `file:`.
    static func songs(_ lines: [String]) -> [[String]] {
        var songs: [[String]] = []
        for line in lines where line != "OK" {
            if line.hasPrefix("file: ") { songs.append([]) }
            songs[songs.count - 1].append(line)
        }
        return songs
    }

    @Test func aRangeIsTheWholeListingsSongsAtThosePositions() throws {
        try withMPDDaemon { mpd in
            let client = try mpd.client()
            for _ in 0..<3 { #expect(try client.command("add \"\"") == ["OK"]) }
            #expect(try client.command("delete 2") == ["OK"])
            #expect(try client.command("move 0 5") == ["OK"])
            let whole = Self.songs(try client.command("playlistinfo"))
            #expect(whole.count > 20)
            let ranges = [(3, 9), (0, 1), (whole.count - 4, whole.count)]
            for (start, end) in ranges {
                let window = Self.songs(try client.command("playlistinfo \(start):\(end)"))
                #expect(window == Array(whole[start..<end]), "playlistinfo \(start):\(end)")
            }
            #expect(Self.songs(try client.command("playlistinfo 7")) == [whole[7]])
            #expect(Self.songs(try client.command("playlistinfo \(whole.count - 2):")) == Array(whole.suffix(2)))
            #expect(try client.command("playlistinfo \(whole.count + 3):").first?.hasPrefix("ACK") == true)
            let single = try client.command("playlistinfo \(whole.count)")
            #expect(single.count == 1 && single[0].hasPrefix("ACK") && single[0].hasSuffix("Bad song index"), "\(single)")
            // Tag types narrowed: the window writes what the whole listing writes.
            #expect(try client.command("tagtypes clear") == ["OK"])
            let bare = Self.songs(try client.command("playlistinfo"))
            #expect(Self.songs(try client.command("playlistinfo 4:6")) == Array(bare[4..<6]))
            #expect(bare[4] != whole[4])
        }
    }
}
