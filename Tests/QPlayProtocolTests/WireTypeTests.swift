import Foundation
import QPlayProtocol
import Testing

/// Encodes a value and reads it back as a JSON object.
func object(_ value: some Encodable) throws -> [String: JSONValue] {
    guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: Data(WireCoding.line(value))) else {
        throw CocoaError(.coderReadCorrupt)
    }
    return object
}

func text(_ value: some Encodable) -> String {
    String(decoding: WireCoding.line(value).dropLast(), as: UTF8.self)
}

let sampleTrack = Track(
    id: 42, path: "Artist/Album/01 Song.mp3", title: "Song", artist: "Beyoncé", album: "Live",
    albumArtist: nil, track: 1, disc: nil, year: 2003, genre: nil, duration: 183.456789, format: "mp3",
    sampleRate: 44100, channels: 2, bits: nil)

let sampleStatus = Status(
    state: .playing, track: sampleTrack, entry: 5, index: 2, position: 12.3456, duration: 183.456789,
    queueLength: 4, queueModified: true, volume: 80, repeat: .all, shuffle: true, seeking: .forward,
    output: OutputStatus(name: "alsa:default", error: nil),
    replayGain: ReplayGainStatus(mode: "auto", gain: -6.0214, source: "album"))

@Suite("Wire types")
struct WireTypeTests {
    @Test func trackHasEveryKeyWithNullsForAbsentValues() throws {
        #expect(
            text(sampleTrack)
                == #"{"added":null,"album":"Live","album_artist":null,"art":null,"artist":"Beyoncé","bits":null,"channels":2,"disc":null,"duration":183.457,"format":"mp3","genre":null,"id":42,"last_played":null,"path":"Artist/Album/01 Song.mp3","plays":null,"rating":null,"sample_rate":44100,"skips":null,"title":"Song","track":1,"year":2003}"#
        )
    }

    @Test func flacTrackCarriesItsBitDepth() throws {
        let flac = Track(
            id: 7, path: "a.flac", title: "A", duration: 2, format: "flac", sampleRate: 96000, channels: 2, bits: 24)
        let fields = try object(flac)
        #expect(fields["format"] == .string("flac"))
        #expect(fields["sample_rate"] == .integer(96000))
        #expect(fields["channels"] == .integer(2))
        #expect(fields["bits"] == .integer(24))
        #expect(try WireCoding.decode(Track.self, from: WireCoding.line(flac)) == flac)
    }

    @Test func trackFromAnOlderDaemonDecodesWithoutFormatFields() throws {
        let line = Array(#"{"id":1,"path":"a.mp3","title":"A","duration":1}"#.utf8)
        let track = try WireCoding.decode(Track.self, from: line)
        #expect(track.format == nil && track.sampleRate == nil && track.channels == nil && track.bits == nil)
    }

    @Test func statusFromAnOlderDaemonDecodesWithSingleAndConsumeOff() throws {
        var fields = try object(sampleStatus)
        fields["single"] = nil
        fields["consume"] = nil
        let line = Array(try JSONEncoder().encode(JSONValue.object(fields)))
        let status = try WireCoding.decode(Status.self, from: line)
        #expect(status.single == false && status.consume == false)
        #expect(status.shuffle)
    }

        @Test func trackRoundTrips() throws {
        var rounded = sampleTrack
        rounded.duration = 183.457
        #expect(try WireCoding.decode(Track.self, from: WireCoding.line(sampleTrack)) == rounded)
    }

    @Test func statusUsesSnakeCaseAndNulls() throws {
        let fields = try object(sampleStatus)
        #expect(Set(fields.keys) == [
            "state", "track", "entry", "index", "position", "duration", "queue_length", "queue_modified",
            "volume", "repeat", "shuffle", "single", "consume", "seeking", "output", "storage_error", "replaygain",
            "sleep", "level", "chapters", "chapter", "outputs",
        ])
        #expect(fields["sleep"] == .null)
        #expect(fields["chapters"] == .null && fields["chapter"] == .null, "no chapters: null, not []")
        var sleeping = sampleStatus
        sleeping.sleep = SleepStatus(remaining: 90.1234, endOfTrack: false)
        #expect(try object(sleeping)["sleep"] == .object(["remaining": .number(90.123), "end_of_track": .bool(false)]))
        #expect(try WireCoding.decode(Status.self, from: WireCoding.line(sleeping)).sleep?.remaining == 90.123)
        #expect(fields["level"] == .null)
        #expect(fields["single"] == .bool(false))
        #expect(fields["consume"] == .bool(false))
        var modes = sampleStatus
        modes.single = true
        modes.consume = true
        #expect(try object(modes)["single"] == .bool(true))
        #expect(try object(modes)["consume"] == .bool(true))
        #expect(try WireCoding.decode(Status.self, from: WireCoding.line(modes)).consume)
        #expect(fields["storage_error"] == .null)
        #expect(fields["position"] == .number(12.346))
        #expect(fields["seeking"] == .string("forward"))
        #expect(fields["output"] == .object(["name": .string("alsa:default"), "error": .null, "state": .string("ok")]))
        #expect(fields["outputs"] == .null, "not given: null")
        var two = sampleStatus
        two.outputs = [
            OutputStatus(name: "alsa:default"),
            OutputStatus(name: "pipe:/tmp/f", error: "stalled: took no samples for 500 ms", state: .stalled),
        ]
        #expect(try WireCoding.decode(Status.self, from: WireCoding.line(two)).outputs == two.outputs)
        #expect(
            try object(two)["outputs"] == .array([
                .object(["name": .string("alsa:default"), "error": .null, "state": .string("ok")]),
                .object([
                    "name": .string("pipe:/tmp/f"), "error": .string("stalled: took no samples for 500 ms"),
                    "state": .string("stalled"),
                ]),
            ]))
        #expect(fields["replaygain"] == .object(["mode": .string("auto"), "gain": .number(-6.02), "source": .string("album")]))
        let stopped = try object(Status(state: .stopped, output: OutputStatus(name: "null")))
        #expect(stopped["track"] == .null)
        #expect(stopped["entry"] == .null)
        #expect(stopped["index"] == .null)
        #expect(stopped["position"] == .null)
        #expect(stopped["duration"] == .null)
        #expect(stopped["replaygain"] == .null)
        let untouched = try object(Status(state: .stopped, output: OutputStatus(name: "null"), replayGain: .init(mode: "off")))
        #expect(untouched["replaygain"] == .object(["mode": .string("off"), "gain": .null, "source": .null]))
    }

    @Test func statusRoundTrips() throws {
        let decoded = try WireCoding.decode(Status.self, from: WireCoding.line(sampleStatus))
        #expect(decoded.position == 12.346)
        #expect(decoded.track?.artist == "Beyoncé")
        #expect(decoded.repeat == .all)
        #expect(decoded.queueModified)
        #expect(decoded.replayGain == ReplayGainStatus(mode: "auto", gain: -6.02, source: "album"))
        // A status from before the field existed still reads.
        var older = WireCoding.line(sampleStatus)
        older = Array(String(decoding: older, as: UTF8.self).replacingOccurrences(
            of: #","replaygain":{"gain":-6.02,"mode":"auto","source":"album"}"#, with: "").utf8)
        #expect(try WireCoding.decode(Status.self, from: older).replayGain == nil)
    }

    @Test func queueAndEntries() throws {
        let queue = Queue(entries: [Entry(entry: 9, index: 0, track: sampleTrack)], current: nil, modified: false)
        let fields = try object(queue)
        #expect(fields["current"] == .null)
        #expect(fields["modified"] == .bool(false))
        guard case .array(let entries)? = fields["entries"], case .object(let entry) = entries[0] else {
            Issue.record("no entries")
            return
        }
        #expect(Set(entry.keys) == ["entry", "index", "track"])
        #expect(try WireCoding.decode(Queue.self, from: WireCoding.line(queue)).entries[0].entry == 9)
    }

    @Test func statsAndScanTotals() throws {
        let totals = ScanTotals(added: 1, updated: 2, removed: 3, skipped: 4, seconds: 1.23456)
        #expect(text(totals) == #"{"added":1,"removed":3,"seconds":1.235,"skipped":4,"updated":2}"#)
        let stats = Stats(tracks: 10, artists: 2, albums: 3, lastScan: nil, uptime: 5)
        #expect(text(stats) == #"{"albums":3,"artists":2,"last_scan":null,"tracks":10,"uptime":5}"#)
        let withScan = Stats(tracks: 10, artists: 2, albums: 3, lastScan: totals, uptime: 5)
        #expect(try WireCoding.decode(Stats.self, from: WireCoding.line(withScan)).lastScan?.skipped == 4)
    }

    @Test func smallResults() {
        #expect(text(EmptyResult()) == "{}")
        #expect(text(SearchResult(tracks: [])) == #"{"tracks":[]}"#)
        #expect(text(AddResult(added: 3, started: true)) == #"{"added":3,"started":true}"#)
        #expect(text(ReleaseResult(action: .seek, heldMilliseconds: 1500)) == #"{"action":"seek","held_ms":1500}"#)
        #expect(text(UpdateStarted()) == #"{"started":true}"#)
        #expect(text(Greeting(version: "1.2.3")) == #"{"protocol":"qplay/1","version":"1.2.3"}"#)
    }

    @Test func eventsHaveKindAndData() throws {
        #expect(
            text(Event.queue(QueueChange(length: 3, modified: true)))
                == #"{"data":{"length":3,"modified":true},"event":"queue"}"#)
        #expect(
            text(Event.scan(ScanProgressUpdate(seen: 5, total: nil, rate: 12.345, done: false)))
                == #"{"data":{"done":false,"rate":12.3,"seen":5,"total":null},"event":"scan"}"#)
        let player = Event.player(sampleStatus)
        let decoded = try WireCoding.decode(Event.self, from: player.encodedLine())
        #expect(decoded.kind == .player)
        for event in [Event.queue(QueueChange(length: 0, modified: false)), .scan(.init(seen: 1, total: 2, rate: 3, done: true))] {
            #expect(try WireCoding.decode(Event.self, from: event.encodedLine()) == event)
        }
    }

    @Test func responsesCarryTheIdAndOkFlag() {
        #expect(String(decoding: Response.empty.encodedLine(id: .integer(7)), as: UTF8.self) == "{\"id\":7,\"ok\":true,\"result\":{}}\n")
        #expect(
            String(decoding: Response.failure(.noMatch("nothing")).encodedLine(id: .string("x")), as: UTF8.self)
                == "{\"error\":{\"code\":\"no_match\",\"message\":\"nothing\"},\"id\":\"x\",\"ok\":false}\n")
        #expect(
            String(decoding: Response.failure(.lineTooLong("long")).encodedLine(id: nil), as: UTF8.self)
                == "{\"error\":{\"code\":\"line_too_long\",\"message\":\"long\"},\"id\":null,\"ok\":false}\n")
    }

    @Test func errorCodesAreTheSpecNames() {
        #expect(
            [ErrorCode.badRequest, .unknownCommand, .noMatch, .notFound, .lineTooLong, .unavailable].map(\.rawValue)
                == ["bad_request", "unknown_command", "no_match", "not_found", "line_too_long", "unavailable"])
        #expect(ProtocolError.notFound("entry 3").description == "not_found: entry 3")
    }
}
