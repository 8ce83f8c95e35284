/// Vorbis (and Opus, mapping family 1) order surround channels differently from what the
/// rest of qplay hands on — the FLAC/WAVE order ALSA and `ChannelMapper` take (FL FR FC
/// LFE BL BR SL SR). libvorbisfile and libopusfile decode in the stream's order, so 5.1
/// would reach the device with the centre on the right and the LFE on a surround.
enum VorbisChannelOrder {
    /// For each WAVE-order output channel, the Vorbis-order channel it takes; nil where
    /// the orders agree (1, 2 and 4 channels).
    static func waveOrder(channels: Int) -> [Int]? {
        switch channels {
        case 3: [0, 2, 1]  // L C R → L R C
        case 5: [0, 2, 1, 3, 4]  // FL C FR BL BR → FL FR C BL BR
        case 6: [0, 2, 1, 5, 3, 4]  // FL C FR BL BR LFE → FL FR C LFE BL BR
        case 7: [0, 2, 1, 6, 5, 3, 4]  // FL C FR SL SR BC LFE → FL FR C LFE BC SL SR
        case 8: [0, 2, 1, 7, 5, 6, 3, 4]  // FL C FR SL SR BL BR LFE → FL FR C LFE BL BR SL SR
        default: nil
        }
    }
}
