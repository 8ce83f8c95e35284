import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The file under a decoder (libmpg123's handle, libFLAC's, …), read through a
/// descriptor we opened ourselves so that nothing the audio thread opens can block it
/// or keep it busy for long.
///
/// libmpg123 resyncs through junk one byte at a time and, with an unlimited resync
/// limit (needed to skip short junk mid-file), never gives up: a few megabytes of zeros
/// took seconds of silence, a large sparse file or /dev/zero took many minutes of a
/// whole core. The reader therefore enforces two budgets, each reset whenever the
/// decoder hands out audio: `junkBudget` bytes read without audio (plus, before the
/// first audio, a leading ID3v2 tag's size: libmpg123 seeks over the tag today, but a
/// tag it did read would not be junk), and `timeBudget` of wall time spent in one call.
/// When one runs out every further read fails, and the decoder turns that into a reason.
final class BudgetedReader {
    static let junkBudget = 256 * 1024
    static let timeBudget: Duration = .seconds(1)
    static let junkBudgetText = "\(junkBudget / 1024) KB"
    static let timeBudgetText = "\(timeBudget.components.seconds) s"

    enum Problem: Equatable {
        /// More than the junk budget was read without any audio.
        case junk
        /// One call spent more than the time budget without any audio.
        case time
        /// The kernel refused a read (errno).
        case readError(Int32)
    }

    /// What stopped reading; reads keep failing until `restart()`.
    @exclusivity(unchecked) private(set) var problem: Problem?
    /// The leading ID3v2 tag's size in bytes (0 without one).
    let leadingTagSize: Int
    /// This reader's junk budget: `junkBudget`, or more where one unit of valid audio can
    /// be larger (see `allowJunk(upTo:)`).
    private(set) var junkLimit = BudgetedReader.junkBudget
    var junkLimitText: String { "\(junkLimit / 1024) KB" }

    private let descriptor: Int32
    // Resyncing asks for one byte per call; serving those from memory instead of one
    // pread each: 256 KB of junk in 35 ms instead of 235 ms (debug build). Small (4 KB,
    // a tenth of a second of 320 kb/s audio): what a prefetched decoder read before its
    // file was overwritten still plays, and 32 KB of it was two seconds of the old file.
    private let buffer: UnsafeMutableRawBufferPointer
    // The state below is touched once or more per byte while resyncing. Only the thread
    // that owns the decoder uses it and the callbacks never overlap, so the runtime's
    // exclusivity checks (over half the resync's time in a debug build) are left out.
    @exclusivity(unchecked) private var bufferOffset = 0
    @exclusivity(unchecked) private var bufferCount = 0
    @exclusivity(unchecked) private var position = 0

    @exclusivity(unchecked) private var bytesSinceAudio = 0
    @exclusivity(unchecked) private var byteAllowance: Int
    @exclusivity(unchecked) private var countsBytes = true
    private var deadline: ContinuousClock.Instant
    @exclusivity(unchecked) private var callsSinceClockCheck = 0

