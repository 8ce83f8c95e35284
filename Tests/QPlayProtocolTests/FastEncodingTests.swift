import Foundation
import Testing

@testable import QPlayProtocol

/// The hand-written encoder (JSONOutput) must write exactly JSONEncoder's bytes.
@Suite("Hand-written JSON equals JSONEncoder")
struct FastEncodingTests {
    func reference(_ value: some Encodable) throws -> [UInt8] {
        try WireCoding.bytes(value) + [10]
    }

    func fast(_ value: some WireEncodable) -> [UInt8]? {
        WireCoding.fastLine(value.write)
    }

    func expectSame(_ value: some WireEncodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try reference(value)
        if let bytes = fast(value) {
            #expect(
                String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                sourceLocation: sourceLocation)
        }
        #expect(WireCoding.line(value) == expected, sourceLocation: sourceLocation)
    }

    static let awkwardStrings = [
        "", "plain", "Beyoncé – 夜の歌 🎵", #"quote " and backslash \ and slash /"#, "tab\tnew\nline\r",
        "\u{0}\u{1}\u{1F}\u{7F}", "line\u{2028}para\u{2029}", "é\u{301}",
    ]

    static let awkwardNumbers: [Double] = [
        0, -0.0, 1, 3, 3.0001, 0.5, 0.001, 0.0009, 1e-7, 12.3456, 183.456789, 59.9995, 1234567.891,
        99_999_999_999_999, 1e15, 1e16, 2e300, -1.5, -12, .infinity, -.infinity, .nan,
    ]

    @Test func tracksAndStatuses() throws {
        // The everyday values take the hand-written path, not the fallback.
        #expect(fast(sampleStatus) != nil)
        #expect(fast(Event.player(sampleStatus)) != nil)
        try expectSame(sampleTrack)
        try expectSame(sampleStatus)
        try expectSame(Status(state: .stopped, output: OutputStatus(name: "null")))
        for text in Self.awkwardStrings {
            let track = Track(
                id: -7, path: text, title: text, artist: text, album: nil, albumArtist: text, track: 0,
                disc: 12, year: -1, genre: text, duration: 3, format: text, sampleRate: 48000, channels: 1,
                bits: 24)
            try expectSame(track)
            try expectSame(OutputStatus(name: text, error: text))
        }
        for number in Self.awkwardNumbers {
            var status = sampleStatus
            status.position = number
            status.duration = number
            try expectSame(status)
            status.sleep = SleepStatus(remaining: number, endOfTrack: number > 1)
            try expectSame(status)
        }
        // The alarm event is left to JSONEncoder (keys with underscores, optional lists).
        let fired = Event.alarm(AlarmFired(alarm: 3, time: "07:00:00", due: "2026-11-30T07:00:00+01:00", skipped: nil))
        #expect(fast(fired) == nil)
        try expectSame(fired)
        let playlists = Event.playlists(PlaylistsChanged())
        #expect(fast(playlists).map { String(decoding: $0, as: UTF8.self) } == #"{"data":{},"event":"playlists"}"# + "\n")
        try expectSame(playlists)
    }

    @Test func levels() throws {
        var status = sampleStatus
        status.level = LevelReading(rmsDB: [-9.03, -160], peakDB: [-6, 0])
        #expect(fast(status) != nil)
        try expectSame(status)
        let level = Event.level(LevelReading(rmsDB: [-3.01, -12.5], peakDB: [0, -1]))
        #expect(fast(level) != nil)
        try expectSame(level)
        try expectSame(Event.level(LevelReading(rmsDB: [-20], peakDB: [-14.25])))
        try expectSame(Event.level(LevelReading(rmsDB: [-0.0], peakDB: [-0.0])))
        #expect(try WireCoding.decode(Status.self, from: WireCoding.line(status)).level == status.level)
        #expect(Status(wire: JSONInput.value(from: WireCoding.line(status), complete: true)!)?.level == status.level)
    }

    /// An audiobook's status: chapters with awkward titles and starts, the one playing.
    @Test func chapters() throws {
        var status = sampleStatus
        status.chapters = [ChapterInfo(title: "Kapitel \"1\" – ü", start: 0), ChapterInfo(title: "", start: 61.25)]
        status.chapter = 1
        #expect(fast(status) != nil, "everyday chapters take the hand-written path")
        try expectSame(status)
        for number in Self.awkwardNumbers {
            status.chapters = [ChapterInfo(title: "x\n", start: number)]
            try expectSame(status)
        }
        status.chapters = []
        try expectSame(status)
        status.chapters = [ChapterInfo(title: "One", start: 12.3456)]
        let line = WireCoding.line(status)
        let read = try WireCoding.decode(Status.self, from: line)
        #expect(read.chapters == [ChapterInfo(title: "One", start: 12.346)] && read.chapter == 1)
        #expect(Status(wire: JSONInput.value(from: line, complete: true)!) == read)
    }

    @Test func manyNumbersAsTimesAndRates() throws {
        var generator = SystemRandomNumberGenerator()
        for step in 0..<3000 {
            let seconds = step < 1000 ? Double(step) / 1000 : Double.random(in: 0..<100_000, using: &generator)
            var track = sampleTrack
            track.duration = seconds
            try expectSame(track)
            try expectSame(ScanProgressUpdate(seen: step, total: nil, rate: seconds, done: false))
        }
    }

    @Test func resultsEventsAndGreeting() throws {
        let entries = (0..<5).map { Entry(entry: Int64(100 + $0), index: $0, track: sampleTrack) }
        try expectSame(Queue(entries: entries, current: 102, modified: true))
        try expectSame(Queue(entries: [], current: nil, modified: false))
        try expectSame(SearchResult(tracks: [sampleTrack, sampleTrack]))
        try expectSame(SearchResult(tracks: []))
        try expectSame(EmptyResult())
        try expectSame(AddResult(added: 3, started: true))
        try expectSame(ReleaseResult(action: .seek, heldMilliseconds: 1500))
        try expectSame(UpdateStarted())
        try expectSame(Event.player(sampleStatus))
        try expectSame(Event.queue(QueueChange(length: 4, modified: true)))
        try expectSame(Event.scan(ScanProgressUpdate(seen: 512, total: 1024, rate: 410.26, done: false)))
        try expectSame(Event.scan(ScanProgressUpdate(seen: 0, total: nil, rate: .nan, done: true)))
        let failure = Event.outputError(OutputFailure(output: "pipe:/tmp/f", reason: "stalled: took no samples for 500 ms"))
        try expectSame(failure)
        #expect(try WireCoding.decode(Event.self, from: WireCoding.line(failure)) == failure)
        #expect(failure.kind == .error)
        try expectSame(Greeting())
        for text in Self.awkwardStrings {
            try expectSame(ProtocolError(.badRequest, text))
        }
    }

    /// The envelopes as JSONEncoder wrote them before the hand-written path existed.
    struct Envelope<Result: Encodable>: Encodable {
        var id: RequestID?
        var ok: Bool
        var result: Result?
        var error: ProtocolError?

        enum CodingKeys: String, CodingKey { case id, ok, result, error }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(ok, forKey: .ok)
            if let result { try container.encode(result, forKey: .result) }
            if let error { try container.encode(error, forKey: .error) }
        }
    }

    @Test func responseEnvelopes() throws {
        let ids: [RequestID?] = [nil, .integer(0), .integer(-42), .number("1.5"), .number("3"), .string("a\"b/ü")]
        for id in ids {
            let success = Envelope(id: id, ok: true, result: sampleStatus, error: nil)
            #expect(Response.success(sampleStatus).encodedLine(id: id) == (try reference(success)))
            let empty = Envelope(id: id, ok: true, result: EmptyResult(), error: nil)
            #expect(Response.empty.encodedLine(id: id) == (try reference(empty)))
            let error = ProtocolError(.unknownCommand, "no command `x`\n")
            let failure = Envelope<EmptyResult>(id: id, ok: false, result: nil, error: error)
            #expect(Response.failure(error).encodedLine(id: id) == (try reference(failure)))
        }
    }

    static let requestLines = [
        #"{"id":1,"cmd":"status"}"#, #"  { "cmd" : "ping" , "id" : "abc" }  "#, #"{"cmd":"status","id":null}"#,
        #"{"id":-9007199254740993,"cmd":"seek","args":{"delta":-10}}"#, #"{"cmd":"seek","args":{"position":1.0}}"#,
        #"{"cmd":"seek","args":{"position":1e2}}"#, #"{"cmd":"mode","args":{"repeat":"all","shuffle":true}}"#,
        #"{"cmd":"search","args":{"where":[{"property":"title","op":"contains","value":"love"}],"limit":5}}"#,
        #"{"cmd":"search","args":{"where":[{"property":"artist","op":"equals","value":"Beyoncé"}]}}"#,
        #"{"cmd":"add","args":{"ids":[1,2,3,0]}}"#, #"{"cmd":"add","args":{"paths":["a\"b"]}}"#,
        #"{"cmd":"subscribe","args":{"events":[]}}"#, #"{"cmd":"x","cmd":"y"}"#, #"{"id":01}"#, #"{"id":-0}"#,
        #"{"id":1,}"#, #"{"id":1"#, #"[1,2]"#, #""status""#, "42", "true", "null", "", "   ", "{}", "[]",
        #"{"a":[[[[[]]]]],"b":{"c":{}}}"#, #"{"id":123456789012345678901234}"#, #"{"id":1} x"#,
        "{\"cmd\":\"ping\",\"id\":\"tab\there\"}", #"{"cmd":"status"}{"cmd":"ping"}"#,
    ]

    @Test func quickRequestReaderAgreesWithJSONDecoder() throws {
        var quickCount = 0
        for line in Self.requestLines {
            let bytes = Array(line.utf8)
            let quick = JSONInput.value(from: bytes)
            let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
            if let quick {
                quickCount += 1
                #expect(quick == foundation, "\(line)")
            }
        }
        // Everyday requests take the quick path.
        #expect(quickCount >= 12)
        #expect(JSONInput.value(from: Array(#"{"id":1,"cmd":"status"}"#.utf8)) != nil)
    }
}
