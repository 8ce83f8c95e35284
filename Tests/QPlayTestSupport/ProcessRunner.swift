import Foundation

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
}

/// Runs a command to completion with the given environment additions.
@discardableResult
public func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
    stdin: Data? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try? input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a full pipe cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// A long-running child (e.g. `qplay watch`) whose standard output is read line by line
/// on a thread of its own, so a test can wait for the next line without polling.
public final class LineReadingProcess: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false

    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let reading = out.fileHandleForReading
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = reading.availableData
                condition.lock()
                if chunk.isEmpty {
                    ended = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 10) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
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

    public var isRunning: Bool { process.isRunning }

    /// SIGKILL: a child started from a test thread inherits that thread's signal mask,
    /// in which SIGTERM may be blocked.
    public func terminate() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit {
        terminate()
    }
}
