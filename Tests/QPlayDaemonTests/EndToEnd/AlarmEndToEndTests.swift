import Foundation
import QPlayTestSupport
import SystemPackage
import Testing

/// The alarm clock through the real daemon and the real `qplay`: ringing on the wall
/// clock with a fade-in heard in the capture, persistence across `kill -9`, the 5-minute
/// grace at start-up, and the CLI.
///
/// "Restarted N minutes after the alarm's time" is made real without waiting N minutes:
/// the restarted qplayd runs with `QPLAYD_CLOCK_OFFSET` (its wall clock N minutes plus
/// the alarm's distance ahead), so it finds the alarm's stored due time that far behind.
@Suite(.serialized) struct AlarmEndToEndTests {
    static let morning = ToneFixture(file: "morning.mp3", title: "Morning", toneHz: 660, seconds: 30, artist: "Wake", album: "Dawn")
    static let night = ToneFixture(file: "night.mp3", title: "Night", toneHz: 330, seconds: 30, artist: "Sleep", album: "Dusk")

    /// `HH:MM:SS` in the local time zone (the daemon's too: same environment), `seconds` ahead.
    static func localTime(in seconds: Double, from now: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.hour, .minute, .second], from: now.addingTimeInterval(seconds))
        return String(format: "%02d:%02d:%02d", c.hour!, c.minute!, c.second!)
    }

    /// Skips the few seconds before local midnight, when "N seconds ahead" is tomorrow.
    static func awayFromMidnight(_ margin: Double) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let now = Date()
        let c = calendar.dateComponents([.hour, .minute, .second], from: now)
        let intoDay = Double(c.hour! * 3600 + c.minute! * 60 + c.second!)
        if intoDay + margin >= 86_400 { usleep(UInt32((86_400 - intoDay + 1) * 1_000_000)) }
    }

    /// Runs `body` with a daemon serving the two tones, stopped and removed after.
    static func withDaemon(_ body: (DaemonProcess, TemporaryDirectory) throws -> Void) throws {
        let music = TemporaryDirectory("qplay-alarm")
        defer { music.remove() }
        _ = try ToneFixtures.generate([morning, night], in: music)
        try QPlayTestSupport.withDaemon(music: music.path.string) { daemon in try body(daemon, music) }
    }

    @Test func anAlarmThreeSecondsAheadStartsItsTracksWithARisingFadeIn() throws {
        Self.awayFromMidnight(10)
        try Self.withDaemon { daemon, music in
            let events = try daemon.client()
            try events.ok("subscribe")
            let client = try daemon.client()
            // Something in the queue, paused: the alarm's tracks go after it and play.
            try client.ok("add", ["paths": [Self.night.file]])
            try client.ok("pause")
            let time = Self.localTime(in: 3)
            let set = try daemon.qplayOK("alarm", time, "Morning", "--volume", "80", "--fade-in", "2")
            #expect(set.hasPrefix("alarm 1: \(time)  once  next "), "\(set)")
            let fired = try events.event("alarm")
            #expect(fired["alarm"] as? Int == 1)
            #expect(fired["skipped"] is NSNull, "\(fired)")
            let status = try client.status()
            #expect(title(status) == "Morning")
            #expect(status["state"] as? String == "playing")
            #expect(status["volume"] as? Int == 80)
            let queue = try client.ok("queue")
            let titles = (queue["entries"] as? [[String: Any]] ?? []).map { ($0["track"] as? [String: Any])?["title"] as? String }
            #expect(titles == ["Night", "Morning"])
            // A once-alarm is gone after it rang.
            #expect(try daemon.qplayOK("alarms") == "no alarms\n")

            let start = try daemon.capturedSamples().count
            try waitUntil("three seconds of the alarm were played") {
                try daemon.capturedSamples().count > start + 44100 * 2 * 3
            }
            let captured = try daemon.capturedSamples()
            let runs = ToneRuns.runs(in: captured, tones: [Self.night.toneHz, Self.morning.toneHz])
            let morningRun = try #require(runs.first { $0.tone == 1 && $0.frames > 4410 }, "\(runs)")
            // What came before the alarm in the capture (the paused Night) is left out.
            let heard = captured[(morningRun.startFrame * 2)...]
            let levels = SleepTimerEndToEndTests.windowLevels(heard, seconds: 0.2)
            let rising = Array(levels.prefix(8))
            for (earlier, later) in zip(rising, rising.dropFirst()) {
                #expect(later >= earlier * 0.999, "the level fell during the fade-in: \(rising)")
            }
            let full = try #require(levels.dropFirst(12).first, "\(levels)")
            #expect(rising.first! < full * 0.2, "no fade-in: \(levels)")
            // Volume 80 on the cubic curve: 0.512 of the track's level (0.5 of full scale).
            let reference = ToneFixtures.rms(try ToneFixtures.decodedByLame(music.appending(Self.morning.file), in: music))
            #expect(abs(full / (reference * 0.512) - 1) < 0.05, "\(full) vs \(reference * 0.512)")
        }
    }

    @Test func anAlarmDoesNotInterruptWhatPlays() throws {
        Self.awayFromMidnight(10)
        try Self.withDaemon { daemon, music in
            let events = try daemon.client()
            try events.ok("subscribe", ["events": ["alarm"]])
            let client = try daemon.client()
            try client.ok("add", ["paths": [Self.night.file]])
            try client.ok("alarm_add", ["time": Self.localTime(in: 2), "where": [["property": "title", "op": "equals", "value": "Morning"]]])
            let fired = try events.event("alarm")
            #expect(fired["skipped"] as? String == "already playing")
            #expect(title(try client.status()) == "Night")
            #expect(try client.ok("queue")["entries"] as? [Any] != nil)
            #expect((try client.ok("queue")["entries"] as? [Any])?.count == 1)
            #expect(daemon.log.contains("did not play: already playing"), "\(daemon.log)")
        }
    }

    @Test func withoutASelectionAStoppedQueuePlaysFromItsCurrentEntry() throws {
        Self.awayFromMidnight(10)
        try Self.withDaemon { daemon, music in
            let events = try daemon.client()
            try events.ok("subscribe", ["events": ["alarm"]])
            let client = try daemon.client()
            try client.ok("add", ["paths": [Self.night.file, Self.morning.file]])
            try client.ok("next")
            try client.ok("stop")
            try client.ok("alarm_add", ["time": Self.localTime(in: 2), "volume": 30])
            let fired = try events.event("alarm")
            #expect(fired["skipped"] is NSNull, "\(fired)")
            let status = try client.status()
            #expect(status["state"] as? String == "playing")
            #expect(title(status) == "Morning")
            #expect(status["volume"] as? Int == 30)
            #expect((number(status["position"]) ?? 99) < 5)
            #expect((try client.ok("queue")["entries"] as? [Any])?.count == 2)
        }
    }

    @Test func anAlarmSurvivesKill9AndRingsAfterARestartBeforeItsTime() throws {
        Self.awayFromMidnight(30)
        try Self.withDaemon { daemon, music in
            try daemon.qplayOK("alarm", Self.localTime(in: 8), "--where", "title=Morning")
            daemon.kill9()
            try daemon.start()
            #expect(try daemon.qplayOK("alarms").contains("plays title=Morning"))
            let client = try daemon.client()
            try waitUntil("the alarm rang", limit: 30) { try client.status()["state"] as? String == "playing" }
            #expect(title(try client.status()) == "Morning")
        }
    }

    @Test func restartedTwoMinutesAfterItsTimeItRingsAtStartUp() throws {
        Self.awayFromMidnight(120)
        try Self.withDaemon { daemon, music in
            try daemon.qplayOK("alarm", Self.localTime(in: 60), "--where", "title=Morning")
            daemon.kill9()
            daemon.daemonEnvironment["QPLAYD_CLOCK_OFFSET"] = "\(60 + 120)"
            try daemon.start()
            let client = try daemon.client()
            try waitUntil("the alarm rang", limit: 30) { try client.status()["state"] as? String == "playing" }
            #expect(title(try client.status()) == "Morning")
            // The ring is logged once the player has started, then the alarm is taken off.
            try waitUntil("the ring logged", limit: 30) { daemon.log.contains("rang") }
            #expect(try daemon.qplayOK("alarms") == "no alarms\n")
        }
    }

    @Test func restartedTenMinutesAfterItsTimeItDoesNotRingAndSaysSo() throws {
        Self.awayFromMidnight(120)
        try Self.withDaemon { daemon, music in
            try daemon.qplayOK("alarm", Self.localTime(in: 60), "--days", "daily", "--where", "title=Morning")
            daemon.kill9()
            daemon.daemonEnvironment["QPLAYD_CLOCK_OFFSET"] = "\(60 + 600)"
            try daemon.start()
            let client = try daemon.client()
            try waitUntil("the missed alarm was logged") { daemon.log.contains("missed") }
            #expect(daemon.log.contains("alarm 1 (") && daemon.log.contains("more than 300 s"), "\(daemon.log)")
            usleep(1_500_000)
            #expect(try client.status()["state"] as? String == "stopped")
            // A daily alarm stays, for tomorrow.
            let alarms = try #require(try client.ok("alarm_list")["alarms"] as? [[String: Any]])
            #expect(alarms.count == 1)
        }
    }

    /// The alarm's time is in qplayd's time zone, `TZ` honoured: Kathmandu's +05:45.
    @Test func theDaemonsTimeZoneComesFromTZ() throws {
        let music = TemporaryDirectory("qplay-alarm")
        defer { music.remove() }
        try QPlayTestSupport.withDaemon(
            music: music.path.string, environment: ["TZ": "Asia/Kathmandu"], waitForLibrary: false
        ) { daemon in
            try daemon.qplayOK("alarm", "07:00", "--days", "daily")
            let alarm = try #require((try daemon.qplayJSON("alarms")["alarms"] as? [[String: Any]])?.first)
            let next = try #require(alarm["next"] as? String)
            #expect(next.hasSuffix("T07:00:00+05:45"), "\(next)")
            let date = try #require(ISO8601DateFormatter().date(from: next))
            #expect(date > Date() && date.timeIntervalSinceNow <= 86_400)
        }
    }

    @Test func theCLIListsAndRemovesAlarmsAndRefusesBadOnes() throws {
        try Self.withDaemon { daemon, music in
            let set = try daemon.qplayOK("alarm", "07:00", "--days", "mon-fri", "--id", "1", "--fade-in", "30")
            #expect(set.hasPrefix("alarm 1: 07:00:00  mon-fri  next "), "\(set)")
            try daemon.qplayOK("alarm", "21:30:15", "--days", "sat,sun", "--volume", "20")
            let listed = try daemon.qplayOK("alarms")
            let lines = listed.split(separator: "\n")
            #expect(lines.count == 2, "\(listed)")
            #expect(listed.contains("1  07:00:00  mon-fri  next "), "\(listed)")
            #expect(listed.contains("fade-in 0:30  plays #1"), "\(listed)")
            #expect(listed.contains("2  21:30:15  sat,sun  next "), "\(listed)")
            #expect(listed.contains("volume 20  resumes the queue"), "\(listed)")
            // The next firing time: ISO-8601 local time with the offset, on a weekday.
            let json = try daemon.qplayJSON("alarms")
            let first = try #require((json["alarms"] as? [[String: Any]])?.first { $0["alarm"] as? Int == 1 })
            let next = try #require(first["next"] as? String)
            #expect(next.count == 25 && next.contains("T07:00:00"), "\(next)")
            let date = try #require(ISO8601DateFormatter().date(from: next))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            #expect((2...6).contains(calendar.component(.weekday, from: date)))
            #expect(date > Date())

            try daemon.qplayOK("alarm", "rm", "1")
            #expect(!(try daemon.qplayOK("alarms")).contains("07:00:00"))
            let missing = try daemon.qplay("alarm", "rm", "1")
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("no alarm 1"), "\(missing.stderr)")
            // A bad TIME is a usage error, found before the daemon is asked.
            let badTime = try daemon.qplay("alarm", "25:00")
            #expect(badTime.status == 2)
            #expect(badTime.stderr.contains("HH:MM"), "\(badTime.stderr)")
            #expect(try daemon.qplay("alarm", "07:00", "--days", "someday").status == 2)
            #expect(try daemon.qplay("alarm").status == 2)
            let nothing = try daemon.qplay("alarm", "07:00", "--where", "title=Nothing Like This")
            #expect(nothing.status == 1)
            #expect(try daemon.qplayOK("alarms").split(separator: "\n").count == 1)
            // Survives a clean restart.
            daemon.stop()
            try daemon.start()
            #expect(try daemon.qplayOK("alarms").contains("21:30:15"))
        }
    }
}
