/// A failed output operation; `output` names the output as the user configured it.
public struct AudioOutputError: Error, Equatable, CustomStringConvertible {
    public var output: String
    public var reason: String

    public init(output: String, reason: String) {
        self.output = output
        self.reason = reason
    }

    public var description: String { "\(output): \(reason)" }
}

/// Where PCM goes. An output belongs to the audio thread; `write` may block until the
/// device (or the real-time pacing of a device-less output) has room.
public protocol AudioOutput: AnyObject {
    /// The output as the user names it (`alsa:default`, `null`, `file:/tmp/x.raw`).
    var name: String { get }
    /// When set, the output takes only this format and decoders must convert to it.
    var requiredFormat: AudioFormat? { get }
    /// Frames handed to the output that have not been heard yet.
    var delayFrames: Int { get }
    /// Underruns recovered since the output was created.
    var underruns: Int { get }

    /// Opens for audio of `format` and answers the sample encoding `write` takes: the
    /// source's own depth where the output takes it, else a narrower one (the caller
    /// dithers).
    @discardableResult
    func open(format: AudioFormat) throws(AudioOutputError) -> SampleEncoding
    /// Writes whole interleaved frames at the rate and channel count given to `open`, in
    /// the encoding it answered.
    func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError)
    /// How long until `frames` more frames can be written without blocking. The audio
    /// thread waits this long on its command semaphore instead of blocking in `write`,
    /// so a command is handled at once. Outputs paced by their reader return zero.
    func waitTime(forFrames frames: Int) -> Duration
    /// Stops playing what was written, keeping it: `resume` plays it on, so a pause
    /// neither loses nor repeats samples.
    func pause()
    func resume()
    /// Drops what was written and not yet heard, keeping the device open (skip, seek).
    func discard()
    /// Plays out what was written, then returns.
    func drain() throws(AudioOutputError)
    /// Drops what was written and releases the device; `open` may be called again.
    func close()
}
