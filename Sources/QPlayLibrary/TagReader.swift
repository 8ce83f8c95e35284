import CTagLib
import QPlayModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Why a file's tags could not be read. Every case is a reason to skip or report the
/// file, never to stop a scan.
public enum TagReadError: Error, Equatable, CustomStringConvertible {
    case unreadable(errno: Int32)
    /// Its content is no format's, and its name claims none qplay searches for.
    case unsupportedFormat
    case invalidFile
    case notAudio
    case libraryFailure
    /// A FIFO, socket or device: never opened for reading.
    case notRegularFile
    /// Its name claims a format (`claimed`) whose signature its content does not start
    /// with: a WAV or an Ogg FLAC file named `.flac` or `.ogg`, say.
    case misnamed(fileExtension: String, claimed: AudioFileFormat)
    /// TagLib wanted more than the budget: `bytesRead` before it stopped, and whether
    /// the CPU time ran out (else the byte budget).
    case gaveUp(bytesRead: Int, cpuTime: Duration, outOfTime: Bool)

    public var description: String {
        switch self {
        case .unreadable(let code): return "cannot open: \(String(cString: strerror(code)))"
        case .unsupportedFormat: return AudioFileFormat.notPlayed()
        case .invalidFile: return "not a valid audio file"
        case .notAudio: return "no audio stream found"
        case .libraryFailure: return "TagLib failed while reading it"
        case .notRegularFile: return "not a regular file"
        case .misnamed(let named, let claimed):
            return AudioFileFormat.notPlayed(FormatChoice.misnamedDetail(fileExtension: named, claimed: claimed))
        case .gaveUp(let bytes, let cpuTime, let outOfTime):
            let read = Self.megabytes(bytes)
            if outOfTime {
                let seconds = Double(cpuTime.components.seconds) + Double(cpuTime.components.attoseconds) * 1e-18
                return "gave up after \((seconds * 10).rounded() / 10) s of reading (\(read) read); no audio found"
            }
            return "gave up after reading \(read); no audio found"
        }
    }

    /// Whether the same bytes would fail the same way again, so a scan may remember the
    /// file as skipped until it changes. A file that could not be opened may open once
    /// its permissions (which leave size and modification time alone) are fixed.
    public var isLasting: Bool {
        if case .unreadable = self { return false }
        return true
    }

    private static func megabytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes >> 10) KB"
    }
}

/// Reads tags and audio properties through the TagLib shim. Paths go to TagLib as the
/// raw bytes of the file name, so names that are not valid UTF-8 work. The format — and
/// with it the TagLib parser — is chosen by the file's first bytes through the format
/// table, as the decoder registry chooses the decoder: a FLAC file named `.mp3` is read
/// as FLAC, and the name only tells a misnamed file from one worth searching for MPEG
/// frames (an MP3 may start with junk).
public enum TagReader {
    /// Reads `path` (opened read-only; regular files only) within `budget`.
    public static func read(_ path: FilePath, budget: TagReadBudget = .standard) throws(TagReadError) -> TagInfo {
        try readMetered(path, budget: budget).result.get()
    }

