import QPlayAudio
import QPlayFuzzDecoderSupport
import QPlayFuzzSupport
import SystemPackage

/// The libmpg123 wrapper (`MPG123Decoder`) on damaged MP3s, used the way playback uses
/// it: open through `DecoderRegistry` (as is, or converted by `ResamplingDecoder` for a
/// fixed-format output), decode to the end, seek (within, past the end, back to the
/// start) and decode a little after each. It must play
/// or throw a `DecoderError`, never crash, and hand out whole frames within the buffer.
///
/// Input: a byte choosing the conversion, two bytes choosing where to seek, the file.
@main
enum MPG123Fuzz {
    static func main() { FuzzDriver.run(check) }

    static let file = ScratchFile(suffix: "mp3")
    static let conversions: [AudioFormat?] = [nil, .cd, AudioFormat(sampleRate: 22050, channels: 1)]

    static func check(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let conversion = conversions[input.choose(conversions.count)]
        let seekFraction = Double(input.choose(65536)) / 65535
        file.write(Array(input.rest()))
        guard let decoder = try? DecoderRegistry.standard.open(FilePath(file.path), converting: conversion) else { return }
        if let conversion { fuzzCheck(decoder.format.joins(conversion), "asked for \(conversion), got \(decoder.format)") }
        fuzzCheck(decoder.format.channels > 0 && decoder.format.sampleRate > 0, "format \(decoder.format)")
        let decoded = DecoderReads.decode(decoder)
        try? decoder.seek(toFrame: Int(Double(decoder.frameCount ?? decoded) * seekFraction))
        _ = DecoderReads.decode(decoder, buffers: 2)
        try? decoder.seek(toFrame: Int.max / 4)
        _ = DecoderReads.decode(decoder, buffers: 1)
        try? decoder.seek(toFrame: 0)
        _ = DecoderReads.decode(decoder, buffers: 1)
    }
}
