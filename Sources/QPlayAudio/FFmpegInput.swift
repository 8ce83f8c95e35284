import CFFmpeg
import QPlayModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A file opened by libavformat's demuxer, read through a `BudgetedReader`: an
/// AVIOContext whose read and seek callbacks are the reader's, so FFmpeg never opens the
/// file itself and every byte it reads counts against the budgets (a damaged file gives
/// up within them, as with the other decoders). The demuxer is the one the file's
/// content called for (MP4's `mov`, `wav`, `aiff`, `wv`, ADTS's `aac`), never FFmpeg's
/// guess: the format table already recognised the file.
final class FFmpegInput {
    let reader: BudgetedReader
    /// The demuxer's context; its `pb` is `io`.
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?

    /// avio's buffer: what it asks the reader for at a time.
    static let bufferSize = 32 * 1024

    init(reader: BudgetedReader, path: FilePath, what: String) throws(DecoderError) {
        Self.silenceLogging
        self.reader = reader
        guard let buffer = av_malloc(Self.bufferSize) else {
            throw DecoderError(path: path, reason: "out of memory")
        }
        io = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.bufferSize), 0,
            Unmanaged.passUnretained(reader).toOpaque(), readPacket, nil, seekStream)
        guard let io else {
            av_free(buffer)
            throw DecoderError(path: path, reason: "out of memory")
        }
        context = avformat_alloc_context()
        guard let context else { throw DecoderError(path: path, reason: "out of memory") }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // Opening parses headers (an MP4's `moov` may be megabytes: sample tables, cover
        // art), valid data without audio: only the time budget.
        reader.begin(positioning: true)
        let demuxer = av_find_input_format(Self.demuxer(for: reader.peek(12, at: reader.leadingTagSize)))
        // On failure libavformat frees the context and sets it to nil; `io` is ours.
        let status = avformat_open_input(&self.context, nil, demuxer, nil)
        guard status >= 0 else {
            throw DecoderError(
                path: path,
                reason: reader.openFailureReason(searchingFor: what) ?? "damaged file: \(Self.describe(status))")
        }
    }

    deinit {
        avformat_close_input(&context)
        if let io {
            av_freep(&io.pointee.buffer)
            avio_context_free(&self.io)
        }
    }

    /// At most this many chapters are kept, each title at most `maximumTitleLength`
    /// characters: every status carries them.
    static let maximumChapters = 1000
    static let maximumTitleLength = 200

    /// The container's chapters (an MP4's QuickTime chapter track or Nero `chpl`, read
    /// by the demuxer while opening), in seconds from `origin` (when the first sample
    /// plays on the container's clock), sorted by start; those starting at or past
    /// `length` left out.
    func chapters(origin: Double, length: Double?) -> [Chapter] {
        guard let context, let list = context.pointee.chapters else { return [] }
        var chapters: [Chapter] = []
        for index in 0..<Int(context.pointee.nb_chapters) {
            guard let chapter = list[index]?.pointee, chapter.time_base.num > 0, chapter.time_base.den > 0 else {
                continue
            }
            let start = Double(chapter.start) * Double(chapter.time_base.num) / Double(chapter.time_base.den) - origin
            guard start.isFinite, length.map({ start < $0 }) ?? true else { continue }
            let title = av_dict_get(chapter.metadata, "title", nil, 0)?.pointee.value.map { String(cString: $0) } ?? ""
            chapters.append(Chapter(title: String(title.prefix(Self.maximumTitleLength)), start: max(0, start)))
            if chapters.count == Self.maximumChapters { break }
        }
        return chapters.sorted { $0.start < $1.start }
    }

    /// The demuxer for a file whose first bytes (after any ID3v2 tag) are `head`.
    static func demuxer(for head: [UInt8]) -> String {
        func at(_ offset: Int, _ text: String) -> Bool {
            head.count >= offset + 4 && head[offset..<(offset + 4)].elementsEqual(text.utf8)
        }
        if at(4, "ftyp") { return "mov" }
        if at(0, "RIFF") { return "wav" }
        if at(0, "FORM") { return "aiff" }
        if at(0, "wvpk") { return "wv" }
        // ADTS; libavformat's `aac` skips a leading ID3v2 tag itself.
        return "aac"
    }

    /// FFmpeg's words for an error code.
    static func describe(_ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        guard av_strerror(code, &text, text.count) == 0 else { return "FFmpeg error \(code)" }
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// FFmpeg reports every damaged packet on stderr; qplay reports the file itself.
    static let silenceLogging: Void = {
        av_log_set_level(AV_LOG_QUIET)
        // One allocation of FFmpeg's own is at most 64 MiB (its default: 2 GiB). A
        // 365-byte WAV the fuzzer found, declaring a 67 MHz rate, had the demuxer zero
        // 1.3 GB while opening; an audio file's packets, headers and cover art are far
        // below the bound, and a refused allocation is a damaged file, skipped.
        av_max_alloc(64 << 20)
    }()
}

/// avio's read callback over the reader: bytes, the end, or an error (the reader then
/// knows which budget ran out).
private func readPacket(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let buffer, size > 0 else { return QP_AVERROR_EIO }
    let reader = Unmanaged<BudgetedReader>.fromOpaque(opaque).takeUnretainedValue()
    let got = reader.read(into: buffer, count: Int(size))
    if got > 0 { return Int32(got) }
    return got == 0 ? QP_AVERROR_EOF : QP_AVERROR_EIO
}

/// avio's seek callback; AVSEEK_SIZE asks for the file's size without moving.
private func seekStream(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return -1 }
    let reader = Unmanaged<BudgetedReader>.fromOpaque(opaque).takeUnretainedValue()
    if whence & QP_AVSEEK_SIZE != 0 {
        let here = reader.seek(offset: 0, whence: SEEK_CUR)
        let size = reader.seek(offset: 0, whence: SEEK_END)
        _ = reader.seek(offset: here, whence: SEEK_SET)
        return Int64(size)
    }
    // AVSEEK_FORCE may be added to the whence; the reader seeks anywhere anyway.
    return Int64(reader.seek(offset: Int(offset), whence: whence & 0xFFFF))
}
