import QPlayAudio

/// The HTTP stream as an output: placed after the first output, it is handed a copy of
/// what the first takes (`FollowingOutput`) and feeds it to the `StreamBroadcast`. It
/// takes one format, the broadcast's, which is then what decoders convert to; it never
/// blocks and keeps nothing, so pausing, cutting and closing are the broadcast's
/// silence.
public final class HTTPStreamOutput: AudioOutput {
    public let broadcast: StreamBroadcast

    public init(broadcast: StreamBroadcast) {
        self.broadcast = broadcast
    }

    public var name: String { "http_stream:\(broadcast.encoding.rawValue)" }
    public var requiredFormat: AudioFormat? { broadcast.format }
    public var delayFrames: Int { 0 }
    public var underruns: Int { 0 }

    public func open(format: AudioFormat) throws(AudioOutputError) -> SampleEncoding {
        guard format.joins(broadcast.format) else {
            throw AudioOutputError(output: name, reason: "takes only \(broadcast.format), was given \(format)")
        }
        return .s16
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
        broadcast.feed(bytes)
    }

    public func waitTime(forFrames frames: Int) -> Duration { .zero }
    public func pause() {}
    public func resume() {}
    public func discard() {}
    public func drain() throws(AudioOutputError) {}
    public func close() {}
}
