import Foundation

/// One window's level per channel, in dBFS: RMS and peak of the samples handed to the
/// output after volume and item gain. Silence is `LevelMeter.floor`.
public struct AudioLevel: Sendable, Equatable {
    public var rms: [Double]
    public var peak: [Double]
    /// Counts the windows since metering was turned on (1 for the first): a reader that
    /// polls tells a new reading from the same one read twice.
    public var window: Int

    public init(rms: [Double], peak: [Double], window: Int = 1) {
        self.rms = rms
        self.peak = peak
        self.window = window
    }
}

/// Measures the stream on the audio thread, in windows of `window` seconds of frames:
/// per channel, the sum of squares and the largest magnitude. Its storage is made once,
/// for the most channels an output takes, so measuring allocates nothing.
struct LevelMeter {
    static let maxChannels = 8
    /// What silence reads as (AVAudioPlayer's floor): −∞ dB is no JSON number.
    static let floor = -160.0
    /// Left-justified samples: full scale is the whole `Int32` range.
    static let fullScale = 2_147_483_648.0

    private var squares = [Double](repeating: 0, count: maxChannels)
    private var peaks = [Int64](repeating: 0, count: maxChannels)
    private var frames = 0
    private var channels = 0
    private var windowFrames = 0

    /// Adds whole frames; true when they completed a window (read it with `finish`).
    mutating func add(_ samples: UnsafeBufferPointer<Int32>, channels count: Int, rate: Int, window: Double) -> Bool {
        let channelCount = min(count, Self.maxChannels)
        guard channelCount > 0, count > 0 else { return false }
        if channelCount != channels {
            reset()
            channels = channelCount
        }
        windowFrames = max(1, Int(Double(rate) * window))
        let frameCount = samples.count / count
        squares.withUnsafeMutableBufferPointer { squares in
            peaks.withUnsafeMutableBufferPointer { peaks in
                for channel in 0..<channelCount {
                    var sum = 0.0
                    var peak = peaks[channel]
                    var index = channel
                    for _ in 0..<frameCount {
                        let value = Int64(samples[index])
                        let magnitude = value < 0 ? -value : value
                        if magnitude > peak { peak = magnitude }
                        let scaled = Double(value)
                        sum += scaled * scaled
                        index += count
                    }
                    squares[channel] += sum
                    peaks[channel] = peak
                }
            }
        }
        frames += frameCount
        return frames >= windowFrames
    }

    /// The window's level in dBFS into `rms` and `peak` (their first `channels`
    /// elements, overwritten in place), and a new window begins.
    mutating func finish(rms: inout [Double], peak: inout [Double]) -> Int {
        let count = channels
        for channel in 0..<count {
            let meanSquare = frames > 0 ? squares[channel] / Double(frames) : 0
            rms[channel] = Self.decibels(meanSquare.squareRoot() / Self.fullScale)
            peak[channel] = Self.decibels(Double(peaks[channel]) / Self.fullScale)
        }
        reset()
        channels = count
        return count
    }

    mutating func reset() {
        for channel in 0..<Self.maxChannels {
            squares[channel] = 0
            peaks[channel] = 0
        }
        frames = 0
    }

    /// An amplitude ratio in dB, rounded to 0.01, never below `floor`.
    static func decibels(_ ratio: Double) -> Double {
        guard ratio > 0 else { return floor }
        return max(floor, (20 * log10(ratio) * 100).rounded() / 100)
    }
}
