import Foundation
import QPlayTestSupport
import Testing

/// A command list is answered as it runs, in parts sent once the client has room for
/// them, as MPD writes it: a client that sends a list of long answers and reads none
/// costs the daemon one part and its write buffer, not the whole list's answer.
@Suite("End to end: MPD command lists answered as they run", .timeLimit(.minutes(3)))
struct MPDCommandListMemoryTests {
    /// Times the Samples library is queued: 1,250 × 17 tracks = 21,250 entries, whose
    /// `playlistinfo` is ~6 MB.
    static let libraryCopies = 1250
    /// Growth allowed while the list waits on the client: the write buffer's 2 MiB
    /// high-water mark, one part, the allocator's slack. Answered whole, the list below
    /// took ~500 MB.
    static let growthBound = 48 << 20

    @Test func aListOfLongAnswersThatIsNotReadCostsOnePart() throws {
        try withMPDDaemon { mpd in
            let control = try MPDRawClient(port: mpd.port, timeoutSeconds: 90)  // 1,250 adds on a growing queue
            try fill(control)
            let length = try #require(Int(try control.fields("status")["playlistlength"] ?? ""))
            #expect(length >= 16 * Self.libraryCopies)
            // Warm: the queue's listing is made once and kept for the next asks.
            let whole = try control.command("playlistinfo")
            #expect(whole.last == "OK" && whole.count > length * 5)
            let before = try residentBytes(of: mpd.daemon.pid)

            let hostile = try mpd.client()
            let list = ["command_list_begin"] + Array(repeating: "playlistinfo", count: 80) + ["command_list_end"]
            try hostile.send(raw: Array(list.map { $0 + "\n" }.joined().utf8))
            var peak = before
            for _ in 0..<40 {
                peak = max(peak, try residentBytes(of: mpd.daemon.pid))
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(
                peak - before < Self.growthBound,
                "RSS \(before >> 20) MiB → \(peak >> 20) MiB with an unread list of 80 playlistinfo")
            // Everyone else is served meanwhile.
            #expect(try control.command("ping") == ["OK"])
            print("RSS \(before >> 20) MiB before, peak \(peak >> 20) MiB with the unread list")
        }
    }

    /// The parts join into exactly the answer made whole: every entry, `list_OK` after
    /// each command, the failure's ACK where it falls.
    @Test func aListReadInPartsIsTheWholeAnswer() throws {
        try withMPDDaemon { mpd in
            let control = try MPDRawClient(port: mpd.port, timeoutSeconds: 90)  // 1,250 adds on a growing queue
            try fill(control, copies: 200)
            let one = try control.command("playlistinfo")
            #expect(one.last == "OK")
            let entries = Array(one.dropLast())

            let reader = try mpd.client()
            let list = ["command_list_ok_begin", "playlistinfo", "status", "playlistinfo", "command_list_end"]
            try reader.send(raw: Array(list.map { $0 + "\n" }.joined().utf8))
            let answer = try reader.readAnswer()
            let parts = answer.split(separator: "list_OK", omittingEmptySubsequences: false).map(Array.init)
            #expect(parts.count == 4 && answer.last == "OK")
            #expect(parts[0] == entries && parts[2] == entries)

            let failing = ["command_list_begin", "playlistinfo", "playlistinfo 999999", "playlistinfo", "command_list_end"]
            try reader.send(raw: Array(failing.map { $0 + "\n" }.joined().utf8))
            let failed = try reader.readAnswer()
            #expect(Array(failed.prefix(entries.count)) == entries)
            #expect(failed.count == entries.count + 1)
            #expect(failed.last?.hasPrefix("ACK [2@1] {playlistinfo}") == true, "\(failed.last ?? "")")
        }
    }

    private func fill(_ client: MPDRawClient, copies: Int = Self.libraryCopies) throws {
        let adds = ["command_list_begin"] + Array(repeating: #"add """#, count: copies) + ["command_list_end"]
        try client.send(raw: Array(adds.map { $0 + "\n" }.joined().utf8))
        #expect(try client.readAnswer() == ["OK"])
    }
}
