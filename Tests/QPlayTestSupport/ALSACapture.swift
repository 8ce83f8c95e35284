import Foundation
import SystemPackage

/// An ALSA configuration whose `capture` PCM is of type `file`: everything played to it
/// lands, raw, in files next to `output`. Real libasound2 does the work; no sound card
/// is needed.
public struct ALSACapture: Sendable {
    public let configFile: FilePath
    public let output: FilePath
    public static let device = "capture"

    /// `perFormat`: each format the device is opened with goes to its own files
    /// (`captured-RATE-CHANNELS.raw`, see `samples(rate:channels:)`), for streams that
    /// change format.
    ///
    /// With `truncate false` alsa-lib never writes over a file: it creates the name with
    /// `O_EXCL` and, when that exists, the first free `NAME.0001`, `NAME.0002`, … So every
    /// open of the device after the first (a player closes an idle output and reopens it,
    /// or reopens after an error) starts a new file, and what the device was given is
    /// those files in order; `samples` reads them all.
    ///
    /// `bySampleFormat`: each ALSA sample format the device is opened in goes to its own
    /// files (`captured-S32_LE.raw`, see `words(sampleFormat:)`), for sources deeper than
    /// 16 bits: the `file` plugin writes whatever the device was opened with.
    public init(in directory: TemporaryDirectory, perFormat: Bool = false, bySampleFormat: Bool = false) throws {
        configFile = directory.appending("asound.conf")
        output = directory.appending("captured.raw")
        let file =
            perFormat
            ? directory.appending("captured-%r-%c.raw")
            : bySampleFormat ? directory.appending("captured-%f.raw") : output
        // Only this file is loaded (snd_pcm_open_lconf), so the slave is spelled out
        // instead of naming the system's "null" PCM.
        let text = """
            pcm.\(Self.device) {
                type file
                slave { pcm { type null } }
                file "\(file.string)"
                format "raw"
                perm 0644
                truncate false
            }

            """
        try directory.write(Array(text.utf8), to: configFile)
    }

    /// Everything the device was given, over all its opens: interleaved S16LE.
    public func samples() throws -> [Int16] {
        try Self.samples(from: output)
    }

    /// With `perFormat`: what was played in one format.
    public func samples(rate: Int, channels: Int) throws -> [Int16] {
        var directory = output
        directory.removeLastComponent()
        return try Self.samples(from: directory.appending("captured-\(rate)-\(channels).raw"))
    }

    /// With `bySampleFormat`: what was played in the ALSA sample format `name` (`S16_LE`,
    /// `S32_LE`, …), as 32-bit little-endian words; nil when nothing was.
    public func words(sampleFormat name: String) throws -> [Int32]? {
        var directory = output
        directory.removeLastComponent()
        let first = directory.appending("captured-\(name).raw")
        guard FileManager.default.fileExists(atPath: first.string) else { return nil }
        let bytes = try Self.bytes(from: first)
        return (0..<(bytes.count / 4)).map { index in
            Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[4 * index + $1]) << (8 * $1) })
        }
    }

    /// How many times the device was opened (one file per open).
    public var opens: Int { Self.files(from: output).count }

    /// `first` (it must exist: the device was opened at least once) and the files
    /// alsa-lib made for later opens, in order.
    private static func files(from first: FilePath) -> [FilePath] {
        var files: [FilePath] = []
        var next = first
        while FileManager.default.fileExists(atPath: next.string) {
            files.append(next)
            next = FilePath("\(first.string).\(String(format: "%04d", files.count))")
        }
        return files.isEmpty ? [first] : files
    }

    private static func bytes(from first: FilePath) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for file in files(from: first) { bytes += try TemporaryDirectory.read(file) }
        return bytes
    }

    private static func samples(from first: FilePath) throws -> [Int16] {
        let bytes = try bytes(from: first)
        // Whole samples only: an odd trailing byte (a cut-off write) is left out, so a
        // short capture shows as a short result and the test's expectations say so.
        return (0..<(bytes.count / 2)).map {
            Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8)
        }
    }
}
