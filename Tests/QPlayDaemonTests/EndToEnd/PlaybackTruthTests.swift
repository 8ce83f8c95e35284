import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// docs/BEHAVIOUR.md, Audio: whatever happens to the files and however loaded the machine, what status
/// says plays is what the output receives, every skip is reported with a reason, and
/// a track change shows the new track at its own position. Each scenario starts the
/// real qplayd on a music folder of its own whose files it then breaks while they are
/// queued.
@Suite("End to end: playback truth", .serialized, .timeLimit(.minutes(5)), .tags(.heavy), .group(.heavy))
struct PlaybackTruthTests {
    /// A file that was corrupted (text) and the one after it deleted while the track
    /// before them played: the player must get to the fourth, under two busy loops,
    /// every time.
    @Test func afterACorruptAndADeletedFileTheNextGoodOnePlays() throws {
        let rig = try TruthRig(subscribe: ["error"])
        defer { rig.close() }
        let (music, daemon, control, events) = (rig.music, rig.daemon, rig.control, rig.events)
        let hogs = try CPUHogs(count: 2)
        defer { hogs.stop() }

        let runs = 20
        for run in 1...runs {
            try music.restore()
            try control.ok("update", ["wait": true])
            try control.ok("clear")
            try control.ok("add", ["paths": ["a.mp3", "b.mp3", "c.mp3", "d.mp3"]])
            // A second of a: its successor is prefetched, and its tone is long enough to
            // tell the runs apart in the capture.
            try waitUntil("run \(run): a plays") {
                let status = try control.status()
                return title(status) == "Morning" && (number(status["position"]) ?? 0) >= 1
            }
            try music.overwrite("b.mp3", with: Array(String(repeating: "not audio at all\n", count: 2000).utf8))
            try music.delete("c.mp3")
            try control.ok("seek", ["position": 3.5])

            // b's decoder was opened before the overwrite and may still hand out the one
            // frame libmpg123 read while opening: then b plays for 26 ms and ends rather
            // than fails. c cannot be opened at all.
            let c = try events.event("error") { trackTitle($0["track"]) == "Love Song" }
            #expect(c["reason"] as? String == "file not found", "run \(run)")
            try expectPlaying(control, title: "Ночной город", daemon: daemon, context: "run \(run)", until: 1.2)
        }
        let heard = try daemon.capturedFiles()
        let fourth = SampleCatalog.all.first { $0.title == "Ночной город" }!.file
        #expect(heard.filter { $0 == fourth }.count == runs, "the fourth track heard in every run: \(heard)")
        #expect(!heard.contains(sampleFile(titled: "Evening")), "nothing of the corrupted file")
        #expect(daemon.stop() == 0)
    }

    /// Files that cannot be opened without blocking or that hold no audio at all —
    /// a FIFO, a link to /dev/zero, a sparse 2 GB file of zeros, 2 MB of zeros — are
    /// skipped with a reason, the track after them plays, and SIGTERM still ends qplayd.
    @Test func filesThatBlockOrHoldOnlyZerosAreSkipped() throws {
        let rig = try TruthRig(extra: ["e.mp3", "f.mp3"], subscribe: ["error"])
        defer { rig.close() }
        let (music, daemon, control, events) = (rig.music, rig.daemon, rig.control, rig.events)

        // Indexed as good files at start-up, swapped before they are queued: each is
        // opened for the first time as the successor of the one before it.
        try music.replaceWithFIFO("b.mp3")
        try music.replaceWithSymlink("c.mp3", to: "/dev/zero")
        try music.replaceWithZeros("e.mp3", bytes: 2 << 30)
        try music.replaceWithZeros("f.mp3", bytes: 2 << 20)
        try control.ok("add", ["paths": ["a.mp3", "b.mp3", "c.mp3", "e.mp3", "f.mp3", "d.mp3"]])
        try waitUntil("a plays") { (number(try control.status()["position"]) ?? 0) >= 0.3 }
        try control.ok("seek", ["position": 3.5])

        var reasons: [String: String] = [:]
        for _ in 0..<4 {
            let skipped = try events.event("error")
            let path = (skipped["track"] as? [String: Any])?["path"] as? String ?? "?"
            reasons[path] = skipped["reason"] as? String
        }
        #expect(reasons["b.mp3"] == "not a regular file")
        #expect(reasons["c.mp3"] == "not a regular file")
        #expect(reasons["e.mp3"]?.hasPrefix("not a file qplay plays (MP3, FLAC, Ogg Vorbis, Opus, AAC, ALAC, WAV, AIFF, WavPack): no MPEG audio") == true, "\(reasons)")
        #expect(reasons["f.mp3"]?.hasPrefix("not a file qplay plays (MP3, FLAC, Ogg Vorbis, Opus, AAC, ALAC, WAV, AIFF, WavPack): no MPEG audio") == true, "\(reasons)")
        try expectPlaying(control, title: "Ночной город", daemon: daemon, context: "after the four")

        let stopped = Date()
        let status = daemon.stop()
        #expect(status == 0)
        print("qplayd exited \(status) \(String(format: "%.2f", Date().timeIntervalSince(stopped))) s after SIGTERM")
    }

