import Foundation

#if canImport(Glibc)
import Glibc
#endif

// glibc functions that Swift's Glibc module hides behind _GNU_SOURCE / __USE_MISC.
@_silgen_name("pipe2")
private func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnAddCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// Runs the real built executables (`qplayd`, `qplay`), which sit beside the test
/// bundle in the build folder.
public enum BuiltProducts {
    public static let directory: URL = {
        // /proc/self/exe is …/debug/qplayPackageTests.xctest
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent()
    }()

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// The outcome of a finished process.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// The child was still running at `runProcess`'s `killAfter` and was killed.
    public var killed = false
}

/// A child started with posix_spawn and reaped with waitpid on its own pid.
///
/// Not Foundation's `Process`: in a test process that runs many children at once (and
/// tests that play with signals), its SIGCHLD-driven `waitUntilExit` was seen to hang
/// with the child already a zombie, and its children inherit the spawning thread's
/// signal mask (SIGTERM blocked on test threads) and every open descriptor. Here the
/// child gets an empty signal mask, default dispositions, and descriptors 0–2 only.
public final class SpawnedProcess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// `stdin` nil: /dev/null. The given descriptors become the child's 0, 1 and 2.
    /// `ownGroup`: the child leads a process group of its own (pgid = pid).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        stdin: Int32? = nil, stdout: Int32, stderr: Int32, ownGroup: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        _ = spawnAddCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGCHLD, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        if ownGroup { posix_spawnattr_setpgroup(&attributes, 0) }
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))

        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let path = executable.path
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(path): \(String(cString: strerror(result)))"])
        }
        self.pid = pid
    }

    /// Waits for the exit: its status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let decoded = Self.decode(status)
        exitStatus = decoded
        return decoded
    }

    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if exitStatus != nil { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        exitStatus = Self.decode(status)
        return false
    }

    public func signal(_ number: Int32) {
        if isRunning { kill(pid, number) }
    }

    private static func decode(_ status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// A pipe whose ends are closed on exec (the child gets the one it needs through dup2).
struct ClosingPipe {
    let read: Int32
    let write: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard systemPipe2(&fds, O_CLOEXEC) == 0 else { throw CocoaError(.fileWriteUnknown) }
        read = fds[0]
        write = fds[1]
    }
}

/// Reads a descriptor to its end.
func readAll(_ fd: Int32) -> Data {
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return data }
        data.append(contentsOf: chunk[..<n])
    }
}

/// Runs a command to completion with the given environment additions.
@discardableResult
public func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
    stdin: Data? = nil, killAfter: Double? = nil
) throws -> ProcessResult {
    let out = try ClosingPipe()
    let err = try ClosingPipe()
    let input = try ClosingPipe()
    let child: SpawnedProcess
    do {
        child = try SpawnedProcess(
            executable, arguments, environment: environment, stdin: input.read, stdout: out.write, stderr: err.write)
    } catch {
        for fd in [out.read, out.write, err.read, err.write, input.read, input.write] { close(fd) }
        throw error
    }
    close(out.write)
    close(err.write)
    close(input.read)
    // A bound against a child that hangs (what some tests check it does not do), not a
    // measurement: the child is killed only when it is still running at the deadline.
    let killed = SharedFlag()
    if let killAfter {
        let deadline = Date().addingTimeInterval(killAfter)
        Thread {
            while child.isRunning {
                if Date() >= deadline {
                    killed.set()
                    child.signal(SIGKILL)
                    return
                }
                usleep(20_000)
            }
        }.start()
    }
    if let stdin {
        stdin.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(input.write, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
    close(input.write)
    // Read both pipes to the end before waiting, so a full pipe cannot block the child.
    nonisolated(unsafe) var errData = Data()
    let done = DispatchSemaphore(value: 0)
    let errorFD = err.read
    Thread {
        errData = readAll(errorFD)
        done.signal()
    }.start()
    let outData = readAll(out.read)
    done.wait()
    close(out.read)
    close(err.read)
    let status = child.wait()
    return ProcessResult(
        status: status,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self),
        killed: killed.isSet)
}

/// A flag one thread sets and another reads.
private final class SharedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// A long-running child (e.g. `qplay watch`) whose standard output is read line by line
/// on a thread of its own, so a test can wait for the next line without polling.
public final class LineReadingProcess: @unchecked Sendable {
    private let child: SpawnedProcess
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false
    /// Set by `closeOutput`: the reading thread closes its end of the pipe.
    private var closing = false
    private let ownGroup: Bool

    /// `ownGroup`: the child and what it starts form a process group, which `terminate`
    /// ends as a whole (as i3bar ends its status command: i3blocks 1.4 on SIGTERM waits
    /// for its persistent blocks without stopping them).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], ownGroup: Bool = false
    ) throws {
        self.ownGroup = ownGroup
        let out = try ClosingPipe()
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        do {
            child = try SpawnedProcess(
                executable, arguments, environment: environment, stdout: out.write, stderr: null, ownGroup: ownGroup)
        } catch {
            close(out.read)
            close(out.write)
            throw error
        }
        close(out.write)
        let fd = out.read
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                // Short polls: `closeOutput` must be able to close the pipe while the
                // child writes nothing.
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, 100)
                condition.lock()
                let closeRequested = closing
                condition.unlock()
                var n = 0
                if !closeRequested {
                    if polled == 0 { continue }
                    n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                }
                condition.lock()
                if n <= 0 {
                    ended = true
                    condition.broadcast()
                    condition.unlock()
                    close(fd)
                    return
                }
                pending += chunk[..<n]
                while let newline = pending.firstIndex(of: 10) {
                    lines.append(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        thread.start()
    }

    /// The next line, or nil when the output ended or nothing came within `timeout`
    /// seconds (a bound against hanging, not a measurement).
    public func nextLine(timeout: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty {
            if ended || !condition.wait(until: deadline) { return nil }
        }
        return lines.removeFirst()
    }

    /// Reads lines until one satisfies `predicate`; returns it and the lines before it.
    public func line(timeout: Double = 20, where predicate: (String) -> Bool) -> (line: String?, skipped: [String]) {
        var skipped: [String] = []
        while let line = nextLine(timeout: timeout) {
            if predicate(line) { return (line, skipped) }
            skipped.append(line)
        }
        return (nil, skipped)
    }

    public var isRunning: Bool { child.isRunning }

    /// Closes the reading end of the child's output, as a status bar that quits does.
    public func closeOutput() {
        condition.lock()
        closing = true
        while !ended { condition.wait() }
        condition.unlock()
    }

    /// The child's exit status once it has exited, or nil if it still runs after
    /// `limit` seconds (a bound against hanging, not a measurement).
    public func exitStatus(within limit: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(limit)
        while child.isRunning {
            guard Date() < deadline else { return nil }
            usleep(50_000)
        }
        return child.wait()
    }

    public func terminate() {
        if ownGroup, child.isRunning { kill(-child.pid, SIGTERM) }
        child.signal(SIGTERM)
        child.wait()
    }

    deinit {
        terminate()
    }
}
