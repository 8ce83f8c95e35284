/// Where a decoder has its library decode (16-bit samples from libvorbisfile, floats
/// from libopusfile) before they are converted into the pipeline's left-justified
/// 32 bits. Grows to the largest request and stays that size.
struct SampleStaging<Sample: AdditiveArithmetic> {
    private var storage: [Sample] = []

    /// Calls `decode` with room for `count` samples and converts the samples it wrote
    /// (its result) into the start of `buffer`; returns their number.
    /// `order`: for each output channel, the decoded channel it takes (see
    /// `VorbisChannelOrder`); nil keeps the order.
    mutating func decode(
        into buffer: UnsafeMutableBufferPointer<Int32>, count: Int, converting convert: (Sample) -> Int32,
        reordering order: [Int]? = nil,
        _ decode: (UnsafeMutableBufferPointer<Sample>) throws(DecoderError) -> Int
    ) throws(DecoderError) -> Int {
        guard count > 0 else { return 0 }
        if storage.count < count { storage = [Sample](repeating: .zero, count: count) }
        let filled = try storage.withUnsafeMutableBufferPointer { samples throws(DecoderError) in
            try decode(UnsafeMutableBufferPointer(rebasing: samples[..<count]))
        }
        storage.withUnsafeBufferPointer { samples in
            guard let order else {
                for index in 0..<filled { buffer[index] = convert(samples[index]) }
                return
            }
            let channels = order.count
            var frame = 0
            while frame < filled {
                for channel in 0..<channels { buffer[frame + channel] = convert(samples[frame + order[channel]]) }
                frame += channels
            }
        }
        return filled
    }

    /// Room for `count` samples that are decoded only to be dropped (decoding towards a
    /// seek target).
    mutating func discard<Result>(count: Int, _ decode: (UnsafeMutableBufferPointer<Sample>) -> Result) -> Result {
        if storage.count < count { storage = [Sample](repeating: .zero, count: count) }
        return storage.withUnsafeMutableBufferPointer { decode(UnsafeMutableBufferPointer(rebasing: $0[..<count])) }
    }
}

extension Int32 {
    /// A float sample (full scale ±1) rounded to 16 bits, left-justified: what libopus's
    /// own 16-bit API gives (nearest, ties to even, clipped, no dither). Not a number
    /// counts as −1 (`maximum` prefers the number).
    @inline(__always) init(roundingTo16Bits sample: Float) {
        let clamped = Float.minimum(Float.maximum(sample * 32768, -32768), 32767)
        // Adding 1.5 × 2^23 leaves the rounding to the FPU and the integer in the low
        // bits of the sum: no libm call (`rounded` is one on baseline x86-64) and no
        // checked conversion per sample.
        self = (Int32(bitPattern: (clamped + 12_582_912).bitPattern) - 0x4B40_0000) << 16
    }
}
