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
