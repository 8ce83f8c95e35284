import Foundation
import QPlayDaemon
import QPlayProtocol
import QPlayTestSupport
import Testing

@Suite("Socket server: subscriptions and many clients", .timeLimit(.minutes(2)), .tags(.pooled), .group(.pooled))
struct ServerSubscriptionTests {
    static let queueEvent = Event.queue(QueueChange(length: 3, modified: true))
    static let playerEvent = Event.player(TestHandler.status)

    @Test func sixtyFourClientsSubscribeAndEachGetsEveryEvent() async throws {
        let fixture = try await ServerFixture.start()
        let path = fixture.socketPath
        // 64 clients connect, subscribe and ask for status, all at the same time.
        let clients = try await withThrowingTaskGroup(of: Handoff<SocketClient>.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    try await onThread {
                        let client = try SocketClient(path: path, timeout: 30)
                        _ = try client.send(.subscribe(Set(EventKind.allCases))).result(as: EmptyResult.self)
                        let status = try client.send(.status).result(as: Status.self)
                        precondition(status == TestHandler.status)
                        return Handoff(client)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(clients.count == 64)
        #expect(fixture.server.connectionCount == 64)
        fixture.server.publish(Self.playerEvent)
        fixture.server.publish(Self.queueEvent)
        let received = try await withThrowingTaskGroup(of: [Event].self) { group in
            for client in clients {
                group.addTask {
                    try await onThread {
                        var events = client.value.takePendingEvents()
                        while events.count < 2 {
                            guard case .event(let event)? = try client.value.readMessage() else { break }
                            events.append(event)
                        }
                        return events
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(received.count == 64)
        #expect(received.allSatisfy { $0 == [Self.playerEvent, Self.queueEvent] })
        for client in clients { client.value.close() }
        await fixture.stop()
    }

    @Test func onlySubscribedKindsArriveAndOnlyAfterTheSubscribeResponse() async throws {
        let fixture = try await ServerFixture.start()
        let server = fixture.server
        let lines = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            server.publish(Self.queueEvent)  // not subscribed yet: not delivered
            connection.send(#"{"id":1,"cmd":"subscribe","args":{"events":["queue"]}}"# + "\n")
            let subscribed = connection.line()
            server.publish(Self.playerEvent)  // not subscribed to player
            server.publish(Self.queueEvent)
            connection.send(#"{"id":2,"cmd":"ping"}"# + "\n")
            return [subscribed, connection.line(), connection.line()]
        }
        #expect(lines[0] == #"{"id":1,"ok":true,"result":{}}"#)
        #expect(lines[1] == #"{"data":{"length":3,"modified":true},"event":"queue"}"#)
        #expect(lines[2] == #"{"id":2,"ok":true,"result":{}}"#)
        await fixture.stop()
    }

    @Test func subscribeRejectsUnknownEventKinds() async throws {
        let fixture = try await ServerFixture.start()
        let reply = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            connection.send(#"{"id":1,"cmd":"subscribe","args":{"events":["weather"]}}"# + "\n")
            return try connection.object()
        }
        #expect(reply.errorCode == "bad_request")
        await fixture.stop()
    }

    @Test func eventsReachASubscriberWhileItsRequestIsPending() async throws {
        // `update` with `wait` answers only at the end; scan events come meanwhile.
        let fixture = try await ServerFixture.start()
        let server = fixture.server
        let handler = fixture.handler
        let connection = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            connection.send(#"{"id":1,"cmd":"subscribe","args":{"events":["scan"]}}"# + "\n")
            _ = connection.line()
            connection.send(#"{"id":2,"cmd":"update","args":{"wait":true}}"# + "\n")
            return Handoff(connection)
        }
        var started = handler.started.makeAsyncIterator()
        _ = await started.next()
        server.publish(.scan(ScanProgressUpdate(seen: 10, total: 20, rate: 100, done: false)))
        let event = try await onThread { connection.value.line() }
        handler.openGate()
        let response = try await onThread { try connection.value.object() }
        #expect(event == #"{"data":{"done":false,"rate":100,"seen":10,"total":20},"event":"scan"}"#)
        #expect(response["id"] == .integer(2))
        #expect(response["ok"] == .bool(true))
        await fixture.stop()
    }
}
