import Foundation
import Testing

@testable import QPlayProtocol

/// The client's own reader (JSONInput, complete, and WireDecodable) must come to what
/// JSONDecoder reads, and leave to JSONDecoder what it is unsure of.
@Suite("Hand-read JSON equals JSONDecoder")
struct FastDecodingTests {
    func fast<T: WireDecodable>(_ type: T.Type, _ text: String) -> T? {
        JSONInput.value(from: Array(text.utf8), complete: true).flatMap(T.init(wire:))
    }

    func reference<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try WireCoding.decode(type, from: Array(text.utf8))
    }

    func statusLine(_ status: Status) -> String {
        String(decoding: WireCoding.line(status).dropLast(), as: UTF8.self)
    }

    @Test func statusesTheDaemonWritesReadTheSame() throws {
        var statuses = [sampleStatus, Status(state: .stopped, output: OutputStatus(name: "null"))]
        for text in FastEncodingTests.awkwardStrings {
            var status = sampleStatus
            status.track?.title = text
            status.track?.artist = text
            status.output = OutputStatus(name: text, error: text)
            status.storageError = text
            statuses.append(status)
        }
        for number in FastEncodingTests.awkwardNumbers where number.isFinite {
            var status = sampleStatus
            status.position = number
            status.duration = number
            status.replayGain = ReplayGainStatus(mode: "track", gain: number, source: "track")
            statuses.append(status)
        }
        var read = 0
        for status in statuses {
            let line = statusLine(status)
            let expected = try reference(Status.self, line)
            if let quick = fast(Status.self, line) {
                read += 1
                #expect(quick == expected, "\(line)")
            }
        }
        // Everything the daemon writes in the plain decimal range is read by hand.
        #expect(read >= statuses.count - 2)
    }

    @Test func escapesAndTextReadTheSame() throws {
        let lines = [
            #"{"name":"a\"b\\c\/d\b\f\n\r\t","error":"\u00e9\u0000\ud83c\udfb5 \u2028"}"#,
            #"{"name":"Beyoncé – 夜の歌 🎵","error":null}"#,
            #"{"name":"x"}"#,
        ]
        for line in lines {
            let quick = try #require(fast(OutputStatus.self, line))
            #expect(quick == (try reference(OutputStatus.self, line)))
        }
    }

    @Test func unsureValuesAreLeftToJSONDecoder() {
        let lines = [
            #"{"name":"\ud83c"}"#,  // a lone surrogate
            #"{"name":"\x"}"#,  // not an escape
            "{\"name\":\"tab\there\"}",  // a raw control character
            #"{"name":"x","name":"y"}"#,  // a key twice
            #"{"name":3}"#,  // a wrong type
            #"{"error":"no name"}"#,  // a required member missing
        ]
        for line in lines {
            #expect(fast(OutputStatus.self, line) == nil, "\(line)")
        }
        let line = statusLine(sampleStatus)
        for (member, odd) in [(#""volume":80"#, #""volume":80.0"#), (#""playing""#, #""dancing""#)] {
            #expect(line.contains(member))
            #expect(fast(Status.self, line.replacingOccurrences(of: member, with: odd)) == nil)
        }
        #expect(JSONInput.value(from: Array("[1.5e999]".utf8), complete: true) == nil)
        #expect(JSONInput.value(from: Array("[1.]".utf8), complete: true) == nil)
        // Requests keep the narrow reader.
        #expect(JSONInput.value(from: Array("[1.5]".utf8)) == nil)
        #expect(JSONInput.value(from: Array(#"["é"]"#.utf8)) == nil)
    }

    @Test func responsesAndGreetingsReadTheSame() throws {
        let line = Array(#"{"id":7,"ok":true,"result":"#.utf8) + WireCoding.line(sampleStatus).dropLast() + [UInt8(ascii: "}")]
        guard case .response(let response) = try ServerMessage.decode(line: line) else {
            Issue.record("not a response")
            return
        }
        #expect(response.id == .integer(7))
        #expect(try response.result(as: Status.self) == (try reference(Status.self, statusLine(sampleStatus))))
        let refusal = Array(#"{"error":{"code":"not_found","message":"no entry 9 — try \"queue\""},"id":"a","ok":false}"#.utf8)
        guard case .response(let refused) = try ServerMessage.decode(line: refusal) else {
            Issue.record("not a response")
            return
        }
        #expect(refused.id == .string("a"))
        #expect(refused.error == ProtocolError(.notFound, #"no entry 9 — try "queue""#))
        // A result this client cannot read still names the field, as JSONDecoder says it.
        let broken = Array(#"{"id":1,"ok":true,"result":{"state":"dancing"}}"#.utf8)
        guard case .response(let unreadable) = try ServerMessage.decode(line: broken) else {
            Issue.record("not a response")
            return
        }
        #expect(throws: ClientError.self) { try unreadable.result(as: Status.self) }
    }

    /// The response keeps the value it read for `result(as:)`, and drops it when its line
    /// is replaced, so a result always comes from the line it carries.
    @Test func aResponseReadsItsLineOnce() throws {
        func line(_ status: Status) -> [UInt8] {
            Array(#"{"id":1,"ok":true,"result":"#.utf8) + WireCoding.line(status).dropLast() + [UInt8(ascii: "}")]
        }
        guard case .response(var response) = try ServerMessage.decode(line: line(sampleStatus)) else {
            Issue.record("not a response")
            return
        }
        #expect(response.value != nil)
        #expect(try response.result(as: Status.self) == (try reference(Status.self, statusLine(sampleStatus))))
        var other = sampleStatus
        other.volume = 7
        other.track?.title = "Another"
        response.line = line(other)
        #expect(response.value == nil)
        #expect(try response.result(as: Status.self) == (try reference(Status.self, statusLine(other))))
    }

    @Test func requestLinesEqualJSONEncoder() throws {
        let requests = [
            Request(id: .integer(1), .status), Request(id: nil, .next), Request(id: .string("x/é"), .status),
            Request(id: .number("1.5"), .status),
        ]
        for request in requests {
            var object: [String: JSONValue] = ["cmd": .string(request.command.name)]
            switch request.id {
            case .integer(let value)?: object["id"] = .integer(value)
            case .number(let text)?: object["id"] = .number(Double(text) ?? 0)
            case .string(let value)?: object["id"] = .string(value)
            case nil: break
            }
            #expect(request.encodedLine() == (try WireCoding.bytes(JSONValue.object(object)) + [10]))
        }
        // A key JSONEncoder might order otherwise is left to it.
        #expect(WireCoding.fastLine(JSONValue.object(["a_b": .null, "aB": .null]).write) == nil)
    }
}
