import Foundation
import QPlayDaemon
import QPlayProtocol
import QPlayTestSupport
import Testing

@Suite("Socket server: requests and errors", .timeLimit(.minutes(1)), .tags(.pooled), .group(.pooled))
struct ServerRequestTests {
    @Test func greetsWithProtocolAndVersion() async throws {
        let fixture = try await ServerFixture.start()
        let greeting = try await onThread { [path = fixture.socketPath] in
            try RawConnection(path: path).object()
        }
        #expect(greeting == ["protocol": .string("qplay/1"), "version": .string("9.8.7")])
        await fixture.stop()
    }

    @Test func answersPipelinedRequestsInRequestOrder() async throws {
        let fixture = try await ServerFixture.start()
        let ids = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            // The first request takes longest; its answer must still come first.
            connection.send(
                #"{"id":1,"cmd":"search","args":{"limit":300}}"# + "\n" + #"{"id":"two","cmd":"ping"}"# + "\n"
                    + #"{"id":3,"cmd":"search","args":{"limit":1}}"# + "\n" + #"{"id":4.5,"cmd":"status"}"# + "\n")
            return try (0..<4).map { _ in try connection.object()["id"] }
        }
        #expect(ids == [.integer(1), .string("two"), .integer(3), .number(4.5)])
        await fixture.stop()
    }

    @Test func returnsResultsInTheEnvelope() async throws {
        let fixture = try await ServerFixture.start()
        let (ping, status) = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            connection.send(#"{"id":1,"cmd":"ping"}"# + "\n" + #"{"cmd":"status"}"# + "\n")
            return (connection.line(), try connection.object())
        }
        #expect(ping == #"{"id":1,"ok":true,"result":{}}"#)
        #expect(status["id"] == .null)
        #expect(status["ok"] == .bool(true))
        guard case .object(let result)? = status["result"] else {
            Issue.record("no result object")
            return
        }
        #expect(result["state"] == .string("playing"))
        #expect(result["queue_modified"] == .bool(false))
        await fixture.stop()
    }

    @Test func invalidJSONGetsBadRequestAndTheConnectionGoesOn() async throws {
        let fixture = try await ServerFixture.start()
        let replies = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            connection.send("this is not json\n[1,2]\n{\"id\":5,\"cmd\":\"ping\"}\n")
            return try (0..<3).map { _ in try connection.object() }
        }
        #expect(replies[0].errorCode == "bad_request")
        #expect(replies[0]["id"] == .null)
        #expect(replies[1].errorCode == "bad_request")
        #expect(replies[2]["ok"] == .bool(true))
        #expect(replies[2]["id"] == .integer(5))
        await fixture.stop()
    }

    @Test func unknownCommandAndWrongArgumentsAreNamed() async throws {
        let fixture = try await ServerFixture.start()
        let replies = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            connection.send(
                #"{"id":"a","cmd":"dance"}"# + "\n" + #"{"id":"b","cmd":"seek","args":{"position":"x"}}"# + "\n"
                    + #"{"id":"c","cmd":"volume","args":{"set":101}}"# + "\n" + #"{"id":"d","cmd":"add","args":{"ids":[1]}}"#
                    + "\n")
            return try (0..<4).map { _ in try connection.object() }
        }
        #expect(replies.map(\.errorCode) == ["unknown_command", "bad_request", "bad_request", "no_match"])
        #expect(replies.map { $0["id"] } == [.string("a"), .string("b"), .string("c"), .string("d")])
        await fixture.stop()
    }

    @Test func aOneMegabyteLineGetsLineTooLongAndTheConnectionGoesOn() async throws {
        let fixture = try await ServerFixture.start()
        let (first, second, other) = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            var line = Array(#"{"id":1,"cmd":"search","args":{"where":[{"property":"title","op":"contains","value":""#.utf8)
            line += [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
            line += Array("\"}]}}\n".utf8)
            connection.send(line)
            connection.send(#"{"id":2,"cmd":"ping"}"# + "\n")
            let first = try connection.object()
            let second = try connection.object()
            // Everyone else is served as before.
            let otherConnection = try RawConnection(path: path)
            _ = otherConnection.line()
            otherConnection.send(#"{"id":3,"cmd":"ping"}"# + "\n")
            return (first, second, try otherConnection.object())
        }
        #expect(first.errorCode == "line_too_long")
        #expect(second["id"] == .integer(2))
        #expect(second["ok"] == .bool(true))
        #expect(other["ok"] == .bool(true))
        await fixture.stop()
    }

    @Test func aLineOfExactly64KiBIsAccepted() async throws {
        let fixture = try await ServerFixture.start()
        let reply = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            let head = Array(#"{"id":1,"cmd":"ping"}"#.utf8)
            // JSON allows whitespace: pad the request to exactly 65536 bytes.
            let line = head + [UInt8](repeating: 0x20, count: 65536 - head.count) + [10]
            connection.send(line)
            return try connection.object()
        }
        #expect(reply["ok"] == .bool(true))
        await fixture.stop()
    }

    @Test func blankLinesAreIgnored() async throws {
        let fixture = try await ServerFixture.start()
        let reply = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            connection.send("\n  \r\n{\"id\":9,\"cmd\":\"ping\"}\r\n")
            return try connection.object()
        }
        #expect(reply["id"] == .integer(9))
        await fixture.stop()
    }
}
