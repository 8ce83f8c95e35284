/// Discards audio in real time: playback takes as long as the music, for machines
/// without a sound card and for tests of timing.
public final class NullOutput: AudioOutput {
    private var format: AudioFormat?
    private var pacer: RealTimePacer?

    public init() {}

    public var name: String { "null" }
    public var requiredFormat: AudioFormat? { nil }
    public var delayFrames: Int { pacer?.delayFrames ?? 0 }
    public var underruns: Int { 0 }

    @discardableResult
    public func open(format: AudioFormat) throws(AudioOutputError) -> SampleEncoding {
        if self.format == format, pacer != nil { return .s16 }
        self.format = format
        pacer = RealTimePacer(sampleRate: format.sampleRate)
        return .s16
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
        guard let format else { throw AudioOutputError(output: name, reason: "not open") }
        pacer?.didWrite(frames: bytes.count / (format.channels * SampleEncoding.s16.bytesPerSample))
    }

    public func waitTime(forFrames frames: Int) -> Duration { pacer?.waitTime(forFrames: frames) ?? .zero }
    public func pause() { pacer?.pause() }
    public func resume() { pacer?.resume() }
    public func discard() { pacer?.reset() }

    public func drain() throws(AudioOutputError) {
        pacer?.drain()
    }

    public func close() {
        format = nil
        pacer = nil
    }
}
