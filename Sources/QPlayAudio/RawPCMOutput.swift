import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Raw interleaved S16LE at one fixed rate and channel count, for Snapcast and for tests that capture
/// exactly what was played. `file:` appends to a regular file, paced in real time like
/// `null`; `pipe:` writes to a FIFO (or any file) and is paced by its reader.
public final class RawPCMOutput: AudioOutput {
    public enum Kind: String, Sendable {
        case file, pipe
    }

    public let kind: Kind
    public let path: FilePath
    public let fixedFormat: AudioFormat
    private var descriptor: FileDescriptor?
    private var pacer: RealTimePacer?

    public init(kind: Kind, path: FilePath, format: AudioFormat = .cd) {
        self.kind = kind
        self.path = path
        self.fixedFormat = format
    }

    public var name: String { "\(kind.rawValue):\(path.string)" }
    public var requiredFormat: AudioFormat? { fixedFormat }
    public var delayFrames: Int { pacer?.delayFrames ?? 0 }
    public var underruns: Int { 0 }

    @discardableResult
    public func open(format: AudioFormat) throws(AudioOutputError) -> SampleEncoding {
        guard format.joins(fixedFormat) else {
            throw AudioOutputError(output: name, reason: "takes only \(fixedFormat), was given \(format)")
        }
        if descriptor != nil { return .s16 }
        do {
            switch kind {
            case .file:
                descriptor = try FileDescriptor.open(
                    path, .writeOnly, options: [.append, .create, .closeOnExec],
                    permissions: [.ownerReadWrite, .groupRead, .otherRead])
                pacer = RealTimePacer(sampleRate: format.sampleRate)
            case .pipe:
                // Blocks until a reader opens the FIFO, as Snapcast's pipe source does.
                descriptor = try FileDescriptor.open(path, .writeOnly, options: [.closeOnExec])
                pacer = nil
            }
        } catch {
            throw AudioOutputError(output: name, reason: "cannot open: \(error)")
        }
        return .s16
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AudioOutputError) {
        guard let descriptor else { throw AudioOutputError(output: name, reason: "not open") }
        do {
            _ = try descriptor.writeAll(bytes)
        } catch {
            throw AudioOutputError(output: name, reason: "write failed: \(error)")
        }
        pacer?.didWrite(frames: bytes.count / (fixedFormat.channels * SampleEncoding.s16.bytesPerSample))
    }

    public func waitTime(forFrames frames: Int) -> Duration { pacer?.waitTime(forFrames: frames) ?? .zero }
    public func pause() { pacer?.pause() }
    public func resume() { pacer?.resume() }
    /// Bytes already in the file or FIFO stay there; only the clock forgets them.
    public func discard() { pacer?.reset() }

    public func drain() throws(AudioOutputError) {
        pacer?.drain()
    }

    public func close() {
        try? descriptor?.close()
        descriptor = nil
        pacer = nil
    }

    deinit {
        close()
    }
}
