import Foundation
import SystemPackage

/// Raw PCM made with sox: the exact samples a lossless file is encoded from, to compare
/// its decode with.
public struct GeneratedPCM: Sendable {
    /// Interleaved source values, right-justified (a 24-bit sample is −2^23..<2^23).
    public var samples: [Int32]
    public var bits: Int
    public var sampleRate: Int
    public var channels: Int

    public var frames: Int { samples.count / channels }

    /// Samples a test computed itself (e.g. a tone staircase with seeded noise).
    public init(samples: [Int32], bits: Int, sampleRate: Int, channels: Int) {
        self.samples = samples
        self.bits = bits
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The frames `range`, as a PCM of their own (a track cut from a longer one).
    public func slice(frames range: Range<Int>) -> GeneratedPCM {
        var part = self
        part.samples = Array(samples[(range.lowerBound * channels)..<(range.upperBound * channels)])
        return part
    }

    /// The samples left-justified to 32 bits: what a decoder of this PCM hands out.
    public var leftJustified: [Int32] { samples.map { $0 << (32 - bits) } }

    /// The samples as a 16-bit output gets them unaltered (no dither: 16-bit sources).
    public var sixteenBit: [Int16] { samples.map { Int16(truncatingIfNeeded: $0 >> (bits - 16)) } }
}

extension GeneratedAudio {
    /// `seconds` of `synth` (sox's synth effect: `sine 200-3000` sweeps, so every moment
    /// sounds different) at `bits` (8, 16, 24 or 32), as signed integers.
    public static func pcm(
        in directory: TemporaryDirectory, seconds: Double, synth: [String] = ["sine", "200-3000"],
        bits: Int = 16, rate: Int = 44100, channels: Int = 2
    ) throws -> GeneratedPCM {
        let raw = directory.appending("source-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(atPath: raw.string) }
        try tool(
            ["sox", "-R", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "\(bits)", "-e", "signed-integer", "-L",
                "-t", "raw", raw.string, "synth", "\(seconds)"] + synth + ["vol", "0.5"])
        let bytes = try TemporaryDirectory.read(raw)
        let width = bits / 8
        let samples = (0..<(bytes.count / width)).map { index -> Int32 in
            var value: UInt32 = 0
            for byte in 0..<width { value |= UInt32(bytes[index * width + byte]) << (8 * byte) }
            // Sign-extend from the sample's width.
            return Int32(bitPattern: value << (32 - bits)) >> (32 - bits)
        }
        return GeneratedPCM(samples: samples, bits: bits, sampleRate: rate, channels: channels)
    }

    /// Encodes `pcm` into a FLAC file with the `flac` tool (its default block size of
    /// 4,096 frames unless `blockSize`); returns its path.
    @discardableResult
    public static func flac(
        _ pcm: GeneratedPCM, in directory: TemporaryDirectory, name: String, blockSize: Int? = nil,
        extraArguments: [String] = []
    ) throws -> FilePath {
        let raw = directory.appending("\(name).raw")
        let flac = directory.appending(name)
        let width = pcm.bits / 8
        var bytes = [UInt8](repeating: 0, count: pcm.samples.count * width)
        for (index, sample) in pcm.samples.enumerated() {
            for byte in 0..<width { bytes[index * width + byte] = UInt8(truncatingIfNeeded: sample >> (8 * byte)) }
        }
        try directory.write(bytes, to: raw)
        defer { try? FileManager.default.removeItem(atPath: raw.string) }
        try tool(
            ["flac", "--silent", "--force", "--force-raw-format", "--endian=little", "--sign=signed",
                "--channels=\(pcm.channels)", "--bps=\(pcm.bits)", "--sample-rate=\(pcm.sampleRate)"]
                + (blockSize.map { ["--blocksize=\($0)"] } ?? []) + extraArguments
                + ["-o", flac.string, raw.string])
        return flac
    }

    /// What `metaflac --show-total-samples` says of `path`.
    public static func flacTotalSamples(_ path: FilePath) throws -> Int? {
        Int(try tool(["metaflac", "--show-total-samples", path.string]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @discardableResult
    private static func tool(_ arguments: [String]) throws -> String {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        guard result.status == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "\(arguments) exited \(result.status): \(result.stderr)"])
        }
        return result.stdout
    }
}
