import CALSA
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

private let alsaQuiet: Bool = {
    qplay_alsa_silence_errors()
    return true
}()

/// Plays through ALSA (libasound2). Underruns are recovered and counted. ALSA's `file`
/// and `null` plugins accept audio as fast as it comes; with `.automatic` pacing such a
/// device is held to real time like the `null` output.
public final class ALSAOutput: AudioOutput {
    public enum Pacing: Sendable {
        /// Pace only devices that do not pace themselves (ALSA `file` and `null` types).
        case automatic
        /// Never pace: write as fast as the device takes it.
        case never
    }

    public let device: String
    public let configFile: FilePath?
    public let pacing: Pacing
    public private(set) var underruns = 0
    private var pcm: OpaquePointer?
    private var config: OpaquePointer?
    private var format: AudioFormat?
    private var encoding = SampleEncoding.s16
    private var pacer: RealTimePacer?
    /// The device stops and restarts in place (`snd_pcm_pause`); without it a pause lets
    /// the buffer play out and the resulting xrun is expected, not an underrun.
    private var canPause = false
    private var pausedWithoutDevicePause = false

    /// `configFile`: an ALSA configuration to use instead of the system's (the device
    /// is looked up in it alone), for captures in tests.
    public init(device: String = "default", configFile: FilePath? = nil, pacing: Pacing = .automatic) {
        self.device = device
        self.configFile = configFile
        self.pacing = pacing
    }

    deinit {
        close()
    }

    public var name: String { "alsa:\(device)" }
    public var requiredFormat: AudioFormat? { nil }

    public var delayFrames: Int {
        if let pacer { return pacer.delayFrames }
        guard let pcm else { return 0 }
        var frames: snd_pcm_sframes_t = 0
        return snd_pcm_delay(pcm, &frames) == 0 ? max(0, frames) : 0
    }

