import QPlayFuzzSupport
import QPlayLibrary
import SystemPackage

/// The TagLib shim (CTagLib, through `TagReader`, as the scanner calls it) on damaged
/// files: tags, audio properties, the MPEG Xing/LAME header, FLAC/Ogg picture ranges and
/// Ogg page walks for exact lengths. It must read them or
/// report a `TagReadError`, never crash or read out of bounds.
///
/// Input: a byte choosing the file name's extension (the content picks the parser; the
/// name decides only whether content no signature matches is refused or searched for
/// MPEG frames), then the file.
@main
enum TagLibFuzz {
    static func main() { FuzzDriver.run(check) }

    static let files = ["mp3", "flac", "ogg", "m4a", "wav", "opus", "mp2"].map { ScratchFile(suffix: $0) }

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let file = files[input.choose(files.count)]
        let contents = Array(input.rest())
        file.write(contents)
        guard let info = try? TagReader.read(FilePath(file.path)) else { return }
        fuzzCheck(info.durationMilliseconds >= 0, "duration \(info.durationMilliseconds) ms")
        fuzzCheck(info.duration >= 0, "duration \(info.duration) s")
        fuzzCheck(info.bitrateKbps >= 0, "bitrate \(info.bitrateKbps) kbps")
        fuzzCheck(info.sampleRate > 0, "read as audio with sample rate \(info.sampleRate)")
        fuzzCheck(info.format != .opus || info.sampleRate == 48000, "Opus at \(info.sampleRate) Hz")
        fuzzCheck(
            info.bitsPerSample == nil || [.flac, .alac, .wav, .aiff, .wavPack].contains(info.format),
            "bit depth for \(info.format)")
        fuzzCheck((info.exactSamples ?? 1) > 0, "exact length of \(info.exactSamples ?? 0) samples")
        if let present = info.presentAudioBytes {
            fuzzCheck(present <= contents.count, "\(present) bytes of audio in a file of \(contents.count)")
        }
    }
}
