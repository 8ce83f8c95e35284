import Foundation
import Synchronization
import QPlayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `pipe:` output whose reader keeps the FIFO open but stops reading (a snapserver
/// that hangs): status says the output is stalled, an `error` event names it, and
/// playback goes on by itself once the reader reads again. The reader takes the FIFO at
/// about real time, as snapserver does: a `pipe:` output is paced by its reader, and one
/// that reads as fast as it can (`cat`) takes the whole tone before it can be stopped.
/// In the pooled group, away from the parallel end-to-end suites: a stall is a reader
/// that takes nothing for 500 ms, and beside them the reader and qplayd could go without
/// a core that long.
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
        let reader = PacedFIFOReader(path: fifo, bytesPerSecond: 44100 * 2 * 2)
        defer { reader.finish() }

        try withDaemon(music: music.path.string, arguments: ["--output", "pipe:\(fifo)"]) { daemon in
            let events = try daemon.client()
            try events.ok("subscribe", ["events": ["error"]])
            let control = try daemon.client()
            try control.ok("add", ["paths": [Self.tone.file]])
            try waitUntil("the tone plays") { number(try control.status()["position"]) ?? 0 > 0.5 }

            reader.holds(true)
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

            reader.holds(false)
            try waitUntil("the stall clears") {
                let output = try control.status()["output"] as? [String: Any]
                return output?["state"] as? String == "ok" && output?["error"] is NSNull
            }
            try waitUntil("the position moves on") { number(try control.status()["position"]) ?? 0 > held + 0.5 }
            try waitUntil("the tone plays to its end", limit: 30) { try control.status()["state"] as? String == "stopped" }
        }
    }
}

/// Reads a FIFO on its own thread at about real time (a little faster, as a reader that
/// keeps up does), or holds it open and reads nothing while `holds(true)`.
private final class PacedFIFOReader: @unchecked Sendable {
    private let holding = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(path: String, bytesPerSecond: Int) {
        let slice = bytesPerSecond / 8  // a tenth of a second's worth every 100 ms, and a quarter more
        Thread.detachNewThread { [self] in
            // Opening the read end waits for the writer (qplayd opening its output).
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            var buffer = [UInt8](repeating: 0, count: slice)
            while fd >= 0 && !finished.load(ordering: .relaxed) {
                if !holding.load(ordering: .relaxed) {
                    if read(fd, &buffer, slice) == 0 { usleep(10_000) }
                }
                usleep(100_000)
            }
            if fd >= 0 { close(fd) }
            done.signal()
        }
    }

    func holds(_ value: Bool) { holding.store(value, ordering: .relaxed) }

    /// Stops reading and closes the FIFO (a reader still waiting for a writer is left
    /// to the process's end).
    func finish() {
        finished.store(true, ordering: .relaxed)
        _ = done.wait(timeout: .now() + 2)
    }
}
