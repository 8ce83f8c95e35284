import CFFmpeg

/// How a decoded AVFrame's samples become the pipeline's left-justified 32 bits, and at
/// what depth (`bits`): lossless formats at their own (8-bit PCM, 16, 24 in FFmpeg's
/// MSB-aligned 32-bit samples, 32; float PCM as 24 bits, a float's precision), lossy
/// codecs (AAC) rounded from their float output to 16 bits as Opus's decoder does.
struct FFmpegSamples {
    enum Kind {
        case unsigned8, signed16, signed32, float32, float64
    }

    let kind: Kind
    let planar: Bool
    let lossy: Bool
    let bits: Int

    /// The conversion of `format`'s samples, nil for one qplay does not take (64-bit
    /// integers); `rawBits` is the codec's `bits_per_raw_sample` (0 when it says none).
    init?(format: AVSampleFormat, rawBits: Int32, lossy: Bool) {
        switch format {
        case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P: kind = .unsigned8
        case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P: kind = .signed16
        case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P: kind = .signed32
        case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP: kind = .float32
        case AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP: kind = .float64
        default: return nil
        }
        planar = av_sample_fmt_is_planar(format) != 0
        self.lossy = lossy
        switch kind {
        case .unsigned8: bits = 8
        case .signed16: bits = 16
        case .signed32: bits = (9...32).contains(Int(rawBits)) ? Int(rawBits) : 32
        case .float32, .float64: bits = lossy ? 16 : 24
        }
    }

    /// Converts `count` frames of `frame` from frame `offset` into `destination`,
    /// interleaved.
    func convert(
        _ frame: UnsafeMutablePointer<AVFrame>, from offset: Int, count: Int, channels: Int,
        into destination: UnsafeMutablePointer<Int32>
    ) {
        guard count > 0, let planes = frame.pointee.extended_data else { return }
        switch kind {
        case .unsigned8:
            copy(planes, UInt8.self, offset, count, channels, destination) { (Int32($0) - 128) << 24 }
        case .signed16:
            copy(planes, Int16.self, offset, count, channels, destination) { Int32($0) << 16 }
        case .signed32:
            copy(planes, Int32.self, offset, count, channels, destination) { $0 }
        case .float32 where lossy:
            copy(planes, Float.self, offset, count, channels, destination) { Int32(roundingTo16Bits: $0) }
        case .float32:
            copy(planes, Float.self, offset, count, channels, destination) { Self.twentyFourBits(Double($0)) }
        case .float64 where lossy:
            copy(planes, Double.self, offset, count, channels, destination) { Int32(roundingTo16Bits: Float($0)) }
        case .float64:
            copy(planes, Double.self, offset, count, channels, destination) { Self.twentyFourBits($0) }
        }
    }

    @inline(__always)
    private func copy<Sample>(
        _ planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, _ type: Sample.Type, _ offset: Int, _ count: Int,
        _ channels: Int, _ destination: UnsafeMutablePointer<Int32>, _ convert: (Sample) -> Int32
    ) {
        if planar {
            if channels == 2, let left = planes[0], let right = planes[1] {
                // Stereo in one pass, each frame written whole: the strided pass per
                // channel cost more than the conversion.
                let leftSamples = UnsafeRawPointer(left).assumingMemoryBound(to: Sample.self) + offset
                let rightSamples = UnsafeRawPointer(right).assumingMemoryBound(to: Sample.self) + offset
                for index in 0..<count {
                    destination[2 * index] = convert(leftSamples[index])
                    destination[2 * index + 1] = convert(rightSamples[index])
                }
                return
            }
            for channel in 0..<channels {
                guard let plane = planes[channel] else { continue }
                let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: Sample.self) + offset
                for index in 0..<count { destination[index * channels + channel] = convert(samples[index]) }
            }
        } else {
            guard let plane = planes[0] else { return }
            let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: Sample.self) + offset * channels
            for index in 0..<(count * channels) { destination[index] = convert(samples[index]) }
        }
    }

    /// A float sample (full scale ±1) rounded to 24 bits, left-justified; clipped, and
    /// not a number is silence.
    @inline(__always)
    private static func twentyFourBits(_ sample: Double) -> Int32 {
        guard sample.isFinite else { return 0 }
        let scaled = (sample * 8_388_608).rounded()
        return Int32(Swift.min(Swift.max(scaled, -8_388_608), 8_388_607)) << 8
    }
}
