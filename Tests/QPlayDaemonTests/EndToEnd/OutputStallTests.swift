import Foundation
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `pipe:` output whose reader keeps the FIFO open but stops reading (a snapserver
/// that hangs; here a `cat` held with SIGSTOP): status says the output is stalled, an
/// `error` event names it, and playback goes on by itself once the reader reads again.
/// In the pooled group, away from the parallel end-to-end suites: a stall is a reader
/// that takes nothing for 500 ms, and beside them the `cat` and qplayd went without a
/// core long enough that the tone never got going within the wait.
@Suite("End to end: a stalled output", .timeLimit(.minutes(1)), .tags(.pooled), .group(.pooled))
struct OutputStallTests {
    static let tone = ToneFixture(file: "stall.mp3", title: "Stall", toneHz: 440, seconds: 6, sampleRate: 44100, channels: 2)

    @Test func aReaderThatStopsReadingShowsAStallAndPlaybackGoesOnWhenItReads() throws {
        let music = TemporaryDirectory("qplay-stall-music")
        defer { music.remove() }
        _ = try ToneFixtures.generate([Self.tone], in: music)
        let folder = TemporaryDirectory("qplay-stall")
        defer { folder.remove() }
        let fifo = folder.appending("fifo").string
        guard mkfifo(fifo, 0o600) == 0 else { throw LineSocketClient.Failure(description: "mkfifo \(fifo): \(errno)") }
        let heard = open(folder.appending("heard.raw").string, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(heard) }
        let reader = try SpawnedProcess(URL(fileURLWithPath: "/bin/cat"), [fifo], stdout: heard, stderr: 2)
        defer {
            reader.signal(SIGCONT)
            reader.signal(SIGTERM)
            reader.wait()
        }

        try withDaemon(music: music.path.string, arguments: ["--output", "pipe:\(fifo)"]) { daemon in
            let events = try daemon.client()
            try events.ok("subscribe", ["events": ["error"]])
            let control = try daemon.client()
            try control.ok("add", ["paths": [Self.tone.file]])
            try waitUntil("the tone plays") { number(try control.status()["position"]) ?? 0 > 0.5 }

            reader.signal(SIGSTOP)
            let failure = try events.event("error")
            #expect(failure["output"] as? String == "pipe:\(fifo)")
            #expect((failure["reason"] as? String)?.hasPrefix("stalled") == true, "\(failure)")
            let stalled = try control.status()
            let output = stalled["output"] as? [String: Any]
            #expect(output?["state"] as? String == "stalled", "\(stalled)")
            #expect((output?["error"] as? String)?.hasPrefix("stalled") == true, "\(stalled)")
            #expect((stalled["outputs"] as? [[String: Any]])?.count == 1)
            #expect(stalled["state"] as? String == "playing")
            // The position stands still while the output takes nothing.
            let held = number(stalled["position"]) ?? -1
            usleep(300_000)
            #expect(number(try control.status()["position"]) == held)

            reader.signal(SIGCONT)
            try waitUntil("the stall clears") {
                let output = try control.status()["output"] as? [String: Any]
                return output?["state"] as? String == "ok" && output?["error"] is NSNull
            }
            try waitUntil("the position moves on") { number(try control.status()["position"]) ?? 0 > held + 0.5 }
            try waitUntil("the tone plays to its end", limit: 30) { try control.status()["state"] as? String == "stopped" }
        }
    }
}