    /// At every track change the pushed `player` event carries the new track with its
    /// own position, not the end of the one before.
    @Test func trackChangeEventsCarryTheNewTracksPosition() throws {
        let rig = try TruthRig(subscribe: ["player"])
        defer { rig.close() }
        let (control, events) = (rig.control, rig.events)
        // a and b have one format: they join gaplessly, the change the audio thread makes.
        try control.ok("add", ["paths": ["a.mp3", "b.mp3", "a.mp3", "b.mp3", "a.mp3", "b.mp3"]])
        var lastEntry: Int?
        var changes = 0
        while changes < 6 {
            let data = try events.event("player")
            guard let entry = data["entry"] as? Int else { break }
            if entry != lastEntry {
                changes += 1
                lastEntry = entry
                let position = number(data["position"]) ?? -1
                #expect(position < 0.5, "\(title(data) ?? "?") entry \(entry) announced at \(position) s")
                // Near the end at once, so the next change comes soon.
                try control.ok("seek", ["position": 3.3])
            }
        }
        #expect(changes == 6)
    }

    /// docs/BEHAVIOUR.md, Audio: a skipped entry produces an error event, with a reason a person reads.
    @Test func everySkipIsAnErrorEventWithAReason() throws {
        let rig = try TruthRig(subscribe: nil)
        defer { rig.close() }
        let (music, daemon, control, events) = (rig.music, rig.daemon, rig.control, rig.events)
        try music.delete("a.mp3")
        try music.overwrite("b.mp3", with: Array(String(repeating: "not audio at all\n", count: 2000).utf8))
        try control.ok("add", ["paths": ["a.mp3", "b.mp3", "c.mp3"]])
        let a = try events.event("error")
        #expect(a["reason"] as? String == "file not found")
        #expect(trackTitle(a["track"]) == "Morning")
        #expect(a["entry"] as? Int != nil)
        let b = try events.event("error")
        #expect((b["reason"] as? String)?.hasPrefix("not a file qplay plays (MP3, FLAC, Ogg Vorbis, Opus, AAC, ALAC, WAV, AIFF, WavPack): no MPEG audio") == true, "\(b)")
        try expectPlaying(control, title: "Love Song", daemon: daemon, context: "after two skips")
        let qplay = try daemon.qplay("status")
        #expect(qplay.status == 0)
        #expect(qplay.stdout.contains("Love Song"))
    }

    // MARK: helpers

    /// "playing" must mean it: the track is `title`, and within a while the position
    /// moves and the capture grows.
    /// With `until`, also waits for that many seconds of the track to have played.
    private func expectPlaying(
        _ control: LineSocketClient, title expected: String, daemon: DaemonProcess, context: String, until: Double = 0
    ) throws {
        try waitUntil("\(context): \(expected) plays") {
            let status = try control.status()
            return title(status) == expected && status["state"] as? String == "playing"
        }
        let before = try control.status()
        let captured = (try? FileManager.default.attributesOfItem(atPath: daemon.capturePath)[.size] as? Int) ?? 0
        try waitUntil("\(context): the position of \(expected) moves and audio flows") {
            let now = try control.status()
            let size = (try? FileManager.default.attributesOfItem(atPath: daemon.capturePath)[.size] as? Int) ?? 0
            let position = number(now["position"]) ?? 0
            return title(now) == expected && position > (number(before["position"]) ?? 0) && position >= until
                && size > captured
        }
    }
}

