import Foundation
import QPlayAudio
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

// qplay-bench-engine: the audio side of qplay measured next to MPD, on the same files,
// in the same run (scripts/bench engine sets up MPD and the files; see there).
//   qplay-bench-engine compare DIR MPD_SOCKET MPD_PID DECODE_FLOOR [--quick]
//   qplay-bench-engine player FIFO          (the qplay process being measured)

struct PlayerResults {
    var cpuShort: CPUFigure?
    var cpu: [String: CPUFigure] = [:]  // by format key
    var stages: [String: StageProfile] = [:]  // qplay's, where perf is installed
    var next: [String: Latencies] = [:]
    var play: Latencies?
    var underruns: UnderrunFigure?
}

/// The decode floor program's figure for `path` (% of one core at real time), or why
/// there is none.
func decodeFloor(_ program: String, _ path: String) -> Result<Double, BenchError> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return .failure(BenchError("cannot run \(program): \(error)")) }
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let first = text.split(separator: " ").first, let value = Double(first)
    else { return .failure(BenchError("decode-floor failed on \(path)")) }
    return .success(value)
}

func compare(directory: String, mpdSocket: String, mpdPID: Int32, floorProgram: String, quick: Bool) throws {
    let music = "\(directory)/music"
    let short = (try FileManager.default.contentsOfDirectory(atPath: "\(music)/short")).sorted().map { "short/\($0)" }
    let log: (String) -> Void = { FileHandle.standardError.write(Data("… \($0)\n".utf8)) }
    let measure = Measurements(quick: quick)
    let formats = BenchFormat.all

    // What the index scan before a first seek costs (mpg123_scan), on the largest MP3.
    let hq = "\(music)/\(BenchFormat.mp3.cpuFile)"
    let decoder = try MPG123Decoder(path: FilePath(hq))
    let scanStart = monotonicNanoseconds()
    try decoder.scanIndex()
    let scanMilliseconds = Double(monotonicNanoseconds() - scanStart) / 1e6
    let seekStart = monotonicNanoseconds()
    try decoder.seek(toFrame: 63 * 44100)
    let seekMilliseconds = Double(monotonicNanoseconds() - seekStart) / 1e6

    log("decode floor of each library")
    var floors: [String: Result<Double, BenchError>] = [:]
    for format in formats { floors[format.key] = decodeFloor(floorProgram, "\(music)/\(format.cpuFile)") }

    let qplay = try QPlayUnderTest(fifo: "\(directory)/qplay.fifo", music: music)
    let mpd = try MPDUnderTest(socket: mpdSocket, pid: mpdPID, fifo: "\(directory)/mpd.fifo")
    var refusals: [String: String] = [:]
    for format in formats { refusals[format.key] = qplay.refusal(of: format.cpuFile, as: format) }
    let players: [PlayerUnderTest] = [qplay, mpd]
    var results = [PlayerResults(), PlayerResults()]

    // The players take turns per measure, stopped while the other one plays.
    for (index, player) in players.enumerated() {
        log("\(player.name): CPU over a queue of short MP3s")
        results[index].cpuShort = try measure.cpu(player, queue: short)
    }
    for format in formats {
        for (index, player) in players.enumerated() where player !== qplay || refusals[format.key] == nil {
            log("\(player.name): CPU over \(format.label)")
            results[index].cpu[format.key] = try measure.cpu(player, queue: [format.cpuFile])
        }
    }
    if StageProfile.available {
        for format in formats where refusals[format.key] == nil {
            log("qplay: the audio thread's stages (perf), \(format.label)")
            results[0].stages[format.key] = try measure.stages(qplay, queue: [format.cpuFile], scratch: directory)
        }
    }
    for format in formats {
        for (index, player) in players.enumerated() where player !== qplay || refusals[format.key] == nil {
            log("\(player.name): next → first sample, \(format.label)")
            results[index].next[format.key] = try measure.next(player, format: format)
        }
    }
    for (index, player) in players.enumerated() {
        log("\(player.name): play → first sample")
        results[index].play = try measure.play(player, file: BenchFormat.mp3.loudFile)
    }
    for (index, player) in players.enumerated() {
        log("\(player.name): underruns with the other core loaded")
        results[index].underruns = try measure.underruns(player, file: BenchFormat.mp3.cpuFile)
    }
    let qplayReported = qplay.quit()
    let (q, m) = (results[0], results[1])

    let unsupported = "not supported by this build"
    func floorCell(_ format: BenchFormat) -> String {
        switch floors[format.key] {
        case .success(let value): String(format: "%.3f %%", value)
        default: "?"
        }
    }
    func floorValue(_ format: BenchFormat) -> Double? {
        if case .success(let value) = floors[format.key] { return value }
        return nil
    }
    var table = ResultTable()
    let cpuTitle = "CPU, % of one core"
    table.row(
        "\(cpuTitle), queue of \(short.count) short MP3s (128 kb/s)", ResultTable.cpu(q.cpuShort),
        ResultTable.cpu(m.cpuShort), "", ResultTable.verdict(q.cpuShort, m.cpuShort), "")
    for format in formats {
        let label = !format.resampled ? format.label : "\(format.label) → 44.1 kHz"
        table.row(
            "\(cpuTitle), \(label)", refusals[format.key] == nil ? ResultTable.cpu(q.cpu[format.key]) : unsupported,
            ResultTable.cpu(m.cpu[format.key]), floorCell(format),
            ResultTable.verdict(q.cpu[format.key], m.cpu[format.key]),
            refusals[format.key] == nil ? ResultTable.verdict(q.cpu[format.key], floor: floorValue(format)) : "—")
    }
    for format in formats {
        table.row(
            "next → first sample, p50 / p99 ms (n=\(measure.nextPairs)), \(format.label)",
            refusals[format.key] == nil ? ResultTable.latencies(q.next[format.key]) : unsupported,
            ResultTable.latencies(m.next[format.key]), "",
            ResultTable.verdict(q.next[format.key], m.next[format.key]), "")
    }
    table.row(
        "play → first sample, p50 / p99 ms (n=\(measure.playCount)), \(BenchFormat.mp3.label)",
        ResultTable.latencies(q.play), ResultTable.latencies(m.play), "", ResultTable.verdict(q.play, m.play), "")
    let qUnderruns = q.underruns?.count ?? 0
    let mUnderruns = m.underruns?.count ?? 0
    table.row(
        "underruns, \(Int((q.underruns?.seconds ?? 0).rounded())) s, other core loaded, \(BenchFormat.mp3.label)",
        "\(qUnderruns)", "\(mUnderruns)", "", qUnderruns <= mUnderruns ? "yes" : "no", "")

    print("")
    print("engine benchmark: qplay's AudioPlayer vs MPD \(mpdVersion()) (\(mpdPlugins(formats))), same files, same run")
    print("release build; both outputs at a fixed 44100:16:2 (MPD fifo, qplay file: into a FIFO), so both players resample")
    print("the 96 kHz FLAC and the 48 kHz Opus (MPD: \(mpdResampler(directory))); CPU files are pink noise (the costliest to decode).")
    print("targets: qplay ≤ MPD on every line; on the CPU lines of one format, qplay ≤ 2 × the decode floor.")
    print("")
    table.print()
    print("")
    for format in formats {
        if let reason = refusals[format.key] { print("qplay, \(format.label): \(unsupported): \(reason)") }
        if case .failure(let error) = floors[format.key] { print("decode floor, \(format.label): \(error)") }
    }
    print("CPU: all threads' CPU time over \(Int(measure.cpuWindow)) s of playing, one player at a time; the machine is shared, so")
    print("CPU time is the figure to judge by — latencies also carry other processes' scheduling.")
    print("decode floor: the codec library alone (Benchmarks/DecodeFloor, C, -O2) decoding the same file at its own rate, no")
    print("resampling, output dropped, as fast as it goes; CPU time per second of audio. AAC and ALAC: libavformat + libavcodec")
    print("on one thread into the frames libavcodec hands qplay (planar float, planar 16-bit), not converted further.")
    print("first sample = first sample above ±1000 read from the FIFO after the command was sent;")
    print("underrun = a sample reaching the FIFO reader later than a 200 ms device buffer allows.")
    print(String(format: "mpg123_scan of the 320 kb/s MP3 (index before a first seek): %.2f ms; then a seek to 63 s: %.2f ms", scanMilliseconds, seekMilliseconds))
    print("qplay's own output underrun counter: \(qplayReported)")
    printBreakdown(q, m, formats: formats, shortCount: short.count)
    for (name, figure) in [("qplay", q.underruns), ("MPD", m.underruns)] {
        let threads = figure?.realtimeThreads ?? []
        print("\(name) threads at a real-time priority while playing: \(threads.isEmpty ? "none" : threads.joined(separator: ", "))")
    }
}

