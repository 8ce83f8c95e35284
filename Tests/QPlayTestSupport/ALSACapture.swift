import SystemPackage

/// An ALSA configuration whose `capture` PCM is of type `file`: everything played to it
/// lands, raw, in `output`. Real libasound2 does the work; no sound card is needed.
public struct ALSACapture: Sendable {
    public let configFile: FilePath
    public let output: FilePath
    public static let device = "capture"

    /// `perFormat`: each format the device is opened with goes to its own file
    /// (`captured-RATE-CHANNELS.raw`, see `samples(rate:channels:)`), for streams that
    /// change format. Otherwise every open writes into `output` from its start.
    public init(in directory: TemporaryDirectory, perFormat: Bool = false) throws {
        configFile = directory.appending("asound.conf")
        output = directory.appending("captured.raw")
        let file = perFormat ? directory.appending("captured-%r-%c.raw") : output
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

    /// The captured samples, interleaved S16LE.
    public func samples() throws -> [Int16] {
        try Self.samples(in: output)
    }

    /// With `perFormat`: what was played in one format.
    public func samples(rate: Int, channels: Int) throws -> [Int16] {
        var directory = output
        directory.removeLastComponent()
        return try Self.samples(in: directory.appending("captured-\(rate)-\(channels).raw"))
    }

    private static func samples(in path: FilePath) throws -> [Int16] {
        let bytes = try TemporaryDirectory.read(path)
        return stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }
}
