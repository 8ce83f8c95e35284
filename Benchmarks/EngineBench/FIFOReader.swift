import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Monotonic nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Drains a FIFO that a player writes S16LE stereo 44.1 kHz into, as a sound card would
/// consume it, and watches it: when sound starts after silence (the first sample of a
/// loud track after a silent one), and whether a device with `deviceBuffer` of latency
/// would have run dry (an underrun). The same reader serves MPD and qplay.
final class FIFOReader: Sendable {
    private struct State {
        var onsets: [UInt64] = []
        var frames = 0
        // Device model: sample n is due at base + deviceBuffer + n / rate.
        var modelOn = false
        var modelBase: UInt64?
        var modelFrames = 0
        var underruns = 0
    }

    static let rate = 44100
    private let state = Mutex(State())
    private let descriptor: Int32
    private let keepOpen: Int32
    let deviceBuffer: UInt64 = 200_000_000

    init(path: String) {
        // Read end first (non-blocking open), then a write end of our own so the FIFO
        // never reports end-of-file while a player closes and reopens it.
        descriptor = open(path, O_RDONLY | O_NONBLOCK)
        keepOpen = open(path, O_WRONLY | O_NONBLOCK)
        precondition(descriptor >= 0 && keepOpen >= 0, "cannot open \(path)")
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let thread = Thread { [self] in self.run() }
        thread.name = "fifo-reader"
        thread.start()
    }

    private func run() {
        var buffer = [Int16](repeating: 0, count: 8192)
        var quietRun = Int.max / 2
        var lastRead: UInt64 = 0
        while true {
            let bytes = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if bytes <= 0 {
                if bytes < 0 && errno == EINTR { continue }
                return
            }
            let now = monotonicNanoseconds()
            // No data for a while (a stopped player) counts as silence too.
            if now - lastRead > 50_000_000 { quietRun = Int.max / 2 }
            lastRead = now
            let samples = bytes / 2
            var onset = false
            for index in stride(from: 0, to: samples - 1, by: 2) {
                if abs(Int(buffer[index])) > 1000 {
                    if quietRun >= 2205 { onset = true }
                    quietRun = 0
                } else {
                    quietRun += 1
                }
            }
            state.withLock { state in
                state.frames += samples / 2
                if onset { state.onsets.append(now) }
                guard state.modelOn else { return }
                if let base = state.modelBase {
                    let due = base + deviceBuffer + UInt64(state.modelFrames) * 1_000_000_000 / UInt64(Self.rate)
                    if now > due {
                        // Ran dry: count it and restart the device from this moment.
                        state.underruns += 1
                        state.modelBase = now - UInt64(state.modelFrames) * 1_000_000_000 / UInt64(Self.rate)
                    }
                } else {
                    state.modelBase = now
                }
                state.modelFrames += samples / 2
            }
        }
    }

    /// The first onset after `time`, waiting up to `limit` seconds for it.
    func onset(after time: UInt64, limit: Double = 3) -> UInt64? {
        let deadline = monotonicNanoseconds() + UInt64(limit * 1e9)
        while monotonicNanoseconds() < deadline {
            if let found = state.withLock({ $0.onsets.first { $0 > time } }) { return found }
            usleep(200)
        }
        return nil
    }

    var frames: Int { state.withLock { $0.frames } }

    func startDeviceModel() {
        state.withLock {
            $0.modelOn = true
            $0.modelBase = nil
            $0.modelFrames = 0
            $0.underruns = 0
        }
    }

    func stopDeviceModel() -> (underruns: Int, frames: Int) {
        state.withLock {
            $0.modelOn = false
            return ($0.underruns, $0.modelFrames)
        }
    }
}
