import Foundation
import QPlayAudio
import SystemPackage

/// One player under test, driven the same way for MPD and qplay.
protocol PlayerUnderTest: AnyObject {
    var name: String { get }
    var pid: Int32 { get }
    var reader: FIFOReader { get }
    func playQueue(_ files: [String]) throws  // relative to the music directory
    func next() throws
    func play(_ index: Int) throws
    func stop() throws
}

final class MPDUnderTest: PlayerUnderTest {
    let name = "MPD"
    let pid: Int32
    let reader: FIFOReader
    private let client: MPDClient

    init(socket: String, pid: Int32, fifo: String) throws {
        self.pid = pid
        reader = FIFOReader(path: fifo)
        client = try MPDClient(socketPath: socket)
    }

    func playQueue(_ files: [String]) throws {
        try client.command("stop")
        try client.command("clear")
        for file in files { try client.command("add \"\(file)\"") }
        try client.command("play 0")
    }

    func next() throws { try client.command("next") }
    func play(_ index: Int) throws { try client.command("play \(index)") }
    func stop() throws { try client.command("stop") }
}

final class QPlayUnderTest: PlayerUnderTest {
    let name = "qplay"
    let reader: FIFOReader
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let music: String

    init(fifo: String, music: String) throws {
        self.music = music
        reader = FIFOReader(path: fifo)
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["player", fifo]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        _ = readLine()  // ready
    }

    var pid: Int32 { process.processIdentifier }

    /// Why this build of qplay cannot play `file` as `format` into the outputs' fixed
    /// 44.1 kHz stereo, or nil when it can: found out the way the audio thread opens a
    /// file (the standard registry, converting to the output's format), so a build that
    /// gains a decoder is measured without a change here.
    func refusal(of file: String, as format: BenchFormat) -> String? {
        let path = FilePath("\(music)/\(file)")
        let registry = DecoderRegistry.standard
        let recognised: String?
        do {
            recognised = try registry.formatName(of: path)
            _ = try registry.open(path, converting: .cd)
        } catch {
            return error.reason
        }
        guard recognised == format.registryName else {
            return "opened, but as \(recognised ?? "no known format") (the libmpg123 fallback), not \(format.registryName)"
        }
        return nil
    }

    func playQueue(_ files: [String]) throws {
        send("stop")
        send("queue " + files.map { "\(music)/\($0)" }.joined(separator: "\t"))
        send("play 0")
    }

    func next() throws { send("next") }
    func play(_ index: Int) throws { send("play \(index)") }
    func stop() throws { send("stop") }

    func quit() -> String {
        send("quit")
        let line = readLine()
        process.waitUntilExit()
        return line
    }

    private func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    private func readLine() -> String {
        var bytes: [UInt8] = []
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == 10 { return String(decoding: bytes, as: UTF8.self) }
            bytes += byte
        }
    }
}
