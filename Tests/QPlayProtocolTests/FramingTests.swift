import QPlayProtocol
import Testing

@Suite("Line framer and client decoding")
struct FramingTests {
    private func drain(_ framer: inout LineFramer) -> [LineFramer.Frame] {
        var frames: [LineFramer.Frame] = []
        while let frame = framer.next() { frames.append(frame) }
        return frames
    }

    @Test func splitsLinesAcrossChunks() {
        var framer = LineFramer()
        framer.append(Array("ab".utf8))
        #expect(framer.next() == nil)
        framer.append(Array("c\nde\n\nf".utf8))
        #expect(drain(&framer) == [.line(Array("abc".utf8)), .line(Array("de".utf8)), .line([])])
        #expect(framer.pendingCount == 1)
        framer.append([10])
        #expect(drain(&framer) == [.line(Array("f".utf8))])
    }

    @Test func aLineAtTheLimitPassesAndOneByteMoreDoesNot() {
        var framer = LineFramer(limit: 8)
        framer.append(Array("12345678\n123456789\nok\n".utf8))
        #expect(drain(&framer) == [.line(Array("12345678".utf8)), .tooLong, .line(Array("ok".utf8))])
    }

    @Test func aMegabyteArrivingInChunksIsReportedOnceAndNotBuffered() {
        var framer = LineFramer()
        var frames: [LineFramer.Frame] = []
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        for _ in 0..<256 {
            framer.append(chunk)
            frames += drain(&framer)
            #expect(framer.pendingCount <= LineFramer.requestLimit + chunk.count)
        }
        framer.append(Array("tail\n{\"cmd\":\"ping\"}\n".utf8))
        frames += drain(&framer)
        #expect(frames == [.tooLong, .line(Array(#"{"cmd":"ping"}"#.utf8))])
    }

    /// `hasFrame` (SocketClient's look without reading) must agree with `next()` at every
    /// step, also around overlong lines.
    @Test func hasFrameAgreesWithNext() {
        let chunks = ["ab", "c\nde", "f\n\n", "0123456789", "01", "2\nxy", "\n", "0123456789AB", "\nq", "\n"]
        var framer = LineFramer(limit: 8)
        for chunk in chunks {
            framer.append(Array(chunk.utf8))
            while true {
                let predicted = framer.hasFrame
                let frame = framer.next()
                #expect(predicted == (frame != nil), "after \(chunk): \(String(describing: frame))")
                if frame == nil { break }
            }
        }
    }

    @Test func aHundredThousandEntryQueueAnswerFitsTheReplyLimit() {
        // Long tags: 120-byte paths, 40-byte titles and albums, 30-byte artists.
        let entries = (0..<100_000).map { index in
            Entry(
                entry: Int64(100_000 + index), index: index,
                track: Track(
                    id: Int64(index), path: String(repeating: "p", count: 120), title: String(repeating: "t", count: 40),
                    artist: String(repeating: "a", count: 30), album: String(repeating: "b", count: 40),
                    albumArtist: String(repeating: "c", count: 30), track: 12, disc: 1, year: 2003, genre: "Rock",
                    duration: 236.457))
        }
        let line = Response.success(Queue(entries: entries, current: 100_000, modified: false)).encodedLine(id: .integer(1))
        #expect(line.count > 40_000_000)
        #expect(line.count < SocketClient.replyLimit, "\(line.count) bytes")
    }

    @Test func responseMessagesKeepTheRawResult() throws {
        let line = Array(#"{"id":3,"ok":true,"result":{"b":[1,{"c":"}"}],"a":null}}"#.utf8)
        guard case .response(let response) = try ServerMessage.decode(line: line) else {
            Issue.record("not a response")
            return
        }
        #expect(response.id == .integer(3))
        #expect(response.rawResult.map { String(decoding: $0, as: UTF8.self) } == #"{"b":[1,{"c":"}"}],"a":null}"#)
    }

    @Test func clientDecodesErrorsEventsAndGreetings() throws {
        let error = try ServerMessage.decode(
            line: Array(#"{"id":null,"ok":false,"error":{"code":"line_too_long","message":"m"}}"#.utf8))
        guard case .response(let response) = error else {
            Issue.record("not a response")
            return
        }
        #expect(response.error == ProtocolError(.lineTooLong, "m"))
        #expect(throws: ProtocolError.self) { try response.result(as: EmptyResult.self) }

        let event = try ServerMessage.decode(line: Event.queue(QueueChange(length: 1, modified: false)).encodedLine().dropLast().map { $0 })
        guard case .event(.queue(let change)) = event else {
            Issue.record("not a queue event")
            return
        }
        #expect(change == QueueChange(length: 1, modified: false))

        guard case .greeting(let greeting) = try ServerMessage.decode(line: Array(#"{"protocol":"qplay/1","version":"0.5.0"}"#.utf8)) else {
            Issue.record("not a greeting")
            return
        }
        #expect(greeting == Greeting(version: "0.5.0"))
        #expect(throws: ClientDecodingError.self) { try ServerMessage.decode(line: Array("junk".utf8)) }
    }

    @Test func anUnknownErrorCodeStillDecodes() throws {
        let line = Array(#"{"id":1,"ok":false,"error":{"code":"too_loud","message":"m"}}"#.utf8)
        guard case .response(let response) = try ServerMessage.decode(line: line) else {
            Issue.record("not a response")
            return
        }
        #expect(response.error?.code == ErrorCode("too_loud"))
    }

    @Test func socketPathFollowsFlagThenEnvironmentThenXDG() {
        #expect(SocketPath.resolve(explicit: "/x.sock", environment: ["QPLAY_SOCKET": "/y.sock"], uid: 5) == "/x.sock")
        #expect(SocketPath.resolve(explicit: nil, environment: ["QPLAY_SOCKET": "/y.sock"], uid: 5) == "/y.sock")
        #expect(
            SocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/5"], uid: 5)
                == "/run/user/5/qplay/qplay.sock")
        #expect(SocketPath.resolve(explicit: nil, environment: [:], uid: 5) == "/tmp/qplay-5/qplay.sock")
        #expect(SocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "relative"], uid: 5) == "/tmp/qplay-5/qplay.sock")
    }
}
