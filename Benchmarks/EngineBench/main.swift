import Foundation
import QPlayAudio
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

// qplay-bench-engine: the audio side of qplay measured next to MPD, on the same files,
// in the same run (scripts/bench engine sets up MPD and the files; see there).
//   qplay-bench-engine compare DIR MPD_SOCKET MPD_PID [--quick]
//   qplay-bench-engine player FIFO          (the qplay process being measured)

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

/// CPU time of every thread of a process, in nanoseconds (schedstat: exact, not ticks).
func cpuNanoseconds(of pid: Int32) -> UInt64 {
    let tasks = "/proc/\(pid)/task"
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
    return threads.reduce(0) { total, thread in
        guard let text = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
            let first = text.split(separator: " ").first, let value = UInt64(first)
        else { return total }
        return total + value
    }
}

func sleep(seconds: Double) { usleep(UInt32(seconds * 1_000_000)) }

/// CPU % of one core over `seconds` of playback.
func cpuPercent(_ player: PlayerUnderTest, seconds: Double) -> Double {
    let cpu0 = cpuNanoseconds(of: player.pid)
    let wall0 = monotonicNanoseconds()
    sleep(seconds: seconds)
    let cpu = cpuNanoseconds(of: player.pid) - cpu0
    let wall = monotonicNanoseconds() - wall0
    return Double(cpu) / Double(wall) * 100
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
    return sorted[rank]
}

struct Results {
    var cpuShort = 0.0
    var cpuHQ = 0.0
    var next: [Double] = []
    var nextMissed = 0
    var play: [Double] = []
    var playMissed = 0
    var underruns = 0
    var underrunSeconds = 0.0
}

func measure(_ player: PlayerUnderTest, short: [String], quick: Bool, log: (String) -> Void) throws -> Results {
    var results = Results()
    let window = quick ? 8.0 : 30.0
    log("\(player.name): CPU over a queue of short MP3s")
    try player.playQueue(short)
    sleep(seconds: 2)
    results.cpuShort = cpuPercent(player, seconds: window)

    log("\(player.name): CPU over one 320 kb/s MP3")
    try player.playQueue(["hq.mp3"])
    sleep(seconds: 2)
    results.cpuHQ = cpuPercent(player, seconds: window)

    log("\(player.name): next → first sample")
    let pairs = quick ? 8 : 30
    try player.playQueue(Array(repeating: ["skip/silent.mp3", "skip/loud.mp3"], count: pairs + 1).flatMap { $0 })
    sleep(seconds: 1.5)
    for _ in 0..<pairs {
        let start = monotonicNanoseconds()
        try player.next()  // silent → loud
        if let onset = player.reader.onset(after: start) {
            results.next.append(Double(onset - start) / 1e6)
        } else {
            results.nextMissed += 1
        }
        sleep(seconds: 0.3)
        try player.next()  // loud → silent: not measured, lets the stream fall quiet
        sleep(seconds: 0.5)
    }

    log("\(player.name): play → first sample")
    try player.playQueue(["skip/loud.mp3"])
    sleep(seconds: 1)
    for _ in 0..<(quick ? 6 : 20) {
        try player.stop()
        sleep(seconds: 0.6)
        let start = monotonicNanoseconds()
        try player.play(0)
        if let onset = player.reader.onset(after: start) {
            results.play.append(Double(onset - start) / 1e6)
        } else {
            results.playMissed += 1
        }
        sleep(seconds: 0.3)
    }

    log("\(player.name): underruns with the other core loaded")
    let load = Process()
    load.executableURL = URL(fileURLWithPath: "/bin/sh")
    load.arguments = ["-c", "while :; do :; done"]
    try load.run()
    try player.playQueue(["hq.mp3"])
    sleep(seconds: 1)
    player.reader.startDeviceModel()
    let seconds = quick ? 10.0 : 60.0
    sleep(seconds: seconds)
    let model = player.reader.stopDeviceModel()
    load.terminate()
    load.waitUntilExit()
    results.underruns = model.underruns
    results.underrunSeconds = Double(model.frames) / Double(FIFOReader.rate)
    try player.stop()
    return results
}

