import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Raw interleaved S16LE at one fixed rate and channel count, for Snapcast and for tests
/// that capture exactly what was played. `file:` appends to a regular file, paced in real
/// time like `null`; `pipe:` writes to a FIFO (or any file) and is paced by its reader.
///
/// A `pipe:` never blocks the audio thread. Opening does not wait for a reader: a FIFO
/// not there yet (snapserver creates it) or without a reader is an open failure, which
/// the audio thread retries with its output backoff while commands go on (the write end
/// stays open between the attempts, so a reader that comes stays). The descriptor
/// is non-blocking; `waitTime(forFrames:)` answers from the room left in the FIFO (its
/// capacity less the bytes queued), and what a full FIFO did not take is kept and
/// written first next time. A reader that goes away (snapserver restarting) fails the
/// next write with EPIPE — the process must ignore SIGPIPE, as qplayd does — and the
/// FIFO is opened again once a reader is back.
public final class RawPCMOutput: AudioOutput {
    public enum Kind: String, Sendable {
        case file, pipe
    }

    public let kind: Kind
    public let path: FilePath
    public let fixedFormat: AudioFormat
    private var descriptor: FileDescriptor?
    private var pacer: RealTimePacer?
    /// The FIFO's capacity in bytes; nil for a `pipe:` to something that is not a FIFO.
    private var pipeCapacity: Int?
    /// Bytes a full FIFO did not take yet: `unwritten[unwrittenStart...]`.
    private var unwritten: [UInt8] = []
    private var unwrittenStart = 0
    /// A `pipe:` write end opened while no reader was there, kept for the next attempt.
    private var pendingWriter: FileDescriptor?

    public init(kind: Kind, path: FilePath, format: AudioFormat = .cd) {
        self.kind = kind
        self.path = path
        self.fixedFormat = format
    }

    public var name: String { "\(kind.rawValue):\(path.string)" }
    public var requiredFormat: AudioFormat? { fixedFormat }
    public var delayFrames: Int {
        if let pacer { return pacer.delayFrames }
        return (queuedBytes() + unwrittenCount) / bytesPerFrame
    }
    public var underruns: Int { 0 }

    private var bytesPerFrame: Int { fixedFormat.channels * SampleEncoding.s16.bytesPerSample }
    private var unwrittenCount: Int { unwritten.count - unwrittenStart }

    @discardableResult
    public func open(format: AudioFormat) throws(AudioOutputError) -> SampleEncoding {
        guard format.joins(fixedFormat) else {
            throw AudioOutputError(output: name, reason: "takes only \(fixedFormat), was given \(format)")
        }
        if descriptor != nil { return .s16 }
        switch kind {
        case .file:
            do {
                descriptor = try FileDescriptor.open(
                    path, .writeOnly, options: [.append, .create, .closeOnExec],
                    permissions: [.ownerReadWrite, .groupRead, .otherRead])
            } catch {
                throw AudioOutputError(output: name, reason: "cannot open: \(error)")
            }
            pacer = RealTimePacer(sampleRate: format.sampleRate)
        case .pipe:
            try openPipe()
        }
        return .s16
    }

    private func openPipe() throws(AudioOutputError) {
        let opened: FileDescriptor
        if let pending = pendingWriter, Self.hasReader(pending) {
            opened = pending
        } else {
            // Looked up afresh: the FIFO may have been made again since.
            try? pendingWriter?.close()
            pendingWriter = nil
            let writer = try openWriter()
            guard Self.hasReader(writer) else {
                // Kept open: a reader that opens the FIFO now sees a writer, so it stays
                // (snapserver's pipe source reopens every 100 ms and leaves on end of
                // file). The next attempt finds it there.
                pendingWriter = writer
                throw AudioOutputError(output: name, reason: "no reader has the FIFO open (is snapserver running?)")
            }
            opened = writer
        }
        pendingWriter = nil
        let capacity = fcntl(opened.rawValue, Self.getPipeSize)
        pipeCapacity = capacity > 0 ? Int(capacity) : nil
        descriptor = opened
        pacer = nil
        unwritten.removeAll(keepingCapacity: true)
        unwrittenStart = 0
        // Room for what one write hands over beyond a full FIFO, so keeping it does not
        // allocate on the audio thread.
        unwritten.reserveCapacity(max(pipeCapacity ?? 0, 64 * 1024))
    }

    /// The FIFO's write end, opened without waiting: a read end of our own, held for the
    /// moment, makes the non-blocking open succeed whether or not a reader is there
    /// (alone it fails with ENXIO, and snapserver holds the FIFO open only while a
    /// writer does).
    private func openWriter() throws(AudioOutputError) -> FileDescriptor {
        do {
            let keeper = try FileDescriptor.open(path, .readOnly, options: [.nonBlocking, .closeOnExec])
            defer { try? keeper.close() }
            return try FileDescriptor.open(path, .writeOnly, options: [.nonBlocking, .closeOnExec])
        } catch Errno.noSuchFileOrDirectory {
            throw AudioOutputError(output: name, reason: "no FIFO there yet (its reader, such as snapserver, creates it)")
        } catch {
            throw AudioOutputError(output: name, reason: "cannot open: \(error)")
        }
    }

