/// Turns the pipeline's left-justified 32-bit samples into an output's encoding.
///
/// Narrowing drops the low bits. Where they may carry signal — the source is deeper
/// than the encoding, or a gain below unity scaled the samples — plain truncation would
/// leave distortion correlated with the music, so TPDF dither of ±1 step of the target
/// is added first (what MPD and sox do). A 16-bit source at unity gain into a 16-bit
/// output is shifted back exactly: volume 100 stays bit-exact.
struct SampleEncoder {
    /// xorshift32: cheap, and good enough for dither noise.
    private var noise: UInt32 = 0x9E37_79B9

    /// Writes the encoded `samples` into `bytes` from `byteOffset` on (growing it, and
    /// keeping what is before the offset): a write's chunks are encoded one after the
    /// other from their own storage, with no copy gathering them first.
    mutating func encode(
        _ samples: UnsafeBufferPointer<Int32>, sourceBits: Int, scaled: Bool, as encoding: SampleEncoding,
        into bytes: inout [UInt8], at byteOffset: Int = 0
    ) {
        let needed = byteOffset + samples.count * encoding.bytesPerSample
        if bytes.count < needed { bytes.append(contentsOf: repeatElement(0, count: needed - bytes.count)) }
        let dither = scaled || sourceBits > encoding.bits
        bytes.withUnsafeMutableBytes { whole in
            let raw = UnsafeMutableRawBufferPointer(rebasing: whole[byteOffset...])
            switch encoding {
            case .s32:
                let target = raw.bindMemory(to: Int32.self)
                for index in samples.indices { target[index] = samples[index].littleEndian }
            case .s24in32:
                let target = raw.bindMemory(to: Int32.self)
                if dither {
                    for index in samples.indices {
                        target[index] = (narrowed(samples[index], droppingBits: 8)).littleEndian
                    }
                } else {
                    for index in samples.indices { target[index] = (samples[index] >> 8).littleEndian }
                }
            case .s16:
                let target = raw.bindMemory(to: Int16.self)
                if dither {
                    for index in samples.indices {
                        target[index] = Int16(truncatingIfNeeded: narrowed(samples[index], droppingBits: 16)).littleEndian
                    }
                } else {
                    for index in samples.indices {
                        target[index] = Int16(truncatingIfNeeded: samples[index] >> 16).littleEndian
                    }
                }
            }
        }
    }

    /// `sample` shifted right by `shift` bits (8 or 16), rounded with triangular dither
    /// of ±1 step of the result, clamped to the narrower range. The two uniform values
    /// summed into the triangle are the low and the next `shift` bits of one random
    /// word: one generator step per sample instead of two.
    @inline(__always)
    private mutating func narrowed(_ sample: Int32, droppingBits shift: Int32) -> Int32 {
        let step = Int64(1) << Int64(shift)
        let mask = UInt32(step - 1)
        let random = next()
        let triangular = Int64(random & mask) + Int64((random >> UInt32(shift)) & mask) - (step - 1)
        let value = (Int64(sample) + triangular + step / 2) >> Int64(shift)
        let limit = Int64(1) << Int64(31 - shift)
        return Int32(min(limit - 1, max(-limit, value)))
    }

    @inline(__always)
    private mutating func next() -> UInt32 {
        noise ^= noise << 13
        noise ^= noise >> 17
        noise ^= noise << 5
        return noise
    }
}