func compare(directory: String, mpdSocket: String, mpdPID: Int32, quick: Bool) throws {
    let music = "\(directory)/music"
    let short = (try FileManager.default.contentsOfDirectory(atPath: "\(music)/short")).sorted().map { "short/\($0)" }
    let log: (String) -> Void = { FileHandle.standardError.write(Data("… \($0)\n".utf8)) }

    // What the index scan before a first seek costs (mpg123_scan), on the largest file.
    let decoder = try MPG123Decoder(path: FilePath("\(music)/hq.mp3"))
    let scanStart = monotonicNanoseconds()
    try decoder.scanIndex()
    let scanMilliseconds = Double(monotonicNanoseconds() - scanStart) / 1e6
    let seekStart = monotonicNanoseconds()
    try decoder.seek(toFrame: 63 * 44100)
    let seekMilliseconds = Double(monotonicNanoseconds() - seekStart) / 1e6
    let hqBytes = (try FileManager.default.attributesOfItem(atPath: "\(music)/hq.mp3")[.size] as? Int) ?? 0

    let qplay = try QPlayUnderTest(fifo: "\(directory)/qplay.fifo", music: music)
    let qplayResults = try measure(qplay, short: short, quick: quick, log: log)
    let mpd = try MPDUnderTest(socket: mpdSocket, pid: mpdPID, fifo: "\(directory)/mpd.fifo")
    let mpdResults = try measure(mpd, short: short, quick: quick, log: log)
    let qplayReported = qplay.quit()

    func cell(_ values: [Double], missed: Int) -> String {
        let text = String(format: "%.1f / %.1f", percentile(values, 50), percentile(values, 99))
        return missed > 0 ? "\(text) (\(missed) missed)" : text
    }
    func row(_ label: String, _ a: String, _ b: String) {
        print("| \(label.padding(toLength: 46, withPad: " ", startingAt: 0)) | \(a.padding(toLength: 17, withPad: " ", startingAt: 0)) | \(b.padding(toLength: 17, withPad: " ", startingAt: 0)) |")
    }
    print("")
    print("engine benchmark: qplay's audio thread vs MPD \(mpdVersion()), both libmpg123, same files, same run")
    print("(release build; \(short.count) short MP3s of 4 s; hq.mp3 \(hqBytes / 1024) KB, 320 kb/s; outputs: MPD fifo, qplay file: on a FIFO)")
    print("")
    row("measure", "qplay", "MPD")
    print("|\(String(repeating: "-", count: 48))|\(String(repeating: "-", count: 19))|\(String(repeating: "-", count: 19))|")
    row("CPU, queue of short MP3s (% of one core)", String(format: "%.2f %%", qplayResults.cpuShort), String(format: "%.2f %%", mpdResults.cpuShort))
    row("CPU, one 320 kb/s MP3 (% of one core)", String(format: "%.2f %%", qplayResults.cpuHQ), String(format: "%.2f %%", mpdResults.cpuHQ))
    row("next → first sample, p50 / p99 (ms, n=\(qplayResults.next.count))", cell(qplayResults.next, missed: qplayResults.nextMissed), cell(mpdResults.next, missed: mpdResults.nextMissed))
    row("play → first sample, p50 / p99 (ms, n=\(qplayResults.play.count))", cell(qplayResults.play, missed: qplayResults.playMissed), cell(mpdResults.play, missed: mpdResults.playMissed))
    row(String(format: "underruns, %.0f s, other core loaded", qplayResults.underrunSeconds), "\(qplayResults.underruns)", "\(mpdResults.underruns)")
    print("")
    print(String(format: "mpg123_scan of hq.mp3 (index before a first seek): %.2f ms; then a seek to 63 s: %.2f ms", scanMilliseconds, seekMilliseconds))
    print("qplay's own output underrun counter: \(qplayReported)")
    print("first sample = first sample above ±1000 read from the FIFO after the command was sent;")
    print("underrun = a sample reaching the FIFO reader later than a 200 ms device buffer allows.")
}

func mpdVersion() -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/mpd")
    process.arguments = ["--version"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try? process.run()
    process.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return text.split(separator: "\n").first.map { String($0.split(separator: " ").last ?? "") }?
        .trimmingCharacters(in: CharacterSet(charactersIn: "()")) ?? "?"
}

/// Decoding alone, as fast as it goes: the floor under any player's CPU figure. Any
/// format qplay plays, by content.
func decodeCost(_ path: String) throws -> Double {
    let decoder = try DecoderRegistry.standard.open(FilePath(path))
    var buffer = [Int32](repeating: 0, count: 1764)
    let cpu0 = cpuNanoseconds(of: getpid())
    var frames = 0
    while true {
        let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
        if count == 0 { break }
        frames += count / decoder.format.channels
    }
    let cpu = Double(cpuNanoseconds(of: getpid()) - cpu0)
    return cpu / (Double(frames) / Double(decoder.format.sampleRate) * 1e9) * 100
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "decode" where arguments.count == 3:
    print(String(format: "decoding alone: %.3f %% of one core at real time", (try? decodeCost(arguments[2])) ?? .nan))
case "player" where arguments.count == 3:
    QPlayChild.run(fifo: arguments[2])
case "player" where arguments.count == 4 && Int(arguments[3]) != nil:
    QPlayChild.run(fifo: arguments[2], rate: Int(arguments[3])!)
case "compare" where arguments.count >= 5:
    signal(SIGPIPE, SIG_IGN)
    do {
        try compare(
            directory: arguments[2], mpdSocket: arguments[3], mpdPID: Int32(arguments[4]) ?? 0,
            quick: arguments.contains("--quick"))
    } catch {
        FileHandle.standardError.write(Data("qplay-bench-engine: \(error)\n".utf8))
        exit(1)
    }
default:
    FileHandle.standardError.write(
        Data("usage: qplay-bench-engine compare DIR MPD_SOCKET MPD_PID [--quick] | player FIFO [RATE] | decode FILE\n".utf8))
    exit(2)
}