/// Where each player's CPU went in the CPU windows: per thread (CPU and wake-ups a
/// second), and qplay's audio thread by stage where perf is installed.
func printBreakdown(_ q: PlayerResults, _ m: PlayerResults, formats: [BenchFormat], shortCount: Int) {
    print("")
    print("per thread, same CPU windows (CPU % of one core; w/s: wake-ups a second, i.e. voluntary sleeps; preempted: involuntary switches, the machine's load):")
    func line(_ label: String, _ figure: CPUFigure?) {
        guard let figure else { return }
        print("  \(label): \(figure.threads.summary); preempted \(ResultTable.fixed(figure.threads.preemptedPerSecond, 1))/s")
    }
    line("qplay, \(shortCount) short MP3s", q.cpuShort)
    line("MPD,   \(shortCount) short MP3s", m.cpuShort)
    for format in formats {
        line("qplay, \(format.label)", q.cpu[format.key])
        line("MPD,   \(format.label)", m.cpu[format.key])
    }
    guard !q.stages.isEmpty else {
        print("qplay's audio thread by stage: perf is not installed")
        return
    }
    print("")
    print("qplay's audio thread by stage (perf call chains at 20 kHz in a window of its own after the CPU windows; each stage's share")
    print("of the samples times the audio thread's CPU above; decode: codec library and qplay's decoder side; encode: narrowing to the")
    print("output's samples; output: writes, pacing and clock reads; sleep/wake: the timed wait for room or a command; loop: the rest):")
    for format in formats {
        guard let stages = q.stages[format.key] else { continue }
        let audio = q.cpu[format.key]?.threads.threads.first { $0.name == "qplay-audio" }?.percent ?? .nan
        print("  \(format.label) (\(stages.total) samples): \(stages.summary(of: audio))")
    }
}