    @discardableResult
    public func open(format: AudioFormat) throws(AudioOutputError) -> SampleEncoding {
        _ = alsaQuiet
        if let current = self.format, current == format, pcm != nil { return encoding }
        close()
        var handle: OpaquePointer?
        var result: Int32
        if let configFile {
            var top: OpaquePointer?
            result = snd_config_top(&top)
            try check(result, "cannot create a configuration")
            var input: OpaquePointer?
            result = configFile.withPlatformString { snd_input_stdio_open(&input, $0, "r") }
            if result < 0 {
                snd_config_delete(top)
                try check(result, "cannot read \(configFile)")
            }
            result = snd_config_load(top, input)
            snd_input_close(input)
            if result < 0 {
                snd_config_delete(top)
                try check(result, "cannot parse \(configFile)")
            }
            result = snd_pcm_open_lconf(&handle, device, SND_PCM_STREAM_PLAYBACK, 0, top)
            if result < 0 { snd_config_delete(top) } else { config = top }
        } else {
            result = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0)
        }
        try check(result, "cannot open device")
        guard let handle else { throw AudioOutputError(output: name, reason: "cannot open device") }
        pcm = handle
        do throws(AudioOutputError) {
            encoding = try configure(handle, format)
        } catch {
            close()
            throw error
        }
        self.format = format
        let type = snd_pcm_type(handle)
        if pacing == .automatic && (type == SND_PCM_TYPE_FILE || type == SND_PCM_TYPE_NULL) {
            pacer = RealTimePacer(sampleRate: format.sampleRate)
        }
        return encoding
    }

    /// The encodings tried for a source of `bits`, best first: its own depth where the
    /// device takes it (24-bit FLAC as S32 or S24), else 16 bits (dithered by the caller).
    private static func candidates(bits: Int) -> [(SampleEncoding, snd_pcm_format_t)] {
        let s16 = (SampleEncoding.s16, SND_PCM_FORMAT_S16_LE)
        guard bits > 16 else { return [s16] }
        return [(.s32, SND_PCM_FORMAT_S32_LE), (.s24in32, SND_PCM_FORMAT_S24_LE), s16]
    }

    private func configure(_ handle: OpaquePointer, _ format: AudioFormat) throws(AudioOutputError) -> SampleEncoding {
        var params: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&params), "out of memory")
        defer { snd_pcm_hw_params_free(params) }
        try check(snd_pcm_hw_params_any(handle, params), "no configuration available")
        try check(
            snd_pcm_hw_params_set_access(handle, params, SND_PCM_ACCESS_RW_INTERLEAVED),
            "interleaved access not available")
        let candidates = Self.candidates(bits: format.bits)
        let (chosen, alsaFormat) =
            candidates.first { snd_pcm_hw_params_test_format(handle, params, $0.1) == 0 } ?? candidates.last!
        try check(
            snd_pcm_hw_params_set_format(handle, params, alsaFormat), "\(chosen) not available")
        try check(
            snd_pcm_hw_params_set_channels(handle, params, UInt32(format.channels)),
            "\(format.channels) channels not available")
        try check(
            snd_pcm_hw_params_set_rate(handle, params, UInt32(format.sampleRate), 0),
            "\(format.sampleRate) Hz not available")
        // About 200 ms of buffer in 20 ms periods: enough against a loaded machine, short
        // enough that pause and skip are heard at once. The audio thread writes one
        // period at a time.
        var buffer = snd_pcm_uframes_t(format.sampleRate / 5)
        var period = snd_pcm_uframes_t(format.sampleRate / 50)
        var direction: Int32 = 0
        _ = snd_pcm_hw_params_set_buffer_size_near(handle, params, &buffer)
        _ = snd_pcm_hw_params_set_period_size_near(handle, params, &period, &direction)
        try check(snd_pcm_hw_params(handle, params), "cannot apply the hardware parameters")
        canPause = snd_pcm_hw_params_can_pause(params) == 1
        try check(snd_pcm_prepare(handle), "cannot prepare the device")
        return chosen
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
        guard let pcm, let format else { throw AudioOutputError(output: name, reason: "not open") }
        let bytesPerFrame = format.channels * encoding.bytesPerSample
        let totalFrames = bytes.count / bytesPerFrame
        var written = 0
        while written < totalFrames {
            let pointer = bytes.baseAddress! + written * bytesPerFrame
            let result = snd_pcm_writei(pcm, pointer, snd_pcm_uframes_t(totalFrames - written))
            if result >= 0 {
                written += result
                continue
            }
            let code = Int32(truncatingIfNeeded: result)
            if code == -EPIPE && !pausedWithoutDevicePause { underruns += 1 }
            // Underrun (EPIPE), suspend (ESTRPIPE) and signals (EINTR) are recoverable.
            let recovered = snd_pcm_recover(pcm, code, 1)
            try check(recovered, "write failed")
        }
        pausedWithoutDevicePause = false
        pacer?.didWrite(frames: totalFrames)
    }

    public func waitTime(forFrames frames: Int) -> Duration {
        if let pacer { return pacer.waitTime(forFrames: frames) }
        guard let pcm, let format else { return .zero }
        let available = snd_pcm_avail_update(pcm)
        // An xrun or error shows as a negative count: write at once, `write` recovers.
        guard available >= 0, available < frames else { return .zero }
        let missing = Int64(frames - available)
        return .microseconds(max(1000, missing * 1_000_000 / Int64(format.sampleRate)))
    }

    public func pause() {
        if pacer != nil {
            pacer?.pause()
        } else if let pcm {
            if canPause && snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING {
                _ = snd_pcm_pause(pcm, 1)
            } else if !canPause {
                pausedWithoutDevicePause = true
            }
        }
    }

    public func resume() {
        if pacer != nil {
            pacer?.resume()
        } else if let pcm, canPause, snd_pcm_state(pcm) == SND_PCM_STATE_PAUSED {
            _ = snd_pcm_pause(pcm, 0)
        }
    }

    public func discard() {
        pacer?.reset()
        guard let pcm else { return }
        snd_pcm_drop(pcm)
        _ = snd_pcm_prepare(pcm)
        pausedWithoutDevicePause = false
    }

    public func drain() throws(AudioOutputError) {
        guard let pcm else { return }
        pacer?.drain()
        if snd_pcm_state(pcm) == SND_PCM_STATE_PAUSED { _ = snd_pcm_pause(pcm, 0) }
        // A stream that ran dry at its end is in XRUN already: nothing left to play,
        // and not an underrun. Either way the device is ready for the next write.
        let result = snd_pcm_state(pcm) == SND_PCM_STATE_XRUN ? 0 : snd_pcm_drain(pcm)
        _ = snd_pcm_prepare(pcm)
        try check(result, "drain failed")
    }

    public func close() {
        if let pcm {
            snd_pcm_drop(pcm)
            snd_pcm_close(pcm)
        }
        if let config {
            snd_config_delete(config)
        }
        pcm = nil
        config = nil
        format = nil
        pacer = nil
    }

    private func check(_ result: Int32, _ what: String) throws(AudioOutputError) {
        if result < 0 {
            throw AudioOutputError(output: name, reason: "\(what): \(String(cString: snd_strerror(result)))")
        }
    }
}