    /// Opens `path` without blocking (a FIFO opens at once, O_NOCTTY keeps a terminal
    /// from becoming ours) and accepts only a non-empty regular file.
    init(opening path: FilePath) throws(DecoderError) {
        var descriptor: Int32
        repeat {
            descriptor = path.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw DecoderError(path: path, reason: Self.openReason(errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw DecoderError(path: path, reason: Self.describe(code))
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
        self.leadingTagSize = Self.leadingTagSize(descriptor)
        self.byteAllowance = Self.junkBudget + leadingTagSize
        self.buffer = .allocate(byteCount: 4 * 1024, alignment: 16)
        self.deadline = .now
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    /// Starts a call into libmpg123: the time budget runs from here. `positioning`
    /// (scanning the whole file for the seek index, seeking) reads valid frames without
    /// producing audio, so only the time budget applies.
    func begin(positioning: Bool = false) {
        countsBytes = !positioning
        deadline = .now + Self.timeBudget
        callsSinceClockCheck = 0
    }

    /// libmpg123 handed out samples: both budgets start again (the leading tag is behind).
    func audioArrived() {
        bytesSinceAudio = 0
        byteAllowance = junkLimit
        deadline = .now + Self.timeBudget
    }

    /// Raises the junk budget to `bytes` for a format whose single frame can be larger
    /// than `junkBudget` (a FLAC frame of 8 channels at 24 bits holds up to 1.5 MB): the
    /// decoder reads a whole frame before it hands out any of it.
    func allowJunk(upTo bytes: Int) {
        guard bytes > junkLimit else { return }
        byteAllowance += bytes - junkLimit
        junkLimit = bytes
    }

    /// A seek starts from a new place: whatever stopped reading before is forgotten.
    func restart() {
        problem = nil
        bytesSinceAudio = 0
    }

    /// Up to `count` bytes from `offset`, read past the budgets and the position (to
    /// recognise the format before a decoder reads).
    func peek(_ count: Int, at offset: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { raw in
            var got = -1
            repeat { got = pread(descriptor, raw.baseAddress!, count, off_t(offset)) } while got < 0 && errno == EINTR
            return got
        }
        return Array(bytes.prefix(max(0, got)))
    }

    // MARK: the decoder's I/O callbacks

    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        if problem != nil { return -1 }
        var wanted = count
        if countsBytes {
            let left = byteAllowance - bytesSinceAudio
            if left <= 0 { return fail(.junk) }
            wanted = min(wanted, left)
        }
        // Resync asks for one byte per call: the clock is read before every trip to the
        // disk and every so many calls served from memory.
        callsSinceClockCheck += 1
        if callsSinceClockCheck >= 1024 || position < bufferOffset || position >= bufferOffset + bufferCount {
            callsSinceClockCheck = 0
            if ContinuousClock.now > deadline { return fail(.time) }
        }
        let got = copy(into: destination, count: wanted)
        if got > 0 && countsBytes { bytesSinceAudio += got }
        return got
    }

    func seek(offset: Int, whence: Int32) -> Int {
        let target: Int
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return -1 }
            target = Int(info.st_size) + offset
        default:
            errno = EINVAL
            return -1
        }
        guard target >= 0 else {
            errno = EINVAL
            return -1
        }
        position = target
        return target
    }

    private func copy(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        if position < bufferOffset || position >= bufferOffset + bufferCount {
            if count >= buffer.count {
                let got = preadRetrying(destination, count, position)
                if got > 0 { position += got }
                return got
            }
            let got = preadRetrying(buffer.baseAddress!, buffer.count, position)
            if got <= 0 { return got }
            bufferOffset = position
            bufferCount = got
        }
        let available = bufferOffset + bufferCount - position
        let taken = min(count, available)
        destination.copyMemory(from: buffer.baseAddress! + (position - bufferOffset), byteCount: taken)
        position += taken
        return taken
    }

    private func preadRetrying(_ destination: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) -> Int {
        while true {
            let got = pread(descriptor, destination, count, off_t(offset))
            if got >= 0 { return got }
            if errno != EINTR { return fail(.readError(errno)) }
        }
    }

    private func fail(_ problem: Problem) -> Int {
        self.problem = problem
        return -1
    }

    // MARK: Helpers

    /// The size of an ID3v2 tag at the start of the file, header and footer included:
    /// "ID3", version (2 bytes, never 0xFF), flags, 4 syncsafe size bytes.
    private static func leadingTagSize(_ descriptor: Int32) -> Int {
        var header = [UInt8](repeating: 0, count: 10)
        let got = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, 10, 0) }
        guard got == 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33,
            header[3] != 0xFF, header[4] != 0xFF, header[6..<10].allSatisfy({ $0 < 0x80 })
        else { return 0 }
        let size = header[6..<10].reduce(0) { $0 << 7 | Int($1) }
        let footer = header[5] & 0x10 != 0 ? 10 : 0
        return 10 + size + footer
    }

    private static func openReason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "file not found"
        case EACCES, EPERM: "permission denied"
        case ELOOP: "too many symlinks"
        default: describe(code)
        }
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
