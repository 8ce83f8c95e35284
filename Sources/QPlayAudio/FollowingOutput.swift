import Dispatch
import Foundation
import Synchronization

/// An output after the first (`output = ["alsa:default", "pipe:/tmp/snapfifo"]`). The
/// first output is the clock: positions, pacing and its stalls are playback's. This one
/// is handed a copy of every write the first takes and plays it on a thread of its own,
/// through a queue of `PlaybackTuning.followerQueue`, so a device that blocks, fails or
/// has no reader never holds the first back. A write that finds the queue full drops
/// what it holds — the output comes back in step with the first instead of a queue
/// behind — and shows it as stalled until it takes samples again; a failed open or write
/// is retried with the first output's backoff and, once open again, starts from what
/// the first plays then.
///
/// The audio thread calls everything but `run`; the device belongs to the output's own
/// thread. Handing a write over copies it into a ring allocated when the stream's format
/// is set, so it allocates nothing on the audio thread.
final class FollowingOutput: @unchecked Sendable {
    let name: String
    /// The device's fixed format, if any (read once: the device is its thread's).
    let requiredFormat: AudioFormat?

    private struct Shared {
        /// The stream handed over: its format and the encoding of its bytes.
        var stream: (format: AudioFormat, encoding: SampleEncoding)?
        var ring: [UInt8] = []
        var head = 0
        var count = 0
        /// Bumped by a cut (discard, close, a new format): the thread drops what its
        /// device holds (and closes it when `closing`).
        var cuts = 0
        var closing = false
        var paused = false
        var ending = false
        var playingOut = false
        /// The thread's open or write failure; nil while the device works.
        var failure: String?
        /// A handed-over write found the queue full (it was emptied).
        var dropping = false
        var reported: String?
    }

    private let device: any AudioOutput
    private let tuning: PlaybackTuning
    private let shared = Mutex(Shared())
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    init(device: any AudioOutput, tuning: PlaybackTuning, index: Int) {
        self.device = device
        name = device.name
        requiredFormat = device.requiredFormat
        self.tuning = tuning
        let thread = Thread { [self] in
            Thread.current.name = "qplay-output-\(index)"
            run()
            ended.signal()
        }
        thread.start()
    }

    // MARK: the audio thread's side

    /// A new stream format (the first output opened in it): what is queued of the old
    /// one is dropped, and the device is reopened for the new one.
    func begin(format: AudioFormat, encoding: SampleEncoding) {
        shared.withLock {
            if let stream = $0.stream, stream.format == format, stream.encoding == encoding { return }
            let capacity = tuning.frames(tuning.followerQueue, rate: format.sampleRate) * format.channels
                * encoding.bytesPerSample
            $0.stream = (format, encoding)
            $0.ring = [UInt8](repeating: 0, count: capacity)
            $0.head = 0
            $0.count = 0
            $0.cuts += 1
            $0.closing = true
        }
        wake.signal()
    }

    /// A copy of what the first output took. A full queue is emptied first: what it
    /// held is over a second behind the first output.
    func take(_ bytes: UnsafeRawBufferPointer) {
        let fits = shared.withLock { state -> Bool in
            let capacity = state.ring.count
            guard state.stream != nil, bytes.count <= capacity else { return false }
            if bytes.count > capacity - state.count {
                state.head = 0
                state.count = 0
                state.dropping = true
            }
            var tail = (state.head + state.count) % capacity
            var offset = 0
            state.ring.withUnsafeMutableBytes { ring in
                while offset < bytes.count {
                    let run = min(bytes.count - offset, capacity - tail)
                    ring.baseAddress!.advanced(by: tail).copyMemory(from: bytes.baseAddress! + offset, byteCount: run)
                    offset += run
                    tail = (tail + run) % capacity
                }
            }
            state.count += bytes.count
            return true
        }
        if fits { wake.signal() }
    }

    func pause() { set { $0.paused = true } }
    func resume() { set { $0.paused = false } }
    /// A cut (skip, seek, stop): what is queued and what the device holds are dropped.
    func discard() { cut(closing: false) }
    /// The first output was released (idle): this one is too.
    func close() { cut(closing: true) }

    /// Ends the thread, after playing what is queued when `playingOut`; waits at most
    /// `limit` for it (a device stuck in a write must not hold the daemon's exit).
    func shutDown(playingOut: Bool, limit: Duration = .seconds(1)) {
        set {
            $0.ending = true
            $0.playingOut = playingOut
            $0.paused = false
        }
        _ = ended.wait(timeout: limit.fromNow)
    }

    var condition: OutputCondition {
        shared.withLock { state in
            let message = message(of: state)
            let condition: OutputCondition.State = message == nil ? .ok : state.failure == nil ? .stalled : .failed
            return OutputCondition(name: name, state: condition, error: message)
        }
    }

    /// The message to report when it differs from the one reported last (nil: nothing
    /// new; `.some(nil)`: it works again).
    func newProblem() -> String?? {
        shared.withLock { state in
            let message = message(of: state)
            guard message != state.reported else { return nil }
            state.reported = message
            return .some(message)
        }
    }

    private func message(of state: Shared) -> String? {
        state.failure
            ?? (state.dropping
                ? "\(name): stalled: fell \(tuning.followerQueue.nanoseconds / 1_000_000) ms behind (what it had queued was dropped)"
                : nil)
    }

    private func set(_ change: (inout Shared) -> Void) {
        shared.withLock { change(&$0) }
        wake.signal()
    }

    private func cut(closing: Bool) {
        set {
            $0.head = 0
            $0.count = 0
            $0.cuts += 1
            $0.closing = $0.closing || closing
            $0.dropping = false
        }
    }

    // MARK: the output's thread

