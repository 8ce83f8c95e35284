import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A music file as a decoder reads it: opened without blocking, a regular file only,
/// and read under a budget, so no file can hold a decoder for long. A FIFO, a device or
/// a folder in a file's place would block `open` or never end; a file of zeros or text
/// makes a decoder search for audio through all of it (libmpg123 resyncs through any
/// amount of junk: about 0.5 µs a byte here, minutes for a 2 GB file). The budget:
/// at most `junkLimit` bytes read since the decoder last produced audio (plus a leading
/// ID3v2 tag before the first), and at most `timeLimit` for one call that produces none.
final class BudgetedFileReader {
    static let junkLimit = 256 * 1024
    static let timeLimit: Duration = .seconds(1)

    let descriptor: Int32
    let size: Int
    /// Why the last read was refused, once a budget ran out.
    private(set) var exceeded: String?
    private var sinceAudio = 0
    private var allowance: Int
    private var deadline: ContinuousClock.Instant?

    init(_ path: FilePath) throws(DecoderError) {
        let descriptor = path.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { throw DecoderError(path: path, reason: Self.reason(errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw DecoderError(path: path, reason: Self.reason(code))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw DecoderError(path: path, reason: "not a regular file")
        }
        guard info.st_size > 0 else {
            close(descriptor)
            throw DecoderError(path: path, reason: "empty file")
        }
        self.descriptor = descriptor
        size = Int(info.st_size)
        allowance = Self.junkLimit + Self.leadingTagSize(descriptor)
    }

    deinit {
        close(descriptor)
    }

    /// A call into the decoder begins: it may take `timeLimit` if it produces no audio.
    func beginCall() {
        deadline = .now + Self.timeLimit
    }

    /// The decoder produced audio: the junk budget starts afresh.
    func sawAudio() {
        sinceAudio = 0
        allowance = Self.junkLimit
        exceeded = nil
    }

    /// Reading the whole file is the point (building a seek index): only the time
    /// budget applies until `endWholeFileRead`.
    func beginWholeFileRead() {
        allowance = .max
        beginCall()
    }

    func endWholeFileRead() {
        sinceAudio = 0
        allowance = Self.junkLimit
    }

    /// POSIX `read` semantics for libmpg123; -1 once a budget has run out.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        if exceeded != nil { return -1 }
        if sinceAudio >= allowance {
            exceeded = "no audio in \(Self.junkLimit / 1024) KB"
            return -1
        }
        if let deadline, ContinuousClock.now > deadline {
            exceeded = "no audio within \(Self.timeLimit.components.seconds) s of decoding"
            return -1
        }
        let wanted = allowance == .max ? count : min(count, allowance - sinceAudio)
        while true {
            let got = Glibc.read(descriptor, buffer, wanted)
            if got < 0 && errno == EINTR { continue }
            if got > 0 { sinceAudio += got }
            return got
        }
    }

    func seek(to offset: Int, whence: Int32) -> Int {
        lseek(descriptor, offset, whence)
    }

    /// The size of an ID3v2 tag at the start, header and footer included (0 if none):
    /// a large picture in it is no junk.
    private static func leadingTagSize(_ descriptor: Int32) -> Int {
        var header = [UInt8](repeating: 0, count: 10)
        guard pread(descriptor, &header, 10, 0) == 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33,
            header[6...9].allSatisfy({ $0 < 0x80 })
        else { return 0 }
        let body = header[6...9].reduce(0) { $0 << 7 | Int($1) }
        let footer = header[5] & 0x10 != 0 ? 10 : 0
        return 10 + body + footer
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: "file not found"
        case EACCES, EPERM: "permission denied"
        case ELOOP: "too many symbolic links"
        default: String(cString: strerror(code))
        }
    }
}
