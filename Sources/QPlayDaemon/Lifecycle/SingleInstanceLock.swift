import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Makes sure one daemon serves a socket. An exclusive `flock` on a lock file beside the
/// socket (`qplay.sock.lock`) is held for the daemon's life; the kernel drops it when the
/// process dies however it dies, so a socket file found while the lock is free is a
/// leftover of a crash (or `kill -9`) and is removed. The lock file holds the owner's
/// pid for the "already running" message.
///
/// The lock file itself is never deleted: unlinking it while another process has it open
/// would let two daemons lock two different files.
public final class SingleInstanceLock: Sendable {
    public let socketPath: FilePath
    public let lockPath: FilePath
    /// True when a stale socket file was found and removed.
    public let removedStaleSocket: Bool
    private let descriptor: Mutex<Int32?>

    private init(socketPath: FilePath, lockPath: FilePath, descriptor: Int32, removedStaleSocket: Bool) {
        self.socketPath = socketPath
        self.lockPath = lockPath
        self.descriptor = Mutex(descriptor)
        self.removedStaleSocket = removedStaleSocket
    }

    deinit {
        descriptor.withLock { if let fd = $0 { close(fd) } }
    }

    /// Takes the lock (without waiting) and clears a stale socket. The socket's folder
    /// must exist (see `DaemonDirectories`). `lockPath` defaults to the socket path plus
    /// `.lock`.
    public static func acquire(socketPath: FilePath, lockPath: FilePath? = nil) throws(Failure) -> SingleInstanceLock {
        let lockPath = lockPath ?? FilePath(socketPath.string + ".lock")
        let fd = open(lockPath.string, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw Failure(socketPath: socketPath, kind: .cannotLock(lockPath, Errno(rawValue: errno)))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let error = Errno(rawValue: errno)
            let owner = error == .wouldBlock ? readPID(fd) : nil
            close(fd)
            if error == .wouldBlock {
                throw Failure(socketPath: socketPath, kind: .alreadyRunning(pid: owner))
            }
            throw Failure(socketPath: socketPath, kind: .cannotLock(lockPath, error))
        }
        writePID(fd)

        var removed = false
        var info = stat()
        if lstat(socketPath.string, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                close(fd)
                throw Failure(socketPath: socketPath, kind: .notASocket)
            }
            guard unlink(socketPath.string) == 0 || errno == ENOENT else {
                let error = Errno(rawValue: errno)
                close(fd)
                throw Failure(socketPath: socketPath, kind: .cannotRemoveStaleSocket(error))
            }
            removed = true
        }
        return SingleInstanceLock(
            socketPath: socketPath, lockPath: lockPath, descriptor: fd, removedStaleSocket: removed)
    }

    /// Gives the lock up (shutdown). With `removingSocket`, first deletes the socket file
    /// while still holding the lock, so no newly started daemon's socket can be hit.
    public func release(removingSocket: Bool = false) {
        descriptor.withLock { fd in
            guard let open = fd else { return }
            if removingSocket {
                var info = stat()
                if lstat(socketPath.string, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK {
                    unlink(socketPath.string)
                }
            }
            ftruncate(open, 0)
            close(open)
            fd = nil
        }
    }

    public var isHeld: Bool { descriptor.withLock { $0 != nil } }

    private static func writePID(_ fd: Int32) {
        let text = Array("\(getpid())\n".utf8)
        ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = buffer[..<count].prefix(while: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        return Int32(String(decoding: digits, as: UTF8.self))
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public enum Kind: Equatable, Sendable {
            /// Another daemon holds the lock; its pid when the lock file tells it.
            case alreadyRunning(pid: Int32?)
            case cannotLock(FilePath, Errno)
            /// Something that is not a socket sits at the socket path: not ours to delete.
            case notASocket
            case cannotRemoveStaleSocket(Errno)
        }

        public var socketPath: FilePath
        public var kind: Kind

        public var description: String {
            switch kind {
            case .alreadyRunning(let pid?):
                "qplayd is already running (pid \(pid)) on \(socketPath)"
            case .alreadyRunning(nil):
                "qplayd is already running on \(socketPath)"
            case .cannotLock(let path, let error):
                "cannot lock \(path): \(error)"
            case .notASocket:
                "\(socketPath) exists and is not a socket; remove it or choose another --socket"
            case .cannotRemoveStaleSocket(let error):
                "cannot remove the stale socket \(socketPath) left by a daemon that stopped: \(error)"
            }
        }
    }
}
