import SystemPackage

/// An ALSA configuration whose `capture` PCM is of type `file`: everything played to it
/// lands, raw, in `output`. Real libasound2 does the work; no sound card is needed.
public struct ALSACapture: Sendable {
    public let configFile: FilePath
    public let output: FilePath
    public static let device = "capture"

    public init(in directory: TemporaryDirectory) throws {
        configFile = directory.appending("asound.conf")
        output = directory.appending("captured.raw")
        // Only this file is loaded (snd_pcm_open_lconf), so the slave is spelled out
        // instead of naming the system's "null" PCM.
        let text = """
            pcm.\(Self.device) {
                type file
                slave { pcm { type null } }
                file "\(output.string)"
                format "raw"
                perm 0644
                truncate false
            }

            """
        try directory.write(Array(text.utf8), to: configFile)
    }

    /// The captured samples, interleaved S16LE.
    public func samples() throws -> [Int16] {
        let bytes = try TemporaryDirectory.read(output)
        return stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }
}
