import Foundation
import Synchronization
import QPlayDaemon
import QPlayProtocol
import QPlayTestSupport
import Testing

/// Backpressure of the socket server, with a small write buffer (64 KiB) and a short
/// unwritable timeout so that the tests need little data and time.
@Suite("Socket server: backpressure and slow clients", .timeLimit(.minutes(1)), .tags(.pooled), .group(.pooled))
struct ServerBackpressureTests {
    struct Fixture {
        let directory = TemporaryDirectory("qplay-backpressure")
        let socketPath: String
        let server: SocketServer
        let handler = TestHandler()

        init(unwritableTimeout: Duration = .seconds(30), maxConnections: Int = 512) async throws {
            socketPath = directory.path.string + "/run/qplay.sock"
            server = SocketServer(
                configuration: .init(
                    socketPath: socketPath, version: "9.8.7", outputLimit: 64 << 10,
                    unwritableTimeout: unwritableTimeout, maxConnections: maxConnections),
                handler: handler)
            try await server.start()
        }

        func stop() async {
            await server.shutdown()
            directory.remove()
        }
    }

    @Test func aClientThatReadsLateGetsEveryAnswerInOrder() async throws {
        let fixture = try await Fixture()
        let count = 20_000  // ~2.5 MB of answers: the 64 KiB buffer fills many times over
        let connection = Handoff(try RawConnection(path: fixture.socketPath))
        _ = connection.value.line()
        let requests = (1...count).map { #"{"id":\#($0),"cmd":"status"}"# + "\n" }.joined()
        async let written: Void = onThread { connection.value.send(requests) }
        // Let the unread answers fill the buffer before reading any.
        try await Task.sleep(for: .milliseconds(500))
        // Keys are sorted, so an answer starts with its id; parsing 20,000 lines as JSON
        // would take the debug build seconds.
        let outOfOrder = try await onThread {
            (1...count).first { id in connection.value.line()?.hasPrefix(#"{"id":\#(id),"ok":true,"#) != true }
        }
        try await written
        #expect(outOfOrder == nil, "answer \(outOfOrder ?? 0) is missing or out of order")
        #expect(fixture.server.connectionCount == 1, "a client that reads late is not closed")
        await fixture.stop()
    }

    @Test func aClientThatNeverReadsIsClosedAfterTheTimeoutAndOthersAreServed() async throws {
        let fixture = try await Fixture(unwritableTimeout: .seconds(1))
        let path = fixture.socketPath
        let server = fixture.server
        let (sent, answered) = try await onThread {
            let control = try RawConnection(path: path)
            _ = control.line()
            let hostile = try NonReadingClient(path: path)
            let sent = hostile.pipeline(#"{"id":1,"cmd":"status"}"#, count: 100_000, stall: 1)
            // Stuck: the server neither reads nor answers it, and serves the other client.
            control.send(#"{"id":"other","cmd":"ping"}"# + "\n")
            let answer = try control.object()["id"]
            try waitUntil("the server closes the client that reads nothing", limit: 20) {
                server.connectionCount == 1
            }
            return (sent, answer)
        }
        #expect(sent < 100_000, "the server stopped reading the client")
        #expect(answered == .string("other"))
        let closed = await fixture.handler.closed.first { _ in true }
        #expect(closed != nil)
        await fixture.stop()
    }

    @Test func aPipeliningClientDoesNotHoldBackAnotherClientsRequest() async throws {
        let directory = TemporaryDirectory("qplay-fairness")
        let path = directory.path.string + "/run/qplay.sock"
        let handler = BusyHandler()
        let server = SocketServer(configuration: .init(socketPath: path), handler: handler)
        try await server.start()
        let count = 5000
        let handledBeforePing = try await onThread {
            let hostile = try RawConnection(path: path)
            let control = try RawConnection(path: path)
            _ = hostile.line()
            _ = control.line()
            // ~1 s of work on the event loop, all of it buffered at once.
            hostile.send(String(repeating: #"{"id":1,"cmd":"status"}"# + "\n", count: count))
            usleep(20_000)
            control.send(#"{"id":"other","cmd":"ping"}"# + "\n")
            let answer = try control.object()
            #expect(answer["id"] == .string("other"))
            return handler.statusesBeforePing.withLock { $0 }
        }
        #expect(handledBeforePing != nil)
        #expect(
            handledBeforePing ?? count < count / 5,
            "the other client's ping waited for \(handledBeforePing ?? -1) of \(count) pipelined requests")
        await server.shutdown()
        directory.remove()
    }

    @Test func theConnectionPastTheCapGetsOneUnavailableLineInsteadOfTheGreeting() async throws {
        let fixture = try await Fixture(maxConnections: 2)
        let lines = try await onThread { [path = fixture.socketPath] in
            let first = try RawConnection(path: path)
            let second = try RawConnection(path: path)
            let third = try RawConnection(path: path)
            let lines = [first.line(), second.line(), third.line(), third.line()]
            withExtendedLifetime((first, second)) {}
            return lines
        }
        #expect(lines[0] == #"{"protocol":"qplay/1","version":"9.8.7"}"#)
        #expect(lines[1] == lines[0])
        #expect(
            lines[2]
                == #"{"error":{"code":"unavailable","message":"too many connections (max_connections = 2); try again later"},"id":null,"ok":false}"#
        )
        #expect(lines[3] == nil, "and the connection is closed")
        await fixture.stop()
    }
}

/// `status` costs 200 µs of CPU on the event loop (as real work would); `ping` notes how
/// many statuses were handled before it.
private final class BusyHandler: RequestHandler {
    let statuses = Mutex(0)
    let statusesBeforePing = Mutex<Int?>(nil)

    func handle(_ request: Request, connection: ConnectionID) async -> Response {
        switch request.command {
        case .status:
            let end = ContinuousClock.now + .microseconds(200)
            while ContinuousClock.now < end {}
            statuses.withLock { $0 += 1 }
            return .success(TestHandler.status)
        case .ping:
            let handled = statuses.withLock { $0 }
            statusesBeforePing.withLock { $0 = handled }
            return .empty
        default:
            return .failure(.unavailable("not in this test"))
        }
    }
}
