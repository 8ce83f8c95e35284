import Foundation
import Synchronization
import SystemPackage

/// The reading end of a FIFO, as a Snapcast server holds it: reads on a thread of its
/// own as fast as data comes, or holds still (`reading = false`) with the FIFO open.
final class FIFOReader: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var reading = true
        var closing = false
        /// Reading stops for good at this many bytes.
        var limit = Int.max
    }

    private let descriptor: Int32
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    /// Opens `path` for reading (not waiting for a writer) and starts reading; at most
    /// `limit` bytes are read, then the reader holds still with the FIFO open.
    init(_ path: FilePath, reading: Bool = true, limit: Int = .max) throws {
        descriptor = Glibc.open(path.string, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Errno(rawValue: errno) }
        state.withLock {
            $0.reading = reading
            $0.limit = limit
        }
        let thread = Thread { [self] in run() }
        thread.name = "fifo-reader"
        thread.start()
    }

    /// Makes a FIFO at `path`.
    static func make(_ path: FilePath) throws {
        guard mkfifo(path.string, 0o600) == 0 else { throw Errno(rawValue: errno) }
    }

    var count: Int { state.withLock { $0.bytes.count } }
    var bytes: [UInt8] { state.withLock { $0.bytes } }

    func setReading(_ reading: Bool) { state.withLock { $0.reading = reading } }

    /// Stops reading and closes the FIFO: a writer's next write fails with EPIPE.
    func close() {
        state.withLock { $0.closing = true }
        done.wait()
        _ = Glibc.close(descriptor)
    }

    private func run() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let (reading, closing, left) = state.withLock { ($0.reading, $0.closing, $0.limit - $0.bytes.count) }
            if closing { break }
            guard reading, left > 0 else {
                usleep(5000)
                continue
            }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 20)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min($0.count, left)) }
            if count > 0 {
                state.withLock { $0.bytes += chunk[..<count] }
            } else {
                // No writer (end of file) or nothing yet: do not spin.
                usleep(2000)
            }
        }
        done.signal()
    }
}
