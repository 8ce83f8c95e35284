import Foundation
import QPlayTestSupport
import Testing

/// Tap and hold, seek, volume, repeat, shuffle, jump, remove, move and clear against the
/// real daemon (docs/BEHAVIOUR.md, Queue rules; README.md).
@Suite("End to end: transport and queue commands", .timeLimit(.minutes(2)))
struct TransportTests {
    @Test func aTapOfNextSkipsEvenWhenPressAndReleaseComeFromTwoProcesses() throws {
        do {
            // Key bindings run `qplay press` on key-down and another `qplay release` on
            // key-up. The tap threshold is raised so that starting two processes on a
            // busy machine still counts as a tap; the daemon measures the hold itself.
            try withDaemon(config: "tap_threshold_ms = 2000\n") { daemon in
                try daemon.qplayOK("add", "love")
                try daemon.qplayOK("press", "next")
                usleep(50_000)
                let release = try daemon.qplayJSON("release", "next")
                #expect(release["action"] as? String == "skip")
                let held = try #require(release["held_ms"] as? Int)
                #expect(held >= 50 && held < 2000)
                let status = try daemon.qplayJSON("status")
                #expect(title(status) == "Endless Love")
                #expect(status["seeking"] as? String == "none")
            }
        }
    }

    @Test func holdingNextScansForwardAtTheScanRate() throws {
        do {
            let music = TemporaryDirectory("qplay-e2e-music")
            defer { music.remove() }
            _ = try GeneratedAudio.sweep(in: music, name: "long sweep.mp3", seconds: 30, vbr: false)
            try withDaemon(music: music.path.string) { daemon in
                let control = try daemon.client()
                try daemon.qplayOK("add", "sweep")
                try waitUntil("the sweep plays") { number(try control.status()["position"]) ?? 0 > 0.2 }
                let before = try #require(number(try control.status()["position"]))
                try control.ok("press", ["button": "next"])
                let pressed = Date()
                try waitUntil("the hold scans") { try control.status()["seeking"] as? String == "forward" }
                usleep(useconds_t(max(0, 1.5 - Date().timeIntervalSince(pressed)) * 1_000_000))
                let release = try control.ok("release", ["button": "next"])
                let after = try control.status()
                let afterPosition = try #require(number(after["position"]))
                #expect(release["action"] as? String == "seek")
                let held = Double(try #require(release["held_ms"] as? Int)) / 1000
                #expect(held >= 1.5)
                #expect(after["seeking"] as? String == "none")
                #expect(title(after) == "long sweep", "still the same track")
                // Real time until the 300 ms threshold, then 4× real time until the release.
                let expected = 0.3 + 4 * (held - 0.3)
                let advanced = afterPosition - before
                #expect(abs(advanced - expected) < 1.5, "advanced \(advanced) s in a \(held) s hold; expected about \(expected)")
            }
        }
    }

    @Test func seekVolumeRepeatAndShuffle() throws {
        do {
            try withDaemon { daemon in
                let control = try daemon.client()
                try daemon.qplayOK("add", "--where", "album~day")  // Morning, Evening: 4 s each
                try waitUntil("Morning plays") { number(try control.status()["position"]) ?? 0 > 0.3 }

                // seek: relative, absolute (M:SS), and two relative seeks in a row.
                let before = try #require(number(try control.status()["position"]))
                let seeked = try daemon.qplayJSON("seek", "+2")
                let target = try #require(number(seeked["position"]))
                // Upper bound: starting qplay takes a while on a busy machine, and the track plays on.
                #expect(target >= before + 1.8 && target < before + 3.5, "seek +2 from \(before) answered \(target)")
                #expect(title(seeked) == "Morning")
                let absolute = try daemon.qplayJSON("seek", "0:01")
                #expect(abs((number(absolute["position"]) ?? -1) - 1) < 0.5)
                try control.ok("seek", ["position": 0])
                try control.ok("seek", ["delta": 1])
                let twice = try control.ok("seek", ["delta": 1])
                let twicePosition = try #require(number(twice["position"]))
                #expect(twicePosition >= 1.8 && twicePosition < 2.8, "two seeks of +1 from 0 reached \(twicePosition)")
                #expect(try daemon.qplay("seek", "-100").status == 0)
                #expect((number(try control.status()["position"]) ?? 9) < 1, "seek is clamped at 0")

                // vol: set, up, down, clamped.
                #expect(try daemon.qplayJSON("vol", "40")["volume"] as? Int == 40)
                #expect(try daemon.qplayJSON("vol", "+15")["volume"] as? Int == 55)
                #expect(try daemon.qplayJSON("vol", "-100")["volume"] as? Int == 0)
                #expect(try daemon.qplayOK("vol", "80").contains("80"))

                // repeat one: the track starts again at its end.
                #expect(try daemon.qplayJSON("repeat", "one")["repeat"] as? String == "one")
                let morning = try control.status()["entry"] as? Int
                try control.ok("seek", ["position": 3.5])
                try waitUntil("Morning plays again") {
                    let status = try control.status()
                    return status["entry"] as? Int == morning && (number(status["position"]) ?? 9) < 1
                        && status["state"] as? String == "playing"
                }
                // repeat all: the end of the last entry goes on with the first.
                #expect(try daemon.qplayJSON("repeat", "all")["repeat"] as? String == "all")
                let evening = try daemon.qplayJSON("jump", "2")
                #expect(title(evening) == "Evening")
                try control.ok("seek", ["position": 3.5])
                try waitUntil("the queue starts over") {
                    let status = try control.status()
                    return title(status) == "Morning" && status["state"] as? String == "playing"
                }
                #expect(try daemon.qplayJSON("repeat", "off")["repeat"] as? String == "off")

                // shuffle: the option changes; the queue the user sees keeps its order.
                #expect(try daemon.qplayJSON("shuffle", "on")["shuffle"] as? Bool == true)
                let queue = try daemon.qplayJSON("queue")
                let titles = (queue["entries"] as? [[String: Any]])?.map { ($0["track"] as? [String: Any])?["title"] as? String }
                #expect(titles == ["Morning", "Evening"])
                #expect(try daemon.qplayJSON("shuffle", "off")["shuffle"] as? Bool == false)
                #expect(try control.status()["output"].flatMap { ($0 as? [String: Any])?["error"] } is NSNull)
            }
        }
    }

    @Test func jumpRemoveMoveAndClearFollowTheQueueRules() throws {
        do {
            try withDaemon { daemon in
                let control = try daemon.client()
                try daemon.qplayOK("add", "love")
                try daemon.qplayOK("add", "--where", "album~day")
                #expect(try control.status()["queue_modified"] as? Bool == true)

                // jump installs the modified queue, then plays the entry — from its start,
                // as the status it answers says (not the position the old track had got to).
                try control.ok("seek", ["position": 2.0])
                let jumped = try daemon.qplayJSON("jump", "4")
                #expect(title(jumped) == "Morning")
                #expect((number(jumped["position"]) ?? 9) < 1)
                #expect(jumped["index"] as? Int == 3)
                #expect(jumped["queue_modified"] as? Bool == false)

                // Removing the playing entry moves on to the next one.
                let morning = try #require(jumped["entry"] as? Int)
                try daemon.qplayOK("remove", "4")
                var status = try control.status()
                #expect(title(status) == "Evening")
                #expect(status["entry"] as? Int != morning)
                #expect(status["index"] as? Int == 3)
                #expect(status["queue_length"] as? Int == 4)
                #expect(status["state"] as? String == "playing")

                // move: the queue changes, the sound does not.
                let evening = status["entry"] as? Int
                try daemon.qplayOK("move", "1", "3")
                let queue = try daemon.qplayJSON("queue")
                let titles = (queue["entries"] as? [[String: Any]])?.map { ($0["track"] as? [String: Any])?["title"] as? String }
                #expect(titles == ["Endless Love", "Love Theme", "Love Song", "Evening"])
                #expect(queue["modified"] as? Bool == true)
                #expect(queue["current"] as? Int == evening)
                status = try control.status()
                #expect(status["entry"] as? Int == evening)
                #expect(status["index"] as? Int == 3)

                // Removing the last entry while it plays stops playback.
                try daemon.qplayOK("remove", "4")
                status = try control.status()
                #expect(status["state"] as? String == "stopped")
                #expect(status["track"] is NSNull)
                #expect(status["queue_length"] as? Int == 3)

                // clear: the queue empties, the sound goes on until the track ends.
                #expect(title(try daemon.qplayJSON("jump", "1")) == "Endless Love")
                try daemon.qplayOK("clear")
                status = try control.status()
                #expect(status["queue_length"] as? Int == 0)
                #expect(status["queue_modified"] as? Bool == true)
                #expect(status["state"] as? String == "playing")
                #expect(title(status) == "Endless Love")
                try control.ok("seek", ["position": 2.0])
                try waitUntil("the cleared queue ends playback") { try control.status()["state"] as? String == "stopped" }
                status = try control.status()
                #expect(status["track"] is NSNull)
                #expect(status["queue_modified"] as? Bool == false)
                #expect(try daemon.capturedFiles().last == sampleFile(titled: "Endless Love"))
            }
        }
    }
}
