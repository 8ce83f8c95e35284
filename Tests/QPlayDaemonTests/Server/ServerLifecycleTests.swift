import Foundation
import QPlayDaemon
import QPlayProtocol
import QPlayTestSupport
import Testing

@Suite("Socket server: permissions, single instance, disconnects", .timeLimit(.minutes(1)), .tags(.pooled), .group(.pooled))
struct ServerLifecycleTests {
    private func mode(_ path: String) -> (type: mode_t, permissions: mode_t) {
        var info = stat()
        precondition(lstat(path, &info) == 0)
        return (info.st_mode & S_IFMT, info.st_mode & 0o7777)
    }

    @Test func socketIs0600InA0700Directory() async throws {
        let previous = umask(0o022)  // a usual umask: what a careless bind would leave
        defer { umask(previous) }
        let fixture = try await ServerFixture.start()
        let directory = String(fixture.socketPath.dropLast("/qplay.sock".count))
        #expect(mode(directory) == (S_IFDIR, 0o700))
        #expect(mode(fixture.socketPath) == (S_IFSOCK, 0o600))
        await fixture.stop()
        #expect(access(fixture.socketPath, F_OK) != 0, "shutdown removes the socket")
    }

    @Test func aSecondServerOnALiveSocketRefusesAndTheFirstGoesOn() async throws {
        let fixture = try await ServerFixture.start()
        let second = SocketServer(configuration: .init(socketPath: fixture.socketPath), handler: TestHandler())
        await #expect(throws: ServerError.alreadyRunning(path: fixture.socketPath)) {
            try await second.start()
        }
        let reply = try await onThread { [path = fixture.socketPath] in
            let client = try SocketClient(path: path, timeout: 30)
            return try client.send(.ping).outcome
        }
        #expect((try? reply.get()) != nil)
        await fixture.stop()
    }

    @Test func aStaleSocketIsReplaced() async throws {
        let directory = TemporaryDirectory("qplay-stale")
        defer { directory.remove() }
        let path = directory.path.string + "/qplay.sock"
        // What a crashed daemon leaves: a bound socket file nobody listens on.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = UnixSocketAddress.bind(descriptor, to: path)
        #expect(bound == 0)
        close(descriptor)
        #expect(mode(path).type == S_IFSOCK)

        let server = SocketServer(configuration: .init(socketPath: path), handler: TestHandler())
        try await server.start()
        let greeting = try await onThread { try SocketClient(path: path, timeout: 30).greeting }
        #expect(greeting.protocol == "qplay/1")
        await server.shutdown()
    }

    @Test func aFileThatIsNotASocketIsLeftAlone() async throws {
        let directory = TemporaryDirectory("qplay-notsocket")
        defer { directory.remove() }
        let path = directory.path.string + "/qplay.sock"
        try directory.write(Array("precious".utf8), to: directory.appending("qplay.sock"))
        let server = SocketServer(configuration: .init(socketPath: path), handler: TestHandler())
        await #expect(throws: ServerError.notASocket(path: path)) { try await server.start() }
        #expect(try TemporaryDirectory.read(directory.appending("qplay.sock")) == Array("precious".utf8))
    }

    @Test func aDirectoryOfAnotherUserIsRefused() async throws {
        let directory = TemporaryDirectory("qplay-foreign")
        defer { directory.remove() }
        let foreign = directory.path.string + "/run"
        #expect(mkdir(foreign, 0o755) == 0)
        #expect(chown(foreign, getuid() + 1, getgid()) == 0 || getuid() != 0)
        guard getuid() == 0 else { return }  // only root can give a directory away
        let server = SocketServer(configuration: .init(socketPath: foreign + "/qplay.sock"), handler: TestHandler())
        await #expect(throws: ServerError.self) { try await server.start() }
    }

    @Test func aPeerWithAnotherUIDIsDisconnectedWithoutAGreeting() async throws {
        // The server accepts only uid+1 here, so this test process is the stranger.
        let fixture = try await ServerFixture.start(allowedUID: getuid() + 1)
        let line = try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            connection.send(#"{"id":1,"cmd":"ping"}"# + "\n")
            return connection.line()
        }
        #expect(line == nil)
        #expect(fixture.server.connectionCount == 0)
        await fixture.stop()
    }

    @Test func aClientLeavingMidRequestHarmsNothing() async throws {
        let fixture = try await ServerFixture.start()
        let handler = fixture.handler
        try await onThread { [path = fixture.socketPath] in
            let connection = try RawConnection(path: path)
            _ = connection.line()
            connection.send(#"{"id":1,"cmd":"update","args":{"wait":true}}"# + "\n")
            connection.send(#"{"id":2,"cmd":"ping"}"# + "\n")
        }  // the connection closes here, with both requests outstanding
        var started = handler.started.makeAsyncIterator()
        let leaver = await started.next()
        handler.openGate()
        var closed = handler.closed.makeAsyncIterator()
        #expect(await closed.next() == leaver)
        let reply = try await onThread { [path = fixture.socketPath] in
            try SocketClient(path: path, timeout: 30).send(.status).result(as: Status.self)
        }
        #expect(reply == TestHandler.status)
        // The status client has closed; wait for the server to see it before counting.
        for _ in 0..<500 where fixture.server.connectionCount != 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(fixture.server.connectionCount == 0)
        await fixture.stop()
    }

    @Test func connectionIDsAreNotReused() async throws {
        let fixture = try await ServerFixture.start()
        let handler = fixture.handler
        for _ in 0..<3 {
            try await onThread { [path = fixture.socketPath] in
                _ = try SocketClient(path: path, timeout: 30).send(.ping)
            }
        }
        var closed = handler.closed.makeAsyncIterator()
        var ids: Set<ConnectionID> = []
        for _ in 0..<3 { if let id = await closed.next() { ids.insert(id) } }
        #expect(ids.count == 3)
        await fixture.stop()
    }
}