    private enum Work {
        case end
        case cut(closing: Bool)
        case pause
        case wait
        case write(format: AudioFormat, encoding: SampleEncoding, bytes: Int, ending: Bool)
    }

    private func run() {
        var cutsSeen = 0
        var openFormat: AudioFormat?
        var deviceEncoding = SampleEncoding.s16
        var devicePaused = false
        var problem = OutputProblem()
        var pending: [UInt8] = []
        var samples: [Int32] = []
        var converted: [UInt8] = []
        var encoder = SampleEncoder()
        while true {
            let work = shared.withLock { state -> Work in
                if state.cuts != cutsSeen {
                    cutsSeen = state.cuts
                    defer { state.closing = false }
                    return .cut(closing: state.closing)
                }
                // A device that fails is not waited for at the end.
                if state.ending && (!state.playingOut || state.count == 0 || state.failure != nil) { return .end }
                if state.paused { return .pause }
                guard let stream = state.stream, state.count > 0 else { return .wait }
                return .write(format: stream.format, encoding: stream.encoding, bytes: state.count, ending: state.ending)
            }
            switch work {
            case .end:
                if openFormat != nil {
                    if shared.withLock({ $0.playingOut }) { try? device.drain() }
                    device.close()
                }
                return
            case .cut(let closing):
                if openFormat != nil {
                    if closing {
                        device.close()
                        openFormat = nil
                    } else {
                        device.discard()
                    }
                }
                devicePaused = false
            case .pause:
                if openFormat != nil && !devicePaused {
                    device.pause()
                    devicePaused = true
                }
                wake.wait()
            case .wait:
                wake.wait()
            case .write(let format, let encoding, let available, let ending):
                if devicePaused {
                    device.resume()
                    devicePaused = false
                }
                if openFormat == nil {
                    if let wait = problem.waitBeforeRetry(), wait > .zero {
                        _ = wake.wait(timeout: wait.fromNow)
                        continue
                    }
                    do {
                        deviceEncoding = try device.open(format: format)
                        openFormat = format
                        let recovered = problem.waitBeforeRetry() != nil
                        _ = problem.recovered()
                        shared.withLock { state in
                            state.failure = nil
                            // What queued up while it failed is behind the first output.
                            if recovered {
                                state.head = 0
                                state.count = 0
                            }
                        }
                        if recovered { continue }
                    } catch {
                        problem.failed(error.description, tuning: tuning)
                        shared.withLock { $0.failure = error.description }
                        continue
                    }
                }
                let frameBytes = format.channels * encoding.bytesPerSample
                let batchFrames = tuning.frames(tuning.writeBatch, rate: format.sampleRate)
                let frames = min(available / frameBytes, batchFrames)
                let wait = device.waitTime(forFrames: frames)
                if wait > .zero {
                    // At the end, what the device takes now is played out, no more.
                    if ending { shared.withLock { $0.count = 0 } } else { _ = wake.wait(timeout: wait.fromNow) }
                    continue
                }
                guard takeQueued(frames * frameBytes, into: &pending, cuts: cutsSeen) else { continue }
                do {
                    if deviceEncoding == encoding {
                        try pending.withUnsafeBytes { try device.write($0) }
                    } else {
                        Self.widen(pending, from: encoding, into: &samples)
                        samples.withUnsafeBufferPointer {
                            encoder.encode(
                                $0, sourceBits: min(format.bits, encoding.bits), scaled: false, as: deviceEncoding,
                                into: &converted)
                        }
                        let count = samples.count * deviceEncoding.bytesPerSample
                        try converted.withUnsafeBytes { try device.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                    }
                    shared.withLock { state in
                        if state.dropping && state.count < state.ring.count / 2 { state.dropping = false }
                    }
                } catch {
                    device.close()
                    openFormat = nil
                    let message = (error as? AudioOutputError)?.description ?? "\(name): \(error)"
                    problem.failed(message, tuning: tuning)
                    shared.withLock { $0.failure = message }
                }
            }
        }
    }

    /// Moves `count` queued bytes into `bytes` (resized to them); false when a cut came
    /// meanwhile (after `cuts`, the number of cuts the thread has acted on).
    private func takeQueued(_ count: Int, into bytes: inout [UInt8], cuts: Int) -> Bool {
        guard count > 0 else { return false }
        if bytes.count != count { bytes = [UInt8](repeating: 0, count: count) }
        return shared.withLock { state in
            guard state.cuts == cuts, state.count >= count else { return false }
            let capacity = state.ring.count
            var offset = 0
            bytes.withUnsafeMutableBytes { target in
                state.ring.withUnsafeBytes { ring in
                    while offset < count {
                        let run = min(count - offset, capacity - state.head)
                        target.baseAddress!.advanced(by: offset)
                            .copyMemory(from: ring.baseAddress! + state.head, byteCount: run)
                        offset += run
                        state.head = (state.head + run) % capacity
                    }
                }
            }
            state.count -= count
            return true
        }
    }

    /// The pipeline's left-justified 32-bit samples of `bytes` in `encoding`, for a
    /// device that answered another encoding than the first output.
    private static func widen(_ bytes: [UInt8], from encoding: SampleEncoding, into samples: inout [Int32]) {
        let count = bytes.count / encoding.bytesPerSample
        if samples.count != count { samples = [Int32](repeating: 0, count: count) }
        bytes.withUnsafeBytes { raw in
            samples.withUnsafeMutableBufferPointer { target in
                switch encoding {
                case .s16:
                    for index in 0..<count {
                        target[index] = Int32(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))) << 16
                    }
                case .s24in32:
                    for index in 0..<count {
                        target[index] = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: Int32.self)) << 8
                    }
                case .s32:
                    for index in 0..<count {
                        target[index] = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
                    }
                }
            }
        }
    }
}