    /// Whether something reads what `writer` writes: a FIFO's write end without readers
    /// polls as an error (a regular file always has "a reader").
    private static func hasReader(_ writer: FileDescriptor) -> Bool {
        var state = pollfd(fd: writer.rawValue, events: Int16(POLLOUT), revents: 0)
        return !(poll(&state, 1, 0) > 0 && state.revents & Int16(POLLERR) != 0)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
        guard let descriptor else { throw AudioOutputError(output: name, reason: "not open") }
        guard kind == .pipe else {
            // write(2) itself: SystemPackage's `writeAll` is generic over any sequence and
            // runs unspecialised here, a measurable part of a write's cost.
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = Glibc.write(descriptor.rawValue, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw AudioOutputError(output: name, reason: "write failed: \(Errno(rawValue: errno))")
                }
                offset += written
            }
            pacer?.didWrite(frames: bytes.count / bytesPerFrame)
            return
        }
        try flushUnwritten(descriptor)
        if unwrittenCount > 0 {
            unwritten.append(contentsOf: bytes)
            return
        }
        let written = try writeSome(bytes, to: descriptor)
        if written < bytes.count {
            unwritten.removeAll(keepingCapacity: true)
            unwrittenStart = 0
            unwritten.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[written...]))
        }
    }

    /// Writes what the FIFO takes now; returns the number of bytes written.
    private func writeSome(_ bytes: UnsafeRawBufferPointer, to descriptor: FileDescriptor) throws(AudioOutputError) -> Int {
        var offset = 0
        while offset < bytes.count {
            do {
                offset += try descriptor.write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            } catch Errno.interrupted {
                continue
            } catch Errno.resourceTemporarilyUnavailable {
                break
            } catch Errno.brokenPipe {
                throw AudioOutputError(output: name, reason: "the reader closed the FIFO (reopening when it is back)")
            } catch {
                throw AudioOutputError(output: name, reason: "write failed: \(error)")
            }
        }
        return offset
    }

    private func flushUnwritten(_ descriptor: FileDescriptor) throws(AudioOutputError) {
        guard unwrittenCount > 0 else { return }
        let start = unwrittenStart
        let result = unwritten.withUnsafeBytes { bytes in
            Result { () throws(AudioOutputError) in
                try writeSome(UnsafeRawBufferPointer(rebasing: bytes[start...]), to: descriptor)
            }
        }
        let written = try result.get()
        unwrittenStart += written
        if unwrittenStart == unwritten.count {
            unwritten.removeAll(keepingCapacity: true)
            unwrittenStart = 0
        }
    }

    /// Bytes in the FIFO its reader has not read yet.
    private func queuedBytes() -> Int {
        guard let descriptor, pipeCapacity != nil else { return 0 }
        var queued: Int32 = 0
        return ioctl(descriptor.rawValue, Self.bytesReadable, &queued) == 0 ? Int(queued) : 0
    }

    public func waitTime(forFrames frames: Int) -> Duration {
        if let pacer { return pacer.waitTime(forFrames: frames) }
        guard let descriptor, let pipeCapacity else { return .zero }
        // A FIFO whose reader left is full for good: write now, so EPIPE says so.
        if !Self.hasReader(descriptor) { return .zero }
        // More than the FIFO holds fits once it is empty.
        let needed = min(frames * bytesPerFrame + unwrittenCount, pipeCapacity)
        let missing = needed - (pipeCapacity - queuedBytes())
        guard missing > 0 else { return .zero }
        // The reader takes the music in real time: that long until it has made room.
        let frameTime = Duration.microseconds(Int64(missing / bytesPerFrame + 1) * 1_000_000 / Int64(fixedFormat.sampleRate))
        return max(frameTime, .milliseconds(2))
    }

    public func pause() { pacer?.pause() }
    public func resume() { pacer?.resume() }
    /// Bytes already in the file or FIFO stay there; what a full FIFO did not take yet
    /// is dropped, and the clock forgets what was written.
    public func discard() {
        pacer?.reset()
        unwritten.removeAll(keepingCapacity: true)
        unwrittenStart = 0
    }

    /// Hands the FIFO what it did not take yet, waiting at most `drainLimit` for a
    /// reader that stopped reading: the bytes in the FIFO itself play out on their own.
    public func drain() throws(AudioOutputError) {
        pacer?.drain()
        guard let descriptor, unwrittenCount > 0 else { return }
        let deadline = ContinuousClock.now + Self.drainLimit
        while unwrittenCount > 0 && ContinuousClock.now < deadline {
            var ready = pollfd(fd: descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, 20)
            try flushUnwritten(descriptor)
        }
    }

    public func close() {
        try? descriptor?.close()
        descriptor = nil
        try? pendingWriter?.close()
        pendingWriter = nil
        pacer = nil
        pipeCapacity = nil
        unwritten.removeAll(keepingCapacity: true)
        unwrittenStart = 0
    }

    deinit {
        close()
    }

    /// fcntl's F_GETPIPE_SZ and ioctl's FIONREAD (Linux), which Glibc's module leaves out.
    private static let getPipeSize: Int32 = 1032
    private static let bytesReadable: UInt = 0x541B
    private static let drainLimit: Duration = .milliseconds(500)
}
