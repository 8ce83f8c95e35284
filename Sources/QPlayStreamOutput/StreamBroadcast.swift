import Dispatch
import Foundation
import QPlayAudio
import Synchronization

/// The HTTP stream (`/stream`): the music encoded once, in `encoding`, and handed to
/// every listener. It is fed by `HTTPStreamOutput`, an output after the first, with what
/// the first output takes; while nothing comes (paused, stopped, between a track's end
/// and the next) it encodes silence at the pace of the clock, so a listener's player
/// never runs dry and the stream is one continuous piece across tracks. With no
/// listener it encodes nothing. Each listener is at most `behind` of audio behind the
/// newest bytes, else it is dropped.
public final class StreamBroadcast: Sendable {
    public let encoding: StreamEncoding
    /// The format fed in (S16): the rate and channels of `raw_rate`/`raw_channels`.
    public let format: AudioFormat
    /// How far behind a listener may fall before it is dropped.
    public static let behind: Duration = .seconds(2)

    private struct Shared {
        var encoder: (any StreamEncoder)?
        var listeners: [ObjectIdentifier: StreamListener] = [:]
        /// Frames encoded since `since` (the clock silence keeps up with).
        var frames = 0
        var since = ContinuousClock.now
    }

    private let shared = Mutex(Shared())
    private let wake = DispatchSemaphore(value: 0)

    public init(encoding: StreamEncoding, format: AudioFormat) {
        self.encoding = encoding
        self.format = format
        let thread = Thread { [self] in fillSilence() }
        thread.name = "qplay-stream"
        thread.start()
    }

    public var listenerCount: Int { shared.withLock { $0.listeners.count } }

    /// A new listener, its first bytes (the stream's header) queued.
    public func listen() throws -> StreamListener {
        let limit = Int(Self.behind.components.seconds) * encoding.kilobitsPerSecond * 1000 / 8
        let listener = StreamListener(limit: limit)
        try shared.withLock { state throws(StreamEncoderError) in
            if state.encoder == nil {
                state.encoder = try encoding.makeEncoder(rate: format.sampleRate, channels: format.channels)
                state.frames = 0
                state.since = .now
            }
            if let header = state.encoder?.header, !header.isEmpty { _ = listener.deliver(header) }
            state.listeners[ObjectIdentifier(listener)] = listener
        }
        wake.signal()
        return listener
    }

    /// The listener's connection ended.
    public func leave(_ listener: StreamListener) {
        shared.withLock { state in
            state.listeners[ObjectIdentifier(listener)] = nil
            // The next listener gets a stream of its own from the start.
            if state.listeners.isEmpty { state.encoder = nil }
        }
    }

    /// The daemon stops: every listener's stream ends (its connection's answer with it).
    public func finishAll() {
        let listeners = shared.withLock { state -> [StreamListener] in
            defer {
                state.listeners = [:]
                state.encoder = nil
            }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }

    /// Interleaved S16 in `format`, as the first output took it.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        let frames = bytes.count / (2 * format.channels)
        guard frames > 0 else { return }
        bytes.withMemoryRebound(to: Int16.self) { samples in
            shared.withLock { state in encode(UnsafeBufferPointer(rebasing: samples[..<(frames * format.channels)]), frames: frames, in: &state) }
        }
    }

    private func encode(_ samples: UnsafeBufferPointer<Int16>, frames: Int, in state: inout Shared) {
        guard let encoder = state.encoder else { return }
        state.frames += frames
        let bytes = encoder.encode(samples, frames: frames)
        guard !bytes.isEmpty else { return }
        for (key, listener) in state.listeners where !listener.deliver(bytes) {
            state.listeners[key] = nil
        }
    }

    /// Every 50 ms: when the encoded audio lags the clock by over 250 ms (nothing was fed
    /// meanwhile), silence up to the clock.
    private func fillSilence() {
        let chunk = format.sampleRate / 20
        let silence = [Int16](repeating: 0, count: chunk * format.channels)
        while true {
            if shared.withLock({ $0.listeners.isEmpty }) {
                wake.wait()
                continue
            }
            _ = wake.wait(timeout: .now() + .milliseconds(50))
            shared.withLock { state in
                guard state.encoder != nil else { return }
                let (seconds, attoseconds) = (ContinuousClock.now - state.since).components
                let due = Int((Double(seconds) + Double(attoseconds) * 1e-18) * Double(format.sampleRate))
                var missing = due - state.frames
                guard missing > format.sampleRate / 4 else { return }
                // Never more than a second at once: after a long stall of this thread the
                // clock restarts rather than a burst of silence going out.
                if missing > format.sampleRate {
                    state.since = .now - .milliseconds(200)
                    state.frames = 0
                    missing = format.sampleRate / 5
                }
                while missing > 0 {
                    let frames = min(chunk, missing)
                    silence.withUnsafeBufferPointer {
                        encode(UnsafeBufferPointer(rebasing: $0[..<(frames * format.channels)]), frames: frames, in: &state)
                    }
                    missing -= frames
                }
            }
        }
    }
}
