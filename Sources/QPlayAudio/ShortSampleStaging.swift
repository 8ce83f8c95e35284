/// Where a decoder whose library hands out 16-bit samples (libvorbisfile, libopusfile)
/// has them decoded before they are widened into the pipeline's left-justified 32 bits.
/// Grows to the largest request and stays that size.
struct ShortSampleStaging {
    private var storage: [Int16] = []

    /// Calls `decode` with room for `count` samples and widens the samples it wrote
    /// (its result) into the start of `buffer`; returns their number.
    mutating func decode(
        into buffer: UnsafeMutableBufferPointer<Int32>, count: Int,
        _ decode: (UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int
    ) throws(DecoderError) -> Int {
        guard count > 0 else { return 0 }
        if storage.count < count { storage = [Int16](repeating: 0, count: count) }
        let filled = try storage.withUnsafeMutableBufferPointer { shorts throws(DecoderError) in
            try decode(UnsafeMutableBufferPointer(rebasing: shorts[..<count]))
        }
        storage.withUnsafeBufferPointer { shorts in
            for index in 0..<filled { buffer[index] = Int32(leftJustifying: shorts[index]) }
        }
        return filled
    }

    /// Room for `count` samples that are decoded only to be dropped (decoding towards a
    /// seek target).
    mutating func discard(count: Int, _ decode: (UnsafeMutableBufferPointer<Int16>) -> Int32) -> Int32 {
        if storage.count < count { storage = [Int16](repeating: 0, count: count) }
        return storage.withUnsafeMutableBufferPointer { decode(UnsafeMutableBufferPointer(rebasing: $0[..<count])) }
    }
}
