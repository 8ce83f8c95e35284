/// One item being decoded on the audio thread: its decoder and where it stands.
final class DecodingSource {
    let item: PlaybackItem
    let decoder: any AudioDecoder
    /// The item frame the next decoded chunk starts at.
    var nextFrame: Int
    /// The item frame after the last frame handed to the output (or where playback of
    /// the item begins, before any): scanning and its end resume from here.
    var writtenFrame: Int
    /// The decoder reached the end of the item or failed: nothing more comes from it.
    var exhausted = false
    /// Some audio came out of the decoder (an item that ends without any failed).
    var decodedAudio = false

    init(item: PlaybackItem, decoder: any AudioDecoder) {
        self.item = item
        self.decoder = decoder
        gain = SoftwareVolume.fixedPoint(item.gain)
        nextFrame = decoder.framePosition
        writtenFrame = nextFrame
    }

    var token: UInt64 { item.token }
    /// The item's gain in Q15, for its chunks.
    let gain: Int64
    var format: AudioFormat { decoder.format }

    var duration: Double? {
        decoder.frameCount.map { Double($0) / Double(decoder.format.sampleRate) }
    }

    /// Moves the decoder to `frame` (clamped to the item).
    func seek(toFrame frame: Int) throws(DecoderError) {
        let target = max(0, decoder.frameCount.map { min(frame, $0) } ?? frame)
        try decoder.seek(toFrame: target)
        nextFrame = target
        exhausted = false
    }
}

/// A successor set with `setNext`: being opened (prefetch, off the audio thread),
/// opened, or the reason it could not be, reported only if playback reaches it.
enum Successor {
    /// Failed when not opened by `until`.
    case opening(PlaybackItem, until: ContinuousClock.Instant)
    case ready(DecodingSource)
    case failed(PlaybackItem, reason: String)

    var item: PlaybackItem {
        switch self {
        case .opening(let item, _): item
        case .ready(let source): source.item
        case .failed(let item, _): item
        }
    }
}