/// MPD's decoder plugin per format, as the bench's mpd.conf has it: "mpg123 for MP3, …".
func mpdPlugins(_ formats: [BenchFormat]) -> String {
    var labels: [(plugin: String, labels: [String])] = []
    for format in formats {
        let name = String(format.label.split(separator: " ").first ?? "")
        if let index = labels.firstIndex(where: { $0.plugin == format.mpdPlugin }) {
            if !labels[index].labels.contains(name) { labels[index].labels.append(name) }
        } else {
            labels.append((format.mpdPlugin, [name]))
        }
    }
    return "decoders: " + labels.map { "\($0.plugin) for \($0.labels.joined(separator: " and "))" }.joined(separator: ", ")
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

/// The resampler settings of the bench's mpd.conf, as written there.
func mpdResampler(_ directory: String) -> String {
    let config = (try? String(contentsOfFile: "\(directory)/mpd/mpd.conf", encoding: .utf8)) ?? ""
    guard let block = config.range(of: #"resampler \{[^}]*\}"#, options: .regularExpression) else {
        return "its default resampler"
    }
    let settings = config[block].split(separator: "\n").dropFirst().dropLast()
        .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
    return settings.joined(separator: ", ")
}

/// qplay's own decoder of `path` (picked by the registry) decoding alone, as fast as it
/// goes, in % of one core at real time: beside the library's floor, what the wrapper adds.
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
case "compare" where arguments.count >= 6:
    signal(SIGPIPE, SIG_IGN)
    do {
        try compare(
            directory: arguments[2], mpdSocket: arguments[3], mpdPID: Int32(arguments[4]) ?? 0,
            floorProgram: arguments[5], quick: arguments.contains("--quick"))
    } catch {
        FileHandle.standardError.write(Data("qplay-bench-engine: \(error)\n".utf8))
        exit(1)
    }
default:
    FileHandle.standardError.write(
        Data("usage: qplay-bench-engine compare DIR MPD_SOCKET MPD_PID DECODE_FLOOR [--quick] | player FIFO | decode FILE\n".utf8))
    exit(2)
}
