import Foundation

/// The audio thread's CPU split by stage, from perf's sampled call chains (only where
/// `perf` is installed; its sampling costs CPU itself, so it runs in a window of its own
/// after the measured one, and only the shares are taken from it). Each sample goes to
/// the innermost frame that names a stage: a codec library or qplay's decoder wrappers
/// (decode), the encoder (narrowing to the output's samples), the software volume
/// (gain), the level meter, the output (its writes, pacing and clock reads), the wait
/// for a command or room (going to sleep and waking up); anything else is the loop's
/// own bookkeeping ("loop").
struct StageProfile {
    static let stages = ["decode", "encode", "gain", "meter", "output", "sleep/wake", "loop"]
    static var available: Bool { FileManager.default.isExecutableFile(atPath: perfPath) }
    private static let perfPath = "/usr/bin/perf"

    /// Samples per stage (of the audio thread), and those of other threads.
    var counts: [String: Int] = [:]
    var otherThreads = 0
    var total: Int { counts.values.reduce(0, +) }

    /// Samples `pid` for `seconds`; nil when perf failed.
    static func record(pid: Int32, seconds: Double, scratch: String) -> StageProfile? {
        let data = "\(scratch)/perf.data"
        let recorded = run(
            ["record", "-q", "-F", "20000", "-g", "-p", "\(pid)", "-o", data, "--", "sleep", "\(seconds)"])
        guard recorded != nil, let script = run(["script", "-i", data, "-F", "comm,tid,ip,sym,dso"]) else {
            return nil
        }
        try? FileManager.default.removeItem(atPath: data)
        var profile = StageProfile()
        for block in script.components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n")
            guard let header = lines.first, !header.hasPrefix("\t") else { continue }
            guard header.hasPrefix("qplay-audio") else {
                profile.otherThreads += 1
                continue
            }
            profile.counts[stage(of: lines.dropFirst()), default: 0] += 1
        }
        return profile.total > 0 ? profile : nil
    }

    /// "decode 0.120 % (48 %), …": each stage's share of the samples times `percent`,
    /// the audio thread's CPU measured without perf.
    func summary(of percent: Double) -> String {
        let total = Double(max(1, total))
        return Self.stages.compactMap { stage in
            guard let count = counts[stage], count > 0 else { return nil }
            let share = Double(count) / total
            return "\(stage) \(ResultTable.fixed(share * percent, 3)) % (\(ResultTable.fixed(share * 100, 0)) %)"
        }.joined(separator: ", ")
    }

    private static let decoderLibraries = [
        "libFLAC", "libmpg123", "libvorbis", "libogg", "libopus", "libavcodec", "libavformat", "libavutil",
        "libswresample", "libsoxr",
    ]
    /// Parts of qplay's (mangled) symbol names, innermost stage first.
    private static let symbolStages: [(String, String)] = [
        ("SampleEncoder", "encode"), ("SoftwareVolume", "gain"), ("LevelMeter", "meter"),
        ("RawPCMOutput", "output"), ("ALSAOutput", "output"), ("RealTimePacer", "output"),
        ("waitForCommand", "sleep/wake"), ("futex", "sleep/wake"), ("DispatchSemaphore", "sleep/wake"),
        ("FLACDecoder", "decode"), ("FLACFrameSink", "decode"), ("MPG123Decoder", "decode"),
        ("VorbisDecoder", "decode"), ("OpusDecoder", "decode"), ("FFmpegDecoder", "decode"),
        ("FFmpegSamples", "decode"), ("FFmpegStream", "decode"), ("FFmpegInput", "decode"),
        ("ResamplingDecoder", "decode"), ("SampleStaging", "decode"), ("BudgetedReader", "decode"),
        ("StreamAssemblerC4fill", "decode"),
    ]

    /// The stage of one call chain, leaf first ("\t<ip> <symbol> (<dso>)" per frame).
    private static func stage(of frames: ArraySlice<Substring>) -> String {
        for frame in frames {
            if let open = frame.lastIndex(of: "(") {
                let dso = frame[open...]
                if decoderLibraries.contains(where: { dso.contains($0) }) { return "decode" }
            }
            for (part, stage) in symbolStages where frame.contains(part) { return stage }
        }
        return "loop"
    }

    private static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: perfPath)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? text : nil
    }
}