    /// `read`, and the bytes TagLib asked for whatever the outcome (0 when the file
    /// was not opened).
    public static func readMetered(
        _ path: FilePath, budget: TagReadBudget = .standard
    ) -> (result: Result<TagInfo, TagReadError>, bytesRead: Int) {
        var raw = qp_tag_info()
        var errorNumber: Int32 = 0
        let cpu = budget.cpuTime.components
        var limits = qp_tag_budget(
            max_bytes: Int64(budget.bytes),
            max_cpu_nanoseconds: cpu.seconds * 1_000_000_000 + cpu.attoseconds / 1_000_000_000)
        var choosing = Choosing(fileExtension: path.extension, file: ContentFile(path))
        let status = withUnsafeMutablePointer(to: &choosing) { context in
            path.withPlatformString {
                qp_tag_read(
                    $0, &limits, Int32(AudioFileFormat.headLength), { head, length, context in
                        let choosing = context!.assumingMemoryBound(to: Choosing.self)
                        let bytes = head.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
                        return choosing.pointee.choose(bytes)
                    }, context, &raw, &errorNumber)
            }
        }
        let bytesRead = Int(raw.bytes_read)
        let failure: TagReadError
        switch status {
        case QP_TAG_OK:
            defer { qp_tag_info_free(&raw) }
            // The shim parses a file only after the chooser named its kind.
            guard case .recognised(let format)? = choosing.choice else { return (.failure(.libraryFailure), bytesRead) }
            return (.success(info(raw, format: format)), bytesRead)
        case QP_TAG_UNREADABLE: failure = .unreadable(errno: errorNumber)
        case QP_TAG_INVALID: failure = .invalidFile
        case QP_TAG_NOT_AUDIO: failure = .notAudio
        case QP_TAG_NOT_REGULAR: failure = .notRegularFile
        case QP_TAG_NOT_CHOSEN:
            if case .misnamed(let named, let claimed) = choosing.choice {
                failure = .misnamed(fileExtension: named, claimed: claimed)
            } else {
                failure = .unsupportedFormat
            }
        case QP_TAG_BYTE_BUDGET, QP_TAG_TIME_BUDGET:
            failure = .gaveUp(
                bytesRead: bytesRead, cpuTime: .nanoseconds(raw.cpu_nanoseconds),
                outOfTime: status == QP_TAG_TIME_BUDGET)
        default: failure = .libraryFailure
        }
        return (.failure(failure), bytesRead)
    }

    /// The format chosen for one file, from its head (in the shim's callback) and name.
    private struct Choosing {
        let fileExtension: String?
        /// The rest of the file, for an MP4's codec.
        let file: ContentFile
        /// What the head said; a file searched for MPEG frames is `.recognised` as the
        /// searched format here (the shim read it as that).
        var choice: FormatChoice?

        /// The shim's kind for `head`; QP_KIND_NONE refuses the file.
        mutating func choose(_ head: [UInt8]) -> qp_tag_kind {
            var chosen = AudioFileFormat.choose(head: head, file: file.read, fileExtension: fileExtension)
            if chosen == .unrecognised, let searched = AudioFileFormat.searchedWhenUnrecognised,
                let named = fileExtension?.lowercased(), searched.fileExtensions.contains(named)
            {
                chosen = .recognised(searched)
            }
            choice = chosen
            guard case .recognised(let format) = chosen else { return QP_KIND_NONE }
            return qp_tag_kind(rawValue: format.row.tagLibKind.rawValue)
        }
    }

    private static func info(_ raw: qp_tag_info, format: AudioFileFormat) -> TagInfo {
        TagInfo(
            title: string(raw.title), artist: string(raw.artist), album: string(raw.album),
            albumArtist: string(raw.album_artist), genre: string(raw.genre),
            track: positive(raw.track), trackTotal: positive(raw.track_total),
            disc: positive(raw.disc), discTotal: positive(raw.disc_total),
            year: positive(raw.year),
            durationMilliseconds: Int(raw.duration_ms), bitrateKbps: Int(raw.bitrate_kbps),
            sampleRate: Int(raw.sample_rate), channels: Int(raw.channels), format: format,
            bitsPerSample: positive(raw.bits_per_sample),
            replayGain: ReplayGain(
                trackGain: raw.has_track_gain != 0 ? raw.track_gain : nil,
                trackPeak: raw.has_track_peak != 0 ? raw.track_peak : nil,
                albumGain: raw.has_album_gain != 0 ? raw.album_gain : nil,
                albumPeak: raw.has_album_peak != 0 ? raw.album_peak : nil),
            exactSamples: raw.exact_samples > 0 ? Int(raw.exact_samples) : nil,
            promisedAudioBytes: raw.promised_audio_bytes > 0 ? Int(raw.promised_audio_bytes) : nil,
            presentAudioBytes: raw.present_audio_bytes > 0 ? Int(raw.present_audio_bytes) : nil)
    }

    private static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func positive(_ value: Int32) -> Int? {
        value > 0 ? Int(value) : nil
    }
}
