import QPlayTestSupport
import SystemPackage
import Testing

@testable import QPlayDaemon

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SingleInstanceLockTests {
    @Test func aSecondLockOnTheSameSocketIsRefusedWithThePID() throws {
        let dir = TemporaryDirectory("qplay-lock")
        defer { dir.remove() }
        let socket = dir.appending("qplay.sock")
        let first = try SingleInstanceLock.acquire(socketPath: socket)
        #expect(first.lockPath == dir.appending("qplay.sock.lock"))
        #expect(!first.removedStaleSocket)
        // flock locks belong to the open file, so a second open in this process contends too.
        let error = try #require(throws: SingleInstanceLock.Failure.self) {
            try SingleInstanceLock.acquire(socketPath: socket)
        }
        #expect(error.kind == .alreadyRunning(pid: getpid()))
        #expect(error.description == "qplayd is already running (pid \(getpid())) on \(socket)")
        first.release()
        let second = try SingleInstanceLock.acquire(socketPath: socket)
        #expect(second.isHeld)
    }

    @Test func anotherProcessHoldingTheLockIsNamedAndItsStaleSocketReplacedAfterItsDeath() throws {
        let dir = TemporaryDirectory("qplay-lock")
        defer { dir.remove() }
        let socket = dir.appending("qplay.sock")
        let ready = dir.appending("ready")
        let child = try ChildProcess(
            role: "lock-holder",
            environment: ["QPLAY_TEST_SOCKET": socket.string, "QPLAY_TEST_READY": ready.string],
            logPath: dir.appending("child.log"))
        try child.waitUntil("the child to lock and listen") { fileExists(ready) }
        #expect(canConnect(to: socket))

        let refused = try #require(throws: SingleInstanceLock.Failure.self) {
            try SingleInstanceLock.acquire(socketPath: socket)
        }
        #expect(refused.kind == .alreadyRunning(pid: child.pid))
        #expect(fileExists(socket), "a refused start must leave the running daemon's socket alone")

        child.send(SIGKILL)
        #expect(child.waitForExit().bySignal)
        // The crash left the socket file behind; nobody answers on it.
        #expect(fileExists(socket))
        #expect(!canConnect(to: socket))

        let lock = try SingleInstanceLock.acquire(socketPath: socket)
        #expect(lock.removedStaleSocket)
        #expect(!fileExists(socket))
        // The new daemon can bind where the old one was.
        let fd = try bindUnixSocket(at: socket)
        defer { close(fd) }
        #expect(canConnect(to: socket))
    }

    @Test func somethingElseAtTheSocketPathIsNotDeleted() throws {
        let dir = TemporaryDirectory("qplay-lock")
        defer { dir.remove() }
        let path = dir.appending("qplay.sock")
        try dir.write(Array("precious".utf8), to: path)
        let error = try #require(throws: SingleInstanceLock.Failure.self) {
            try SingleInstanceLock.acquire(socketPath: path)
        }
        #expect(error.kind == .notASocket)
        #expect(try TemporaryDirectory.read(path) == Array("precious".utf8))
        // Refusing released the lock: once the file is gone, a start succeeds.
        unlink(path.string)
        _ = try SingleInstanceLock.acquire(socketPath: path)
    }

    @Test func releaseCanRemoveTheSocketWhileStillLocked() throws {
        let dir = TemporaryDirectory("qplay-lock")
        defer { dir.remove() }
        let socket = dir.appending("qplay.sock")
        let lock = try SingleInstanceLock.acquire(socketPath: socket)
        close(try bindUnixSocket(at: socket))
        lock.release(removingSocket: true)
        #expect(!lock.isHeld)
        #expect(!fileExists(socket))
        #expect(!(try SingleInstanceLock.acquire(socketPath: socket).removedStaleSocket))
    }

    @Test func aMissingFolderIsACannotLockError() throws {
        let error = try #require(throws: SingleInstanceLock.Failure.self) {
            try SingleInstanceLock.acquire(socketPath: "/nonexistent-qplay-dir/qplay.sock")
        }
        #expect(error.kind == .cannotLock("/nonexistent-qplay-dir/qplay.sock.lock", .noSuchFileOrDirectory))
    }
}