private func trackTitle(_ track: Any?) -> String? {
    (track as? [String: Any])?["title"] as? String
}

/// A daemon serving a `TruthMusic` folder, a control connection and a subscribed one
/// (`subscribe` nil: every event kind).
private struct TruthRig {
    let music: TruthMusic
    let daemon: DaemonProcess
    let control: LineSocketClient
    let events: LineSocketClient

    init(extra: [String] = [], subscribe kinds: [String]?) throws {
        music = try TruthMusic(extra: extra)
        daemon = try startedDaemon(music: music.path)
        control = try daemon.client()
        events = try daemon.client()
        try events.ok("subscribe", kinds.map { ["events": $0] })
    }

    /// Stops the daemon if a test has not (a second SIGTERM is harmless) and removes
    /// the folders.
    func close() {
        daemon.stop()
        daemon.directory.remove()
        music.remove()
    }
}

/// A music folder of copies of Samples, named a.mp3, b.mp3, …: a (Morning) and b
/// (Evening) share a format; c is Love Song, d Ночной город, e and f Straße and 夜の歌.
private struct TruthMusic {
    let directory = TemporaryDirectory("qplay-truth")
    private let sources: [String: String]

    var path: String { directory.path.string }

    init(extra: [String] = []) throws {
        var sources = [
            "a.mp3": "Test Tones/Day Cycle/01 Morning.mp3", "b.mp3": "Test Tones/Day Cycle/02 Evening.mp3",
            "c.mp3": "Test Tones/Love Songs/01 Love Song.mp3", "d.mp3": "Various/Ночной город.mp3",
        ]
        let more = ["e.mp3": "Various/Straße.mp3", "f.mp3": "Various/夜の歌.mp3"]
        for name in extra { sources[name] = more[name] }
        self.sources = sources
        try restore()
    }

    /// Every file as it was: whatever a run put in its place goes first.
    func restore() throws {
        for (name, source) in sources {
            let target = directory.appending(name)
            _ = target.withPlatformString { unlink($0) }
            try directory.copy(SampleCatalog.directory.appending(source), to: target)
        }
    }

    /// New bytes in the same file (same inode): a decoder that opened it reads them.
    func overwrite(_ name: String, with bytes: [UInt8]) throws {
        try directory.write(bytes, to: directory.appending(name))
    }

    func delete(_ name: String) throws {
        guard directory.appending(name).withPlatformString({ unlink($0) }) == 0 else {
            throw LineSocketClient.Failure(description: "unlink \(name): \(errno)")
        }
    }

    func replaceWithFIFO(_ name: String) throws {
        try delete(name)
        guard directory.appending(name).withPlatformString({ mkfifo($0, 0o600) }) == 0 else {
            throw LineSocketClient.Failure(description: "mkfifo \(name): \(errno)")
        }
    }

    func replaceWithSymlink(_ name: String, to target: String) throws {
        try delete(name)
        guard directory.appending(name).withPlatformString({ symlink(target, $0) }) == 0 else {
            throw LineSocketClient.Failure(description: "symlink \(name): \(errno)")
        }
    }

    /// A file of `bytes` zeros, sparse (it costs no disk).
    func replaceWithZeros(_ name: String, bytes: Int) throws {
        try delete(name)
        let descriptor = try FileDescriptor.open(
            directory.appending(name), .writeOnly, options: [.create, .truncate], permissions: .ownerReadWrite)
        defer { try? descriptor.close() }
        guard ftruncate(descriptor.rawValue, off_t(bytes)) == 0 else {
            throw LineSocketClient.Failure(description: "ftruncate \(name): \(errno)")
        }
    }

    func remove() { directory.remove() }
}
