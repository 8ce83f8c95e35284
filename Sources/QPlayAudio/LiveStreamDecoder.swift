import SystemPackage

/// A stream decoder (Ogg Vorbis, Opus, AAC) as the player reads it: live, so it has no
/// length and does not seek, and its reads never wait. When the decoder gives nothing
/// because the buffer ran dry, a short stretch of silence goes out instead of the end,
/// so the output keeps its clock and the stream goes on when bytes come back; it ends
/// only when the stream does, and a decoder that stops while the stream goes on is a
/// failure rather than endless silence. Closes the stream when done.
final class LiveStreamDecoder: AudioDecoder {
    var format: AudioFormat { decoder.format }
    var frameCount: Int? { nil }
    private(set) var framePosition = 0
    private let decoder: any AudioDecoder
    private let feed: StreamFeed
    private let path: FilePath

    init(_ decoder: any AudioDecoder, feed: StreamFeed, path: FilePath) {
        self.decoder = decoder
        self.feed = feed
        self.path = path
    }

    deinit {
        feed.close()
    }

    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        let channels = format.channels
        var count = try decoder.read(into: buffer)
        if count == 0 {
            if let ended = feed.ended {
                if let why = ended { throw DecoderError(path: path, reason: why) }
                return 0
            }
            guard feed.starved else {
                throw DecoderError(
                    path: path, atFrame: framePosition, sampleRate: format.sampleRate,
                    "the decoder stopped while the stream went on")
            }
            // Silence while the network catches up: at most 20 ms a call, so the output
            // asks again soon.
            count = min(buffer.count / channels, format.sampleRate / 50) * channels
            for index in 0..<count { buffer[index] = 0 }
        }
        framePosition += count / channels
        return count
    }

    /// Live: there is nowhere to move to. The daemon refuses seeks on streams; a resumed
    /// position (a restart) plays from now.
    func seek(toFrame frame: Int) throws(DecoderError) {}
}
