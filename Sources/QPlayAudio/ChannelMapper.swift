/// Maps interleaved frames of one channel count onto another, for outputs of a fixed
/// format: mono goes to both sides, stereo to mono as the mean of the two, and more
/// channels are mixed down to stereo.
///
/// Channels beyond two are taken in the FLAC/WAVE order (FL FR FC LFE BL BR SL SR; 3 =
/// FL FR FC, 4 = FL FR BL BR, 5 = FL FR FC BL BR, 7 = FL FR FC LFE BC SL SR), which
/// decoders hand out. The mix-down uses the usual −3 dB coefficients: centre and the
/// surround channels at 0.7071 to their side, a back centre at 0.5 to both, LFE left
/// out; each output's coefficients are then scaled to add up to 1, so a full-scale
/// source cannot clip. An output of more than two channels (other than the source's
/// own count) gets the stereo mix in FL and FR and silence elsewhere.
struct ChannelMapper {
    let sourceChannels: Int
    let targetChannels: Int
    /// targetChannels × sourceChannels coefficients, row by row; empty for the identity.
    private let matrix: [Double]

    init(from sourceChannels: Int, to targetChannels: Int) {
        self.sourceChannels = sourceChannels
        self.targetChannels = targetChannels
        matrix = sourceChannels == targetChannels ? [] : Self.matrix(from: sourceChannels, to: targetChannels)
    }

    var isIdentity: Bool { matrix.isEmpty }

    /// Whether every output sample is a copy of one input sample or silence (mono to
    /// both sides): the samples keep their bits. A mix has fractions of the source's
    /// steps.
    var copiesSamples: Bool { matrix.allSatisfy { $0 == 0 || $0 == 1 } }

    /// Maps `frames` frames of `source` into `target` (which holds at least
    /// `frames × targetChannels` samples).
    func map(_ source: UnsafePointer<Int32>, frames: Int, into target: UnsafeMutablePointer<Int32>) {
        if matrix.isEmpty {
            target.update(from: source, count: frames * sourceChannels)
            return
        }
        matrix.withUnsafeBufferPointer { matrix in
            for frame in 0..<frames {
                let input = source + frame * sourceChannels
                let output = target + frame * targetChannels
                for channel in 0..<targetChannels {
                    let row = channel * sourceChannels
                    var sum = 0.0
                    for index in 0..<sourceChannels where matrix[row + index] != 0 {
                        sum += matrix[row + index] * Double(input[index])
                    }
                    output[channel] = Int32(max(Double(Int32.min), min(Double(Int32.max), sum.rounded())))
                }
            }
        }
    }

    /// Coefficients of the left and right output for each source channel.
    static func stereoMix(of channels: Int) -> (left: [Double], right: [Double]) {
        let side = 0.7071
        switch channels {
        case 1: return ([1], [1])
        case 2: return ([1, 0], [0, 1])
        case 3: return ([1, 0, side], [0, 1, side])
        case 4: return ([1, 0, side, 0], [0, 1, 0, side])
        case 5: return ([1, 0, side, side, 0], [0, 1, side, 0, side])
        case 6: return ([1, 0, side, 0, side, 0], [0, 1, side, 0, 0, side])
        case 7: return ([1, 0, side, 0, 0.5, side, 0], [0, 1, side, 0, 0.5, 0, side])
        case 8: return ([1, 0, side, 0, side, 0, side, 0], [0, 1, side, 0, 0, side, 0, side])
        default:
            // No layout known: the first two channels as a pair.
            var left = [Double](repeating: 0, count: channels)
            var right = left
            left[0] = 1
            right[min(1, channels - 1)] = 1
            return (left, right)
        }
    }

    private static func matrix(from source: Int, to target: Int) -> [Double] {
        let (left, right) = stereoMix(of: source)
        let rows: [[Double]] =
            if target == 1 {
                [zip(left, right).map { ($0 + $1) / 2 }]
            } else {
                [left, right] + Array(repeating: [Double](repeating: 0, count: source), count: target - 2)
            }
        return rows.flatMap { row in
            let total = row.reduce(0, +)
            return total > 0 ? row.map { $0 / total } : row
        }
    }
}
